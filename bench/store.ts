/**
 * bench/store: the store at import, at restart and in memory, each beside a baseline
 * measured in the same run (the machines are shared and noisy, so read the ratios). Facts
 * as in measurements.md: N facts = N/5 nodes, 2N/5 properties, 2N/5 edges.
 *
 * 1. Import of `--facts` (default 100k) in requests of 10k records, after two uncounted rounds of
 *    everything below (the JIT warm, the heap grown: steady throughput), beside raw classic-level
 *    batches of the same records (serialised beforehand, one key each, no indexes; and again
 *    with serialising inside the timed part, since a store has to encode what it writes; and the
 *    keys and values parley itself writes, pre-serialised, in its own record encoding), and the
 *    cold load of the graph beside building the same indexes from arrays in memory.
 * 2. Restart to first answer, for each of `--sizes` (default 100k and 1M), each graph in a
 *    store of its own: open the store, load the graph, answer a point query, in this process,
 *    from the graph's snapshot and from its records alone (the snapshot removed: the path
 *    before snapshots).
 * 3. The server (a child process, started as `npm start` starts it: server/start.mjs) on a store holding
 *    a graph of each size: RSS once it listens with no graph loaded, then after the first
 *    query on each graph (the main thread holds the graph; a query too heavy to run inline
 *    makes a reasoning worker load its replica too), and the time from spawn to that first
 *    answer; then, started again, the time from spawn to the first answer on the largest
 *    graph, the query sent as soon as the server listens (what a user restarting it sees).
 *    With each RSS reading, its parts (bench/server-probe.ts, the probe bench:soak loads into the server):
 *    smaps by kind (WebAssembly memories, malloc, other anonymous, files), the main thread's V8 heap
 *    used / committed and its ArrayBuffers, and each reasoning worker's (its replicas).
 *
 * Sizes of ten million facts (issue 28) are asked for by `--sizes`, never by default (an
 * import of several minutes, GBs of memory): for them the restart from the records alone is
 * left out (minutes more, and the snapshot is the path a restart takes). Every size reports
 * Q1 and Q5 of bench/query (over this bench's MENTIONED_WITH edges) in process after its
 * restart, then a point query (the median of its times about different actors), and the
 * server's RSS per fact. The bench runs with the server's heap setting
 * (server/heap.mjs, PARLEY_HEAP_MB), re-executing itself as the server does: under V8's
 * default limit (about 4 GB) a 10M-fact import in this process ran out of heap.
 *
 * `--data-dir` keeps the server's data directory (the store in its `store` folder) after the run, and a graph of a size
 * whose snapshot is already there is not imported again (its import row says so): a 10M-fact graph took 200-400 s to
 * import and 70-240 s to close, so a run after the first reads the same store.
 *
 *   npm run bench:store [-- --facts 100000 --sizes 100000,1000000 --runs 3]
 *   PARLEY_HEAP_MB=8000 npm run bench:store -- --facts 10000 --sizes 1000000,10000000 --runs 1 [--data-dir /tmp/parley-10m]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ClassicLevel } from 'classic-level';
import type { EdgeRecord, NodeRecord } from '../engine/ontology/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { snapshotFile } from '../engine/store/snapshot.ts';
import { dataKey, graphDataPrefix } from '../engine/store/keys.ts';
import { encodeEdge, encodeNode } from '../engine/store/record-codec.ts';
import { runQuery } from '../engine/query/index.ts';
import { serveWithHeapSetting } from '../server/heap.mjs';
import { answeredWithin, postJson, startServer, stopServer } from './http.ts';
import { partsOf, probeArgs } from './server-probe.ts';
import { median, memoryOf } from './stats.ts';
import { CHUNK, importGraph, makeGraph } from './store-graph.ts';

// the bench runs in the child this starts with the heap setting, which ends this process when it ends
if (serveWithHeapSetting()) await new Promise(() => {});
// that child's channel to its parent would keep it running once the bench is done
process.channel?.unref();

const { values: args } = parseArgs({
  options: { facts: { type: 'string', default: '100000' }, sizes: { type: 'string', default: '100000,1000000' }, runs: { type: 'string', default: '3' }, 'data-dir': { type: 'string' } },
});
const FACTS = Number(args.facts);
const SIZES = args.sizes.split(',').map(Number);
const RUNS = Number(args.runs);
const POINT_QUERY = 'MATCH (a:Actor)-[r]->(b) WHERE id(a) = $id RETURN id(b) AS b';
const POINT_PARAMETERS = { id: 'n1' };
/** bench/query's Q1 and Q5 over this graph's edges (MENTIONED_WITH: an actor's to a claim stand for its ASSERTS). */
const Q1 = "MATCH (a:Actor)-[:MENTIONED_WITH]->(c:Claim) WHERE c.type = 'RedLine' RETURN id(a) AS a, id(c) AS c";
const Q5 = 'MATCH (a:Actor)-[:MENTIONED_WITH]->(:Claim) RETURN id(a) AS actor, count(*) AS claims ORDER BY claims DESC, actor LIMIT 10';
/** Q1 returns every pair: no row cap or time limit (as in bench/query). */
const UNBOUNDED = { rowCap: Number.MAX_SAFE_INTEGER, timeLimitMs: 600_000, intermediateRowCap: Number.MAX_SAFE_INTEGER };
/** From this size on, the restart from the records alone is not measured. */
const RECORDS_RESTART_BELOW = 10_000_000;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const count = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

// ---- 1. import and cold load ---------------------------------------------------------------

const graph = makeGraph(FACTS);
const records = graph.nodes.length + graph.edges.length;
const now = new Date().toISOString();
const nodeRecords: NodeRecord[] = graph.nodes.map((n) => ({ id: n.id!, labels: n.labels, properties: n.properties, confidence: 1, provenance: [], recorded_at: now }));
const edgeRecords: EdgeRecord[] = graph.edges.map((e, i) => ({ id: `e${i}`, type: e.type, from: e.from, to: e.to, properties: {}, confidence: 1, provenance: [], recorded_at: now }));
const rawObjects: [string, NodeRecord | EdgeRecord][] = [...nodeRecords.map((n): [string, NodeRecord] => ['n' + n.id, n]), ...edgeRecords.map((e): [string, EdgeRecord] => ['e' + e.id, e])];
const rawRecords = rawObjects.map(([key, record]) => [key, JSON.stringify(record)]);
// what parley itself puts: its keys (a graph's data prefix, with a generation of the same length) and its record encoding
const storePrefix = graphDataPrefix('bench', 'g', '0123456789ab');
const storeRecords = [
  ...nodeRecords.map((n) => [dataKey.nodes(storePrefix) + n.id, encodeNode(n)]),
  ...edgeRecords.map((e) => [dataKey.edges(storePrefix) + e.id, encodeEdge(e)]),
];

const importParley: number[] = [];
const importRaw: number[] = [];
/** The same per CPU second of this process (all its threads): steadier than wall time when other work shares the cores. */
const importParleyCpu: number[] = [];
const importRawCpu: number[] = [];
const importRawEncoding: number[] = [];
const importRawEncodingCpu: number[] = [];
const importRawStoreCpu: number[] = [];
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const loadParley: number[] = [];
const loadMaps: number[] = [];

// WARMUP rounds more than counted, dropped below: they warm the JIT and grow the heap (cold, the
// first two imports of each system ran at 1.5-2x the CPU per record of the next ones)
const WARMUP = 2;
for (let run = 0; run < WARMUP + RUNS; run++) {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-store-'));
  try {
    // parley import: validation, merge, one key per record, the in-memory indexes kept in step
    let store = await ParleyStore.open(path.join(dir, 'parley'));
    let started = performance.now();
    let cpu = cpuSeconds();
    await importGraph(store, 'g', graph);
    importParley.push(records / ((performance.now() - started) / 1000));
    importParleyCpu.push(records / (cpuSeconds() - cpu));
    await store.close();

    // baseline: the same records as raw classic-level batches of the same size
    const raw = new ClassicLevel<string, string>(path.join(dir, 'raw'), { valueEncoding: 'utf8' });
    await raw.open();
    started = performance.now();
    cpu = cpuSeconds();
    for (let i = 0; i < rawRecords.length; i += CHUNK) await raw.batch(rawRecords.slice(i, i + CHUNK).map(([key, value]) => ({ type: 'put' as const, key, value })));
    importRaw.push(records / ((performance.now() - started) / 1000));
    importRawCpu.push(records / (cpuSeconds() - cpu));
    await raw.close();

    // the same, with serialising the records inside the timed part (a store has to encode what it writes)
    const encoding = new ClassicLevel<string, string>(path.join(dir, 'raw-encoding'), { valueEncoding: 'utf8' });
    await encoding.open();
    started = performance.now();
    cpu = cpuSeconds();
    for (let i = 0; i < records; i += CHUNK) {
      await encoding.batch(rawObjects.slice(i, i + CHUNK).map(([key, record]) => ({ type: 'put' as const, key, value: JSON.stringify(record) })));
    }
    importRawEncoding.push(records / ((performance.now() - started) / 1000));
    importRawEncodingCpu.push(records / (cpuSeconds() - cpu));
    await encoding.close();

    // the keys and values parley writes, pre-serialised: what is left when the records cost nothing to encode
    const stored = new ClassicLevel<string, string>(path.join(dir, 'raw-store'), { valueEncoding: 'utf8' });
    await stored.open();
    cpu = cpuSeconds();
    for (let i = 0; i < storeRecords.length; i += CHUNK) await stored.batch(storeRecords.slice(i, i + CHUNK).map(([key, value]) => ({ type: 'put' as const, key, value })));
    importRawStoreCpu.push(records / (cpuSeconds() - cpu));
    await stored.close();

    // cold load: a fresh open, the graph into its indexes (from its snapshot, written at close)
    store = await ParleyStore.open(path.join(dir, 'parley'));
    started = performance.now();
    const index = await store.loadGraph('bench', 'g');
    loadParley.push(performance.now() - started);
    if (index.nodeCount !== graph.nodes.length || index.edgeCount !== graph.edges.length) throw new Error('loaded graph is incomplete');
    await store.close();

    // baseline: the same indexes built from arrays already in memory
    started = performance.now();
    GraphIndex.fromRecords(nodeRecords, edgeRecords);
    loadMaps.push(performance.now() - started);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

for (const measured of [importParley, importRaw, importParleyCpu, importRawCpu, importRawEncoding, importRawEncodingCpu, importRawStoreCpu, loadParley, loadMaps]) measured.splice(0, WARMUP);

console.log(`bench/store: import of ${fmt(FACTS)} facts = ${graph.nodes.length} nodes, ${graph.edges.length} edges (${records} records), median of ${RUNS} runs after ${WARMUP} warm-up runs, requests of ${CHUNK}; restart and memory at ${SIZES.map(count).join(', ')}`);
console.log('| measure | parley | baseline | ratio |');
console.log('|---|---|---|---|');
console.log(`| import, records/s | ${fmt(median(importParley))} | ${fmt(median(importRaw))} (raw classic-level batches) | ${(median(importParley) / median(importRaw)).toFixed(2)}x the raw throughput |`);
console.log(`| import, records per CPU second of the process | ${fmt(median(importParleyCpu))} | ${fmt(median(importRawCpu))} (raw classic-level batches) | ${(median(importParleyCpu) / median(importRawCpu)).toFixed(2)}x the raw throughput |`);
console.log(`| import, records/s | ${fmt(median(importParley))} | ${fmt(median(importRawEncoding))} (raw batches, serialising in the timed part) | ${(median(importParley) / median(importRawEncoding)).toFixed(2)}x the raw throughput |`);
console.log(`| import, records per CPU second of the process | ${fmt(median(importParleyCpu))} | ${fmt(median(importRawEncodingCpu))} (raw batches, serialising in the timed part) | ${(median(importParleyCpu) / median(importRawEncodingCpu)).toFixed(2)}x the raw throughput |`);
console.log(`| import, records per CPU second of the process | ${fmt(median(importParleyCpu))} | ${fmt(median(importRawStoreCpu))} (raw batches of parley's own keys and values, pre-serialised) | ${(median(importParleyCpu) / median(importRawStoreCpu)).toFixed(2)}x the raw throughput |`);
console.log(`| cold load into indexes, ms | ${fmt(median(loadParley))} | ${fmt(median(loadMaps))} (same indexes from arrays) | ${(median(loadParley) / median(loadMaps)).toFixed(2)}x |`);

// ---- 2. restart to first answer --------------------------------------------------------------

/** Point queries timed after a restart's queries, for the median of their times (the first answer is in the restart's time). */
const POINT_REPEATS = 100;

/**
 * Restart to the point query's answer, ms; with `queries`, then the time of each of them on the loaded graph (their
 * first run), ms, and the median time of a point query asked again (each about another node), ms.
 */
async function restartToAnswer(storeDir: string, graphId: string, queries: string[] = []): Promise<{ ms: number; queryMs: number[]; pointMs: number }> {
  const started = performance.now();
  const store = await ParleyStore.open(storeDir);
  const graph = await store.loadGraph('bench', graphId);
  const answer = runQuery(graph, POINT_QUERY, { parameters: POINT_PARAMETERS });
  const ms = performance.now() - started;
  if (answer.rows.length === 0) throw new Error('the point query found nothing');
  const queryMs = queries.map((query) => {
    const asked = performance.now();
    if (runQuery(graph, query, { limits: UNBOUNDED }).rows.length === 0) throw new Error(`found nothing: ${query}`);
    return performance.now() - asked;
  });
  const pointMs: number[] = [];
  let pointFound = 0;
  for (let i = 0; i < POINT_REPEATS && queries.length > 0; i++) {
    const asked = performance.now();
    // actors are the nodes whose number is not a multiple of 3 (makeGraph)
    pointFound += runQuery(graph, POINT_QUERY, { parameters: { id: `n${3 * i + 1}` } }).rows.length;
    pointMs.push(performance.now() - asked);
  }
  if (pointMs.length > 0 && pointFound === 0) throw new Error(`found nothing: ${POINT_QUERY} for any of ${pointMs.length} actors`);
  await store.close();
  return { ms, queryMs, pointMs: pointMs.length > 0 ? median(pointMs) : NaN };
}

/** How long the server may take to make a graph's worker replicas before the bench reads its RSS without them. */
const REPLICA_WAIT_MS = 15 * 60_000;

/** Resident set of a process and its descendants (memoryOf), in MB: `npm start` serves from a child it re-executes with the heap setting (server/heap.mjs). */
async function rssMb(pid: number): Promise<number> {
  return (await memoryOf(pid)).megabytes;
}

/** The seconds of readings settledRssMb wants within 1% of each other. */
const SETTLE_WINDOW_S = 10;

/**
 * rssMb once it has stopped growing (worker replicas are made after the query that asked for them answers, and a worker
 * that starts then is sent the replica of the graph last asked about): the readings, one a second, of the last
 * SETTLE_WINDOW_S seconds within 1% of the last, or the last reading after REPLICA_WAIT_MS. Two readings a second apart
 * were not enough at 10M facts: a replica made while the bench read grows RSS by well under 1% a second.
 */
async function settledRssMb(pid: number): Promise<number> {
  const readings = [await rssMb(pid)];
  for (let waited = 0; waited < REPLICA_WAIT_MS / 1_000; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    readings.push(await rssMb(pid));
    const window = readings.slice(-SETTLE_WINDOW_S - 1);
    if (window.length > SETTLE_WINDOW_S && Math.max(...window) - Math.min(...window) <= window.at(-1)! / 100) break;
  }
  return readings.at(-1)!;
}

/** How long partsAfter waits for a probe line written after the reading it goes with (the probe writes one every 10 s). */
const PROBE_WAIT_MS = 15_000;

/**
 * The server's memory by part, from its smaps and the first probe line written at or after `since` (bench/server-probe.ts),
 * as one row's cell, in MB: what RSS is made of, so that a reader sees where the bytes per fact are.
 */
async function partsAfter(pid: number, probeFile: string, since: number): Promise<string> {
  const deadline = Date.now() + PROBE_WAIT_MS;
  let parts = await partsOf(pid, probeFile);
  while ((parts.probe?.at ?? 0) < since && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    parts = await partsOf(pid, probeFile);
  }
  const { resident, probe } = parts;
  const mb = (bytes: number) => fmt(bytes / 2 ** 20);
  const smaps = `wasm ${mb(resident.wasm)}, malloc ${mb(resident.mallocHeap + resident.mallocArenas)}, other anonymous ${mb(resident.anonymous)}, files ${mb(resident.files)}`;
  if (!probe || probe.at < since) return `${smaps}; (no probe line)`;
  const isolate = (heap: { heapUsed?: number; heapCommitted?: number; arrayBuffers?: number }) =>
    heap.heapUsed === undefined ? 'not heard' : `${mb(heap.heapUsed)} / ${mb(heap.heapCommitted!)}, arrays ${mb(heap.arrayBuffers!)}`;
  const workers = probe.workers.filter((worker) => worker.kind === 'reasoning');
  return `${smaps}; main heap used / committed ${isolate(probe.main)}; reasoning workers ${workers.map(isolate).join('; ') || 'none'}`;
}

const keptDir = args['data-dir'];
const dataDir = keptDir ?? (await mkdtemp(path.join(tmpdir(), 'parley-bench-restart-')));
try {
  // one store, as the server finds it in its data dir: a graph of each size, `g<size>`
  const storeDir = path.join(dataDir, 'store');
  for (const size of SIZES) {
    const graphId = `g${size}`;
    const snapshot = snapshotFile(path.join(storeDir, 'snapshots'), 'bench', graphId);
    const imported = keptDir === undefined || (await stat(snapshot).catch(() => undefined)) === undefined;
    let importMs = NaN;
    let closeMs = NaN;
    if (imported) {
      const store = await ParleyStore.open(storeDir);
      const started = performance.now();
      await importGraph(store, graphId, size === FACTS ? graph : makeGraph(size));
      importMs = performance.now() - started;
      const closing = performance.now();
      await store.close(); // writes the snapshot
      closeMs = performance.now() - closing;
    }
    const snapshotBytes = (await stat(snapshot)).size;
    const fromSnapshot: number[] = [];
    const fromRecords: number[] = [];
    const queryMs: number[][] = [];
    const pointMs: number[] = [];
    const runs = size >= 1_000_000 ? 1 : RUNS;
    for (let run = 0; run < runs; run++) {
      const restart = await restartToAnswer(storeDir, graphId, [Q1, Q5]);
      fromSnapshot.push(restart.ms);
      queryMs.push(restart.queryMs);
      pointMs.push(restart.pointMs);
      if (size >= RECORDS_RESTART_BELOW) continue;
      // the path before snapshots: remove it (the restart's close writes it again, for the next round and the server)
      await rm(snapshot);
      fromRecords.push((await restartToAnswer(storeDir, graphId)).ms);
    }
    const records = fromRecords.length > 0 ? `${fmt(median(fromRecords))} (from the records) | ${(median(fromSnapshot) / median(fromRecords)).toFixed(2)}x` : '(from the records: not measured at this size) |';
    console.log(`| ${count(size)} facts: restart to first answer in process (open, load, point query), ms | ${fmt(median(fromSnapshot))} (from the ${(snapshotBytes / 1e6).toFixed(1)} MB snapshot) | ${records} |`);
    if (imported) console.log(`| ${count(size)} facts: import / close with the snapshot write, ms | ${fmt(importMs)} / ${fmt(closeMs)} | ${fmt(size / (importMs / 1000))} facts/s | |`);
    else console.log(`| ${count(size)} facts: import / close with the snapshot write, ms | (kept in --data-dir from an earlier run: not imported) | | |`);
    console.log(
      `| ${count(size)} facts: Q1 / Q5 in process after the restart (first run) / a point query after them (median of ${POINT_REPEATS}), ms | ${fmt(median(queryMs.map((ms) => ms[0])))} / ${fmt(median(queryMs.map((ms) => ms[1])))} / ${median(pointMs).toFixed(3)} | | |`,
    );
  }

  // ---- 3. the server, as npm start runs it ---------------------------------------------------
  const adminKey = 'pk_bench_store_admin_key_0123456789abcdef';
  const serverEnv = { PARLEY_DATA_DIR: dataDir, PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_GRAPH_CACHE_FACTS: String(2 * SIZES.reduce((a, b) => a + b, 0)) };
  const probeFile = path.join(dataDir, 'probe.jsonl');
  let started = performance.now();
  let server = await startServer({ ...serverEnv, PARLEY_SOAK_PROBE: probeFile }, probeArgs);
  let key: string;
  try {
    const { base } = server;
    const listeningMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rss = [await rssMb(server.process.pid!)];
    const parts = [await partsAfter(server.process.pid!, probeFile, Date.now())];
    key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'read' })).json.api_key;
    const firstAnswers: number[] = [];
    const replicaMs: number[] = [];
    const q5Answers: number[] = [];
    for (const size of SIZES) {
      const asked = performance.now();
      const answer = await postJson(`${base}/v1/graph/query`, key, { graph_id: `g${size}`, query: POINT_QUERY, parameters: POINT_PARAMETERS });
      firstAnswers.push(performance.now() - asked);
      if (answer.status !== 200 || answer.json.rows.length === 0) throw new Error(`first query: ${answer.status} ${JSON.stringify(answer.json)}`);
      // a heavy query moves to a reasoning worker, which loads its replica of the graph; asked again until it
      // answers (a replica of ten million facts is made in longer than a query may wait: 503 meanwhile)
      replicaMs.push(await answeredWithin(REPLICA_WAIT_MS, () => postJson(`${base}/v1/graph/query`, key, { graph_id: `g${size}`, query: 'MATCH (a:Actor)-[r]->(b) RETURN count(*) AS n' })));
      const q5Asked = performance.now();
      const q5 = await postJson(`${base}/v1/graph/query`, key, { graph_id: `g${size}`, query: Q5 });
      // a refusal (a limit the server applies) is reported, not thrown: the RSS rows still follow
      q5Answers.push(q5.status === 200 && q5.json.rows.length > 0 ? performance.now() - q5Asked : -q5.status);
      rss.push(await settledRssMb(server.process.pid!));
      parts.push(await partsAfter(server.process.pid!, probeFile, Date.now()));
    }
    const facts = SIZES.reduce((a, b) => a + b, 0);
    console.log(`| server (child process): spawn to listening, ms; first point query on each graph (its load from the snapshot), ms | ${fmt(listeningMs)}; ${SIZES.map((size, i) => `${count(size)}: ${fmt(firstAnswers[i])}`).join(', ')} | | |`);
    console.log(`| server: first heavy query on each graph (a worker makes its replica; asked again while refused), ms | ${SIZES.map((size, i) => `${count(size)}: ${replicaMs[i] < 0 ? `refused (${-replicaMs[i]}) for ${REPLICA_WAIT_MS / 60_000} min` : fmt(replicaMs[i])}`).join(', ')} | | |`);
    console.log(`| server: Q5 over HTTP on each graph, after its replicas are made, ms | ${SIZES.map((size, i) => `${count(size)}: ${q5Answers[i] < 0 ? `refused (${-q5Answers[i]})` : fmt(q5Answers[i])}`).join(', ')} | | |`);
    const held = replicaMs.every((ms) => ms >= 0) ? 'main thread and worker replicas' : `main thread; the replicas of the ${SIZES.filter((_, i) => replicaMs[i] < 0).map(count).join(', ')} graph not made`;
    console.log(`| server RSS, MB: idle (no graph) / with the ${SIZES.map(count).join(' / then the ')} graph loaded (${held}) | ${rss.map(fmt).join(' / ')} | | |`);
    console.log(
      `| server RSS per fact, bytes: each graph's growth over its size / the whole RSS over the ${count(facts)} facts loaded | ${SIZES.map((size, i) => `${count(size)}: ${fmt(((rss[i + 1] - rss[i]) * 2 ** 20) / size)}`).join(', ')} / ${fmt((rss[rss.length - 1] * 2 ** 20) / facts)} | | |`,
    );
    parts.forEach((cell, i) => console.log(`| server's parts, MB, ${i === 0 ? 'idle' : `with the ${count(SIZES[i - 1])} graph`} | ${cell} | | |`));
  } finally {
    await stopServer(server);
  }
  // a restart as a user sees it: spawn, then the first answer on the largest graph, asked as soon as the server listens
  const largest = Math.max(...SIZES);
  started = performance.now();
  server = await startServer(serverEnv);
  try {
    const { base } = server;
    const listeningMs = performance.now() - started;
    const answer = await postJson(`${base}/v1/graph/query`, key, { graph_id: `g${largest}`, query: POINT_QUERY, parameters: POINT_PARAMETERS });
    if (answer.status !== 200 || answer.json.rows.length === 0) throw new Error(`first query after restart: ${answer.status} ${JSON.stringify(answer.json)}`);
    console.log(`| server restarted: spawn to listening / to the first answer on the ${count(largest)} graph, ms | ${fmt(listeningMs)} / ${fmt(performance.now() - started)} | | |`);
  } finally {
    await stopServer(server);
  }
} finally {
  if (keptDir === undefined) await rm(dataDir, { recursive: true, force: true });
}
