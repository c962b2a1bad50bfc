/** Figures the benchmarks share. */
import { readFile } from 'node:fs/promises';
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { threadCpu } from './thread-cpu.ts';

/** A bench flag's value as a positive integer; a clear error (not NaN, which would ask for nothing) for any other. */
export function positiveIntegerFlag(flag: string, value: string | undefined): number {
  const number = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || number < 1) throw new Error(`--${flag} must be a positive integer (got '${value}')`);
  return number;
}

/** The middle value (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The wall time of runs of these CPU ms on `engines` engines, handed out in this order, each to the engine free first
 * (ReasoningPool.frameworks: one task per framework): a model of an assess's runs spread over a pool.
 */
export function listScheduled(cpuMs: number[], engines: number): number {
  const loads = new Array<number>(engines).fill(0);
  for (const run of cpuMs) loads[loads.indexOf(Math.min(...loads))] += run;
  return Math.max(...loads);
}

/** The value below which `p` percent of `values` lie (nearest rank, rounded down); NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/**
 * What `fn` cost in memory events, counted (not timed, so load does not change them): the growths of any WebAssembly
 * memory (a Prolog engine's: Emscripten grows it by a fifth at a time) and V8's full collections (mark-compact) of this
 * thread's JavaScript heap, which V8 starts as a memory grows. Counted on the thread that calls it; the full collections' wall ms summed.
 */
export async function memoryEvents<T>(fn: () => T): Promise<{ value: T; growths: number; fullCollections: number; fullCollectionMs: number }> {
  const { grow } = WebAssembly.Memory.prototype;
  let growths = 0;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
    growths++;
    return grow.call(this, pages);
  };
  let fullCollections = 0;
  let fullCollectionMs = 0;
  const count = (entries: PerformanceEntry[]) => {
    // (a collection's entry holds its kind in `detail`, which @types/node does not declare)
    for (const entry of entries as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      fullCollections++;
      fullCollectionMs += entry.duration;
    }
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  try {
    const value = fn();
    // the collections' entries arrive some time after the call (10 ms was too soon for some)
    await new Promise((resolve) => setTimeout(resolve, 500));
    count(observer.takeRecords());
    return { value, growths, fullCollections, fullCollectionMs };
  } finally {
    observer.disconnect();
    WebAssembly.Memory.prototype.grow = grow;
  }
}

/** This process's CPU time (user and system, every thread) since `start`, in ms: what load on a shared machine does not change. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

/** What `fn` returns, with the wall-clock ms and the CPU ms (cpuMsSince) it took. */
export function timedCpu<T>(fn: () => T): { value: T; ms: number; cpuMs: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = fn();
  return { value, ms: performance.now() - started, cpuMs: cpuMsSince(cpu) };
}

/** A process and its descendants (`npm start` re-executes the server in a child: server/heap.mjs). */
export async function processTree(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const below = await Promise.all(children.split(' ').filter(Boolean).map((child) => processTree(Number(child))));
  return [pid, ...below.flat()];
}

/**
 * The resident set of the server (the process started and its descendants, with all their
 * threads), in MB (Linux), with its anonymous part (heaps, WebAssembly memories, buffers) and its
 * file-backed part (code, mapped files), and the thread count (worker threads come and go with
 * the pools).
 */
export async function memoryOf(pid: number): Promise<{ megabytes: number; anonymous: number; files: number; threads: number }> {
  const total = { megabytes: 0, anonymous: 0, files: 0, threads: 0 };
  for (const member of await processTree(pid)) {
    // (a process that ended while the tree was read counts for nothing)
    const status = await readFile(`/proc/${member}/status`, 'utf8').catch(() => undefined);
    if (status === undefined) continue;
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
    total.megabytes += field('VmRSS') / 1024;
    total.anonymous += field('RssAnon') / 1024;
    total.files += field('RssFile') / 1024;
    total.threads += field('Threads');
  }
  return total;
}

/**
 * The CPU time a process and its descendants have spent, every thread, in ms (Linux: threadCpu,
 * from schedstat in nanoseconds): a server's CPU per request, which load on a shared machine
 * changes far less than its latency. A thread that ended between two readings drops out of the
 * second.
 */
export async function cpuMsOf(pid: number): Promise<number> {
  let ms = 0;
  // (a process that ended while the tree was read counts for nothing)
  for (const member of await processTree(pid)) for (const threadMs of threadCpu(member)?.values() ?? []) ms += threadMs;
  return ms;
}

/** One mapping of /proc/<pid>/smaps: its address range, permissions, name and resident bytes. */
export interface Mapping {
  start: number;
  end: number;
  perms: string;
  name: string;
  rss: number;
}

/** A process's mappings (this one's by default), from /proc/<pid>/smaps. */
export async function mappingsOf(pid: number | 'self' = 'self'): Promise<Mapping[]> {
  const maps: Mapping[] = [];
  for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) maps.push({ start: parseInt(head[1], 16), end: parseInt(head[2], 16), perms: head[3], name: head[4], rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) maps[maps.length - 1].rss = Number(rss[1]) * 1024;
  }
  return maps;
}

/**
 * The bytes of V8's reservation after `maps[i]` when it is a WebAssembly memory's or a glibc arena's: a read-write
 * anonymous mapping followed, contiguous, by the inaccessible rest of the reservation (8 GiB together for a
 * WebAssembly memory, 64 MiB for an arena); 0 for any other mapping.
 */
export function reservation(maps: Mapping[], i: number): number {
  const [map, next] = [maps[i], maps[i + 1]];
  return map.perms === 'rw-p' && map.name === '' && next?.start === map.end && next.perms === '---p' && next.name === '' ? next.end - map.start : 0;
}

/** Whether `maps[i]` is a WebAssembly memory (a Prolog engine's): V8 reserves 4 GiB or more for one (reservation). */
export function isWasmMemory(maps: Mapping[], i: number): boolean {
  return reservation(maps, i) >= 4 * 2 ** 30;
}

/** Resident bytes of a process by kind of mapping (residentByKind). */
export interface ResidentParts {
  total: number;
  /** WebAssembly memories (the Prolog engines), and how many there are. */
  wasm: number;
  wasmMaps: number;
  /** glibc's main heap ([heap]) and its other arenas. */
  mallocHeap: number;
  mallocArenas: number;
  /** Other anonymous memory: V8's pages, thread stacks, malloc's large blocks. */
  anonymous: number;
  files: number;
}

/**
 * Resident bytes of a process (this one's by default) from its smaps, by kind of mapping. A WebAssembly memory is a
 * read-write anonymous mapping followed, contiguous, by the inaccessible rest of V8's reservation for it (8 GiB
 * together); a glibc arena (other than [heap], the main one) is the same within its 64 MiB reservation.
 */
export async function residentByKind(pid: number | 'self' = 'self'): Promise<ResidentParts> {
  const maps = await mappingsOf(pid);
  const kinds = { total: 0, wasm: 0, wasmMaps: 0, mallocHeap: 0, mallocArenas: 0, anonymous: 0, files: 0 };
  maps.forEach((map, i) => {
    kinds.total += map.rss;
    if (isWasmMemory(maps, i)) {
      kinds.wasm += map.rss;
      kinds.wasmMaps++;
    } else if (reservation(maps, i) === 64 * 2 ** 20) kinds.mallocArenas += map.rss;
    else if (map.name === '[heap]') kinds.mallocHeap += map.rss;
    else if (map.name === '' || map.name.startsWith('[')) kinds.anonymous += map.rss;
    else kinds.files += map.rss;
  });
  return kinds;
}
