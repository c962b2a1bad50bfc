// The server as `npm start` runs it: engine/ and server/ compiled to JavaScript in .build/
// (gitignored), mirroring the source tree. Node then loads each module natively, where tsx's
// loader costs a start a resolve-and-load round trip per module (about 1.4 s of a start).
//
// - each .ts becomes a .js beside where its source sits in the mirror (TypeScript's transpile,
//   relative `.ts` imports rewritten to `.js`; no type check: `npm run typecheck` does that);
// - the plain-JavaScript entry points of worker threads and child processes (.mjs) are copied,
//   so that they run from the mirror and load its modules (engine/load-module.mjs);
// - every other file, and every directory without code (frameworks/, the shipped model, the
//   Prolog libraries), is a relative symlink to its source, so the paths modules derive from
//   import.meta.url find them, and an edited rule file needs no rebuild.
//
// Incremental: only sources newer than their output are compiled, and TypeScript is loaded only
// then, so the check `npm start` makes before every start costs a few milliseconds of stat calls;
// a change of this script or of the package versions it builds with starts afresh (buildStamp).
// `node scripts/build.mjs` builds (npm's `prepare` runs it at install); `--clean` starts afresh.
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const BUILD_DIR = path.join(ROOT, '.build');
/** The trees compiled; everything they reach by a relative path lies in them or in LINKED. */
const SOURCE_DIRS = ['engine', 'server'];
/** Trees without code the sources find by a relative path (engine/frameworks/loader.ts). */
const LINKED = ['frameworks'];

const isCode = (name) => (name.endsWith('.ts') && !name.endsWith('.d.ts')) || name.endsWith('.mjs');

/**
 * What the outputs depend on besides their sources: this script (compiler options, the
 * single-file builds) and the versions of the packages it compiles with or points at. The
 * mtime check cannot see these change, so a changed stamp starts the build afresh.
 */
function buildStamp() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  // a single-file build's package hides its package.json behind its exports: the file itself stands for its version
  const bundles = Object.entries(SINGLE_FILE_BUILDS).map(([name, locate]) => {
    const file = locate(require.resolve(name));
    const { size, mtimeMs } = statSync(file);
    return `${file}:${size}:${mtimeMs}`;
  });
  const inputs = [`typescript@${require('typescript/package.json').version}`, ...bundles];
  return createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update(inputs.join('\n')).digest('hex');
}

/**
 * Brings the compiled tree up to date with the sources; resolves to how many files it compiled
 * or copied. `outDir` must lie inside the repository, where its modules find node_modules.
 */
export async function build({ outDir = BUILD_DIR, clean = false, log = console.log } = {}) {
  const stamp = buildStamp();
  const stampFile = path.join(outDir, '.stamp');
  const built = statSync(stampFile, { throwIfNoEntry: false }) ? readFileSync(stampFile, 'utf8') : undefined;
  if (clean || built !== stamp) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const stale = [];
  const expected = new Set([outDir, stampFile]);
  const codeIn = new Map();
  const hasCode = (dir) => {
    if (!codeIn.has(dir)) codeIn.set(dir, readdirSync(dir, { withFileTypes: true }).some((entry) => (entry.isDirectory() ? hasCode(path.join(dir, entry.name)) : isCode(entry.name))));
    return codeIn.get(dir);
  };
  const link = (source, target) => {
    expected.add(target);
    const relative = path.relative(path.dirname(target), source);
    const current = lstatSync(target, { throwIfNoEntry: false });
    if (current?.isSymbolicLink() && readlinkSync(target) === relative) return;
    if (current) rmSync(target, { recursive: true, force: true });
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(relative, target);
  };
  const walk = (sourceDir, targetDir) => {
    expected.add(targetDir);
    for (const entry of readdirSync(sourceDir, { withFileTypes: true })) {
      const source = path.join(sourceDir, entry.name);
      const target = path.join(targetDir, entry.name);
      if (entry.isDirectory()) {
        if (hasCode(source)) walk(source, target);
        else link(source, target);
      } else if (isCode(entry.name)) {
        const output = entry.name.endsWith('.ts') ? `${target.slice(0, -3)}.js` : target;
        expected.add(output);
        const built = statSync(output, { throwIfNoEntry: false });
        if (!built || built.mtimeMs < statSync(source).mtimeMs) stale.push([source, output]);
      } else link(source, target);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(ROOT, dir), path.join(outDir, dir));
  for (const dir of LINKED) link(path.join(ROOT, dir), path.join(outDir, dir));
  removeUnexpected(outDir, expected);
  if (stale.length > 0) {
    await compile(stale);
    log(`parley: compiled ${stale.length} source file${stale.length === 1 ? '' : 's'} into ${path.relative(ROOT, outDir)}/`);
  }
  // written last: a build stopped before here starts afresh next time
  writeFileSync(stampFile, stamp);
  return stale.length;
}

/** Outputs of sources since deleted or moved: nothing may import them by mistake. */
function removeUnexpected(dir, expected) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (!expected.has(target)) rmSync(target, { recursive: true, force: true });
    else if (entry.isDirectory()) removeUnexpected(target, expected);
  }
}

/**
 * Packages imported through the single-file ESM build they ship (same version, same exports):
 * chevrotain's entry point pulls in about 600 lodash-es modules, 0.55 s of a start's CPU,
 * where its bundle loads in 0.02 s. Their package exports hide the file, so the compiled
 * import names its path.
 */
const SINGLE_FILE_BUILDS = { chevrotain: (entry) => path.join(path.dirname(entry), '..', 'chevrotain.mjs') };

async function compile(files) {
  const { default: ts } = await import('typescript');
  const require = createRequire(path.join(ROOT, 'package.json'));
  const builds = Object.entries(SINGLE_FILE_BUILDS).map(([name, locate]) => [name, locate(require.resolve(name))]);
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, rewriteRelativeImportExtensions: true, sourceMap: false };
  for (const [source, output] of files) {
    mkdirSync(path.dirname(output), { recursive: true });
    if (source.endsWith('.mjs')) {
      copyFileSync(source, output);
      continue;
    }
    let { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions, fileName: source });
    for (const [name, file] of builds) {
      const relative = path.relative(path.dirname(output), file).split(path.sep).join('/');
      outputText = outputText.replace(new RegExp(`(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])${name}\\2`, 'g'), `$1$2${relative}$2`);
    }
    // whole or not at all: a build stopped halfway must not leave a fresh-looking partial file
    writeFileSync(`${output}.partial`, outputText);
    renameSync(`${output}.partial`, output);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await build({ clean: process.argv.includes('--clean') });
