/**
 * The source files of a tree and the modules each imports, read with TypeScript's own
 * pre-processor (static, type-only, re-exported and dynamic imports; a specifier in a
 * comment or a string does not count), for the tests of the house's structure.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The workspaces imported by package name, and the folder each name stands for. */
const WORKSPACES: Record<string, string> = { '@parley/engine/': 'engine', '@parley/server/': 'server' };

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(file);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

/** The file a specifier of `file` names in this repository: relative, or a module of a workspace by its package name. */
export function resolveImport(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  const workspace = Object.keys(WORKSPACES).find((name) => specifier.startsWith(name));
  return workspace ? path.join(REPO_ROOT, WORKSPACES[workspace], specifier.slice(workspace.length)) : undefined;
}
