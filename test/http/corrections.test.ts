import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/** Corrections over HTTP: each op, its undo and audit record, what queries and traces then see, refusals that change nothing. */

let t: TestApp;
let key: string;
let readKey: string;
let otherKey: string;
let graph = '';
let graphs = 0;

const as = (secret: string) => ({ 'x-api-key': secret });
const post = (url: string, payload: object, secret = key) => t.app.inject({ method: 'POST', url, headers: as(secret), payload });
const get = (url: string, secret = key) => t.app.inject({ method: 'GET', url, headers: as(secret) });
const del = (url: string, secret = key) => t.app.inject({ method: 'DELETE', url, headers: as(secret) });
const correct = (payload: object, secret = key) => post(`/v1/graphs/${graph}/corrections`, payload, secret);
const rows = async (query: string) => {
  const response = await post('/v1/graph/query', { graph_id: graph, query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().rows as unknown[][];
};
const exported = async () => (await get(`/v1/graphs/${graph}/export`)).body;

const PROVENANCE = (source: string, quote: string) => ({ source, timestamp: '2024-03-03T10:00:00Z', document_id: source, quote, span: { start: 0, end: quote.length }, extractor: 'test' });
const GRAPH = {
  nodes: [
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', actor_type: 'state', provenance: [PROVENANCE('a.txt', 'the Sudanese Armed Forces')] },
    { kind: 'Actor', id: 'saf-dup', label: 'SAF', actor_type: 'state', provenance: [PROVENANCE('b.txt', 'the SAF')] },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', actor_type: 'armed_group' },
    { kind: 'Actor', id: 'uae', label: 'United Arab Emirates', actor_type: 'state' },
    { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'no talks with the RSF', speaker: 'saf' },
  ],
  edges: [
    { id: 'opp', type: 'OPPOSES', from: 'saf', to: 'rsf', provenance: [PROVENANCE('a.txt', 'fought the RSF')] },
    { id: 'opp-dup', type: 'OPPOSES', from: 'saf-dup', to: 'uae' },
    { id: 'ally', type: 'OPPOSES', from: 'uae', to: 'rsf' },
    { id: 'asserts', type: 'ASSERTS', from: 'saf', to: 'c1' },
  ],
};

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.keyFor('acme');
  readKey = await t.keyFor('acme', 'read');
  otherKey = await t.keyFor('globex');
});
afterAll(async () => t.close());

beforeEach(async () => {
  graph = `g${++graphs}`;
  const imported = await post(`/v1/graphs/${graph}/import`, GRAPH);
  expect(imported.statusCode, imported.body).toBe(200);
});

describe('merge', () => {
  it('makes two nodes one: edges moved, provenance joined, the alias id still found; undone, they are two again', async () => {
    const made = await correct({ op: 'merge', into: 'saf', from: ['saf-dup'], reason: 'the same army' });
    expect(made.statusCode, made.body).toBe(201);
    const correction = made.json();
    expect(correction).toMatchObject({ op: 'merge', into: 'saf', from: ['saf-dup'], reason: 'the same army', ordinal: 1 });
    expect(correction.correction_id).toMatch(/^cor_/);
    expect(correction.key_id).toMatch(/\S/);
    expect(Date.parse(correction.created_at)).not.toBeNaN();

    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'saf-dup' RETURN id(a)")).toEqual([]);
    expect(await rows("MATCH (a:Actor)-[r:OPPOSES]->(b) WHERE id(a) = 'saf' RETURN id(r), id(b) ORDER BY id(r)")).toEqual([['opp', 'rsf'], ['opp-dup', 'uae']]);
    const trace = (await get(`/v1/graphs/${graph}/nodes/saf-dup`)).json();
    expect(trace.node.id).toBe('saf');
    expect(trace.aliases).toEqual(['saf-dup']);
    expect(trace.node.properties.aliases).toEqual(['SAF']);
    expect(trace.node.provenance.sources.map((p: { source: string }) => p.source).sort()).toEqual(['a.txt', 'b.txt']);
    expect(trace.corrections.map((c: { correction_id: string }) => c.correction_id)).toEqual([correction.correction_id]);

    const undone = await del(`/v1/graphs/${graph}/corrections/${correction.correction_id}`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ op: 'undo', undoes: correction.correction_id, ordinal: 2 });
    expect(await rows("MATCH (a:Actor)-[r:OPPOSES]->(b) WHERE id(a) = 'saf-dup' RETURN id(r), id(b)")).toEqual([['opp-dup', 'uae']]);
    const listed = (await get(`/v1/graphs/${graph}/corrections`)).json().corrections;
    expect(listed.map((c: { op: string }) => c.op)).toEqual(['undo', 'merge']);
    expect(listed[1].undone_by).toBe(undone.json().correction_id);
  });

  it('a later import naming the alias lands on the merged node', async () => {
    await correct({ op: 'merge', into: 'saf', from: ['saf-dup'], reason: 'the same army' });
    const more = await post(`/v1/graphs/${graph}/import`, {
      nodes: [{ kind: 'Actor', id: 'saf-dup', label: 'SAF', provenance: [PROVENANCE('c.txt', 'SAF jets')] }],
      edges: [{ id: 'new-opp', type: 'OPPOSES', from: 'saf-dup', to: 'rsf' }],
    });
    expect(more.statusCode, more.body).toBe(200);
    expect(await rows("MATCH (a:Actor)-[r:OPPOSES]->(b) WHERE id(a) = 'saf' RETURN id(r) ORDER BY id(r)")).toEqual([['new-opp'], ['opp'], ['opp-dup']]);
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'saf-dup' RETURN id(a)")).toEqual([]);
    const trace = (await get(`/v1/graphs/${graph}/nodes/saf`)).json();
    expect(trace.node.provenance.sources.map((p: { source: string }) => p.source).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });
});

describe('retract', () => {
  it('a node leaves queries and export with its edges, stays traceable marked retracted; undone, it is back', async () => {
    const made = await correct({ op: 'retract', target: 'uae', reason: 'not a party' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ op: 'retract', target: 'uae', target_kind: 'node' });
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'uae' RETURN id(a)")).toEqual([]);
    expect(await rows("MATCH ()-[r]->() WHERE id(r) IN ['ally', 'opp-dup'] RETURN id(r)")).toEqual([]);
    const text = await exported();
    expect(text).not.toContain('"uae"');
    expect(text).toContain('"rsf"');
    const trace = (await get(`/v1/graphs/${graph}/nodes/uae`)).json();
    expect(trace).toMatchObject({ retracted: true, node: { id: 'uae' } });
    const edgeTrace = (await get(`/v1/graphs/${graph}/edges/ally`)).json();
    expect(edgeTrace.retracted).toBe(true);
    expect(edgeTrace.corrections.map((c: { op: string }) => c.op)).toEqual(['retract']);

    await del(`/v1/graphs/${graph}/corrections/${made.json().correction_id}`);
    expect(await rows("MATCH (a:Actor)-[r]-() WHERE id(a) = 'uae' RETURN id(r) ORDER BY id(r)")).toEqual([['ally'], ['opp-dup']]);
  });

  it('an edge leaves, and an import of it again does not bring it back', async () => {
    await correct({ op: 'retract', target: 'opp', reason: 'misread' });
    expect(await rows("MATCH ()-[r:OPPOSES]->() RETURN id(r) ORDER BY id(r)")).toEqual([['ally'], ['opp-dup']]);
    expect((await post(`/v1/graphs/${graph}/import`, { nodes: [], edges: [GRAPH.edges[0]] })).statusCode).toBe(200);
    expect(await rows("MATCH ()-[r:OPPOSES]->() RETURN id(r) ORDER BY id(r)")).toEqual([['ally'], ['opp-dup']]);
    expect((await get(`/v1/graphs/${graph}/edges/opp`)).json().retracted).toBe(true);
  });
});

describe('retype', () => {
  it('an OPPOSES edge becomes ALLIED_WITH, and stays so when imported again as OPPOSES; undone, it opposes again', async () => {
    const made = await correct({ op: 'retype', edge: 'ally', type: 'ALLIED_WITH', reason: 'they are allies' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ op: 'retype', edge: 'ally', type: 'ALLIED_WITH', previous_type: 'OPPOSES' });
    expect(await rows("MATCH (a)-[r:ALLIED_WITH]->(b) RETURN id(r), id(a), id(b)")).toEqual([['ally', 'uae', 'rsf']]);
    await post(`/v1/graphs/${graph}/import`, { nodes: [], edges: [GRAPH.edges[2]] });
    expect(await rows("MATCH ()-[r:OPPOSES]->() RETURN id(r) ORDER BY id(r)")).toEqual([['opp'], ['opp-dup']]);
    const trace = (await get(`/v1/graphs/${graph}/edges/ally`)).json();
    expect(trace.edge.type).toBe('ALLIED_WITH');
    await del(`/v1/graphs/${graph}/corrections/${made.json().correction_id}`);
    expect(await rows("MATCH ()-[r:ALLIED_WITH]->() RETURN id(r)")).toEqual([]);
  });
});

describe('set', () => {
  it('sets properties checked against the ontology, over later imports of other values', async () => {
    const made = await correct({ op: 'set', target: 'rsf', properties: { role: 'spoiler' }, reason: 'their role' });
    expect(made.statusCode, made.body).toBe(201);
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'rsf' RETURN a.role")).toEqual([['spoiler']]);
    await post(`/v1/graphs/${graph}/import`, { nodes: [{ kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party' }], edges: [] });
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'rsf' RETURN a.role")).toEqual([['spoiler']]);
    await del(`/v1/graphs/${graph}/corrections/${made.json().correction_id}`);
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'rsf' RETURN a.role")).toEqual([['party']]);
  });
});

describe('refusals: a precise problem, and nothing changed', () => {
  const cases: [string, object, number, string, string?][] = [
    ['an unknown id', { op: 'retract', target: 'nobody', reason: 'x' }, 400, 'unknown_record', 'target'],
    ['a node merged into itself', { op: 'merge', into: 'saf', from: ['saf'], reason: 'x' }, 400, 'merge_into_itself', 'from.0'],
    ['an edge merged', { op: 'merge', into: 'saf', from: ['opp'], reason: 'x' }, 400, 'not_a_node', 'from.0'],
    ['nodes of two kinds merged', { op: 'merge', into: 'saf', from: ['c1'], reason: 'x' }, 400, 'kind_mismatch', 'from.0'],
    ['an unknown edge type', { op: 'retype', edge: 'opp', type: 'HATES', reason: 'x' }, 400, 'invalid_value', 'type'],
    ['a type the ends do not allow', { op: 'retype', edge: 'opp', type: 'ASSERTS', reason: 'x' }, 400, 'invalid_endpoint', 'type'],
    ['a node retyped', { op: 'retype', edge: 'saf', type: 'ALLIED_WITH', reason: 'x' }, 400, 'not_an_edge', 'edge'],
    ['a value outside the vocabulary', { op: 'set', target: 'rsf', properties: { role: 'villain' }, reason: 'x' }, 400, 'invalid_record', 'properties'],
    ['a field of another op', { op: 'retract', target: 'rsf', into: 'saf', reason: 'x' }, 400, 'unknown_field', 'into'],
    ['an op field missing', { op: 'retype', edge: 'opp', reason: 'x' }, 400, 'missing_field', 'type'],
    ['an unknown field', { op: 'retract', target: 'rsf', why: 'x', reason: 'x' }, 400, 'unknown_field', 'why'],
    ['an unknown op', { op: 'delete', target: 'rsf', reason: 'x' }, 400, 'invalid_value', 'op'],
    ['no reason', { op: 'retract', target: 'rsf' }, 400, 'missing_field', 'reason'],
  ];
  for (const [what, body, status, code, field] of cases) {
    it(what, async () => {
      const before = await exported();
      const refused = await correct(body);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(refused.json()).toMatchObject({ status, code, ...(field ? { field } : {}) });
      expect(await exported()).toBe(before);
      expect((await get(`/v1/graphs/${graph}/corrections`)).json().corrections).toEqual([]);
    });
  }

  it('a correction on a retracted record, and an undo twice', async () => {
    const retraction = (await correct({ op: 'retract', target: 'uae', reason: 'x' })).json();
    const before = await exported();
    for (const body of [{ op: 'set', target: 'uae', properties: { role: 'ally' }, reason: 'x' }, { op: 'retype', edge: 'ally', type: 'ALLIED_WITH', reason: 'x' }]) {
      const refused = await correct(body);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().code).toBe('record_retracted');
    }
    const undo = await del(`/v1/graphs/${graph}/corrections/${retraction.correction_id}`);
    const again = await del(`/v1/graphs/${graph}/corrections/${retraction.correction_id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'correction_undone', undone_by: undo.json().correction_id });
    expect((await del(`/v1/graphs/${graph}/corrections/${undo.json().correction_id}`)).json().code).toBe('undo_not_undoable');
    expect((await del(`/v1/graphs/${graph}/corrections/cor_nothing`)).json().code).toBe('correction_not_found');
    expect((await get(`/v1/graphs/${graph}/corrections`)).json().corrections).toHaveLength(2);
    expect(before).not.toBe(await exported());
  });
});

describe('access', () => {
  it('a read key may list and trace but not correct or undo', async () => {
    const refused = await correct({ op: 'retract', target: 'rsf', reason: 'x' }, readKey);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('read_only_key');
    const made = (await correct({ op: 'retract', target: 'rsf', reason: 'x' })).json();
    expect((await del(`/v1/graphs/${graph}/corrections/${made.correction_id}`, readKey)).statusCode).toBe(403);
    expect((await get(`/v1/graphs/${graph}/corrections`, readKey)).json().corrections).toHaveLength(1);
    expect((await get(`/v1/graphs/${graph}/nodes/rsf`, readKey)).json().retracted).toBe(true);
  });

  it("another tenant sees no graph: its corrections, traces and undos are 404", async () => {
    const made = (await correct({ op: 'retract', target: 'rsf', reason: 'x' })).json();
    for (const response of [
      await correct({ op: 'retract', target: 'saf', reason: 'x' }, otherKey),
      await get(`/v1/graphs/${graph}/corrections`, otherKey),
      await del(`/v1/graphs/${graph}/corrections/${made.correction_id}`, otherKey),
      await get(`/v1/graphs/${graph}/nodes/saf`, otherKey),
      await get(`/v1/graphs/${graph}/edges/opp`, otherKey),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().code).toBe('graph_not_found');
    }
    expect((await get(`/v1/graphs/${graph}/corrections`)).json().corrections).toHaveLength(1);
  });
});

describe('the audit', () => {
  it('lists newest first, a page at a time', async () => {
    const ids: string[] = [];
    for (const target of ['rsf', 'uae', 'c1']) ids.push((await correct({ op: 'set', target, properties: { note: target }, reason: `note ${target}` })).json().correction_id);
    const first = (await get(`/v1/graphs/${graph}/corrections?page_size=2`)).json();
    expect(first.corrections.map((c: { correction_id: string }) => c.correction_id)).toEqual([ids[2], ids[1]]);
    const second = (await get(`/v1/graphs/${graph}/corrections?page_size=2&page_token=${first.next_page_token}`)).json();
    expect(second.corrections.map((c: { correction_id: string }) => c.correction_id)).toEqual([ids[0]]);
    expect(second.next_page_token).toBeUndefined();
    expect((await get(`/v1/graphs/${graph}/corrections?page_token=bm9wZQ`)).json().code).toBe('invalid_page_token');
  });

  it('a trace gives the full provenance of a record and 404 for an id the graph never had', async () => {
    const trace = (await get(`/v1/graphs/${graph}/edges/opp`)).json();
    expect(trace).toMatchObject({ retracted: false, corrections: [], edge: { id: 'opp', type: 'OPPOSES', from: 'saf', to: 'rsf' } });
    expect(trace.edge.provenance).toMatchObject({ source: 'a.txt', timestamp: '2024-03-03T10:00:00Z', sources: [{ quote: 'fought the RSF', span: { start: 0, end: 14 }, extractor: 'test', document_id: 'a.txt' }] });
    const missing = await get(`/v1/graphs/${graph}/nodes/nobody`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('node_not_found');
    expect((await get(`/v1/graphs/${graph}/edges/saf`)).json().code).toBe('edge_not_found');
  });
});

describe('as_of', () => {
  it('before a correction shows the graph as it was; after it, as corrected; an undo is a point in time too', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const retraction = (await correct({ op: 'retract', target: 'uae', reason: 'x' })).json();
    const justBefore = new Date(Date.parse(retraction.created_at) - 1).toISOString();
    const at = async (asOf: string) => {
      const response = await post('/v1/graph/query', { graph_id: graph, as_of: asOf, query: "MATCH (a:Actor) WHERE id(a) = 'uae' RETURN id(a)" });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().rows;
    };
    expect(await at(justBefore)).toEqual([['uae']]);
    expect(await at(retraction.created_at)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const undo = (await del(`/v1/graphs/${graph}/corrections/${retraction.correction_id}`)).json();
    expect(await at(retraction.created_at)).toEqual([]);
    expect(await at(undo.created_at)).toEqual([['uae']]);
    expect(await rows("MATCH (a:Actor) WHERE id(a) = 'uae' RETURN id(a)")).toEqual([['uae']]);
  });
});
