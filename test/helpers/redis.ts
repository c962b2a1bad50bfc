/**
 * A throwaway Redis server from Debian's `redis-server` (not an npm package: installed on the
 * machine, by `.ci/run` in CI): on a free loopback port, no persistence, stopped by stop().
 * Used by the queue tests (queue-backends.ts) and bench/scale.
 */
import { spawnSync } from 'node:child_process';
import { freePort } from './postgres.ts';
import { spawnUntil } from './spawn-until.ts';

const REDIS_SERVER = 'redis-server';

export function redisInstalled(): boolean {
  return spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface TestRedis {
  /** redis://127.0.0.1:port (append /n for database n). */
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const { child } = await spawnUntil(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, 'redis-server', (output) =>
    output.includes('Ready to accept connections') || undefined,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
