import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

// A plain rule module in a directory outside the repo, loaded at start-up as PARLEY_FRAMEWORKS_DIR would.
const RULES = `
% reaches/2: B can be reached from A over ALLIED_WITH edges
reaches(X, Y) :- reach(X, Y, [X]).
reach(X, Y, _) :- edge(_, 'ALLIED_WITH', X, Y, _).
reach(X, Z, Seen) :- edge(_, 'ALLIED_WITH', X, Y, _), \\+ member(Y, Seen), reach(Y, Z, [Y|Seen]).
% spins forever: the inference limit must stop it
endless(X) :- endless(X).
`;

const graph = {
  nodes: [
    { kind: 'Actor', id: 'igad', label: 'IGAD', role: 'mediator', recorded_at: '2024-01-01T00:00:00Z' },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', recorded_at: '2024-01-01T00:00:00Z' },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', recorded_at: '2024-01-01T00:00:00Z' },
  ],
  edges: [
    { type: 'ALLIED_WITH', from: 'igad', to: 'saf', recorded_at: '2024-01-01T00:00:00Z' },
    // recorded later: invisible to an as_of before it
    { type: 'ALLIED_WITH', from: 'saf', to: 'rsf', recorded_at: '2024-06-01T00:00:00Z' },
  ],
};

const REACHABLE = 'MATCH (a:Actor), (b:Actor) WHERE a <> b AND reaches(a, b) RETURN a.label AS a, b.label AS b ORDER BY a, b';

describe('the reasoning stage over HTTP', () => {
  let t: TestApp;
  let key: string;
  let rulesDir: string;
  const post = (url: string, payload: object, apiKey = key) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload });

  beforeAll(async () => {
    rulesDir = await mkdtemp(path.join(tmpdir(), 'parley-rules-'));
    await writeFile(path.join(rulesDir, 'alliances.pl'), RULES);
    await writeFile(path.join(rulesDir, 'broken.pl'), 'fine(1).\nbroken(:- .\n');
    // a third-party framework whose finding never terminates
    await mkdir(path.join(rulesDir, 'runaway'));
    await writeFile(path.join(rulesDir, 'runaway', 'manifest.json'), JSON.stringify({
      id: 'runaway', name: 'Runaway', citation: 'none', question: 'Does it stop?', version: '1.0.0',
      reads: { nodes: ['Actor'], edges: [] }, answers: ['escalation'],
    }));
    await writeFile(path.join(rulesDir, 'runaway', 'README.md'), '# Runaway\n\nA rule that never ends, to prove the limits hold.');
    await writeFile(path.join(rulesDir, 'runaway', 'rules.pl'), [
      "indicator(actors, 1, 'actors').",
      "present(actors, Ids) :- nodes_where('Actor', _, _, Ids), Ids \\== [].",
      'finding(k, v, s, [], []) :- spin(0).',
      'spin(N) :- M is N + 1, spin(M).',
    ].join('\n'));
    t = await makeTestApp({ frameworkDirs: [rulesDir], reasonWorkers: 1, reasonMaxQueue: 3, inferenceLimit: 20_000 });
    key = await t.keyFor('tenant-a');
    expect((await post('/v1/graphs/sudan/import', graph)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await rm(rulesDir, { recursive: true, force: true });
  });

  it('calls a rule predicate of a module loaded at start-up in WHERE, and explain shows the call in the goal', async () => {
    const response = await post('/v1/graph/query', { graph_id: 'sudan', query: REACHABLE, explain: true });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.rows).toEqual([
      ['IGAD', 'Rapid Support Forces'],
      ['IGAD', 'Sudanese Armed Forces'],
      ['Sudanese Armed Forces', 'Rapid Support Forces'],
    ]);
    expect(body.goal).toMatch(/reaches\(V_a, V_b\)/);
  });

  it('gives the rule the as_of view of the graph', async () => {
    const response = await post('/v1/graph/query', { graph_id: 'sudan', query: REACHABLE, as_of: '2024-03-01T00:00:00Z' });
    expect(response.json().rows).toEqual([['IGAD', 'Sudanese Armed Forces']]);
  });

  it('stops a runaway rule at the inference limit with 503', async () => {
    const response = await post('/v1/graph/query', { graph_id: 'sudan', query: 'MATCH (a:Actor) WHERE endless(a) RETURN a' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'query_inference_limit' });
  });

  it('lists the refused rule file with its line, beside the loaded one and the built-in frameworks', async () => {
    const listing = (await t.app.inject({ method: 'GET', url: '/v1/frameworks', headers: { 'x-api-key': key } })).json();
    const files = Object.fromEntries(listing.rule_files.map((entry: { id: string }) => [entry.id, entry]));
    expect(files.alliances).toMatchObject({ status: 'loaded', predicates: expect.arrayContaining(['reaches/2']) });
    expect(files.broken).toMatchObject({ status: 'refused', problems: [expect.objectContaining({ file: 'broken.pl', line: 2 })] });
    expect(listing.frameworks.filter((entry: { status: string; builtin: boolean }) => entry.builtin && entry.status === 'loaded').length).toBeGreaterThanOrEqual(1);
  });

  it('stops a runaway framework at its inference limit and reports it, while the other frameworks answer', async () => {
    const workspace = (await post('/v1/workspaces', { name: 'r', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' })).json();
    const response = await post(`/v1/workspaces/${workspace.id}/assess`, { frameworks: ['runaway', 'glasl'] });
    expect(response.statusCode).toBe(200);
    const byId = Object.fromEntries(response.json().assessments.map((a: { framework_id: string }) => [a.framework_id, a]));
    expect(byId.runaway).toMatchObject({ error: { code: 'query_inference_limit' }, explanation: expect.stringContaining('Stopped') });
    expect(byId.runaway.indicators_present).toEqual(['actors']);
    expect(byId.glasl.error).toBeUndefined();
  });

  it('reads its own writes: a query right after an import sees the new records', async () => {
    for (let i = 0; i < 5; i++) {
      const imported = await post('/v1/graphs/sudan/import', { nodes: [{ kind: 'Actor', id: `new${i}`, label: `New actor ${i}` }], edges: [] });
      expect(imported.statusCode).toBe(200);
      const response = await post('/v1/graph/query', { graph_id: 'sudan', query: `MATCH (a:Actor {label: 'New actor ${i}'}) RETURN a.label AS label` });
      expect(response.json().rows).toEqual([[`New actor ${i}`]]);
    }
  });

  it('refuses a flood of heavy queries beyond the admission limit with 503 and Retry-After, and answers health throughout', async () => {
    const heavy = 'UNWIND range(1, 2000) AS x UNWIND range(1, 250) AS y WITH x, y WHERE (x + y) % 7 = 0 RETURN count(x) AS n';
    const flood = Array.from({ length: 8 }, () => post('/v1/graph/query', { graph_id: 'sudan', query: heavy }));
    const health: number[] = [];
    const started = Date.now();
    let settled = false;
    const all = Promise.all(flood).finally(() => (settled = true));
    while (!settled && Date.now() - started < 20_000) {
      const before = performance.now();
      const response = await t.app.inject({ method: 'GET', url: '/v1/health' });
      health.push(performance.now() - before);
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const responses = await all;
    const refused = responses.filter((response) => response.statusCode === 503 && response.json().code === 'reasoning_queue_full');
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) expect(response.headers['retry-after']).toBe('1');
    expect(responses.filter((response) => response.statusCode === 200).length).toBeGreaterThan(0);
    // the loop kept answering while the worker ran the queries (a stalled loop would show one long gap)
    expect(health.length).toBeGreaterThan(3);
    expect(Math.max(...health)).toBeLessThan(1_000);
  });

  it('keeps tenants apart: another tenant cannot query, assess or analyze what is not theirs', async () => {
    const other = await t.keyFor('tenant-b');
    expect((await post('/v1/graph/query', { graph_id: 'sudan', query: 'MATCH (a) RETURN a' }, other)).statusCode).toBe(404);
    const workspace = (await post('/v1/workspaces', { name: 'a', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' })).json();
    expect((await post(`/v1/workspaces/${workspace.id}/assess`, {}, other)).statusCode).toBe(404);
    expect((await post(`/v1/workspaces/${workspace.id}/analyze`, { query: 'Who could spoil an agreement?' }, other)).statusCode).toBe(404);
    const readKey = await t.keyFor('tenant-a', 'read');
    expect((await post(`/v1/workspaces/${workspace.id}/assess`, {}, readKey)).statusCode).toBe(200);
  });
});
