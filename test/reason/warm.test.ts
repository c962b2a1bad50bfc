import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ReplicaSet, ReplicaSource } from '../../engine/reason/replicas.ts';
import { warmGraphs } from '../../engine/reason/warm.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { snapshotFile } from '../../engine/store/snapshot.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';

// After a restart the graphs the store held at its last close are loaded and replicated in the
// background (engine/reason/warm.ts): the remembered one first, then the most recently written,
// within the facts and graphs bounds; a graph that cannot fit is never read. Every worker is asked to hold
// the views of the graphs warmed while they fit its bound on views (here this thread's replica set stands
// for the one worker).
const oneWorker = { count: 1 };
const actors = (count: number, prefix: string): GraphWrite => ({
  nodes: Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, labels: ['Actor'], properties: { label: `${prefix} actor ${i}` } })),
  edges: [],
});

describe('warming the graphs after a restart', () => {
  let dir: string;
  let store: ParleyStore;
  const facts: Record<string, number> = {};
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-warm-'));
    const location = path.join(dir, 'store');
    const first = await ParleyStore.open(location);
    await first.writeGraph('t', 'remembered', actors(3, 'r'));
    await first.writeGraph('t', 'older', actors(4, 'o'));
    await first.writeGraph('u', 'newer', actors(5, 'n'));
    await first.writeGraph('t', 'large', actors(2_000, 'l'));
    for (const [tenant, graphId] of [['t', 'remembered'], ['t', 'older'], ['u', 'newer'], ['t', 'large']]) facts[graphId] = (await first.loadGraph(tenant, graphId)).factCount;
    await first.close(); // (writes each graph's snapshot)
    // the order of the last writes: newer, large, older, remembered
    const written = { remembered: 1_000, older: 2_000, large: 3_000, newer: 4_000 };
    for (const [tenant, graphId] of [['t', 'remembered'], ['t', 'older'], ['u', 'newer'], ['t', 'large']] as const) {
      const seconds = 1_700_000_000 + written[graphId];
      await utimes(snapshotFile(path.join(location, 'snapshots'), tenant, graphId), seconds, seconds);
    }
    store = await ParleyStore.open(location);
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * The replicas made, a warm one the hold then named left out: a replica read from the store's snapshot file is still
   * being read when the hold comes, and is made once, held; one made from chunks was made warm, then held.
   */
  const heldOnce = <T extends { key: string; by: string }>(received: T[]) => received.filter(({ key, by }, i) => by !== 'warm' || !received.slice(i + 1).some((later) => later.key === key && later.by === 'hold'));

  it('loads and replicates the remembered graph first, then the most recently written, within the facts bound, never reading a graph too large for it', async () => {
    const source = new ReplicaSource(store, 'parley-warm-test');
    const received: { key: string; by: string; facts: number }[] = [];
    const replicas = new ReplicaSet('parley-warm-test', 8, (at, graph, by) => received.push({ key: at.key, by, facts: graph.factCount }));
    try {
      const bound = facts.remembered + facts.older + facts.newer;
      // views for the first two graphs only: the third is replicated, not held
      const viewFacts = facts.remembered + facts.newer;
      const warmed = await warmGraphs(store, source, oneWorker, { tenant: 't', graphId: 'remembered' }, { maxFacts: bound, maxGraphs: 8, viewFacts, preloadMaxFacts: 1_000_000 }, () => false);
      expect(warmed).toEqual([
        { tenant: 't', graphId: 'remembered' },
        { tenant: 'u', graphId: 'newer' },
        { tenant: 't', graphId: 'older' },
      ]);
      // the store holds the warmed graphs; the large one was never read
      expect(store.loadedGeneration('u', 'newer')).toBeDefined();
      expect(store.loadedGeneration('t', 'older')).toBeDefined();
      expect(store.loadedGeneration('t', 'large')).toBeUndefined();
      // the workers' replicas, each held by the one worker while the views fit its bound
      for (let waited = 0; waited < 10_000 && heldOnce(received).length < 3; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      // (made in the warm-up's order, though older's file is smaller than newer's: the next goes out once the one before is held)
      expect(heldOnce(received)).toEqual([
        { key: graphKey('t', 'remembered'), by: 'hold', facts: facts.remembered },
        { key: graphKey('u', 'newer'), by: 'hold', facts: facts.newer },
        { key: graphKey('t', 'older'), by: 'warm', facts: facts.older },
      ]);
      expect(replicas.held(graphKey('u', 'newer'))?.graph.factCount).toBe(facts.newer);
      expect(replicas.held(graphKey('t', 'remembered'))?.graph.factCount).toBe(facts.remembered);
    } finally {
      replicas.close();
      source.close();
    }
  });

  it('holds the remembered graph on every engine when it is larger than the bound on views (alone: the others are replicated only), never one above preloadMaxFacts', async () => {
    const source = new ReplicaSource(store, 'parley-warm-large');
    const received: { key: string; by: string }[] = [];
    const replicas = new ReplicaSet('parley-warm-large', 8, (at, _graph, by) => received.push({ key: at.key, by }));
    const remembered = { tenant: 't', graphId: 'large' };
    const bounds = { maxFacts: facts.large + facts.newer, maxGraphs: 2, viewFacts: facts.newer };
    const until = async (done: () => boolean) => {
      for (let waited = 0; waited < 10_000 && !done(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    try {
      expect(await warmGraphs(store, source, oneWorker, remembered, { ...bounds, preloadMaxFacts: facts.large }, () => false)).toEqual([remembered, { tenant: 'u', graphId: 'newer' }]);
      await until(() => received.some(({ key }) => key === graphKey('u', 'newer')) && received.some(({ key, by }) => key === graphKey('t', 'large') && by === 'hold'));
      // the remembered graph's replica made first, though its file is the larger: the next went out once it was held
      expect(heldOnce(received)).toEqual([
        { key: graphKey('t', 'large'), by: 'hold' },
        { key: graphKey('u', 'newer'), by: 'warm' },
      ]);
      // above preloadMaxFacts the remembered graph is replicated, not held; the next fits the bound and is held
      received.length = 0;
      expect(await warmGraphs(store, source, oneWorker, remembered, { ...bounds, preloadMaxFacts: facts.large - 1 }, () => false)).toEqual([remembered, { tenant: 'u', graphId: 'newer' }]);
      await until(() => received.some(({ by }) => by === 'hold'));
      expect(received.filter(({ by }) => by === 'hold')).toEqual([{ key: graphKey('u', 'newer'), by: 'hold' }]);
    } finally {
      replicas.close();
      source.close();
    }
  });

  it('warms at most maxGraphs graphs, and none with no facts allowed', async () => {
    const source = new ReplicaSource(store, 'parley-warm-bounds');
    const replicas = new ReplicaSet('parley-warm-bounds', 8);
    try {
      expect(await warmGraphs(store, source, oneWorker, undefined, { maxFacts: 1_000_000, maxGraphs: 2, viewFacts: 1_000_000, preloadMaxFacts: 1_000_000 }, () => false)).toEqual([
        { tenant: 'u', graphId: 'newer' },
        { tenant: 't', graphId: 'large' },
      ]);
      expect(await warmGraphs(store, source, oneWorker, undefined, { maxFacts: 0, maxGraphs: 8, viewFacts: 1_000_000, preloadMaxFacts: 1_000_000 }, () => false)).toEqual([]);
    } finally {
      replicas.close();
      source.close();
    }
  });

  it('starts the workers when the server listens, before any call, and their engines take the views of the graphs warmed', { timeout: 180_000 }, async () => {
    const lastGraphFile = path.join(dir, 'last-preloaded-graph.json');
    await writeFile(lastGraphFile, JSON.stringify(['t', 'remembered']));
    const pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, lastGraphFile, warmFacts: 100 });
    try {
      const warmed = await pool.warmUp();
      expect(warmed.map(({ graphId }) => graphId)).toEqual(['remembered', 'newer', 'older']);
      expect(await pool.viewsPrepared('t', 'remembered', 120_000)).toBe(true);
      expect(await pool.viewsPrepared('u', 'newer', 120_000)).toBe(true);
      expect(await pool.viewsPrepared('t', 'older', 120_000)).toBe(true);
      const { result } = await pool.query('u', 'newer', 'MATCH (a:Actor) RETURN count(a) AS n', { limits: {} });
      expect(result.rows).toEqual([[5n]]);
    } finally {
      await pool.close();
    }
  });
  it('takes no hold that would drop the view of a graph a client is at work on', { timeout: 180_000 }, async () => {
    // room for the large graph's view only: the hold of the graph warmed first (the most recently written) would drop it
    const pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, warmFacts: 1_000_000, viewFacts: facts.large });
    try {
      const [framework] = pool.catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
      await pool.frameworks('t', 'large', [framework!], { limits: { inferenceLimit: 5_000_000, timeLimitMs: 20_000, maxFindings: Infinity } });
      const warmed = await pool.warmUp();
      expect(warmed[0]).toEqual({ tenant: 'u', graphId: 'newer' });
      // (the hold, were it taken, is done within a second here: BACKGROUND_AFTER_TASK_MS and one small hand-over)
      expect(await pool.viewsPrepared('u', 'newer', 3_000)).toBe(false);
      expect([...pool.heldViews().values()].map(({ graphs, handOvers }) => ({ graphs, handOvers }))).toEqual([{ graphs: [{ tenant: 't', graphId: 'large' }], handOvers: 1 }]);
    } finally {
      await pool.close();
    }
  });
});

describe('the warm-up after a restart, where the remembered graph\'s snapshot file is the larger', () => {
  let dir: string;
  let store: ParleyStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-warm-order-'));
    const location = path.join(dir, 'store');
    const first = await ParleyStore.open(location);
    await first.writeGraph('t', 'remembered', actors(50_000, 'r'));
    await first.writeGraph('t', 'small', actors(5, 's'));
    await first.close();
    store = await ParleyStore.open(location);
  }, 120_000);
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('has the workers make the remembered graph\'s replica first, the next graph sent once they hold it', async () => {
    const source = new ReplicaSource(store, 'parley-warm-order');
    const made: string[] = [];
    const replicas = new ReplicaSet('parley-warm-order', 8, (at) => made.push(at.key));
    try {
      const warmed = await warmGraphs(store, source, oneWorker, { tenant: 't', graphId: 'remembered' }, { maxFacts: 1_000_000, maxGraphs: 8, viewFacts: 0, preloadMaxFacts: 0 }, () => false);
      expect(warmed).toEqual([{ tenant: 't', graphId: 'remembered' }, { tenant: 't', graphId: 'small' }]);
      for (let waited = 0; waited < 30_000 && made.length < 2; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      // (sent together, the small file would be read and built first)
      expect(made).toEqual([graphKey('t', 'remembered'), graphKey('t', 'small')]);
    } finally {
      replicas.close();
      source.close();
    }
  });
});
