import { BroadcastChannel, threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameworkRun } from '../../engine/frameworks/run.ts';
import { PrologBridge, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import { ReplicaSource, type ReplicaMessage } from '../../engine/reason/replicas.ts';
import type { ReasonReply } from '../../engine/reason/tasks.ts';
import { startWorker } from '../../engine/reason/worker-entry.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import type { GraphWrite, ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { threadWorkerSetup } from '../helpers/thread-worker.ts';

// A worker hands a graph's view to its engine in the background (the warm-up's hold, a preload) in parts, a
// turn of its event loop between two (engine/reason/worker-entry.ts, bridge.ts handOverInParts): a task on
// another graph that comes meanwhile runs between two parts, on its own graph's whole view, rather than
// waiting for the whole hand-over, and concludes as it would on an engine doing nothing else. The worker
// runs in this thread (its replicas and its engine), fed by a ReplicaSource over a real store.

/** `count` actors asserting claims of several types, a quarter of them hostile to the next actor. */
const conflict = (count: number, prefix: string): GraphWrite => ({
  nodes: [
    ...Array.from({ length: count }, (_, i) => ({ id: `${prefix}a${i}`, labels: ['Actor'], properties: { label: `${prefix} actor ${i}` } })),
    ...Array.from({ length: count }, (_, i) => ({
      id: `${prefix}c${i}`,
      labels: ['Claim'],
      properties: { type: ['RedLine', 'Demand', 'Offer', 'Threat'][i % 4]!, text: `claim ${i} on ${i % 3 ? 'the land' : 'the water'}`, valid_from: `2024-01-${String((i % 28) + 1).padStart(2, '0')}` },
    })),
  ],
  edges: [
    ...Array.from({ length: count }, (_, i) => ({ id: `${prefix}e${i}`, type: 'ASSERTS', from: `${prefix}a${i}`, to: `${prefix}c${i}` })),
    ...Array.from({ length: Math.floor(count / 4) }, (_, i) => ({ id: `${prefix}h${i}`, type: 'OPPOSES', from: `${prefix}a${4 * i}`, to: `${prefix}a${4 * i + 1}` })),
  ],
});

/** A run as it concludes (the inferences depend on what the engine kept from earlier runs on the view). */
const conclusions = (reply: ReasonReply | null) => {
  if (!reply?.ok) throw new Error(`task failed: ${JSON.stringify(reply)}`);
  return (reply.value as FrameworkRun[]).map(({ inferences: _, ...run }) => run);
};

describe('a hand-over in the background, made in parts', () => {
  let temp: TempStore;
  let store: ParleyStore;
  beforeAll(async () => {
    temp = await openTempStore('parley-parts-');
    store = temp.store;
    await store.writeGraph('t', 'small', conflict(40, 's'));
    await store.writeGraph('t', 'copy', conflict(40, 's'));
    await store.writeGraph('t', 'large', conflict(6_000, 'l'));
    await store.writeGraph('t', 'doomed', conflict(6_000, 'd'));
  });
  afterAll(() => temp.close());

  it('lets a task on another graph run between two parts and conclude as on an idle engine, then goes on', async () => {
    const channelName = 'parley-parts-test';
    const source = new ReplicaSource(store, channelName);
    try {
      const handle = await startWorker(threadWorkerSetup(channelName));
      const limits = { inferenceLimit: 20_000_000, timeLimitMs: 60_000 };
      const assess = async (graphId: string, frameworkIds: string[]) => handle({ kind: 'frameworks', at: (await source.current('t', graphId)).at, frameworkIds, limits });
      // the engine holds the small graph's view (a first task on it), and has run none of these frameworks on it
      await assess('small', ['zartman']);
      const frameworks = ['galtung', 'glasl', 'thomas_kilmann'];
      // the large graph's replica, and the warm-up's hold of its view: the worker begins its hand-over in the background
      await source.warm('t', 'large');
      const before = wholeHandOvers.count;
      await source.hold('t', 'large');
      for (let waited = 0; wholeHandOvers.count === before && waited < 60_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(wholeHandOvers.count).toBe(before + 1);
      const handedOver = () => source.prepared('t', 'large', 1, 0);
      expect(await handedOver()).toBe(false); // under way
      // the worker says it is taking the large graph's view (the router sends a task on it here, to make only the rest)
      for (let waited = 0; source.loadingOf(threadId) === undefined && waited < 5_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(source.loadingOf(threadId)).toBe(graphKey('t', 'large'));
      // a task on the small graph, mid-hand-over: it runs before the hand-over is done
      const between = await assess('small', frameworks);
      expect(await handedOver()).toBe(false);
      // the hand-over goes on after the task, to the whole view
      expect(await source.prepared('t', 'large', 1, 120_000)).toBe(true);
      expect(wholeHandOvers.count).toBe(before + 1);
      expect(source.loadingOf(threadId)).toBeUndefined(); // (said with the view held)
      // what the same frameworks conclude over the same records on a view no other work touched
      expect(conclusions(between)).toEqual(conclusions(await assess('copy', frameworks)));
      expect(conclusions(between).some((run) => run.applies)).toBe(true);
    } finally {
      source.close();
    }
  });

  it('abandons the hand-over of a replica dropped meanwhile: the facts so far dropped, nothing said to be prepared', async () => {
    const channelName = 'parley-parts-drop-test';
    const source = new ReplicaSource(store, channelName);
    // what the worker tells the main thread of the doomed graph's version
    const prepared: ReplicaMessage[] = [];
    const listener = new BroadcastChannel(channelName);
    listener.unref();
    listener.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if (message.type === 'prepared' && message.key === graphKey('t', 'doomed')) prepared.push(message);
    };
    try {
      await startWorker(threadWorkerSetup(channelName));
      // the doomed graph's facts in any slot of this thread's engine (read through a view of no records)
      const reader = new PrologBridge();
      const leftOver = () => Number(reader.solve("aggregate_all(count, ( current_module(M), sub_atom(M, 0, _, _, parley_view_), current_predicate(M:g_node/3), M:g_node(I, _, _), sub_atom(I, 0, 1, _, d) ), N)", ['N'], { graph: new GraphIndex() })[0][0]);
      await source.warm('t', 'doomed');
      const before = wholeHandOvers.count;
      await source.hold('t', 'doomed');
      for (let waited = 0; wholeHandOvers.count === before && waited < 60_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(leftOver()).toBeGreaterThan(0); // under way: its first part is in
      await store.deleteGraph('t', 'doomed'); // the workers drop the replica
      for (let waited = 0; leftOver() > 0 && prepared.length === 0 && waited < 60_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 500)); // (the turns a hand-over still going on would take)
      expect([prepared.length, leftOver()]).toEqual([0, 0]);
      expect(source.loadingOf(threadId)).toBeUndefined(); // (said when it gave up)
    } finally {
      listener.close();
      source.close();
    }
  });

  it('stops saying it takes a view in parts at the end of a task on another graph that took its slot', async () => {
    const channelName = 'parley-parts-evicted-test';
    const source = new ReplicaSource(store, channelName);
    // what the worker says of itself, in order: the views its engine holds and the one it is taking in parts
    const said: Extract<ReplicaMessage, { type: 'views' | 'prepared' }>[] = [];
    const listener = new BroadcastChannel(channelName);
    listener.unref();
    listener.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if ((message.type === 'views' || message.type === 'prepared') && message.worker === threadId) said.push(message);
    };
    try {
      // a bound on facts that holds the small graph's view alone: the large one's, taken in parts, has the whole
      // bound, and a task on the small graph drops it
      const smallFacts = (await source.current('t', 'small')).graph.factCount;
      const handle = await startWorker(threadWorkerSetup(channelName, { viewFacts: 2 * smallFacts }));
      const limits = { inferenceLimit: 20_000_000, timeLimitMs: 60_000 };
      const assess = async (graphId: string) => handle({ kind: 'frameworks', at: (await source.current('t', graphId)).at, frameworkIds: ['zartman'], limits });
      await assess('small'); // (its replica in, so that the task below waits for nothing)
      await source.warm('t', 'large');
      expect(await source.preload('t', 'large', 1_000_000)).toBe(true);
      for (let waited = 0; source.loadingOf(threadId) === undefined && waited < 60_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(source.loadingOf(threadId)).toBe(graphKey('t', 'large'));
      // a task on the small graph takes its view back, dropping the large one's facts so far; what the worker says
      // after it (a task moments later defers the hand-over's next part) no longer has it taking the large view
      const before = said.length;
      expect((await assess('small'))?.ok).toBe(true);
      for (let waited = 0; said.length === before && waited < 5_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(said[before]?.views).toEqual([graphKey('t', 'small')]);
      expect(said[before]?.loading).toBeUndefined();
      expect(await source.prepared('t', 'large', 1, 0)).toBe(false);
    } finally {
      listener.close();
      source.close();
    }
  });
});
