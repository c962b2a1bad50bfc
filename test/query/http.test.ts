import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const conflict = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group', confidence: 0.9,
      provenance: [{ source: 'reuters-2023-06-01', timestamp: '2023-06-01T10:00:00Z', quote: 'RSF said' }] },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', confidence: 0.95 },
    { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'No negotiation while the army holds Khartoum', speaker: 'rsf',
      provenance: [
        { source: 'afp-2023-06-02', timestamp: '2023-06-02T08:00:00Z' },
        { source: 'reuters-2023-06-01', timestamp: '2023-06-01T10:00:00Z', span: { start: 10, end: 52 } },
      ] },
    { kind: 'Claim', id: 'c2', type: 'Demand', text: 'Withdraw from the capital', speaker: 'saf' },
    { kind: 'Location', id: 'khartoum', label: 'Khartoum', location_type: 'city' },
  ],
  edges: [
    { type: 'ASSERTS', from: 'rsf', to: 'c1', confidence: 0.8 },
    { type: 'ASSERTS', from: 'saf', to: 'c2', confidence: 0.7 },
    { type: 'OPPOSES', from: 'rsf', to: 'saf', confidence: 0.9 },
  ],
};

const REDLINE = "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c";

describe('POST /v1/graph/query', () => {
  let t: TestApp;
  let key: string;
  const post = (url: string, payload: object, apiKey = key) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload });

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a', 'write');
    const imported = await post('/v1/graphs/sudan/import', conflict);
    expect(imported.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it("answers the RedLine query in SEED.md's shape, provenance only when asked", async () => {
    const plain = await post('/v1/graph/query', { query: REDLINE, graph_id: 'sudan' });
    expect(plain.statusCode).toBe(200);
    const body = plain.json();
    expect(body.actors).toEqual([{ id: 'rsf', label: 'Rapid Support Forces', role: 'party', confidence: 0.9 }]);
    expect(body.claims).toEqual([{ id: 'c1', type: 'RedLine', text: 'No negotiation while the army holds Khartoum' }]);
    // RETURN a, c names no relationship: the ASSERTS edge joining them comes along, the OPPOSES edge (not in the pattern) does not
    expect(body.edges).toEqual([{ id: expect.any(String), from: 'rsf', to: 'c1', type: 'ASSERTS', confidence: 0.8 }]);
    expect(body.columns).toEqual(['a', 'c']);

    const withProvenance = (await post('/v1/graph/query', { query: REDLINE, graph_id: 'sudan', include_provenance: true })).json();
    // SEED.md's object, as extract and export give it: the earliest source and its timestamp, every record in sources, the earliest first
    expect(withProvenance.claims[0].provenance).toEqual({
      source: 'reuters-2023-06-01',
      timestamp: '2023-06-01T10:00:00Z',
      sources: [
        { source: 'reuters-2023-06-01', timestamp: '2023-06-01T10:00:00Z', span: { start: 10, end: 52 } },
        { source: 'afp-2023-06-02', timestamp: '2023-06-02T08:00:00Z' },
      ],
    });
    expect(withProvenance.actors[0]).not.toHaveProperty('provenance');
  });

  it('returns edges, other nodes, scalar rows and the compiled goal on explain', async () => {
    const response = await post('/v1/graph/query', {
      query: 'MATCH (a:Actor)-[r]->(b) RETURN a.label AS actor, type(r) AS type, r ORDER BY type',
      graph_id: 'sudan',
      explain: true,
    });
    const body = response.json();
    expect(body.rows.map((row: unknown[]) => row.slice(0, 2))).toEqual([
      ['Rapid Support Forces', 'ASSERTS'],
      ['Sudanese Armed Forces', 'ASSERTS'],
      ['Rapid Support Forces', 'OPPOSES'],
    ]);
    expect(body.edges).toHaveLength(3);
    expect(body.edges[0]).toMatchObject({ type: 'ASSERTS', confidence: expect.any(Number), from: expect.any(String), to: expect.any(String) });
    expect(body.goal).toContain("node(V_a, 'Actor')");
    const located = (await post('/v1/graph/query', { query: 'MATCH (l:Location) RETURN l', graph_id: 'sudan' })).json();
    expect(located.nodes).toEqual([expect.objectContaining({ id: 'khartoum', kind: 'Location' })]);
  });

  it('answers query errors with 400, code, line and column', async () => {
    const syntax = await post('/v1/graph/query', { query: 'MATCH (a:Actor)\nRETURN a,', graph_id: 'sudan' });
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toMatchObject({ code: 'unexpected_syntax', line: 2, column: 10 });
    const comment = await post('/v1/graph/query', { query: 'MATCH (a:Actor)\n/* the RSF only\nRETURN a', graph_id: 'sudan' });
    expect(comment.statusCode).toBe(400);
    expect(comment.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(comment.json()).toMatchObject({ code: 'unexpected_character', line: 2, column: 1, expected: 'a closing */', found: 'end of input' });
    const undefinedVariable = await post('/v1/graph/query', { query: 'MATCH (a) RETURN b', graph_id: 'sudan' });
    expect(undefinedVariable.json()).toMatchObject({ status: 400, code: 'undefined_variable', line: 1, column: 18 });
    const write = await post('/v1/graph/query', { query: "CREATE (a:Actor {label: 'x'}) RETURN a", graph_id: 'sudan' });
    expect(write.statusCode).toBe(400);
    expect(write.json().detail).toMatch(/read-only/);
    const merge = await post('/v1/graph/query', { query: 'MERGE (a:Actor) RETURN a', graph_id: 'sudan' });
    expect(merge.json()).toMatchObject({ status: 400, code: 'read_only_query', line: 1, column: 1 });
  });

  it('refuses a WHERE call of a framework predicate its module does not export, naming the ones it does', async () => {
    const response = await post('/v1/graph/query', { query: 'MATCH (a:Actor) WHERE st_agreement_ids(a) RETURN a', graph_id: 'sudan' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      status: 400,
      code: 'rule_predicate_not_exported',
      detail: "st_agreement_ids/1 is not exported by stedman: WHERE may call spoiler/1 (and the helper library's predicates)",
      predicate: 'st_agreement_ids/1',
      modules: ['stedman'],
      exported: ['spoiler/1'],
      line: 1,
      column: 23,
    });
    // what stedman exports answers
    expect((await post('/v1/graph/query', { query: 'MATCH (a:Actor) WHERE spoiler(a) RETURN a.label AS spoiler', graph_id: 'sudan' })).statusCode).toBe(200);
  });

  it('answers a query past its time limit with 503', async () => {
    const slow = await post('/v1/graph/query', { query: 'UNWIND range(1, 100000) AS x UNWIND range(1, 1000) AS y WITH x WHERE x < 0 RETURN x', graph_id: 'sudan' });
    expect(slow.statusCode).toBe(503);
    expect(slow.json().code).toMatch(/query_(time_limit|intermediate_rows)/);
  });

  it("hides one tenant's graph from another", async () => {
    const other = await t.keyFor('tenant-b', 'read');
    expect((await post('/v1/graph/query', { query: REDLINE, graph_id: 'sudan' }, other)).statusCode).toBe(404);
  });

  it('serves the library form with errors placed in the part that holds them', async () => {
    const response = await post('/v1/graphs/sudan/query', { match: '(a:Actor)-[:ASSERTS]->(c:Claim)', where: "c.type = 'Demand'", include_provenance: true });
    expect(response.statusCode).toBe(200);
    expect(response.json().claims).toEqual([{ id: 'c2', type: 'Demand', text: 'Withdraw from the capital' }]);
    const bad = await post('/v1/graphs/sudan/query', { match: '(a:Actor)', where: 'a.label = = 1' });
    expect(bad.json()).toMatchObject({ status: 400, field: 'where', column: 11 });
  });
});
