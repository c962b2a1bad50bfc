/**
 * The rule-module catalog of a thread that solves nothing (the server's main thread: its
 * reasoning workers solve), listed by a child process that loads the modules and ends, or
 * read from the cache file when the modules are unchanged (catalog-cache.ts).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cachedCatalog, catalogKey } from './catalog-cache.ts';
import type { CatalogListing } from './loader.ts';

/**
 * The main thread only lists what is loaded (workers solve), so pools in one process
 * (tests build many apps) share one catalog per set of directories: loading the 15
 * frameworks starts a Prolog engine and consults 16 files. The first pool's cache file,
 * if it names one, serves the next process.
 */
const catalogs = new Map<string, Promise<{ listing: CatalogListing; sourceKey: string }>>();
export function catalogFor(frameworkDirs: string[], cacheFile: string | undefined): Promise<{ listing: CatalogListing; sourceKey: string }> {
  const key = JSON.stringify(frameworkDirs);
  let catalog = catalogs.get(key);
  if (!catalog) {
    // the hash of the files listed: a worker that starts later checks that it consults the same (engine/reason/worker-entry.ts)
    const sourceKey = catalogKey(frameworkDirs);
    const listing = cacheFile ? cachedCatalog(cacheFile, frameworkDirs, () => loadCatalog(frameworkDirs), sourceKey) : loadCatalog(frameworkDirs);
    catalog = listing.then((listed) => ({ listing: listed, sourceKey }));
    catalogs.set(key, catalog);
    catalog.catch(() => catalogs.delete(key));
  }
  return catalog;
}

/** The catalog as a child process loads it, with the engine that process alone holds. */
function loadCatalog(frameworkDirs: string[]): Promise<CatalogListing> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./catalog-process.mjs', import.meta.url)), [JSON.stringify(frameworkDirs)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (listing) => resolve(listing as CatalogListing));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the rule-module catalog process exited (code ${code}) before it answered`)));
  });
}
