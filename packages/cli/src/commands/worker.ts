import { Command, Option } from 'commander';
import { EXIT } from '../exit.ts';
import { queueUrl, wholeNumber, type WorkerOptions } from './worker-options.ts';

/**
 * `parley worker --queue <url>`: takes document jobs that `analyze-corpus --queue` put on the
 * queue, extracts them and commits them into the shared store (PARLEY_STORE), until SIGINT or
 * SIGTERM, which let the jobs in hand finish.
 */
export function register(program: Command): void {
  program
    .command('worker')
    .description('take extraction jobs from a queue (analyze-corpus --queue) and commit them into the shared store, until stopped')
    .addOption(new Option('--queue <url>', 'the queue: redis://host:6379 or postgres://… (BullMQ\'s PostgreSQL backend)').env('PARLEY_QUEUE').argParser(queueUrl))
    .addOption(new Option('-c, --concurrency <n>', 'documents worked on at once (PARLEY_QUEUE_CONCURRENCY; default one per symbolic worker thread)').argParser(wholeNumber(1)))
    .addOption(new Option('--rate-limit <n>', 'documents per minute over all workers (PARLEY_QUEUE_RATE_LIMIT_PER_MINUTE; 0 = none)').argParser(wholeNumber(0)))
    .option('-w, --workers <n>', 'symbolic-layer worker threads (default: PARLEY_SYMBOLIC_WORKERS, else one per core)', wholeNumber(1))
    .addHelpText('after', `
PARLEY_STORE must name the PostgreSQL database the other workers and servers use.
A worker killed mid-job loses nothing: the job runs again once its claim lapses
(PARLEY_QUEUE_LOCK_MS). Exit codes: 0 stopped; 1 error; 2 bad arguments.`)
    .action(async (options: WorkerOptions, command: Command) => {
      if (command.optsWithGlobals<{ url?: string }>().url) {
        process.stderr.write('parley: worker opens the shared store itself; it does not run against --url\n');
        process.exitCode = EXIT.usage;
        return;
      }
      if (!options.queue) {
        process.stderr.write('parley: worker needs --queue <url> (or PARLEY_QUEUE)\n');
        process.exitCode = EXIT.usage;
        return;
      }
      const { runWorker } = await import('./worker-run.ts');
      process.exitCode = await runWorker(options.queue, options);
    });
}
