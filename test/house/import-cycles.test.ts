/**
 * The rooms' arrows run one way: no module reaches itself again through the modules it
 * imports, type-only imports and dynamic import() included (a type cycle still ties two
 * rooms into one for whoever reads or moves them). Imports are read with TypeScript's own
 * pre-processor, so a specifier in a comment or a string does not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TREES = ['engine', 'server', 'packages'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each file's relative imports, as absolute paths. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map(({ fileName }) => fileName)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => known.has(target));
      return [file, targets];
    }),
  );
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

  it('finds a cycle when there is one', () => {
    const a = path.join(ROOT, 'a.ts');
    const b = path.join(ROOT, 'b.ts');
    const c = path.join(ROOT, 'c.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([['a.ts', 'b.ts']]);
  });
});
