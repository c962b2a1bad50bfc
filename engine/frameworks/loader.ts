/**
 * Loads rule modules from directories into a RuleRegistry (spec/frameworks.md
 * "Contract of a framework module"). In each directory:
 *
 *   <id>/manifest.json + rules.pl + README.md   a framework (the 15 built-ins and third parties alike)
 *   <name>.pl                                   a plain rule module: its predicates are callable in WHERE
 *
 * A manifest is validated against FrameworkManifestSchema; rules are consulted once
 * (with the helper library); a framework must define the contract predicates. A
 * module that fails any of this is refused with its file, line and reason, and the
 * others still load.
 */
import { existsSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { RuleModuleError, startProlog } from '../prolog/bridge.ts';
import { RuleRegistry } from '../prolog/registry.ts';
import { REQUIRED_PREDICATES } from './contract.ts';
import { FrameworkManifestSchema, type FrameworkManifest } from './manifest.ts';

/** Where the 15 built-in frameworks live. */
export const BUILTIN_FRAMEWORKS_DIR = fileURLToPath(new URL('../../frameworks/', import.meta.url));

export interface ModuleProblem {
  file: string;
  line?: number;
  column?: number;
  reason: string;
}

export type FrameworkEntry =
  | { status: 'loaded'; id: string; dir: string; manifest: FrameworkManifest; readme: string; builtin: boolean }
  | { status: 'refused'; id: string; dir: string; builtin: boolean; problems: ModuleProblem[] };

export interface RuleFileEntry {
  status: 'loaded' | 'refused';
  id: string;
  file: string;
  predicates: string[];
  problems: ModuleProblem[];
}

/** The catalog as data: what a thread without a Prolog engine keeps (the server's main thread). */
export interface CatalogListing {
  frameworks: FrameworkEntry[];
  ruleFiles: RuleFileEntry[];
  /** Every predicate WHERE may call, by indicator, with its module (RuleRegistry.callable). */
  callable: Record<string, string>;
}

export interface FrameworkCatalog {
  registry: RuleRegistry;
  frameworks: FrameworkEntry[];
  ruleFiles: RuleFileEntry[];
}

/**
 * Loads the built-ins and then every extra directory (PARLEY_FRAMEWORKS_DIR), through
 * the same path, starting this thread's Prolog engine. A framework id seen twice is
 * refused the second time.
 */
export async function loadRuleModules(extraDirs: string[] = [], options: { builtinDir?: string } = {}): Promise<FrameworkCatalog> {
  await startProlog();
  const registry = new RuleRegistry();
  const catalog: FrameworkCatalog = { registry, frameworks: [], ruleFiles: [] };
  const dirs = [{ dir: options.builtinDir ?? BUILTIN_FRAMEWORKS_DIR, builtin: true }, ...extraDirs.map((dir) => ({ dir: path.resolve(dir), builtin: false }))];
  for (const { dir, builtin } of dirs) {
    if (!existsSync(dir)) {
      catalog.frameworks.push(refusedFolder(dir, builtin, 'directory does not exist'));
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      catalog.frameworks.push(refusedFolder(dir, builtin, `directory cannot be read: ${(error as Error).message}`));
      continue;
    }
    for (const name of names) {
      const entryPath = path.join(dir, name);
      let stat: Stats;
      try {
        stat = statSync(entryPath);
      } catch (error) {
        // a dangling symlink or an entry that cannot be examined: whatever it was meant to be, it cannot load
        const reason = `cannot be read: ${(error as Error).message}`;
        if (name.endsWith('.pl')) catalog.ruleFiles.push({ status: 'refused', id: path.basename(name, '.pl'), file: entryPath, predicates: [], problems: [{ file: entryPath, reason }] });
        else catalog.frameworks.push(refusedFolder(entryPath, builtin, reason));
        continue;
      }
      if (stat.isDirectory() && existsSync(path.join(entryPath, 'manifest.json'))) {
        catalog.frameworks.push(loadFramework(registry, entryPath, builtin));
      } else if (stat.isFile() && name.endsWith('.pl')) {
        catalog.ruleFiles.push(loadRuleFile(registry, entryPath));
      }
    }
  }
  return catalog;
}

/** A folder (a rule directory, or an entry in one) refused as a whole: it names no module file to blame. */
function refusedFolder(dir: string, builtin: boolean, reason: string): FrameworkEntry {
  return { status: 'refused', id: path.basename(dir), dir, builtin, problems: [{ file: dir, reason }] };
}

export function catalogListing(catalog: FrameworkCatalog): CatalogListing {
  return { frameworks: catalog.frameworks, ruleFiles: catalog.ruleFiles, callable: catalog.registry.callable() };
}

/** Validates and consults one framework folder into `registry`. */
export function loadFramework(registry: RuleRegistry, dir: string, builtin: boolean): FrameworkEntry {
  const folderId = path.basename(dir);
  const refuse = (...problems: ModuleProblem[]): FrameworkEntry => ({ status: 'refused', id: folderId, dir, builtin, problems });
  const manifestPath = path.join(dir, 'manifest.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    return refuse({ file: manifestPath, reason: `manifest.json is not JSON: ${(error as Error).message}` });
  }
  const schemaProblems = [...Value.Errors(FrameworkManifestSchema, manifest)].slice(0, 10).map((error) => ({
    file: manifestPath,
    reason: `${error.path || '/'}: ${error.message}`,
  }));
  if (schemaProblems.length > 0) return refuse(...schemaProblems);
  const valid = manifest as FrameworkManifest;
  if (valid.id !== folderId) return refuse({ file: manifestPath, reason: `id '${valid.id}' must equal the folder name '${folderId}'` });
  if (registry.module(valid.id)) {
    return refuse({ file: manifestPath, reason: `a framework with id '${valid.id}' is loaded already` });
  }
  const rulesPath = path.join(dir, 'rules.pl');
  const readmePath = path.join(dir, 'README.md');
  if (!existsSync(rulesPath)) return refuse({ file: rulesPath, reason: 'rules.pl is missing' });
  if (!existsSync(readmePath)) return refuse({ file: readmePath, reason: 'README.md is missing' });
  // read before the rules are consulted, so a refused module leaves nothing in the registry
  let readme: string;
  try {
    readme = readFileSync(readmePath, 'utf8');
  } catch (error) {
    return refuse({ file: readmePath, reason: `README.md cannot be read: ${(error as Error).message}` });
  }
  try {
    const defined = registry.load(valid.id, readFileSync(rulesPath, 'utf8'), rulesPath);
    const absent = REQUIRED_PREDICATES.filter((indicator) => !defined.includes(indicator));
    if (absent.length > 0) {
      registry.unload(valid.id);
      return refuse({ file: rulesPath, reason: `rules.pl does not define ${absent.join(' and ')} (frameworks/README.md, "The contract")` });
    }
  } catch (error) {
    return refuse(problemOf(error, rulesPath));
  }
  return { status: 'loaded', id: valid.id, dir, manifest: valid, readme, builtin };
}

function loadRuleFile(registry: RuleRegistry, file: string): RuleFileEntry {
  const id = path.basename(file, '.pl');
  try {
    if (registry.module(id)) throw new Error(`a rule module with id '${id}' is loaded already`);
    const predicates = registry.load(id, readFileSync(file, 'utf8'), file);
    return { status: 'loaded', id, file, predicates, problems: [] };
  } catch (error) {
    return { status: 'refused', id, file, predicates: [], problems: [problemOf(error, file)] };
  }
}

function problemOf(error: unknown, file: string): ModuleProblem {
  if (error instanceof RuleModuleError) {
    return { file: error.origin, ...(error.line !== undefined ? { line: error.line } : {}), ...(error.column !== undefined ? { column: error.column } : {}), reason: error.reason };
  }
  return { file, reason: (error as Error).message };
}
