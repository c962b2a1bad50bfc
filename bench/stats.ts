/** Figures the benchmarks share. */
import { readFile } from 'node:fs/promises';
import { threadCpu } from './thread-cpu.ts';

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
