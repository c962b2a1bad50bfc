/**
 * bench/store: import throughput and cold load of a 100k-fact graph, each beside a
 * baseline measured in the same run (the machines are shared and noisy, so read
 * the ratios). Facts as in measurements.md: N facts = N/5 nodes, 2N/5 properties,
 * 2N/5 edges.
 *
 * Then restart and memory, on a store holding the graph (written by the same import):
 * - restart to first answer in this process (open the store, load the graph, answer a
 *   point query) from the graph's snapshot, beside the same from its records alone
 *   (the snapshot removed: the path before snapshots);
 * - the server (server/main.ts, a child process as `npm start` runs it): RSS once it
 *   listens with no graph loaded, then after its first query on the graph (main
 *   thread and reasoning workers with their replicas), and the time from spawn to
 *   that first answer.
 *
 *   npm run bench:store [-- --facts 100000 --runs 3]      (--facts 1000000 for the 1M figures)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ClassicLevel } from 'classic-level';
import type { EdgeRecord, NodeRecord } from '../engine/ontology/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore, type GraphWrite } from '../engine/store/store.ts';
import { snapshotFile } from '../engine/store/snapshot.ts';
import { runQuery } from '../engine/query/index.ts';
import { postJson } from './http.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' } } });
const FACTS = Number(args.facts);
const RUNS = Number(args.runs);
/** Records per import request: what a client sending a large graph in parts would do. */
const CHUNK = 10_000;

function makeGraph(facts: number): GraphWrite {
  const nodeCount = Math.floor(facts / 5);
  const nodes: GraphWrite['nodes'] = [];
  const edges: GraphWrite['edges'] = [];
  for (let i = 0; i < nodeCount; i++) {
    const claim = i % 3 === 0;
    nodes.push(
      claim
        ? { id: `n${i}`, labels: ['Claim'], properties: { type: i % 9 === 0 ? 'RedLine' : 'Demand', text: `claim ${i}` } }
        : { id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}`, actor_type: 'armed_group' } },
    );
  }
  for (let i = 0; i < 2 * nodeCount; i++) {
    const from = (i * 7919) % nodeCount;
    const to = (i * 104729 + 1) % nodeCount;
    edges.push({ id: `e${i}`, type: 'MENTIONED_WITH', from: `n${from}`, to: `n${to}`, properties: {} });
  }
  return { nodes, edges };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const graph = makeGraph(FACTS);
const records = graph.nodes.length + graph.edges.length;
const now = new Date().toISOString();
const nodeRecords: NodeRecord[] = graph.nodes.map((n) => ({ id: n.id!, labels: n.labels, properties: n.properties, confidence: 1, provenance: [], recorded_at: now }));
const edgeRecords: EdgeRecord[] = graph.edges.map((e, i) => ({ id: `e${i}`, type: e.type, from: e.from, to: e.to, properties: {}, confidence: 1, provenance: [], recorded_at: now }));

const importParley: number[] = [];
const importRaw: number[] = [];
const loadParley: number[] = [];
const loadMaps: number[] = [];

for (let run = 0; run < RUNS; run++) {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-store-'));
  try {
    // parley import: validation, merge, records plus forward/reverse/label index keys, index update
    let store = await ParleyStore.open(path.join(dir, 'parley'));
    let started = performance.now();
    for (let i = 0; i < graph.nodes.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: graph.nodes.slice(i, i + CHUNK), edges: [] });
    for (let i = 0; i < graph.edges.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: [], edges: graph.edges.slice(i, i + CHUNK) });
    importParley.push(records / ((performance.now() - started) / 1000));
    await store.close();

    // baseline: the same records as raw classic-level batches of the same size, one key each, no indexes
    const raw = new ClassicLevel<string, string>(path.join(dir, 'raw'), { valueEncoding: 'utf8' });
    await raw.open();
    const all = [...nodeRecords.map((n) => ['n' + n.id, JSON.stringify(n)]), ...edgeRecords.map((e) => ['e' + e.id, JSON.stringify(e)])];
    started = performance.now();
    for (let i = 0; i < all.length; i += CHUNK) await raw.batch(all.slice(i, i + CHUNK).map(([key, value]) => ({ type: 'put' as const, key, value })));
    importRaw.push(records / ((performance.now() - started) / 1000));
    await raw.close();

    // cold load: a fresh process-level open, LevelDB → indexes
    store = await ParleyStore.open(path.join(dir, 'parley'));
    started = performance.now();
    const index = await store.loadGraph('bench', 'g');
    loadParley.push(performance.now() - started);
    if (index.nodeCount !== graph.nodes.length || index.edgeCount !== graph.edges.length) throw new Error('loaded graph is incomplete');
    await store.close();

    // baseline: the same Maps built from arrays already in memory
    started = performance.now();
    GraphIndex.fromRecords(nodeRecords, edgeRecords);
    loadMaps.push(performance.now() - started);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`bench/store: ${FACTS.toLocaleString('en-US')} facts = ${graph.nodes.length} nodes, ${graph.edges.length} edges (${records} records); median of ${RUNS} runs; chunks of ${CHUNK}`);
console.log('| measure | parley | baseline | ratio |');
console.log('|---|---|---|---|');
console.log(`| import, records/s | ${fmt(median(importParley))} | ${fmt(median(importRaw))} (raw classic-level batches) | ${(median(importRaw) / median(importParley)).toFixed(2)}x slower |`);
console.log(`| cold load into indexes, ms | ${fmt(median(loadParley))} | ${fmt(median(loadMaps))} (same Maps from an array) | ${(median(loadParley) / median(loadMaps)).toFixed(2)}x |`);

// ---- restart and memory -----------------------------------------------------------------

const POINT_QUERY = 'MATCH (a:Actor)-[r]->(b) WHERE id(a) = $id RETURN id(b) AS b';
const POINT_PARAMETERS = { id: 'n1' };

async function restartToAnswer(storeDir: string): Promise<number> {
  const started = performance.now();
  const store = await ParleyStore.open(storeDir);
  const answer = runQuery(await store.loadGraph('bench', 'g'), POINT_QUERY, { parameters: POINT_PARAMETERS });
  const ms = performance.now() - started;
  if (answer.rows.length === 0) throw new Error('the point query found nothing');
  await store.close();
  return ms;
}

/** Resident set of a process, from /proc (Linux), in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-restart-'));
try {
  const storeDir = path.join(dir, 'store');
  const store = await ParleyStore.open(storeDir);
  for (let i = 0; i < graph.nodes.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: graph.nodes.slice(i, i + CHUNK), edges: [] });
  for (let i = 0; i < graph.edges.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: [], edges: graph.edges.slice(i, i + CHUNK) });
  await store.close(); // writes the snapshot

  const fromSnapshot: number[] = [];
  const fromRecords: number[] = [];
  const snapshot = snapshotFile(path.join(storeDir, 'snapshots'), 'bench', 'g');
  const snapshotBytes = (await readFile(snapshot)).length;
  for (let run = 0; run < RUNS; run++) {
    fromSnapshot.push(await restartToAnswer(storeDir));
    // the path before snapshots: remove it (the restart writes it again, for the next round)
    await rm(snapshot);
    fromRecords.push(await restartToAnswer(storeDir));
  }
  console.log(`| restart to first answer in process (open, load, point query), ms | ${fmt(median(fromSnapshot))} (from the ${(snapshotBytes / 1e6).toFixed(0)} MB snapshot) | ${fmt(median(fromRecords))} (from the records) | ${(median(fromSnapshot) / median(fromRecords)).toFixed(2)}x |`);

  // the server, as npm start runs it
  const adminKey = 'pk_bench_store_admin_key_0123456789abcdef';
  const started = performance.now();
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PARLEY_DATA_DIR: dir, PORT: '0', PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_GRAPH_CACHE_FACTS: String(2 * FACTS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      server.on('exit', (code) => reject(new Error(`server exited: ${code}`)));
      const watch = (chunk: string) => {
        const match = /listening at (http:\/\/[\d.:]+)/.exec(chunk);
        if (match) resolve(match[1]);
      };
      server.stdout!.setEncoding('utf8').on('data', watch);
      server.stderr!.setEncoding('utf8').on('data', watch);
    });
    const listeningMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = await rssMb(server.pid!);
    const key = await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'read' });
    const answer = await postJson(`${base}/v1/graph/query`, key.json.api_key, { graph_id: 'g', query: POINT_QUERY, parameters: POINT_PARAMETERS });
    const firstAnswerMs = performance.now() - started;
    if (answer.status !== 200 || answer.json.rows.length === 0) throw new Error(`first query: ${answer.status} ${JSON.stringify(answer.json)}`);
    // a heavy query moves to a reasoning worker, which loads its replica of the graph
    await postJson(`${base}/v1/graph/query`, key.json.api_key, { graph_id: 'g', query: 'MATCH (a:Actor)-[r]->(b) RETURN count(*) AS n' });
    const loaded = await rssMb(server.pid!);
    console.log(`| server (child process): spawn to listening / to first answer, ms | ${fmt(listeningMs)} / ${fmt(firstAnswerMs)} | | |`);
    console.log(`| server RSS, MB: idle (no graph) / with the ${FACTS.toLocaleString('en-US')}-fact graph loaded (main thread and worker replicas) | ${fmt(idle)} / ${fmt(loaded)} | | |`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
