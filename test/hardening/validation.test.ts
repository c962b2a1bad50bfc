import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

describe('strict validation of what comes in', () => {
  let t: TestApp;
  let key: string;
  const importJson = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key }, payload: body as object });
  const importRaw = (payload: Buffer | string, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key, 'content-type': contentType }, payload });

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a');
  });
  afterAll(async () => t.close());

  it.each([
    ['a number as an actor label', { kind: 'Actor', id: 'x', label: 42 }, 'label'],
    ['a string as fatalities', { kind: 'Event', id: 'e', event_type: 'ASSAULT', fatalities: 'many' }, 'fatalities'],
    ['a negative count', { kind: 'Event', id: 'e', event_type: 'ASSAULT', fatalities: -3 }, 'fatalities'],
    ['aliases that are not strings', { kind: 'Actor', id: 'x', label: 'X', aliases: ['a', 1] }, 'aliases'],
    ['an impossible event date', { kind: 'Event', id: 'e', event_type: 'ASSAULT', date: '2024-02-30' }, 'date'],
    ['an impossible recorded_at', { kind: 'Actor', id: 'x', label: 'X', recorded_at: '2024-13-45T99:99:99Z' }, 'recorded_at'],
    ['an impossible valid_from', { kind: 'Actor', id: 'x', label: 'X', valid_from: '2023-06-31' }, 'valid_from'],
    ['an impossible provenance timestamp', { kind: 'Actor', id: 'x', label: 'X', provenance: [{ source: 's', timestamp: '2024-01-01T25:00:00Z' }] }, 'provenance[0].timestamp'],
    ['a provenance span that ends before it starts', { kind: 'Actor', id: 'x', label: 'X', provenance: [{ source: 's', timestamp: '2024-01-01', span: { start: 5, end: 2 } }] }, 'provenance[0].span'],
    ['a number as a provenance quote', { kind: 'Actor', id: 'x', label: 'X', provenance: [{ source: 's', timestamp: '2024-01-01', quote: 7 }] }, 'quote'],
  ])('refuses %s, naming the field', async (_what, node, field) => {
    const response = await importJson({ nodes: [node] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_record', field });
  });

  it('accepts the ontology types, real dates of every precision, and null for not known', async () => {
    const response = await importJson({
      nodes: [
        { kind: 'Actor', id: 'x', label: 'X', aliases: ['Ex'], valid_from: '2024', recorded_at: '2024-02-29T23:59:59.123+05:30' },
        { kind: 'Event', id: 'e', event_type: 'ASSAULT', label: null, fatalities: 0, date: '2024-03', provenance: [{ source: 's', timestamp: '2024-03-03T10:00Z', quote: 'q' }] },
      ],
      edges: [{ type: 'PARTICIPATES_IN', from: 'x', to: 'e', role: 'perpetrator', valid_to: '2024-12-31' }],
    });
    expect(response.json()).toMatchObject({ nodes_created: 2, edges_created: 1 });
  });

  it('refuses an edge property of the wrong type', async () => {
    const response = await importJson({ nodes: [{ kind: 'Actor', id: 'y', label: 'Y' }], edges: [{ type: 'OPPOSES', from: 'y', to: 'y', valid_from: 12 }] });
    expect(response.json()).toMatchObject({ code: 'invalid_record', field: 'valid_from' });
  });

  it.each([
    ['a NUL in a label', 'Al\u0000pha', 'nodes[0].label'],
    ['a lone high surrogate', 'Al\ud800pha', 'nodes[0].label'],
    ['a lone low surrogate', '\udc00', 'nodes[0].label'],
  ])('refuses %s in JSON bodies and in JSON Lines', async (_what, label, field) => {
    const json = await importJson({ nodes: [{ kind: 'Actor', id: 'n', label }] });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'invalid_string', field });
    const lines = await importRaw(JSON.stringify({ node: { kind: 'Actor', id: 'n', label } }), 'application/x-ndjson');
    expect(lines.statusCode).toBe(400);
    expect(lines.json()).toMatchObject({ code: 'invalid_string', field: 'line 1.node.label' });
  });

  it('refuses NUL in member names and in query text', async () => {
    const member = await importJson({ nodes: [{ kind: 'Actor', id: 'n', label: 'N', ['ba\u0000d']: 1 }] });
    expect(member.json()).toMatchObject({ code: 'invalid_string' });
    const query = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'g', query: "RETURN 'a\u0000' AS x" } });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ code: 'invalid_string', field: 'query' });
  });

  it('keeps a well-formed astral character (a surrogate pair)', async () => {
    const response = await importJson({ nodes: [{ kind: 'Actor', id: 'emoji', label: 'Flag \u{1F1F8}\u{1F1E9}' }] });
    expect(response.statusCode).toBe(200);
  });

  it('refuses invalid UTF-8 in JSON and JSON Lines bodies, as file ingest does, instead of replacing it', async () => {
    const bad = Buffer.concat([Buffer.from('{"nodes": [{"kind": "Actor", "id": "u", "label": "caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
    const json = await importRaw(bad, 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'source_not_text' });
    const lines = await importRaw(Buffer.concat([Buffer.from('{"node": {"kind": "Actor", "id": "u", "label": "'), Buffer.from([0xff]), Buffer.from('"}}')]), 'application/x-ndjson');
    expect(lines.statusCode).toBe(400);
    expect(lines.json()).toMatchObject({ code: 'source_not_text' });
    const graph = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'g', query: "MATCH (n {id: 'u'}) RETURN n" } });
    expect(graph.json().actors).toEqual([]);
  });

  it('decodes an import body as its chunks arrive: a character split between chunks is kept, an invalid sequence split between them refused', async () => {
    const text = Buffer.from('{"nodes": [{"kind": "Actor", "id": "split", "label": "café"}]}');
    const at = text.indexOf(0xa9); // the second byte of é
    const kept = await importRaw(Readable.from([text.subarray(0, at), text.subarray(at)], { objectMode: false }) as unknown as Buffer, 'application/json');
    expect(kept.statusCode).toBe(200);
    const stored = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'g', query: "MATCH (n:Actor) WHERE id(n) = 'split' RETURN n.label AS label" } });
    expect(stored.json().rows).toEqual([['café']]);
    const lines = Buffer.from('{"node": {"kind": "Actor", "id": "split2", "label": "caf\u00e9"}}\n');
    const bad = [Buffer.from('{"node": {"kind": "Actor", "id": "bad", "label": "caf'), Buffer.from([0xc3]), Buffer.from([0x28]), Buffer.from('"}}')];
    for (const contentType of ['application/json', 'application/x-ndjson']) {
      const refused = await importRaw(Readable.from(bad, { objectMode: false }) as unknown as Buffer, contentType);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'source_not_text' });
    }
    expect((await importRaw(Readable.from([lines.subarray(0, 10), lines.subarray(10)], { objectMode: false }) as unknown as Buffer, 'application/x-ndjson')).statusCode).toBe(200);
  });

  it('refuses an impossible as_of', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'g', query: 'MATCH (n) RETURN n', as_of: '2024-13-45T99:99:99Z' } });
    expect(response.statusCode).toBe(400);
  });
});

describe('the import body limit', () => {
  it('answers 413 for an import body past PARLEY_IMPORT_LIMIT_BYTES, declared or streamed, in JSON and JSON Lines', async () => {
    const t = await makeTestApp({ importBodyLimitBytes: 2_000 });
    try {
      const key = await t.keyFor('tenant-a');
      const nodes = Array.from({ length: 80 }, (_, i) => ({ kind: 'Actor', id: `a${i}`, label: `Actor ${i}` }));
      const bodies: Record<string, string> = { 'application/json': JSON.stringify({ nodes }), 'application/x-ndjson': nodes.map((node) => JSON.stringify({ node })).join('\n') };
      for (const [contentType, body] of Object.entries(bodies)) {
        const declared = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key, 'content-type': contentType }, payload: body });
        expect(declared.statusCode).toBe(413);
        expect(declared.json()).toMatchObject({ code: 'body_too_large' });
        // no content-length: the limit is found while the chunks arrive
        const chunks = [body.slice(0, 1500), body.slice(1500)].map((part) => Buffer.from(part));
        const streamed = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key, 'content-type': contentType }, payload: Readable.from(chunks, { objectMode: false }) });
        expect(streamed.statusCode).toBe(413);
        const small = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key, 'content-type': contentType }, payload: contentType === 'application/json' ? JSON.stringify({ nodes: nodes.slice(0, 3) }) : bodies[contentType].split('\n').slice(0, 3).join('\n') });
        expect(small.statusCode).toBe(200);
      }
      expect((await t.app.inject({ method: 'GET', url: '/v1/graphs/g', headers: { 'x-api-key': key } })).json().node_count).toBe(3);
    } finally {
      await t.close();
    }
  });
});
