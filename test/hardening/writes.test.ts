import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CHUNK } from '../../engine/reason/replicas.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

function bigImport(actors: number) {
  const nodes = Array.from({ length: actors }, (_, i) => ({ kind: 'Actor', id: `a${i}`, label: `Actor ${i}`, role: 'party' }));
  const edges = Array.from({ length: actors - 1 }, (_, i) => ({ type: 'OPPOSES', from: `a${i}`, to: `a${i + 1}` }));
  return { nodes, edges };
}

describe('writes off the request loop, and imports that commit once', () => {
  let t: TestApp;
  let key: string;
  const importWith = (graph: string, body: unknown, idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/graphs/${graph}/import`,
      headers: { 'x-api-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: body as object,
    });

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a');
  });
  afterAll(async () => t.close());

  it('an import retried with the same Idempotency-Key commits once, answers the same summary, and can be asked about', async () => {
    const body = { nodes: [{ kind: 'Actor', id: 'x', label: 'X' }, { kind: 'Actor', id: 'y', label: 'Y' }], edges: [{ type: 'OPPOSES', from: 'x', to: 'y' }] };
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/graphs/idem/imports/retry-1', headers: { 'x-api-key': key } });
    expect(unknown.statusCode).toBe(404);
    const first = await importWith('idem', body, 'retry-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ nodes_created: 2, edges_created: 1 });
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    // the client lost the answer and retries, with a body changed meanwhile: nothing is written again
    const retry = await importWith('idem', { ...body, nodes: [...body.nodes, { kind: 'Actor', id: 'z', label: 'Z' }] }, 'retry-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const counts = await t.app.inject({ method: 'GET', url: '/v1/graphs/idem', headers: { 'x-api-key': key } });
    expect(counts.json().nodes).toEqual({ Actor: 2 });
    const asked = await t.app.inject({ method: 'GET', url: '/v1/graphs/idem/imports/retry-1', headers: { 'x-api-key': key } });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toMatchObject({ graph_id: 'idem', idempotency_key: 'retry-1', summary: { nodes_created: 2, edges_created: 1 } });
    // another tenant cannot ask
    const other = await t.keyFor('tenant-b');
    expect((await t.app.inject({ method: 'GET', url: '/v1/graphs/idem/imports/retry-1', headers: { 'x-api-key': other } })).statusCode).toBe(404);
    // a refused import records nothing under its key, so a corrected retry commits
    const refused = await importWith('idem', { nodes: [{ kind: 'Actor', id: 'w', label: 7 }] }, 'retry-2');
    expect(refused.statusCode).toBe(400);
    const corrected = await importWith('idem', { nodes: [{ kind: 'Actor', id: 'w', label: 'W' }] }, 'retry-2');
    expect(corrected.json()).toMatchObject({ nodes_created: 1 });
    expect((await importWith('idem', body, 'bad key with spaces')).statusCode).toBe(400);
  });

  it('concurrent retries with one key commit once', async () => {
    const body = bigImport(50);
    const answers = await Promise.all([importWith('race', body, 'k'), importWith('race', body, 'k'), importWith('race', body, 'k')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((answer) => answer.headers['idempotency-replayed'] === 'true')).toHaveLength(2);
    for (const answer of answers) expect(answer.json()).toMatchObject({ nodes_created: 50, edges_created: 49 });
  });

  it('answers health while a large import is merged and written, and the import stays atomic', async () => {
    const body = bigImport(20_000);
    let done = false;
    const importing = importWith('large', body).finally(() => (done = true));
    let healthDuringImport = 0;
    while (!done) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
      if (!done) healthDuringImport++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const response = await importing;
    expect(response.json()).toMatchObject({ nodes_created: 20_000, edges_created: 19_999 });
    // the loop turned while the import ran: requests were answered between its chunks
    expect(healthDuringImport).toBeGreaterThan(1);
    const broken = { ...bigImport(20_000), edges: [...bigImport(20_000).edges, { type: 'OPPOSES', from: 'a1', to: 'nowhere' }] };
    const refused = await importWith('large-atomic', broken);
    expect(refused.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/v1/graphs/large-atomic', headers: { 'x-api-key': key } })).statusCode).toBe(404);
  });

  it('parses a JSON import a record at a time exactly as JSON.parse would, and refuses what it refuses', async () => {
    // brackets, quotes and backslashes inside strings, escapes, odd whitespace
    const text = ' {\n "edges" : [ {"type":"OPPOSES","from":"p}1","to":"p]2"} ] ,"nodes":[{"kind":"Actor","id":"p}1","label":"a \\"]}\\\\ \\u00e9"},\n\t{"kind":"Actor","id":"p]2","label":"[{"}]}  ';
    const expected = JSON.parse(text);
    const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/framed/import', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: text });
    expect(imported.json()).toMatchObject({ nodes_created: 2, edges_created: 1 });
    const rows = await t.app.inject({
      method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key },
      payload: { graph_id: 'framed', query: 'MATCH (a:Actor)-[:OPPOSES]->(b:Actor) RETURN a.label, b.label' },
    });
    expect(rows.json().rows).toEqual([[expected.nodes[0].label, expected.nodes[1].label]]);
    const send = (payload: string) => t.app.inject({ method: 'POST', url: '/v1/graphs/framed/import', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload });
    for (const broken of ['{"nodes":[{"kind":"Actor","id":"q","label":"Q"},]}', '{"nodes":[{"kind":"Actor"', '{"nodes":[]} x', '{"nodes":[{"kind":"Actor","id":"q" "label":"Q"}]}', '{"nodes" []}', '{nodes:[]}']) {
      const response = await send(broken);
      expect(response.statusCode, broken).toBe(400);
      expect(response.json().code, broken).toBe('malformed_json');
    }
    const poisoned = await send('{"nodes":[{"kind":"Actor","id":"q","label":"Q","__proto__":{"admin":true}}]}');
    expect(poisoned.json()).toMatchObject({ status: 400, code: 'forbidden_member', field: 'nodes[0].__proto__' });
    const escapedPoison = await send('{"nodes":[{"kind":"Actor","id":"q","label":"Q","\\u005f_proto__":{}}]}');
    expect(escapedPoison.json()).toMatchObject({ status: 400, code: 'forbidden_member' });
    expect((await send('{"nodes":[],"extra":1}')).json()).toMatchObject({ status: 400, code: 'unknown_field', field: 'extra' });
    expect((await send('[]')).statusCode).toBe(400);
    const counts = await t.app.inject({ method: 'GET', url: '/v1/graphs/framed', headers: { 'x-api-key': key } });
    expect(counts.json().nodes).toEqual({ Actor: 2 });
  });

  it('readers see a large write whole or not at all while it is applied a slice at a time', async () => {
    expect((await importWith('whole', bigImport(100))).statusCode).toBe(200);
    let done = false;
    const importing = importWith('whole', bigImport(30_000)).finally(() => (done = true));
    const seen = new Set<number>();
    while (!done) {
      const response = await t.app.inject({ method: 'GET', url: '/v1/graphs/whole', headers: { 'x-api-key': key } });
      seen.add(response.json().node_count);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect((await importing).statusCode).toBe(200);
    seen.add((await t.app.inject({ method: 'GET', url: '/v1/graphs/whole', headers: { 'x-api-key': key } })).json().node_count);
    expect([...seen].every((count) => count === 100 || count === 30_000), [...seen].join()).toBe(true);
    expect(seen.has(30_000)).toBe(true);
  });

  it('exports a large graph sorted by id, sorted in runs and merged between turns of the loop', async () => {
    // ids in an order unlike their sort order, more than one sorted run of them
    const ids = Array.from({ length: 9_000 }, (_, i) => `n${(i * 7919) % 9_000}`);
    const body = { nodes: ids.map((id) => ({ kind: 'Issue', id, label: id })) };
    expect((await importWith('sorted', body)).statusCode).toBe(200);
    const exported = await t.app.inject({ method: 'GET', url: '/v1/graphs/sorted/export', headers: { 'x-api-key': key } });
    const lines = exported.body.trim().split('\n').map((line) => JSON.parse(line).node.id as string);
    expect(lines).toEqual([...ids].sort());
  });
});

describe('a large write reaches the reasoning workers whole', () => {
  it('a query run in a worker after a write sent in parts sees every record', async () => {
    const t = await makeTestApp({ queryInlineMs: 0 });
    try {
      const key = await t.keyFor('tenant-a');
      const send = (body: unknown) => t.app.inject({ method: 'POST', url: '/v1/graphs/parts/import', headers: { 'x-api-key': key }, payload: body as object });
      const count = async () =>
        (await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'parts', query: 'MATCH (a:Actor) RETURN count(a)' } })).json().rows;
      expect((await send(bigImport(10))).statusCode).toBe(200);
      expect(await count()).toEqual([[10]]); // the worker now holds a replica, kept in step by deltas
      // a delta of 6k records (nodes and edges), more than one part of SNAPSHOT_CHUNK
      expect(3_000 * 2 - 1).toBeGreaterThan(SNAPSHOT_CHUNK);
      expect((await send(bigImport(3_000))).statusCode).toBe(200);
      expect(await count()).toEqual([[3_000]]);
      expect((await send(bigImport(3_001))).statusCode).toBe(200);
      expect(await count()).toEqual([[3_001]]);
    } finally {
      await t.close();
    }
  });
});
