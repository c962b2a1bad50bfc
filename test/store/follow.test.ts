/**
 * Two stores on one PostgreSQL database, as two servers have them: each follows the other's
 * writes, corrections and deletions into its loaded graphs, and tells its listeners.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphChange, ParleyStore } from '../../engine/store/store.ts';
import { openStoreAt, postgresBackend } from '../helpers/store-backends.ts';

let dir: string;
let database: string;
let writer: ParleyStore;
let follower: ParleyStore;
let changes: GraphChange[];

const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: `Actor ${id}` } });
const mention = (n: number) => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 } });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
/** Actor a named in these documents. */
const naming = (...documents: number[]) => ({ nodes: [{ ...actor('a'), provenance: documents.map(mention) }], edges: [] });

/** Runs `work` on a client of the database beneath the stores. */
async function beneath<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-follow-'));
  const at = await postgresBackend.newLocation(path.join(dir, 'writer'));
  database = at.location;
  writer = await openStoreAt(at);
  follower = await openStoreAt({ location: at.location, snapshotDir: path.join(dir, 'follower') });
  changes = [];
  follower.onChange((change) => void changes.push(change));
});
afterEach(async () => {
  await writer.close();
  await follower.close();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves when `check` holds, looking every few milliseconds for up to 5 s. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5_000) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a store following another on one PostgreSQL database', () => {
  it("puts the other's writes into its loaded graph, announced, and tells its listeners the records", async () => {
    await writer.writeGraph('t1', 'g', { nodes: [actor('a'), actor('b')], edges: [] });
    const graph = await follower.loadGraph('t1', 'g');
    expect(graph.nodeCount).toBe(2);
    await writer.writeGraph('t1', 'g', { nodes: [actor('c'), { ...actor('a'), properties: { label: 'Renamed' } }], edges: [{ id: 'e1', type: 'OPPOSES', from: 'c', to: 'b' }] });
    const revision = await writer.graphRevision('t1', 'g');
    // no read asks for it: the announcement alone brings it
    await eventually(() => graph.nodeCount === 3);
    expect(graph.node('a')!.properties.label).toBe('Renamed');
    expect(graph.edgesOf('c', 'out').map((edge) => edge.to)).toEqual(['b']);
    expect(await follower.graphRevision('t1', 'g')).toBe(revision);
    expect(changes).toEqual([{ kind: 'write', tenant: 't1', graphId: 'g', generation: expect.any(String), nodes: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'c' })], edges: [expect.objectContaining({ id: 'e1' })] }]);
    expect(follower.storeStatus()).toEqual({ kind: 'postgres', replication: { graphs_behind: 0, lag_ms: 0 } });
  });

  it("rebuilds its loaded graph after the other's correction, and forgets a graph the other deleted", async () => {
    await writer.writeGraph('t1', 'g', { nodes: [actor('a'), actor('b')], edges: [] });
    await follower.loadGraph('t1', 'g');
    await writer.correct('t1', 'g', { op: 'retract', target: 'b', reason: 'not an actor' }, 'key');
    await eventually(() => changes.length > 0);
    expect(changes).toEqual([{ kind: 'replace', tenant: 't1', graphId: 'g', generation: expect.any(String) }]);
    expect((await follower.loadGraph('t1', 'g')).node('b')).toBeUndefined();

    await writer.deleteGraph('t1', 'g');
    await eventually(() => follower.loadedGeneration('t1', 'g') === undefined);
    expect(changes.at(-1)).toEqual({ kind: 'delete', tenant: 't1', graphId: 'g', generation: expect.any(String) });
    await expect(follower.loadGraph('t1', 'g')).rejects.toThrow(/does not exist/);
  });

  it('reaches a revision the database has at once, and waits its bound for one it has not', async () => {
    await writer.writeGraph('t1', 'g', { nodes: [actor('a')], edges: [] });
    await follower.loadGraph('t1', 'g');
    await writer.writeGraph('t1', 'g', { nodes: [actor('b')], edges: [] });
    await follower.reachRevision('t1', 'g', await writer.graphRevision('t1', 'g'), 0);
    expect((await follower.loadGraph('t1', 'g')).node('b')).toBeDefined();
    const ahead = (await writer.graphRevision('t1', 'g')) + 1;
    // a write in flight through the other store gets there within the bound
    const reaching = follower.reachRevision('t1', 'g', ahead, 5_000);
    await writer.writeGraph('t1', 'g', { nodes: [actor('c')], edges: [] });
    await reaching;
    expect((await follower.loadGraph('t1', 'g')).node('c')).toBeDefined();
    await expect(follower.reachRevision('t1', 'g', ahead + 1, 50)).rejects.toMatchObject({ code: 'min_revision_not_reached', details: { revision: ahead } });
  });

  it("follows a long provenance list that both grow in turn, each commit writing only the entries it appends, and reads it back whole", async () => {
    await writer.writeGraph('t1', 'g', naming(...range(0, 9)));
    const graph = await follower.loadGraph('t1', 'g');
    await writer.writeGraph('t1', 'g', naming(9));
    await eventually(() => graph.node('a')!.provenance.length === 10);
    await follower.writeGraph('t1', 'g', naming(10));
    await writer.writeGraph('t1', 'g', naming(11, 4));
    await follower.writeGraph('t1', 'g', naming(12));
    const expected = range(0, 13).map(mention);
    const written = await writer.loadGraph('t1', 'g');
    await eventually(() => graph.node('a')!.provenance.length === 13 && written.node('a')!.provenance.length === 13);
    expect(graph.node('a')!.provenance).toStrictEqual(expected);
    expect(written.node('a')!.provenance).toStrictEqual(expected);
    // a third server, from the records (no snapshot of its own)
    const third = await openStoreAt({ location: database, snapshotDir: path.join(dir, 'third') });
    try {
      expect((await third.loadGraph('t1', 'g')).node('a')!.provenance).toStrictEqual(expected);
    } finally {
      await third.close();
    }
    const { rows } = await beneath((client) => client.query<{ start: number; length: number }>("SELECT start, json_array_length(convert_from(entries, 'UTF8')::json) AS length FROM provenance_chunks WHERE id = 'a' ORDER BY start"));
    expect(rows).toStrictEqual([
      { start: 0, length: 9 },
      { start: 9, length: 1 },
      { start: 10, length: 1 },
      { start: 11, length: 1 },
      { start: 12, length: 1 },
    ]);
  });

  it('reads of a long list it follows only the chunks past what it holds, and the whole list again once it was rewritten whole', async () => {
    await writer.writeGraph('t1', 'g', naming(...range(0, 9)));
    await writer.writeGraph('t1', 'g', naming(9));
    const graph = await follower.loadGraph('t1', 'g');
    // the first chunk changed beneath both: what holds its entries already does not read it again
    await beneath((client) => client.query("UPDATE provenance_chunks SET entries = convert_to($1, 'UTF8') WHERE id = 'a' AND start = 0", [JSON.stringify(range(100, 109).map(mention))]));
    await writer.writeGraph('t1', 'g', naming(10));
    await eventually(() => graph.node('a')!.provenance.length === 11);
    expect(graph.node('a')!.provenance).toStrictEqual(range(0, 11).map(mention));
    await beneath((client) => client.query("UPDATE provenance_chunks SET entries = convert_to($1, 'UTF8') WHERE id = 'a' AND start = 0", [JSON.stringify(range(0, 9).map(mention))]));

    // the writer restarted from its snapshot: its next commit writes the list whole, as one chunk from 0
    await writer.close();
    writer = await openStoreAt({ location: database, snapshotDir: path.join(dir, 'writer', 'snapshots') });
    await writer.writeGraph('t1', 'g', naming(11));
    expect((await beneath((client) => client.query<{ start: number }>("SELECT start FROM provenance_chunks WHERE id = 'a' ORDER BY start"))).rows).toStrictEqual([{ start: 0 }]);
    await eventually(() => graph.node('a')!.provenance.length === 12);
    expect(graph.node('a')!.provenance).toStrictEqual(range(0, 12).map(mention));
    await writer.writeGraph('t1', 'g', naming(12));
    await eventually(() => graph.node('a')!.provenance.length === 13);
    expect(graph.node('a')!.provenance).toStrictEqual(range(0, 13).map(mention));
  });
});
