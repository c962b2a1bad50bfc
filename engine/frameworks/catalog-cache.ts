/**
 * The rule-module catalog kept between starts. Listing the modules means consulting every
 * one of them in a Prolog engine (a child process, about 1.4 s of a start), while the
 * reasoning workers consult them again to solve; a restart with the same modules lists
 * them from this file instead. The file is keyed by a hash of everything the listing is
 * made from: every file under the rule directories (with their paths, which the listing
 * names), the code and libraries of this room and of the Prolog layer, the ontology the
 * manifests are checked against, and the Prolog engine's version. Any change there lists the modules afresh, so
 * a module broken since the last start is still reported, with its file and line.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceFile } from '../files.ts';
import { BUILTIN_FRAMEWORKS_DIR, type CatalogListing } from './loader.ts';

/** Raised when the file's layout or the listing's shape changes. */
const FORMAT = 2;
/** The engine code a listing depends on, in the tree that runs (sources or the compiled tree). */
const CODE_DIRS = ['./', '../prolog/', '../ontology/'].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

/** The catalog of `frameworkDirs` from `file` when its key still holds, else from `list()`, then written to `file`. */
export async function cachedCatalog(file: string, frameworkDirs: string[], list: () => Promise<CatalogListing>, key = catalogKey(frameworkDirs)): Promise<CatalogListing> {
  // missing or damaged: listed afresh
  const kept = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as { key?: unknown; listing?: CatalogListing })
    .catch(() => undefined);
  if (kept?.key === key && kept.listing) return kept.listing;
  const listing = await list();
  // a read-only data dir costs the next start the listing again, nothing more
  await replaceFile(file, JSON.stringify({ key, listing })).catch(() => {});
  return listing;
}

/** The hash of what the listing of `frameworkDirs` is made from. */
export function catalogKey(frameworkDirs: string[]): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\0swipl-wasm ${swiplVersion()}\0`);
  for (const dir of [BUILTIN_FRAMEWORKS_DIR, ...frameworkDirs.map((dir) => path.resolve(dir)), ...CODE_DIRS]) {
    hash.update(`dir ${dir}\0`);
    hashTree(hash, dir, '');
  }
  return hash.digest('hex');
}

/** Every file under `dir`, symlinks followed (the compiled tree links the Prolog libraries), in name order; a missing dir hashes as such. */
export function hashTree(hash: ReturnType<typeof createHash>, dir: string, relative: string): void {
  let names: string[];
  try {
    names = readdirSync(path.join(dir, relative)).sort();
  } catch {
    hash.update(`missing ${relative}\0`);
    return;
  }
  for (const name of names) {
    const entry = path.join(relative, name);
    const stat = statSync(path.join(dir, entry), { throwIfNoEntry: false });
    if (stat?.isDirectory()) hashTree(hash, dir, entry);
    else if (stat?.isFile()) {
      // a file this process may not read hashes as such (the loader refuses its module), and the server still starts
      const content = readable(path.join(dir, entry));
      hash.update(content ? `file ${entry}\0` : `unreadable ${entry}\0`).update(content ?? '').update('\0');
    }
  }
}

function readable(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function swiplVersion(): string {
  // read, not required: the main thread loads nothing of the engine's package (test/reason/pool.test.ts)
  return (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('swipl-wasm/package.json'), 'utf8')) as { version: string }).version;
}
