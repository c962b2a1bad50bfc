/**
 * The engine's memory grown ahead of a large view's hand-over (engine/prolog/bridge.ts reserveViewMemory, from
 * RESERVE_FROM_FACTS facts): no test graph is that large, so the bound is lowered here to hand small views over
 * through the same calls of the engine's allocator (Emscripten's _malloc and _free, which a swipl-wasm that no longer
 * exported them would fail at), from the records and from an image. The view is the same as without.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, generatedRecords } from '../../bench/conflict-graph.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { PrologBridge, handOverImage, startProlog, viewImage, viewMemoryReserve, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import type { ReplicaMessage } from '../../engine/reason/replicas.ts';
import { writeViewImage } from '../../engine/reason/view-images.ts';
import { startWorker } from '../../engine/reason/worker-entry.ts';
import { idleCollection } from '../../engine/reason/idle-collection.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { copyOf } from '../helpers/kept-answers.ts';
import { threadWorkerSetup } from '../helpers/thread-worker.ts';
import { until } from '../helpers/until.ts';
import { viewFactsOf } from '../helpers/view-facts.ts';

await startProlog();

const recorded_at = '2024-01-01T00:00:00.000Z';
const actors: NodeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}` }, confidence: 1, provenance: [], recorded_at }));
const claims: NodeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, labels: ['Claim'], properties: { type: 'Demand', text: `Claim ${i} on water`, valid_from: '2024-01-02' }, confidence: 1, provenance: [], recorded_at }));
const edges: EdgeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, type: 'ASSERTS', from: `a${i}`, to: `c${i}`, properties: {}, confidence: 0.8, provenance: [], recorded_at }));
const graph = GraphIndex.fromRecords([...actors, ...claims], edges);

describe("the engine's memory grown ahead of a view's hand-over", () => {
  const bridge = new PrologBridge();
  const factsOf = (of: GraphIndex) => viewFactsOf(bridge, of);
  const bound = viewMemoryReserve.fromFacts;
  afterAll(() => {
    viewMemoryReserve.fromFacts = bound;
  });

  it('is grown through the allocator for a view at the bound, from the records and from an image, and the view is the same as without', () => {
    const made = viewMemoryReserve.made;
    const without = factsOf(graph);
    expect(viewMemoryReserve.made).toBe(made); // (a small view grows the memory as it goes)
    const image = viewImage(graph)!;
    expect(image).toBeDefined();
    viewMemoryReserve.fromFacts = graph.factCount;
    expect(factsOf(copyOf(graph))).toEqual(without);
    expect(viewMemoryReserve.made).toBe(made + 1);
    const fromImage = copyOf(graph);
    expect(handOverImage({ graph: fromImage }, image)).toBe(true);
    expect(viewMemoryReserve.made).toBe(made + 2);
    expect(factsOf(fromImage)).toEqual(without);
  });
});

// A reasoning worker (worker-entry.ts, run in this thread) grows its engine's memory when a snapshot it will hand over
// begins, its records known, rather than at the hand-over, when the replica fills the thread's heap and the collection
// V8 answers the growth with runs over it (at 1M facts 0.16-0.74 s); the hand-over then grows it no more. A warm
// snapshot (sent unasked after a restart) is kept, not handed over: nothing is grown for it until a hold asks for its view.
describe("a worker's engine memory grown as a snapshot begins", () => {
  const bound = viewMemoryReserve.fromFacts;
  afterAll(() => {
    viewMemoryReserve.fromFacts = bound;
  });
  const { nodes, edges } = generatedRecords(generate(2_000).write, recorded_at);

  /** A worker in this thread on a channel of its own (its setup's `overrides`), that channel as the main thread's side, the worker's 'prepared' messages and needs, and its task runner. */
  async function workerOn(channelName: string, overrides: Parameters<typeof threadWorkerSetup>[1] = {}) {
    const channel = new BroadcastChannel(channelName);
    const prepared: string[] = [];
    const needs: Extract<ReplicaMessage, { type: 'need' }>[] = [];
    channel.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if (message.type === 'prepared') prepared.push(message.key);
      if (message.type === 'need') needs.push(message);
    };
    const run = await startWorker(threadWorkerSetup(channelName, { imageAfterIdleMs: 600_000, ...overrides }));
    return { channel, prepared, needs, run };
  }
  const post = (channel: BroadcastChannel, message: ReplicaMessage) => channel.postMessage(message);
  const sendRecords = (channel: BroadcastChannel, key: string) => {
    post(channel, { type: 'snapshot-chunk', key, generation: 'g1', id: 1, nodes, edges });
    post(channel, { type: 'snapshot-end', key, generation: 'g1', id: 1 });
  };

  it('is grown once, before any record arrives, for a snapshot the worker hands over; for a warm one only by the hold that asks for its view', { timeout: 120_000 }, async () => {
    viewMemoryReserve.fromFacts = nodes.length + edges.length;
    const { channel, prepared } = await workerOn('parley-reserve-ahead-test');
    try {
      const asked = graphKey('t', 'asked');
      const made = viewMemoryReserve.made;
      const handOvers = wholeHandOvers.count;
      post(channel, { type: 'snapshot-begin', key: asked, generation: 'g1', id: 1, version: 1, total: nodes.length + edges.length });
      // grown at the beginning: no record of the graph has been sent
      expect(await until(() => viewMemoryReserve.made === made + 1, 10_000)).toBe(true);
      sendRecords(channel, asked);
      expect(await until(() => prepared.includes(asked), 60_000)).toBe(true);
      expect(wholeHandOvers.count).toBe(handOvers + 1);
      expect(viewMemoryReserve.made).toBe(made + 1); // (the hand-over grew it no more)

      const warm = graphKey('t', 'warm');
      post(channel, { type: 'snapshot-begin', key: warm, generation: 'g1', id: 1, version: 1, total: nodes.length + edges.length, warm: true });
      sendRecords(channel, warm);
      post(channel, { type: 'preload', key: asked, generation: 'g1', version: 1 }); // (a message after the warm snapshot's end: it has been read)
      expect(await until(() => prepared.filter((key) => key === asked).length === 2, 10_000)).toBe(true);
      expect([viewMemoryReserve.made, wholeHandOvers.count]).toEqual([made + 1, handOvers + 1]); // kept, not handed over
      post(channel, { type: 'preload', key: warm, generation: 'g1', version: 1, hold: true });
      expect(await until(() => prepared.includes(warm), 60_000)).toBe(true);
      expect([viewMemoryReserve.made, wholeHandOvers.count]).toEqual([made + 2, handOvers + 2]); // grown by its hand-over
    } finally {
      channel.close();
    }
  });

  it('is not grown for the snapshot a query asked for (it hands a view over only when it calls a rule), and is for a framework run\'s', { timeout: 120_000 }, async () => {
    viewMemoryReserve.fromFacts = nodes.length + edges.length;
    // (above the preload bound: grown only for what this worker asked, and each snapshot comes on its own channel)
    const { channel, needs, run } = await workerOn('parley-reserve-query-test', { preloadMaxFacts: 1 });
    try {
      const answered = async (key: string, task: (at: { key: string; generation: string; version: number }) => Parameters<typeof run>[0]) => {
        const at = { key, generation: 'g1', version: 1 };
        const reply = run(task(at));
        expect(await until(() => needs.some((need) => need.key === key), 10_000)).toBe(true);
        const own = new BroadcastChannel(needs.find((need) => need.key === key)!.to!);
        post(own, { type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 1, total: nodes.length + edges.length });
        sendRecords(own, key);
        const replied = await reply;
        own.close();
        expect(replied).toMatchObject({ ok: true });
      };
      const made = viewMemoryReserve.made;
      await answered(graphKey('t', 'queried'), (at) => ({ kind: 'query', at, text: 'MATCH (a:Actor) RETURN count(a) AS n', limits: {} }));
      expect(viewMemoryReserve.made).toBe(made);
      await answered(graphKey('t', 'assessed'), (at) => ({ kind: 'frameworks', at, frameworkIds: ['zartman'], limits: { inferenceLimit: 20_000_000, timeLimitMs: 60_000 } }));
      expect(viewMemoryReserve.made).toBe(made + 1); // (grown as its snapshot began, the hand-over no more)
    } finally {
      channel.close();
    }
  });

  it("keeps the view image read ahead through the worker's idle collection while that replica is still building", { timeout: 120_000 }, async () => {
    viewMemoryReserve.fromFacts = nodes.length + edges.length;
    const garbage = idleCollection.bytes;
    const folder = mkdtempSync(path.join(tmpdir(), 'parley-image-kept-'));
    const { channel, prepared } = await workerOn('parley-image-kept-test');
    try {
      const key = graphKey('t', 'imaged');
      const source = GraphIndex.fromRecords(nodes, edges);
      viewFactsOf(new PrologBridge(), source);
      const file = path.join(folder, 'view.image');
      await writeViewImage(file, { tenant: 't', graphId: 'imaged', generation: 'g1', revision: 7 }, viewImage(source)!);
      const [made, images] = [viewMemoryReserve.made, wholeHandOvers.images];
      post(channel, { type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 1, total: nodes.length + edges.length, image: { file, revision: 7 } });
      expect(await until(() => viewMemoryReserve.made === made + 1, 10_000)).toBe(true);
      rmSync(file); // (read only as the snapshot began: a hand-over that reads it now takes the view from the records)
      // another graph's warm replica made meanwhile: the worker, idle, collects its garbage before this build ends
      idleCollection.bytes = 0;
      const collections = idleCollection.made;
      const warm = graphKey('t', 'warm');
      post(channel, { type: 'snapshot-begin', key: warm, generation: 'g1', id: 2, version: 1, total: 1, warm: true });
      post(channel, { type: 'snapshot-chunk', key: warm, generation: 'g1', id: 2, nodes: nodes.slice(0, 1), edges: [] });
      post(channel, { type: 'snapshot-end', key: warm, generation: 'g1', id: 2 });
      expect(await until(() => idleCollection.made > collections, 10_000)).toBe(true);
      idleCollection.bytes = garbage;
      sendRecords(channel, key);
      expect(await until(() => prepared.includes(key), 60_000)).toBe(true);
      expect(wholeHandOvers.images).toBe(images + 1);
    } finally {
      idleCollection.bytes = garbage;
      channel.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("reads the snapshot's view image on disk as the snapshot begins, before any record, and hands the view over from those bytes", { timeout: 120_000 }, async () => {

    viewMemoryReserve.fromFacts = nodes.length + edges.length;
    const folder = mkdtempSync(path.join(tmpdir(), 'parley-image-ahead-'));
    const { channel, prepared } = await workerOn('parley-image-ahead-test');
    try {
      const key = graphKey('t', 'imaged');
      const source = GraphIndex.fromRecords(nodes, edges);
      viewFactsOf(new PrologBridge(), source); // (the engine holds its view whole: what viewImage makes an image of)
      const file = path.join(folder, 'view.image');
      await writeViewImage(file, { tenant: 't', graphId: 'imaged', generation: 'g1', revision: 7 }, viewImage(source)!);
      const [made, images] = [viewMemoryReserve.made, wholeHandOvers.images];
      post(channel, { type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 1, total: nodes.length + edges.length, image: { file, revision: 7 } });
      expect(await until(() => viewMemoryReserve.made === made + 1, 10_000)).toBe(true);
      // gone from the disk once the snapshot has begun: a hand-over that read it only then would take the view from the records
      rmSync(file);
      sendRecords(channel, key);
      expect(await until(() => prepared.includes(key), 60_000)).toBe(true);
      expect(wholeHandOvers.images).toBe(images + 1);
    } finally {
      channel.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
