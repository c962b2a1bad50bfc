/** The queue's settings and their defaults, apart from the code that loads BullMQ (a server without a queue, and the command line's option parsing, read them too). */
import { ValidationError } from '../errors.ts';

/** Defaults of the queue's settings (docs/configuration.md names their variables). */
export const DEFAULT_QUEUE_SETTINGS = {
  /**
   * How long a worker's claim on a job lasts; the worker renews it every half of that while
   * the job runs, so only a dead or frozen worker loses it. Its jobs are then found by the
   * stalled check (run as often) and run again: a killed worker's document is retried within
   * about twice this. A document takes seconds at most, so 30 s leaves a wide margin for a
   * busy event loop.
   */
  lockMs: 30_000,
  /**
   * Tries per document; a document that fails them all ends in the failed list with its error. A
   * worker dying with the job (a stall) is no try: the job runs again, and a second stall fails it
   * (BullMQ's maxStalledCount, 1), so a document that kills its workers stops after two.
   */
  attempts: 3,
  /** Wait before the first retry, doubled for each next one. */
  backoffMs: 1_000,
  /** Finished jobs are kept (their ids answer a repeated enqueue; their results a resumed run) this long. */
  keepSeconds: 7 * 24 * 3600,
  /** Documents per minute over all workers; 0: no limit. */
  rateLimitPerMinute: 0,
};

/**
 * Where the queue lives, from one setting (PARLEY_QUEUE, --queue): a Redis URL (redis://,
 * rediss://: Redis 7, BullMQ's default and most used backend) or a PostgreSQL URL (postgres://,
 * postgresql://: BullMQ's PostgreSQL backend, which may be the store's own database: its tables
 * go in a schema of their own, `bullmq`, created and migrated on first connect).
 */
export const QUEUE_BACKEND_KINDS = ['redis', 'postgres'] as const;
export type QueueBackendKind = (typeof QUEUE_BACKEND_KINDS)[number];

/** The URL with its credentials left out, for messages and logs. */
export function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

export function queueBackendKind(url: string): QueueBackendKind {
  if (/^rediss?:\/\//.test(url)) return 'redis';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new ValidationError('invalid_queue_url', `the queue must be a redis://, rediss://, postgres:// or postgresql:// URL (got '${withoutCredentials(url)}')`, { field: 'queue' });
}

/** The one queue of document jobs (and corpus parents). */
export const EXTRACTION_QUEUE = 'parley-extract';
