/**
 * When a reasoning worker (worker-entry.ts, run in this thread) grows its engine's memory ahead of a view's hand-over
 * (bridge.ts reserveViewMemoryAhead, as a snapshot begins), and when it does not. In a file of its own: the first test
 * needs an engine not yet started, the second an engine holding no view.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, generatedRecords } from '../../bench/conflict-graph.ts';
import { viewMemoryReserve, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import type { ReplicaMessage } from '../../engine/reason/replicas.ts';
import { startWorker } from '../../engine/reason/worker-entry.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { threadWorkerSetup } from '../helpers/thread-worker.ts';
import { until } from '../helpers/until.ts';

describe("a worker's engine memory grown ahead of a view", () => {
  const bound = viewMemoryReserve.fromFacts;
  afterAll(() => {
    viewMemoryReserve.fromFacts = bound;
  });

  // the worker opens its replica channel before its engine has started (its rule modules load meanwhile, so that a
  // snapshot another worker asked for is kept): there is no engine memory to grow yet
  it('is not grown for a large snapshot beginning while the engine starts, and the worker starts', { timeout: 120_000 }, async () => {
    const channelName = 'parley-reserve-start-test';
    const channel = new BroadcastChannel(channelName);
    const made = viewMemoryReserve.made;
    const started = startWorker(threadWorkerSetup(channelName));
    const begin: ReplicaMessage = { type: 'snapshot-begin', key: graphKey('t', 'big'), generation: 'g1', id: 1, version: 1, total: viewMemoryReserve.fromFacts + 1 };
    channel.postMessage(begin);
    try {
      // heard while the rule modules load (an error thrown there would end a pool's worker)
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(started).resolves.toBeTypeOf('function');
      expect(viewMemoryReserve.made).toBe(made);
    } finally {
      channel.close();
    }
  });

  // WebAssembly memory is never given back: grown for a view this worker will not hand over, V8 would count it for good
  it('is not grown for a snapshot another worker asked for whose view would not fit beside the one held', { timeout: 120_000 }, async () => {
    const { nodes, edges } = generatedRecords(generate(2_000).write, '2024-01-01T00:00:00.000Z');
    const total = nodes.length + edges.length;
    viewMemoryReserve.fromFacts = total;
    const channelName = 'parley-reserve-beside-test';
    const channel = new BroadcastChannel(channelName);
    const prepared: string[] = [];
    channel.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if (message.type === 'prepared') prepared.push(message.key);
    };
    const post = (message: ReplicaMessage) => channel.postMessage(message);
    const send = (key: string) => {
      post({ type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 1, total });
      post({ type: 'snapshot-chunk', key, generation: 'g1', id: 1, nodes, edges });
      post({ type: 'snapshot-end', key, generation: 'g1', id: 1 });
    };
    // room for one view of this graph's facts, not two
    await startWorker(threadWorkerSetup(channelName, { viewFacts: total * 2, imageAfterIdleMs: 600_000 }));
    try {
      const [held, other] = [graphKey('t', 'held'), graphKey('t', 'other')];
      const made = viewMemoryReserve.made;
      send(held);
      expect(await until(() => prepared.includes(held), 60_000)).toBe(true);
      expect(viewMemoryReserve.made).toBe(made + 1); // (grown for the view it took)
      const handOvers = wholeHandOvers.count;
      send(other);
      post({ type: 'preload', key: held, generation: 'g1', version: 1 }); // (a message after the other's end: it has been read)
      expect(await until(() => prepared.filter((key) => key === held).length === 2, 10_000)).toBe(true);
      expect([viewMemoryReserve.made, wholeHandOvers.count]).toEqual([made + 1, handOvers]);
    } finally {
      channel.close();
    }
  });
});
