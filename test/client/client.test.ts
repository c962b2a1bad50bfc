import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Parley, ParleyError, ParleyQueryError, ParleyTimeoutError } from '../../packages/client/src/index.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';

/** Every client operation against the real server listening on an ephemeral port. */

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const conflict = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group' },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', actor_type: 'state' },
    { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'no ceasefire while the RSF holds the cities',
      provenance: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z' }] },
  ],
  edges: [
    { type: 'ASSERTS', from: 'saf', to: 'c1', confidence: 0.8 },
    { type: 'TARGETS', from: 'c1', to: 'rsf' },
    { type: 'OPPOSES', from: 'saf', to: 'rsf' },
  ],
};

describe('the client against the server', () => {
  let t: TestApp;
  let client: Parley;
  let admin: Parley;
  let baseUrl: string;

  beforeAll(async () => {
    t = await makeTestApp();
    baseUrl = await listen(t);
    admin = new Parley({ baseUrl, apiKey: t.adminKey });
    const created = await admin.keys.create({ tenant: 'acme', scope: 'write', name: 'client test' });
    client = new Parley({ baseUrl: `${baseUrl}/`, apiKey: created.api_key });
  });
  afterAll(async () => t.close());

  it('manages keys as an admin, and a revoked key is refused with a typed 401', async () => {
    const extra = await admin.keys.create({ tenant: 'acme', scope: 'read' });
    expect(extra).toMatchObject({ tenant: 'acme', scope: 'read', admin: false, api_key: expect.stringMatching(/^pk_/) });
    const listed = await admin.keys.list();
    expect(listed.keys.map((key) => key.key_id)).toContain(extra.key_id);
    expect(listed.keys.every((key) => !('api_key' in key))).toBe(true);

    const reader = new Parley({ baseUrl, apiKey: extra.api_key });
    expect((await reader.graphs.list()).graphs).toEqual([]);
    const forbidden = await reader.keys.list().catch((error) => error);
    expect(forbidden).toBeInstanceOf(ParleyError);
    expect(forbidden).toMatchObject({ status: 403, code: 'admin_required', title: 'Forbidden' });

    await admin.keys.revoke(extra.key_id);
    const refused = await reader.graphs.list().catch((error) => error);
    expect(refused).toMatchObject({ status: 401, code: 'invalid_api_key', detail: expect.stringContaining('revoked') });
  });

  it('creates, gets, lists and deletes workspaces; validation errors name the field', async () => {
    const workspace = await client.workspaces.create({ name: 'Sudan', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' });
    expect(workspace).toMatchObject({ id: expect.stringMatching(/^ws_/), graph_id: 'sudan' });
    expect(await client.workspaces.get(workspace.id)).toEqual(workspace);
    const other = await client.workspaces.create({ name: 'Other', domain: 'political', scale: 'meso', tier: 'essential' });
    const first = await client.workspaces.list({ page_size: 1 });
    expect(first.workspaces).toHaveLength(1);
    const second = await client.workspaces.list({ page_size: 1, page_token: first.next_page_token });
    expect([...first.workspaces, ...second.workspaces].map((w) => w.id).sort()).toEqual([workspace.id, other.id].sort());
    await client.workspaces.delete(other.id);
    await expect(client.workspaces.get(other.id)).rejects.toMatchObject({ status: 404, code: 'workspace_not_found' });

    const invalid = await client.workspaces.create({ name: 'x', domain: 'armed', scale: 'macro', tier: 'premium' as 'full' }).catch((error) => error);
    expect(invalid).toBeInstanceOf(ParleyError);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_value', field: 'tier', type: 'https://parley.dev/problems/invalid_value' });
    expect(invalid.problem.allowed).toEqual(['essential', 'standard', 'full']);
  });

  it('imports, gets and exports a graph (JSON and JSON Lines), and queries it in both forms with provenance as SEED.md gives it', async () => {
    expect(await client.graphs.import('sudan', conflict)).toMatchObject({ graph_id: 'sudan', nodes_created: 3, edges_created: 3 });
    const detail = await client.graphs.get('sudan');
    expect(detail).toMatchObject({ node_count: 3, edge_count: 3, nodes: { Actor: 2, Claim: 1 } });

    const exported = await client.graphs.export('sudan');
    expect(exported.trim().split('\n')).toHaveLength(6);
    expect(await client.graphs.import('copy', exported)).toMatchObject({ nodes_created: 3, edges_created: 3 });
    expect(await client.graphs.export('copy')).toBe(exported);

    const byPattern = await client.query('sudan', "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c", { include_provenance: true });
    expect(byPattern.actors.map((a) => a.label)).toEqual(['Sudanese Armed Forces']);
    expect(byPattern.claims[0].provenance).toEqual({ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z', sources: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z' }] });

    const byParts = await client.query('sudan', { match: '(a:Actor)-[:ASSERTS]->(c:Claim)', where: "c.type = 'RedLine'", include_provenance: true });
    expect(byParts.claims).toEqual(byPattern.claims);
    const counted = await client.query('sudan', 'MATCH (a:Actor) RETURN count(a) AS n');
    expect(counted).toMatchObject({ columns: ['n'], rows: [[2]] });
  });

  it('throws a typed query error with line and column, in both forms', async () => {
    const syntax = await client.query('sudan', 'MATCH (a:Actor)\nRETURN a.label +').catch((error) => error);
    expect(syntax).toBeInstanceOf(ParleyQueryError);
    expect(syntax).toMatchObject({ status: 400, code: 'unexpected_syntax', line: 2, column: 17, found: 'end of input' });
    expect(syntax.expected).toEqual(expect.any(String));
    expect(syntax.suggestions).toEqual([]);

    const misspelt = await client.query('sudan', 'MATCH (a:Actor)\nRETRUN a').catch((error) => error);
    expect(misspelt).toBeInstanceOf(ParleyQueryError);
    expect(misspelt).toMatchObject({ code: 'unexpected_syntax', line: 2, column: 1, suggestions: ['RETURN'] });

    const undefinedVariable = await client.query('sudan', 'MATCH (a:Actor) RETURN b').catch((error) => error);
    expect(undefinedVariable).toBeInstanceOf(ParleyQueryError);
    expect(undefinedVariable).toMatchObject({ code: 'undefined_variable', line: 1, column: 24 });

    const inWhere = await client.query('sudan', { match: '(a:Actor)', where: 'a.label = = 1' }).catch((error) => error);
    expect(inWhere).toBeInstanceOf(ParleyQueryError);
    expect(inWhere).toMatchObject({ code: 'unexpected_syntax', field: 'where', line: 1, column: 11 });

    await expect(client.query('nowhere', 'MATCH (a) RETURN a')).rejects.toMatchObject({ status: 404, code: 'graph_not_found' });
  });

  it('answers a client written against SEED.md: claim.provenance.source is a string, provenance.timestamp an ISO date, edges carry provenance', async () => {
    await client.graphs.import('seed', {
      nodes: [
        { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', actor_type: 'state' },
        { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'no talks while El Fasher is besieged',
          provenance: { source: 'wire-2024-03-05', timestamp: '2024-03-05', sources: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03', quote: 'no talks' }, { source: 'wire-2024-03-05', timestamp: '2024-03-05' }] } },
      ],
      edges: [{ type: 'ASSERTS', from: 'saf', to: 'c1', provenance: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z' }] }],
    }).then(
      () => expect.unreachable('a source that is not the earliest is refused'),
      (error: ParleyError) => expect(error.problem).toMatchObject({ status: 400, record: 'nodes[1]', field: 'provenance.source' }),
    );
    await client.graphs.import('seed', {
      nodes: [
        { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', actor_type: 'state' },
        { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'no talks while El Fasher is besieged',
          provenance: { source: 'statement-2024-03-03', timestamp: '2024-03-03', sources: [{ source: 'wire-2024-03-05', timestamp: '2024-03-05' }, { source: 'statement-2024-03-03', timestamp: '2024-03-03', quote: 'no talks' }] } },
      ],
      edges: [{ type: 'ASSERTS', from: 'saf', to: 'c1', provenance: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z' }] }],
    });
    const answer = await client.query('seed', 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a, c', { include_provenance: true });
    const [claim] = answer.claims;
    expect(typeof claim.provenance?.source).toBe('string');
    expect(claim.provenance?.source).toBe('statement-2024-03-03');
    expect(claim.provenance?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(Number.isNaN(Date.parse(claim.provenance!.timestamp))).toBe(false);
    expect(claim.provenance?.sources.map((record) => record.source)).toEqual(['statement-2024-03-03', 'wire-2024-03-05']);
    expect(claim.provenance?.sources[0].quote).toBe('no talks');
    const [edge] = answer.edges;
    expect(edge.provenance).toEqual({ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z', sources: [{ source: 'statement-2024-03-03', timestamp: '2024-03-03T10:00:00Z' }] });
    const plain = await client.query('seed', 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a, c');
    expect(plain.claims[0]).not.toHaveProperty('provenance');
    expect(plain.edges[0]).not.toHaveProperty('provenance');
  });

  it('extracts (preview and commit), ingests, assesses and analyzes', async () => {
    const [workspace] = (await client.workspaces.list()).workspaces;
    const preview = await client.extract(workspace.id, { text: SUDAN_SENTENCE, commit: false, document_date: '2024-03-04' });
    expect(preview).toMatchObject({ committed: false, added: null });
    expect(preview.actors.map((actor) => actor.label)).toEqual(expect.arrayContaining(['Rapid Support Forces']));
    expect(preview.actors[0].provenance?.sources[0]).toMatchObject({ source: expect.any(String), quote: expect.any(String) });
    const committed = await client.extract(workspace.id, { text: SUDAN_SENTENCE, source: 'note-1' });
    expect(committed.committed).toBe(true);

    const ingested = await client.ingest('sudan', { source: 'note-2', text: `${SUDAN_SENTENCE} The talks in Jeddah failed.` });
    expect(ingested).toMatchObject({ graph_id: 'sudan', document: { source: 'note-2', already_ingested: false } });
    expect((await client.ingest('sudan', { source: 'note-2', text: `${SUDAN_SENTENCE} The talks in Jeddah failed.` })).document.already_ingested).toBe(true);

    const assessment = await client.assess(workspace.id, { frameworks: ['glasl', 'zartman'] });
    expect(assessment.assessments.map((a) => a.framework_id).sort()).toEqual(['glasl', 'zartman']);
    const analysis = await client.analyze(workspace.id, 'Is the conflict escalating?');
    expect(analysis.question).toBe('Is the conflict escalating?');
    expect(analysis.answer.length).toBeGreaterThan(0);
    expect((await client.frameworks.list()).frameworks.length).toBeGreaterThanOrEqual(15);

    await client.graphs.delete('copy');
    await expect(client.graphs.get('copy')).rejects.toMatchObject({ status: 404 });
  });

  it('takes an AbortSignal and a timeout on every call', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the caller'));
    await expect(client.graphs.list({}, { signal: controller.signal })).rejects.toThrow('stopped by the caller');
    const [workspace] = (await client.workspaces.list()).workspaces;
    const late = await client.assess(workspace.id, {}, { timeoutMs: 1 }).catch((error) => error);
    expect(late).toBeInstanceOf(ParleyTimeoutError);
    expect(late.timeoutMs).toBe(1);
  });
});

describe('retries', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await makeTestApp({ rateLimitPerMinute: 1 });
    baseUrl = await listen(t);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t.close();
  });

  it("retries a 429 after the server's Retry-After, and gives up when asked to wait longer than maxDelayMs", async () => {
    // Only Date is faked: the server's rate-limit window is placed near its end, while timers run for real.
    const start = Date.parse('2026-01-01T00:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const key = await t.keyFor('acme');
    const client = new Parley({ baseUrl, apiKey: key });
    expect((await client.graphs.list()).graphs).toEqual([]); // the one request of this minute

    const impatient = new Parley({ baseUrl, apiKey: key, retry: { maxDelayMs: 5_000 } });
    const refused = await impatient.graphs.list().catch((error) => error);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 60 });

    vi.setSystemTime(start + 59_000); // the window ends in 1 s: Retry-After: 1
    // the second attempt is sent in the next window, whenever the client sends it
    const attempts: { at: number; status: number }[] = [];
    const stepping = new Parley({
      baseUrl,
      apiKey: key,
      fetch: async (input, init) => {
        if (attempts.length === 1) vi.setSystemTime(start + 61_000);
        const response = await fetch(input, init);
        attempts.push({ at: performance.now(), status: response.status });
        return response;
      },
    });
    expect((await stepping.graphs.list()).graphs).toEqual([]);
    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    // waited out Retry-After (1 s) between them; the response's arrival is within a few ms of the send
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
  });
});
