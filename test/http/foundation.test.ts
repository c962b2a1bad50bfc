import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParleyStore } from '../../engine/store/store.ts';
import { buildApp } from '../../server/app.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  await t.close();
});

const workspace = { name: 'Sudan war', domain: 'armed', scale: 'macro', tier: 'full' };

function expectProblem(response: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  const body = response.json();
  expect(body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String), type: expect.stringContaining(code) });
  return body;
}

const sudanGraph = {
  nodes: [
    { kind: 'Actor', id: 'burhan', label: 'Abdel Fattah al-Burhan', role: 'party', actor_type: 'individual', confidence: 0.9 },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group' },
    { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'never accept a ceasefire that leaves the RSF in the cities', provenance: [{ source: 'reuters-2024-03-03', timestamp: '2024-03-03T10:00:00Z', span: { start: 0, end: 10 }, quote: 'never acce' }] },
  ],
  edges: [
    { type: 'ASSERTS', from: 'burhan', to: 'c1', confidence: 0.8 },
    { type: 'TARGETS', from: 'c1', to: 'rsf' },
  ],
};

describe('health and OpenAPI', () => {
  it('answers health without a key and serves an OpenAPI 3.1 document of the routes', async () => {
    expect((await t.app.inject({ url: '/v1/health' })).json()).toEqual({ status: 'ok', store: { kind: 'leveldb' }, reasoning: { workers: expect.any(Array) } });
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/workspaces', '/v1/graphs/{graph_id}/import', '/v1/keys']));
    expect(doc.paths['/v1/workspaces'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WorkspaceCreate' });
    const body = doc.components.schemas.WorkspaceCreate;
    expect(body.required).toEqual(['name', 'domain', 'scale', 'tier']);
    expect(body.properties.domain.enum).toContain('armed');
  });

  it('answers unknown routes with a problem', async () => {
    expectProblem(await t.app.inject({ url: '/v1/nothing', headers: { 'x-api-key': t.adminKey } }), 404, 'route_not_found');
  });
});

describe('authentication', () => {
  it('refuses a missing, an unknown and a revoked key with 401', async () => {
    expectProblem(await t.app.inject({ url: '/v1/workspaces' }), 401, 'missing_api_key');
    expectProblem(await t.app.inject({ url: '/v1/workspaces', headers: { 'x-api-key': 'pk_0123456789abcdef_nope' } }), 401, 'invalid_api_key');
    const created = (await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': t.adminKey }, payload: { tenant: 'acme' } })).json();
    expect(created.api_key).toMatch(/^pk_/);
    expect((await t.app.inject({ url: '/v1/workspaces', headers: { 'x-api-key': created.api_key } })).statusCode).toBe(200);
    const listed = (await t.app.inject({ url: '/v1/keys', headers: { 'x-api-key': t.adminKey } })).json();
    expect(listed.keys.map((k: any) => k.key_id)).toContain(created.key_id);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/keys/${created.key_id}`, headers: { 'x-api-key': t.adminKey } })).statusCode).toBe(204);
    expectProblem(await t.app.inject({ url: '/v1/workspaces', headers: { 'x-api-key': created.api_key } }), 401, 'invalid_api_key');
    expectProblem(await t.app.inject({ method: 'DELETE', url: '/v1/keys/ffffffffffffffff', headers: { 'x-api-key': t.adminKey } }), 404, 'key_not_found');
  });

  it('refuses writes with a read key (403) and key management without admin (403)', async () => {
    const reader = await t.keyFor('acme', 'read');
    expectProblem(await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': reader }, payload: workspace }), 403, 'read_only_key');
    expectProblem(await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': reader }, payload: sudanGraph }), 403, 'read_only_key');
    expect((await t.app.inject({ url: '/v1/graphs', headers: { 'x-api-key': reader } })).statusCode).toBe(200);
    const writer = await t.keyFor('acme');
    expectProblem(await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': writer }, payload: { tenant: 'acme' } }), 403, 'admin_required');
  });

  it('rate limits per key with Retry-After', async () => {
    await t.close();
    t = await makeTestApp({ rateLimitPerMinute: 3 });
    const key = await t.keyFor('acme');
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ url: '/v1/graphs', headers: { 'x-api-key': key } })).statusCode).toBe(200);
    const limited = await t.app.inject({ url: '/v1/graphs', headers: { 'x-api-key': key } });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('workspaces', () => {
  it('creates, gets, lists with pagination and deletes', async () => {
    const key = await t.keyFor('acme');
    const created = await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: workspace });
    expect(created.statusCode).toBe(201);
    const ws = created.json();
    expect(ws).toMatchObject({ ...workspace, id: expect.stringMatching(/^ws_/), graph_id: ws.id, created_at: expect.any(String) });
    expect((await t.app.inject({ url: `/v1/workspaces/${ws.id}`, headers: { 'x-api-key': key } })).json()).toEqual(ws);
    // its graph exists, empty
    expect((await t.app.inject({ url: `/v1/graphs/${ws.graph_id}`, headers: { 'x-api-key': key } })).json()).toMatchObject({ node_count: 0, edge_count: 0 });
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: { ...workspace, name: `w${i}` } });
    const page1 = (await t.app.inject({ url: '/v1/workspaces?page_size=3', headers: { 'x-api-key': key } })).json();
    expect(page1.workspaces).toHaveLength(3);
    const page2 = (await t.app.inject({ url: `/v1/workspaces?page_size=3&page_token=${page1.next_page_token}`, headers: { 'x-api-key': key } })).json();
    expect(page2.workspaces).toHaveLength(1);
    expect(page2.next_page_token).toBeUndefined();
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/workspaces/${ws.id}`, headers: { 'x-api-key': key } })).statusCode).toBe(204);
    expectProblem(await t.app.inject({ url: `/v1/workspaces/${ws.id}`, headers: { 'x-api-key': key } }), 404, 'workspace_not_found');
  });

  it('names the missing field, the unknown field and the allowed values of an enum', async () => {
    const key = await t.keyFor('acme');
    const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: payload as object });
    for (const field of ['name', 'domain', 'scale', 'tier']) {
      const { [field]: _omitted, ...rest } = workspace as Record<string, string>;
      expect(expectProblem(await post(rest), 400, 'missing_field').field).toBe(field);
    }
    const badTier = expectProblem(await post({ ...workspace, tier: 'premium' }), 400, 'invalid_value');
    expect(badTier.detail).toContain('essential, standard, full');
    expect(badTier.field).toBe('tier');
    expect(expectProblem(await post({ ...workspace, domain: 'space' }), 400, 'invalid_value').detail).toContain('interpersonal, workplace, commercial, legal, political, armed');
    expect(expectProblem(await post({ ...workspace, colour: 'red' }), 400, 'unknown_field').field).toBe('colour');
    expect(expectProblem(await post({ ...workspace, name: 42 }), 400, 'invalid_type').field).toBe('name');
  });

  it('answers malformed JSON and an oversized body with problems', async () => {
    const key = await t.keyFor('acme');
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: '{"name": "x",' });
    expectProblem(malformed, 400, 'malformed_json');
    const huge = await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify({ ...workspace, name: 'x'.repeat(3 * 1024 * 1024) }) });
    expectProblem(huge, 413, 'body_too_large');
  });
});

describe('graphs: import, export, tenants', () => {
  it('imports, counts by kind, exports JSON Lines that import reads back identically', async () => {
    const key = await t.keyFor('acme');
    const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: sudanGraph });
    expect(imported.json()).toEqual({ graph_id: 'sudan', nodes_created: 3, nodes_updated: 0, edges_created: 2, edges_updated: 0, graph_created: true });
    const summary = (await t.app.inject({ url: '/v1/graphs/sudan', headers: { 'x-api-key': key } })).json();
    expect(summary).toMatchObject({ graph_id: 'sudan', node_count: 3, edge_count: 2, nodes: { Actor: 2, Claim: 1 }, edges: { ASSERTS: 1, TARGETS: 1 } });
    const exported = await t.app.inject({ url: '/v1/graphs/sudan/export', headers: { 'x-api-key': key } });
    expect(exported.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = exported.body.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.filter((l) => l.node)).toHaveLength(3);
    expect(lines.find((l) => l.node?.id === 'c1').node.provenance.source).toBe('reuters-2024-03-03');
    const reimported = await t.app.inject({ method: 'POST', url: '/v1/graphs/copy/import', headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' }, payload: exported.body });
    expect(reimported.json()).toMatchObject({ nodes_created: 3, edges_created: 2 });
    const again = await t.app.inject({ url: '/v1/graphs/copy/export', headers: { 'x-api-key': key } });
    expect(again.body).toBe(exported.body);
  });

  it("exports provenance as SEED.md's object; import reads that object, one record as an object, or a list, to the same graph", async () => {
    const key = await t.keyFor('acme');
    const records = [{ source: 'afp-2024-03-04', timestamp: '2024-03-04' }, { source: 'reuters-2024-03-03', timestamp: '2024-03-03T10:00:00Z', quote: 'never acce' }];
    const claim = (provenance: unknown) => ({ nodes: [{ kind: 'Claim', id: 'c1', type: 'RedLine', text: 'never accept a ceasefire', provenance }] });
    const exportOf = async (graph: string, body: object) => {
      expect((await t.app.inject({ method: 'POST', url: `/v1/graphs/${graph}/import`, headers: { 'x-api-key': key }, payload: body })).statusCode).toBe(200);
      // each graph records its own import time
      const { recorded_at, ...node } = JSON.parse((await t.app.inject({ url: `/v1/graphs/${graph}/export`, headers: { 'x-api-key': key } })).body).node;
      expect(recorded_at).toEqual(expect.any(String));
      return node;
    };
    const fromList = await exportOf('list', claim(records));
    expect(fromList.provenance).toEqual({ source: 'reuters-2024-03-03', timestamp: '2024-03-03T10:00:00Z', sources: [records[1], records[0]] });
    expect(await exportOf('object', claim(fromList.provenance))).toEqual(fromList);
    expect(await exportOf('sources-only', claim({ sources: records }))).toEqual(fromList);
    const single = (await exportOf('single', claim(records[0]))).provenance;
    expect(single).toEqual({ source: 'afp-2024-03-04', timestamp: '2024-03-04', sources: [records[0]] });

    const refused = async (provenance: unknown, field: string) => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/graphs/refused/import', headers: { 'x-api-key': key }, payload: claim(provenance) });
      expect(expectProblem(response, 400, 'invalid_record'), JSON.stringify(provenance)).toMatchObject({ record: 'nodes[0]', field });
    };
    await refused('reuters', 'provenance');
    await refused({ source: 'reuters-2024-03-03', timestamp: '2024-03-03T10:00:00Z', sources: [] }, 'provenance.sources');
    await refused({ source: 'reuters', timestamp: '2024-03-03T10:00:00Z', sources: 'reuters' }, 'provenance.sources');
    await refused({ source: 'afp-2024-03-04', timestamp: '2024-03-04', sources: records }, 'provenance.source');
    await refused({ source: 'reuters-2024-03-03', timestamp: '2024-03-04', sources: records }, 'provenance.timestamp');
    await refused({ source: 'reuters', timestamp: 'yesterday' }, 'provenance[0].timestamp');
    expect((await t.app.inject({ url: '/v1/graphs/refused', headers: { 'x-api-key': key } })).statusCode).toBe(404);
  });

  it('rejects the whole import when one record is bad, naming it, and leaves the graph unchanged', async () => {
    const key = await t.keyFor('acme');
    await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: sudanGraph });
    const bad = {
      nodes: [{ kind: 'Actor', id: 'saf', label: 'SAF', actor_type: 'armed_forces' }, { kind: 'Claim', id: 'c2', type: 'Wish', text: 'x' }],
      edges: [{ type: 'ASSERTS', from: 'saf', to: 'c2' }],
    };
    const response = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: bad });
    const body = expectProblem(response, 400, 'invalid_record');
    expect(body).toMatchObject({ record: 'nodes[1]', field: 'type' });
    expect(body.detail).toContain('RedLine');
    const lines = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' }, payload: '{"node": {"kind": "Issue", "label": "x"}}\n{"node": oops}\n' });
    expect(expectProblem(lines, 400, 'invalid_json_line').line).toBe(2);
    expect((await t.app.inject({ url: '/v1/graphs/sudan', headers: { 'x-api-key': key } })).json()).toMatchObject({ node_count: 3, edge_count: 2 });
    expectProblem(await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: { nodes: [], edges: [], extra: 1 } }), 400, 'unknown_field');
    expectProblem(await t.app.inject({ method: 'POST', url: '/v1/graphs/bad%20id/import', headers: { 'x-api-key': key }, payload: sudanGraph }), 400, 'invalid_value');
  });

  it('hides every graph and workspace of another tenant (404, absent from lists)', async () => {
    const acme = await t.keyFor('acme');
    const globex = await t.keyFor('globex');
    await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': acme }, payload: sudanGraph });
    const ws = (await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': acme }, payload: workspace })).json();
    for (const url of ['/v1/graphs/sudan', '/v1/graphs/sudan/export', `/v1/workspaces/${ws.id}`]) {
      expect((await t.app.inject({ url, headers: { 'x-api-key': globex } })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/graphs/sudan', headers: { 'x-api-key': globex } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/workspaces/${ws.id}`, headers: { 'x-api-key': globex } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v1/graphs', headers: { 'x-api-key': globex } })).json().graphs).toEqual([]);
    expect((await t.app.inject({ url: '/v1/workspaces', headers: { 'x-api-key': globex } })).json().workspaces).toEqual([]);
    // the same graph id in another tenant is another graph
    await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': globex }, payload: { nodes: [{ kind: 'Issue', label: 'water' }] } });
    expect((await t.app.inject({ url: '/v1/graphs/sudan', headers: { 'x-api-key': globex } })).json().node_count).toBe(1);
    expect((await t.app.inject({ url: '/v1/graphs/sudan', headers: { 'x-api-key': acme } })).json().node_count).toBe(3);
    // deleting one tenant's graph leaves the other's
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/graphs/sudan', headers: { 'x-api-key': globex } })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/v1/graphs/sudan', headers: { 'x-api-key': acme } })).json().node_count).toBe(3);
  });
});

describe('restart', () => {
  it('keeps keys, workspaces and graphs across a restart of the server and store', async () => {
    const key = await t.keyFor('acme');
    const ws = (await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: workspace })).json();
    await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: sudanGraph });
    const exported = (await t.app.inject({ url: '/v1/graphs/sudan/export', headers: { 'x-api-key': key } })).body;
    await t.app.close();
    await t.store.close();

    const store = await ParleyStore.open(path.join(t.dir, 'store'));
    const app = await buildApp({ ...t.deps, store });
    try {
      expect((await app.inject({ url: `/v1/workspaces/${ws.id}`, headers: { 'x-api-key': key } })).json()).toEqual(ws);
      expect((await app.inject({ url: '/v1/graphs/sudan/export', headers: { 'x-api-key': key } })).body).toBe(exported);
      expect((await store.bootstrapAdminKey()).created).toBe(false);
    } finally {
      t = { ...t, app, store }; // afterEach closes them
    }
  });
});
