import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { dataKey, graphDataPrefix, prefixRange } from '../../engine/store/keys.ts';
import { encodeNode } from '../../engine/store/record-codec.ts';
import type { GraphWrite, ParleyStore } from '../../engine/store/store.ts';
import { openStoreAt, storeBackends, type StoreBackendCase, type StoreLocation } from '../helpers/store-backends.ts';

const mention = (n: number): Provenance => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 }, quote: `RSF "${n}"` });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const documentsOf = (list: readonly Provenance[]) => list.map((entry) => entry.document_id);
const docs = (numbers: readonly number[]) => numbers.map((n) => `doc-${n}`);
/** A chunk as the tests compare them: its start and its entries' documents. */
const chunk = (start: number, numbers: readonly number[]): [number, string[]] => [start, docs(numbers)];

/** A write naming the actor (and, with `withEdge`, its edge to SAF) in these documents. */
function naming(documents: readonly number[], withEdge = false): GraphWrite {
  const provenance = documents.map(mention);
  const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: id.toUpperCase(), actor_type: 'armed_group' }, provenance });
  return {
    nodes: withEdge ? [actor('rsf'), actor('saf')] : [actor('rsf')],
    edges: withEdge ? [{ id: 'e1', type: 'OPPOSES', from: 'rsf', to: 'saf', properties: {}, provenance }] : [],
  };
}

type Kind = 'node' | 'edge';

/** A record as its backend keeps it: its value, and its chunks (start, JSON) in order. */
interface StoredRecord {
  value: string | undefined;
  chunks: [number, string][];
}

/** Graph 't'/'g''s records beneath the store, read and written as the backend keeps them. */
interface Beneath {
  record(kind: Kind, id: string): Promise<StoredRecord>;
  /** Replaces the record's value and all its chunks. */
  setRecord(kind: Kind, id: string, record: StoredRecord): Promise<void>;
  /** How many keys (rows) the generation's records and chunks have. */
  left(): Promise<number>;
}

/** LevelDB: the keys of keys.ts (the store closed meanwhile: it holds LevelDB's lock). */
async function levelBeneath(at: StoreLocation, generation: string, work: (beneath: Beneath) => Promise<void>): Promise<void> {
  const db = new Level<string, string>(at.location, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const prefix = graphDataPrefix('t', 'g', generation);
  const keyOf = (kind: Kind, id: string) => (kind === 'node' ? dataKey.nodes(prefix) : dataKey.edges(prefix)) + id;
  const chunkKeys = (key: string) => db.keys(prefixRange(dataKey.provenanceChunks(key))).all();
  try {
    await work({
      async record(kind, id) {
        const key = keyOf(kind, id);
        const chunks = await db.iterator(prefixRange(dataKey.provenanceChunks(key))).all();
        return { value: await db.get(key), chunks: chunks.map(([chunkKey, json]) => [Number(chunkKey.slice(key.length + 1)), json]) };
      },
      async setRecord(kind, id, { value, chunks }) {
        const key = keyOf(kind, id);
        await db.batch([
          ...(await chunkKeys(key)).map((chunkKey) => ({ type: 'del' as const, key: chunkKey })),
          ...(value === undefined ? [] : [{ type: 'put' as const, key, value }]),
          ...chunks.map(([start, json]) => ({ type: 'put' as const, key: dataKey.provenanceChunk(key, start), value: json })),
        ]);
      },
      async left() {
        return (await db.keys(prefixRange(prefix)).all()).length;
      },
    });
  } finally {
    await db.close();
  }
}

/** PostgreSQL: the rows of pg-backend.ts's tables. */
async function postgresBeneath(at: StoreLocation, generation: string, work: (beneath: Beneath) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: at.location });
  await client.connect();
  const graph = ['t', 'g', generation];
  const where = 'tenant = $1 AND graph_id = $2 AND generation = $3';
  const table = (kind: Kind) => (kind === 'node' ? 'nodes' : 'edges');
  const short = (kind: Kind) => (kind === 'node' ? 'n' : 'e');
  try {
    await work({
      async record(kind, id) {
        const values = await client.query<{ record: Buffer }>(`SELECT record FROM ${table(kind)} WHERE ${where} AND id = $4`, [...graph, id]);
        const chunks = await client.query<{ start: number; entries: Buffer }>(`SELECT start, entries FROM provenance_chunks WHERE ${where} AND kind = $4 AND id = $5 ORDER BY start`, [...graph, short(kind), id]);
        return { value: values.rows[0]?.record.toString('utf8'), chunks: chunks.rows.map((row) => [row.start, row.entries.toString('utf8')]) };
      },
      async setRecord(kind, id, { value, chunks }) {
        await client.query(`DELETE FROM provenance_chunks WHERE ${where} AND kind = $4 AND id = $5`, [...graph, short(kind), id]);
        if (value !== undefined) await client.query(`UPDATE ${table(kind)} SET record = $5 WHERE ${where} AND id = $4`, [...graph, id, Buffer.from(value, 'utf8')]);
        for (const [start, json] of chunks) {
          await client.query(`INSERT INTO provenance_chunks (tenant, graph_id, generation, kind, id, start, entries) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [...graph, short(kind), id, start, Buffer.from(json, 'utf8')]);
        }
      },
      async left() {
        let rows = 0;
        for (const name of ['nodes', 'edges', 'provenance_chunks']) rows += Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name} WHERE ${where}`, graph)).rows[0].n);
        return rows;
      },
    });
  } finally {
    await client.end();
  }
}

const beneathOf: Record<StoreBackendCase['kind'], typeof levelBeneath> = { leveldb: levelBeneath, postgres: postgresBeneath };

describe.each(storeBackends)('a long provenance list under keys (rows) of its own ($kind)', (backend) => {
  let dir: string;
  let at: StoreLocation;
  let store: ParleyStore;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-chunks-'));
    at = await backend.newLocation(dir);
    store = await openStoreAt(at);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Runs `work` on graph 't'/'g''s records beneath the store, the store closed meanwhile, then
   * opens it again: with `removeSnapshots`, its graph then loads from the records.
   */
  async function beneath<T>(work: (records: Beneath) => Promise<T>, removeSnapshots = false): Promise<T> {
    const { generation } = await store.getGraphMeta('t', 'g');
    await store.close();
    let result: T;
    try {
      await beneathOf[backend.kind](at, generation, async (records) => void (result = await work(records)));
    } finally {
      if (removeSnapshots) await rm(at.snapshotDir ?? path.join(at.location, 'snapshots'), { recursive: true, force: true });
      store = await openStoreAt(at);
    }
    return result!;
  }

  /** The record's chunks, as the tests compare them. */
  const chunksOf = (records: Beneath, kind: Kind, id: string) => records.record(kind, id).then(({ chunks }) => chunks.map(([start, json]) => [start, documentsOf(JSON.parse(json) as Provenance[])]));

  /**
   * Commits the actor in each of `documents` (the last ones of 0 to n), one commit each, then
   * expects its record's chunks, and its list read back from the records to hold 0 to n once each, in order.
   */
  async function growThenRead(documents: readonly number[], expectedChunks: [number, string[]][]): Promise<void> {
    for (const n of documents) await store.writeGraph('t', 'g', naming([n]));
    expect(await beneath((records) => chunksOf(records, 'node', 'rsf'), true)).toStrictEqual(expectedChunks);
    expect((await store.loadGraph('t', 'g')).node('rsf')!.provenance).toStrictEqual(range(0, documents.at(-1)! + 1).map(mention));
  }

  it('is written once whole, then each commit writes only the entries it appends; a record read back has them all, in order', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 4), true));
    // short: inline in the value, no chunk
    const short = await beneath((records) => records.record('node', 'rsf'));
    expect(short.chunks).toStrictEqual([]);
    expect(short.value!.endsWith(JSON.stringify(range(0, 4).map(mention)))).toBe(true);

    await store.writeGraph('t', 'g', naming(range(4, 9), true));
    for (let n = 9; n < 14; n++) await store.writeGraph('t', 'g', naming([n], true));
    // entries it holds already, and its properties only: nothing appended, no chunk
    await store.writeGraph('t', 'g', naming([3, 12], true));
    await store.writeGraph('t', 'g', { nodes: [{ ...naming([]).nodes[0], properties: { label: 'Rapid Support Forces' } }], edges: [] });

    const { node, nodeChunks, edgeChunks } = await beneath(async (records) => ({
      node: await records.record('node', 'rsf'),
      nodeChunks: await chunksOf(records, 'node', 'rsf'),
      edgeChunks: await chunksOf(records, 'edge', 'e1'),
    }));
    const expected = [chunk(0, range(0, 9)), ...range(9, 14).map((n) => chunk(n, [n]))];
    expect(nodeChunks).toStrictEqual(expected);
    expect(edgeChunks).toStrictEqual(expected);
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
    await beneath((records) => records.setRecord('node', 'rsf', { value: oldValue, chunks: [] }), true);
    expect((await store.loadGraph('t', 'g')).node('rsf')).toStrictEqual(old);

    await growThenRead([12, 13], [chunk(0, range(0, 13)), chunk(13, [13])]);
  });

  it('writes a list read back from a snapshot whole, its old chunks deleted in the same commit, and never holds an entry twice', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9)));
    await store.writeGraph('t', 'g', naming([9]));
    await store.writeGraph('t', 'g', naming([10]));
    // reopened: the graph comes from its snapshot, which says nothing of chunks
    await store.close();
    store = await openStoreAt(at);
    await growThenRead([11, 12], [chunk(0, range(0, 12)), chunk(12, [12])]);
  });

  it('refuses to load a record marked chunked whose chunks are gone, or chunks beside a record that holds its list', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9)));
    const chunked = await beneath(async (records) => {
      const record = await records.record('node', 'rsf');
      await records.setRecord('node', 'rsf', { ...record, chunks: [] });
      return record;
    }, true);
    await expect(store.loadGraph('t', 'g')).rejects.toThrow(/in chunks, but it has none/);
    const inline = encodeNode({ id: 'rsf', labels: ['Actor'], properties: {}, confidence: 1, provenance: [mention(0)], recorded_at: '2024-03-03T00:00:00.000Z' });
    await beneath((records) => records.setRecord('node', 'rsf', { value: inline, chunks: chunked.chunks }), true);
    await expect(store.loadGraph('t', 'g')).rejects.toThrow(/whose value holds its list/);
    // a chunk of no record, after every record (the end of the last round trip's range)
    await beneath(async (records) => {
      await records.setRecord('node', 'rsf', chunked);
      await records.setRecord('node', 'zz-ghost', { value: undefined, chunks: chunked.chunks });
    }, true);
    await expect(store.loadGraph('t', 'g')).rejects.toThrow(/a provenance chunk without its record: zz-ghost/);
  });

  it('loads more records than one round trip reads, the long lists at either side of a boundary with their chunks', async () => {
    const ids = range(0, 5_002).map((n) => `n${String(n).padStart(5, '0')}`);
    // 999/1000 and 4999/5000 straddle LevelDB's (1,000) and PostgreSQL's (5,000) round trips
    const long = new Set(['n00000', 'n00999', 'n01000', 'n04999', 'n05000', 'n05001']);
    const provenanceOf = (id: string) => (long.has(id) ? range(0, 9) : [0]).map(mention);
    await store.writeGraph('t', 'g', { nodes: ids.map((id) => ({ id, labels: ['Actor'], properties: { label: id, actor_type: 'armed_group' }, provenance: provenanceOf(id) })), edges: [] });
    for (const id of long) await store.writeGraph('t', 'g', { nodes: [{ id, labels: ['Actor'], properties: { label: id, actor_type: 'armed_group' }, provenance: [mention(9)] }], edges: [] });
    await beneath(async () => undefined, true);
    const graph = await store.loadGraph('t', 'g');
    expect(graph.nodeCount).toBe(ids.length);
    for (const id of ids) expect(graph.node(id)!.provenance).toStrictEqual(long.has(id) ? range(0, 10).map(mention) : [mention(0)]);
  });

  it('goes with its graph when the graph is deleted', async () => {
    await store.writeGraph('t', 'g', naming(range(0, 9), true));
    await store.writeGraph('t', 'g', naming([9], true));
    const { generation } = await store.getGraphMeta('t', 'g');
    await store.deleteGraph('t', 'g');
    await store.close();
    let left = -1;
    await beneathOf[backend.kind](at, generation, async (records) => void (left = await records.left()));
    store = await openStoreAt(at);
    expect(left).toBe(0);
  });
});
