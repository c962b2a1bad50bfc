/**
 * The queue's backends for the queue suites (describe.each(queueBackends())): BullMQ's
 * PostgreSQL backend on a new database of the run's PostgreSQL server (test/setup/postgres.ts),
 * everywhere; and Redis 7, where Debian's `redis-server` is installed: a server of the test
 * file's own on a free loopback port, no persistence. `.ci/run` installs redis-server and sets
 * PARLEY_TEST_REQUIRE_REDIS=1, under which a missing redis-server fails the run instead of
 * leaving the Redis cases out (docs/development.md says what runs where).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { inject } from 'vitest';
import { freshDatabase } from './postgres.ts';

export interface QueueBackendCase {
  kind: 'postgres' | 'redis';
  /** A new, empty queue's URL. */
  newQueue(): Promise<string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const REDIS_SERVER = 'redis-server';

function redisInstalled(): boolean {
  return spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
}

const stops: (() => Promise<void>)[] = [];

/** A Redis server of this test file's own, stopped by stopQueueBackends. */
async function startRedis(): Promise<string> {
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  stops.push(() => new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  }));
  return `redis://127.0.0.1:${port}`;
}

const postgresCase: QueueBackendCase = { kind: 'postgres', newQueue: () => freshDatabase(inject('postgresUrl')) };

let redisUrl: Promise<string> | undefined;
let redisDatabases = 0;
/** Each queue a database of the file's one Redis server (0-15). */
const redisCase: QueueBackendCase = {
  kind: 'redis',
  async newQueue() {
    redisUrl ??= startRedis();
    return `${await redisUrl}/${redisDatabases++}`;
  },
};

export function queueBackends(): QueueBackendCase[] {
  if (redisInstalled()) return [postgresCase, redisCase];
  if (process.env.PARLEY_TEST_REQUIRE_REDIS === '1') throw new Error('PARLEY_TEST_REQUIRE_REDIS=1 but redis-server is not installed (apt-get install redis-server)');
  return [postgresCase];
}

/** Stops what the cases started (afterAll). */
export async function stopQueueBackends(): Promise<void> {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  redisUrl = undefined;
}
