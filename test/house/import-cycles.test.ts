/**
 * The rooms' arrows run one way: no module reaches itself again through the modules it
 * imports, type-only imports and dynamic import() included (a type cycle still ties two
 * rooms into one for whoever reads or moves them), and imports by workspace name
 * (@parley/engine/…) count as the relative paths they stand for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT, importSpecifiers, resolveImport, sourceFiles } from './source-imports.ts';

const TREES = ['engine', 'server', 'packages'];

/** Each file's imports of files of the trees (by relative path or workspace name), as absolute paths. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const targets = importSpecifiers(readFileSync(file, 'utf8'))
        .map((specifier) => resolveImport(file, specifier))
        .filter((target): target is string => target !== undefined && known.has(target));
      return [file, targets];
    }),
  );
}

/** The room a file lives in: its folder under engine/ or packages/, or its top-level folder (a module directly in engine/ is a room of its own). */
function roomOf(file: string): string {
  const [top, second] = path.relative(ROOT, file).split(path.sep);
  return path.join(ROOT, top === 'engine' || top === 'packages' ? path.join(top, second) : top);
}

/** The strongly connected components of more than one module (Tarjan), each as paths from the root. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(ROOT, member));
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import structure', () => {
  const files = TREES.flatMap((tree) => sourceFiles(path.join(ROOT, tree)));

  it('reads the trees', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('has no import cycle in engine/, server/ or packages/', () => {
    expect(cycles(importGraph(files))).toEqual([]);
  });

  it('has no cycle between rooms (engine/<room>, server, packages/<package>), and engine/ontology imports nothing', () => {
    const graph = importGraph(files);
    const rooms = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = roomOf(file);
      const arrows = rooms.get(from) ?? rooms.set(from, new Set()).get(from)!;
      for (const target of targets) if (roomOf(target) !== from) arrows.add(roomOf(target));
    }
    expect([...rooms.get(path.join(ROOT, 'engine/ontology'))!]).toEqual([]);
    expect(cycles(new Map([...rooms].map(([room, arrows]) => [room, [...arrows]])))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const a = path.join(ROOT, 'a.ts');
    const b = path.join(ROOT, 'b.ts');
    const c = path.join(ROOT, 'c.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([['a.ts', 'b.ts']]);
  });
});
