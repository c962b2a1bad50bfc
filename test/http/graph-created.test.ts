import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

/** Writes say when they created their graph, and queries say when they name what the graph holds none of: no silent traps. */

let t: TestApp;
let key: string;
const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': key, ...headers }, payload });

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.keyFor('acme');
});
afterAll(async () => {
  await t.close();
});

describe('graph_created', () => {
  it('an ingest into a new graph says it created it; into that graph again, or a misspelled id, says what is true', async () => {
    const first = await post('/v1/graphs/sudan/ingest', { source: 'a.txt', text: SUDAN_SENTENCE });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().graph_created).toBe(true);
    const again = await post('/v1/graphs/sudan/ingest', { source: 'b.txt', text: `${SUDAN_SENTENCE} The talks in Jeddah stalled.` });
    expect(again.json().graph_created).toBe(false);
    const misspelled = await post('/v1/graphs/sudann/ingest', { source: 'b.txt', text: SUDAN_SENTENCE });
    expect(misspelled.json()).toMatchObject({ graph_id: 'sudann', graph_created: true });
  });

  it('an import says so too, and its idempotent retry answers the first summary', async () => {
    const graph = { nodes: [{ kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces' }], edges: [] };
    const created = await post('/v1/graphs/imported/import', graph, { 'idempotency-key': 'first' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ graph_id: 'imported', nodes_created: 1, graph_created: true });
    const retry = await post('/v1/graphs/imported/import', graph, { 'idempotency-key': 'first' });
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.json()).toEqual(created.json());
    const more = await post('/v1/graphs/imported/import', { nodes: [{ kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces' }], edges: [] });
    expect(more.json()).toMatchObject({ nodes_created: 1, graph_created: false });
  });

  it("an extract with commit into a workspace's graph (made with the workspace) creates none, unless the graph was deleted", async () => {
    const created = await post('/v1/workspaces', { name: 'Sudan', domain: 'armed', scale: 'macro', tier: 'full' });
    expect(created.statusCode, created.body).toBe(201);
    const workspace = created.json();
    const extracted = await post(`/v1/workspaces/${workspace.id}/extract`, { text: SUDAN_SENTENCE });
    expect(extracted.json()).toMatchObject({ committed: true, graph_created: false });
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/graphs/${workspace.graph_id}`, headers: { 'x-api-key': key } })).statusCode).toBe(204);
    const recreated = await post(`/v1/workspaces/${workspace.id}/extract`, { text: SUDAN_SENTENCE });
    expect(recreated.json()).toMatchObject({ committed: true, graph_created: true });
    const looked = await post(`/v1/workspaces/${workspace.id}/extract`, { text: SUDAN_SENTENCE, commit: false });
    expect(looked.json()).toMatchObject({ committed: false, graph_created: false });
  });
});

describe('query notifications', () => {
  it('a query naming an unknown label or relationship type answers its rows with warnings at their line and column; a known one has none', async () => {
    const query = 'MATCH (a:Actor)-[:OPOSES]->(b:Actr) RETURN a.label';
    const warned = await post('/v1/graph/query', { graph_id: 'imported', query });
    expect(warned.statusCode, warned.body).toBe(200);
    const body = warned.json();
    expect(body.rows).toEqual([]);
    expect(body.notifications).toEqual([
      expect.objectContaining({ code: 'unknown_relationship_type', severity: 'warning', position: { line: 1, column: query.indexOf('OPOSES') + 1 } }),
      expect.objectContaining({ code: 'unknown_label', severity: 'warning', position: { line: 1, column: query.indexOf('Actr)') + 1 } }),
    ]);
    expect(body.notifications[1].title).toContain('Actr');

    const known = await post('/v1/graph/query', { graph_id: 'imported', query: 'MATCH (a:Actor) RETURN a.label ORDER BY a.label' });
    expect(known.json().rows).toEqual([['Rapid Support Forces'], ['Sudanese Armed Forces']]);
    expect(known.json()).not.toHaveProperty('notifications');

    const explained = await post('/v1/graph/query', { graph_id: 'imported', query: 'MATCH (m:Mediator) RETURN m', explain: true });
    expect(explained.json()).toMatchObject({ rows: [], plan: expect.anything(), notifications: [expect.objectContaining({ code: 'unknown_label' })] });
  });
});
