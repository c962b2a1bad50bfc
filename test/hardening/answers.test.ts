import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const PADDING = 'p'.repeat(600);
/** The query: a million three-element lists, 67 MB as JSON. */
const HUGE = `UNWIND range(0,999) AS x UNWIND range(0,999) AS y RETURN collect([x, y, '${PADDING}']) AS all`;

for (const path of ['inline', 'worker'] as const) {
  describe(`bounded answers (${path} path)`, () => {
    let t: TestApp;
    let key: string;
    const query = (text: string) => t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'g', query: text } });

    beforeAll(async () => {
      // inline: the whole query runs on the event loop; worker: it always runs in a reasoning worker
      t = await makeTestApp({ queryInlineMs: path === 'inline' ? 60_000 : 0, queryResponseLimitBytes: 200_000 });
      key = await t.keyFor('tenant-a');
      await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key }, payload: { nodes: [{ kind: 'Actor', id: 'a', label: 'A' }] } });
      // the worker's start (loading the frameworks) is not what the tests measure
      expect((await query('MATCH (n) RETURN count(n) AS n')).statusCode).toBe(200);
    }, 60_000);
    afterAll(async () => t.close());

    it('answers the 67 MB collect() with a 400 naming the limit and its setting, memory staying flat', async () => {
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const responses = await Promise.all(Array.from({ length: 8 }, () => query(HUGE)));
      clearInterval(sampler);
      for (const response of responses) {
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
        // whichever bound the growing list reaches first: 200 kB of answer here
        expect(response.json()).toMatchObject({ code: 'query_response_limit', limit_bytes: 200_000, setting: 'PARLEY_QUERY_RESPONSE_LIMIT_BYTES' });
        expect(response.body.length).toBeLessThan(1000);
      }
      // before the limits, eight of these took the server to 3.5 GB
      expect(peak - before).toBeLessThan(1024 * 1024 * 1024);
    });

    it('refuses an answer past the response limit while its rows are built', async () => {
      const response = await query(`UNWIND range(1, 5000) AS x RETURN x, '${'r'.repeat(100)}' AS padding`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'query_response_limit', limit_bytes: 200_000, setting: 'PARLEY_QUERY_RESPONSE_LIMIT_BYTES' });
    });

    it('refuses a collected list past the response limit before it is complete', async () => {
      const response = await query(`UNWIND range(1, 5000) AS x RETURN collect('${'c'.repeat(100)}')[0] AS n`);
      expect(response.json()).toMatchObject({ code: 'query_response_limit' });
    });

    it.each([
      ['range()', 'RETURN size(range(1, 200000)) AS n'],
      ['a comprehension', 'RETURN size([x IN range(1, 90000) | [x, x]] + range(1, 20000)) AS n'],
      ['doubling concatenation', `WITH range(1, 100) AS l ${'WITH l + l AS l '.repeat(12)}RETURN size(l) AS n`],
    ])('refuses a list past the collection limit built by %s', async (_how, text) => {
      const response = await query(text);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'query_collection_limit', setting: 'PARLEY_QUERY_COLLECTION_LIMIT' });
    });

    it('refuses a string doubled past the response limit', async () => {
      const response = await query(`WITH '${'s'.repeat(100)}' AS s ${'WITH s + s AS s '.repeat(14)}RETURN size(s) AS n`);
      expect(response.json()).toMatchObject({ code: 'query_response_limit' });
    });

    it('answers within the limits', async () => {
      const response = await query('UNWIND range(1, 1000) AS x RETURN count(*) AS n, size(collect(x)) AS m');
      expect(response.statusCode).toBe(200);
      expect(response.json().rows).toEqual([[1000, 1000]]);
    });
  });
}
