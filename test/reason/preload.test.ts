import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { ReasoningPool, type ReasoningOptions } from '../../engine/reason/pool.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { freshRuns, openTempPool, withoutCost, type TempPool } from '../helpers/reasoning-pool.ts';

// The workers hand a replica to their engines before any assess asks (worker-entry.ts): what an
// assess then answers must be what a run over a fresh copy of the graph answers, writes made
// while the hand-over ran included. The copy runs here, on this thread's own engine.
const limits = { inferenceLimit: 5_000_000, timeLimitMs: 20_000, maxFindings: Infinity };

describe('views preloaded in the reasoning workers', () => {
  let temp: TempPool;
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const catalogLoading = loadRuleModules();
  beforeAll(async () => {
    temp = await openTempPool('parley-preload-', { workers: 2, inlineBudgetMs: 0 });
    ({ dir, store, pool } = temp);
  });
  afterAll(async () => {
    await temp.close();
  });

  /** Runs `body` with a new one-worker pool over the store (every query through the worker), closed after. */
  const withPool = async (options: ReasoningOptions, body: (pool: ReasoningPool) => Promise<void>) => {
    const pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, ...options });
    try {
      await body(pool);
    } finally {
      await pool.close();
    }
  };

  const inProcess = async (graphId: string, ids: string[]) => freshRuns(await catalogLoading, store, 't', graphId, ids, limits);

  it('are in both workers once a first query made the replica, and an assess over them answers as a fresh run, a write made meanwhile included', async () => {
    const fixture = JSON.parse(await readFile(path.join('frameworks', 'stedman', 'tests', '1-total-outside-spoiler.json'), 'utf8'));
    await store.writeGraph('t', 'p', await graphWriteFromJson(fixture.graph));
    const ids = pool.catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
    const before = await inProcess('p', ids);

    await pool.query('t', 'p', 'MATCH (a:Actor) RETURN count(a)', { limits: {} }); // the replica, and with it the hand-over
    // a write while the workers hand the view over: a second spoiler, violent after the ceasefire
    await store.writeGraph('t', 'p', {
      nodes: [
        { id: 'late', labels: ['Actor'], properties: { label: 'Late Front', role: 'spoiler', actor_type: 'armed_group' } },
        { id: 'ev_late', labels: ['Event'], properties: { event_type: 'ASSAULT', date: '2024-04-02', label: 'Late Front raid on the ceasefire line', fatalities: 3 } },
      ],
      edges: [
        { id: 'late_raid', type: 'PARTICIPATES_IN', from: 'late', to: 'ev_late', properties: { role: 'perpetrator' } },
        { id: 'late_target', type: 'PARTICIPATES_IN', from: 'gov', to: 'ev_late', properties: { role: 'target' } },
        { id: 'late_opp', type: 'OPPOSES', from: 'late', to: 'gov' },
      ],
    });
    expect(await pool.viewsPrepared('t', 'p', 60_000)).toBe(true);

    const after = await inProcess('p', ids);
    expect(withoutCost(after)).not.toEqual(withoutCost(before)); // the write changes what the frameworks conclude
    const { runs } = await pool.frameworks('t', 'p', ids, { limits });
    expect(withoutCost(runs)).toEqual(withoutCost(after));
    expect(runs.find((run) => run.framework_id === 'stedman')!.evidence).toContain('ev_late');
  }, 120_000);

  it('follow the graph last asked about: a second graph\'s replica replaces the first\'s view, and both still answer as fresh runs', async () => {
    const fixture = JSON.parse(await readFile(path.join('frameworks', 'glasl', 'tests', '1-violent-escalation.json'), 'utf8'));
    await store.writeGraph('t', 'q', await graphWriteFromJson(fixture.graph));
    await pool.query('t', 'q', 'MATCH (a:Actor) RETURN count(a)', { limits: {} });
    expect(await pool.viewsPrepared('t', 'q', 60_000)).toBe(true);
    const ids = ['glasl', 'stedman', 'zartman'];
    expect(withoutCost((await pool.frameworks('t', 'q', ids, { limits })).runs)).toEqual(withoutCost(await inProcess('q', ids)));
    // the engines now hold q's view: an assess of p hands p over again, and answers as before
    expect(withoutCost((await pool.frameworks('t', 'p', ids, { limits })).runs)).toEqual(withoutCost(await inProcess('p', ids)));
  }, 120_000);

  it('are asked for by a client at work on a graph before any query or assess: the workers start and take the view', async () => {
    const fixture = JSON.parse(await readFile(path.join('frameworks', 'zartman', 'tests', '1-hurting-stalemate-and-an-offer.json'), 'utf8'));
    await store.writeGraph('t', 'r', await graphWriteFromJson(fixture.graph));
    const fresh = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0 });
    const offFile = path.join(dir, 'off-last-graph.json');
    const off = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, preloadMaxFacts: 0, lastGraphFile: offFile });
    try {
      fresh.preload('t', 'absent'); // replaced by the next (the latest graph wins), and would ask nothing
      fresh.preload('t', 'r');
      expect(await fresh.viewsPrepared('t', 'r', 60_000)).toBe(true);
      const ids = ['zartman', 'glasl', 'stedman'];
      expect(withoutCost((await fresh.frameworks('t', 'r', ids, { limits })).runs)).toEqual(withoutCost(await inProcess('r', ids)));
      fresh.preload('t', 'absent'); // a graph that does not exist: nothing asked, nothing thrown
      off.preload('t', 'r'); // preloads turned off
      expect(await off.viewsPrepared('t', 'r', 3_000)).toBe(false);
      await off.frameworks('t', 'r', ['glasl'], { limits });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(readFile(offFile, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' }); // nothing to preload after a restart either
    } finally {
      await fresh.close();
      await off.close();
    }
  }, 120_000);

  it('leave the view a call ran on moments ago in place: another graph\'s preload waits until it is left alone', async () => {
    await withPool({}, async (single) => {
      for (const [graphId, fixture] of [['busy', 'glasl/tests/1-violent-escalation.json'], ['next', 'zartman/tests/1-hurting-stalemate-and-an-offer.json']]) {
        await store.writeGraph('t', graphId, await graphWriteFromJson(JSON.parse(await readFile(path.join('frameworks', fixture), 'utf8')).graph));
      }
      await single.frameworks('t', 'busy', ['glasl'], { limits });
      single.preload('t', 'next');
      expect(await single.viewsPrepared('t', 'next', 3_000)).toBe(false); // the assess of 'busy' ended under 10 s ago
      expect(await single.viewsPrepared('t', 'next', 30_000)).toBe(true);
    });
  }, 120_000);

  it('switch graphs at most once in a while, and, with room for one view, say truly which view an engine holds after a call on another graph', async () => {
    const oneView = Math.max((await store.loadGraph('t', 'busy')).factCount, (await store.loadGraph('t', 'next')).factCount);
    await withPool({ viewFacts: oneView }, async (single) => {
      single.preload('t', 'busy');
      expect(await single.viewsPrepared('t', 'busy', 60_000)).toBe(true);
      // two clients between two graphs: the second graph's preload waits while the first one's view is fresh. A call on
      // it marks it fresh as it ends (a preload marks it when its snapshot is out, before the engines have taken it: on
      // a loaded machine their hand-over can outlast the window); another framework than the call below asks, which
      // the result cache would answer without a worker
      await single.frameworks('t', 'busy', ['kriesberg'], { limits });
      single.preload('t', 'next');
      expect(await single.viewsPrepared('t', 'next', 3_000)).toBe(false);
      expect(await single.viewsPrepared('t', 'next', 30_000)).toBe(true);
      expect(await single.viewsPrepared('t', 'busy', 0)).toBe(false);
      // a call hands its graph over itself, and the worker says so: 'next' is no longer held
      await single.frameworks('t', 'busy', ['glasl'], { limits });
      expect(await single.viewsPrepared('t', 'busy', 5_000)).toBe(true);
      expect(await single.viewsPrepared('t', 'next', 0)).toBe(false);
    });
  }, 120_000);

  it('keep the views of both graphs within the bound on views: a call on the one held first hands nothing over', async () => {
    await withPool({}, async (pool) => {
      const handOvers = () => [...pool.heldViews().values()].reduce((sum, view) => sum + view.handOvers, 0);
      pool.preload('t', 'busy');
      expect(await pool.viewsPrepared('t', 'busy', 60_000)).toBe(true);
      await pool.frameworks('t', 'busy', ['kriesberg'], { limits });
      pool.preload('t', 'next');
      expect(await pool.viewsPrepared('t', 'next', 30_000)).toBe(true);
      expect(await pool.viewsPrepared('t', 'busy', 0)).toBe(true);
      const before = handOvers();
      expect(withoutCost((await pool.frameworks('t', 'busy', ['glasl'], { limits })).runs)).toEqual(withoutCost(await inProcess('busy', ['glasl'])));
      expect(handOvers()).toBe(before);
      expect(await pool.viewsPrepared('t', 'next', 0)).toBe(true);
    });
  }, 120_000);

  it('are asked for again after a restart, for the graph last preloaded or assessed', async () => {
    const lastGraphFile = path.join(dir, 'last-preloaded-graph.json');
    await withPool({ lastGraphFile }, async (before) => {
      await before.frameworks('t', 'q', ['glasl'], { limits });
      for (let waited = 0; waited < 5_000 && !(await readFile(lastGraphFile, 'utf8').catch(() => '')).includes('"q"'); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(JSON.parse(await readFile(lastGraphFile, 'utf8'))).toEqual(['t', 'q']);
    });
    await withPool({ lastGraphFile }, async (restarted) => {
      expect(await restarted.viewsPrepared('t', 'q', 1_000)).toBe(false);
      await restarted.preloadLast();
      expect(await restarted.viewsPrepared('t', 'q', 60_000)).toBe(true);
    });
  }, 120_000);

  it('leave graphs above the preload bound to their first assess', async () => {
    const lastGraphFile = path.join(dir, 'bounded-last-graph.json');
    const named = () => readFile(lastGraphFile, 'utf8').then((text) => JSON.parse(text) as string[], () => undefined);
    await withPool({ preloadMaxFacts: 10, lastGraphFile }, async (bounded) => {
      // p (the stedman fixture and its write) holds far more than 10 facts: a preload of it is declined, and leaves no trace
      expect((await store.loadGraph('t', 'p')).nodes.size).toBeGreaterThan(10);
      bounded.preload('t', 'p');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await named()).toBeUndefined();
      await store.writeGraph('t', 'small', { nodes: [{ id: 'a', labels: ['Actor'], properties: { label: 'A' } }], edges: [] });
      await bounded.query('t', 'small', 'MATCH (a:Actor) RETURN count(a)', { limits: {} });
      expect(await bounded.viewsPrepared('t', 'small', 60_000)).toBe(true); // within the bound: preloaded
      await bounded.query('t', 'p', 'MATCH (a:Actor) RETURN count(a)', { limits: {} });
      expect(await bounded.viewsPrepared('t', 'p', 3_000)).toBe(false);
      const ids = ['stedman', 'glasl'];
      expect(withoutCost((await bounded.frameworks('t', 'p', ids, { limits })).runs)).toEqual(withoutCost(await inProcess('p', ids)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await named()).not.toEqual(['t', 'p']); // a restart does not preload it either
    });
  }, 120_000);
});
