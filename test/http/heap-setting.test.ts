import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (npm start runs it)
import { heapSettingMb } from '../../server/heap.mjs';
import { ParleyStore } from '../../engine/store/store.ts';
import { spawnServer, stopServer } from '../helpers/server-process.ts';

const GB = 1024 ** 3;
const ADMIN_KEY = 'pk_heap_setting_admin_key_0123456789abcdef';

/** The environment process `pid` started with, and its command line. */
function startedWith(pid: number): { env: Map<string, string>; args: string[] } {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  const env = new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const));
  return { env, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') };
}

/** The allocator setting the server runs with when the environment gives none (server/heap.mjs). */
const ARENAS = process.env.MALLOC_ARENA_MAX || '2';

/** Whether process `pid` runs (not ended, nor a zombie left for its new parent to reap). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('the heap setting (server/heap.mjs)', () => {
  it('is PARLEY_HEAP_MB, else half of the memory; a value that is not a whole number is refused', () => {
    expect(heapSettingMb({}, 16 * GB)).toBe(8192);
    expect(heapSettingMb({ PARLEY_HEAP_MB: '6000' }, 16 * GB)).toBe(6000);
    expect(heapSettingMb({ PARLEY_HEAP_MB: '0' }, 16 * GB)).toBe(0);
    expect(() => heapSettingMb({ PARLEY_HEAP_MB: '4g' }, 16 * GB)).toThrow(/PARLEY_HEAP_MB must be a whole number/);
  });

  describe('npm start', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'parley-heap-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const env = () => ({ PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: ADMIN_KEY, PARLEY_NER_MODEL_DIR: 'none', PARLEY_REASON_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '0' });
    const askedMb = Math.ceil(getHeapStatistics().heap_size_limit / 2 ** 20) + 1024;

    it('serves from a child re-executed with the setting; the child ends when its parent is killed, and frees the data directory', { timeout: 240_000 }, async () => {
      const server = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: String(askedMb) });
      let childPid: number;
      try {
        expect((await fetch(`${server.base}/v1/health`)).status).toBe(200);
        const limit = /parley: heap limit (\d+) MB/.exec(server.output());
        expect(Number(limit?.[1])).toBeGreaterThanOrEqual(askedMb);
        // fastify's log lines name the process that listens
        childPid = Number(/"pid":(\d+)[^\n]*listening at/.exec(server.output())?.[1]);
        expect(childPid).toBeGreaterThan(0);
        expect(childPid).not.toBe(server.child.pid);
        expect(startedWith(childPid).env.get('MALLOC_ARENA_MAX')).toBe(ARENAS);
      } finally {
        const killed = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGKILL');
        await killed;
      }
      for (let waited = 0; waited < 120_000 && running(childPid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(running(childPid)).toBe(false);
      // it closed the store as SIGTERM does: another process opens it
      const store = await ParleyStore.open(path.join(dir, 'store'));
      await store.close();
    });

    it('passes SIGTERM on and exits with the child’s status; PARLEY_HEAP_MB=0 serves in the process itself', { timeout: 240_000 }, async () => {
      const relaunched = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: String(askedMb) });
      expect(await stopServer(relaunched.child)).toBe(0);
      // the allocator's setting given, as the re-executed child has it
      const inProcess = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: '0', MALLOC_ARENA_MAX: ARENAS });
      try {
        expect(Number(/"pid":(\d+)[^\n]*listening at/.exec(inProcess.output())?.[1])).toBe(inProcess.child.pid);
      } finally {
        expect(await stopServer(inProcess.child)).toBe(0);
      }
    });

    it('re-executes for MALLOC_ARENA_MAX alone when the heap needs no flag (glibc reads it at start only)', { timeout: 240_000 }, async () => {
      // empty: unset, whatever this process's environment says
      const server = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: '0', MALLOC_ARENA_MAX: '' });
      try {
        const childPid = Number(/"pid":(\d+)[^\n]*listening at/.exec(server.output())?.[1]);
        expect(childPid).not.toBe(server.child.pid);
        const child = startedWith(childPid);
        expect(child.env.get('MALLOC_ARENA_MAX')).toBe('2');
        expect(child.args.some((arg) => arg.startsWith('--max-old-space-size'))).toBe(false);
      } finally {
        expect(await stopServer(server.child)).toBe(0);
      }
    });
  });
});
