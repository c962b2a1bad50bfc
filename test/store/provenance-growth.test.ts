import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { dataKey, graphDataPrefix } from '../../engine/store/keys.ts';
import { encodeNode } from '../../engine/store/record-codec.ts';
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

const naming = (...documents: number[]): GraphWrite => ({
  nodes: [{ id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces', actor_type: 'armed_group' }, provenance: documents.map(mention) }],
  edges: [],
});

/** A mention that counts how often its fields are read (to serialise it, or to compare an incoming entry with it). */
function counted(n: number, reads: { count: number }): Provenance {
  const entry = mention(n);
  for (const [field, value] of Object.entries(entry)) Object.defineProperty(entry, field, { enumerable: true, get: () => (reads.count++, value) });
  return entry;
}

/** The actor's value as stored, and the value its provenance list serialised whole gives. */
async function storedAndExpected(): Promise<{ stored: string; expected: string; provenance: Provenance[] }> {
  const node = (await store.loadGraph('t', 'g')).node('rsf')!;
  const { generation } = await store.getGraphMeta('t', 'g');
  await store.close();
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const stored = await db.get(dataKey.nodes(graphDataPrefix('t', 'g', generation)) + 'rsf');
  await db.close();
  store = await ParleyStore.open(dir);
  const provenance = node.provenance.map((entry) => ({ ...entry }));
  return { stored: stored!, expected: encodeNode({ ...node, provenance }), provenance };
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
});
