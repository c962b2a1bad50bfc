/**
 * The queue's backends for the queue suites (describe.each(queueBackends())): BullMQ's
 * PostgreSQL backend on a new database of the run's PostgreSQL server (test/setup/postgres.ts),
 * everywhere; and Redis 7, where Debian's `redis-server` is installed: a server of the test
 * file's own on a free loopback port, no persistence. `.ci/run` installs redis-server and sets
 * PARLEY_TEST_REQUIRE_REDIS=1, under which a missing redis-server fails the run instead of
 * leaving the Redis cases out (docs/development.md says what runs where).
 */
import { inject } from 'vitest';
import { freshDatabase } from './postgres.ts';
import { redisInstalled, startRedis, type TestRedis } from './redis.ts';

export interface QueueBackendCase {
  kind: 'postgres' | 'redis';
  /** A new, empty queue's URL. */
  newQueue(): Promise<string>;
}

const postgresCase: QueueBackendCase = { kind: 'postgres', newQueue: () => freshDatabase(inject('postgresUrl')) };

let redis: Promise<TestRedis> | undefined;
let redisDatabases = 0;
/** Each queue a database of the file's one Redis server (0-15). */
const redisCase: QueueBackendCase = {
  kind: 'redis',
  async newQueue() {
    redis ??= startRedis();
    return `${(await redis).url}/${redisDatabases++}`;
  },
};

export function queueBackends(): QueueBackendCase[] {
  if (redisInstalled()) return [postgresCase, redisCase];
  if (process.env.PARLEY_TEST_REQUIRE_REDIS === '1') throw new Error('PARLEY_TEST_REQUIRE_REDIS=1 but redis-server is not installed (apt-get install redis-server)');
  return [postgresCase];
}

/** Stops what the cases started (afterAll). */
export async function stopQueueBackends(): Promise<void> {
  const started = redis;
  redis = undefined;
  await (await started)?.stop();
}
