import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_YOUNG_MB, ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { loadConfig, reasoningOptions } from '../../server/config.ts';

const MB = 2 ** 20;

describe("the reasoning workers' young generation (PARLEY_HEAP_REASON_YOUNG_MB)", () => {
  let dir: string;
  let store: ParleyStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-young-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
    // enough records that the replica's snapshot and the hand-over grow an unbounded young generation to V8's 32 MB
    const nodes = Array.from({ length: 8_000 }, (_, i) => ({ id: `a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}`, role: 'party' } }));
    const edges = Array.from({ length: 8_000 }, (_, i) => ({ id: `e${i}`, type: 'OPPOSES', from: `a${i}`, to: `a${(i * 7 + 1) % 8_000}`, properties: {} }));
    await store.writeGraph('t', 'g', { nodes, edges });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The memory report of the one worker of a pool opened with `env`'s settings, after it replicated the graph and took its view. */
  async function workerAfterHandOver(env: NodeJS.ProcessEnv) {
    const config = loadConfig({ ...env, PARLEY_DATA_DIR: dir });
    const pool = await ReasoningPool.open(store, { ...reasoningOptions(config), workers: 1, inlineBudgetMs: 0, warmFacts: 0, viewImageBytes: 0 });
    try {
      await pool.query('t', 'g', "MATCH (a:Actor {label: 'nobody'}) RETURN a", { limits: {} });
      expect(await pool.viewsPrepared('t', 'g', 120_000)).toBe(true);
      const reports = await pool.workerMemory(false);
      expect(reports).toHaveLength(1);
      return reports[0];
    } finally {
      await pool.close();
    }
  }

  it('bounds each worker by the setting: it reports the limit, and its young generation stays within it', { timeout: 300_000 }, async () => {
    const bounded = await workerAfterHandOver({ PARLEY_HEAP_REASON_YOUNG_MB: '6' });
    expect(bounded.youngLimitMb).toBe(6);
    // V8 makes it three semi-spaces' worth, two of them committed (2 x 2 MB here, against 2 x 16 unbounded) and the third for large objects
    expect(bounded.youngCommitted).toBeLessThanOrEqual(6 * MB);
  });

  it('applies the documented default when unset, and 0 leaves V8 its own (48 MB on 64 bits)', { timeout: 300_000 }, async () => {
    expect((await workerAfterHandOver({})).youngLimitMb).toBe(DEFAULT_WORKER_YOUNG_MB);
    expect((await workerAfterHandOver({ PARLEY_HEAP_REASON_YOUNG_MB: '0' })).youngLimitMb).toBe(48);
  });

  it('refuses a value above V8’s own bound', () => {
    expect(() => loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_HEAP_REASON_YOUNG_MB: '49' })).toThrow(/PARLEY_HEAP_REASON_YOUNG_MB must be an integer from 0 to 48/);
  });
});
