import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitError } from '../../engine/errors.ts';
import type { ReasoningPool } from '../../engine/reason/pool.ts';
import type { ReplicaSource } from '../../engine/reason/replicas.ts';
import type { ReasoningWorkers } from '../../engine/reason/workers.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { openTempPool, type TempPool } from '../helpers/reasoning-pool.ts';
import { until } from '../helpers/until.ts';

// The call deadline of a task waiting for the replica its worker is building (a graph above the preload bound) answers the
// caller, but does not end the thread: the copy, minutes of work at ten million facts, is finished for the next task
// (workers.ts ReasoningWorkers.replicaDeadline). Observed through the replicas the workers say they hold.
const ACTORS = 600_000;
const COUNT_ACTORS = 'MATCH (a:Actor) RETURN count(a) AS n';

describe('a call on a graph above the preload bound that passes its deadline while the replica is built', () => {
  let temp: TempPool;
  let store: ParleyStore;
  let pool: ReasoningPool;
  beforeAll(async () => {
    // one worker, every query in it; a deadline far shorter than the big graph's copy takes to build (2.3-3.3 s here at load
    // 13-16; at 200k actors it took 1.5-1.9 s, and the test failed in 5 of 11 runs)
    temp = await openTempPool('parley-replica-deadline-', { workers: 1, inlineBudgetMs: 0, preloadMaxFacts: 1_000, callTimeoutMs: 1_000 });
    ({ store, pool } = temp);
    const nodes = Array.from({ length: ACTORS }, (_, i) => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}` } }));
    await store.writeGraph('t', 'big', { nodes, edges: [] }); // 1.2M facts, 120 snapshot chunks
    await store.writeGraph('t', 'small', { nodes: nodes.slice(0, 2), edges: [] });
  }, 120_000);
  afterAll(() => temp.close());

  it('fails the call with its time limit, and the worker finishes the copy rather than being ended', async () => {
    // the worker started (a preload starts it, well within no deadline), holding a replica: what would be lost with its thread
    pool.preload('t', 'small');
    expect(await pool.viewsPrepared('t', 'small', 60_000, 1)).toBe(true);
    expect(await until(() => pool.heldReplicas().size === 1, 10_000)).toBe(true);
    const [worker] = [...pool.heldReplicas().keys()];
    expect(worker).toBeDefined();
    const failed = await pool.query('t', 'big', COUNT_ACTORS, { limits: {} }).then(() => undefined, (error: unknown) => error);
    expect(failed).toBeInstanceOf(LimitError);
    expect((failed as LimitError).code).toBe('reasoning_timeout');
    const holds = (graphId: string) => (pool.heldReplicas().get(worker!) ?? []).some((replica) => replica.graphId === graphId);
    expect(await until(() => holds('big'), 60_000)).toBe(true);
    expect(holds('small')).toBe(true);
    expect([...pool.heldReplicas().keys()]).toEqual([worker]);
  }, 120_000);

  it('ends at once a task on such a graph whose call\'s signal has already aborted', async () => {
    const { workers } = pool as unknown as { workers: ReasoningWorkers };
    const at = { key: graphKey('t', 'big'), generation: (await store.getGraphMeta('t', 'big')).generation, version: 0 };
    const started = Date.now();
    const ran = workers.run({ kind: 'query', at, text: COUNT_ACTORS, limits: {} }, AbortSignal.abort(), true);
    await expect(ran).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a worker that stops', () => {
  let temp: TempPool;
  beforeAll(async () => {
    temp = await openTempPool('parley-replica-stop-', { workers: 1, inlineBudgetMs: 0, workerIdleMs: 1_000 });
    await temp.store.writeGraph('t', 'g', { nodes: [{ id: 'a', labels: ['Actor'], properties: { label: 'a' } }], edges: [] });
  }, 120_000);
  afterAll(() => temp.close());

  it('leaves no record of the replicas it held', async () => {
    const { pool } = temp;
    await pool.query('t', 'g', COUNT_ACTORS, { limits: {} });
    expect(await until(() => pool.heldReplicas().size === 1, 10_000)).toBe(true);
    const [worker] = [...pool.heldReplicas().keys()];
    const { source } = pool as unknown as { source: ReplicaSource };
    expect(source.replicaBuiltMs(worker!, graphKey('t', 'g'))).toBeDefined();
    // idle past workerIdleMs: piscina ends the thread
    expect(await until(() => pool.heldReplicas().size === 0, 60_000)).toBe(true);
    expect(await until(() => source.replicaBuiltMs(worker!, graphKey('t', 'g')) === undefined, 5_000)).toBe(true);
  }, 120_000);
});
