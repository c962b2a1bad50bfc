import { availableParallelism } from 'node:os';
import { openExtractionPipeline } from '@parley/engine/extract/pipeline.ts';
import { tierUpForBatch } from '@parley/engine/ingest/batch.ts';
import { withoutCredentials } from '@parley/engine/queue/settings.ts';
import { startExtractionWorker } from '@parley/engine/queue/extraction.ts';
import { isPostgresUrl } from '@parley/engine/store/store.ts';
import { extractionOptions, loadConfig } from '@parley/server/config.ts';
import { openStore } from '@parley/server/open.ts';
import { EXIT } from '../exit.ts';
import type { WorkerOptions } from './worker-options.ts';

/** What `parley worker` does, loaded only when it runs (the pipeline and store cost seconds of start-up). */
export async function runWorker(queue: string, options: WorkerOptions): Promise<number> {
  const config = loadConfig();
  if (!isPostgresUrl(config.store)) {
    console.error('parley worker: set PARLEY_STORE=postgres://… to the database the servers and other workers share (a LevelDB store is one process\'s)');
    return EXIT.usage;
  }
  tierUpForBatch();
  const symbolicWorkers = options.workers ?? config.symbolicWorkers;
  const store = await openStore(config);
  const { pipeline } = await openExtractionPipeline({ ...extractionOptions(config), ...(symbolicWorkers !== undefined ? { symbolicWorkers } : {}) });
  const concurrency = options.concurrency ?? config.queueConcurrency ?? symbolicWorkers ?? availableParallelism();
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const worker = startExtractionWorker(queue, { store, pipeline }, {
    concurrency,
    rateLimitPerMinute: options.rateLimit ?? config.queueRateLimitPerMinute,
    lockMs: config.queueLockMs,
    onDocument: (source, outcome) => console.log('error' in outcome ? `failed ${source}: ${outcome.error}` : `${outcome.result.status} ${source} (revision ${outcome.result.revision})`),
  });
  try {
    await worker.ready;
    console.log(`parley worker: taking jobs (${concurrency} at once) from ${withoutCredentials(queue)}`);
    await stopped;
    console.log('parley worker: stopping once the jobs in hand are done');
    return EXIT.ok;
  } finally {
    await worker.close();
    await pipeline.close();
    await store.close();
  }
}
