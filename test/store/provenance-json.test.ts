import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { SEP } from '../../engine/store/keys.ts';
import { ProvenanceJson, WrittenTexts, noteProvenanceJson, provenanceText } from '../../engine/store/provenance-json.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';
import { collectGarbage } from '../helpers/heap.ts';

const at = '2024-03-03T10:00:00.000Z';
const mention = (n: number): Provenance => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 }, quote: `RSF "${n}" \u0000 é` });

/** A write naming the actors RSF and SAF (an edge between them) in these documents, each record's list a new array. */
function naming(documents: readonly number[]): GraphWrite {
  const actor = (id: string) => ({ id, labels: ['Actor'], properties: { label: id.toUpperCase(), actor_type: 'armed_group' }, provenance: documents.map(mention), recorded_at: at });
  return {
    nodes: [actor('rsf'), actor('saf'), { id: 'bare', labels: ['Actor'], properties: { label: 'Bare', actor_type: 'armed_group' }, recorded_at: at }],
    edges: [{ id: 'e1', type: 'OPPOSES', from: 'rsf', to: 'saf', properties: {}, provenance: documents.map(mention), recorded_at: at }],
  };
}

/** The commits of the test, in order: writes of one commit together. New lists, short lists grown within and across commits, long lists (chunks), and repeated entries. */
const COMMITS: number[][][] = [
  [[1, 2], [3, 4, 5]],
  [[6, 7, 8, 9]],
  [[10, 11]],
  [[12], [13, 14]],
  [[14, 15, 2]],
];

/** Every key and value of the store's data of the graphs of these generations, each generation taken out of the keys (`G`, or the name given). */
async function graphData(dir: string, generation: string, named: Record<string, string> = { G: generation }): Promise<[string, string][]> {
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  try {
    const entries = await db.iterator().all();
    return Object.entries(named).flatMap(([name, of]) => entries.filter(([key]) => key.includes(of)).map(([key, value]): [string, string] => [key.replace(of, name), value]));
  } finally {
    await db.close();
  }
}

/** Writes `commits` into a new store at `dir`, each write passed through `prepare` first; answers the graph's data. */
async function build(dir: string, commits: number[][][], prepare: (write: GraphWrite) => GraphWrite): Promise<[string, string][]> {
  const store = await ParleyStore.open(dir);
  let generation: string;
  try {
    for (const commit of commits) await store.writeGraphs('t', 'g', commit.map((documents) => prepare(naming(documents))));
    generation = (await store.getGraphMeta('t', 'g')).generation;
  } finally {
    await store.close();
  }
  return graphData(dir, generation);
}

/** Each record's list noted with `text` of it. */
function noted(text: (list: Provenance[]) => string): (write: GraphWrite) => GraphWrite {
  return (write) => {
    for (const record of [...write.nodes, ...write.edges]) if (record.provenance) noteProvenanceJson(record.provenance, text(record.provenance));
    return write;
  };
}

/** Each record's list noted with its JSON.stringify text (a batch's draft). */
const notedSerialised = noted((list) => JSON.stringify(list));

/** A text that parses to the list but is not JSON.stringify's: only a commit that writes it as given stores it. */
const spaced = (list: Provenance[]) => JSON.stringify(list, null, 1);

/** The value of record `id` in a graph's data (graphData). */
const valueOf = (data: [string, string][], id: string) => data.find(([key]) => key.endsWith(SEP + id))![1];

/** A step of a mixed sequence: a commit into a graph, its lists noted (a batch's) or not (a plain import), or a graph deleted. */
type Step = { graphs: string[]; commit: number[][]; noted?: boolean } | { deleted: string };

/**
 * A batch's commit, then a plain one, then a batch's on the same records; one draft's lists written into two graphs;
 * a graph deleted and written again; an old document named again.
 */
const MIXED: Step[] = [
  { graphs: ['g'], commit: [[1, 2]], noted: true },
  { graphs: ['g'], commit: [[3]] },
  { graphs: ['g'], commit: [[4], [5]], noted: true },
  { graphs: ['g', 'h'], commit: [[6, 7]], noted: true },
  { graphs: ['h'], commit: [[8]], noted: true },
  { deleted: 'g' },
  { graphs: ['g'], commit: [[9, 10]], noted: true },
  { graphs: ['g'], commit: [[11]], noted: true },
  { graphs: ['h'], commit: [[1], [6]], noted: true },
  { graphs: ['g', 'h'], commit: [[12]] },
];

/** Runs `steps` in a new store at `dir`, every list noted with its JSON.stringify text when `notes` and its step's are on; answers graphs g and h's data. */
async function runSteps(dir: string, steps: readonly Step[], notes: boolean): Promise<[string, string][]> {
  const store = await ParleyStore.open(dir);
  const generations: Record<string, string> = {};
  try {
    for (const step of steps) {
      if ('deleted' in step) {
        await store.deleteGraph('t', step.deleted);
        continue;
      }
      const writes = step.commit.map((documents) => (notes && step.noted ? notedSerialised : (write: GraphWrite) => write)(naming(documents)));
      for (const graph of step.graphs) await store.writeGraphs('t', graph, writes);
    }
    for (const graph of ['g', 'h']) generations[`<${graph}>`] = (await store.getGraphMeta('t', graph)).generation;
  } finally {
    await store.close();
  }
  return graphData(dir, '', generations);
}

/** Writes one commit of noted lists into graph `graphId` and answers a weak reference to the rsf node's list as stored. */
async function writtenList(store: ParleyStore, graphId: string): Promise<WeakRef<object>> {
  await store.writeGraphs('t', graphId, [notedSerialised(naming([1, 2]))]);
  return new WeakRef((await store.loadGraph('t', graphId)).node('rsf')!.provenance!);
}

describe('provenance lists written from their texts (provenance-json.ts)', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'parley-provenance-json-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('writes what serialising the lists writes: new lists, short lists grown, long lists in chunks, repeated entries', async () => {
    const serialised = await build(path.join(base, 'serialised'), COMMITS, (write) => write);
    const fromTexts = await build(path.join(base, 'texts'), COMMITS, notedSerialised);
    expect(fromTexts).toStrictEqual(serialised);
    // the long lists went to chunks, a chunk by each commit from the second on: the rsf node's value and four chunks
    expect(serialised.filter(([key]) => key.includes(SEP + 'rsf')).length).toBe(5);
  });

  it('takes the noted text rather than serialising the list again', async () => {
    const created = await build(path.join(base, 'created'), [[[1, 2]]], noted(spaced));
    expect(valueOf(created, 'rsf').endsWith(spaced([1, 2].map(mention)))).toBe(true);
    // a short list grown by a later commit: the stored entries as the commit before wrote them, the appended ones as noted
    const grown = await build(path.join(base, 'grown'), [[[1, 2]], [[3]]], noted(spaced));
    expect(valueOf(grown, 'rsf').endsWith(spaced([1, 2].map(mention)).slice(0, -1) + ',' + spaced([mention(3)]).slice(1))).toBe(true);
    expect(valueOf(grown, 'bare')).not.toContain('\n');
  });

  it('serialises the stored entries of a list read back from disk, whose text no commit of this process wrote', async () => {
    const dir = path.join(base, 'reopened');
    await build(dir, [[[1, 2]]], noted(spaced));
    const grown = await build(dir, [[[3]]], noted(spaced));
    expect(valueOf(grown, 'rsf').endsWith(JSON.stringify([1, 2].map(mention)).slice(0, -1) + ',' + spaced([mention(3)]).slice(1))).toBe(true);
  });

  it('writes what serialising writes through mixed paths: plain and batch commits on one record, one draft into two graphs, a graph deleted and written again', async () => {
    const serialised = await runSteps(path.join(base, 'serialised'), MIXED, false);
    const fromTexts = await runSteps(path.join(base, 'texts'), MIXED, true);
    expect(fromTexts).toStrictEqual(serialised);
    for (const graph of ['<g>', '<h>']) expect(serialised.some(([key]) => key.includes(graph) && key.endsWith(SEP + 'rsf'))).toBe(true);
  });

  it('lets go of the lists of a graph deleted or dropped from the graph cache, whose texts were kept', async () => {
    const store = await ParleyStore.open(path.join(base, 'dropped'), { cacheFacts: 4 });
    try {
      const deleted = await writtenList(store, 'deleted');
      await store.deleteGraph('t', 'deleted');
      const evicted = await writtenList(store, 'evicted');
      // another graph loaded past the cache's 4 facts: 'evicted' (3 nodes and an edge) leaves it
      await writtenList(store, 'other');
      expect(store.loadedGraph('t', 'evicted')).toBeUndefined();
      collectGarbage();
      expect(deleted.deref()).toBeUndefined();
      expect(evicted.deref()).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('keeps written texts up to a bound, the oldest dropped first, and each until a commit takes it', () => {
    const texts = new WrittenTexts(12);
    const [a, b, c] = [[], [], []] as Provenance[][];
    texts.note(a, '[1,2,3]');
    texts.note(b, '[4,5]');
    expect(texts.take(a)).toBe('[1,2,3]');
    expect(texts.take(a)).toBeUndefined();
    texts.note(a, '[1,2,3]');
    texts.note(c, '[6]');
    // b (5), a (7) and c (3) are 15 characters, past 12: b, the oldest, goes
    expect(texts.take(b)).toBeUndefined();
    expect([texts.take(a), texts.take(c)]).toEqual(['[1,2,3]', '[6]']);
    texts.note(a, '[123456789,0]');
    expect(texts.take(a)).toBeUndefined();
  });

  it('drops the oldest kept texts first, past the ones taken, over thousands of notes and takes', () => {
    // 10 characters a text, 100 of them at most
    const texts = new WrittenTexts(1000);
    const lists = Array.from({ length: 5000 }, () => [] as Provenance[]);
    const text = (i: number) => `[${String(i).padStart(8, '0')}]`;
    for (let i = 0; i < lists.length; i++) {
      texts.note(lists[i], text(i));
      // every third list is taken by a commit soon after it is noted
      if (i % 3 === 0 && i >= 2) expect(texts.take(lists[i - 2])).toBe(text(i - 2));
    }
    const kept = lists.flatMap((list, i) => (texts.take(list) === undefined ? [] : [i]));
    // the newest lists not taken, as many as 1,000 characters of texts hold
    const notTaken = lists.map((_, i) => i).filter((i) => !(i % 3 === 1 && i + 2 < lists.length));
    expect(kept).toEqual(notTaken.slice(-100));
  });

  it('keeps the noted text on the list alone: its copies, its JSON, its keys and equality do not see it', () => {
    const text = spaced([1, 2].map(mention));
    const list = JSON.parse(text) as Provenance[];
    const plain = JSON.parse(text) as Provenance[];
    noteProvenanceJson(list, text);
    const textOf = (of: Provenance[]) => provenanceText(of, 0, new ProvenanceJson());
    expect(textOf(list)).toBe(text);
    for (const copy of [[...list], list.slice(), list.concat(), Object.assign([], list), structuredClone(list), JSON.parse(JSON.stringify(list))]) expect(textOf(copy)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(list)).toBe(JSON.stringify(plain));
    expect(Object.keys(list)).toEqual(Object.keys(plain));
    expect(list).toStrictEqual(plain);
  });
});
