/**
 * Loaded into a benchmarked server (`node --import ./bench/loop-watch.ts`): notes every turn
 * of the event loop that held it longer than PARLEY_BENCH_LONG_TURN_MS (20 by default), as
 * seen by a 1 ms timer that cannot fire while a turn runs, with the CPU the process used
 * meanwhile (a turn that took little CPU was the process waiting for a core, not its own
 * work). At exit, writes them and perf_hooks' loop delay p99/max as JSON to
 * PARLEY_BENCH_LOOP_WATCH (times in µs of the monotonic clock, the one V8 CPU profiles use,
 * so bench/long-turns.ts can say what ran in each).
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.PARLEY_BENCH_LOOP_WATCH;
if (file) {
  const overMs = Number(process.env.PARLEY_BENCH_LONG_TURN_MS ?? 20);
  const turns: { startUs: number; endUs: number; cpuMs: number }[] = [];
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let lastUs = nowUs();
  let lastCpu = cpuMs();
  setInterval(() => {
    const now = nowUs();
    const cpu = cpuMs();
    if ((now - lastUs) / 1000 > overMs + 1) turns.push({ startUs: lastUs, endUs: now, cpuMs: cpu - lastCpu });
    lastUs = now;
    lastCpu = cpu;
  }, 1).unref();
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ delayP99Ms: histogram.percentile(99) / 1e6, delayMaxMs: histogram.max / 1e6, turns }));
  });
}
