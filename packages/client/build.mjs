// Builds dist/ (ESM + .d.ts) from src/, which imports nothing outside it (src/types.ts is
// generated from the server's schemas by generate-types.ts), so dist/ stands alone.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const files = readdirSync(src).filter((name) => name.endsWith('.ts')).map((name) => path.join(src, name));

const program = ts.createProgram(files, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  declaration: true,
  allowImportingTsExtensions: true,
  rewriteRelativeImportExtensions: true,
  types: ['node'],
  rootDir: src,
  outDir: dist,
});
const problems = ts.getPreEmitDiagnostics(program);
if (problems.length > 0) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(problems, host));
  process.exit(1);
}
rmSync(dist, { recursive: true, force: true });
program.emit();
