import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../helpers/postgres.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const actor = (id: string) => ({ kind: 'Actor', id, label: `Actor ${id}` });

/** Imports actors into graph g; the revision its answer names. */
async function importActors(t: TestApp, key: string, ids: string[]): Promise<number> {
  const response = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key }, payload: { nodes: ids.map(actor), edges: [] } });
  expect(response.statusCode, response.body).toBe(200);
  return Number(response.headers['parley-revision']);
}

async function actorCount(t: TestApp, key: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key, ...headers }, payload: { graph_id: 'g', query: 'MATCH (a:Actor) RETURN count(a)', ...body } });
}

describe('min_revision on one server (LevelDB)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await makeTestApp({ minRevisionWaitMs: 150 });
    key = await t.keyFor('acme');
  });
  afterAll(async () => t.close());

  it('a write answers its revision; a read at it or before is served at once, one past it waits its bound and names the revision it has', async () => {
    expect(await importActors(t, key, ['a1'])).toBe(0);
    const revision = await importActors(t, key, ['a2']);
    expect(revision).toBe(1);
    expect((await actorCount(t, key, { min_revision: revision })).json().rows).toEqual([[2]]);
    const exported = await t.app.inject({ url: '/v1/graphs/g/export', headers: { 'x-api-key': key, 'parley-min-revision': String(revision) } });
    expect(exported.statusCode).toBe(200);
    expect(exported.body.split('\n').filter(Boolean)).toHaveLength(2);

    const started = performance.now();
    const ahead = await actorCount(t, key, {}, { 'parley-min-revision': String(revision + 1) });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(ahead.statusCode).toBe(503);
    expect(ahead.json()).toMatchObject({ code: 'min_revision_not_reached', graph_id: 'g', min_revision: 2, revision: 1 });
    // assess and analyze wait the same way, before any framework runs
    const workspace = await workspaceOn(t, key);
    for (const [route, body] of [['assess', {}], ['analyze', { query: 'Who opposes whom?' }]] as const) {
      const refused = await t.app.inject({ method: 'POST', url: `/v1/workspaces/${workspace}/${route}`, headers: { 'x-api-key': key }, payload: { ...body, min_revision: revision + 1 } });
      expect(refused.json()).toMatchObject({ status: 503, code: 'min_revision_not_reached', revision: 1 });
    }
  });

  it('refuses a min_revision that is not a count, before reading anything', async () => {
    expect((await actorCount(t, key, {}, { 'parley-min-revision': 'latest' })).statusCode).toBe(400);
    expect((await actorCount(t, key, { min_revision: -1 })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/graphs/nothing/export', headers: { 'x-api-key': key, 'parley-min-revision': '0' } })).statusCode).toBe(404);
  });

  it('health names the store', async () => {
    expect((await t.app.inject({ url: '/v1/health' })).json()).toEqual({ status: 'ok', store: { kind: 'leveldb' }, reasoning: { workers: expect.any(Array) } });
  });
});

describe('two servers on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let keyA: string;
  let keyB: string;
  beforeAll(async () => {
    const store = await freshDatabase(inject('postgresUrl'));
    a = await makeTestApp({ store });
    b = await makeTestApp({ store });
    // keys are kept in the database: one made through either server works on both
    keyA = await a.keyFor('acme');
    keyB = keyA;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("a write through one is read through the other at the revision it answered, the other's loaded graph following it", async () => {
    await importActors(a, keyA, ['a1']);
    // b loads the graph now, so the next write must reach a graph it holds in memory
    expect((await actorCount(b, keyB)).json().rows).toEqual([[1]]);
    const revision = await importActors(a, keyA, ['a2', 'a3']);
    expect((await actorCount(b, keyB, { min_revision: revision })).json().rows).toEqual([[3]]);
  });

  it('concurrent writes to one graph through both land one after another: every revision once, no record lost', async () => {
    const writes = Array.from({ length: 12 }, (_, i) => importActors(i % 2 === 0 ? a : b, keyA, [`w${i}`, `shared`]));
    const revisions = await Promise.all(writes);
    const last = Math.max(...revisions);
    expect(new Set(revisions).size).toBe(revisions.length);
    for (const server of [a, b]) expect((await actorCount(server, keyA, { min_revision: last })).json().rows).toEqual([[3 + 12 + 1]]);
    // the same bytes from either server
    const exportOf = async (server: TestApp) => (await server.app.inject({ url: '/v1/graphs/g/export', headers: { 'x-api-key': keyA, 'parley-min-revision': String(last) } })).body;
    expect(await exportOf(b)).toBe(await exportOf(a));
  });

  it('health names the store and how far behind the other server this one is', async () => {
    const health = (await b.app.inject({ url: '/v1/health' })).json();
    expect(health).toMatchObject({ status: 'ok', store: { kind: 'postgres', replication: { graphs_behind: expect.any(Number), lag_ms: expect.any(Number) } } });
  });
});

async function workspaceOn(t: TestApp, key: string): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: { name: 'w', domain: 'armed', scale: 'macro', tier: 'essential', graph_id: 'g' } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}
