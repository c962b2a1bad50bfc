import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
