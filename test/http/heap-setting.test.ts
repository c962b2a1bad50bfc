import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagValue, heapGrowingPercent, heapSettingMb } from '../../server/heap.mjs';
import { ParleyStore } from '../../engine/store/store.ts';
import { DEFAULT_WORKER_YOUNG_MB } from '../../engine/reason/pool.ts';
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

  it('lets the old generation grow by PARLEY_HEAP_GROWING_PERCENT, else 50 %, past the live heap; 0 is V8’s own; a value that is not a whole number, or above 1000, is refused', () => {
    expect(heapGrowingPercent({})).toBe(50);
    expect(heapGrowingPercent({ PARLEY_HEAP_GROWING_PERCENT: '100' })).toBe(100);
    expect(heapGrowingPercent({ PARLEY_HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(() => heapGrowingPercent({ PARLEY_HEAP_GROWING_PERCENT: '1.5' })).toThrow(/PARLEY_HEAP_GROWING_PERCENT must be a whole number/);
    expect(heapGrowingPercent({ PARLEY_HEAP_GROWING_PERCENT: '1000' })).toBe(1000);
    expect(() => heapGrowingPercent({ PARLEY_HEAP_GROWING_PERCENT: '1001' })).toThrow(/PARLEY_HEAP_GROWING_PERCENT must be a whole number from 0 .* to 1000/);
  });

  it('reads a V8 flag as V8 runs with it: the last on the command line, else the last in NODE_OPTIONS as Node splits it', () => {
    expect(flagValue('heap-growing-percent', ['--heap-growing-percent=30', '--expose-gc', '--heap_growing_percent=0'], '')).toBe('0');
    expect(flagValue('max-old-space-size', ['--max-old-space-size=2000'], '--max-old-space-size=1000')).toBe('2000');
    expect(flagValue('max-old-space-size', ['--expose-gc'], '--require ./a.cjs  --max_old_space_size=1000 --max-old-space-size=1500')).toBe('1500');
    expect(flagValue('max-old-space-size', [], '--require "./my dir/a.cjs" "--max-old-space-size=1000"')).toBe('1000');
    expect(flagValue('max-old-space-size', [], '"--title=a \\" --max-old-space-size=9" --max-old-space-size="1\\000"')).toBe('1000');
    expect(flagValue('max-old-space-size', ['--max-semi-space-size=64'], '--stack-trace-limit=5')).toBeUndefined();
  });

  it('bounds the heap a steady stream of garbage grows to: the flag as the server is given it, beside V8’s own growth', { timeout: 120_000 }, () => {
    // some 80 MB live, then objects kept a while (so that many survive into the old generation) and dropped: a fixed
    // amount of work, since V8's own growth rises with the collections' speed against the program's
    const churn = `
      const { getHeapStatistics } = require('node:v8');
      const live = Array.from({ length: 500_000 }, (_, i) => ({ i, text: 'live ' + i, pair: [i, i + 1] }));
      let kept = [], peak = 0;
      for (let round = 0; round < 150; round++) {
        for (let i = 0; i < 20_000; i++) kept.push({ text: 'kept ' + i, triple: [i, i, i] });
        if (kept.length > 200_000) kept = [];
        peak = Math.max(peak, getHeapStatistics().used_heap_size);
      }
      global.gc();
      console.log(JSON.stringify({ peak, live: getHeapStatistics().used_heap_size, held: live.length }));`;
    const peakOverLive = (flags: string[]) => {
      const run = spawnSync(process.execPath, ['--max-old-space-size=8000', '--expose-gc', ...flags, '-e', churn], { encoding: 'utf8', timeout: 60_000 });
      const { peak, live } = JSON.parse(run.stdout) as { peak: number; live: number };
      return peak / live;
    };
    const bounded = peakOverLive([`--heap-growing-percent=${heapGrowingPercent({})}`]);
    // live, its 50 % and the young generation's objects at most (up to 48 MB beside 80 MB live); V8's own went to 5-6x
    expect(bounded).toBeLessThan(3);
    expect(peakOverLive([])).toBeGreaterThan(bounded);
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
    /** The pid of the process that serves, as its log line says (the child's when it was re-executed). */
    const servingPid = (output: string) => Number(/"pid":(\d+)[^\n]*listening at/.exec(output)?.[1]);

    it('serves from a child re-executed with the setting; the child ends when its parent is killed, and frees the data directory', { timeout: 240_000 }, async () => {
      const server = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: String(askedMb) });
      let childPid: number;
      try {
        expect((await fetch(`${server.base}/v1/health`)).status).toBe(200);
        const limit = /parley: heap limit (\d+) MB/.exec(server.output());
        expect(Number(limit?.[1])).toBeGreaterThanOrEqual(askedMb);
        // fastify's log lines name the process that listens
        childPid = servingPid(server.output());
        expect(childPid).toBeGreaterThan(0);
        expect(childPid).not.toBe(server.child.pid);
        expect(startedWith(childPid).env.get('MALLOC_ARENA_MAX')).toBe(ARENAS);
        expect(startedWith(childPid).args).toContain('--heap-growing-percent=50');
        expect(server.output()).toMatch(/growth between full collections at most 50 %/);
        expect(server.output()).toContain(`reasoning workers' young generation at most ${DEFAULT_WORKER_YOUNG_MB} MB`);
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

    it('passes SIGTERM on and exits with the child’s status; PARLEY_HEAP_MB=0 and PARLEY_HEAP_GROWING_PERCENT=0 serve in the process itself', { timeout: 240_000 }, async () => {
      const relaunched = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: String(askedMb) });
      expect(await stopServer(relaunched.child)).toBe(0);
      // the allocator's setting given, as the re-executed child has it
      const inProcess = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: '0', PARLEY_HEAP_GROWING_PERCENT: '0', PARLEY_HEAP_REASON_YOUNG_MB: '0', MALLOC_ARENA_MAX: ARENAS });
      try {
        expect(servingPid(inProcess.output())).toBe(inProcess.child.pid);
        expect(inProcess.output()).toMatch(/growth between full collections V8's own, reasoning workers' young generation V8's own/);
      } finally {
        expect(await stopServer(inProcess.child)).toBe(0);
      }
    });

    it('logs the heap limit and growth V8 runs with: the limit from NODE_OPTIONS kept, the last growth flag given, 0 as V8’s own', { timeout: 240_000 }, async () => {
      const givenMb = askedMb - 512;
      // the setting asks for more than NODE_OPTIONS gives, and the growth is on the command line: no re-execution
      const server = await spawnServer(['--heap-growing-percent=20', '--heap-growing-percent=0', 'server/start.mjs'], {
        ...env(),
        PARLEY_HEAP_MB: String(askedMb),
        MALLOC_ARENA_MAX: ARENAS,
        NODE_OPTIONS: `"--max-old-space-size=${givenMb}"`,
      });
      try {
        expect(servingPid(server.output())).toBe(server.child.pid);
        // V8's limit is the old generation's plus the young one's
        const limit = Number(/parley: heap limit (\d+) MB/.exec(server.output())?.[1]);
        expect(limit).toBeGreaterThanOrEqual(givenMb);
        expect(limit).toBeLessThan(askedMb);
        expect(server.output()).toMatch(/growth between full collections V8's own/);
      } finally {
        expect(await stopServer(server.child)).toBe(0);
      }
    });

    it('re-executes for MALLOC_ARENA_MAX alone when the heap needs no flag (glibc reads it at start only)', { timeout: 240_000 }, async () => {
      // empty: unset, whatever this process's environment says
      const server = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: '0', PARLEY_HEAP_GROWING_PERCENT: '0', MALLOC_ARENA_MAX: '' });
      try {
        const childPid = servingPid(server.output());
        expect(childPid).not.toBe(server.child.pid);
        const child = startedWith(childPid);
        expect(child.env.get('MALLOC_ARENA_MAX')).toBe('2');
        expect(child.args.some((arg) => arg.startsWith('--max-old-space-size') || arg.startsWith('--heap-growing-percent'))).toBe(false);
      } finally {
        expect(await stopServer(server.child)).toBe(0);
      }
    });

    it('re-executes for the heap’s growth setting alone when the limit and the allocator need nothing (V8 reads it at start only)', { timeout: 240_000 }, async () => {
      const server = await spawnServer(['server/start.mjs'], { ...env(), PARLEY_HEAP_MB: '0', PARLEY_HEAP_GROWING_PERCENT: '30', MALLOC_ARENA_MAX: ARENAS });
      try {
        const childPid = servingPid(server.output());
        expect(childPid).not.toBe(server.child.pid);
        const { args } = startedWith(childPid);
        expect(args).toContain('--heap-growing-percent=30');
        expect(args.some((arg) => arg.startsWith('--max-old-space-size'))).toBe(false);
      } finally {
        expect(await stopServer(server.child)).toBe(0);
      }
    });
  });
});
