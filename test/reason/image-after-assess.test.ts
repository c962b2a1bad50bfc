import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { handOverImage } from '../../engine/prolog/bridge.ts';
import type { ReasoningPool } from '../../engine/reason/pool.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { graphFile } from '../../engine/store/snapshot.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { openTempPool, type TempPool } from '../helpers/reasoning-pool.ts';
import { until } from '../helpers/until.ts';

// A graph's first assess, with no preload before it, hands the view over inside its runs, which compute only the shared
// sets they read; the worker keeps the rest before it makes the view's image (worker-entry.ts makeImage), so that the
// image carries them all, as one made after a background hand-over does, and an engine loading it computes none (at 1M
// facts some 2.3 s of a core each). Observed in this thread's engine: the inferences of the sets after loading the image.
const limits = { inferenceLimit: 5_000_000, timeLimitMs: 60_000, maxFindings: Infinity };

describe('a view image made after a first assess', () => {
  let temp: TempPool;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const catalogLoading = loadRuleModules([]);

  beforeAll(async () => {
    // (no preload asked: the assess's task hands the view over; no idle wait before the image)
    temp = await openTempPool('parley-image-after-assess-', { workers: 1, viewImageIdleMs: 0 });
    ({ store, pool } = temp);
    await store.writeGraph('t', 'g', generate(3_000).write);
  }, 120_000);
  afterAll(async () => {
    await temp.close();
  });

  it('carries the shared sets the runs did not compute, and an engine loading it computes none', { timeout: 300_000 }, async () => {
    const imageFile = graphFile(store.snapshotDir, 't', 'g', 'view');
    // one framework: it reads a few of the sets
    await pool.frameworks('t', 'g', ['glasl'], { limits });
    expect(await until(() => existsSync(imageFile), 120_000)).toBe(true);
    expect([...pool.heldViews().values()][0]).toMatchObject({ handOvers: 1, images: 0 });

    const catalog = await catalogLoading;
    const stored = await store.loadGraph('t', 'g');
    const copy = () => GraphIndex.fromRecords(stored.nodes.values(), stored.edges.values());
    const warmInferences = (graph: GraphIndex) =>
      catalog.registry.solveLibrary('statistics(inferences, I0), parley_warm_sets(warm_view_sets), statistics(inferences, I1), I is I1 - I0', ['I'], { graph })[0][0] as number;
    const computed = copy();
    catalog.registry.handOver({ graph: computed });
    const computing = warmInferences(computed);
    expect(computing).toBeGreaterThan(10_000);
    // the image file: a header line naming the graph and version (view-images.ts), then the engine's image
    const content = readFileSync(imageFile);
    const loaded = copy();
    expect(handOverImage({ graph: loaded }, content.subarray(content.indexOf(10) + 1))).toBe(true);
    expect(warmInferences(loaded)).toBeLessThan(computing / 5);
  });
});
