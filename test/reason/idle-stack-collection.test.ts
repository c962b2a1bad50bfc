import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate, generatedIndex } from '../../bench/conflict-graph.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { addedHandOvers, stackInUse } from '../../engine/prolog/bridge.ts';
import { stackCollection } from '../../engine/reason/idle-collection.ts';
import { ReplicaSource } from '../../engine/reason/replicas.ts';
import { startWorker } from '../../engine/reason/worker-entry.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { threadWorkerSetup } from '../helpers/thread-worker.ts';
import { until } from '../helpers/until.ts';

// A reasoning worker that has taken a view or a write's records in the background collects its engine's global stack
// once it is idle, when the stack holds more garbage than stackCollection.bytes, so that the next task's first framework
// run does not pay for the hand-over's garbage (engine/reason/idle-collection.ts, worker-entry.ts); never while a task is
// under way. The worker runs in this thread (its replicas and its engine), fed by a ReplicaSource over a real store.

describe("an idle worker's engine stack", () => {
  let temp: TempStore;
  let store: ParleyStore;
  const { bytes } = stackCollection;
  // the collections counted while the test had a task in the worker's hands, and whether it has one now
  let madeInTask = 0;
  let taskInFlight = false;
  let made = stackCollection.made;
  beforeAll(async () => {
    temp = await openTempStore('parley-idle-stack-');
    store = temp.store;
    await store.writeGraph('t', 'held', generate(3_000).write);
    await store.writeGraph('t', 'asked', generate(20_000).write);
    // (each collection noted as it is counted: one inside a task would be seen here)
    Object.defineProperty(stackCollection, 'made', {
      get: () => made,
      set: (value: number) => {
        if (taskInFlight) madeInTask++;
        made = value;
      },
      configurable: true,
    });
  });
  afterEach(() => {
    stackCollection.bytes = bytes;
  });
  afterAll(() => temp.close());

  it('is collected once idle after a background hand-over and after a write\'s records, not while a task is under way', { timeout: 120_000 }, async () => {
    stackCollection.bytes = 1; // (any garbage: the test's graphs leave little)
    const channelName = 'parley-idle-stack-test';
    const source = new ReplicaSource(store, channelName);
    try {
      // a view this thread's engine took before the worker started: the stack is to be collected from the worker's first
      // idle turn, but a task given at once waits for its replica's snapshot over many turns of the event loop
      (await loadRuleModules()).registry.handOver({ graph: generatedIndex(generate(3_000).write, new Date().toISOString()) });
      const before = stackCollection.made;
      const { at } = await source.current('t', 'asked');
      const run = await startWorker(threadWorkerSetup(channelName, { imageAfterIdleMs: 600_000 }));
      taskInFlight = true;
      const reply = await run({ kind: 'frameworks', at, frameworkIds: ['glasl'], limits: { inferenceLimit: 50_000_000, timeLimitMs: 60_000, maxFindings: 25 } });
      taskInFlight = false;
      expect(reply?.ok).toBe(true);
      expect(madeInTask).toBe(0);
      // once the worker is idle after it: collected
      expect(await until(() => stackCollection.made === before + 1, 10_000)).toBe(true);

      // a hold's hand-over in the background: collected once idle after it
      const freed = stackCollection.freedBytes;
      await source.warm('t', 'held');
      await source.hold('t', 'held');
      expect(await source.prepared('t', 'held', 1, 60_000)).toBe(true);
      expect(await until(() => stackCollection.made === before + 2, 10_000)).toBe(true);
      expect(stackCollection.freedBytes).toBeGreaterThan(freed);
      expect(stackInUse()).toBeLessThanOrEqual(stackCollection.live + 2 ** 20);

      // a write's records, added to the view held in the background (a delta): collected again once idle
      const additions = addedHandOvers.count;
      await store.writeGraph('t', 'held', { nodes: [{ id: 'late_actor', labels: ['Actor'], properties: { label: 'A late actor', role: 'party', actor_type: 'state' }, confidence: 0.9 }], edges: [] });
      expect(await until(() => addedHandOvers.count === additions + 1, 30_000)).toBe(true);
      expect(await until(() => stackCollection.made === before + 3, 10_000)).toBe(true);
    } finally {
      taskInFlight = false;
      source.close();
    }
  });

  it('is left to the engine when the garbage is under the bound', { timeout: 120_000 }, async () => {
    stackCollection.bytes = 2 ** 40;
    const channelName = 'parley-idle-stack-bound-test';
    const source = new ReplicaSource(store, channelName);
    const write = async (id: string) => {
      const additions = addedHandOvers.count;
      await store.writeGraph('t', 'held', { nodes: [{ id, labels: ['Actor'], properties: { label: `actor ${id}` } }], edges: [] });
      expect(await until(() => addedHandOvers.count > additions, 30_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // (the worker's idle turns after the addition)
    };
    try {
      await startWorker(threadWorkerSetup(channelName, { imageAfterIdleMs: 600_000 }));
      const before = stackCollection.made;
      await source.warm('t', 'held');
      await source.hold('t', 'held');
      expect(await source.prepared('t', 'held', 1, 60_000)).toBe(true);
      await write('later_actor');
      expect(stackCollection.made).toBe(before);
      // the same addition with the bound met: collected
      stackCollection.bytes = 1;
      await write('latest_actor');
      expect(stackCollection.made).toBe(before + 1);
    } finally {
      source.close();
    }
  });
});
