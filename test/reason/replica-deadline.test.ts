import { rm } from 'node:fs/promises';
import path from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitError } from '../../engine/errors.ts';
import type { CallGate } from '../../engine/gate.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import type { ReplicaSource } from '../../engine/reason/replicas.ts';
import type { ReasoningWorkers } from '../../engine/reason/workers.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { openTempPool, type TempPool } from '../helpers/reasoning-pool.ts';
import { openTempStore } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

// The call deadline of a task waiting for the replica its worker is building (a graph above the preload bound) answers the
// caller, but does not end the thread: the copy, minutes of work at ten million facts, is finished for the next task
// (workers.ts ReasoningWorkers.replicaDeadline). Observed through the replicas the workers say they hold.
const COUNT_ACTORS = 'MATCH (a:Actor) RETURN count(a) AS n';

describe('a call on a graph above the preload bound that passes its deadline while the replica is built', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  let channel: BroadcastChannel;
  beforeAll(async () => {
    // graphs written, then the store closed and opened again: a worker builds each replica by reading its snapshot file,
    // once the main thread gives it a turn (replicas.ts ReplicaSource's snapshotReadBytes), which this test holds while the
    // call passes its deadline: the build lasts as long as the test says, whatever the machine's speed or load (a copy
    // of 600,000 actors in chunks took 2.3-3.3 s at load 13-16, an unmeasured margin over the deadline on a faster machine)
    const temp = await openTempStore('parley-replica-deadline-');
    dir = temp.dir;
    const nodes = Array.from({ length: 2_000 }, (_, i) => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}` } }));
    await temp.store.writeGraph('t', 'big', { nodes, edges: [] }); // 4,000 facts, above the bound of 1,000
    await temp.store.writeGraph('t', 'small', { nodes: nodes.slice(0, 2), edges: [] });
    await temp.store.close();
    store = await ParleyStore.open(path.join(dir, 'store'));
    // one worker, every query in it
    pool = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, preloadMaxFacts: 1_000, callTimeoutMs: 1_000 });
    channel = new BroadcastChannel((pool as unknown as { source: ReplicaSource }).source.channelName);
  }, 120_000);
  afterAll(async () => {
    channel.close();
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
    // another reader's turn held, of a file larger than any bound (read alone): the worker's read of big's file waits for it
    const granted: unknown[] = [];
    channel.onmessage = (event) => granted.push(event.data);
    channel.postMessage({ type: 'read-ask', to: 'replica-deadline-test', read: 1, worker, bytes: 2 ** 50 });
    expect(await until(() => granted.some((message) => (message as { type: string; to?: string }).to === 'replica-deadline-test'), 10_000)).toBe(true);
    const failed = await pool.query('t', 'big', COUNT_ACTORS, { limits: {} }).then(() => undefined, (error: unknown) => error);
    expect(failed).toBeInstanceOf(LimitError);
    expect((failed as LimitError).code).toBe('reasoning_timeout');
    // the task ended at the deadline (its worker told to end it, well within ABANDON_GRACE_MS), not left waiting for the copy
    const { gate } = pool as unknown as { gate: CallGate };
    expect(await until(() => gate.pending === 0, 5_000)).toBe(true);
    const holds = (graphId: string) => (pool.heldReplicas().get(worker!) ?? []).some((replica) => replica.graphId === graphId);
    expect(holds('big')).toBe(false);
    channel.postMessage({ type: 'read-done', to: 'replica-deadline-test', read: 1 });
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
