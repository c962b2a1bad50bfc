/** Figures the benchmarks share. */

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
