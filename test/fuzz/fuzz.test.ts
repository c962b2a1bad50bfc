import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { conflictGraph } from '../query/fixtures.ts';
import { PARAMETERS, anyQuery, answerLikeTheRoute, mutatedImport } from './generators.ts';

/** A modest count here; `npm run fuzz` runs the same generators at a million queries. */
describe('fuzz: no untyped error, no 500', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await makeTestApp({ queryTimeoutMs: 500, authFailuresPerMinute: 0 });
    key = await t.keyFor('tenant-a');
  });
  afterAll(async () => t.close());

  it('the engine answers generated queries (shaped as the route shapes them) or throws a typed error', () => {
    const graph = conflictGraph();
    fc.assert(
      fc.property(anyQuery, (query) => {
        expect(answerLikeTheRoute(graph, query)).toBeUndefined();
      }),
      { numRuns: 600 },
    );
  });

  it('the HTTP app answers mutated import bodies and generated queries without a 500, errors as problem+json', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedImport, anyQuery, async (body, query) => {
        const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/fuzz/import', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: body });
        expect(imported.statusCode).toBeLessThan(500);
        if (imported.statusCode >= 400) expect(imported.headers['content-type']).toMatch(/^application\/problem\+json/);
        const answered = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'fuzz', query, parameters: PARAMETERS } });
        expect([200, 400, 404, 503]).toContain(answered.statusCode);
        if (answered.statusCode >= 400) expect(answered.headers['content-type']).toMatch(/^application\/problem\+json/);
      }),
      { numRuns: 150 },
    );
  });
});
