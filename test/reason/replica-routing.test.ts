import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { until } from '../helpers/until.ts';

// A graph above the preload bound is made into a replica only by the workers whose tasks ask for it (replicas.ts
// onlyAsked); its later tasks go to the worker holding or building that copy (workers.ts ViewRouter), not to a free
// one that would make a second. Observed through the replicas the workers say they hold (ReasoningPool.heldReplicas).
const ACTORS = 20_000;
const COUNT_ACTORS = 'MATCH (a:Actor) RETURN count(a) AS n';

describe('the tasks of a graph above the preload bound', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-replica-routing-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
    const nodes = Array.from({ length: ACTORS }, (_, i) => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}` } }));
    await store.writeGraph('t', 'big', { nodes, edges: [] }); // 40,000 facts
    await store.writeGraph('t', 'small', { nodes: nodes.slice(0, 2), edges: [] });
    // every query in a worker; the big graph above the bound, the small one within it
    pool = await ReasoningPool.open(store, { workers: 2, inlineBudgetMs: 0, preloadMaxFacts: 1_000 });
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Per graph id, how many workers say they hold its replica. */
  const copies = () => {
    const held: Record<string, number> = {};
    for (const graphs of pool.heldReplicas().values()) for (const { graphId } of graphs) held[graphId] = (held[graphId] ?? 0) + 1;
    return held;
  };

  it('go to the worker that holds or builds its replica: two tasks at once and one after make one copy, not two', async () => {
    const answers = await Promise.all([1, 2].map(() => pool.query('t', 'big', COUNT_ACTORS, { limits: {} })));
    expect(answers.map(({ result }) => result.rows)).toEqual([[[BigInt(ACTORS)]], [[BigInt(ACTORS)]]]);
    // both workers run (a call starts them all once it is answered): the third task has a free worker without the copy
    const deadline = Date.now() + 30_000;
    while ((await pool.workerMemory(false, 500)).length < 2 && Date.now() < deadline);
    expect((await pool.workerMemory(false, 500)).length).toBe(2);
    expect((await pool.query('t', 'big', COUNT_ACTORS, { limits: {} })).result.rows).toEqual([[BigInt(ACTORS)]]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(copies().big).toBe(1);
    // a graph within the bound is on every worker, as before: its snapshot makes a replica in each
    expect((await pool.query('t', 'small', COUNT_ACTORS, { limits: {} })).result.rows).toEqual([[2n]]);
    expect(await until(() => copies().small === 2, 30_000)).toBe(true);
    expect(copies().big).toBe(1);
  }, 120_000);

  it('go to the copy\'s worker whatever the graph cache holds: the bound is read from the facts of the version the tasks read', async () => {
    // (after the test above: one copy of the big graph, both workers running) the graph cache holding no big graph
    // whenever it is asked, as when another graph's load evicts it between a call's load and its tasks' routing
    const loadedGraph = store.loadedGraph.bind(store);
    const evicted = vi.spyOn(store, 'loadedGraph').mockImplementation((tenant, graphId) => (graphId === 'big' ? undefined : loadedGraph(tenant, graphId)));
    try {
      const answers = await Promise.all([1, 2].map(() => pool.query('t', 'big', COUNT_ACTORS, { limits: {} })));
      expect(answers.map(({ result }) => result.rows)).toEqual([[[BigInt(ACTORS)]], [[BigInt(ACTORS)]]]);
      expect((await pool.query('t', 'big', COUNT_ACTORS, { limits: {} })).result.rows).toEqual([[BigInt(ACTORS)]]);
      expect(evicted).toHaveBeenCalled();
    } finally {
      evicted.mockRestore();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(copies().big).toBe(1);
  }, 120_000);
});
