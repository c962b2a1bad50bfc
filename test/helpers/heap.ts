import v8 from 'node:v8';
import vm from 'node:vm';

/** Bytes of live objects on this isolate's V8 heap, after two full collections (the tests that bound what a structure costs). */
export function liveHeap(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size;
}
