import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework, type FrameworkRun } from '../../engine/frameworks/run.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { snapshotFile } from '../../engine/store/snapshot.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';

// Graph affinity in the reasoning pool: after a restart the warm-up has every worker's engine hold the
// views of the graphs warmed (engine/reason/warm.ts; several views per engine, engine/prolog/bridge.ts), and
// each task that reads a graph's view goes to a worker whose engine holds it (engine/reason/workers.ts
// ViewRouter). Observed through what the workers say their engines hold and how many views each has taken
// whole (ReasoningPool.heldViews), not timing.
const limits = { inferenceLimit: 5_000_000, timeLimitMs: 20_000, maxFindings: Infinity };
const withoutCost = (runs: FrameworkRun[]) => runs.map(({ inferences: _, ...run }) => run);
/** Two tenants' graphs of the same id and different content, and a third graph written later. */
const GRAPHS = [
  { tenant: 't', graphId: 'g', fixture: 'stedman/tests/1-total-outside-spoiler.json' },
  { tenant: 'u', graphId: 'g', fixture: 'glasl/tests/1-violent-escalation.json' },
] as const;

describe('graph affinity of the reasoning workers', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  let ids: string[];
  const catalogLoading = loadRuleModules();

  /** What a fresh run over a copy of the stored graph concludes, on this thread's own engine. */
  const inProcess = async (tenant: string, graphId: string) => {
    const catalog = await catalogLoading;
    const stored = await store.loadGraph(tenant, graphId);
    const view = { graph: GraphIndex.fromRecords(stored.nodes.values(), stored.edges.values()) };
    const manifests = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
    return withoutCost(ids.map((id) => runFramework(catalog.registry, manifests.find((manifest) => manifest.id === id)!, view, limits)));
  };
  /** Per graph ('tenant/graph'), how many workers hold its view; and the views each worker took whole, in thread order. */
  const held = () => {
    const views = [...pool.heldViews()].sort(([a], [b]) => a - b);
    const holders: Record<string, number> = {};
    for (const [, { graphs }] of views) for (const { tenant, graphId } of graphs) holders[`${tenant}/${graphId}`] = (holders[`${tenant}/${graphId}`] ?? 0) + 1;
    return { holders, handOvers: views.map(([, view]) => view.handOvers) };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-affinity-'));
    const location = path.join(dir, 'store');
    const before = await ParleyStore.open(location);
    for (const { tenant, graphId, fixture } of GRAPHS) {
      await before.writeGraph(tenant, graphId, await graphWriteFromJson(JSON.parse(await readFile(path.join('frameworks', fixture), 'utf8')).graph));
    }
    await before.close(); // (the snapshots a restart warms)
    // u/g written last: the warm-up takes the remembered graph (t/g) first all the same
    for (const [index, { tenant, graphId }] of GRAPHS.entries()) {
      const seconds = 1_700_000_000 + index;
      await utimes(snapshotFile(path.join(location, 'snapshots'), tenant, graphId), seconds, seconds);
    }
    const lastGraphFile = path.join(dir, 'last-graph.json');
    await writeFile(lastGraphFile, JSON.stringify(['t', 'g']));
    store = await ParleyStore.open(location);
    // two workers, two graphs: both graphs' views on both engines
    pool = await ReasoningPool.open(store, { workers: 2, inlineBudgetMs: 0, lastGraphFile });
    ids = pool.catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
  });
  afterAll(async () => {
    await pool?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('has every engine hold the views of the graphs warmed after a restart, the remembered graph first', async () => {
    const warmed = await pool.warmUp();
    expect(warmed).toEqual([
      { tenant: 't', graphId: 'g' },
      { tenant: 'u', graphId: 'g' },
    ]);
    expect(await pool.viewsPrepared('t', 'g', 120_000, 2)).toBe(true);
    expect(await pool.viewsPrepared('u', 'g', 120_000, 2)).toBe(true);
    expect(held()).toEqual({ holders: { 't/g': 2, 'u/g': 2 }, handOvers: [2, 2] });
  }, 180_000);

  it('assesses the graph other than the remembered one on the engines holding its view: no engine takes a view again, and no tenant is served another\'s', async () => {
    const [mine, theirs] = [await inProcess('t', 'g'), await inProcess('u', 'g')];
    expect(theirs).not.toEqual(mine); // the two tenants' graphs conclude differently
    expect(withoutCost((await pool.frameworks('u', 'g', ids, { limits })).runs)).toEqual(theirs);
    expect(withoutCost((await pool.frameworks('t', 'g', ids, { limits })).runs)).toEqual(mine);
    expect(held()).toEqual({ holders: { 't/g': 2, 'u/g': 2 }, handOvers: [2, 2] });
  }, 180_000);

  it('hands a graph no worker holds to two engines, which keep the views they held besides', async () => {
    const fixture = JSON.parse(await readFile(path.join('frameworks', 'zartman', 'tests', '1-hurting-stalemate-and-an-offer.json'), 'utf8'));
    await store.writeGraph('t', 'new', await graphWriteFromJson(fixture.graph));
    const expected = await inProcess('t', 'new');
    expect(withoutCost((await pool.frameworks('t', 'new', ids, { limits })).runs)).toEqual(expected);
    expect(await pool.viewsPrepared('t', 'new', 10_000, 2)).toBe(true);
    expect(held()).toEqual({ holders: { 't/g': 2, 'u/g': 2, 't/new': 2 }, handOvers: [3, 3] });
    // a write to one graph is added to its views only: the others answer as before, and none is taken whole again
    await store.writeGraph('u', 'g', { nodes: [{ id: 'written-later', labels: ['Actor'], properties: { label: 'A later actor' } }], edges: [] });
    expect(withoutCost((await pool.frameworks('u', 'g', ids, { limits })).runs)).toEqual(await inProcess('u', 'g'));
    expect(withoutCost((await pool.frameworks('t', 'g', ids, { limits })).runs)).toEqual(await inProcess('t', 'g'));
    expect(held()).toEqual({ holders: { 't/g': 2, 'u/g': 2, 't/new': 2 }, handOvers: [3, 3] });
  }, 180_000);
});
