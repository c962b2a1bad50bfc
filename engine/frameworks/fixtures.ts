/**
 * A framework's fixture tests: `tests/*.json` in its folder, each a small graph in
 * the import format (api.md) with the conclusions expected of it. The same runner
 * serves `npm test` (test/frameworks), `npm run framework:check <dir>` and third
 * parties' modules, so a module is tested the way the service will run it: the
 * graph goes through the real store (LevelDB in a temp directory) and the rules
 * through the real registry.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ParleyStore } from '../store/store.ts';
import { graphWriteFromJson } from '../store/transfer.ts';
import type { FrameworkManifest } from './manifest.ts';
import { type FrameworkRun, runFramework } from './run.ts';
import type { RuleRegistry } from '../prolog/registry.ts';

export interface FindingExpectation {
  key: string;
  /** When given, the finding must have exactly this value. */
  value?: unknown;
  /** Ids the finding must cite. */
  evidence_includes?: string[];
}

export interface FixtureExpectation {
  applies?: boolean;
  /** Each must be part of one of the reasons the framework gives for not applying. */
  missing?: string[];
  findings?: FindingExpectation[];
  /** No finding may match any of these. */
  absent_findings?: FindingExpectation[];
  indicators_present?: string[];
  indicators_missing?: string[];
  /** Bounds on the fit (the run's score). */
  min_score?: number;
  max_score?: number;
  /** Bounds on the coverage: the weighted share of the indicators present. */
  min_coverage?: number;
  max_coverage?: number;
  /** How many per-actor findings the findings limit leaves out. */
  findings_omitted?: number;
}

export interface FixtureCase {
  description: string;
  /** ISO instant: the graph as recorded then (as assess's `as_of`). */
  as_of?: string;
  /** The run's findings limit (PARLEY_FINDINGS_LIMIT), instead of the default. */
  max_findings?: number;
  graph: { nodes: unknown[]; edges: unknown[] };
  expect: FixtureExpectation;
}

export interface FixtureOutcome {
  file: string;
  description: string;
  failures: string[];
  run?: FrameworkRun;
}

export const FIXTURE_LIMITS = { inferenceLimit: 2_000_000, timeLimitMs: 20_000 };

export function fixtureFiles(dir: string): string[] {
  const testsDir = path.join(dir, 'tests');
  try {
    return readdirSync(testsDir).filter((name) => name.endsWith('.json')).sort().map((name) => path.join(testsDir, name));
  } catch {
    return [];
  }
}

/** Runs every fixture of a loaded framework; each outcome lists what did not match (empty: passed). */
export async function runFixtures(registry: RuleRegistry, manifest: FrameworkManifest, dir: string): Promise<FixtureOutcome[]> {
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-fixtures-'));
  const store = await ParleyStore.open(storeDir);
  const outcomes: FixtureOutcome[] = [];
  try {
    for (const [i, file] of fixtureFiles(dir).entries()) {
      let fixture: FixtureCase;
      try {
        fixture = JSON.parse(readFileSync(file, 'utf8')) as FixtureCase;
      } catch (error) {
        outcomes.push({ file, description: path.basename(file), failures: [`not JSON: ${(error as Error).message}`] });
        continue;
      }
      try {
        const graphId = `fixture-${i}`;
        await store.writeGraph('fixtures', graphId, await graphWriteFromJson(fixture.graph));
        const graph = await store.loadGraph('fixtures', graphId);
        const limits = fixture.max_findings !== undefined ? { ...FIXTURE_LIMITS, maxFindings: fixture.max_findings } : FIXTURE_LIMITS;
        const run = runFramework(registry, manifest, { graph, ...(fixture.as_of ? { asOf: fixture.as_of } : {}) }, limits);
        outcomes.push({ file, description: fixture.description ?? path.basename(file), failures: compare(run, fixture.expect ?? {}), run });
      } catch (error) {
        outcomes.push({ file, description: fixture.description ?? path.basename(file), failures: [`could not run: ${(error as Error).message}`] });
      }
    }
  } finally {
    await store.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
  return outcomes;
}

function matches(finding: FrameworkRun['findings'][number], expected: FindingExpectation): boolean {
  if (finding.key !== expected.key) return false;
  if ('value' in expected && !isDeepStrictEqual(finding.value, expected.value)) return false;
  return (expected.evidence_includes ?? []).every((id) => finding.evidence.includes(id));
}

/** What of `expected` the run does not show, in words. */
export function compare(run: FrameworkRun, expected: FixtureExpectation): string[] {
  const failures: string[] = [];
  const found = run.findings.map((finding) => `${finding.key}=${JSON.stringify(finding.value)}`).join(', ') || 'none';
  if (run.error) failures.push(`the run stopped: ${run.error.message}`);
  if (expected.applies !== undefined && run.applies !== expected.applies) {
    failures.push(`expected applies=${expected.applies}, got ${run.applies}${run.missing.length ? ` (missing: ${run.missing.join('; ')})` : ''}`);
  }
  for (const reason of expected.missing ?? []) {
    if (!run.missing.some((given) => given.includes(reason))) failures.push(`expected a missing-evidence reason containing '${reason}', got: ${run.missing.join('; ') || 'none'}`);
  }
  for (const finding of expected.findings ?? []) {
    if (!run.findings.some((given) => matches(given, finding))) failures.push(`expected finding ${JSON.stringify(finding)}; findings: ${found}`);
  }
  for (const finding of expected.absent_findings ?? []) {
    if (run.findings.some((given) => matches(given, finding))) failures.push(`expected no finding ${JSON.stringify(finding)}; findings: ${found}`);
  }
  const present = run.indicators_present.map((indicator) => indicator.name);
  for (const name of expected.indicators_present ?? []) if (!present.includes(name)) failures.push(`expected indicator '${name}' present; present: ${present.join(', ') || 'none'}`);
  for (const name of expected.indicators_missing ?? []) if (present.includes(name)) failures.push(`expected indicator '${name}' missing, but it is present`);
  if (expected.min_score !== undefined && run.score < expected.min_score) failures.push(`expected score >= ${expected.min_score}, got ${run.score}`);
  if (expected.max_score !== undefined && run.score > expected.max_score) failures.push(`expected score <= ${expected.max_score}, got ${run.score}`);
  if (expected.min_coverage !== undefined && run.coverage < expected.min_coverage) failures.push(`expected coverage >= ${expected.min_coverage}, got ${run.coverage}`);
  if (expected.max_coverage !== undefined && run.coverage > expected.max_coverage) failures.push(`expected coverage <= ${expected.max_coverage}, got ${run.coverage}`);
  if (expected.findings_omitted !== undefined && run.findings_omitted !== expected.findings_omitted) {
    failures.push(`expected ${expected.findings_omitted} findings left out by the findings limit, got ${run.findings_omitted}`);
  }
  return failures;
}
