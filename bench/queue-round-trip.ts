import { Queue, QueueEvents, Worker } from 'bullmq';
import { queueConnection } from '../engine/queue/connection.ts';

/**
 * The queue's own cost per job, apart from any work: no-op jobs on a queue of their own
 * (`parley-probe`, so extraction workers never take them) added, taken by a worker in this
 * process and seen completed, one at a time (the round trip a document job pays on top of its
 * extraction) and in bulk (the most jobs per second the queue passes). Used by bench/scale.ts.
 */

const PROBE_QUEUE = 'parley-probe';

export interface RoundTrips {
  /** Milliseconds from add to completion seen, one job at a time, sorted. */
  sequentialMs: number[];
  /** No-op jobs per second through a worker taking `concurrency` at once. */
  bulkJobsPerSecond: number;
}

export async function measureRoundTrips(url: string, { sequential = 200, bulk = 1_000, concurrency = 8 } = {}): Promise<RoundTrips> {
  const connection = queueConnection(url);
  const options = { connection: connection.connection };
  const queue = new Queue(PROBE_QUEUE, options, connection.backend);
  const events = new QueueEvents(PROBE_QUEUE, options, connection.backend);
  const worker = new Worker(PROBE_QUEUE, async () => null, { ...options, concurrency }, connection.backend);
  try {
    await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
    await queue.obliterate({ force: true });
    const sequentialMs: number[] = [];
    for (let i = 0; i < sequential; i++) {
      const started = performance.now();
      // kept until the end (obliterate): a job removed on completion may be gone before waitUntilFinished looks
      const job = await queue.add('noop', {});
      await job.waitUntilFinished(events);
      sequentialMs.push(performance.now() - started);
    }
    let completed = 0;
    const allDone = new Promise<void>((resolve) => {
      worker.on('completed', () => {
        if (++completed === bulk) resolve();
      });
    });
    const started = performance.now();
    await queue.addBulk(Array.from({ length: bulk }, () => ({ name: 'noop', data: {} })));
    await allDone;
    return { sequentialMs: sequentialMs.sort((a, b) => a - b), bulkJobsPerSecond: bulk / ((performance.now() - started) / 1000) };
  } finally {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}
