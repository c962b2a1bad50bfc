/**
 * A worker's replica read from the store's snapshot file (engine/store/snapshot.ts) in place of a snapshot's chunks, when
 * the file holds the graph as it is (a graph untouched since the store opened): the same replica as the chunks make, a
 * write heard during the read applied after it, a graph corrected (a retraction in force, the file holding the records
 * before it) never read from the file, a graph above the preload bound read from it by each asking worker on its own
 * channel, and a file that cannot be read (absent, corrupt, or named for another graph) asked for again as records, until
 * the records make a replica.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplicaSet, ReplicaSource } from '../../engine/reason/replicas.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { snapshotFile, writeSnapshot } from '../../engine/store/snapshot.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, reopenTempStore, type TempStore } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

const recorded = '2024-01-01T00:00:00.000Z';
const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: id }, confidence: 1, recorded_at: recorded, provenance: [{ source: 'doc', timestamp: recorded }] });
type Heard = { type: string; key?: string; stored?: { file: string; revision: number }; records?: true; to?: string };

/** The records of `graph` in its order, and how its edges are found: what two equal replicas share. */
const contentOf = (graph: GraphIndex) => ({
  nodes: JSON.stringify([...graph.nodes.values()]),
  edges: JSON.stringify([...graph.edges.values()]),
  ofFirst: graph.edgesOf([...graph.nodes.keys()][0], 'both').map((edge) => edge.id),
  facts: graph.factCount,
});

describe("a worker's replica from the store's snapshot file", () => {
  const closing: { close(): void }[] = [];
  let temp: TempStore | undefined;
  afterEach(async () => {
    closing.splice(0).forEach((item) => item.close());
    await temp?.close();
    temp = undefined;
  });

  /**
   * A store whose graph t/g (nodes, plain edges and edges with properties) was written, then `beforeClose` done, then closed
   * and opened again: its snapshot file holds it.
   */
  const reopenedStore = async (beforeClose: (store: ParleyStore) => Promise<unknown> = async () => {}) => {
    temp = await openTempStore('parley-replicas-stored-');
    const ids = Array.from({ length: 300 }, (_, i) => `n${i}`);
    const edges = ids.slice(1).map((id, i) => ({ id: `e${i}`, type: 'OPPOSES', from: ids[i], to: id, ...(i % 7 ? {} : { properties: { weight: i } }) }));
    await temp.store.writeGraph('t', 'g', { nodes: ids.map((id) => ({ id, labels: ['Actor'], properties: { label: id } })), edges });
    await beforeClose(temp.store);
    temp = await reopenTempStore(temp);
    return { store: temp.store, file: snapshotFile(path.join(temp.dir, 'store', 'snapshots'), 't', 'g') };
  };
  /**
   * A source on `store` (graphs above `preloadMaxFacts` sent only on the asking worker's own channel), a listener on its
   * channel (what it heard), and a worker's replica set made by `set()`.
   */
  const sourceOn = (store: ParleyStore, preloadMaxFacts?: number) => {
    const name = `replicas-stored-test-${Math.random()}`;
    const source = new ReplicaSource(store, name, undefined, preloadMaxFacts);
    const heard: Heard[] = [];
    const watch = new BroadcastChannel(name);
    watch.onmessage = (event) => heard.push((event as { data: Heard }).data);
    closing.push(source, watch);
    const set = () => {
      const replicas = new ReplicaSet(name, 4);
      closing.push(replicas);
      return replicas;
    };
    return { source, heard, watch, set };
  };

  it('reads the file, sending no chunk, and makes the replica the chunks make', async () => {
    const { store, file } = await reopenedStore();
    const { source, heard, watch, set } = sourceOn(store);
    const { graph: main, at } = await source.current('t', 'g');
    const fromFile = await set().graph(at);
    expect(await until(() => heard.some(({ type }) => type === 'snapshot-end'), 5_000)).toBe(true);
    expect(heard.find(({ type }) => type === 'snapshot-begin')?.stored).toEqual({ file, revision: store.loadedRevision('t', 'g') });
    expect(heard.filter(({ type }) => type === 'snapshot-chunk')).toHaveLength(0);
    // a worker that could not read the file asks for the records: the chunks go, and another worker builds from them
    const fromChunks = set();
    watch.postMessage({ type: 'need', key: at.key, generation: at.generation, records: true });
    expect(await until(() => fromChunks.held(at.key) !== undefined, 5_000)).toBe(true);
    expect(heard.filter(({ type }) => type === 'snapshot-chunk').length).toBeGreaterThan(0);
    expect(contentOf(fromFile)).toEqual(contentOf(fromChunks.held(at.key)!.graph));
    expect(contentOf(fromFile)).toEqual(contentOf(main));
  }, 30_000);

  it('falls back to the chunks when the file is corrupt, and the replica is the graph', async () => {
    const { store, file } = await reopenedStore();
    const { source, heard, set } = sourceOn(store);
    const { graph: main, at } = await source.current('t', 'g');
    await writeFile(file, 'not a snapshot\n');
    const replica = await set().graph(at);
    const needs = heard.filter(({ type }) => type === 'need');
    expect(needs.map(({ records }) => records === true)).toEqual([false, true]);
    expect(heard.filter(({ type }) => type === 'snapshot-chunk').length).toBeGreaterThan(0);
    expect(contentOf(replica)).toEqual(contentOf(main));
  }, 30_000);

  it('sends chunks once the graph is written: the file no longer holds it', async () => {
    const { store } = await reopenedStore();
    const { source, heard, set } = sourceOn(store);
    await set().graph((await source.current('t', 'g')).at);
    await store.writeGraph('t', 'g', { nodes: [{ id: 'late', labels: ['Actor'], properties: { label: 'late' } }], edges: [] });
    const { graph: main, at } = await source.current('t', 'g');
    const replica = await set().graph(at);
    const begins = heard.filter(({ type }) => type === 'snapshot-begin');
    expect(begins.map(({ stored }) => stored !== undefined)).toEqual([true, false]);
    expect(contentOf(replica)).toEqual(contentOf(main));
  }, 30_000);

  it('never names the file of a graph with a correction in force: the file holds the records before it', async () => {
    const retract = (store: ParleyStore, target: string) => store.correct('t', 'g', { op: 'retract', target, reason: 'not an actor' }, 'key');
    // retracted before the close: the reopened graph is its file's records with the retraction over them
    const { store } = await reopenedStore((before) => retract(before, 'n1'));
    const { source, heard, set } = sourceOn(store);
    const { graph: main, at } = await source.current('t', 'g');
    expect(main.node('n1')).toBeUndefined();
    expect(contentOf(await set().graph(at))).toEqual(contentOf(main));
    // retracted after the reopen
    await retract(store, 'n2');
    const { graph: corrected, at: after } = await source.current('t', 'g');
    expect(corrected.node('n2')).toBeUndefined();
    expect(contentOf(await set().graph(after))).toEqual(contentOf(corrected));
    const begins = heard.filter(({ type }) => type === 'snapshot-begin');
    expect(begins.length).toBeGreaterThanOrEqual(2);
    expect(begins.filter(({ stored }) => stored !== undefined)).toEqual([]);
  }, 30_000);

  it('a graph above the preload bound: each asking worker reads the file, named on its own channel alone', async () => {
    const { store } = await reopenedStore();
    const { source, heard, set } = sourceOn(store, 10);
    const { graph: main, at } = await source.current('t', 'g');
    const workers = [set(), set()];
    const read = workers.map(() => 0);
    workers.forEach((worker, i) => (worker.onSnapshotRead = () => void read[i]++));
    const replicas = await Promise.all(workers.map((worker) => worker.graph(at)));
    expect(read).toEqual([1, 1]);
    for (const replica of replicas) expect(contentOf(replica)).toEqual(contentOf(main));
    expect(heard.filter(({ type }) => type === 'snapshot-begin')).toEqual([]);
    expect(heard.filter(({ type }) => type === 'need').map(({ records }) => records === true)).toEqual([false, false]);
  }, 30_000);

  describe('as the worker reads it', () => {
    const key = 't\u0000g';
    /**
     * A worker's replica set (`maxGraphs` replicas at most), the main thread's channel, the messages the worker posted
     * there, and a snapshot file of t/g (generation g1, revision 3) of `ids`.
     */
    const worker = async (ids: string[], maxGraphs = 4) => {
      temp = await openTempStore('parley-replicas-stored-file-');
      const name = `replicas-stored-test-${Math.random()}`;
      const main = new BroadcastChannel(name);
      const heard: Heard[] = [];
      main.onmessage = (event) => {
        const message = (event as { data: Heard & { read?: number } }).data;
        heard.push(message);
        // (as the main thread grants a read with no other under way: ReplicaSource)
        if (message.type === 'read-ask') main.postMessage({ type: 'read-slot', to: message.to, read: message.read });
      };
      const replicas = new ReplicaSet(name, maxGraphs);
      closing.push(main, replicas);
      const file = snapshotFile(temp.dir, 't', 'g');
      await writeSnapshot(file, 'g1', 3, GraphIndex.fromRecords(ids.map(actor), []));
      return { main, replicas, heard, file, needs: () => heard.filter(({ type }) => type === 'need') };
    };
    const begin = (file: string, id: number) => ({ type: 'snapshot-begin', key, generation: 'g1', id, version: 0, total: 1, stored: { file, revision: 3 } });

    it('applies a write heard while it reads the file after it, in order', async () => {
      const ids = Array.from({ length: 5_000 }, (_, i) => `n${i}`);
      const { main, replicas, needs, file } = await worker(ids);
      const asked = replicas.graph({ key, generation: 'g1', version: 2 });
      expect(await until(() => needs().length === 1, 5_000)).toBe(true);
      // the end and two writes posted with the begin: heard before the file's read is done
      main.postMessage(begin(file, 1));
      main.postMessage({ type: 'snapshot-end', key, generation: 'g1', id: 1 });
      main.postMessage({ type: 'delta', key, generation: 'g1', version: 2, nodes: [actor('w2')], edges: [] });
      main.postMessage({ type: 'delta', key, generation: 'g1', version: 1, nodes: [actor('w1'), { ...actor('n0'), properties: { label: 'renamed' } }], edges: [] });
      const replica = await asked;
      expect(replica.nodeCount).toBe(ids.length + 2);
      expect(replica.node('n0')!.properties.label).toBe('renamed');
      expect([...replica.nodes.keys()].slice(-2)).toEqual(['w1', 'w2']);
      expect(replicas.held(key)!.at.version).toBe(2);
      expect(needs()).toHaveLength(1);
    }, 30_000);

    it('reads the file once for two begins of it at the same version (a worker that starts and asks at once hears both)', async () => {
      const { main, replicas, needs, file } = await worker(['a', 'b']);
      const begun: string[] = [];
      replicas.onSnapshotBegin = (_graph, _records, _warm, _asked, { key: of }) => begun.push(of);
      const asked = replicas.graph({ key, generation: 'g1', version: 0 });
      expect(await until(() => needs().length === 1, 5_000)).toBe(true);
      for (const id of [1, 2]) {
        main.postMessage(begin(file, id));
        main.postMessage({ type: 'snapshot-end', key, generation: 'g1', id });
      }
      expect([...(await asked).nodes.keys()]).toEqual(['a', 'b']);
      expect(begun).toEqual([key]);
      expect(needs()).toHaveLength(1);
    }, 30_000);

    it('asks for the records when the file is absent, or named for another graph, and builds them', async () => {
      const { main, replicas, needs, file } = await worker(['a', 'b']);
      for (const [id, named] of [[1, path.join(path.dirname(file), 'nothing-here.snapshot')], [2, snapshotFile(path.dirname(file), 'other', 'g')]] as const) {
        if (id === 2) await writeSnapshot(named, 'g1', 3, GraphIndex.fromRecords([actor('theirs')], []));
        const asked = replicas.graph({ key, generation: 'g1', version: 0 });
        expect(await until(() => needs().length === 2 * id - 1, 5_000)).toBe(true);
        main.postMessage(begin(named, 10 * id));
        main.postMessage({ type: 'snapshot-end', key, generation: 'g1', id: 10 * id });
        expect(await until(() => needs().length === 2 * id, 5_000)).toBe(true);
        expect(needs().at(-1)!.records).toBe(true);
        main.postMessage({ type: 'snapshot-begin', key, generation: 'g1', id: 10 * id + 1, version: 0, total: 2 });
        main.postMessage({ type: 'snapshot-chunk', key, generation: 'g1', id: 10 * id + 1, nodes: [actor('a'), actor('b')], edges: [] });
        main.postMessage({ type: 'snapshot-end', key, generation: 'g1', id: 10 * id + 1 });
        expect([...(await asked).nodes.keys()]).toEqual(['a', 'b']);
        main.postMessage({ type: 'drop', key });
        expect(await until(() => replicas.held(key) === undefined, 5_000)).toBe(true);
      }
    }, 30_000);

    it('names the file again in its next need once the records asked for in its place made a replica', async () => {
      const { main, replicas, needs } = await worker(['a', 'b'], 1);
      const records = (of: string, id: number, ids: string[]) => {
        main.postMessage({ type: 'snapshot-begin', key: of, generation: 'g1', id, version: 0, total: ids.length });
        main.postMessage({ type: 'snapshot-chunk', key: of, generation: 'g1', id, nodes: ids.map(actor), edges: [] });
        main.postMessage({ type: 'snapshot-end', key: of, generation: 'g1', id });
      };
      const first = replicas.graph({ key, generation: 'g1', version: 0 });
      expect(await until(() => needs().length === 1, 5_000)).toBe(true);
      main.postMessage(begin(snapshotFile(path.join(temp!.dir, 'absent'), 't', 'g'), 1));
      main.postMessage({ type: 'snapshot-end', key, generation: 'g1', id: 1 });
      expect(await until(() => needs().length === 2, 5_000)).toBe(true);
      expect(needs()[1].records).toBe(true);
      records(key, 2, ['a', 'b']);
      await first;
      // another graph's replica takes the only place: t/g's is let go, and asked for again
      const other = 't\u0000h';
      const second = replicas.graph({ key: other, generation: 'g1', version: 0 });
      expect(await until(() => needs().length === 3, 5_000)).toBe(true);
      records(other, 3, ['c']);
      await second;
      expect(replicas.held(key)).toBeUndefined();
      const again = replicas.graph({ key, generation: 'g1', version: 0 });
      expect(await until(() => needs().length === 4, 5_000)).toBe(true);
      expect(needs()[3].records).toBeUndefined();
      records(key, 4, ['a', 'b']);
      await again;
    }, 30_000);
  });
});
