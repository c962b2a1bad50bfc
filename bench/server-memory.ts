/**
 * bench/server-memory: the server's resident memory at `--facts` (default 1M), by part (issue 28:
 * memory per fact). This process is the server: it runs with the heap setting and malloc arenas
 * `npm start` applies (server/heap.mjs), opens the engine and the HTTP app as server/main.ts does,
 * on a store that a child process of this bench filled first (bench/store's graph), so nothing the
 * import made is left in this heap. Then, as bench/store's server section: idle, the first point
 * query (the main thread loads the graph), a heavy query asked until answered (a worker makes its
 * replica; the others hear its snapshot and make theirs), every engine holding the graph's
 * view (the hand-over each worker makes in the background), and RSS once it has settled; then once more after one
 * full assess of the graph (POST /v1/workspaces/{id}/assess: all 15 frameworks, over the engines that hold its view),
 * whose stacks and kept answers stay in the engines' memories; then after an ingest-like write (200 nodes, 200 edges: the CPU of
 * the write and of every engine's hand-over of it) and after the assess that follows it (its CPU). At each step it prints:
 *   - RSS from /proc/self/smaps, split into WebAssembly memories (the Prolog engines), glibc's
 *     heap and arenas, other anonymous memory (V8's pages, thread stacks, malloc's large blocks)
 *     and files;
 *   - the main thread's V8 heap, used and committed, and its ArrayBuffers (typed arrays);
 *   - each reasoning worker's, as it says (ReasoningPool.workerMemory), and again after a full
 *     collection in every isolate (`live`: what is garbage and what is headroom).
 *
 *   npx tsx --expose-gc bench/server-memory.ts [--facts 1000000] [--settle-s 60] [--views-s 240]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { isolateMemory, type WorkerMemory } from '../engine/reason/replicas.ts';
import { serveWithHeapSetting } from '../server/heap.mjs';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openEngine } from '../server/open.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { answeredWithin, postJson } from './http.ts';
import { cpuMsSince, residentByKind } from './stats.ts';
import { importGraph, makeGraph } from './store-graph.ts';

if (serveWithHeapSetting()) await new Promise(() => {});
process.channel?.unref();

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '1000000' }, prepare: { type: 'string' }, 'settle-s': { type: 'string', default: '60' }, 'views-s': { type: 'string', default: '240' } } });
const FACTS = Number(args.facts);
const MB = 2 ** 20;
/** Facts of the ingest-like write (ingestLikeWrite): 200 nodes of 2 properties, 200 edges. */
const INGEST_FACTS = 800;

// the child that fills the store: imported, closed (its snapshot written), and gone before the server opens it
if (args.prepare) {
  const store = await ParleyStore.open(path.join(args.prepare, 'store'));
  await importGraph(store, 'g', makeGraph(FACTS));
  await store.close();
  process.exit(0);
}

const dir = path.join(process.env.TMPDIR ?? tmpdir(), `parley-server-memory-${process.pid}`);
await mkdir(dir, { recursive: true });
const prepared = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--prepare', dir, '--facts', String(FACTS)], { stdio: 'inherit' });
if (prepared.status !== 0 || !existsSync(path.join(dir, 'store'))) throw new Error(`filling the store failed: ${prepared.status}`);

const adminKey = 'pk_bench_server_memory_admin_0123456789';
// (the preload bound just above the graph, not at it: the write below is handed over ahead, as a write to a graph under the bound is)
Object.assign(process.env, { PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_PRELOAD_MAX_FACTS: String(FACTS + INGEST_FACTS) });
const engine = await openEngine(loadConfig());
const app = await buildApp(engine.deps, { logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const { reasoning } = engine.deps;
const gc = (globalThis as { gc?: () => void }).gc;

const fmt = (bytes: number) => (bytes / MB).toFixed(0);
async function report(step: string, facts: number): Promise<void> {
  const rss = await residentByKind();
  const isolates = [{ worker: 0, ...isolateMemory() }, ...(await reasoning.workerMemory(false))];
  gc?.();
  const collected = gc ? [{ worker: 0, ...isolateMemory() }, ...(await reasoning.workerMemory(true))] : [];
  const rssAfter = await residentByKind();
  const perFact = (bytes: number) => (facts > 0 ? ` (${(bytes / facts).toFixed(0)} B/fact)` : '');
  console.log(`## ${step}`);
  console.log(`RSS ${fmt(rss.total)} MB${perFact(rss.total)}: wasm ${fmt(rss.wasm)} (${rss.wasmMaps} memories), malloc [heap] ${fmt(rss.mallocHeap)} and arenas ${fmt(rss.mallocArenas)}, other anonymous ${fmt(rss.anonymous)}, files ${fmt(rss.files)}; after the collections: ${fmt(rssAfter.total)} MB`);
  const line = (memory: WorkerMemory) => `V8 heap used ${fmt(memory.heapUsed)} / committed ${fmt(memory.heapCommitted)} MB (young ${fmt(memory.youngCommitted)} of at most ${memory.youngLimitMb || "V8's default"}); ArrayBuffers ${fmt(memory.arrayBuffers)} MB`;
  for (const isolate of isolates) {
    const live = collected.find((other) => other.worker === isolate.worker);
    console.log(`${isolate.worker === 0 ? 'main' : `worker ${isolate.worker}`}: ${line(isolate)}; after a full GC: ${live ? line(live) : '?'}`);
  }
}

/**
 * How many of the running workers' engines hold the graph's view, and how many workers run: polled until every one
 * does, or `timeoutMs` (an engine may leave it: worker-entry.ts hands a replica over only where it drops no view).
 */
async function enginesHolding(graphId: string, timeoutMs: number): Promise<{ holding: number; running: number }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const running = (await reasoning.workerMemory(false, 500)).length;
    const holding = [...reasoning.heldViews().values()].filter(({ graphs }) => graphs.some((graph) => graph.graphId === graphId)).length;
    if ((running > 0 && holding >= running) || performance.now() > deadline) return { holding, running };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** A write as an ingest of some documents makes it: actors and claims (3 facts each), each claim asserted by a new actor and about a node the graph holds. */
function ingestLikeWrite(facts: number): { nodes: unknown[]; edges: unknown[] } {
  const held = Math.floor(facts / 5);
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  for (let i = 0; i < 100; i++) {
    nodes.push({ kind: 'Actor', id: `w-actor-${i}`, label: `written actor ${i}`, actor_type: 'armed_group' });
    nodes.push({ kind: 'Claim', id: `w-claim-${i}`, type: 'Demand', text: `written claim ${i}` });
    edges.push({ id: `w-asserts-${i}`, type: 'ASSERTS', from: `w-actor-${i}`, to: `w-claim-${i}` });
    edges.push({ id: `w-about-${i}`, type: 'MENTIONED_WITH', from: `w-claim-${i}`, to: `n${(i * 7919) % held}` });
  }
  return { nodes, edges };
}

/** RSS once two readings a second apart are within 1% (worker replicas and hand-overs go on after the answer), or after --settle-s. */
async function settle(): Promise<void> {
  let last = (await residentByKind()).total;
  for (let waited = 0; waited < Number(args['settle-s']); waited++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = (await residentByKind()).total;
    if (Math.abs(now - last) <= last / 100) return;
    last = now;
  }
}

try {
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  console.log(`bench/server-memory: ${FACTS.toLocaleString('en-US')} facts, heap limit ${fmt(getHeapStatistics().heap_size_limit)} MB, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '(unset)'}`);
  await report('idle', 0);
  const key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'write' })).json.api_key;
  const point = await postJson(`${base}/v1/graph/query`, key, { graph_id: 'g', query: 'MATCH (a:Actor)-[r]->(b) WHERE id(a) = $id RETURN id(b) AS b', parameters: { id: 'n1' } });
  if (point.status !== 200) throw new Error(`point query: ${point.status}`);
  await report('graph loaded on the main thread', FACTS);
  const started = performance.now();
  const replicasMs = await answeredWithin(600_000, () => postJson(`${base}/v1/graph/query`, key, { graph_id: 'g', query: 'MATCH (a:Actor)-[r]->(b) RETURN count(*) AS n' }));
  if (replicasMs < 0) throw new Error(`heavy query refused for 10 min: ${-replicasMs}`);
  // each worker hands the graph's view to its engine in the background once its replica is made (worker-entry.ts): waited for, so that every reading holds them
  const views = await enginesHolding('g', Number(args['views-s']) * 1000);
  const viewsMs = performance.now() - started;
  await settle();
  await report(`replicas made (${(replicasMs / 1000).toFixed(1)} s), ${views.holding} of ${views.running} engines holding the view (${(viewsMs / 1000).toFixed(1)} s), RSS settled`, FACTS);
  const workspace = await postJson(`${base}/v1/workspaces`, key, { name: 'bench', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' });
  if (workspace.status !== 201) throw new Error(`workspace: ${workspace.status}`);
  // (asked again after a refusal: at 1M on a loaded machine an assess can outlast the call's 120 s, its frameworks' runs going on)
  const assessMs = await answeredWithin(1_200_000, () => postJson(`${base}/v1/workspaces/${workspace.json.id}/assess`, key, {}));
  if (assessMs < 0) throw new Error(`assess refused for 20 min: ${-assessMs}`);
  await settle();
  await report(`one full assess (${(assessMs / 1000).toFixed(1)} s), RSS settled`, FACTS);
  // an ingest-like write: new actors and claims, each linked to nodes the graph holds, handed by every engine holding the view over as an addition
  const write = ingestLikeWrite(FACTS);
  const writeFacts = FACTS + INGEST_FACTS;
  const beforeWrite = process.cpuUsage();
  const imported = await postJson(`${base}/v1/graphs/g/import`, key, write);
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.json)}`);
  const handedOver = await reasoning.viewsPrepared('bench', 'g', Number(args['views-s']) * 1000);
  const writeCpu = cpuMsSince(beforeWrite);
  await settle();
  await report(`an ingest-like write (${write.nodes.length} nodes, ${write.edges.length} edges): ${handedOver ? 'every engine took it' : 'NOT every engine took it'}; CPU of the write and its hand-overs ${writeCpu.toFixed(0)} ms; RSS settled`, writeFacts);
  const beforeAssess = process.cpuUsage();
  const againMs = await answeredWithin(1_200_000, () => postJson(`${base}/v1/workspaces/${workspace.json.id}/assess`, key, {}));
  if (againMs < 0) throw new Error(`assess after the write refused for 20 min: ${-againMs}`);
  const assessCpu = cpuMsSince(beforeAssess);
  await settle();
  await report(`the assess after the write (${(againMs / 1000).toFixed(1)} s, CPU ${assessCpu.toFixed(0)} ms), RSS settled`, writeFacts);
} finally {
  await app.close();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
}
