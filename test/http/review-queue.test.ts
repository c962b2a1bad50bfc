import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parley } from '../../packages/client/src/index.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const from = (source: string) => [{ source, timestamp: '2024-05-02T00:00:00.000Z', document_id: `doc:${source}` }];
const MAY_1 = '2024-05-01T10:00:00.000Z';
const MAY_3 = '2024-05-03T10:00:00.000Z';
const MAY_5 = '2024-05-05T10:00:00.000Z';

/** Two disputes and five unsure records, recorded on three days (imported with their recorded_at, as an export writes it). */
const graph = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'the RSF', confidence: 0.4, recorded_at: MAY_1, provenance: from('rsf-channel') },
    { kind: 'Actor', id: 'saf', label: 'the army', confidence: 0.9, recorded_at: MAY_1, provenance: from('army-statement') },
    { kind: 'Event', id: 'shelling', event_type: 'ASSAULT', label: 'shelling of the market', date: '2024-05-01', recorded_at: MAY_1, provenance: from('monitor') },
    { kind: 'Claim', id: 'denial', type: 'Denial', text: 'we did not shell the market', recorded_at: MAY_3, provenance: from('rsf-channel') },
    { kind: 'Event', id: 'airport', event_type: 'ASSAULT', label: 'the airport taken', date: '2024-05-03', recorded_at: MAY_5, provenance: from('monitor') },
    { kind: 'Claim', id: 'holding', type: 'Position', text: 'we hold the airport', confidence: 0.3, recorded_at: MAY_5, provenance: from('army-statement') },
    { kind: 'Actor', id: 'militia', label: 'a militia', confidence: 0.55, recorded_at: MAY_5, provenance: from('monitor') },
  ],
  edges: [
    { type: 'OPPOSES', from: 'saf', to: 'rsf', confidence: 0.5, recorded_at: MAY_1, provenance: from('monitor') },
    { type: 'CONTRADICTS', from: 'denial', to: 'shelling', recorded_at: MAY_3, provenance: from('rsf-channel') },
    { type: 'CONTRADICTS', from: 'holding', to: 'airport', recorded_at: MAY_5, provenance: from('army-statement') },
    { type: 'ALLIED_WITH', from: 'militia', to: 'rsf', confidence: 0.2, recorded_at: MAY_5, provenance: from('monitor') },
  ],
};

describe('the review queue over HTTP: disputes and low-confidence records with the date recorded, newest first', () => {
  let t: TestApp;
  let key: string;
  let other: string;
  const get = (url: string, apiKey = key) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
  const listed = (list: { id: string; recorded_at: string }[]) => list.map((item) => [item.id, item.recorded_at]);

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a');
    other = await t.keyFor('tenant-b');
    expect((await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: graph })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('disputes carry when they were recorded; order=newest lists the latest first, ties by id', async () => {
    const byId = (await get('/v1/graphs/sudan/disputes')).json();
    expect(listed(byId.disputes)).toEqual([['airport', MAY_5], ['denial', MAY_3], ['holding', MAY_5], ['shelling', MAY_1]]);
    const newest = await get('/v1/graphs/sudan/disputes?order=newest');
    expect(listed(newest.json().disputes)).toEqual([['airport', MAY_5], ['holding', MAY_5], ['denial', MAY_3], ['shelling', MAY_1]]);
    expect((await get('/v1/graphs/sudan/disputes?order=newest')).body).toBe(newest.body);
    const before = (await get(`/v1/graphs/sudan/disputes?order=newest&as_of=${encodeURIComponent('2024-05-04T00:00:00Z')}`)).json();
    expect(listed(before.disputes)).toEqual([['denial', MAY_3], ['shelling', MAY_1]]);
  });

  it('pages disputes newest first one at a time to the same list, and refuses a token of the other order or an unknown order', async () => {
    const paged: string[] = [];
    let token: string | undefined;
    do {
      const page = (await get(`/v1/graphs/sudan/disputes?order=newest&page_size=1${token ? `&page_token=${token}` : ''}`)).json();
      paged.push(...page.disputes.map((dispute: { id: string }) => dispute.id));
      token = page.next_page_token;
    } while (token);
    expect(paged).toEqual(['airport', 'holding', 'denial', 'shelling']);
    const idToken = (await get('/v1/graphs/sudan/disputes?page_size=1')).json().next_page_token;
    const mixed = await get(`/v1/graphs/sudan/disputes?order=newest&page_token=${idToken}`);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.headers['content-type']).toMatch(/problem\+json/);
    expect(mixed.body).toContain('invalid_page_token');
    const badOrder = await get('/v1/graphs/sudan/disputes?order=oldest');
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.headers['content-type']).toMatch(/problem\+json/);
  });

  it('lists the nodes and edges below the bound, the newest recorded first, a node before an edge of the same instant, then by id', async () => {
    const answer = await get('/v1/graphs/sudan/low-confidence');
    expect(answer.statusCode).toBe(200);
    const rows = (body: { records: { record: string; kind: string; what: string; confidence: number; recorded_at: string }[] }) => body.records.map((r) => [r.record, r.kind, r.what, r.confidence, r.recorded_at]);
    expect(rows(answer.json())).toEqual([
      ['node', 'Claim', 'we hold the airport', 0.3, MAY_5],
      ['node', 'Actor', 'a militia', 0.55, MAY_5],
      ['edge', 'ALLIED_WITH', 'a militia → the RSF', 0.2, MAY_5],
      ['node', 'Actor', 'the RSF', 0.4, MAY_1],
      ['edge', 'OPPOSES', 'the army → the RSF', 0.5, MAY_1],
    ]);
    expect(answer.json().records.filter((record: { record: string }) => record.record === 'node').map((record: { id: string; from?: string; to?: string }) => [record.id, record.from, record.to])).toEqual([
      ['holding', undefined, undefined],
      ['militia', undefined, undefined],
      ['rsf', undefined, undefined],
    ]);
    expect(answer.json().records.filter((record: { record: string }) => record.record === 'edge').map((record: { from: string; to: string }) => [record.from, record.to])).toEqual([['militia', 'rsf'], ['saf', 'rsf']]);
    // a lower bound, and the graph as it was on May 4th
    expect(rows((await get('/v1/graphs/sudan/low-confidence?below=0.35')).json()).map((row) => row[2])).toEqual(['we hold the airport', 'a militia → the RSF']);
    expect(rows((await get(`/v1/graphs/sudan/low-confidence?as_of=${encodeURIComponent('2024-05-04T00:00:00Z')}`)).json()).map((row) => row[2])).toEqual(['the RSF', 'the army → the RSF']);
    expect((await get('/v1/graphs/sudan/low-confidence')).body).toBe(answer.body);
  });

  it('pages the low-confidence records to the same list; a bad bound or token is a problem; tenants stay apart', async () => {
    const whole = (await get('/v1/graphs/sudan/low-confidence')).json().records;
    const paged: unknown[] = [];
    let token: string | undefined;
    do {
      const page = (await get(`/v1/graphs/sudan/low-confidence?page_size=2${token ? `&page_token=${token}` : ''}`)).json();
      paged.push(...page.records);
      token = page.next_page_token;
    } while (token);
    expect(paged).toEqual(whole);
    for (const bad of ['below=1.5', 'below=high', 'page_token=', `page_token=${Buffer.from('no-bar').toString('base64url')}`]) {
      const refused = await get(`/v1/graphs/sudan/low-confidence?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.headers['content-type']).toMatch(/problem\+json/);
    }
    const hidden = await get('/v1/graphs/sudan/low-confidence', other);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.headers['content-type']).toMatch(/problem\+json/);
  });

  it('the client reads both lists, newest first', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const client = new Parley({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
    expect((await client.disputes('sudan', { order: 'newest', page_size: 2 })).disputes.map((dispute) => [dispute.id, dispute.recorded_at])).toEqual([['airport', MAY_5], ['holding', MAY_5]]);
    expect((await client.lowConfidence('sudan', { below: 0.35 })).records.map((record) => [record.record, record.what])).toEqual([['node', 'we hold the airport'], ['edge', 'a militia → the RSF']]);
  });
});
