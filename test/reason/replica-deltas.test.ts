import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplicaSet, ReplicaSource, type DeltaRecord } from '../../engine/reason/replicas.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

const recorded = '2024-01-01T00:00:00.000Z';
const mention = (document: string) => ({ source: `${document}.txt`, document_id: document, timestamp: recorded, quote: 'The Rapid Support Forces issued a statement.' });
/** A write naming the actor (and the edge to the army) in each of `documents`, as a batch's documents do. */
const namingWrite = (documents: string[], properties: Record<string, string> = {}) => ({
  nodes: [
    { id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces', ...properties }, provenance: documents.map(mention) },
    { id: 'saf', labels: ['Actor'], properties: { label: 'Sudanese Armed Forces' } },
  ],
  edges: [{ id: 'fights', type: 'OPPOSES', from: 'rsf', to: 'saf', provenance: documents.map(mention) }],
});
const documents = (from: number, count: number) => Array.from({ length: count }, (_, i) => `d${from + i}`);

/** Every record of `graph`, serialised as it is (keys in their order), by id. */
function recordsOf(graph: GraphIndex): string[] {
  const records = [...graph.nodes.values(), ...graph.edges.values()].map((record) => JSON.stringify(record));
  return records.sort();
}

describe('replica deltas carrying a long provenance list\'s added entries only', () => {
  let temp: TempStore;
  let store: ParleyStore;
  let name: string;
  let source: ReplicaSource;
  const closing: { close(): void }[] = [];
  beforeEach(async () => {
    temp = await openTempStore('parley-replica-deltas-');
    store = temp.store;
    name = `replica-deltas-test-${Math.random()}`;
    source = new ReplicaSource(store, name);
  });
  afterEach(async () => {
    closing.splice(0).forEach((item) => item.close());
    source.close();
    await temp.close();
  });
  const workerSet = () => {
    const set = new ReplicaSet(name, 4);
    closing.push(set);
    return set;
  };
  /** The named actor's write among 20,000 more records: a snapshot of several chunks, which a write can come between. */
  const writeLarge = () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `n${i}` } }));
    const named = namingWrite(documents(0, 10));
    return store.writeGraph('t', 'g', { ...named, nodes: [...many, ...named.nodes] });
  };
  const deltasHeard = () => {
    const heard: { version: number; nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] }[] = [];
    const watch = new BroadcastChannel(name);
    closing.push(watch);
    watch.onmessage = (event) => {
      const message = (event as { data: { type: string; version: number; nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] } }).data;
      if (message.type === 'delta') heard.push(message);
    };
    return heard;
  };

  it('sends a grown list\'s new entries alone, and the replica they make equals a fresh snapshot\'s and the store\'s', async () => {
    await store.writeGraph('t', 'g', namingWrite(documents(0, 10)));
    const worker = workerSet();
    const held = await worker.graph((await source.current('t', 'g')).at);
    const heard = deltasHeard();
    await store.writeGraph('t', 'g', namingWrite(['d10']));
    await store.writeGraph('t', 'g', namingWrite(documents(11, 3)));
    // a property changed, no entry added: the list the replica holds is kept as it is
    await store.writeGraph('t', 'g', namingWrite([], { note: 'issued statements' }));
    await store.writeGraph('t', 'g', namingWrite(['d3', 'd14'])); // d3's entry is held: d14's alone is new
    const { at, graph: stored } = await source.current('t', 'g');
    const replica = await worker.graph(at);
    expect(await until(() => heard.length === 4, 5_000)).toBe(true);
    const grown = heard.map(({ nodes, edges }) => [...nodes, ...edges].filter((record) => record.id !== 'saf').map((record) => `${record.id} ${record.provenanceFrom} +${record.provenance.length}`));
    expect(grown).toEqual([
      ['rsf 10 +1', 'fights 10 +1'],
      ['rsf 11 +3', 'fights 11 +3'],
      ['rsf 14 +0'],
      ['rsf 14 +1', 'fights 14 +1'],
    ]);
    // the replica the deltas kept in step, not one taken again (a dropped replica's snapshot would equal the store too)
    expect(replica).toBe(held);
    expect(replica.node('rsf')!.provenance.map((entry) => entry.document_id)).toEqual(documents(0, 15));
    expect(replica.node('rsf')!.properties.note).toBe('issued statements');
    expect(recordsOf(replica)).toEqual(recordsOf(stored));
    // a worker that takes a fresh snapshot of the same version
    const fresh = new ReplicaSet(name, 4);
    closing.push(fresh);
    const snapshot = await fresh.graph(at);
    expect(snapshot).not.toBe(replica);
    expect(recordsOf(replica)).toEqual(recordsOf(snapshot));
  }, 30_000);

  it('sends records whole while a snapshot of the graph goes out (its later chunks already hold the write), and the replica built equals the store', async () => {
    await writeLarge();
    const heard: { type: string; nodes?: DeltaRecord<NodeRecord>[]; edges?: DeltaRecord<EdgeRecord>[] }[] = [];
    let writing: Promise<unknown> | undefined;
    const watch = new BroadcastChannel(name);
    closing.push(watch);
    watch.onmessage = (event) => {
      const message = (event as { data: (typeof heard)[number] }).data;
      heard.push(message);
      // the edge, last of the snapshot's records, is read after this write: longer than the list the write grew
      if (message.type === 'snapshot-chunk' && !writing) writing = store.writeGraph('t', 'g', namingWrite(['d10']));
    };
    const worker = workerSet();
    const { at } = await source.current('t', 'g');
    await worker.graph(at);
    expect(await until(() => writing !== undefined, 5_000)).toBe(true);
    await writing;
    const { at: next, graph: stored } = await source.current('t', 'g');
    const replica = await worker.graph(next);
    const types = heard.map(({ type }) => type).filter((type) => type !== 'replicas');
    expect(types.indexOf('delta')).toBeLessThan(types.indexOf('snapshot-end'));
    const delta = heard.find(({ type }) => type === 'delta')!;
    expect([...delta.nodes!, ...delta.edges!].map((record) => `${record.id} ${record.provenanceFrom} ${record.provenance.length}`).sort()).toEqual(['fights undefined 11', 'rsf undefined 11']);
    expect(types.filter((type) => type === 'snapshot-begin')).toHaveLength(1);
    expect(recordsOf(replica)).toEqual(recordsOf(stored));
  }, 60_000);

  it('sends records whole while a paced snapshot goes out to one worker alone (a graph above the preload bound), and the replica built equals the store', async () => {
    source.close();
    source = new ReplicaSource(store, name, undefined, 100);
    await writeLarge();
    const deltas: { nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] }[] = [];
    let writing: Promise<unknown> | undefined;
    const watch = new BroadcastChannel(name);
    closing.push(watch);
    watch.onmessage = (event) => {
      const message = (event as { data: { type: string; to?: string; nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] } }).data;
      if (message.type === 'delta') deltas.push(message);
      if (message.type !== 'need' || message.to === undefined) return;
      // the snapshot goes on the asking worker's own channel: heard there, the write made while it goes out
      const own = new BroadcastChannel(message.to);
      closing.push(own);
      own.onmessage = (ownEvent) => {
        const sent = (ownEvent as { data: { type: string } }).data;
        if (sent.type === 'snapshot-chunk' && !writing) writing = store.writeGraph('t', 'g', namingWrite(['d10']));
      };
    };
    const worker = workerSet();
    const { at } = await source.current('t', 'g');
    const built = await worker.graph(at);
    expect(await until(() => writing !== undefined, 5_000)).toBe(true);
    await writing;
    const { at: next, graph: stored } = await source.current('t', 'g');
    const replica = await worker.graph(next);
    expect(await until(() => deltas.length === 1, 5_000)).toBe(true);
    expect([...deltas[0].nodes, ...deltas[0].edges].map((record) => `${record.id} ${record.provenanceFrom} ${record.provenance.length}`).sort()).toEqual(['fights undefined 11', 'rsf undefined 11']);
    expect(replica).toBe(built); // one snapshot: the whole delta applied to its build, the replica not dropped
    expect(recordsOf(replica)).toEqual(recordsOf(stored));
  }, 60_000);

  it('asks again for a build whose pending delta does not fit, and the second snapshot holds the right list', async () => {
    await writeLarge();
    const { at, graph } = await source.current('t', 'g');
    const begins: unknown[] = [];
    let forged = false;
    const watch = new BroadcastChannel(name);
    closing.push(watch);
    watch.onmessage = (event) => {
      const message = (event as { data: { type: string } }).data;
      if (message.type === 'snapshot-begin') begins.push(message);
      if (message.type !== 'snapshot-chunk' || forged) return;
      forged = true;
      // heard while the build goes on: a delta naming 9 entries, where the build's record holds 10
      watch.postMessage({ type: 'delta', key: at.key, generation: at.generation, version: at.version + 1, nodes: [{ ...graph.node('rsf')!, provenance: [mention('forged')], provenanceFrom: 9 }], edges: [] });
    };
    const worker = workerSet();
    const built = await worker.graph(at);
    expect(forged).toBe(true);
    expect(begins).toHaveLength(2);
    expect(built.node('rsf')!.provenance.map((entry) => entry.document_id)).toEqual(documents(0, 10));
    // the replica the second snapshot made follows the next write's short delta
    await store.writeGraph('t', 'g', namingWrite(['d10']));
    const { at: next, graph: stored } = await source.current('t', 'g');
    const replica = await worker.graph(next);
    expect(replica).toBe(built);
    expect(replica.node('rsf')!.provenance.map((entry) => entry.document_id)).toEqual(documents(0, 11));
    expect(recordsOf(replica)).toEqual(recordsOf(stored));
  }, 60_000);

  it('drops a replica whose list is not of the length a delta names, and takes a snapshot with the right list at the next task', async () => {
    await store.writeGraph('t', 'g', namingWrite(documents(0, 10)));
    const worker = workerSet();
    const { at } = await source.current('t', 'g');
    const held = await worker.graph(at);
    expect(held.node('rsf')!.provenance).toHaveLength(10);
    // a delta that takes the replica to hold 9 entries: appending to its 10 would make a wrong list
    const main = new BroadcastChannel(name);
    closing.push(main);
    main.postMessage({ type: 'delta', key: at.key, generation: at.generation, version: at.version + 1, nodes: [{ ...held.node('rsf')!, provenance: [mention('forged')], provenanceFrom: 9 }], edges: [] });
    expect(await until(() => worker.held(at.key) === undefined, 5_000)).toBe(true);
    await store.writeGraph('t', 'g', namingWrite(['d10']));
    const { at: next, graph: stored } = await source.current('t', 'g');
    expect(next.version).toBe(at.version + 1);
    const replica = await worker.graph(next);
    expect(replica).not.toBe(held);
    expect(replica.node('rsf')!.provenance.map((entry) => entry.document_id)).toEqual(documents(0, 11));
    expect(recordsOf(replica)).toEqual(recordsOf(stored));
  }, 30_000);
});
