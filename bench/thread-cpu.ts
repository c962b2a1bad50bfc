import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU milliseconds of each thread of a process (this one unless `pid` is given), by thread id
 * (Linux: /proc/<pid>/task/<tid>/schedstat, in nanoseconds, where /proc/<pid>/stat counts clock
 * ticks of 10 ms); null elsewhere. The benches split a run's CPU by thread with it: the main
 * thread, the worker threads, and the rest (V8's compiler and garbage-collector helpers, libuv's
 * I/O threads), which compete with the workers for the cores.
 */
export function threadCpu(pid: number | 'self' = 'self'): Map<string, number> | null {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const ms = new Map<string, number>();
  for (const tid of tids) {
    try {
      // the first field: nanoseconds on a CPU
      ms.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ms;
}
