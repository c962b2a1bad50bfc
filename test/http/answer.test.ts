import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WORDS } from '../../engine/reason/answer.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const CORPORA = fileURLToPath(new URL('../../corpora/', import.meta.url));
const DOCUMENTS = ['sudan-el-fasher.txt', 'sudan-jeddah-talks.md', 'sudan-rsf-statement.txt', 'drc-goma-m23.html'];

interface Citation { id: string; kind: string; label: string; source?: string; timestamp?: string; quote?: string }
interface Analysis {
  answer: string;
  intents: string[];
  readings: { framework_id: string; summary: string; evidence: string[] }[];
  frameworks: { id: string; findings: { key: string; evidence: string[] }[] }[];
  citations: Citation[];
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const citedIn = (text: string) => [...text.matchAll(/\[([^\]]+)\]/g)].flatMap(([, list]) => list.split(', '));

// The answer first, over a graph extracted from the sample documents: what an analyst reads, and the evidence one step away.
describe('analyze answers first, over the sample documents', () => {
  let t: TestApp;
  let key: string;
  let workspace: string;
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });
  const analyze = async (query: string, extra: object = {}) => {
    const response = await post(`/v1/workspaces/${workspace}/analyze`, { query, ...extra });
    expect(response.statusCode, response.body).toBe(200);
    return { body: response.json() as Analysis, bytes: response.body };
  };

  beforeAll(async () => {
    t = await makeTestApp({ corporaDir: path.resolve(CORPORA) });
    key = await t.keyFor('answers');
    workspace = (await post('/v1/workspaces', { name: 'sample', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sample' })).json().id;
    for (const source of DOCUMENTS) expect((await post('/v1/graphs/sample/ingest', { source })).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => t.close());

  it.each([
    ['Why do the ceasefire negotiations keep failing?', 'bargaining', ['fearon', 'stedman'], /Fearon, bargaining theory of war \(\w+ reading, score [\d.]+\): (a|no) commitment problem/],
    ['Who are the spoilers?', 'spoilers', ['stedman'], /^Stedman, spoilers in peace processes \(\w+ reading, score [\d.]+\): (spoilers: |a peace process|no peace process)/],
    ['Is it ripe for mediation?', 'ripeness', ['zartman'], /^Zartman, ripeness theory \(\w+ reading, score [\d.]+\): (ripe for resolution|not ripe)/],
    ['Where is the conflict heading?', 'heading', ['kriesberg', 'glasl', 'deutsch'], /Kriesberg, conflict life cycle \(\w+ reading, score [\d.]+\): phase: [a-z-]+/],
  ])('%s: a direct answer of at most 120 words naming the concept, its ids quoted in citations', async (question, intent, consulted, concept) => {
    const { body, bytes } = await analyze(question);
    expect(body.intents[0]).toBe(intent);
    expect(body.frameworks.map((framework) => framework.id)).toEqual(expect.arrayContaining(consulted));
    expect(words(body.answer)).toBeLessThanOrEqual(ANSWER_WORDS);
    expect(body.answer).toMatch(concept);
    // each id the answer cites comes with the words of the document it was read from, its source and date
    const cited = citedIn(body.answer);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) {
      const citation = body.citations.find((candidate) => candidate.id === id);
      expect(citation, id).toBeDefined();
      if (citation!.kind !== 'Actor') expect(citation).toMatchObject({ source: expect.toBeOneOf(DOCUMENTS), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d/), quote: expect.any(String) });
    }
    // readings: one per framework consulted, those the answer names first, in the order it names them
    expect(body.readings.map((reading) => reading.framework_id).sort()).toEqual(body.frameworks.map((framework) => framework.id).sort());
    const named = body.readings.filter((reading) => body.answer.includes(reading.summary.split(' (')[0]));
    expect(body.readings.slice(0, named.length)).toEqual(named);
    for (const reading of body.readings) for (const id of reading.evidence) expect(body.citations.map((citation) => citation.id)).toContain(id);
    // the same graph and question, the same bytes
    expect((await analyze(question)).bytes).toBe(bytes);
  }, 60_000);

  it('says the unknowns once for all the parties, not once per actor', async () => {
    const { body } = await analyze('Why do the ceasefire negotiations keep failing?');
    const fisherUry = body.readings.find((reading) => reading.framework_id === 'fisher_ury')!;
    const full = await analyze('Why do the ceasefire negotiations keep failing?', { detail: 'full' });
    const perActor = full.body.answer.split('\n').filter((sentence) => sentence.includes('its BATNA is unknown')).length;
    expect(perActor).toBeGreaterThan(1);
    expect(fisherUry.summary).toContain(`BATNA unknown for ${perActor} of`);
    expect(body.answer + body.readings.map((reading) => reading.summary).join(' ')).not.toContain('its BATNA is unknown');
  });

  it('gives the per-finding sentences with detail full: longer, every finding said, the same frameworks and citations', async () => {
    const short = await analyze('Who are the spoilers?');
    const full = await analyze('Who are the spoilers?', { detail: 'full' });
    const findings = full.body.frameworks.flatMap((framework) => framework.findings);
    expect(full.body.answer.split('\n').length).toBeGreaterThanOrEqual(findings.length);
    expect(words(full.body.answer)).toBeGreaterThan(words(short.body.answer));
    expect(full.body.frameworks).toEqual(short.body.frameworks);
    expect(full.body.citations).toEqual(short.body.citations);
    const refused = await post(`/v1/workspaces/${workspace}/analyze`, { query: 'Who are the spoilers?', detail: 'everything' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'detail' });
  });

  it('gives assess the quote, source and date of every id its findings cite', async () => {
    const response = await post(`/v1/workspaces/${workspace}/assess`, {});
    expect(response.statusCode).toBe(200);
    const { assessments, citations } = response.json() as { assessments: Analysis['frameworks'][number][]; citations: Citation[] };
    const ids = new Set(assessments.flatMap((assessment) => assessment.findings.flatMap((finding) => finding.evidence)));
    expect(ids.size).toBeGreaterThan(0);
    expect(citations.map((citation) => citation.id)).toEqual([...citations.map((citation) => citation.id)].sort());
    for (const id of ids) expect(citations.find((citation) => citation.id === id), id).toBeDefined();
    const quoted = citations.filter((citation) => citation.quote);
    expect(quoted.length).toBeGreaterThan(ids.size / 2);
    for (const citation of quoted) expect(DOCUMENTS).toContain(citation.source);
  });
});
