import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parley } from '../../packages/client/src/index.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const at = '2024-05-02T00:00:00.000Z';
const from = (source: string) => [{ source, timestamp: at, document_id: `doc:${source}` }];

/** An event one monitor reports and the RSF denies: one source on each side. */
const contested = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'the RSF', provenance: from('rsf-channel') },
    { kind: 'Actor', id: 'saf', label: 'the army', provenance: from('army-statement') },
    { kind: 'Event', id: 'shelling', event_type: 'ASSAULT', label: 'shelling of the Omdurman market', date: '2024-05-01', provenance: from('monitor') },
    { kind: 'Claim', id: 'blame', type: 'Accusation', text: 'the RSF shelled the market', provenance: from('army-statement') },
    { kind: 'Claim', id: 'denial', type: 'Denial', text: 'we did not shell the market', provenance: from('rsf-channel') },
    { kind: 'Claim', id: 'aside', type: 'Position', text: 'talks resume in Jeddah', provenance: from('army-statement') },
  ],
  edges: [
    { type: 'ASSERTS', from: 'saf', to: 'blame', provenance: from('army-statement') },
    { type: 'ASSERTS', from: 'rsf', to: 'denial', provenance: from('rsf-channel') },
    { type: 'CONTRADICTS', from: 'denial', to: 'shelling', provenance: from('rsf-channel') },
  ],
};

/** A third, independent source: a hospital's report of the dead, corroborating the event. */
const corroboration = {
  nodes: [{ kind: 'Claim', id: 'hospital', type: 'Position', text: 'the market was shelled: twelve dead', provenance: from('hospital-report') }],
  edges: [{ type: 'SUPPORTS', from: 'hospital', to: 'shelling', provenance: from('hospital-report') }],
};

describe('contradictions weighed over HTTP: statuses in query answers and GET /v1/graphs/{graph_id}/disputes', () => {
  let t: TestApp;
  let key: string;
  let other: string;
  const post = (url: string, payload: unknown, apiKey = key) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload: payload as object });
  const get = (url: string, apiKey = key) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const statuses = async () => {
    const events = (await post('/v1/graph/query', { graph_id: 'sudan', query: 'MATCH (e:Event) RETURN e' })).json();
    const claims = (await post('/v1/graph/query', { graph_id: 'sudan', query: 'MATCH (c:Claim) RETURN c ORDER BY c.id' })).json();
    return Object.fromEntries([...events.nodes, ...claims.claims].map((record: { id: string; status?: string }) => [record.id, record.status ?? 'none']));
  };

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a');
    other = await t.keyFor('tenant-b');
    expect((await post('/v1/graphs/sudan/import', contested)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a disputed event is accepted, and its denial rejected, once a third independent source corroborates it', async () => {
    // the monitor reports the event, the RSF denies it: one source on each side
    expect(await statuses()).toEqual({ shelling: 'disputed', denial: 'disputed', blame: 'none', aside: 'none' });
    const disputed = await get('/v1/graphs/sudan/disputes');
    expect(disputed.statusCode).toBe(200);
    expect(disputed.json().disputes.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([['denial', 'disputed'], ['shelling', 'disputed']]);
    const shelling = disputed.json().disputes[1];
    expect(shelling).toMatchObject({ kind: 'Event', sources: 1, weight: 1, asserted_by: [], contradicted_by: ['denial'], supported_by: [], documents: ['monitor'] });
    expect(shelling.summary).toBe('disputed: reports say "shelling of the Omdurman market" (1 source); the RSF denies it: "we did not shell the market" (1 source, disputed).');

    // the hospital's report, a third source, corroborates the event
    expect((await post('/v1/graphs/sudan/import', corroboration)).statusCode).toBe(200);
    expect(await statuses()).toEqual({ shelling: 'accepted', denial: 'rejected', blame: 'none', aside: 'none', hospital: 'none' });
    const settled = (await get('/v1/graphs/sudan/disputes')).json();
    expect(settled.disputes.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([['denial', 'rejected']]);
    expect(settled.disputes[0]).toMatchObject({ asserted_by: ['rsf'], sources: 1, contradicted_by: ['shelling'] });
    expect(settled.disputes[0].summary).toBe('rejected: the RSF says "we did not shell the market" (1 source); reports say "shelling of the Omdurman market" (2 independent sources, accepted).');
    const accepted = (await get('/v1/graphs/sudan/disputes?status=accepted')).json();
    expect(accepted.disputes).toMatchObject([{ id: 'shelling', status: 'accepted', sources: 2, supported_by: ['hospital'] }]);
  });

  it('weighs the graph as recorded at as_of', async () => {
    const before = (await get(`/v1/graphs/sudan/disputes?as_of=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).json();
    expect(before).toEqual({ disputes: [] });
  });

  it('pages by id, and refuses a bad status or page token with a problem', async () => {
    const first = await get('/v1/graphs/sudan/disputes?status=accepted,rejected&page_size=1');
    expect(first.json().disputes.map((d: { id: string }) => d.id)).toEqual(['denial']);
    const token = first.json().next_page_token;
    expect(token).toEqual(expect.any(String));
    const second = (await get(`/v1/graphs/sudan/disputes?status=accepted,rejected&page_size=1&page_token=${token}`)).json();
    expect(second.disputes.map((d: { id: string }) => d.id)).toEqual(['shelling']);
    expect(second.next_page_token).toBeUndefined();
    const badStatus = await get('/v1/graphs/sudan/disputes?status=settled');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.headers['content-type']).toMatch(/problem\+json/);
    const badToken = await get('/v1/graphs/sudan/disputes?page_token=');
    expect(badToken.statusCode).toBe(400);
  });

  it('gives the same statuses when the query is shaped in a worker (no inline budget), and the client lists the disputes', async () => {
    const inline = await post('/v1/graph/query', { graph_id: 'sudan', query: 'MATCH (c:Claim)-[r:CONTRADICTS]->(e:Event) RETURN c, r, e' });
    const worker = await makeTestApp({ queryInlineMs: 0 });
    try {
      const workerKey = await worker.keyFor('tenant-a');
      const headers = { 'x-api-key': workerKey };
      for (const graph of [contested, corroboration]) expect((await worker.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers, payload: graph })).statusCode).toBe(200);
      const shaped = await worker.app.inject({ method: 'POST', url: '/v1/graph/query', headers, payload: { graph_id: 'sudan', query: 'MATCH (c:Claim)-[r:CONTRADICTS]->(e:Event) RETURN c, r, e' } });
      expect(shaped.json()).toMatchObject({ claims: [{ id: 'denial', status: 'rejected' }], nodes: [{ id: 'shelling', status: 'accepted' }] });
      expect(shaped.json().claims).toEqual(inline.json().claims);
      expect(shaped.json().nodes).toEqual(inline.json().nodes);
      await worker.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = worker.app.server.address() as { port: number };
      const client = new Parley({ baseUrl: `http://127.0.0.1:${port}`, apiKey: workerKey });
      expect((await client.disputes('sudan')).disputes.map((d) => [d.id, d.status])).toEqual([['denial', 'rejected']]);
      expect((await client.disputes('sudan', { status: 'accepted' })).disputes.map((d) => d.id)).toEqual(['shelling']);
    } finally {
      await worker.close();
    }
  });

  it("keeps tenants apart: another tenant's graph is not found, and its own graph of the same name has its own disputes", async () => {
    const hidden = await get('/v1/graphs/sudan/disputes', other);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.headers['content-type']).toMatch(/problem\+json/);
    expect((await post('/v1/graphs/sudan/import', { nodes: [contested.nodes[0]], edges: [] }, other)).statusCode).toBe(200);
    expect((await get('/v1/graphs/sudan/disputes', other)).json()).toEqual({ disputes: [] });
    expect((await get('/v1/graphs/sudan/disputes')).json().disputes).toHaveLength(1);
  });
});
