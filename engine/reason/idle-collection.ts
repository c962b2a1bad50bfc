/**
 * A reasoning worker's garbage, collected once the worker is idle. A whole hand-over of a large graph leaves its
 * garbage in the worker's heap (the snapshot's chunks as they came, the lists of facts passed to the engine): at 1M facts
 * 50-120 MB a worker, in the old generation (bench/server-memory: 153-216 MB used against 95-101 MB live). V8 collects
 * the old generation when it grows past a limit that scales with the heap's own (the server's heap setting, half the
 * machine's memory: server/heap.mjs), and an idle worker allocates nothing: the garbage stayed resident until V8's memory
 * reducer found the thread idle, 30-60 s later in one run (RSS 1,469 -> 1,167 MB), or the next task grew the heap. worker-entry.ts asks for a full collection when the worker has had
 * no task for a moment and the heap holds `idleCollection.bytes` more than after the last one: once per whole hand-over
 * at 1M facts (of a heap of some 200 MB, where the hand-over took some 8 s of CPU), the collection V8 made a minute later.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The garbage that makes a collection due (bytes of heap used above what the last collection left: `live`, 0 before the
 * first, so that the first is due once the heap holds the bound, as a reading taken at another time would count the
 * garbage then held, a snapshot's, as live), and the collections made by this thread so far. A module-level value (a test
 * lowers it), not a setting: at 64 MiB the garbage of a hand-over of some 500k facts and more is collected, a smaller
 * one's left to V8 as before.
 */
export const idleCollection = { bytes: 64 * 2 ** 20, made: 0, live: 0 };

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

/** Whether the heap holds `idleCollection.bytes` more than after the last collection. */
export function collectionDue(): boolean {
  return heapUsed() - idleCollection.live >= idleCollection.bytes;
}

/** Collects the heap's garbage now (the caller has checked that the thread is idle). */
export function collectGarbage(): void {
  (collect ??= fullCollection())();
  idleCollection.live = heapUsed();
  idleCollection.made++;
}
