/**
 * A worker building the replica of one generation of a graph while it waits for the next (a correction, or the graph
 * deleted and made again): a write of the newer generation heard on the shared channel before that generation's
 * snapshot begins on the worker's own channel (the shared one is read first) is applied after that snapshot, whether it
 * came during the older generation's build or before that build began.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplicaSet } from '../../engine/reason/replicas.ts';
import { until } from '../helpers/until.ts';

const recorded = '2024-01-01T00:00:00.000Z';
const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: id }, confidence: 1, recorded_at: recorded, provenance: [{ source: 'doc', timestamp: recorded }] });
const key = 't\u0000g';

describe('a worker building an older generation of the graph it asked for', () => {
  const closing: { close(): void }[] = [];
  afterEach(() => closing.splice(0).forEach((item) => item.close()));

  /**
   * A worker's replica set asked for g2 at version 1, the main thread's channel and the worker's own, and `heardAll`: the
   * messages posted on the main channel so far heard by the worker (a memory diagnostic's answer comes after them).
   */
  const askingForG2 = async () => {
    const name = `replicas-generations-test-${Math.random()}`;
    const main = new BroadcastChannel(name);
    const heard: { type: string; to?: string }[] = [];
    main.onmessage = (event) => heard.push((event as { data: { type: string } }).data);
    const replicas = new ReplicaSet(name, 4);
    closing.push(main, replicas);
    const needs = () => heard.filter(({ type }) => type === 'need');
    const asked = replicas.graph({ key, generation: 'g2', version: 1 });
    expect(await until(() => needs().length === 1, 5_000)).toBe(true);
    const own = new BroadcastChannel(needs()[0].to!);
    closing.push(own);
    const heardAll = async () => {
      main.postMessage({ type: 'memory', request: 1, collect: false });
      expect(await until(() => heard.some((message) => message.type === 'memory-of'), 5_000)).toBe(true);
    };
    return { main, own, replicas, asked, needs, heardAll };
  };
  /** Posts g2's snapshot (version 0, node a) on `own`, and checks the write of version 1 (node b) was applied after it, with no second need. */
  const newerSnapshotThenItsWrite = async ({ own, replicas, asked, needs }: Awaited<ReturnType<typeof askingForG2>>) => {
    own.postMessage({ type: 'snapshot-begin', key, generation: 'g2', id: 2, version: 0, total: 1 });
    own.postMessage({ type: 'snapshot-chunk', key, generation: 'g2', id: 2, nodes: [actor('a')], edges: [] });
    own.postMessage({ type: 'snapshot-end', key, generation: 'g2', id: 2 });
    expect(await until(() => replicas.held(key) !== undefined, 5_000)).toBe(true);
    expect(replicas.held(key)!.at).toEqual({ key, generation: 'g2', version: 1 });
    expect([...(await asked).nodes.keys()]).toEqual(['a', 'b']);
    expect(needs()).toHaveLength(1);
  };

  it("keeps a write of the newer generation heard during that build, and applies it after the newer one's snapshot", async () => {
    const worker = await askingForG2();
    // a warm snapshot of the older generation under way, then the newer generation's write, then its snapshot
    worker.main.postMessage({ type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 4, total: 1, warm: true });
    worker.main.postMessage({ type: 'snapshot-chunk', key, generation: 'g1', id: 1, nodes: [actor('old')], edges: [] });
    worker.main.postMessage({ type: 'delta', key, generation: 'g2', version: 1, nodes: [actor('b')], edges: [] });
    await worker.heardAll();
    await newerSnapshotThenItsWrite(worker);
  });

  it("keeps a write of the newer generation heard before the older generation's begin, through that begin", async () => {
    const worker = await askingForG2();
    worker.main.postMessage({ type: 'delta', key, generation: 'g2', version: 1, nodes: [actor('b')], edges: [] });
    await worker.heardAll();
    // the older generation's snapshot on the own channel (asked for before the correction), replaced by the newer one's
    worker.own.postMessage({ type: 'snapshot-begin', key, generation: 'g1', id: 1, version: 4, total: 1 });
    worker.own.postMessage({ type: 'snapshot-chunk', key, generation: 'g1', id: 1, nodes: [actor('old')], edges: [] });
    await newerSnapshotThenItsWrite(worker);
  });
});
