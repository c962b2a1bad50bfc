import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';

/** This process's threads and resident anonymous memory (heaps, WebAssembly memories) in MB, from /proc. */
function own(): { threads: number; anonymousMb: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
  return { threads: field('Threads'), anonymousMb: field('RssAnon') / 1024 };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('reasoning workers that idle out (PARLEY_REASON_IDLE_MS)', () => {
  const IDLE_MS = 1_000;
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const labels = async () => (await pool.query('t', 'g', 'MATCH (a:Actor) RETURN a.label AS label ORDER BY label', { limits: {} })).result.rows.flat();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-idle-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
    await store.writeGraph('t', 'g', { nodes: [{ id: 'a', labels: ['Actor'], properties: { label: 'Alpha', role: 'party' } }], edges: [] });
    // one worker, every query through it
    pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, workerIdleMs: IDLE_MS });
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('end, giving their memory back, and a call after that starts one again', { timeout: 300_000 }, async () => {
    const before = own();
    expect(await labels()).toEqual(['Alpha']);
    const working = own();
    expect(working.threads).toBeGreaterThan(before.threads);
    // the worker's engine, rule modules and replica: some 150 MB here
    const workerMb = working.anonymousMb - before.anonymousMb;
    expect(workerMb).toBeGreaterThan(50);
    expect(await until(() => own().threads <= before.threads, 60_000)).toBe(true);
    // what the worker held is returned to the system, not kept by the allocator
    expect(own().anonymousMb - before.anonymousMb).toBeLessThan(workerMb / 2);
    await store.writeGraph('t', 'g', { nodes: [{ id: 'b', labels: ['Actor'], properties: { label: 'Beta', role: 'party' } }], edges: [] });
    expect(await labels()).toEqual(['Alpha', 'Beta']);
    expect(own().threads).toBeGreaterThan(before.threads);
  });
});
