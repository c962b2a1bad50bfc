import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitError } from '../../engine/errors.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { until } from '../helpers/until.ts';

// The call deadline of a task waiting for the replica its worker is building (a graph above the preload bound) answers the
// caller, but does not end the thread: the copy, minutes of work at ten million facts, is finished for the next task
// (workers.ts ReasoningWorkers.replicaDeadline). Observed through the replicas the workers say they hold.
const ACTORS = 200_000;
const COUNT_ACTORS = 'MATCH (a:Actor) RETURN count(a) AS n';

describe('a call on a graph above the preload bound that passes its deadline while the replica is built', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-replica-deadline-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
    const nodes = Array.from({ length: ACTORS }, (_, i) => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}` } }));
    await store.writeGraph('t', 'big', { nodes, edges: [] }); // 400,000 facts, 40 snapshot chunks
    await store.writeGraph('t', 'small', { nodes: nodes.slice(0, 2), edges: [] });
    // one worker, every query in it; a deadline far shorter than the big graph's copy takes to build
    pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, preloadMaxFacts: 1_000, callTimeoutMs: 1_000 });
  }, 120_000);
  afterAll(async () => {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

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
});
