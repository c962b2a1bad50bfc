import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU milliseconds of each of this process's threads, by thread id (Linux:
 * /proc/self/task); null elsewhere. The benches split a run's CPU by thread with it: the
 * main thread, the worker threads, and the rest (V8's compiler and garbage-collector
 * helpers, libuv's I/O threads), which compete with the workers for the cores.
 */
export function threadCpu(): Map<string, number> | null {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const ticks = new Map<string, number>();
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // utime and stime, in clock ticks of 10 ms, are the 14th and 15th fields; the name before them may hold spaces
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ticks;
}
