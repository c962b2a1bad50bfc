import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { dataKey, graphDataPrefix, prefixRange } from '../../engine/store/keys.ts';
import { mergeNodeProperties, unionProvenance } from '../../engine/store/merge.ts';
import { noteDurableInChunks } from '../../engine/store/provenance-chunks.ts';
import { encodeNode } from '../../engine/store/record-codec.ts';
import { validTime } from '../../engine/store/view.ts';
import { LoopSlicer } from '../../engine/turns.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';

let dir: string;
let store: ParleyStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-provenance-'));
  store = await ParleyStore.open(dir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Document `n`'s mention of the actor (quotes with characters JSON escapes, so that a join of JSON pieces that is off shows). */
const mention = (n: number): Provenance => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 }, quote: `RSF "${n}"\u0000\n` });

const namingActor = (id: string, ...documents: number[]): GraphWrite => ({
  nodes: [{ id, labels: ['Actor'], properties: { label: id.toUpperCase(), actor_type: 'armed_group' }, provenance: documents.map(mention) }],
  edges: [],
});
const naming = (...documents: number[]): GraphWrite => namingActor('rsf', ...documents);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** A mention that counts how often its fields are read (to serialise it, or to compare an incoming entry with it). */
function counted(n: number, reads: { count: number }): Provenance {
  const entry = mention(n);
  for (const [field, value] of Object.entries(entry)) Object.defineProperty(entry, field, { enumerable: true, get: () => (reads.count++, value) });
  return entry;
}

/**
 * The actor's value and its provenance list as stored (the list in chunks beside the value,
 * provenance-chunks.ts: each chunk's entries, joined), and what the record and its list
 * serialised whole give.
 */
async function storedAndExpected(id = 'rsf'): Promise<{ stored: string; expected: string; provenance: Provenance[] }> {
  const node = (await store.loadGraph('t', 'g')).node(id)!;
  const { generation } = await store.getGraphMeta('t', 'g');
  await store.close();
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const key = dataKey.nodes(graphDataPrefix('t', 'g', generation)) + id;
  const value = await db.get(key);
  const chunks = await db.values(prefixRange(dataKey.provenanceChunks(key))).all();
  await db.close();
  store = await ParleyStore.open(dir);
  const provenance = node.provenance.map((entry) => ({ ...entry }));
  return { stored: `${value}|[${chunks.map((chunk) => chunk.slice(1, -1)).join(',')}]`, expected: `${encodeNode({ ...node, provenance }, true)}|${JSON.stringify(provenance)}`, provenance };
}

describe('a record whose provenance grows commit by commit', () => {
  it('is merged onto and encoded without reading the entries it held already, its stored value the same bytes', async () => {
    const reads = { count: 0 };
    await store.writeGraph('t', 'g', { ...naming(), nodes: [{ ...naming().nodes[0], provenance: Array.from({ length: 10 }, (_, n) => counted(n, reads)) }] });
    // the first commit checks and serialises them
    expect(reads.count).toBeGreaterThanOrEqual(10);
    reads.count = 0;
    for (let n = 10; n < 30; n++) await store.writeGraph('t', 'g', naming(n));
    expect(reads.count).toBe(0);

    const { stored, expected, provenance } = await storedAndExpected();
    expect(stored).toBe(expected);
    expect(provenance.map((entry) => entry.document_id)).toStrictEqual(Array.from({ length: 30 }, (_, n) => `doc-${n}`));
    expect((await store.loadGraph('t', 'g')).node('rsf')!.provenance).toStrictEqual(provenance);
  });

  it('stores the same bytes when several writes of one commit grow it, when a write brings entries it holds, and when only its properties change', async () => {
    await store.writeGraph('t', 'g', naming(...Array.from({ length: 9 }, (_, n) => n)));
    await store.writeGraphs('t', 'g', [naming(9), naming(10, 3), naming(11, 12)]);
    await store.writeGraph('t', 'g', naming(4, 13));
    await store.writeGraphs('t', 'g', [naming(5), naming(14), naming(15, 6)]);
    // its label changed, its provenance not
    await store.writeGraph('t', 'g', { nodes: [{ ...naming(2).nodes[0], properties: { label: 'RSF' } }], edges: [] });

    const { stored, expected, provenance } = await storedAndExpected();
    expect(stored).toBe(expected);
    expect(provenance.map((entry) => entry.document_id)).toStrictEqual(Array.from({ length: 16 }, (_, n) => `doc-${n}`));
  });

  it('stores the same bytes for two records growing in one commit and in turn', async () => {
    await store.writeGraphs('t', 'g', [namingActor('rsf', ...range(0, 10)), namingActor('saf', ...range(100, 110))]);
    for (let n = 10; n < 40; n += 3) {
      await store.writeGraphs('t', 'g', [namingActor('rsf', n), namingActor('saf', 100 + n), namingActor('rsf', n + 1)]);
      await store.writeGraph('t', 'g', namingActor('saf', 101 + n, 102 + n));
      await store.writeGraph('t', 'g', namingActor('rsf', n + 2, 4));
    }
    for (const id of ['rsf', 'saf']) {
      const { stored, expected, provenance } = await storedAndExpected(id);
      expect(stored).toBe(expected);
      expect(provenance).toHaveLength(40);
    }
  });

  it('stores the same bytes for two records given one list object, each then growing its own way', async () => {
    const shared = range(0, 10).map(mention);
    await store.writeGraph('t', 'g', { nodes: [0, 1].flatMap((i) => namingActor(['rsf', 'saf'][i]!).nodes.map((node) => ({ ...node, provenance: shared }))), edges: [] });
    await store.writeGraphs('t', 'g', [namingActor('rsf', 10), namingActor('saf', 11)]);
    await store.writeGraph('t', 'g', namingActor('rsf', 11, 3));
    await store.writeGraph('t', 'g', namingActor('saf', 10, 12));
    for (const [id, documents] of [
      ['rsf', [...range(0, 12)]],
      ['saf', [...range(0, 10), 11, 10, 12]],
    ] as const) {
      const { stored, expected, provenance } = await storedAndExpected(id);
      expect(stored).toBe(expected);
      expect(provenance.map((entry) => entry.document_id)).toStrictEqual(documents.map((n) => `doc-${n}`));
    }
  });

  it('merges onto each of two lists grown from one stored list what only the other held', () => {
    const base = unionProvenance([], range(0, 10).map(mention));
    noteDurableInChunks(base);
    const first = unionProvenance(base, [mention(10)]);
    unionProvenance(base, [mention(11)]);
    // the second's document was noted for their stored list too: the merge must still append it to the first
    const both = unionProvenance(first, [mention(11), mention(10)]);
    expect(both.map((entry) => entry.document_id)).toStrictEqual(range(0, 12).map((n) => `doc-${n}`));
  });

  it('gives a node merged into another by a correction the union of their provenance, and stores the same bytes as the node grows', async () => {
    await store.writeGraphs('t', 'g', [naming(...range(0, 10)), namingActor('saf', ...range(20, 30))]);
    await store.writeGraphs('t', 'g', [naming(10), namingActor('saf', 30)]);
    const merge = await store.correct('t', 'g', { op: 'merge', into: 'rsf', from: ['saf'], reason: 'the same force' }, 'key');
    const merged = (await store.loadGraph('t', 'g')).node('rsf')!;
    expect(merged.provenance.map((entry) => entry.document_id)).toStrictEqual([...range(0, 11), ...range(20, 31)].map((n) => `doc-${n}`));

    await store.writeGraph('t', 'g', naming(11));
    await store.writeGraph('t', 'g', naming(21, 12));
    const grown = (await store.loadGraph('t', 'g')).node('rsf')!;
    // the stored node's own (saf's doc-21 came to it too), then saf's it does not hold
    const own = [...range(0, 12), 21, 12];
    expect(grown.provenance.map((entry) => entry.document_id)).toStrictEqual([...own, 20, ...range(22, 31)].map((n) => `doc-${n}`));
    // undone, the graph reads the stored node alone
    await store.undoCorrection('t', 'g', merge.correction_id, 'key');
    const { stored, expected, provenance } = await storedAndExpected();
    expect(stored).toBe(expected);
    expect(provenance.map((entry) => entry.document_id)).toStrictEqual(own.map((n) => `doc-${n}`));
  });
});

describe("a commit's several writes growing one record's list", () => {
  it('copies a list the commit did not make, then appends to its copy in place; the list it was copied from stays as it was', () => {
    const stored = unionProvenance([], range(0, 10).map(mention));
    const lists = new Map();
    const first = unionProvenance(stored, [mention(10)], undefined, lists);
    expect(first).not.toBe(stored);
    const second = unionProvenance(first, [mention(11), mention(12)], undefined, lists);
    // an entry it holds already, and a new one: the general merge, in place too
    const third = unionProvenance(second, [mention(3), mention(13)], undefined, lists);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(third.map((entry) => entry.document_id)).toStrictEqual(range(0, 14).map((n) => `doc-${n}`));
    expect(stored.map((entry) => entry.document_id)).toStrictEqual(range(0, 10).map((n) => `doc-${n}`));
    // another commit's lists: copied again
    expect(unionProvenance(third, [mention(14)], undefined, new Map())).not.toBe(third);
  });

  it('reads the same through the graph, a reopened store and validTime, each write of the commit counting it updated', async () => {
    await store.writeGraph('t', 'g', naming(...range(0, 10)));
    for (let n = 10; n < 40; n += 5) {
      const summaries = await store.writeGraphs('t', 'g', [naming(n), naming(n + 1, n + 2), naming(n + 1), naming(n + 3), { nodes: [], edges: [] }, naming(n + 4, 2), naming(n + 4)]);
      // the third brings only what the second brought, the fifth names nothing, the seventh what the sixth (merged in
      // place, past an entry it holds): none changes it, nor stores an entry twice
      expect(summaries.map((summary) => summary.nodes_updated)).toStrictEqual([1, 1, 0, 1, 0, 1, 0]);
    }
    const expected = range(0, 40).map((n) => `doc-${n}`);
    const node = (await store.loadGraph('t', 'g')).node('rsf')!;
    expect(node.provenance.map((entry) => entry.document_id)).toStrictEqual(expected);
    expect(validTime(node)).toBe('2024-03-03');
    const { stored, expected: whole, provenance } = await storedAndExpected();
    expect(stored).toBe(whole);
    expect(provenance.map((entry) => entry.document_id)).toStrictEqual(expected);
  });

  it('leaves the graph its stored list while the commit is not durable, and when a later write of it is refused', async () => {
    await store.writeGraph('t', 'g', naming(...range(0, 10)));
    const graph = await store.loadGraph('t', 'g');
    const held = graph.node('rsf')!.provenance;
    const documentsHeld = () => graph.node('rsf')!.provenance.map((entry) => entry.document_id);
    const refused = store.writeGraphs('t', 'g', [naming(10), naming(11), { nodes: [{ id: 'x', labels: ['Actor'], properties: {}, confidence: 2 }], edges: [] }]);
    await expect(refused).rejects.toThrow();
    expect(documentsHeld()).toStrictEqual(range(0, 10).map((n) => `doc-${n}`));
    expect(held.map((entry) => entry.document_id)).toStrictEqual(range(0, 10).map((n) => `doc-${n}`));

    // read at every turn of the loop while a commit of three writes goes on: the stored list never grows, and the
    // graph holds it until the commit is applied, then the list with all three writes' entries, never some of them
    // (the apply made to yield at every step, as it does for a large commit: a commit this small would not)
    vi.spyOn(LoopSlicer.prototype, 'due').mockReturnValue(true);
    vi.spyOn(LoopSlicer.prototype, 'dueStep').mockReturnValue(true);
    const writing = store.writeGraphs('t', 'g', [naming(10), naming(11), naming(12)]);
    const heldLengths = new Set<number>();
    const graphLengths = new Set<number>();
    let done = false;
    void writing.then(() => (done = true));
    while (!done) {
      heldLengths.add(held.length);
      graphLengths.add(graph.node('rsf')!.provenance.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
    vi.restoreAllMocks();
    expect(heldLengths).toStrictEqual(new Set([10]));
    expect(graphLengths.has(10)).toBe(true);
    expect([...graphLengths].every((length) => length === 10 || length === 13)).toBe(true);
    expect(documentsHeld()).toStrictEqual(range(0, 13).map((n) => `doc-${n}`));
  });
});

describe('a merge that changes no property', () => {
  const stored = { properties: { label: 'RSF', actor_type: 'armed_group', role: 'combatant', aliases: ['Rapid Support Forces', 'Janjaweed'] } };
  const merged = (properties: Record<string, unknown>, labels = ['Actor']) => mergeNodeProperties(stored, { labels, properties } as never, labels);

  it('keeps the stored properties object: the same values, "not known" ones, aliases it holds', () => {
    expect(merged({ label: 'RSF' })).toBe(stored.properties);
    expect(merged({ label: 'RSF', actor_type: 'unknown', role: 'unknown' })).toBe(stored.properties);
    expect(merged({ aliases: ['Janjaweed'] })).toBe(stored.properties);
    expect(merged({})).toBe(stored.properties);
  });

  it('merges as before when a value, a key or an alias is new, or the stored aliases repeat one', () => {
    expect(JSON.stringify(merged({ label: 'R.S.F.' }))).toBe('{"label":"R.S.F.","actor_type":"armed_group","role":"combatant","aliases":["Rapid Support Forces","Janjaweed"]}');
    expect(JSON.stringify(merged({ country: 'SD' }))).toBe('{"label":"RSF","actor_type":"armed_group","role":"combatant","aliases":["Rapid Support Forces","Janjaweed"],"country":"SD"}');
    expect(merged({ aliases: ['RSF forces', 'Janjaweed'] }).aliases).toStrictEqual(['Rapid Support Forces', 'Janjaweed', 'RSF forces']);
    // "unknown" is a value like any other for a kind without it as its "not known" one
    expect(merged({ actor_type: 'unknown' }, ['Issue']).actor_type).toBe('unknown');
    const repeating = { properties: { label: 'RSF', aliases: ['Janjaweed', 'Janjaweed'] } };
    const result = mergeNodeProperties(repeating, { labels: ['Actor'], properties: { aliases: ['Janjaweed'] } }, ['Actor']);
    expect(result).not.toBe(repeating.properties);
    expect(result.aliases).toStrictEqual(['Janjaweed']);
  });

  it('leaves a stored actor its properties object from commit to commit, and stores the same bytes as its properties then change', async () => {
    await store.writeGraph('t', 'g', naming(...range(0, 9)));
    const before = (await store.loadGraph('t', 'g')).node('rsf')!.properties;
    await store.writeGraph('t', 'g', naming(9));
    await store.writeGraphs('t', 'g', [naming(10), naming(11)]);
    expect((await store.loadGraph('t', 'g')).node('rsf')!.properties).toBe(before);
    // a new alias, then a new type: encoded again, not the JSON kept for the properties before
    await store.writeGraph('t', 'g', { nodes: [{ ...naming(12).nodes[0], properties: { label: 'RSF', aliases: ['Rapid Support Forces'] } }], edges: [] });
    await store.writeGraph('t', 'g', { nodes: [{ ...naming(13).nodes[0], properties: { label: 'RSF', actor_type: 'government' } }], edges: [] });
    const { stored, expected, provenance } = await storedAndExpected();
    expect(stored).toBe(expected);
    expect(stored).toContain('"actor_type":"government","aliases":["Rapid Support Forces"]');
    expect(provenance).toHaveLength(14);
  });
});

