import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_CHARS } from '../../engine/extract/pipeline.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

let t: TestApp;
let writeKey: string;
let readKey: string;
let otherKey: string;

async function createWorkspace(key: string, tier = 'full', graph_id?: string) {
  const response = await t.app.inject({
    method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key },
    payload: { name: 'Sudan', domain: 'armed', scale: 'macro', tier, ...(graph_id ? { graph_id } : {}) },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; graph_id: string };
}

function extract(key: string, workspaceId: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url: `/v1/workspaces/${workspaceId}/extract`, headers: { 'x-api-key': key }, payload: payload as object });
}

beforeAll(async () => {
  t = await makeTestApp();
  writeKey = await t.keyFor('acme');
  readKey = await t.keyFor('acme', 'read');
  otherKey = await t.keyFor('intruder');
});
afterAll(async () => {
  await t.close();
});

describe('POST /v1/workspaces/{id}/extract', () => {
  it('returns actors, claims, events, locations and edges with provenance, and commits them to the graph', async () => {
    const workspace = await createWorkspace(writeKey);
    const response = await extract(writeKey, workspace.id, { text: SUDAN_SENTENCE, source: 'wire/sudan-1.txt' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ workspace_id: workspace.id, graph_id: workspace.graph_id, tier: 'full', committed: true });
    expect(body.document).toMatchObject({ source: 'wire/sudan-1.txt', length: SUDAN_SENTENCE.length });
    expect(body.extractor).toMatchObject({ transformer: false, model: null, note: 'no transformer model configured: symbolic layer only' });

    const actor = (label: string) => body.actors.find((a: { label: string }) => a.label === label);
    expect(actor('Rapid Support Forces')).toMatchObject({ actor_type: 'armed_group' });
    expect(actor('Sudanese Armed Forces')).toMatchObject({ actor_type: 'armed_forces' });
    const burhan = body.actors.find((a: { label: string }) => /al-Burhan$/.test(a.label));
    expect(burhan.actor_type).toBe('individual');
    const redLine = body.claims.find((c: { type: string }) => c.type === 'RedLine');
    expect(redLine.speaker).toBe(burhan.id);
    expect(body.events.find((e: { event_type: string }) => e.event_type === 'ASSAULT').date).toBe('2024-03-03');
    expect(body.locations.map((l: { label: string }) => l.label)).toContain('El Fasher');
    const types = new Set(body.edges.map((e: { type: string }) => e.type));
    for (const type of ['ASSERTS', 'TARGETS', 'PARTICIPATES_IN', 'OCCURRED_AT', 'MEMBER_OF']) expect(types.has(type), type).toBe(true);

    for (const item of [...body.actors, ...body.claims, ...body.events, ...body.locations, ...body.edges]) {
      expect(item.confidence).toBeGreaterThan(0);
      expect(item.provenance.source).toBe(item.provenance.sources[0].source);
      for (const record of item.provenance.sources) {
        expect(SUDAN_SENTENCE.slice(record.span.start, record.span.end)).toBe(record.quote);
        expect(record.source).toBe('wire/sudan-1.txt');
      }
    }
    expect(body.added.nodes_created).toBe(body.stats.nodes);

    const graph = await t.app.inject({ method: 'GET', url: `/v1/graphs/${workspace.graph_id}`, headers: { 'x-api-key': readKey } });
    expect(graph.json().nodes).toMatchObject({ Actor: 3, Claim: 1, Event: 1, Location: 1, Document: 1 });

    const again = await extract(writeKey, workspace.id, { text: SUDAN_SENTENCE, source: 'another-name' });
    expect(again.json().added).toEqual({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
    expect(again.json().document.source).toBe('wire/sudan-1.txt');
  });

  it('extracts without writing when commit is false, which a read key may do', async () => {
    const workspace = await createWorkspace(writeKey);
    const refused = await extract(readKey, workspace.id, { text: SUDAN_SENTENCE });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('read_only_key');

    const response = await extract(readKey, workspace.id, { text: SUDAN_SENTENCE, commit: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ committed: false, added: null });
    expect(response.json().document.source).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(response.json().actors.length).toBe(3);
    const graph = await t.app.inject({ method: 'GET', url: `/v1/graphs/${workspace.graph_id}`, headers: { 'x-api-key': readKey } });
    expect(graph.json().node_count).toBe(0);
  });

  it('fills only the essential tier in an essential workspace', async () => {
    const workspace = await createWorkspace(writeKey, 'essential');
    const text = `${SUDAN_SENTENCE} The SAF demanded a ceasefire and the withdrawal of the RSF.`;
    const body = (await extract(writeKey, workspace.id, { text })).json();
    expect(body.issues).toEqual([]);
    expect(body.edges.filter((e: { type: string }) => ['ABOUT', 'ALLIED_WITH', 'OPPOSES'].includes(e.type))).toEqual([]);
  });

  it('answers bad input with problem documents and writes nothing', async () => {
    const workspace = await createWorkspace(writeKey);
    const cases: [unknown, number, string][] = [
      [{ text: '' }, 400, 'empty_text'],
      [{ text: ' \n\t ' }, 400, 'empty_text'],
      [{}, 400, 'missing_field'],
      [{ text: 'x', extra: 1 }, 400, 'unknown_field'],
      [{ text: 5 }, 400, 'invalid_type'],
      [{ text: 'The RSF attacked.', document_date: 'yesterday' }, 400, 'invalid_value'],
      [{ text: 'a'.repeat(MAX_DOCUMENT_CHARS + 1) }, 413, 'document_too_large'],
    ];
    for (const [payload, status, code] of cases) {
      const response = await extract(writeKey, workspace.id, payload);
      expect(response.statusCode, code).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().code).toBe(code);
    }
    const graph = await t.app.inject({ method: 'GET', url: `/v1/graphs/${workspace.graph_id}`, headers: { 'x-api-key': writeKey } });
    expect(graph.json().node_count).toBe(0);
  });

  it('refuses a 10 MB body before extracting anything', async () => {
    const workspace = await createWorkspace(writeKey);
    const response = await t.app.inject({
      method: 'POST', url: `/v1/workspaces/${workspace.id}/extract`, headers: { 'x-api-key': writeKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'a'.repeat(10 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
  });

  it("answers 404 for an unknown workspace and for another tenant's", async () => {
    const missing = await extract(writeKey, 'ws_doesnotexist', { text: SUDAN_SENTENCE });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('workspace_not_found');
    const workspace = await createWorkspace(writeKey);
    const foreign = await extract(otherKey, workspace.id, { text: SUDAN_SENTENCE });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('workspace_not_found');
  });

  it('needs an API key', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/workspaces/ws_x/extract', payload: { text: 'x' } });
    expect(response.statusCode).toBe(401);
  });
});
