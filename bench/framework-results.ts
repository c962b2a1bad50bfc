/**
 * framework-results: every framework's result, as JSON lines, over every framework's
 * fixture graphs and over generated conflict graphs of about 1k and 10k facts, so a change
 * that should leave the reasoning alone (a move, a new rule library, an export list) can be
 * checked byte for byte: run it before and after, then `cmp` the two files.
 *
 * Per graph it writes the assess of all frameworks (`frameworks` task, as the workers run
 * it; a fixture's own `as_of` kept), the monthly trajectory and the analyze answer to a few
 * questions. The inferences each run used are written on lines of their own (`inferences`),
 * so a change that reorders the work inside a rule without changing any conclusion shows
 * apart from one that changes a conclusion.
 *
 * --extracted-shape: the generated graphs with the edges and nodes extraction makes that the default graph lacks
 * (conflict-graph.ts GenerateOptions), to compare a rule's results on them before and after a change; their graph ids
 * end in `-extracted-shape`.
 *
 *   npx tsx bench/framework-results.ts --out results.jsonl [--sizes 1000,10000] [--extracted-shape]
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { BUILTIN_FRAMEWORKS_DIR, loadRuleModules } from '../engine/frameworks/loader.ts';
import type { FrameworkRun } from '../engine/frameworks/run.ts';
import { fixtureFiles } from '../engine/frameworks/fixtures.ts';
import { routeQuestion } from '../engine/frameworks/intents.ts';
import { writeAnalysis } from '../engine/reason/analysis.ts';
import type { GraphVersion } from '../engine/reason/replicas.ts';
import { runTask } from '../engine/reason/tasks.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { graphWriteFromJson } from '../engine/store/transfer.ts';
import type { GraphIndex } from '../engine/store/graph-index.ts';

const { values: args } = parseArgs({ options: { out: { type: 'string' }, sizes: { type: 'string', default: '1000,10000' }, 'extracted-shape': { type: 'boolean', default: false } } });
if (!args.out) throw new Error('--out <file> is required');
const out = createWriteStream(args.out);
/** runTask does not read the version a task was asked at: the pool matches it to a replica before. */
const AT = {} as GraphVersion;
const LIMITS = { inferenceLimit: 20_000_000, timeLimitMs: 600_000 };
const QUESTIONS = ['Why do the ceasefire negotiations keep failing?', 'Who are the spoilers?', 'Is the conflict ripe for resolution?', 'How far has the conflict escalated?'];

const catalog = await loadRuleModules([]);
const ids = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
const refused = catalog.frameworks.filter((entry) => entry.status !== 'loaded');
if (refused.length) throw new Error(`refused: ${JSON.stringify(refused)}`);

function line(record: unknown): void {
  out.write(`${JSON.stringify(record)}\n`);
}

function value<T>(reply: ReturnType<typeof runTask>): T {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.value as T;
}

function results(label: string, graph: GraphIndex, asOf?: string): void {
  const runs = value<FrameworkRun[]>(runTask({ kind: 'frameworks', at: AT, frameworkIds: ids, asOf, limits: LIMITS }, graph, catalog));
  for (const run of runs) {
    const { inferences, ...rest } = run;
    line({ graph: label, as_of: asOf ?? null, run: rest });
    line({ graph: label, as_of: asOf ?? null, framework_id: run.framework_id, inferences });
  }
  for (const question of QUESTIONS) {
    const routing = routeQuestion(question);
    line({ graph: label, as_of: asOf ?? null, question, analysis: writeAnalysis(question, routing, runs, graph) });
  }
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-framework-results-'));
const store = await ParleyStore.open(dir);
try {
  let n = 0;
  for (const id of ids) {
    for (const file of fixtureFiles(path.join(BUILTIN_FRAMEWORKS_DIR, id))) {
      const fixture = JSON.parse(await readFile(file, 'utf8'));
      const graphId = `fixture-${n++}`;
      await store.writeGraph('results', graphId, await graphWriteFromJson(fixture.graph));
      const graph = await store.loadGraph('results', graphId);
      results(`${id}/${path.basename(file)}`, graph, fixture.as_of);
    }
  }
  for (const size of args.sizes!.split(',').map(Number).filter((x) => x > 0)) {
    const generated = generate(size, { extracted: args['extracted-shape']! });
    // the shape named in the id only when asked for, so that the default output stays the same file
    const graphId = `generated-${size}${args['extracted-shape'] ? '-extracted-shape' : ''}`;
    await store.writeGraph('results', graphId, generated.write);
    const graph = await store.loadGraph('results', graphId);
    results(graphId, graph);
    const trajectory = runTask({ kind: 'trajectory', at: AT, frameworkIds: ids, period: 'month', maxPeriods: 60, limits: LIMITS }, graph, catalog);
    line({ graph: graphId, trajectory: value(trajectory) });
  }
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
  out.end();
}
