import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { runQuery } from '../../engine/query/index.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { exportJsonLines, graphWriteFromJson, graphWriteFromJsonLines } from '../../engine/store/transfer.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';

await startProlog();

/** A store and its export, written by main's code before the vocabulary grew (fixture README). */
const FIXTURE = fileURLToPath(new URL('../fixtures/vocabulary-before/', import.meta.url));

async function exported(index: GraphIndex): Promise<string> {
  let text = '';
  for await (const chunk of exportJsonLines(index)) text += chunk;
  return text;
}

describe('a graph stored with the vocabulary before issue 23', () => {
  let dir: string;
  let store: ParleyStore;
  let before: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-vocab-'));
    await cp(path.join(FIXTURE, 'store'), path.join(dir, 'store'), { recursive: true });
    store = await ParleyStore.open(path.join(dir, 'store'));
    before = await readFile(path.join(FIXTURE, 'export.jsonl'), 'utf8');
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads, and exports the same bytes it exported then', async () => {
    const graph = await store.loadGraph('default', 'before');
    expect(await exported(graph)).toBe(before);
  });

  it('answers queries over every old value as before', async () => {
    const graph = await store.loadGraph('default', 'before');
    const types = runQuery(graph, 'MATCH (a:Actor) WHERE a.actor_type IS NOT NULL RETURN a.actor_type AS t ORDER BY t');
    expect(types.rows.map(([t]) => t)).toEqual([
      'armed_forces', 'armed_group', 'civil_society', 'community', 'government', 'individual', 'international_org', 'media', 'ngo',
      'political_party', 'state', 'unknown',
    ]);
    const edges = runQuery(graph, 'MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n ORDER BY type');
    expect(edges.rows.length).toBe(14);
    expect(edges.notifications).toBeUndefined();
    const interest = runQuery(graph, "MATCH (a:Actor)-[:HOLDS_INTEREST]->(i:Interest {interest_type: 'identity'}) RETURN a.label AS a");
    expect(interest.rows).toEqual([['Actor community']]);
  });

  it('imports into a new graph (every write is validated) unchanged', async () => {
    const write = await graphWriteFromJsonLines(before);
    await store.writeGraph('default', 'again', write, { createGraph: true });
    expect(await exported(await store.loadGraph('default', 'again'))).toBe(before);
  });
});

describe('the vocabulary issue 23 adds', () => {
  let dir: string;
  let store: ParleyStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-vocab-new-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const node = (id: string, kind: string, properties: Record<string, unknown>) => ({ id, kind, ...properties });
  const graph = {
    nodes: [
      node('court', 'Actor', { label: 'Supreme Court', actor_type: 'court', role: 'adjudicator' }),
      node('board', 'Actor', { label: 'Arbitration board', actor_type: 'unknown', role: 'arbitrator' }),
      node('mine', 'Actor', { label: 'Kasai Mining Ltd', actor_type: 'company', role: 'party' }),
      node('police', 'Actor', { label: 'National Police', actor_type: 'police', role: 'party' }),
      node('ruling', 'Event', { event_type: 'ADJUDICATE', date: '2024-05-02' }),
      node('law', 'Event', { event_type: 'LEGISLATE', date: '2024-06-01' }),
      node('march', 'Event', { event_type: 'PROTEST', date: '2024-06-03', size: 5000 }),
      node('vermin', 'Claim', { type: 'Dehumanization', text: 'They are vermin' }),
      node('vote', 'Interest', { label: 'a say in the mine', interest_type: 'participation' }),
      node('land', 'Issue', { label: 'mining concessions' }),
    ],
    edges: [
      { type: 'CONCERNS', from: 'vote', to: 'land' },
      { type: 'REFERS_TO', from: 'vermin', to: 'march' },
      { type: 'PARTICIPATES_IN', from: 'court', to: 'ruling', role: 'perpetrator' },
    ],
  };

  it('writes every new value and edge, and queries them', async () => {
    await store.writeGraph('t', 'new', await graphWriteFromJson(graph), { createGraph: true });
    const index = await store.loadGraph('t', 'new');
    const result = runQuery(index, 'MATCH (c:Claim)-[:REFERS_TO]->(e:Event) RETURN c.type AS type, e.size AS size');
    expect(result.rows).toEqual([['Dehumanization', 5000n]]);
    expect(runQuery(index, 'MATCH (:Interest)-[r:CONCERNS]->(i:Issue) RETURN i.label').rows).toEqual([['mining concessions']]);
  });

  it.each([
    ['a size that is no count', [node('e', 'Event', { event_type: 'PROTEST', size: 'thousands' })], [], /size must be a non-negative integer/],
    ['a negative size', [node('e', 'Event', { event_type: 'PROTEST', size: -5 })], [], /size must be a non-negative integer/],
    ['CONCERNS from a claim', [node('c', 'Claim', { type: 'Demand', text: 'x' }), node('i', 'Issue', { label: 'y' })], [{ type: 'CONCERNS', from: 'c', to: 'i' }], /CONCERNS goes from Interest to Issue/],
    ['REFERS_TO an issue', [node('c', 'Claim', { type: 'Demand', text: 'x' }), node('i', 'Issue', { label: 'y' })], [{ type: 'REFERS_TO', from: 'c', to: 'i' }], /REFERS_TO goes from Claim to Event/],
    ['a reliability above 1', [node('d', 'Document', { source: 'x', reliability: 1.5 })], [], /reliability must be a number from 0 to 1/],
    ['a reliability in words', [node('d', 'Document', { source: 'x', reliability: 'high' })], [], /reliability must be a number from 0 to 1/],
    ['an actor type outside the list', [node('a', 'Actor', { label: 'x', actor_type: 'corporation' })], [], /actor_type must be one of .*company, court, police/],
  ])('refuses %s and writes nothing', async (_name, nodes, edges, message) => {
    await expect(store.writeGraph('t', 'refused', await graphWriteFromJson({ nodes, edges }), { createGraph: true })).rejects.toThrow(message);
    expect((await store.listGraphs('t')).items.map((meta) => meta.graph_id)).not.toContain('refused');
  });
});
