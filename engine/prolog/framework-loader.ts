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
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { RuleModuleError, startProlog } from './bridge.ts';
import { type HiddenPredicate, RuleRegistry } from './registry.ts';
import { EDGE_TYPES, NODE_KINDS } from '../ontology/index.ts';

/** Where the 15 built-in frameworks live. */
export const BUILTIN_FRAMEWORKS_DIR = fileURLToPath(new URL('../../frameworks/', import.meta.url));

/** The questions analyze routes to frameworks (engine/reason/intents.ts documents each). */
export const INTENTS = [
  'escalation', 'ripeness', 'negotiation', 'violence', 'phase', 'leadership', 'cooperation', 'conflict_style',
  'power', 'needs', 'identity', 'bargaining', 'spoilers', 'dispute_system', 'security_dilemma',
] as const;
export type Intent = (typeof INTENTS)[number];

export const FrameworkManifestSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9_]{1,39}$', description: 'lower-case id, the folder name' }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    citation: Type.String({ minLength: 1, maxLength: 500 }),
    question: Type.String({ minLength: 1, maxLength: 500 }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    reads: Type.Object(
      {
        nodes: Type.Array(Type.Union(NODE_KINDS.map((kind) => Type.Literal(kind))), { minItems: 1, uniqueItems: true }),
        edges: Type.Array(Type.Union(EDGE_TYPES.map((type) => Type.Literal(type))), { uniqueItems: true }),
      },
      { additionalProperties: false },
    ),
    answers: Type.Array(Type.Union(INTENTS.map((intent) => Type.Literal(intent))), {
      minItems: 1,
      uniqueItems: true,
      description: 'the kinds of question this framework answers (analyze routes by them)',
    }),
    time_aware: Type.Optional(Type.Boolean({ description: 'its conclusions depend on dates: assess can give its trajectory per period' })),
  },
  { additionalProperties: false, $id: 'FrameworkManifest' },
);
export type FrameworkManifest = Static<typeof FrameworkManifestSchema>;

/** The contract predicates (frameworks/README.md); indicator/3 and finding/5 are required. */
const REQUIRED_PREDICATES = ['indicator/3', 'finding/5'];

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
  /** Every predicate modules define but do not export, with what WHERE may call instead (RuleRegistry.hidden). */
  hidden: Record<string, HiddenPredicate>;
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
  return { frameworks: catalog.frameworks, ruleFiles: catalog.ruleFiles, callable: catalog.registry.callable(), hidden: catalog.registry.hiddenPredicates() };
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
