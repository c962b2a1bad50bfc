// Builds dist/ (ESM + .d.ts) from src/. The sources import the server's schema
// modules for their types only, so the program spans the repository but only
// the client's own files are emitted (tsc alone would emit every file it reads).
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
// TS6059 ("not under rootDir") names the server modules read for types: expected, as they are not emitted.
const NOT_UNDER_ROOT_DIR = 6059;
const problems = ts
  .getPreEmitDiagnostics(program)
  .filter((d) => d.code !== NOT_UNDER_ROOT_DIR && (!d.file || files.includes(path.resolve(d.file.fileName))));
if (problems.length > 0) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(problems, host));
  process.exit(1);
}
rmSync(dist, { recursive: true, force: true });
for (const file of files) program.emit(program.getSourceFile(file));
