import v8 from 'node:v8';
import vm from 'node:vm';

/** Two full collections of this isolate's heap (the tests that bound what a structure costs, or that something is let go). */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}

/** Bytes of live objects on this isolate's V8 heap, after two full collections. */
export function liveHeap(): number {
  collectGarbage();
  return v8.getHeapStatistics().used_heap_size;
}
