import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

const CORPORA = fileURLToPath(new URL('../../corpora/', import.meta.url));
const DOCUMENTS = ['sudan-el-fasher.txt', 'sudan-jeddah-talks.md', 'sudan-rsf-statement.txt', 'drc-goma-m23.html'];

// End to end from text: the sample documents through ingest (extraction), then assess over what was extracted.
describe('assess over a graph extracted from the sample corpus', () => {
  let t: TestApp;
  let key: string;
  let workspace: string;
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });

  beforeAll(async () => {
    t = await makeTestApp({ corporaDir: path.resolve(CORPORA) });
    key = await t.keyFor('corpus');
    workspace = (await post('/v1/workspaces', { name: 'corpus', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'corpus' })).json().id;
    for (const source of DOCUMENTS) expect((await post('/v1/graphs/corpus/ingest', { source })).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it('ranks frameworks whose top findings cite nodes extracted from the documents', async () => {
    const { assessments } = (await post(`/v1/workspaces/${workspace}/assess`, {})).json();
    const graph = await t.store.loadGraph('corpus', 'corpus');
    const top = assessments.filter((a: { applies: boolean; findings: unknown[] }) => a.applies && a.findings.length > 0).slice(0, 3);
    expect(top.length).toBeGreaterThan(0);
    for (const assessment of top) {
      for (const finding of assessment.findings) {
        expect(finding.evidence.length).toBeGreaterThan(0);
        for (const id of finding.evidence) {
          const record = graph.node(id) ?? graph.edge(id);
          expect(record, `${assessment.framework_id} cites ${id}`).toBeDefined();
          // extracted: its provenance points into one of the documents, with the quote it was read from
          expect(record!.provenance.some((p) => DOCUMENTS.includes(p.source) && typeof p.quote === 'string')).toBe(true);
        }
      }
    }
    // the escalation question gets an answer from the extracted events
    const answer = (await post(`/v1/workspaces/${workspace}/analyze`, { query: 'What stage of escalation is this conflict in?' })).json();
    expect(answer.answer).toMatch(/Glasl, escalation model \([^)]*\): stage \d of 9/);
    expect(answer.citations.some((c: { source?: string }) => DOCUMENTS.includes(c.source ?? ''))).toBe(true);
  });

  it('keeps reading the documents\' own dates after an undated document: its facts are not taken as said today', async () => {
    // coverage, the share of indicators present: the fit is a rate, which any added fact that does not support
    // the conclusion lowers a little, dated or not
    const fits = async () => {
      const { assessments } = (await post(`/v1/workspaces/${workspace}/assess`, {})).json();
      return Object.fromEntries(assessments.map((a: { framework_id: string; coverage: number }) => [a.framework_id, a.coverage]));
    };
    const before = await fits();
    const undated = await post('/v1/graphs/corpus/ingest', {
      source: 'undated-note.txt',
      text: 'The Rapid Support Forces said they would never accept talks. Sudanese Armed Forces shelled Omdurman.',
    });
    expect(undated.statusCode).toBe(200);
    const after = await fits();
    // the escalation and ripeness frameworks read the months before the latest date: a fact dated by its ingestion
    // (today, years after the documents) would move that window off every document
    for (const id of ['glasl', 'kriesberg', 'zartman', 'jervis']) expect(after[id], id).toBeGreaterThanOrEqual(before[id]);
  });
});
