/**
 * bench/first-heavy-query: where the first heavy query on a graph above the preload bound spends its time (issue 28:
 * at ten million facts it took 5-6 minutes through bench/store's server). In this process, with the server's heap setting
 * (server/heap.mjs), on a store that already holds bench/store's graph (`--store`, its directory; `--graph`, its id):
 *
 * 1. the graph loaded from its snapshot (what the server's first point query pays);
 * 2. a query too heavy for the event loop sent to a pool of 2 workers (inline budget 0), asked again while the worker's
 *    replica wait (60 s) refuses it, as bench/store asks the server: the first heavy query. Its parts: the worker's own
 *    measure of its replica's snapshot, from its beginning to its end (the transfer and the build, as the worker said:
 *    ReasoningPool.heldReplicas), and the rest (the worker's start, the need, the query on the replica);
 * 3. the same query again, on the replica made (the query alone), and Q5;
 *
 * with, for step 2, the CPU of each kind of thread (/proc's schedstat: bench/thread-cpu.ts): the main thread (which
 * makes and serialises the snapshot's chunks), the reasoning workers (which deserialise them and build the replica),
 * and the others (V8's concurrent marking and compiling, libuv's), and the main thread's own garbage collection (its 'gc'
 * performance entries). The baseline, in the same run: the same graph's indexes built in this thread from its records
 * in memory (GraphIndex.fromRecords), the floor of a replica's build with no transfer.
 *
 * Memory, for the replica's two ways (replicas.ts: a worker reads the store's snapshot file when it holds the graph as it
 * is, else it builds from chunks): the process's peak RSS (the kernel's high-water mark: the main thread's graph, the
 * workers' replicas and whatever a read held at once), and each worker's heap and array buffers, the most of the samples
 * taken every second while the first heavy query waits (a sample is answered between a worker's steps, so a peak held
 * inside one synchronous step is not seen: the RSS is the bound). `--chunks` makes the workers build from chunks, as if
 * the file did not hold the graph as it is (a write since the load), to compare the two ways on one store.
 *
 * `--askers 2` asks the first heavy query twice at once, on a pool whose preload bound is off (preloadMaxFacts 0, unless
 * `--preload-max-facts` says otherwise): the graph's replica is then made by every worker from one snapshot (each reads the
 * file at once, or each builds the shared chunks), where a graph above the bound is copied only by the worker asked, and
 * never by two at once (workers.ts ViewRouter): what `PARLEY_PRELOAD_MAX_FACTS=0`, or a bound above the graph, makes a
 * restart's warm-up or a call fanned out over the workers do. The first heavy query's time is then the time to both
 * answered, each worker's copy held.
 *
 * `--preload-max-facts` lowers the pool's preload bound (ReasoningOptions.preloadMaxFacts, default 1,000,000), so that a
 * graph of 1M facts is one above it, quicker to iterate on than 10M; `--call-timeout-ms` lowers the call's deadline (default
 * 120 s) below the copy's build, as 120 s is below it at 10M under load. Besides the timings it prints counts the load does
 * not change: the copies made, the refusals, and the worker threads started (a thread ended at a call's deadline is
 * replaced by a new one).
 *
 *   PARLEY_HEAP_MB=8000 npx tsx bench/first-heavy-query.ts --store /tmp/parley-10m/store --graph g10000000 [--young-mb 12] [--preload-max-facts 500000] [--call-timeout-ms 120000] [--chunks] [--askers 2]
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { serveWithHeapSetting } from '../server/heap.mjs';
import { positiveIntegerFlag, timedCpu } from './stats.ts';
import { threadCpu } from './thread-cpu.ts';

if (serveWithHeapSetting()) await new Promise(() => {});
process.channel?.unref();

const { values: args } = parseArgs({
  options: { store: { type: 'string' }, graph: { type: 'string', default: 'g10000000' }, 'young-mb': { type: 'string', default: '12' }, 'preload-max-facts': { type: 'string' }, 'call-timeout-ms': { type: 'string' }, chunks: { type: 'boolean', default: false }, askers: { type: 'string', default: '1' } },
});
const askers = positiveIntegerFlag('askers', args.askers);
if (!args.store) throw new Error('--store: the directory of a store holding bench/store\'s graph (bench/store.ts, --keep)');
const HEAVY = 'MATCH (a:Actor)-[r]->(b) RETURN count(*) AS n';
const Q5 = 'MATCH (a:Actor)-[:MENTIONED_WITH]->(:Claim) RETURN id(a) AS actor, count(*) AS claims ORDER BY claims DESC, actor LIMIT 10';
const s = (ms: number) => (ms / 1000).toFixed(1);

/**
 * CPU ms of this process's threads by kind since `before` (threadCpu readings): the main thread, the threads that started
 * since `before` (the reasoning workers: Node names every thread 'node', so they are told apart by when they started) and
 * the others (V8's helpers: its concurrent marking and compiling; libuv's).
 */
function cpuByKind(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const [tid, ms] of after) {
    const kind = tid === String(process.pid) ? 'main' : before.has(tid) ? 'helpers' : 'workers';
    kinds[kind] = (kinds[kind] ?? 0) + ms - (before.get(tid) ?? 0);
  }
  return kinds;
}


let mainGcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) mainGcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const store = await ParleyStore.open(args.store, { cacheFacts: 100_000_000 });
// (as after a write: no snapshot file holds the graph as it is, so the replica goes in chunks)
if (args.chunks) store.currentSnapshot = () => undefined;
let started = performance.now();
const graph = await store.loadGraph('bench', args.graph);
const loadMs = performance.now() - started;
const facts = graph.factCount;

const threadsBefore = threadCpu()!;
const preloadMaxFacts = args['preload-max-facts'] !== undefined ? { preloadMaxFacts: Number(args['preload-max-facts']) } : askers > 1 ? { preloadMaxFacts: 0 } : {};
const callTimeoutMs = args['call-timeout-ms'] === undefined ? {} : { callTimeoutMs: Number(args['call-timeout-ms']) };
const pool = await ReasoningPool.open(store, { workers: 2, inlineBudgetMs: 0, workerYoungMb: Number(args['young-mb']), warmFacts: 0, viewImageBytes: 0, ...preloadMaxFacts, ...callTimeoutMs });
try {
  const cpuBefore = new Map([...threadCpu()!].filter(([tid]) => threadsBefore.has(tid)));
  const gcBefore = mainGcMs;
  // the threads seen since, sampled (one ended at a call's deadline leaves /proc: its CPU is not counted above, but it is here)
  const threadsSeen = new Set<string>();
  const rssBeforeMb = process.memoryUsage.rss() / 2 ** 20;
  let rssPeakMb = rssBeforeMb;
  const sampling = setInterval(() => {
    threadCpu()!.forEach((_, tid) => cpuBefore.has(tid) || threadsSeen.add(tid));
    rssPeakMb = Math.max(rssPeakMb, process.memoryUsage.rss() / 2 ** 20);
  }, 500);
  const workerPeaks = new Map<number, { heapUsed: number; arrayBuffers: number }>();
  let waiting = true;
  const memorySampling = (async () => {
    while (waiting) {
      for (const { worker, heapUsed, arrayBuffers } of await pool.workerMemory(false, 1_000)) {
        const peak = workerPeaks.get(worker) ?? { heapUsed: 0, arrayBuffers: 0 };
        workerPeaks.set(worker, { heapUsed: Math.max(peak.heapUsed, heapUsed), arrayBuffers: Math.max(peak.arrayBuffers, arrayBuffers) });
      }
    }
  })();
  started = performance.now();
  let refused = 0;
  const answeredMs: number[] = [];
  const ask = async () => {
    for (;;) {
      try {
        await pool.query('bench', args.graph, HEAVY, { limits: { timeLimitMs: 600_000 } });
        answeredMs.push(performance.now() - started);
        return;
      } catch (error) {
        refused++;
        console.log(`refused after ${s(performance.now() - started)} s: ${(error as Error).message}`);
        if (refused > 20) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: askers }, ask));
  const firstMs = performance.now() - started;
  clearInterval(sampling);
  waiting = false;
  await memorySampling;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const cpu = cpuByKind(cpuBefore, threadCpu()!);
  const gcMs = mainGcMs - gcBefore;
  const copies = [...pool.heldReplicas().values()].flat().filter((replica) => replica.graphId === args.graph);
  started = performance.now();
  await pool.query('bench', args.graph, HEAVY, { limits: { timeLimitMs: 600_000 } });
  const againMs = performance.now() - started;
  started = performance.now();
  await pool.query('bench', args.graph, Q5, { limits: { timeLimitMs: 600_000 } });
  const q5Ms = performance.now() - started;
  const workers = await pool.workerMemory(false);

  // the baseline: the same indexes built here from the records in memory
  const nodes = [...graph.nodes.values()];
  const edges = [...graph.edges.values()];
  const { ms: fromRecordsMs, cpuMs: fromRecordsCpuMs } = timedCpu(() => GraphIndex.fromRecords(nodes, edges));

  console.log(`bench/first-heavy-query: ${facts.toLocaleString('en-US')} facts (${args.graph}), 2 workers, ${askers} asking at once, preload bound ${preloadMaxFacts.preloadMaxFacts ?? 'default'}, young generation ${args['young-mb']} MB`);
  console.log('| phase | seconds | |');
  console.log('|---|---|---|');
  console.log(`| main thread: the graph from its snapshot | ${s(loadMs)} | |`);
  console.log(`| first heavy query, asked again while refused (${refused} refusals); each asker answered | ${s(firstMs)} | ${answeredMs.map(s).join(', ')} |`);
  console.log(`| of it: the replica's snapshot, beginning to end, as the worker measured it (copies made: ${copies.length}) | ${copies.map((copy) => s(copy.builtMs)).join(', ')} | |`);
  console.log(`| of it: threads started (workers and their helpers; a thread ended at a deadline is replaced) | ${threadsSeen.size} | |`);
  console.log(`| of it: CPU, main thread / reasoning workers / the other threads (V8's helpers, libuv's); the main thread's GC pauses | ${s(cpu.main ?? 0)} / ${s(cpu.workers ?? 0)} / ${s(cpu.helpers ?? 0)}; ${s(gcMs)} | |`);
  console.log(`| the heavy query again, on the replica / Q5 | ${s(againMs)} / ${s(q5Ms)} | |`);
  console.log(`| baseline: the same indexes from the records in memory, this thread, wall / CPU | ${s(fromRecordsMs)} / ${s(fromRecordsCpuMs)} | |`);
  console.log(`| the process's RSS, MB (replica from ${args.chunks ? 'chunks' : 'the snapshot file'}): before the first heavy query / the most sampled while it waited (each 0.5 s) / the process's peak (getrusage) | ${Math.round(rssBeforeMb)} / ${Math.round(rssPeakMb)} / ${Math.round(peakRssMb)} | |`);
  console.log(`| each worker's peak heap used / array buffers while the first heavy query waited, sampled each second, MB | ${[...workerPeaks.values()].map((peak) => `${Math.round(peak.heapUsed / 2 ** 20)} / ${Math.round(peak.arrayBuffers / 2 ** 20)}`).join(', ')} | |`);
  console.log(`| workers' heap used, MB | ${workers.map((worker) => Math.round(worker.heapUsed / 2 ** 20)).join(', ')} | |`);
} finally {
  await pool.close();
  await store.close();
}
