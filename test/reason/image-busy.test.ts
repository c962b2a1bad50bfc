import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import type { ReasoningPool } from '../../engine/reason/pool.ts';
import { graphFile } from '../../engine/store/snapshot.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { freshRuns, openTempPool, withoutCost, type TempPool } from '../helpers/reasoning-pool.ts';
import { until } from '../helpers/until.ts';

// A worker making a view image (one synchronous call between tasks, which piscina counts as free time) says so
// first, and the pool counts it busy until it says the image is made (engine/reason/worker-entry.ts makeImage,
// workers.ts ViewRouter): an assess asked meanwhile is answered by the other engine, as from the records. Observed
// through what the workers say (ReasoningPool.heldViews), not timing; the routing itself in view-router.test.ts.
const limits = { inferenceLimit: 5_000_000, timeLimitMs: 60_000, maxFindings: Infinity };

describe('a worker making a view image', () => {
  let temp: TempPool;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const catalogLoading = loadRuleModules();

  beforeAll(async () => {
    // (no idle wait: the first worker to hold the view makes its image at once)
    temp = await openTempPool('parley-image-busy-', { workers: 2, viewImageIdleMs: 0 });
    ({ store, pool } = temp);
    await store.writeGraph('t', 'g', generate(20_000).write);
  }, 120_000);
  afterAll(async () => {
    await temp.close();
  });

  it('says so while it makes it, and an assess asked meanwhile is answered as from the records', { timeout: 300_000 }, async () => {
    const imaging = () => [...pool.heldViews()].filter(([, view]) => view.imaging).map(([worker]) => worker);
    pool.preload('t', 'g');
    let seen: number[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline && seen.length === 0; seen = imaging()) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toHaveLength(1);
    const catalog = await catalogLoading;
    const ids = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
    const { runs } = await pool.frameworks('t', 'g', ids, { limits });
    // the image made, the worker says so, and it is on disk
    await until(() => imaging().length === 0, 120_000);
    expect(imaging()).toEqual([]);
    await until(() => existsSync(graphFile(store.snapshotDir, 't', 'g', 'view')), 10_000);
    expect(existsSync(graphFile(store.snapshotDir, 't', 'g', 'view'))).toBe(true);
    expect(withoutCost(runs)).toEqual(withoutCost(await freshRuns(catalog, store, 't', 'g', ids, limits)));
  });
});
