/**
 * A health prober in a process of its own (bench/http.ts `probeHealth` forks it): GET
 * /v1/health every INTERVAL ms until the parent says `stop`, then the latencies go back to
 * the parent. Apart from the benchmark's client, whose own work (sending an 11 MB body,
 * reading a 34 MB export) would otherwise delay the probes and count as the server's.
 *
 *   (forked) bench/health-probe.ts BASE INTERVAL_MS MAX_MS
 */
import { healthEvery } from './http.ts';

const [base, intervalMs, maxMs] = process.argv.slice(2);
let stopped = false;
process.on('message', (message) => {
  if (message === 'stop') stopped = true;
});
process.send!('started');
const latencies = await healthEvery(base, () => stopped, Number(intervalMs), Number(maxMs));
process.send!({ latencies: [...latencies], errors: latencies.errors }, () => process.disconnect());
