/**
 * bench/replica-memory: what a graph costs the main thread and one worker replica, in bytes per
 * fact, and the main thread's peak while a replica's snapshot goes out (issue 28: memory per fact).
 * In this process, on bench/store's graph: imported, the store closed (its snapshot written) and
 * opened again, the graph loaded from its snapshot as a restart loads it; then a replica's snapshot
 * sent (ReplicaSource, the worker's 'need') to a channel that only listens, the heap read at each
 * chunk heard; then a replica made from a snapshot as a worker makes it (ReplicaSet), in this
 * isolate. Live bytes after two full GCs (V8 heap) and process.memoryUsage().arrayBuffers
 * (typed arrays, off the V8 heap). The listener holds the chunk it has just heard (a few MB at
 * most, counted in the peak).
 *
 *   npx tsx --expose-gc bench/replica-memory.ts [--facts 1000000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { BroadcastChannel } from 'node:worker_threads';
import { ReplicaSet, ReplicaSource } from '../engine/reason/replicas.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { importGraph, makeGraph } from './store-graph.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '1000000' } } });
const FACTS = Number(args.facts);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npx tsx --expose-gc bench/replica-memory.ts)');

/** Live V8 heap and typed arrays, in bytes, after two full GCs. */
function live(): { heap: number; arrays: number } {
  gc!();
  gc!();
  return { heap: v8.getHeapStatistics().used_heap_size, arrays: process.memoryUsage().arrayBuffers };
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-replica-memory-'));
// the replica channels are unref'd: they alone would let the process end while a snapshot goes out
const alive = setInterval(() => {}, 1_000);
try {
  let store = await ParleyStore.open(path.join(dir, 'parley'));
  await importGraph(store, 'g', makeGraph(FACTS));
  await store.close(); // writes the snapshot
  store = await ParleyStore.open(path.join(dir, 'parley'));
  const empty = live();
  const graph = await store.loadGraph('bench', 'g');
  const facts = graph.factCount;
  const loaded = live();

  const name = `replica-memory-${process.pid}`;
  const source = new ReplicaSource(store, name);
  const { at } = await source.current('bench', 'g');
  const listener = new BroadcastChannel(name);
  let peak = { heap: 0, arrays: 0 };
  let chunks = 0;
  await new Promise<void>((resolve) => {
    listener.onmessage = (event) => {
      const { type } = (event as { data: { type: string } }).data;
      if (type === 'snapshot-chunk') {
        chunks++;
        // every tenth chunk: a full GC per chunk would take most of the run
        if (chunks % 10 === 1) {
          const now = live();
          peak = { heap: Math.max(peak.heap, now.heap - loaded.heap), arrays: Math.max(peak.arrays, now.arrays - loaded.arrays) };
        }
      }
      if (type === 'snapshot-end') resolve();
    };
    listener.postMessage({ type: 'need', key: at.key, generation: at.generation });
  });
  listener.close();

  const before = live();
  const replicas = new ReplicaSet(name, 4);
  const replica = await replicas.graph(at);
  const made = live();
  const perFact = (bytes: number) => (bytes / facts).toFixed(1);
  console.log(`bench/replica-memory: ${facts.toLocaleString('en-US')} facts (${graph.nodeCount} nodes, ${graph.edgeCount} edges), bytes per fact, V8 heap / typed arrays`);
  console.log(`| main thread's graph, loaded from its snapshot | ${perFact(loaded.heap - empty.heap)} / ${perFact(loaded.arrays - empty.arrays)} |`);
  console.log(`| main thread's peak above it while a snapshot goes out (${chunks} chunks, every tenth read) | ${perFact(peak.heap)} / ${perFact(peak.arrays)} (${(peak.heap / 1e6).toFixed(1)} MB) |`);
  console.log(`| one replica, made from a snapshot as a worker makes it (${replica.factCount === facts ? 'all facts' : `${replica.factCount} facts: MISMATCH`}) | ${perFact(made.heap - before.heap)} / ${perFact(made.arrays - before.arrays)} |`);
  replicas.close();
  source.close();
  await store.close();
} finally {
  clearInterval(alive);
  await rm(dir, { recursive: true, force: true });
}
