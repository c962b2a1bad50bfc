/**
 * Where the TCK feature files are, which of them this runner covers, and
 * loading them into planned scenarios.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFeature, type ScenarioSpec } from './gherkin.ts';

/**
 * The feature folders the runner covers, relative to the features directory: the read-only
 * clauses and every expression folder but `expressions/temporal` (the engine has no temporal
 * types: dates are strings in the ontology). Write clauses (CREATE beyond the test setup,
 * MERGE, SET, DELETE, REMOVE) and CALL are refused by the service and not covered.
 */
export const FEATURE_FOLDERS = [
  'clauses/match',
  'clauses/match-where',
  'clauses/return',
  'clauses/return-orderby',
  'clauses/return-skip-limit',
  'clauses/with',
  'clauses/with-where',
  'clauses/with-orderBy',
  'clauses/with-skip-limit',
  'clauses/unwind',
  'clauses/union',
  'expressions/aggregation',
  'expressions/boolean',
  'expressions/comparison',
  'expressions/conditional',
  'expressions/existentialSubqueries',
  'expressions/graph',
  'expressions/list',
  'expressions/literals',
  'expressions/map',
  'expressions/mathematical',
  'expressions/null',
  'expressions/path',
  'expressions/pattern',
  'expressions/precedence',
  'expressions/quantifier',
  'expressions/string',
  'expressions/typeConversion',
];

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The default is the shared checkout beside the project; PARLEY_TCK_DIR overrides it. */
export function featuresDirectory(): string {
  return resolve(PROJECT_ROOT, process.env.PARLEY_TCK_DIR ?? '../shared/tck/tck/features');
}

/** The covered folders absent from `root` (all of them when `root` itself is absent). */
export function missingFolders(root: string): string[] {
  return FEATURE_FOLDERS.filter((folder) => !existsSync(join(root, folder)));
}

export interface LoadedScenario extends ScenarioSpec {
  /** The feature file's path relative to the features directory, for per-file counts. */
  path: string;
}

export function loadScenarios(root: string): LoadedScenario[] {
  const scenarios: LoadedScenario[] = [];
  for (const folder of FEATURE_FOLDERS) {
    const files = readdirSync(join(root, folder))
      .filter((name) => name.endsWith('.feature'))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const name of files) {
      const feature = parseFeature(readFileSync(join(root, folder, name), 'utf8'), name);
      for (const scenario of feature.scenarios) scenarios.push({ ...scenario, path: `${folder}/${name}` });
    }
  }
  // ids name files by their base name, which the TCK keeps unique across folders
  const seen = new Set<string>();
  for (const { id } of scenarios) {
    if (seen.has(id)) throw new Error(`two scenarios share the id ${id}`);
    seen.add(id);
  }
  return scenarios;
}
