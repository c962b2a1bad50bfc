import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { dataKey, graphDataPrefix, prefixRange } from '../../engine/store/keys.ts';
import { encodeNode } from '../../engine/store/record-codec.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';

let dir: string;
let store: ParleyStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-chunks-'));
  store = await ParleyStore.open(dir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const mention = (n: number): Provenance => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 }, quote: `RSF "${n}"` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const documentsOf = (list: readonly Provenance[]) => list.map((entry) => entry.document_id);
const docs = (numbers: readonly number[]) => numbers.map((n) => `doc-${n}`);

/** A write naming the actor (and, with `withEdge`, its edge to SAF) in these documents. */
function naming(documents: readonly number[], withEdge = false): GraphWrite {
  const provenance = documents.map(mention);
  const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: id.toUpperCase(), actor_type: 'armed_group' }, provenance });
  return {
    nodes: withEdge ? [actor('rsf'), actor('saf')] : [actor('rsf')],
    edges: withEdge ? [{ id: 'e1', type: 'OPPOSES', from: 'rsf', to: 'saf', properties: {}, provenance }] : [],
  };
}

/** Runs `read` on the store's LevelDB directory, the store closed meanwhile (it holds LevelDB's lock), then opens the store again. */
async function onDisk<T>(read: (db: Level<string, string>, prefix: string) => Promise<T>, removeSnapshots = false): Promise<T> {
  const { generation } = await store.getGraphMeta('t', 'g');
  await store.close();
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  try {
    return await read(db, graphDataPrefix('t', 'g', generation));
  } finally {
    await db.close();
    if (removeSnapshots) await rm(path.join(dir, 'snapshots'), { recursive: true, force: true });
    store = await ParleyStore.open(dir);
  }
}

/** The value and chunks (key suffix → entries' documents) of the record under `key`. */
async function stored(db: Level<string, string>, key: string): Promise<{ value: string | undefined; chunks: [string, (string | undefined)[]][] }> {
  const chunks = await db.iterator(prefixRange(dataKey.provenanceChunks(key))).all();
  return { value: await db.get(key), chunks: chunks.map(([chunkKey, json]) => [chunkKey.slice(key.length + 1), documentsOf(JSON.parse(json) as Provenance[])]) };
}

describe('a long provenance list under keys of its own', () => {
  it('is written once whole, then each commit writes only the entries it appends; a record read back has them all, in order', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 4), true));
    // short: inline in the value, no chunk
    let rsf = await onDisk((db, prefix) => stored(db, dataKey.nodes(prefix) + 'rsf'));
    expect(rsf.chunks).toStrictEqual([]);
    expect(rsf.value!.endsWith(JSON.stringify(range(0, 4).map(mention)))).toBe(true);

    await store.writeGraph('t', 'g', naming(range(4, 9), true));
    for (let n = 9; n < 14; n++) await store.writeGraph('t', 'g', naming([n], true));
    // entries it holds already, and its properties only: nothing appended, no chunk
    await store.writeGraph('t', 'g', naming([3, 12], true));
    await store.writeGraph('t', 'g', { nodes: [{ ...naming([]).nodes[0], properties: { label: 'Rapid Support Forces' } }], edges: [] });

    const { node, edge } = await onDisk(async (db, prefix) => ({ node: await stored(db, dataKey.nodes(prefix) + 'rsf'), edge: await stored(db, dataKey.edges(prefix) + 'e1') }));
    const expected = [['0000000000', docs(range(0, 9))], ...range(9, 14).map((n): [string, string[]] => [String(n).padStart(10, '0'), docs([n])])];
    expect(node.chunks).toStrictEqual(expected);
    expect(edge.chunks).toStrictEqual(expected);
    // the value says its list is in chunks and holds none of it
    const graph = await store.loadGraph('t', 'g');
    const read = graph.node('rsf')!;
    expect(node.value).toBe(encodeNode(read, true));
    expect(node.value!.endsWith('\u0000*')).toBe(true);
    expect(read.properties.label).toBe('Rapid Support Forces');
    expect(documentsOf(read.provenance)).toStrictEqual(docs(range(0, 14)));
    expect(read.provenance).toStrictEqual(range(0, 14).map(mention));
    expect(graph.edge('e1')!.provenance).toStrictEqual(range(0, 14).map(mention));
  });

  it('reads the records of a store written before chunks as they are, and moves a long inline list to chunks when the record is next written', async () => {
    await store.writeGraph('t', 'g', naming([0]));
    // the record as the layout before chunks wrote it: the whole list inline, however long
    const old = { id: 'rsf', labels: ['Actor'], properties: { label: 'RSF', actor_type: 'armed_group' }, confidence: 1, provenance: range(0, 12).map(mention), recorded_at: '2024-03-03T00:00:00.000Z' };
    const oldValue = `${old.recorded_at}\u0000Actor\u0000${JSON.stringify(old.properties)}\u0000\u0000${JSON.stringify(old.provenance)}`;
    await onDisk((db, prefix) => db.put(dataKey.nodes(prefix) + 'rsf', oldValue), true);
    expect((await store.loadGraph('t', 'g')).node('rsf')).toStrictEqual(old);

    await store.writeGraph('t', 'g', naming([12]));
    await store.writeGraph('t', 'g', naming([13]));
    const rsf = await onDisk((db, prefix) => stored(db, dataKey.nodes(prefix) + 'rsf'), true);
    expect(rsf.chunks).toStrictEqual([
      ['0000000000', docs(range(0, 13))],
      ['0000000013', docs([13])],
    ]);
    expect((await store.loadGraph('t', 'g')).node('rsf')!.provenance).toStrictEqual(range(0, 14).map(mention));
  });

  it('writes a list read back from a snapshot whole, its old chunks deleted in the same batch, and never holds an entry twice', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9)));
    await store.writeGraph('t', 'g', naming([9]));
    await store.writeGraph('t', 'g', naming([10]));
    // reopened: the graph comes from its snapshot, which says nothing of chunks
    await store.close();
    store = await ParleyStore.open(dir);
    await store.writeGraph('t', 'g', naming([11]));
    await store.writeGraph('t', 'g', naming([12]));
    const rsf = await onDisk((db, prefix) => stored(db, dataKey.nodes(prefix) + 'rsf'), true);
    expect(rsf.chunks).toStrictEqual([
      ['0000000000', docs(range(0, 12))],
      ['0000000012', docs([12])],
    ]);
    expect((await store.loadGraph('t', 'g')).node('rsf')!.provenance).toStrictEqual(range(0, 13).map(mention));
  });

  it('refuses to load a record marked chunked whose chunks are gone, or chunks beside a record that holds its list', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9)));
    const key = (prefix: string) => dataKey.nodes(prefix) + 'rsf';
    const chunk = await onDisk(async (db, prefix) => {
      const [[chunkKey, json]] = await db.iterator(prefixRange(dataKey.provenanceChunks(key(prefix)))).all();
      await db.del(chunkKey);
      return { chunkKey, json };
    }, true);
    await expect(store.loadGraph('t', 'g')).rejects.toThrow(/in chunks, but it has none/);
    await onDisk(async (db, prefix) => {
      await db.put(chunk.chunkKey, chunk.json);
      await db.put(key(prefix), encodeNode({ id: 'rsf', labels: ['Actor'], properties: {}, confidence: 1, provenance: [mention(0)], recorded_at: '2024-03-03T00:00:00.000Z' }));
    }, true);
    await expect(store.loadGraph('t', 'g')).rejects.toThrow(/whose value holds its list/);
  });

  it('goes with its graph when the graph is deleted', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9), true));
    await store.writeGraph('t', 'g', naming([9], true));
    const { generation } = await store.getGraphMeta('t', 'g');
    await store.deleteGraph('t', 'g');
    await store.close();
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const left = await db.keys(prefixRange(graphDataPrefix('t', 'g', generation))).all();
    await db.close();
    store = await ParleyStore.open(dir);
    expect(left).toStrictEqual([]);
  });
});
