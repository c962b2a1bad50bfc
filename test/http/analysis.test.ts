import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_LISTED, MAX_RUN_EVIDENCE_LISTED } from '../../engine/frameworks/run.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

// Three conflicts written as graphs (test/fixtures/conflicts): what a conflict analyst would expect of each.
function conflict(name: string): { nodes: unknown[]; edges: unknown[] } {
  const { nodes, edges } = JSON.parse(readFileSync(new URL(`../fixtures/conflicts/${name}.json`, import.meta.url), 'utf8'));
  return { nodes, edges };
}

interface Assessment {
  framework_id: string;
  fit: number;
  applies: boolean;
  findings: { key: string; value: unknown; statement: string; evidence: string[]; evidence_total: number }[];
  findings_omitted: number;
  explanation: string;
  evidence: string[];
  evidence_total: number;
}

describe('assess and analyze over HTTP', () => {
  let t: TestApp;
  let key: string;
  const workspaces: Record<string, string> = {};
  const post = (url: string, payload: object, apiKey = key) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload });
  const assess = async (name: string, body: object = {}) => {
    const response = await post(`/v1/workspaces/${workspaces[name]}/assess`, body);
    expect(response.statusCode).toBe(200);
    return response.json() as { assessments: Assessment[]; trajectory?: { points: { period: string; results: { framework_id: string; findings: { key: string; value: unknown }[] }[] }[] } };
  };
  const analyze = async (name: string, query: string) => {
    const response = await post(`/v1/workspaces/${workspaces[name]}/analyze`, { query });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const rankOf = (assessments: Assessment[], id: string) => assessments.findIndex((assessment) => assessment.framework_id === id);
  const finding = (assessments: Assessment[], id: string, key: string) => assessments.find((a) => a.framework_id === id)?.findings.filter((f) => f.key === key) ?? [];

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('analysts');
    for (const name of ['stalemate', 'negotiation', 'spoiler']) {
      const created = await post('/v1/workspaces', { name, domain: 'armed', scale: 'macro', tier: 'full', graph_id: name });
      workspaces[name] = created.json().id;
      const imported = await post(`/v1/graphs/${name}/import`, conflict(name));
      expect(imported.statusCode).toBe(200);
    }
  });
  afterAll(async () => t.close());

  it('has the workers take the graph of a workspace a client opens, ahead of its first assess', async () => {
    // written behind the API's back, so that only the GET asks for the preload
    await t.store.writeGraph('analysts', 'opened', await graphWriteFromJson(conflict('spoiler')));
    const created = await post('/v1/workspaces', { name: 'opened', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'opened' });
    expect(await t.deps.reasoning.viewsPrepared('analysts', 'opened', 1_000)).toBe(false);
    const opened = await t.app.inject({ method: 'GET', url: `/v1/workspaces/${created.json().id}`, headers: { 'x-api-key': key } });
    expect(opened.statusCode).toBe(200);
    expect(await t.deps.reasoning.viewsPrepared('analysts', 'opened', 60_000)).toBe(true);
  }, 90_000);

  it('lists the 15 built-in frameworks with their manifests and READMEs', async () => {
    const listing = (await t.app.inject({ method: 'GET', url: '/v1/frameworks', headers: { 'x-api-key': key } })).json();
    const ids = listing.frameworks.filter((entry: { status: string }) => entry.status === 'loaded').map((entry: { id: string }) => entry.id).sort();
    expect(ids).toEqual([
      'azar', 'burton', 'deutsch', 'fearon', 'fisher_ury', 'french_raven', 'galtung', 'glasl', 'jervis', 'kriesberg', 'lederach',
      'stedman', 'thomas_kilmann', 'ury_brett_goldberg', 'zartman',
    ]);
    const glasl = (await t.app.inject({ method: 'GET', url: '/v1/frameworks/glasl', headers: { 'x-api-key': key } })).json();
    expect(glasl).toMatchObject({ id: 'glasl', status: 'loaded', manifest: { time_aware: true }, readme: expect.stringContaining('Glasl') });
    expect((await t.app.inject({ method: 'GET', url: '/v1/frameworks/nope', headers: { 'x-api-key': key } })).statusCode).toBe(404);
  });

  it('a violent stalemate with failed talks: escalation and life-cycle frameworks fit best; late stage, hurting stalemate', async () => {
    const { assessments } = await assess('stalemate');
    expect(assessments).toHaveLength(15);
    // the fit weighs each conclusion (issue 23): a hurting stalemate, a late Glasl stage and Kriesberg's stalemate
    // phase are this graph's strong readings; Galtung's direct violence, which many frameworks read, is not one
    for (const id of ['zartman', 'glasl', 'kriesberg']) expect(rankOf(assessments, id)).toBeLessThan(5);
    expect(rankOf(assessments, 'glasl')).toBeLessThan(rankOf(assessments, 'fisher_ury'));
    expect(rankOf(assessments, 'zartman')).toBeLessThan(rankOf(assessments, 'lederach'));
    const stage = finding(assessments, 'glasl', 'stage')[0];
    expect(stage.value).toBeGreaterThanOrEqual(7);
    expect(stage.evidence).toContain('s_ev7');
    expect(finding(assessments, 'zartman', 'hurting_stalemate')[0]?.value).toBe('yes');
    expect(finding(assessments, 'kriesberg', 'phase')[0]?.value).toBe('stalemate');
    expect(finding(assessments, 'galtung', 'violence').map((f) => f.value)).toContain('direct');
    // the ranking is by fit among the frameworks that apply
    const applying = assessments.filter((a) => a.applies);
    for (let i = 1; i < applying.length; i++) expect(applying[i - 1].fit).toBeGreaterThanOrEqual(applying[i].fit);
  });

  it('a negotiation with stated interests: the negotiation frameworks fit best; interests dominate, interaction cooperative', async () => {
    const { assessments } = await assess('negotiation');
    expect(rankOf(assessments, 'fisher_ury')).toBeLessThan(5);
    expect(rankOf(assessments, 'ury_brett_goldberg')).toBeLessThan(rankOf(assessments, 'jervis'));
    expect(finding(assessments, 'ury_brett_goldberg', 'dominant')[0]?.value).toBe('interests');
    expect(finding(assessments, 'deutsch', 'interaction')[0]?.value).toBe('cooperative');
    expect(finding(assessments, 'fisher_ury', 'shared_interest').length).toBeGreaterThan(0);
    // a small graph: the findings limit (25 per-actor findings) leaves nothing out, and says so
    for (const assessment of assessments) expect(assessment.findings_omitted).toBe(0);
    expect(finding(assessments, 'glasl', 'stage')[0]?.value).toBeLessThanOrEqual(3);
  });

  it('a peace process with a spoiler: Stedman fits and names the splinter faction', async () => {
    const { assessments } = await assess('spoiler');
    expect(rankOf(assessments, 'stedman')).toBeLessThan(5);
    const spoilers = finding(assessments, 'stedman', 'spoiler');
    expect(spoilers.map((f) => (f.value as string[])[0])).toEqual(['p_splinter']);
    expect(spoilers[0].evidence.some((id) => ['p_redline', 'p_attack1', 'p_attack2', 'p_reject'].includes(id))).toBe(true);
  });

  it('answers "What stage of escalation is this conflict in?" from Glasl, citing the events', async () => {
    const response = await analyze('stalemate', 'What stage of escalation is this conflict in?');
    const body = response.json();
    expect(body.intents).toContain('escalation');
    expect(body.frameworks.map((f: { id: string }) => f.id)).toContain('glasl');
    expect(body.frameworks.map((f: { id: string }) => f.id)).not.toContain('stedman');
    // the answer first: Glasl's stage, citing the events it rests on; every id its findings list is resolved in citations
    expect(body.answer).toMatch(/^Glasl, escalation model \(\w+ reading, score [\d.]+\): stage [789] of 9; [^[]*\[s_ev\d+, s_ev\d+, s_ev\d+\]/);
    expect(body.citations.find((c: { id: string }) => c.id === 's_ev7')).toMatchObject({ kind: 'Event', label: 'drone strikes on the river port' });
    const glasl = body.frameworks.find((f: { id: string }) => f.id === 'glasl');
    expect(glasl.trace.join('\n')).toMatch(/because indicator violence/);
    expect(glasl.findings_omitted).toBe(0);
    // deterministic: the same graph and question give the same bytes
    expect((await analyze('stalemate', 'What stage of escalation is this conflict in?')).body).toBe(response.body);
  });

  it('answers "Is it ripe for mediation?" from Zartman, citing what it rests on', async () => {
    const body = (await analyze('stalemate', 'Is it ripe for mediation?')).json();
    expect(body.intents).toContain('ripeness');
    const zartman = body.frameworks.find((f: { id: string }) => f.id === 'zartman');
    expect(zartman.applies).toBe(true);
    expect(zartman.findings.map((f: { key: string }) => f.key)).toEqual(expect.arrayContaining(['hurting_stalemate', 'ripe']));
    expect(body.answer).toMatch(/Zartman/);
    for (const finding of zartman.findings) for (const id of finding.evidence) expect(body.citations.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('answers "Who could spoil an agreement?" with the spoiler, and the rule predicate is queryable', async () => {
    const body = (await analyze('spoiler', 'Who could spoil an agreement?')).json();
    expect(body.intents).toEqual(['spoilers']);
    expect(body.frameworks.map((f: { id: string }) => f.id)).toEqual(['stedman']);
    expect(body.answer).toContain('True Liberation Brigade');
    const query = await post('/v1/graph/query', { graph_id: 'spoiler', query: 'MATCH (a:Actor) WHERE spoiler(a) RETURN a.label AS spoiler' });
    expect(query.json().rows).toEqual([['True Liberation Brigade']]);
  });

  it('bounds the evidence each framework lists, counting the rest, and cites in its answer only ids it resolves', async () => {
    // the stalemate with 140 more shellings of the valley towns: galtung's direct violence rests on each of them
    const crowded = conflict('stalemate');
    for (let i = 0; i < 140; i++) {
      const id = `s_shelling_${String(i).padStart(3, '0')}`;
      crowded.nodes.push({ kind: 'Event', id, event_type: 'ASSAULT', date: '2024-05-01', label: `shelling ${i} of the valley towns` });
      crowded.edges.push({ type: 'PARTICIPATES_IN', from: 'army', to: id, role: 'perpetrator' }, { type: 'PARTICIPATES_IN', from: 'villagers', to: id, role: 'target' });
    }
    const created = await post('/v1/workspaces', { name: 'crowded', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'crowded' });
    workspaces.crowded = created.json().id;
    expect((await post('/v1/graphs/crowded/import', crowded)).statusCode).toBe(200);

    const galtung = (await assess('crowded', { frameworks: ['galtung'] })).assessments[0];
    expect(galtung.evidence).toHaveLength(MAX_RUN_EVIDENCE_LISTED);
    expect(galtung.evidence).toEqual([...galtung.evidence].sort());
    expect(galtung.evidence_total).toBeGreaterThan(140);
    const shellings = galtung.findings.find((f) => f.statement.startsWith('Direct violence: 148'));
    expect(shellings).toMatchObject({ evidence: expect.arrayContaining(['s_ev1']), evidence_total: 148 });
    expect(shellings!.evidence).toHaveLength(MAX_EVIDENCE_LISTED);

    // the per-finding sentences, as detail full gives them
    const response = await post(`/v1/workspaces/${workspaces.crowded}/analyze`, { query: 'What kinds of violence are present?', detail: 'full' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const framework = body.frameworks.find((f: { id: string }) => f.id === 'galtung');
    expect(framework.evidence).toEqual(galtung.evidence);
    expect(framework.evidence_total).toBe(galtung.evidence_total);
    const citations = new Set(body.citations.map((c: { id: string }) => c.id));
    const cited = [...(body.answer as string).matchAll(/\[([^\]]*)\]/g)].flatMap(([, list]) => list.replace(/ and \d+ more.*$/, '').split(', '));
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(citations).toContain(id);
    // a finding resting on more ids than it lists says how many of the rest the citations hold
    const direct = framework.findings.find((f: { evidence: string[]; evidence_total: number }) => f.evidence_total > f.evidence.length);
    expect(direct).toBeDefined();
    const more = direct.evidence_total - 8;
    expect(body.answer).toContain(`and ${more} more (${direct.evidence.length - 8} of them in citations)]`);
    for (const id of direct.evidence) expect(citations).toContain(id);
    expect((await post(`/v1/workspaces/${workspaces.crowded}/analyze`, { query: 'What kinds of violence are present?', detail: 'full' })).body).toBe(response.body);
  });

  it('says so when no framework addresses a question, listing the questions it understands', async () => {
    const body = (await analyze('spoiler', 'What will the weather be tomorrow?')).json();
    expect(body.frameworks).toEqual([]);
    expect(body.answer).toMatch(/No framework addresses this question/);
    expect(body.answer).toMatch(/Who could spoil an agreement\?/);
  });

  it('gives the escalation trajectory per quarter: the stage read at each period end, rising over time', async () => {
    const { trajectory } = await assess('stalemate', { trajectory: { period: 'quarter' } });
    expect(trajectory!.points.map((point) => point.period)).toEqual(['2023-Q3', '2023-Q4', '2024-Q1', '2024-Q2']);
    const stages = trajectory!.points.map((point) => point.results.find((r) => r.framework_id === 'glasl')!.findings.find((f) => f.key === 'stage')?.value as number);
    // one attack by the end of 2023-Q3 (limited blows), then attacks with fatalities rising
    expect(stages).toEqual([7, 8, 8, 8]);
    expect(trajectory!.points[0].results.map((r) => r.framework_id)).toEqual(expect.arrayContaining(['glasl', 'kriesberg']));
  });

  it('sees the graph as it was recorded at as_of, and refuses unknown frameworks and fields', async () => {
    const before = await post(`/v1/workspaces/${workspaces.spoiler}/assess`, { as_of: '2000-01-01T00:00:00Z', frameworks: ['stedman'] });
    expect(before.json().assessments[0]).toMatchObject({ framework_id: 'stedman', applies: false });
    expect((await post(`/v1/workspaces/${workspaces.spoiler}/assess`, { frameworks: ['nope'] })).statusCode).toBe(404);
    expect((await post(`/v1/workspaces/${workspaces.spoiler}/assess`, { verbose: true })).json()).toMatchObject({ code: 'unknown_field' });
  });
});
