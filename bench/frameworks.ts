/**
 * bench:frameworks — `assess` (every loaded framework) over conflict graphs of about
 * 1k, 10k and 100k facts (facts = nodes + edges + properties, as bench/query.ts
 * counts them), each written into a real ParleyStore in a temp dir, beside a
 * baseline measured in the same run. The machines are shared and noisy: read the
 * ratios, and the targets are quoted, never asserted.
 *
 * Per size it prints
 *   - through a new ReasoningPool (the service's path: worker threads over graph replicas),
 *     each part apart: the worker start (the pool's first call, a query on a 1-node
 *     graph), the replica snapshot (the first call on the graph, a point query), the
 *     first assess (`pool.frameworks(tenant, graph, all ids, {limits})`) right after the
 *     replica, nothing cached: the workers are still handing the replica to their engines
 *     (worker-entry.ts) and the second worker may still be starting; the same first assess
 *     in a second new pool, asked once every worker's engine holds the view
 *     (`pool.viewsPrepared`, and how long after the replica that was); then, in the first
 *     pool, once its other workers have started and handed the replica to their engines,
 *     up to --runs assess calls each after one small write (a new
 *     Issue node: the per-version result cache misses, the worker applies the one-record
 *     delta and runs every framework again: an assess after an ingest), their median,
 *     and the inferences the runs used (sum of run.inferences). A call the pool's gate
 *     gives up on (30 s) is reported as failed, and the pool closed;
 *   - in-process on the main thread: the graph view handed to Prolog as facts (a fresh copy of
 *     the graph, so all of it is loaded), then every framework once with runFramework under
 *     the same limits, in order, as one assess runs them in one thread (a set one of them
 *     tables, another reads; the first pays for SWI-Prolog's indexes on the new facts): ms,
 *     inferences, and what it concluded or why it stopped. Once, not a median: a repeated run
 *     on the same view would read the tables of the first. Then the same after one write (an
 *     Issue node), after an ingest-like write (an Actor, 3 Claims, 2 Events and their edges) and
 *     after one as extraction makes it (the same with a Location and a Document: written.ts),
 *     each put into the graph as a replica applies a write: the hand-over of the records, every
 *     framework again, and each framework's CPU and inferences; from those, a model (not a
 *     measure) of the assess's wall time with its framework runs spread over 2, 4, 8 and 16
 *     engines as the pool spreads them (the costliest first, each onto the engine free first);
 *   - the baseline: the graph-predicate work the frameworks' set predicates do, done once
 *     directly in TypeScript over the GraphIndex (nodesWithLabel/nodesWithProperty per
 *     claim and event type, sorted like nodes_where, the current-window filter,
 *     edgesWithType for the side and issue edges, edgesOf for every claim's
 *     ASSERTS/TARGETS and every event's PARTICIPATES_IN grouped by role, keyword tests on
 *     every claim's text, the fatalities sum), and assess / baseline.
 * Then, on the largest graph, after a restart (store reopened, new pool, the real app from
 * buildApp listening on 127.0.0.1 port 0, a key made by the admin key, a workspace on the
 * graph), `/v1/health` p50/p99 (beside the event loop's own delay, perf_hooks) with nothing
 * running, while the first query loads the graph (LevelDB load, worker start, snapshot: the
 * main thread's share of a cold start), and while POST /v1/workspaces/{id}/assess runs; then,
 * after another restart, while a client opens the workspace (GET) and the preload it asks for
 * runs (until every worker's engine holds the view: what an analyst reading the workspace
 * waits for without noticing), and while the assess asked after it runs; last, the assess of a
 * copy of the graph no client has touched since the start (the workers running, holding the
 * other view): the one case where the call itself pays the snapshot and the hand-over.
 *
 * Last, the cold-start rows (bench/cold-start.ts), at the largest size: a real server process
 * restarted on a data directory of two graphs, the first query and the first assess of a graph
 * no client touched since the start; --cold-only runs those alone. Then the imaged rows (imagedColdRows): one
 * graph assessed once by a pool in process, which makes its view image (the memory meanwhile), then its first assess
 * through a server restarted on it, with the stored runs and without them (the hand-over from the image and every
 * framework run); --cold-imaged-only runs those alone (the server reads the shell's PARLEY_* settings,
 * PARLEY_QUERY_TIMEOUT_MS among them), --skip-cold-imaged leaves them out (a pool's assess, a wait of up to
 * 15 minutes for the image and two server restarts).
 *
 * Targets (notes, not tests): assess at 100k facts under 1 s; health p99 under 50 ms during it;
 * the first assess of any graph at 100k facts within 1 s once the server has listened for 5 s.
 *
 * --in-process-only runs the in-process rows and the baseline alone (no pool, no server, no cold start):
 * the hand-over and every framework's ms and inferences, what reasoning at a million facts is read by.
 * --extracted-shape generates the graphs with the edges and nodes extraction makes that the default graph lacks
 * (REFERS_TO, Documents, PRECEDES, claims with many targets: conflict-graph.ts GenerateOptions), the cold-start rows'
 * graphs too; each section's heading says "(extracted shape)".
 *
 *   npm run bench:frameworks [-- --sizes 1000,10000,100000 --runs 3 --cold-only --cold-imaged-only --skip-cold-imaged --in-process-only --extracted-shape]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { CLAIM_TYPES, EVENT_TYPES, type EdgeRecord, type NodeRecord } from '../engine/ontology/index.ts';
import { generate } from './conflict-graph.ts';
import { INGEST_EXTRACTED, INGEST_LIKE, extractedIngest, ingestLike, latestValidTime, writtenNode } from './written.ts';
import { createExtractionPipeline } from '../engine/extract/pipeline.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import type { FrameworkManifest } from '../engine/frameworks/manifest.ts';
import { runFramework, type FrameworkRun } from '../engine/frameworks/run.ts';
import { DEFAULT_CALL_TIMEOUT_MS, ReasoningPool } from '../engine/reason/pool.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { putLogged } from '../engine/store/graph-changes.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { validTime } from '../engine/store/view.ts';
import { buildApp } from '../server/app.ts';
import { frameworkLimits, loadConfig, reasoningOptions, type ParleyConfig } from '../server/config.ts';
import { healthUntil, loopDelay, postJson } from './http.ts';
import { median, timedCpu } from './stats.ts';
import { coldStartRows, imagedColdRows, inProcessColdRows, shapeNamed, writeInChunks } from './cold-start.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '3' },
    'cold-only': { type: 'boolean', default: false },
    'cold-imaged-only': { type: 'boolean', default: false },
    'skip-cold-imaged': { type: 'boolean', default: false },
    'in-process-only': { type: 'boolean', default: false },
    'extracted-shape': { type: 'boolean', default: false },
  },
});
/** The generated graphs with what extraction makes and the default graph lacks (conflict-graph.ts GenerateOptions). */
const SHAPE = { extracted: args['extracted-shape']! };
const SIZES = args.sizes!.split(',').map(Number).filter((n) => n > 0);
const RUNS = Math.max(1, Number(args.runs));
const IN_PROCESS_ONLY = args['in-process-only']!;
const TENANT = 'bench';
/** Upper bounds that keep every loop finite whatever the machine does. */
const HEALTH_MAX_SAMPLES = 100_000;
const HEALTH_MAX_MS = 120_000;
/** Assess calls after a write stop repeating after this much time (with the first call's); one always runs. */
const WARM_BUDGET_MS = 35_000;

// ---- writing the generated graph ---------------------------------------------------------

/** One small write (a new Issue node): the graph's version moves on, so the result cache misses. */
let touches = 0;
async function touch(store: ParleyStore, graphId: string): Promise<void> {
  touches++;
  await store.writeGraph(TENANT, graphId, { nodes: [{ id: `touch-${touches}`, labels: ['Issue'], properties: { label: `bench touch ${touches}` } }], edges: [] });
}

// ---- the baseline: the frameworks' index reads, in TypeScript --------------------------

/** The keywords the frameworks' mentions/filter calls test claim texts for (a representative union of their word lists). */
const KEYWORDS = [
  'never', 'no negotiation', 'not negotiate', 'never negotiate', 'no talks', 'refuse talks', 'no dialogue', 'will not talk', 'negotiate',
  'ceasefire', 'security', 'safety', 'survival', 'attack', 'protect', 'killed', 'massacre', 'identity', 'culture', 'language', 'religion',
  'ethnic', 'recognition', 'respect', 'dignity', 'humiliat', 'participation', 'exclude', 'election', ' law', 'legal', 'court', 'treaty',
  'agreement', 'constitution', 'ruling', 'resolution', 'rights', 'mandate', 'elected', 'legitimate', 'fair', 'objective', 'criteria',
  'international law', 'expert', 'report', 'evidence', 'according to', 'satellite', 'annihilat', 'wipe out', 'to the last', 'eradicat',
  'exclud', 'poverty', 'denied access', 'terrorists', 'traitors', 'deserve', 'justified', 'no choice', 'necessary', 'self-defence',
  'deserve no mercy', 'force', 'strike', 'kill', 'fight', 'retaliat',
];

/** What one assess reads through the set predicates, once, straight from the indexes; returns a checksum. */
function indexPass(graph: GraphIndex): number {
  let checksum = 0;
  const sortedOf = (label: string, key: string | undefined, value: string | undefined): string[] => {
    const withLabel = graph.nodesWithLabel(label);
    const ids = key === undefined ? [...withLabel] : [...graph.nodesWithProperty(key, value!)].filter((id) => withLabel.has(id));
    return ids.sort();
  };
  // reference_date: the latest valid time in the graph
  const reference = latestValidTime(graph);
  const referenceDays = Date.parse(reference) / 86_400_000;
  const current = (ids: string[]) =>
    ids.filter((id) => {
      const time = validTime(graph.node(id)!);
      if (time === undefined) return true;
      const days = referenceDays - Date.parse(time) / 86_400_000;
      return days >= 0 && days <= 180;
    });
  for (const type of CLAIM_TYPES) checksum += current(sortedOf('Claim', 'type', type)).length;
  for (const type of EVENT_TYPES) checksum += current(sortedOf('Event', 'event_type', type)).length;
  for (const label of ['Actor', 'Issue', 'Interest']) {
    for (const id of sortedOf(label, undefined, undefined)) {
      const node = graph.node(id)!;
      if (node.properties.role !== undefined || node.properties.actor_type !== undefined || node.properties.interest_type !== undefined) checksum++;
    }
  }
  for (const type of ['ALLIED_WITH', 'OPPOSES', 'HOLDS_INTEREST', 'ABOUT', 'CONTRADICTS']) {
    for (const id of graph.edgesWithType(type)) checksum += graph.edge(id)!.confidence > 0 ? 1 : 0;
  }
  // speakers and targets of every claim (group_by_edge, link_pairs), keyword tests on its text
  const speakers = new Map<string, string[]>();
  const claimPairs = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, id: string) => {
    const ids = map.get(key);
    if (ids) ids.push(id);
    else map.set(key, [id]);
  };
  for (const id of sortedOf('Claim', undefined, undefined)) {
    const by = graph.edgesOf(id, 'in', ['ASSERTS']).map((edge) => edge.from);
    const at = graph.edgesOf(id, 'out', ['TARGETS']).map((edge) => edge.to);
    for (const a of by) {
      add(speakers, a, id);
      for (const b of at) if (a !== b) add(claimPairs, `${a}|${b}`, id);
    }
    const text = String(graph.node(id)!.properties.text).toLowerCase();
    if (KEYWORDS.some((keyword) => text.includes(keyword))) checksum++;
  }
  // perpetrators, targets and participants of every event, who did what to whom, fatalities
  const byRole = new Map<string, Map<string, string[]>>();
  const eventPairs = new Map<string, string[]>();
  let fatalities = 0;
  for (const id of sortedOf('Event', undefined, undefined)) {
    const edges = graph.edgesOf(id, 'in', ['PARTICIPATES_IN']);
    for (const edge of edges) {
      const role = typeof edge.properties.role === 'string' ? edge.properties.role : 'participant';
      let groups = byRole.get(role);
      if (!groups) byRole.set(role, (groups = new Map()));
      add(groups, edge.from, id);
    }
    for (const p of edges) {
      if (p.properties.role !== 'perpetrator') continue;
      for (const t of edges) if (t.properties.role === 'target' && p.from !== t.from) add(eventPairs, `${p.from}|${t.from}`, id);
    }
    const value = graph.node(id)!.properties.fatalities;
    if (typeof value === 'number') fatalities += value;
  }
  return checksum + speakers.size + claimPairs.size + byRole.size + eventPairs.size + fatalities;
}

// ---- measuring -------------------------------------------------------------------------

/** The engine counts the model of an assess spread over engines reads. */
const ENGINES = [2, 4, 8, 16];

/** The wall time of runs of these CPU times on `engines` engines, the longest first, each onto the engine free first. */
function spreadMs(cpuMs: number[], engines: number): number {
  const loads = new Array<number>(engines).fill(0);
  for (const run of [...cpuMs].sort((a, b) => b - a)) loads[loads.indexOf(Math.min(...loads))] += run;
  return Math.max(...loads);
}


function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const loadAverage = () => loadavg().map((n) => n.toFixed(1)).join(' ');
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const count = (value: number) => value.toLocaleString('en');

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/** Health latencies until `work` settles (or the bounds are hit). */
function healthWhile(base: string, work: Promise<unknown> | undefined, samples = HEALTH_MAX_SAMPLES): Promise<number[]> {
  let settled = false;
  void work?.then(() => (settled = true), () => (settled = true));
  return healthUntil(base, () => settled, samples, HEALTH_MAX_MS);
}

const post = (base: string, url: string, key: string, body: unknown) => postJson(`${base}${url}`, key, body);

// ---- the run ---------------------------------------------------------------------------

interface Attempt<T> {
  ms: number;
  value?: T;
  /** The error's code (or message) when the call failed. */
  error?: string;
}

async function attempt<T>(fn: () => Promise<T>): Promise<Attempt<T>> {
  const started = performance.now();
  try {
    const value = await fn();
    return { ms: performance.now() - started, value };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { ms: performance.now() - started, error: code ? `${code}: ${(error as Error).message}` : `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const sum = (runs: FrameworkRun[]) => runs.reduce((total, run) => total + run.inferences, 0);
const stoppedOf = (runs: FrameworkRun[]) => runs.filter((run) => run.error).map((run) => `${run.framework_id} (${run.error!.code})`);

interface WriteRun {
  handOverCpuMs: number;
  cpuMs: number;
  inferences: number;
  stopped: number;
}

const writeLine = ({ handOverCpuMs, cpuMs, inferences, stopped }: WriteRun) =>
  `its hand-over ${ms(handOverCpuMs)} ms CPU, with every framework again ${ms(cpuMs)} ms CPU, ${count(inferences)} inferences${stopped ? `, ${stopped} stopped by a limit` : ''}`;

if (args['cold-imaged-only']) {
  await imagedColdRows(Math.max(...SIZES), {}, SHAPE);
  process.exit(0);
}
if (args['cold-only']) {
  await coldStartRows(Math.max(...SIZES), {}, SHAPE);
  await inProcessColdRows(Math.max(...SIZES), SHAPE);
  process.exit(0);
}

const benchStarted = performance.now();
const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-frameworks-'));
// the PARLEY_* settings of the shell (workers, limits, preload bound) apply, as they would to the service; the store is the bench's own
const config: ParleyConfig = loadConfig({ ...process.env, PARLEY_DATA_DIR: dir, PARLEY_CORPORA_DIR: path.join(dir, 'corpora') });
const limits = frameworkLimits(config);
let store = await ParleyStore.open(path.join(dir, 'store'));
let pool: ReasoningPool | undefined;
let app: FastifyInstance | undefined;
let extraction: ReturnType<typeof createExtractionPipeline> | undefined;

try {
  const catalog = await loadRuleModules(config.frameworkDirs); // what every pool loads: the per-framework table runs on it
  const manifests: FrameworkManifest[] = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
  const ids = manifests.map((manifest) => manifest.id);
  const refused = catalog.frameworks.filter((entry) => entry.status === 'refused').map((entry) => entry.id);
  console.log(`frameworks loaded: ${ids.length} (${ids.join(', ')})${refused.length ? `; refused: ${refused.join(', ')}` : ''}`);
  console.log(
    `limits per framework run: ${count(limits.inferenceLimit)} inferences, ${limits.timeLimitMs} ms (PARLEY_INFERENCE_LIMIT, PARLEY_QUERY_TIMEOUT_MS); ` +
      `one pool call: ${config.reasonCallTimeoutMs} ms (PARLEY_REASON_CALL_TIMEOUT_MS); reasoning workers: ${config.reasonWorkers ?? `one per core (${availableParallelism()})`}; runs: ${RUNS}; load average ${loadAverage()}\n`,
  );
  await store.writeGraph(TENANT, 'tiny', { nodes: [{ id: 'x', labels: ['Actor'], properties: { label: 'x' } }], edges: [] });

  const summary: string[] = [];
  const perFramework = new Map<string, Map<number, { ms: number; cpuMs: number; inferences: number; run?: FrameworkRun; error?: string }>>();
  let largest: { graphId: string; facts: number; target: number } | undefined;
  /** Per framework, per write ('issue', 'ingest', 'extracted ingest') and size: CPU ms and inferences of its run after that write. */
  const perFrameworkAfter = new Map<string, Map<string, { cpuMs: number; inferences: number; stopped: boolean }>>();
  /** Puts the records into the view's graph as a replica applies a write (logged), hands them to the engine, then runs every framework again. */
  const afterWrite = (write: string, facts: number, view: { graph: GraphIndex }, nodes: NodeRecord[], edges: EdgeRecord[]): WriteRun => {
    putLogged(view.graph, nodes, edges);
    const done: WriteRun = { handOverCpuMs: 0, cpuMs: 0, inferences: 0, stopped: 0 };
    done.cpuMs = timedCpu(() => {
      done.handOverCpuMs = timedCpu(() => catalog.registry.handOver(view)).cpuMs;
      for (const manifest of manifests) {
        const { value: run, cpuMs } = timedCpu(() => runFramework(catalog.registry, manifest, view, limits));
        done.inferences += run.inferences;
        if (run.error) done.stopped++;
        let byWrite = perFrameworkAfter.get(manifest.id);
        if (!byWrite) perFrameworkAfter.set(manifest.id, (byWrite = new Map()));
        byWrite.set(`${write}, ${count(facts)} facts`, { cpuMs, inferences: run.inferences, stopped: Boolean(run.error) });
      }
    }).cpuMs;
    return done;
  };

  for (const target of SIZES) {
    const graphId = `conflict-${target}`;
    const generated = generate(target, SHAPE);
    const written = await timed(() => writeInChunks(store, graphId, generated.write));
    const graph = await store.loadGraph(TENANT, graphId);
    const counts = graph.counts();
    console.log(`## ${count(generated.facts)} facts${shapeNamed(SHAPE)} (${count(generated.nodes)} nodes, ${count(generated.edges)} edges, ${count(generated.properties)} properties), written in ${ms(written.ms)} ms`);
    console.log(`   nodes ${JSON.stringify(counts.nodes)}; edges ${JSON.stringify(counts.edges)}`);

    // in-process on the main thread: the facts of a fresh copy, then every framework once, in order; and the baseline
    const inProcess = async () => {
      const view = { graph: GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values()) };
      // the facts and the clause indexes, as a reasoning worker hands a view over (not charged to the first framework)
      const { ms: loadMs, cpuMs: loadCpuMs } = timedCpu(() => catalog.registry.handOver(view));
      let inProcessMs = 0;
      let inProcessInferences = 0;
      let inProcessCpuMs = 0;
      for (const manifest of manifests) {
        const { value: { run, error }, ms: spent, cpuMs } = timedCpu((): { run?: FrameworkRun; error?: string } => {
          try {
            return { run: runFramework(catalog.registry, manifest, view, limits) };
          } catch (thrown) {
            return { error: `${(thrown as Error).name}: ${(thrown as Error).message}` }; // not a limit: runFramework lets it through
          }
        });
        inProcessMs += spent;
        inProcessCpuMs += cpuMs;
        inProcessInferences += run?.inferences ?? 0;
        let bySize = perFramework.get(manifest.id);
        if (!bySize) perFramework.set(manifest.id, (bySize = new Map()));
        bySize.set(generated.facts, { ms: spent, cpuMs, inferences: run?.inferences ?? 0, ...(run ? { run } : {}), ...(error ? { error } : {}) });
      }

      // after one write (a new Issue node, logged as a replica applies a write), then after an ingest-like one: the engine takes the records, then every framework again
      const issueWrite = afterWrite('issue', generated.facts, view, [writtenNode('bench-written-issue', 'Issue', { label: 'a written issue' })], []);
      const ingestWrite = afterWrite('ingest', generated.facts, view, ...ingestLike(view.graph));
      // a row after the two above, so that theirs stay comparable with earlier sessions': an ingest as extraction makes it, with a place
      const extractedWrite = afterWrite('extracted ingest', generated.facts, view, ...extractedIngest(view.graph));

      // the baseline
      indexPass(view.graph); // warm-up
      const baseline: number[] = [];
      for (let i = 0; i < Math.max(5, RUNS); i++) {
        const started = performance.now();
        indexPass(view.graph);
        baseline.push(performance.now() - started);
      }
      return { loadMs, loadCpuMs, inProcessMs, inProcessCpuMs, inProcessInferences, issueWrite, ingestWrite, extractedWrite, baselineMs: median(baseline) };
    };
    const inProcessLine = ({ loadMs, loadCpuMs, inProcessMs, inProcessCpuMs, inProcessInferences: inferences, issueWrite, ingestWrite, extractedWrite }: Awaited<ReturnType<typeof inProcess>>) =>
      `   in-process (main thread): the view loaded as facts in ${ms(loadMs)} ms (${ms(loadCpuMs)} ms CPU), then every framework once: ${ms(inProcessMs)} ms (${ms(inProcessCpuMs)} ms CPU), ${count(inferences)} inferences (${count(Math.round(inferences / (inProcessMs / 1000)))} inferences/s)\n` +
      `   after one write (an Issue node): ${writeLine(issueWrite)}\n` +
      `   after an ingest-like write (${INGEST_LIKE}): ${writeLine(ingestWrite)}\n` +
      `   after an ingest as extraction makes it (${INGEST_EXTRACTED}): ${writeLine(extractedWrite)}`;
    if (IN_PROCESS_ONLY) {
      const measured = await inProcess();
      const { inProcessMs, baselineMs } = measured;
      console.log(inProcessLine(measured));
      console.log(`   baseline (the same index reads, once, in TypeScript): ${ms(baselineMs)} ms; in-process / baseline: ${(inProcessMs / Math.max(baselineMs, 0.001)).toFixed(0)}x\n`);
      continue;
    }

    // a new pool (every query in a worker: the path measured here), its workers started, and the graph's replica made
    const openReplicated = async () => {
      pool = await ReasoningPool.open(store, { ...reasoningOptions(config), inlineBudgetMs: 0 });
      const start = await attempt(() => pool!.query(TENANT, 'tiny', 'MATCH (a:Actor) RETURN a', { limits: {} }));
      const snapshot = await attempt(() => pool!.query(TENANT, graphId, "MATCH (a:Actor {label: 'nobody'}) RETURN a", { limits: {} }));
      return { start, snapshot };
    };

    // through a new pool: worker start, replica snapshot, assess, assess after one write
    const { start, snapshot } = await openReplicated();
    const first = await attempt(() => pool!.frameworks(TENANT, graphId, ids, { limits }));
    // the first call also starts the pool's other workers, which then hand the replica to their engines in the
    // background: the calls after a write are to show an assess on a warm pool, so they wait for that to end
    if (!first.error && graph.factCount <= config.preloadMaxFacts) await pool!.viewsPrepared(TENANT, graphId, DEFAULT_CALL_TIMEOUT_MS);
    const warm: Attempt<{ runs: FrameworkRun[] }>[] = [];
    let warmSpent = 0;
    // at least one
    while (!first.error && warm.length < RUNS && (warm.length === 0 || warmSpent + first.ms + warm.at(-1)!.ms <= WARM_BUDGET_MS)) {
      await touch(store, graphId);
      const call = await attempt(() => pool!.frameworks(TENANT, graphId, ids, { limits }));
      warm.push(call);
      warmSpent += call.ms;
      if (call.error) break;
    }
    const cached = first.error ? undefined : await attempt(() => pool!.frameworks(TENANT, graphId, ids, { limits }));
    await pool!.close(); // ends a call the gate gave up on (its worker would run on to every framework's limit)
    pool = undefined;

    // a second new pool: the same first assess, asked once every worker has handed the replica to its engine
    // (not for a graph above the bound: its workers never preload it, and the wait would sit out the call timeout)
    let preloaded: { preload: { value: boolean; ms: number }; afterPreload: Attempt<{ runs: FrameworkRun[] }> } | undefined;
    if (graph.factCount <= config.preloadMaxFacts) {
      await openReplicated();
      const preload = await timed(() => pool!.viewsPrepared(TENANT, graphId, DEFAULT_CALL_TIMEOUT_MS));
      preloaded = { preload, afterPreload: await attempt(() => pool!.frameworks(TENANT, graphId, ids, { limits })) };
      await pool!.close();
      pool = undefined;
    }

    const measured = await inProcess();
    const { inProcessMs, inProcessInferences, baselineMs } = measured;

    const describe = (call: Attempt<{ runs: FrameworkRun[] }>) =>
      call.error
        ? `FAILED after ${ms(call.ms)} ms: ${call.error}`
        : `${ms(call.ms)} ms, ${count(sum(call.value!.runs))} inferences${stoppedOf(call.value!.runs).length ? `; stopped by a limit: ${stoppedOf(call.value!.runs).join(', ')}` : ''}`;
    const okWarm = warm.filter((call) => !call.error).map((call) => call.ms);
    const assessMs = okWarm.length > 0 ? median(okWarm) : first.error ? undefined : first.ms;
    console.log(`   pool: worker start (first call of a new pool, a query on a 1-node graph): ${start.error ? `FAILED ${start.error}` : `${ms(start.ms)} ms`}`);
    console.log(`   pool: replica snapshot (first call on this graph, a point query): ${snapshot.error ? `FAILED ${snapshot.error}` : `${ms(snapshot.ms)} ms`}`);
    console.log(`   pool: assess, first call right after the replica (its hand-over to the engines under way, nothing cached): ${describe(first)}`);
    if (!preloaded) console.log(`   pool: assess once the preload finished: not preloaded (above PARLEY_PRELOAD_MAX_FACTS, ${count(config.preloadMaxFacts)} facts)`);
    else {
      const { preload, afterPreload } = preloaded;
      console.log(`   pool: assess, first call once the preload finished (a new pool; every worker's engine holds the view, ${preload.value ? `${ms(preload.ms)} ms after the replica` : `NOT reached in ${ms(preload.ms)} ms`}; nothing cached): ${describe(afterPreload)}`);
    }
    if (warm.length > 0) console.log(`   pool: assess after one write each (median of ${warm.length}): ${okWarm.length ? ms(median(okWarm)) : '-'} ms [${warm.map((call) => (call.error ? 'failed' : ms(call.ms))).join(', ')}]; last: ${describe(warm[warm.length - 1])}`);
    else console.log('   pool: assess after one write: not run (the first call failed)');
    if (cached) console.log(`   pool: assess, unchanged graph (the per-version cache answers): ${ms(cached.ms)} ms`);
    console.log(inProcessLine(measured));
    const ratio = assessMs !== undefined ? `${(assessMs / Math.max(baselineMs, 0.001)).toFixed(0)}x` : `> ${(first.ms / Math.max(baselineMs, 0.001)).toFixed(0)}x (the call failed after ${ms(first.ms)} ms)`;
    console.log(`   baseline (the same index reads, once, in TypeScript): ${ms(baselineMs)} ms; assess / baseline: ${ratio}\n`);
    summary.push(
      `| ${count(generated.facts)} | ${start.error ? 'failed' : ms(start.ms)} | ${snapshot.error ? 'failed' : ms(snapshot.ms)} | ${first.error ? `failed after ${ms(first.ms)} (${first.error.split(':')[0]})` : ms(first.ms)} | ${okWarm.length ? ms(median(okWarm)) : '-'} | ${first.value ? count(sum(first.value.runs)) : '-'} | ${count(inProcessInferences)} | ${ms(baselineMs)} | ${ratio.split(' (')[0]} | ${assessMs !== undefined && assessMs < 1000 ? 'yes' : 'no'} |`,
    );
    if (!largest || generated.facts > largest.facts) largest = { graphId, facts: generated.facts, target };
  }

  if (!IN_PROCESS_ONLY) {
    console.log('| facts | worker start ms | snapshot ms | assess ms (first call) | assess ms (after a write, median) | inferences (pool) | inferences (in-process) | baseline ms | assess / baseline | under 1 s |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const line of summary) console.log(line);
  }

  const sizes = [...new Set([...perFramework.values()].flatMap((bySize) => [...bySize.keys()]))].sort((a, b) => a - b);
  console.log(`\nper framework${shapeNamed(SHAPE)}, in-process on the main thread, once each in this order after the facts are loaded (ms / CPU ms / inferences; * = stopped by a limit, ! = threw):`);
  console.log(`| framework | ${sizes.map((facts) => `${count(facts)} facts`).join(' | ')} | at ${count(sizes[sizes.length - 1])} facts |`);
  console.log(`|---|${sizes.map(() => '---').join('|')}|---|`);
  for (const [id, bySize] of perFramework) {
    const cells = sizes.map((facts) => {
      const entry = bySize.get(facts)!;
      return `${ms(entry.ms)} / ${ms(entry.cpuMs)} / ${count(entry.inferences)}${entry.error ? '!' : entry.run?.error ? '*' : ''}`;
    });
    const last = bySize.get(sizes[sizes.length - 1])!;
    const state = last.error ?? (last.run!.error ? `stopped: ${last.run!.error.code}` : `${last.run!.applies ? 'applies' : 'does not apply'}, score ${last.run!.score}`);
    console.log(`| ${id} | ${cells.join(' | ')} | ${state} |`);
  }
  if (perFrameworkAfter.size > 0) {
    const keys = [...new Set([...perFrameworkAfter.values()].flatMap((byWrite) => [...byWrite.keys()]))];
    console.log(`
per framework after each write${shapeNamed(SHAPE)}, in the same order (CPU ms / inferences; * = stopped by a limit; issue: one Issue node; ingest: ${INGEST_LIKE}; extracted ingest: ${INGEST_EXTRACTED}):`);
    console.log(`| framework | ${keys.join(' | ')} |`);
    console.log(`|---|${keys.map(() => '---').join('|')}|`);
    for (const [id, byWrite] of perFrameworkAfter) console.log(`| ${id} | ${keys.map((key) => { const entry = byWrite.get(key); return entry ? `${ms(entry.cpuMs)} / ${count(entry.inferences)}${entry.stopped ? '*' : ''}` : '-'; }).join(' | ')} |`);
  }
  // the model: the runs above, each framework's CPU as measured in this order on one engine, spread as the pool spreads an assess
  const rows: [string, number[]][] = [
    ...sizes.map((facts): [string, number[]] => [`fresh, ${count(facts)} facts`, [...perFramework.values()].flatMap((bySize) => (bySize.has(facts) ? [bySize.get(facts)!.cpuMs] : []))]),
    ...[...new Set([...perFrameworkAfter.values()].flatMap((byWrite) => [...byWrite.keys()]))].map((key): [string, number[]] => [key, [...perFrameworkAfter.values()].flatMap((byWrite) => (byWrite.has(key) ? [byWrite.get(key)!.cpuMs] : []))]),
  ];
  console.log(
    `\nmodel (not measured): an assess's wall time with its framework runs spread over n engines that hold the view, the costliest first, each onto the engine free first (as ReasoningPool.frameworks orders them), ` +
      `from each framework's CPU ms above; a lower bound: a set the frameworks share is computed by one engine in the run above, by each engine that reads it when spread:`,
  );
  console.log(`| runs | all in one engine | costliest framework | ${ENGINES.map((n) => `${n} engines`).join(' | ')} |`);
  console.log(`|---|---|---|${ENGINES.map(() => '---').join('|')}|`);
  for (const [name, cpu] of rows) console.log(`| ${name} | ${ms(cpu.reduce((a, b) => a + b, 0))} | ${ms(Math.max(...cpu))} | ${ENGINES.map((n) => ms(spreadMs(cpu, n))).join(' | ')} |`);

  if (!IN_PROCESS_ONLY) {
    // /v1/health over HTTP after a restart: while the first query loads the graph, and while an assess runs;
    // after another restart, while the preload a client opening the workspace asks for runs, and the assess after it
    const restart = async () => {
      await pool?.close();
      await app?.close();
      await extraction?.close();
      await store.close();
      store = await ParleyStore.open(path.join(dir, 'store')); // the graph is loaded from LevelDB on first use
      const { secret: adminKey } = await store.bootstrapAdminKey();
      pool = await ReasoningPool.open(store, { ...reasoningOptions(config), inlineBudgetMs: 0 }); // the first query starts a worker, as measured
      extraction = createExtractionPipeline();
      app = await buildApp({ store, config, extraction, reasoning: pool });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      let key: string;
      if (adminKey) {
        const keyResponse = await post(base, '/v1/keys', adminKey, { tenant: TENANT, scope: 'write' });
        if (keyResponse.status !== 201) throw new Error(`key creation: ${keyResponse.status} ${JSON.stringify(keyResponse.json)}`);
        key = keyResponse.json.api_key as string;
        const workspace = await post(base, '/v1/workspaces', key, { name: 'bench', domain: 'armed', scale: 'macro', tier: 'full', graph_id: largest!.graphId });
        if (workspace.status !== 201) throw new Error(`workspace creation: ${workspace.status} ${JSON.stringify(workspace.json)}`);
        http = { key, workspaceId: workspace.json.id as string };
      }
      return base;
    };
    let http: { key: string; workspaceId: string } | undefined;
    let base = await restart();
    const { key, workspaceId } = http!;

    const { value: idle, ...idleLoop } = await loopDelay(() => healthWhile(base, undefined, 2_000));
    const rows = [`| nothing running | ${idle.length} | ${ms(percentile(idle, 0.5))} | ${ms(percentile(idle, 0.99))} | ${ms(Math.max(...idle))} | ${ms(idleLoop.p99)} / ${ms(idleLoop.max)} | | |`];
    const during = async (name: string, request: () => Promise<{ status: number; json: any }>, done = (response: { status: number; json: any }) => (response.status === 200 ? '200' : `${response.status} ${response.json.code}`)) => {
      const started = performance.now();
      const pending = request().then((response) => ({ ...response, ms: performance.now() - started }));
      const { value: samples, ...loop } = await loopDelay(() => healthWhile(base, pending));
      const response = await pending;
      const p99 = percentile(samples, 0.99);
      rows.push(`| ${name} | ${samples.length} | ${ms(percentile(samples, 0.5))} | ${ms(p99)} | ${ms(Math.max(...samples))} | ${ms(loop.p99)} / ${ms(loop.max)} | ${done(response)} in ${ms(response.ms)} ms | ${p99 < 50 ? 'yes' : 'no'} |`);
    };
    await during('first query after a restart (LevelDB load, worker start, replica snapshot)', () => post(base, '/v1/graph/query', key, { graph_id: largest!.graphId, query: "MATCH (a:Actor {label: 'nobody'}) RETURN a" }));
    await during('POST assess (replica ready, nothing cached)', () => post(base, `/v1/workspaces/${workspaceId}/assess`, key, {}));
    base = await restart();
    await during(
      'after another restart: GET the workspace, then the preload it asks for (LevelDB load, workers start, snapshot, hand-over)',
      async () => {
        const opened = await fetch(`${base}/v1/workspaces/${workspaceId}`, { headers: { 'x-api-key': key } });
        await opened.arrayBuffer();
        const prepared = await pool!.viewsPrepared(TENANT, largest!.graphId, DEFAULT_CALL_TIMEOUT_MS);
        return { status: opened.status, json: { code: prepared ? 'preloaded' : 'NOT preloaded' } };
      },
      (response) => `${response.status}, ${response.json.code}`,
    );
    await during('POST assess once the preload finished (nothing cached)', () => post(base, `/v1/workspaces/${workspaceId}/assess`, key, {}));
    // the one case left to the call itself: a graph no client has opened, read, written or queried since the start
    // (its records written behind the API's back), assessed first, the workers running and holding another view
    const untouched = `${largest!.graphId}-untouched`;
    await writeInChunks(store, untouched, generate(largest!.target, SHAPE).write);
    const untouchedWorkspace = await post(base, '/v1/workspaces', key, { name: 'untouched', domain: 'armed', scale: 'macro', tier: 'full', graph_id: untouched });
    await during('POST assess of a graph no client touched since the start (workers running; the snapshot and hand-over in the call)', () => post(base, `/v1/workspaces/${untouchedWorkspace.json.id}/assess`, key, {}));
    console.log(`\n/v1/health over HTTP (sequential fetches from this process, 127.0.0.1) on the ${count(largest!.facts)}-fact graph${shapeNamed(SHAPE)}; targets: assess under 1 s, health p99 under 50 ms:`);
    console.log('| while | health samples | p50 ms | p99 ms | max ms | event-loop delay p99 / max ms | the request | p99 under 50 ms |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    await coldStartRows(largest!.target, {}, SHAPE);
    await inProcessColdRows(largest!.target, SHAPE);
    if (!args['skip-cold-imaged']) await imagedColdRows(largest!.target, {}, SHAPE);
  }
  console.log(`load average at the end: ${loadAverage()}; the bench ran ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
} finally {
  await pool?.close(); // first: ends the worker of a call the gate gave up on, so the app can close
  await app?.close();
  await extraction?.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
