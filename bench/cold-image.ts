/**
 * bench/cold-image: what one reasoning worker pays, by part, for the first assess after a restart of a graph whose
 * view image is on disk (issue 28), in process, one child process per part so that each engine starts empty:
 *   - make: an engine as the first assess before the restart leaves it: the whole hand-over from the records, the
 *     shared sets (parley_warm_sets(warm_view_sets), as RuleRegistry.prepareInParts), the 15 frameworks, each with
 *     its CPU and inferences; then the view image (bridge.ts viewImage), as a worker makes it once idle after them;
 *   - load: an engine that never held the view (a restart): the hand-over from that image (handOverImage: the code
 *     loaded, the clause indexes), the shared sets, the 15 frameworks, each with its CPU and inferences, side by side
 *     with make's: the same inferences say the image's sets are read and not computed again;
 *   - replica: the worker's copy of the graph from the main thread (replicas.ts sendSnapshotOnce, its snapshot-chunk
 *     messages): the records of each chunk serialised as postMessage does (v8.serialize, the structured clone the
 *     main thread pays) and deserialised (the worker's), then put into a GraphIndex as the worker does
 *     (putLogged, adoptEdges); and, beside it, the same graph as a snapshot body (snapshot.ts encodeGraph, decodeGraph,
 *     GraphIndex.fromDistinctRecords), and read back from a snapshot file (readSnapshot: its digest checked too), what
 *     a worker reading the store's snapshot file itself would pay in place of the chunks.
 * Counts (inferences, bytes) do not depend on the load; CPU does: the load average is printed.
 *
 * With --only a,b the load part runs those frameworks alone (what one of 16 engines runs after its hand-over).
 * load-ahead: load with the engine's memory grown before the graph is in the heap (bridge.ts reserveViewMemoryAhead, as a
 * worker does as its snapshot begins), its cost and V8's full collections printed, and those inside the hand-over;
 * load-task: the hand-over a task makes itself (the clause indexes left to the runs); load-ahead-task: both.
 * load-ahead-read: load-ahead with the image read before the graph is in the heap too, as a worker reads it as its
 * snapshot begins (worker-entry.ts onSnapshotBegin); load-ahead reads it after, as the hand-over did before.
 * make-after: the shared sets kept after the runs, as a worker keeps them before the image after a first assess that
 * handed the view over itself (worker-entry.ts keepSets), not before them as after a preload.
 * sent: the replica as this tree's replicas.ts makes it after a restart, end to end: a store of the graph (written once,
 * closed so that its snapshot file is written, kept beside --keep's image), opened again and the graph loaded, then a
 * ReplicaSource on it and a ReplicaSet in a worker thread asking for it (graph()): the wall ms from the ask to the
 * replica, each thread's CPU (the main thread's: the chunks and their structured clone, or none; the worker's: its
 * build, from the chunks or the snapshot file), the process's CPU (with V8's and libuv's helper threads), the chunks
 * and the begins sent. `--workers 2`: that many worker threads asking at once, as every worker asks for a graph within the
 * preload bound that a restart warms or a preload names (one snapshot for all: each reads the file, or builds the shared
 * chunks); the wall is then to the last replica held, the worker threads' CPU their sum, and the process's peak RSS printed.
 * The same file run in another tree's worktree measures that tree's replicas.ts (19439c3's: the chunks).
 * --keep FILE keeps the image (and its graph's record count) in FILE, made once: later runs skip make.
 *
 *   npx tsx bench/cold-image.ts [--facts 1000000] [--parts make,load,load-ahead,replica] [--only galtung] [--keep FILE]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BroadcastChannel, Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { generate, generatedRecords } from './conflict-graph.ts';
import { cpuMsSince, listScheduled, memoryEvents, positiveIntegerFlag, timedCpu } from './stats.ts';
import type { EdgeRecord, NodeRecord } from '../engine/ontology/index.ts';
import { ReplicaSet, ReplicaSource, SNAPSHOT_CHUNK, snapshotChunk, type GraphVersion } from '../engine/reason/replicas.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { writeInChunks } from './cold-start.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { runFramework } from '../engine/frameworks/run.ts';
import { handOverImage, reserveViewMemoryAhead, viewImage, wholeHandOvers } from '../engine/prolog/bridge.ts';
import { putLogged } from '../engine/store/graph-changes.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { decodeGraph, encodeGraph, readSnapshot, writeSnapshot } from '../engine/store/snapshot.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '1000000' }, parts: { type: 'string', default: 'make,load,replica' }, only: { type: 'string' }, part: { type: 'string' }, image: { type: 'string' }, records: { type: 'string' }, ahead: { type: 'boolean' }, read: { type: 'boolean' }, task: { type: 'boolean' }, after: { type: 'boolean' }, keep: { type: 'string' }, workers: { type: 'string', default: '1' } } });
const workerThreads = positiveIntegerFlag('workers', args.workers);
/** The frameworks load runs (--only): one alone is what one of 16 engines runs after its hand-over. */
const only = args.only?.split(',');
const LIMITS = { inferenceLimit: 2_000_000_000, timeLimitMs: 900_000 };
const count = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () => loadavg()[0].toFixed(1);
const processStart = { user: 0, system: 0 };

/** The CPU ms this thread has used (Linux: /proc/thread-self/stat's utime and stime, in ticks of 10 ms): what one thread of several spent. */
function threadCpuMs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function records(): { nodes: NodeRecord[]; edges: EdgeRecord[] } {
  return generatedRecords(generate(Number(args.facts)).write, new Date(0).toISOString());
}

/**
 * The shared sets and the 15 frameworks on `graph`'s view, each as `name cpuMs inferences` lines; with `setsLast`, the
 * sets kept after the runs, as a worker keeps them before the image after a first assess that handed the view over itself.
 */
async function setsAndRuns(catalog: Awaited<ReturnType<typeof loadRuleModules>>, graph: GraphIndex, setsLast = false): Promise<string[]> {
  const view = { graph };
  const keepSets = () => {
    const sets = timedCpu(() => catalog.registry.solveLibrary('statistics(inferences, A), parley_warm_sets(warm_view_sets), statistics(inferences, B), N is B - A', ['N'], view, LIMITS));
    return `sets ${sets.cpuMs.toFixed(0)} ${Number(sets.value[0][0])}`;
  };
  const lines = setsLast ? [] : [keepSets()];
  const prologGc = () => catalog.registry.solveLibrary('statistics(garbage_collection, [C, _, T|_])', ['C', 'T'], view, LIMITS)[0].map(Number);
  const [collectionsBefore, collectedMsBefore] = prologGc();
  const { growths, fullCollections } = await memoryEvents(() => {
    for (const entry of catalog.frameworks) {
      if (entry.status !== 'loaded' || (only && !only.includes(entry.manifest.id))) continue;
      const run = timedCpu(() => runFramework(catalog.registry, entry.manifest, view, LIMITS));
      lines.push(`${entry.manifest.id} ${run.cpuMs.toFixed(0)} ${run.value.inferences}${run.value.error ? ' stopped' : ''}`);
    }
  });
  const [collections, collectedMs] = prologGc();
  if (setsLast) lines.push(keepSets());
  lines.push(`runs-engine-growths 0 ${growths}`, `runs-v8-full-collections 0 ${fullCollections}`, `runs-prolog-collections ${collectedMs - collectedMsBefore} ${collections - collectionsBefore}`);
  return lines;
}

if (!isMainThread) {
  // the worker thread of the `sent` part: its replica set asks for the graph, and says what its loop was busy with
  // (its modules loaded before the clock starts: it waits for the word, then starts as a worker does, and asks)
  const { channel, at } = workerData as { channel: string; at: GraphVersion };
  await new Promise((resolve) => {
    parentPort!.once('message', resolve);
    parentPort!.postMessage('ready');
  });
  // the replica channels are unref'd: they alone would let this thread end while its snapshot comes (a pool's port keeps a worker's)
  const alive = setInterval(() => {}, 1_000);
  const before = threadCpuMs();
  const replicas = new ReplicaSet(channel, 4);
  const replica = await replicas.graph(at);
  parentPort!.postMessage({ facts: replica.factCount, cpuMs: threadCpuMs() - before });
  replicas.close();
  clearInterval(alive);
} else if (args.part === 'sent') {
  const location = `${args.image!}.store`;
  if (!existsSync(location)) {
    const written = await ParleyStore.open(location);
    await writeInChunks(written, 'g', generate(Number(args.facts)).write);
    await written.close(); // (the snapshot file written, as a server's close writes it)
  }
  const store = await ParleyStore.open(location);
  const graph = await store.loadGraph('bench', 'g');
  const name = `cold-image-sent-${process.pid}`;
  const source = new ReplicaSource(store, name);
  const { at } = await source.current('bench', 'g');
  const heard = new Map<string, number>();
  const listener = new BroadcastChannel(name);
  listener.onmessage = (event) => {
    const { type } = (event as { data: { type: string } }).data;
    heard.set(type, (heard.get(type) ?? 0) + 1);
  };
  // (a worker thread does not inherit the parent's loader: this file is loaded as the reasoning workers load theirs)
  const boot = `import(${JSON.stringify(new URL('../engine/load-module.mjs', import.meta.url).href)}).then(({ loadModule }) => loadModule(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
  const workers = Array.from({ length: workerThreads }, () => new Worker(boot, { eval: true, workerData: { channel: name, at } }));
  const message = (worker: Worker) => new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await Promise.all(workers.map(message));
  const mainBefore = threadCpuMs();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const answers = workers.map(message);
  for (const worker of workers) worker.postMessage('go');
  const built = (await Promise.all(answers)) as { facts: number; cpuMs: number }[];
  const wallMs = performance.now() - started;
  const cpuMs = cpuMsSince(cpuBefore);
  const mainCpuMs = threadCpuMs() - mainBefore;
  await Promise.all(workers.map((worker) => worker.terminate()));
  if (built.some(({ facts }) => facts !== graph.factCount)) throw new Error('a replica lacks facts');
  console.log(`sent-wall ${wallMs.toFixed(0)} ${built[0].facts}`);
  console.log(`sent-main-thread ${mainCpuMs.toFixed(0)} ${heard.get('snapshot-chunk') ?? 0}`);
  console.log(`sent-worker-thread ${built.reduce((sum, { cpuMs: ms }) => sum + ms, 0).toFixed(0)} ${heard.get('snapshot-begin') ?? 0}`);
  console.log(`sent-process-cpu ${cpuMs.toFixed(0)} 0`);
  console.log(`sent-peak-rss-mb ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} ${heard.get('read-ask') ?? 0}`);
  listener.close();
  source.close();
  await store.close();
} else if (args.part === 'make') {
  const { nodes, edges } = records();
  const graph = GraphIndex.fromRecords(nodes, edges);
  const catalog = await loadRuleModules();
  const handOver = timedCpu(() => catalog.registry.handOver({ graph }));
  console.log(`handover ${handOver.cpuMs.toFixed(0)} 0`);
  console.log(`records 0 ${graph.nodeCount + graph.edgeCount}`);
  for (const line of await setsAndRuns(catalog, graph, args.after)) console.log(line);
  const image = timedCpu(() => viewImage(graph));
  if (!image.value) throw new Error('no image of the view held');
  writeFileSync(args.image!, image.value);
  console.log(`image-made ${image.cpuMs.toFixed(0)} ${image.value.length}`);
} else if (args.part === 'load') {
  const catalog = await loadRuleModules();
  const reservedFor = args.ahead ? new GraphIndex() : undefined;
  if (reservedFor) {
    // as a worker at its snapshot's beginning (worker-entry.ts), the graph's records not yet in the heap
    const ahead = await memoryEvents(() => timedCpu(() => reserveViewMemoryAhead(reservedFor, Number(args.records))));
    console.log(`reserve-ahead ${ahead.value.cpuMs.toFixed(0)} ${ahead.fullCollections}`);
    console.log(`reserve-ahead-collection-ms ${ahead.fullCollectionMs.toFixed(0)} 0`);
  }
  // (--read: the image read before the graph is in the heap, as a worker reads it as its snapshot begins; else after)
  const readAhead = args.read ? timedCpu(() => readFileSync(args.image!)) : undefined;
  if (readAhead) console.log(`image-read-ahead ${readAhead.cpuMs.toFixed(0)} ${readAhead.value.length}`);
  const { nodes, edges } = records();
  // grown ahead, the graph is the one the reservation was for, filled as a worker fills its replica (replicas.ts)
  const graph = reservedFor ?? GraphIndex.fromRecords(nodes, edges);
  if (reservedFor) {
    putLogged(reservedFor, nodes, []);
    reservedFor.adoptEdges(edges);
  }
  const image = readAhead?.value ?? readFileSync(args.image!);
  wholeHandOvers.clock = () => cpuMsSince(processStart);
  const handOver = await memoryEvents(() => timedCpu(() => handOverImage({ graph }, image, { indexes: !args.task })));
  if (!handOver.value.value) throw new Error('the image was refused');
  console.log(`handover ${handOver.value.cpuMs.toFixed(0)} 0`);
  console.log(`handover-collections ${handOver.fullCollectionMs.toFixed(0)} ${handOver.fullCollections}`);
  console.log(`handover-growths 0 ${handOver.growths}`);
  console.log(`image-code ${wholeHandOvers.imageMs.toFixed(0)} 0`);
  console.log(`image-indexes ${wholeHandOvers.indexMs.toFixed(0)} ${wholeHandOvers.indexes}`);
  for (const line of await setsAndRuns(catalog, graph)) console.log(line);
} else if (args.part === 'replica') {
  const { nodes, edges } = records();
  const source = GraphIndex.fromRecords(nodes, edges);
  // as sendSnapshotOnce: its chunks of records (snapshotChunk), each cloned as postMessage clones it
  let serialised = 0;
  let bytes = 0;
  let deserialised = 0;
  let indexed = 0;
  const replica = new GraphIndex();
  const nodeSpan = source.nodes.span;
  const edgeSpan = source.edges.span;
  for (let from = 0; from < nodeSpan + edgeSpan; from += SNAPSHOT_CHUNK) {
    const sent = timedCpu(() => serialize({ type: 'snapshot-chunk', ...snapshotChunk(source, from, SNAPSHOT_CHUNK, nodeSpan, edgeSpan) }));
    serialised += sent.cpuMs;
    bytes += sent.value.length;
    const received = timedCpu(() => deserialize(sent.value) as { nodes: NodeRecord[]; edges: EdgeRecord[] });
    deserialised += received.cpuMs;
    indexed += timedCpu(() => {
      putLogged(replica, received.value.nodes, []);
      replica.adoptEdges(received.value.edges);
    }).cpuMs;
  }
  if (replica.factCount !== source.factCount) throw new Error('the replica lacks facts');
  console.log(`chunks-serialised ${serialised.toFixed(0)} ${bytes}`);
  console.log(`chunks-deserialised ${deserialised.toFixed(0)} 0`);
  console.log(`chunks-indexed ${indexed.toFixed(0)} 0`);
  const encoded = timedCpu(() => encodeGraph(source.nodes.values(), source.edges.values(), source.nodeCount, source.edgeCount));
  console.log(`body-encoded ${encoded.cpuMs.toFixed(0)} ${encoded.value.length}`);
  const decoded = timedCpu(() => decodeGraph(encoded.value));
  console.log(`body-decoded ${decoded.cpuMs.toFixed(0)} 0`);
  const built = timedCpu(() => GraphIndex.fromDistinctRecords(decoded.value.nodes, decoded.value.edges, decoded.value.ends));
  if (built.value.factCount !== source.factCount) throw new Error('the decoded graph lacks facts');
  console.log(`body-indexed ${built.cpuMs.toFixed(0)} 0`);
  // the same read as a worker could make it, from the snapshot file the store keeps (its header checked, the body's digest)
  const file = `${args.image!}.snapshot`;
  await writeSnapshot(file, 'g1', 1, source);
  const started = process.cpuUsage();
  const read = await readSnapshot(file, 'g1', 1);
  const readMs = cpuMsSince(started);
  rmSync(file, { force: true });
  if (read?.factCount !== source.factCount) throw new Error('the snapshot file read back lacks facts');
  console.log(`file-read ${readMs.toFixed(0)} 0`);
} else {
  const folder = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), 'parley-cold-image-'));
  // (--keep FILE: the image made once and kept there, with its graph's records in FILE.records, for runs alternated with another tree's)
  const image = args.keep ?? path.join(folder, 'view.image');
  const rows = new Map<string, Map<string, string[]>>();
  let records = args.keep && existsSync(`${args.keep}.records`) ? readFileSync(`${args.keep}.records`, 'utf8') : undefined;
  try {
    for (const [i, part] of args.parts!.split(',').entries()) {
      const [name, ...variant] = part.split('-');
      if (name === 'make' && records !== undefined && args.keep && existsSync(args.keep)) continue;
      const flags = [...(name === 'sent' ? ['--workers', String(workerThreads)] : []), ...(name === 'load' ? [...(args.only ? ['--only', args.only] : []), '--records', records ?? '0'] : []), ...variant.map((flag) => `--${flag}`)];
      const before = load();
      const output = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--part', name, '--facts', args.facts!, '--image', image, ...flags], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
      console.log(`${part}: load ${before} before, ${load()} after`);
      const lines = new Map(output.trim().split('\n').map((line) => { const [step, ...rest] = line.split(' '); return [step, rest]; }));
      if (name === 'make') records = lines.get('records')![1];
      if (name === 'make' && args.keep) writeFileSync(`${args.keep}.records`, records!);
      rows.set(rows.has(part) ? `${part}#${i + 1}` : part, lines);
    }
  } finally {
    if (!args.keep) rmSync(`${image}.store`, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(`\nbench/cold-image: ${count(Number(args.facts))} facts (target), one engine per part`);
  console.log('| step | CPU ms | count |');
  console.log('|---|---|---|');
  const made = rows.get('make') ?? rows.get('make-after');
  const loaded = rows.get('load');
  for (const [part, lines] of rows) {
    for (const [name, [cpuMs, n, stopped]] of lines) {
      const other = part.startsWith('load') ? made?.get(name) : undefined;
      const beside = !other || name === 'handover' ? '' : name.startsWith('runs-') ? ` (make: ${count(Number(other[1]))})` : ` (make: ${count(Number(other[1]))} inferences, ${other[0]} ms)`;
      console.log(`| ${part} ${name} | ${cpuMs} | ${count(Number(n))}${stopped ? ' stopped' : ''}${beside} |`);
    }
  }
  if (made && loaded) {
    const sum = (lines: Map<string, string[]>, what: 0 | 1) => [...lines].filter(([name]) => !name.startsWith('image') && !name.startsWith('runs-') && name !== 'handover').reduce((total, [, values]) => total + Number(values[what]), 0);
    console.log(`sets and runs: make ${count(sum(made, 1))} inferences ${count(sum(made, 0))} ms; load ${count(sum(loaded, 1))} inferences ${count(sum(loaded, 0))} ms`);
  }
  const replica = rows.get('replica');
  if (loaded && replica) model(loaded, replica);
}

/**
 * The first assess after a restart on n engines, as a model (not a measure) built from these parts: each engine
 * builds its replica from the snapshot's chunks (their deserialising and indexing; the main thread's serialising is
 * once for all, BroadcastChannel), hands the view over from the image and keeps its sets, then takes the next run
 * when free, the runs as measured after the image, handed out in the catalog's order (a graph never assessed since
 * the start: ReasoningPool.frameworks) or costliest first (by inferences). Beside it, the same with the replica
 * read from the store's snapshot file (snapshot.ts readSnapshot) in place of the chunks.
 */
function model(loaded: Map<string, string[]>, replica: Map<string, string[]>): void {
  const cpu = (lines: Map<string, string[]>, name: string) => Number(lines.get(name)![0]);
  const runs = [...loaded].filter(([name, values]) => !['handover', 'sets'].includes(name) && !name.startsWith('image') && !name.startsWith('runs-') && values.length >= 2);
  const catalogOrder = runs.map(([, [cpuMs]]) => Number(cpuMs));
  const costliestFirst = [...runs].sort((a, b) => Number(b[1][1]) - Number(a[1][1])).map(([, [cpuMs]]) => Number(cpuMs));
  const imageAndSets = cpu(loaded, 'handover') + cpu(loaded, 'sets');
  const fromChunks = cpu(replica, 'chunks-deserialised') + cpu(replica, 'chunks-indexed');
  const fromBody = cpu(replica, 'file-read');
  const engines = [1, 2, 4, 8, 16];
  console.log(`\nmodel (not measured), ms of one engine's CPU from the call: the replica (chunks ${count(fromChunks)}, or the snapshot file ${count(fromBody)}) + the image and its sets ${count(imageAndSets)} + the runs spread`);
  console.log(`| replica, order | ${engines.map((n) => `${n} engine${n > 1 ? 's' : ''}`).join(' | ')} |`);
  console.log(`|---|${engines.map(() => '---').join('|')}|`);
  for (const [what, before] of [['chunks', fromChunks], ['snapshot file', fromBody]] as const) {
    for (const [order, list] of [['catalog order', catalogOrder], ['costliest first', costliestFirst]] as const) {
      console.log(`| ${what}, ${order} | ${engines.map((n) => count(before + imageAndSets + listScheduled(list, n))).join(' | ')} |`);
    }
  }
}
