import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

// Which requests tell the reasoning pool that a client is at work on a graph (ReasoningPool.preload,
// whose effect test/reason/preload.test.ts measures): the calls are recorded on the real pool, which
// still preloads.
describe('the requests that have the reasoning workers preload a graph', () => {
  let t: TestApp;
  let key: string;
  let readKey: string;
  const asked: string[] = [];
  const call = (method: 'GET' | 'POST', url: string, payload?: object, apiKey = key) =>
    t.app.inject({ method, url, headers: { 'x-api-key': apiKey }, ...(payload ? { payload } : {}) });
  const askedBy = async (request: Promise<{ statusCode: number; body: string }>, status = 200) => {
    asked.length = 0;
    const response = await request;
    expect(response.statusCode, response.body).toBe(status);
    return [...asked];
  };

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('analysts');
    readKey = await t.keyFor('analysts', 'read');
    const preload = t.deps.reasoning.preload.bind(t.deps.reasoning);
    t.deps.reasoning.preload = (tenant, graphId) => {
      asked.push(`${tenant}/${graphId}`);
      preload(tenant, graphId);
    };
  });
  afterAll(async () => t.close());

  it('are an import, an ingest, a committing extract, and a GET of the graph or its workspace; not a listing, a failed call or an extract that writes nothing', async () => {
    const node = { kind: 'Actor', id: 'a', label: 'Northern Army', role: 'party' };
    expect(await askedBy(call('POST', '/v1/graphs/g/import', { nodes: [node], edges: [] }))).toEqual(['analysts/g']);
    expect(await askedBy(call('POST', '/v1/graphs/g/ingest', { source: 'note.txt', text: 'The Northern Army shelled the river valley on 3 March 2024.' }))).toEqual(['analysts/g']);
    const workspace = (await call('POST', '/v1/workspaces', { name: 'w', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' })).json();
    expect(await askedBy(call('GET', `/v1/workspaces/${workspace.id}`, undefined, readKey))).toEqual(['analysts/g']);
    expect(await askedBy(call('GET', '/v1/graphs/g', undefined, readKey))).toEqual(['analysts/g']);
    expect(await askedBy(call('POST', `/v1/workspaces/${workspace.id}/extract`, { text: 'Rebels besieged the town of Kadugli.' }))).toEqual(['analysts/g']);
    expect(await askedBy(call('POST', `/v1/workspaces/${workspace.id}/extract`, { text: 'Rebels besieged the town of Kadugli.', commit: false }, readKey))).toEqual([]);
    expect(await askedBy(call('GET', '/v1/workspaces', undefined, readKey))).toEqual([]);
    expect(await askedBy(call('GET', '/v1/graphs/nope', undefined, readKey), 404)).toEqual([]);
    // another tenant's graph of the same name is not theirs: 404, and nothing of it is preloaded
    const other = await t.keyFor('others', 'read');
    expect(await askedBy(call('GET', '/v1/graphs/g', undefined, other), 404)).toEqual([]);
  }, 60_000);
});
