/**
 * A reasoning worker's garbage, collected once the worker is idle. A whole hand-over of a large graph leaves its
 * garbage in the worker's heap (the snapshot's chunks as they came, the lists of facts passed to the engine): at 1M facts
 * 50-120 MB a worker, in the old generation (bench/server-memory: 153-216 MB used against 95-101 MB live). V8 collects
 * the old generation when it grows past a limit that scales with the heap's own (the server's heap setting, half the
 * machine's memory: server/heap.mjs), and an idle worker allocates nothing: the garbage stayed resident until V8's memory
 * reducer found the thread idle, 30-60 s later in one run (RSS 1,469 -> 1,167 MB), or the next task grew the heap. worker-entry.ts asks for a full collection when the worker has had
 * no task for a moment and the heap holds `idleCollection.bytes` more than after the last one: once per whole hand-over
 * at 1M facts (of a heap of some 200 MB, where the hand-over took some 8 s of CPU), the collection V8 made a minute later.
 *
 * A replica's whole hand-over, of any size (its snapshot, then its view handed to the engine), also grows the young
 * generation, to 2 x 16 MB semi-spaces while many objects survive, and V8 shrinks it only at a collection made when the
 * thread has allocated under 1 MB/s over its last 5 s (V8's allocation throughput, sampled at each collection): in the
 * 30-minute soak at 10k facts a worker's first such collection came 5 and 9 minutes in (32 -> 1-16 MB each, RSS -40 to
 * -50 MB), after the warm-up the band is read from. So each whole hand-over is also followed, once idle, by a collection
 * (whatever the garbage) and a second one `idleCollection.settleMs` after it: the first marks the sample V8 measures
 * from, the second finds the thread's allocation low since and shrinks the young generation (a standalone check: 32 MB
 * -> 1 MB each time; one collection alone shrank it in 4 of 7 tries 5.5-8 s after the busy spell, in none of 7 before). A write to the graph is
 * no whole hand-over and triggers neither: its records added to the replica (a delta), nor the view handed to the engine
 * whole again when a write replaced records (in the soak, each import replaces records: two full collections a write
 * otherwise), whose garbage the bound above leaves to V8 until there is much of it.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { addedHandOvers, collectStacks, stackInUse, wholeHandOvers } from '../prolog/bridge.ts';
import type { GraphIndex } from '../store/graph-index.ts';

/**
 * The garbage that makes a collection due (bytes of heap used above what the last collection left: `live`, 0 before the
 * first, so that the first is due once the heap holds the bound, as a reading taken at another time would count the
 * garbage then held, a snapshot's, as live), and the collections made by this thread so far. A module-level value (a test
 * lowers it), not a setting: at 64 MiB the garbage of a hand-over of some 500k facts and more is collected, a smaller
 * one's left to V8 as before.
 */
export const idleCollection = { bytes: 64 * 2 ** 20, settleMs: 6_000, made: 0, live: 0 };

// the replicas' graphs whose hand-over was counted, the hand-overs so far and those the last collection followed, and
// when the collection that lets V8 shrink the young generation after one is due (Date.now(); none: Infinity)
const handedOver = new WeakSet<GraphIndex>();
let handOvers = 0;
let handOversCollected = 0;
let settleAt = Infinity;

/**
 * Counts the whole hand-over of a replica's graph: the first time it is named (its snapshot's end, then its view handed
 * to the engine), not again when a write's records are added to it or it is held or preloaded again.
 */
export function replicaHandedOver(graph: GraphIndex): void {
  if (handedOver.has(graph)) return;
  handedOver.add(graph);
  handOvers++;
}

/**
 * A full collection of this thread's heap: V8's `gc` function, which a process started with --expose-gc has on its global
 * object, and one without finds in a new context once the flag is set (the flag exposes the function to contexts made
 * after it; it changes nothing else of the heap).
 */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let collect: (() => void) | undefined;

function heapUsed(): number {
  return getHeapStatistics().used_heap_size;
}

/**
 * When a collection is due (Date.now(); Infinity: none): now when the heap holds `idleCollection.bytes` more than after
 * the last collection or a whole hand-over came since it, else the second collection after a whole hand-over.
 */
export function collectionDueAt(): number {
  if (heapUsed() - idleCollection.live >= idleCollection.bytes || handOvers !== handOversCollected) return Date.now();
  return settleAt;
}

/** Collects the heap's garbage now (the caller has checked that the thread is idle). */
export function collectGarbage(): void {
  const followsHandOver = handOvers !== handOversCollected;
  handOversCollected = handOvers;
  (collect ??= fullCollection())();
  idleCollection.live = heapUsed();
  idleCollection.made++;
  settleAt = followsHandOver ? Date.now() + idleCollection.settleMs : Infinity;
}

/**
 * The engine's global stack, collected once the worker is idle after a hand-over (a write's records added to the view
 * held, or a view handed over whole). A hand-over leaves the stack nearly full of its garbage (115.9 of 128 MB in use
 * after a write at 1M facts, 40 MB of it live: the shared sets and kept answers), and the next framework run then
 * grows the stack, by copying it to 256 MB (a stack shift, some 0.2 to 0.3 s at 1M, with no collection), rather than
 * collecting it; the engine keeps the grown stack for good. Collected while idle, the stack has room again (40 of
 * 128 MB in use), and the next run neither shifts nor collects.
 * `bytes`: the garbage (the stack's use above what the last idle collection left in use: `live`, 0 before the first)
 * that makes one due; under it the engine is left to collect as it does. A fixed bound, no setting: 16 MiB lies
 * between the garbage a write's hand-over leaves at 1M (76 MB, collected) and what one that crossed the engine's own
 * collection point leaves (some 0.5 MB: collecting then would walk the 40 MB live for 60 ms and free nothing).
 * `made` and `freedBytes`: the collections so far and what they freed.
 */
export const stackCollection = { bytes: 16 * 2 ** 20, made: 0, live: 0, freedBytes: 0 };

// the engine's hand-overs (whole, and of a write's records) when its stack was last looked at
let handOversLooked = 0;

function engineHandOvers(): number {
  return wholeHandOvers.count + addedHandOvers.count;
}

/** Whether the engine took a view or a write's records since its stack was last looked at: then it is to be, once idle. */
export function stackCollectionDue(): boolean {
  return engineHandOvers() !== handOversLooked;
}

/** Collects the engine's global stack when it holds `stackCollection.bytes` of garbage (the caller has checked that the thread is idle). */
export function collectEngineStacks(): void {
  handOversLooked = engineHandOvers();
  if (stackInUse() - stackCollection.live < stackCollection.bytes) return;
  const { freedBytes, inUse } = collectStacks();
  stackCollection.live = inUse;
  stackCollection.made++;
  stackCollection.freedBytes += freedBytes;
}
