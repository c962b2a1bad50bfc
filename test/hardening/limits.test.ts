import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/** Nested `depth` levels deep: [[[…1…]]] or {a:{a:…1…}}. */
function nestedList(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}
function nestedMap(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('depth and shape limits at every door', () => {
  let t: TestApp;
  let key: string;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { 'x-api-key': key, ...headers }, payload: payload as object });
  const query = (text: string, extra: object = {}) => post('/v1/graph/query', { query: text, graph_id: 'g', ...extra });

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a');
    expect((await post('/v1/graphs/g/import', { nodes: [{ kind: 'Actor', id: 'a1', label: 'A' }] })).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it.each([
    ['parentheses', `RETURN ${'('.repeat(480)}1${')'.repeat(480)}`],
    ['lists', `RETURN ${'['.repeat(300)}1${']'.repeat(300)}`],
    ['maps', `RETURN ${'{a: '.repeat(300)}1${'}'.repeat(300)}`],
    ['CASE', `RETURN ${'CASE WHEN true THEN '.repeat(300)}1${' END'.repeat(300)}`],
  ])('refuses %s nested past the limit with a 400 naming it, line and column', async (_name, text) => {
    const response = await query(text);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    const body = response.json();
    expect(body).toMatchObject({ code: 'query_nesting_depth', limit: 64, line: 1 });
    expect(body.column).toBeGreaterThan(7);
  });

  it('answers nesting within the limit', async () => {
    const response = await query(`RETURN ${'('.repeat(60)}1${')'.repeat(60)} AS one`);
    expect(response.statusCode).toBe(200);
    expect(response.json().rows).toEqual([[1]]);
  });

  it.each([
    ['NOT chains', `RETURN ${'NOT '.repeat(2000)}true`],
    ['operator chains', `RETURN ${'1+'.repeat(5000)}1`],
  ])('refuses %s deeper than the expression depth limit', async (_name, text) => {
    const response = await query(text);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'query_expression_depth', limit: 1000 });
  });

  it('refuses parameters nested 3,000 deep, and answers nested ones within the limit', async () => {
    const deep = await query('RETURN $p AS p', { parameters: { p: nestedList(3000) } });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'query_parameter_depth', limit: 32, field: 'parameters' });
    const fine = await query('RETURN $p AS p', { parameters: { p: nestedList(10) } });
    expect(fine.statusCode).toBe(200);
    expect(fine.json().rows[0][0]).toEqual(nestedList(10));
  });

  it('refuses at import a property nested 3,000 deep (JSON and JSON Lines), so reads of the graph keep working', async () => {
    const json = await post('/v1/graphs/g/import', { nodes: [{ kind: 'Actor', id: 'deep', label: 'Deep', extra: nestedMap(3000) }] });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'property_depth', field: 'extra', limit: 16 });
    // written out by hand: JSON.stringify itself overflows at this depth
    const line = `{"node": {"kind": "Actor", "id": "deep2", "label": "Deep", "extra": ${'['.repeat(5000)}1${']'.repeat(5000)}}}`;
    const lines = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' }, payload: line });
    expect(lines.statusCode).toBe(400);
    expect(lines.json()).toMatchObject({ code: 'property_depth' });
    const provenance = await post('/v1/graphs/g/import', { nodes: [{ kind: 'Actor', id: 'deep3', label: 'Deep', provenance: [{ source: 's', timestamp: '2024-01-01', note: nestedMap(100) }] }] });
    expect(provenance.json()).toMatchObject({ code: 'property_depth', field: 'provenance' });
    const read = await query('MATCH (n) RETURN n');
    expect(read.statusCode).toBe(200);
    expect(read.json().actors.map((a: { id: string }) => a.id)).toEqual(['a1']);
  });

  it('refuses a record whose properties are larger than the record limit', async () => {
    const response = await post('/v1/graphs/g/import', { nodes: [{ kind: 'Actor', id: 'big', label: 'Big', notes: 'x'.repeat(1024 * 1024 + 10) }] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'record_too_large', limit: 1024 * 1024 });
  });
});
