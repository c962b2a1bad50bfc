/**
 * A throwaway Redis server from Debian's `redis-server` (not an npm package: installed on the
 * machine, by `.ci/run` in CI): on a free loopback port, no persistence, stopped by stop().
 * Used by the queue tests (queue-backends.ts) and bench/scale.
 */
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './postgres.ts';

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
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
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
