/** Figures the benchmarks share. */
import { readFile, readdir } from 'node:fs/promises';

/** The middle value (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The value below which `p` percent of `values` lie (nearest rank, rounded down); NaN when there are none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/** This process's CPU time (user and system, every thread) since `start`, in ms: what load on a shared machine does not change. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
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

/** CPU milliseconds a process and its descendants (every thread) have used (Linux: /proc, clock ticks of 10 ms). */
export async function processCpuMs(pid: number): Promise<number> {
  let ms = 0;
  for (const member of await processTree(pid)) {
    const stat = await readFile(`/proc/${member}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue; // (ended while the tree was read)
    // utime and stime are the 14th and 15th fields; the name before them may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ms += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return ms;
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
 * The CPU time a process and its descendants have spent, every thread, in ms (Linux:
 * /proc/<pid>/task/<tid>/schedstat, in nanoseconds, where /proc/<pid>/stat counts 10 ms
 * ticks): a server's CPU per request, which load on a shared machine changes far less than
 * its latency. A thread that ended between two readings drops out of the second.
 */
export async function cpuMsOf(pid: number): Promise<number> {
  let nanoseconds = 0;
  for (const member of await processTree(pid)) {
    const threads = await readdir(`/proc/${member}/task`).catch(() => [] as string[]);
    for (const thread of threads) {
      const schedstat = await readFile(`/proc/${member}/task/${thread}/schedstat`, 'utf8').catch(() => '0');
      nanoseconds += Number(schedstat.split(' ')[0]);
    }
  }
  return nanoseconds / 1e6;
}
