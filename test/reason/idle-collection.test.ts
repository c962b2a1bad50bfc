import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wholeHandOvers } from '../../engine/prolog/bridge.ts';
import { idleCollection } from '../../engine/reason/idle-collection.ts';
import { ReplicaSource } from '../../engine/reason/replicas.ts';
import { startWorker } from '../../engine/reason/worker-entry.ts';
import type { GraphWrite, ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { threadWorkerSetup } from '../helpers/thread-worker.ts';
import { until } from '../helpers/until.ts';

// A reasoning worker that has nothing left to do collects the garbage a whole hand-over left in its heap, once there
// is more of it than idleCollection.bytes, and after a replica's whole hand-over whatever the garbage, twice, so that
// V8 shrinks the young generation the hand-over grew (engine/reason/idle-collection.ts, worker-entry.ts). The worker
// runs in this thread (its replicas and its engine), fed by a ReplicaSource over a real store.

const graph = (count: number, prefix: string): GraphWrite => ({
  nodes: Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, labels: [i % 2 ? 'Actor' : 'Claim'], properties: (i % 2 ? { label: `actor ${i}` } : { type: 'Demand', text: `claim ${i} on the land` }) as Record<string, string> })),
  edges: Array.from({ length: count - 1 }, (_, i) => ({ id: `${prefix}e${i}`, type: 'ASSERTS', from: `${prefix}${i | 1}`, to: `${prefix}${i & ~1}` })),
});

describe("an idle worker's garbage", () => {
  let temp: TempStore;
  let store: ParleyStore;
  const { bytes: bound, settleMs } = idleCollection;
  beforeAll(async () => {
    temp = await openTempStore('parley-idle-collection-');
    store = temp.store;
    await store.writeGraph('t', 'collected', graph(8_000, 'c'));
    await store.writeGraph('t', 'waited', graph(8_000, 'w'));
    await store.writeGraph('t', 'settled', graph(8_000, 's'));
  });
  afterEach(() => {
    Object.assign(idleCollection, { bytes: bound, settleMs });
  });
  afterAll(() => temp.close());

  const setup = (channelName: string) => threadWorkerSetup(channelName, { imageAfterIdleMs: 600_000 });

  /** A worker in this thread, its hand-over of `graphId`'s view made in the background (a hold). */
  async function handOver(channelName: string, graphId: string): Promise<{ source: ReplicaSource }> {
    const source = new ReplicaSource(store, channelName);
    await startWorker(setup(channelName));
    const before = wholeHandOvers.count;
    await source.warm('t', graphId);
    await source.hold('t', graphId);
    expect(await source.prepared('t', graphId, 1, 120_000)).toBe(true);
    expect(wholeHandOvers.count).toBe(before + 1);
    return { source };
  }

  it('is collected once the hand-over is done and it exceeds the bound', async () => {
    idleCollection.bytes = 4 * 2 ** 20;
    const made = idleCollection.made;
    const { source } = await handOver('parley-idle-collection-test', 'collected');
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // (the worker's idle turns after the hand-over)
      expect(idleCollection.made).toBeGreaterThan(made);
      // what the heap holds above what the last collection left is under the bound: the hand-over's garbage is gone
      expect(getHeapStatistics().used_heap_size - idleCollection.live).toBeLessThan(idleCollection.bytes);
    } finally {
      source.close();
    }
  });

  it('is not collected while a task waits for its replica\'s snapshot', { timeout: 60_000 }, async () => {
    const source = new ReplicaSource(store, 'parley-idle-in-task-test');
    try {
      const { at } = await source.current('t', 'waited');
      idleCollection.bytes = 64 * 2 ** 10; // (due from the start: the worker's first turn would collect)
      const run = await startWorker(setup('parley-idle-in-task-test'));
      const made = idleCollection.made;
      // the task given at once, before the worker's first idle turn: it waits for the snapshot over the turns after
      const reply = await run({ kind: 'query', at, text: 'MATCH (a:Actor) RETURN count(a) AS n', limits: {} });
      expect(reply?.ok).toBe(true);
      expect(idleCollection.made).toBe(made);
      // idle once the task is done (and the view's hand-over it left to do): then collected
      expect(await until(() => idleCollection.made > made, 30_000)).toBe(true);
    } finally {
      source.close();
    }
  });

  it('is collected after a whole hand-over, under the bound, and again once the thread allocates little, when the young generation shrinks', { timeout: 60_000 }, async () => {
    idleCollection.bytes = 2 ** 40;
    idleCollection.settleMs = 5_500; // (past V8's 5 s window of allocation throughput: the default leaves a margin)
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
    const made = idleCollection.made;
    const { source } = await handOver('parley-idle-settled-test', 'settled');
    try {
      // once idle: the hand-over's collection, whatever its garbage
      expect(await until(() => idleCollection.made === made + 1, 5_000)).toBe(true);
      const grown = young();
      // then the second, settleMs later, and no more
      expect(await until(() => idleCollection.made === made + 2, 10_000)).toBe(true);
      expect(young()).toBeLessThan(grown);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(idleCollection.made).toBe(made + 2);
      // a write's records, added to the replica and to the view the engine holds, are no whole hand-over: not collected
      const version = (await source.current('t', 'settled')).at.version;
      await store.writeGraph('t', 'settled', { nodes: [{ id: 'added', labels: ['Actor'], properties: { label: 'a late actor' } }], edges: [] });
      expect((await source.current('t', 'settled')).at.version).toBeGreaterThan(version);
      expect(await source.prepared('t', 'settled', 1, 30_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // (the worker's idle turns after the addition)
      expect(idleCollection.made).toBe(made + 2);
    } finally {
      source.close();
    }
  });
});
