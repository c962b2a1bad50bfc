import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

let t: TestApp;
let writeKey: string;
let readKey: string;
let otherKey: string;

function ingest(key: string, graphId: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url: `/v1/graphs/${graphId}/ingest`, headers: { 'x-api-key': key }, payload: payload as object });
}

beforeAll(async () => {
  t = await makeTestApp();
  const corpora = t.deps.config.corporaDir;
  await mkdir(path.join(corpora, 'wire'), { recursive: true });
  await writeFile(path.join(corpora, 'wire', 'sudan.txt'), SUDAN_SENTENCE);
  await writeFile(path.join(corpora, 'page.html'), `<html><head><title>El Fasher</title><script>alert(1)</script></head><body><p>${SUDAN_SENTENCE}</p></body></html>`);
  await writeFile(path.join(corpora, 'scan.txt'), Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]));
  await writeFile(path.join(corpora, 'cp1252.txt'), Buffer.from('The army\x92s statement \x93never\x94', 'latin1'));
  await writeFile(path.join(t.dir, 'outside.txt'), 'secret');
  await symlink(path.join(t.dir, 'outside.txt'), path.join(corpora, 'link.txt'));
  await writeFile(path.join(corpora, 'huge.txt'), Buffer.alloc(10 * 1024 * 1024, 0x61));
  writeKey = await t.keyFor('acme');
  readKey = await t.keyFor('acme', 'read');
  otherKey = await t.keyFor('other');
});
afterAll(async () => {
  await t.close();
});

describe('POST /v1/graphs/{graph_id}/ingest', () => {
  it('ingests a corpus file and reports what it added and the graph after it', async () => {
    const response = await ingest(writeKey, 'sudan', { source: 'wire/sudan.txt' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.graph_id).toBe('sudan');
    expect(body.document).toMatchObject({ source: 'wire/sudan.txt', format: 'text', already_ingested: false, length: SUDAN_SENTENCE.length });
    expect(body.added.nodes_created).toBe(body.summary.node_count);
    expect(body.summary.nodes).toMatchObject({ Actor: 3, Claim: 1, Event: 1, Location: 1, Document: 1 });
    expect(body.summary.edges.ASSERTS).toBe(1);
    expect(body.found.actors).toBe(3);
    expect(body.extractor.transformer).toBe(false);

    const again = await ingest(writeKey, 'sudan', { source: `file://${t.deps.config.corporaDir}/wire/sudan.txt` });
    expect(again.statusCode).toBe(200);
    expect(again.json().added).toEqual({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
    expect(again.json().document.already_ingested).toBe(true);
    expect(again.json().summary).toEqual(body.summary);
  });

  it('ingests HTML as its text, and inline text under any name', async () => {
    const html = (await ingest(writeKey, 'html', { source: 'page.html' })).json();
    expect(html.document).toMatchObject({ format: 'html', title: 'El Fasher' });
    expect(html.summary.nodes.Actor).toBe(3);
    const inline = await ingest(writeKey, 'inline', { source: 'pasted note', text: SUDAN_SENTENCE });
    expect(inline.statusCode).toBe(200);
    expect(inline.json().document).toMatchObject({ source: 'pasted note', format: 'inline' });
  });

  it('refuses unsafe, missing, binary and non-UTF-8 sources with clear errors, and creates nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{ source: '../outside.txt' }, 400, 'source_outside_root'],
      [{ source: path.join(t.dir, 'outside.txt') }, 400, 'source_outside_root'],
      [{ source: `file://${t.deps.config.corporaDir}/%2e%2e/outside.txt` }, 400, 'source_outside_root'],
      [{ source: 'link.txt' }, 400, 'source_outside_root'],
      [{ source: 'nothing-here.txt' }, 404, 'source_not_found'],
      [{ source: 'scan.txt' }, 400, 'source_not_text'],
      [{ source: 'cp1252.txt' }, 400, 'source_not_text'],
      [{ source: 'notes.docx' }, 400, 'unsupported_source_type'],
      [{ source: 'huge.txt' }, 413, 'source_too_large'],
      [{ source: 'x', text: '' }, 400, 'empty_text'],
      [{ text: 'x' }, 400, 'missing_field'],
    ];
    for (const [payload, status, code] of cases) {
      const response = await ingest(writeKey, 'refusals', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().code, JSON.stringify(payload)).toBe(code);
      expect(response.json().detail.length).toBeGreaterThan(10);
    }
    const graph = await t.app.inject({ method: 'GET', url: '/v1/graphs/refusals', headers: { 'x-api-key': writeKey } });
    expect(graph.statusCode).toBe(404);
  });

  it('needs a write key', async () => {
    const response = await ingest(readKey, 'sudan', { source: 'wire/sudan.txt' });
    expect(response.statusCode).toBe(403);
  });

  it("keeps tenants apart: another tenant's ingest under the same graph id is its own graph", async () => {
    await ingest(writeKey, 'tenants', { source: 'wire/sudan.txt' });
    const other = await ingest(otherKey, 'tenants', { source: 'wire/sudan.txt' });
    expect(other.statusCode).toBe(200);
    expect(other.json().document.already_ingested).toBe(false);
    expect(other.json().added.nodes_created).toBe(other.json().summary.node_count);
    const mine = await t.app.inject({ method: 'GET', url: '/v1/graphs/tenants', headers: { 'x-api-key': writeKey } });
    expect(mine.json().node_count).toBe(other.json().summary.node_count);
  });
});
