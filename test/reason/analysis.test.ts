import { describe, expect, it } from 'vitest';
import { INTENT_RULES, routeQuestion } from '../../engine/frameworks/intents.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import type { FrameworkRun } from '../../engine/frameworks/run.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import type { PrologValue } from '../../engine/prolog/bridge.ts';
import { frameworksFor, writeAnalysis } from '../../engine/reason/analysis.ts';
import { ANSWER_WORDS } from '../../engine/reason/answer.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

describe('the written analysis', () => {
  it('says so when the question is understood but no loaded framework answers it, rather than blaming the graph', () => {
    const analysis = writeAnalysis('Who could spoil an agreement?', { kind: 'intents', intents: ['spoilers'] }, [], new GraphIndex());
    expect(analysis.answer).toBe('No loaded framework answers questions of this kind (spoilers); GET /v1/frameworks lists what is loaded and what was refused.');
    expect(analysis).toMatchObject({ intents: ['spoilers'], frameworks: [], citations: [] });
  });
});

// A small graph like the sample corpus's, and runs shaped as the frameworks give them (values from rules.pl's finding/5).
function graphOf(): GraphIndex {
  const graph = new GraphIndex();
  const at = '2024-06-01T00:00:00.000Z';
  const node = (id: string, label: string, kind: string, quote?: string): NodeRecord => ({
    id, labels: [kind], properties: { label }, confidence: 1, recorded_at: at,
    provenance: quote ? [{ source: 'jeddah.md', timestamp: '2024-05-20T00:00:00.000Z', quote }] : [],
  });
  for (const [id, label] of [['rsf', 'Rapid Support Forces'], ['saf', 'Sudanese Armed Forces'], ['m23', 'M23'], ['un', 'United Nations'], ['au', 'African Union'], ['drc', 'DR Congo']]) graph.putNode(node(id, label, 'Actor'));
  graph.putNode(node('pledge', 'RSF pledges to protect civilians', 'Claim', 'The RSF pledged to protect civilians in El Fasher.'));
  graph.putNode(node('attack', 'RSF shells El Fasher', 'Event', 'The RSF shelled El Fasher on 10 May.'));
  graph.putNode(node('territory', 'territory', 'Issue'));
  graph.putNode(node('redline', 'no withdrawal from Kivu', 'Claim', 'M23 said it would never leave Kivu.'));
  const edge = (id: string, type: string, from: string, to: string, properties = {}): EdgeRecord => ({ id, type, from, to, properties, confidence: 1, recorded_at: at, provenance: [] });
  graph.putEdge(edge('e1', 'ASSERTS', 'rsf', 'pledge'));
  graph.putEdge(edge('e2', 'PARTICIPATES_IN', 'rsf', 'attack', { role: 'perpetrator' }));
  graph.putEdge(edge('e3', 'PARTICIPATES_IN', 'un', 'attack', { role: 'target' }));
  graph.putEdge(edge('e4', 'ASSERTS', 'm23', 'redline'));
  return graph;
}
function run(framework_id: string, name: string, score: number, findings: [string, PrologValue, string[]][], extra: Partial<FrameworkRun> = {}): FrameworkRun {
  return {
    framework_id, name, applies: true, missing: [], score, coverage: score, indicators_present: [], indicators_missing: [], findings_omitted: 0, evidence: [], evidence_total: 0, trace: [], inferences: 0,
    findings: findings.map(([key, value, evidence]) => ({ key, value, statement: `${name} says ${key} at length, one sentence per finding.`, evidence, evidence_total: evidence.length, trace: [] })),
    ...extra,
  };
}
const RUNS = [
  run('fisher_ury', 'Fisher & Ury', 0.83, [
    ['positional_bargaining', 'yes', ['redline']],
    ...['rsf', 'saf', 'm23', 'un', 'au'].map((id): [string, PrologValue, string[]] => ['batna', [id, id === 'rsf' ? 'strong' : 'unknown'], [id]]),
  ]),
  run('stedman', 'Stedman', 0.86, [['peace_process', 'yes', ['pledge']], ['spoiler', ['rsf', 'greedy'], ['attack']], ['spoiler_position', ['rsf', 'inside'], ['pledge']], ['spoiler', ['m23', 'total'], ['redline']]]),
  run('fearon', 'Fearon', 1, [['commitment_problem', 'yes', ['pledge', 'attack']], ['indivisibility', 'yes', ['territory', 'redline']], ['rational_explanation', ['commitment_problem', 'indivisibility'], ['pledge', 'attack', 'redline']]]),
  run('zartman', 'Zartman', 0.5, [], { applies: false, missing: ['no costly deadlock'] }),
];
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('the answer first', () => {
  const question = 'Why do the ceasefire negotiations keep failing?';
  const analysis = writeAnalysis(question, routeQuestion(question), RUNS, graphOf());

  it('answers a bargaining-failure question from Fearon and Stedman, naming the parties, in at most 120 words', () => {
    expect(analysis.intents[0]).toBe('bargaining');
    expect(words(analysis.answer)).toBeLessThanOrEqual(ANSWER_WORDS);
    const [fearon, stedman] = analysis.answer.split(/(?<=\])\s+/);
    expect(fearon).toMatch(/^Fearon \(strong reading, score 1\.00\): a commitment problem \(Rapid Support Forces\); an indivisible stake \(over "territory"; M23\)\. \[/);
    expect(stedman).toMatch(/^Stedman \(strong reading, score 0\.86\): spoilers: Rapid Support Forces \(greedy, inside\) and M23 \(total\)/);
    // Fearon's own summary of the mechanisms is not what the question asks: the answer does not repeat it
    expect(analysis.answer).not.toContain('bargaining fails by');
    // the frameworks' sentences stay in `frameworks`, not in the answer
    expect(analysis.answer).not.toContain('at length');
  });

  it('cites ids in every sentence that concludes, each with its quote, source and date', () => {
    const cited = [...analysis.answer.matchAll(/\[([^\]]+)\]/g)].flatMap(([, list]) => list.split(', '));
    expect(cited).toEqual(expect.arrayContaining(['pledge', 'attack']));
    for (const id of cited) expect(analysis.citations.map((citation) => citation.id)).toContain(id);
    expect(analysis.citations.find((citation) => citation.id === 'attack')).toEqual({
      id: 'attack', kind: 'Event', label: 'RSF shells El Fasher', source: 'jeddah.md', timestamp: '2024-05-20T00:00:00.000Z', quote: 'The RSF shelled El Fasher on 10 May.',
    });
  });

  it('gives one reading per framework, those the answer rests on first, unknowns said once for all the parties', () => {
    expect(analysis.readings.map((reading) => reading.framework_id)).toEqual(['fearon', 'stedman', 'fisher_ury', 'zartman']);
    const fisherUry = analysis.readings.find((reading) => reading.framework_id === 'fisher_ury')!;
    expect(fisherUry.summary).toContain('BATNA: Rapid Support Forces (strong)');
    expect(fisherUry.summary).toContain('BATNA unknown for 4 of 5 parties');
    expect(fisherUry.summary.match(/unknown/g)).toHaveLength(1);
    expect(analysis.readings.find((reading) => reading.framework_id === 'zartman')!.summary).toBe('Zartman cannot say: not enough evidence: no costly deadlock.');
    for (const reading of analysis.readings) expect(reading.summary.split(/(?<=\.)\s+(?=[A-Z])/).length).toBeLessThanOrEqual(2);
    expect(analysis.answer).toContain('1 of the 4 frameworks asked cannot say');
  });

  it('gives the per-finding sentences with detail full, and the same bytes for the same runs', () => {
    const full = writeAnalysis(question, routeQuestion(question), RUNS, graphOf(), 'full');
    expect(full.answer.split('\n')).toHaveLength(14); // 13 findings, and Zartman cannot say
    expect(full.answer).toContain('Fearon: Fearon says commitment_problem at length, one sentence per finding. [pledge, attack]');
    expect(full.readings).toEqual(analysis.readings);
    expect(JSON.stringify(writeAnalysis(question, routeQuestion(question), RUNS, graphOf()))).toBe(JSON.stringify(analysis));
  });

  it('answers "Who are the spoilers?" from the spoiler findings only', () => {
    const spoilers = writeAnalysis('Who are the spoilers?', routeQuestion('Who are the spoilers?'), RUNS.filter((r) => r.framework_id === 'stedman'), graphOf());
    expect(spoilers.answer).toMatch(/^Stedman \(strong reading, score 0\.86\): spoilers: Rapid Support Forces \(greedy, inside\) and M23 \(total\); a peace process is under way \(Rapid Support Forces\)\. \[attack, pledge, redline\]$/);
  });
});

describe('routing by the kind of question', () => {
  it.each([
    ['Why do talks keep failing?', 'bargaining'],
    ['Why do the ceasefire negotiations keep failing?', 'bargaining'],
    ["Why can't they agree?", 'bargaining'],
    ['Can the RSF be trusted to keep its commitments?', 'commitment'],
    ['Who are the spoilers?', 'spoilers'],
    ['Is it ripe for mediation?', 'ripeness'],
    ['What stage of escalation is the conflict in?', 'escalation'],
    ['What are the root causes of the war?', 'root_causes'],
    ['Which basic needs are threatened?', 'needs'],
    ['Who has leverage over the RSF?', 'power'],
    ['How is the dispute being handled?', 'dispute_system'],
    ['Where is the conflict heading?', 'heading'],
    ['Is the relationship between the parties improving?', 'relationship'],
    ['Who could mediate between them?', 'mediation'],
  ])('%s → %s first', (question, intent) => {
    const routing = routeQuestion(question);
    expect(routing.kind).toBe('intents');
    expect(routing.kind === 'intents' && routing.intents[0]).toBe(intent);
  });

  it('sends a bargaining-failure question to Fearon and Stedman, and every intent to the frameworks whose findings it names', async () => {
    const loaded = (await loadRuleModules([])).frameworks.filter((entry) => entry.status === 'loaded');
    expect(frameworksFor(routeQuestion('Why do the ceasefire negotiations keep failing?'), loaded)).toEqual(expect.arrayContaining(['fearon', 'stedman']));
    for (const rule of INTENT_RULES) {
      for (const name of rule.finds) {
        const [id] = name.split('.');
        const entry = loaded.find((candidate) => candidate.id === id);
        expect(entry?.manifest.answers, `${rule.intent} names ${name}`).toContain(rule.intent);
      }
    }
  }, 60_000);
});

describe('the answer says which accounts it rests on are disputed', () => {
  const question = 'Who are the spoilers?';
  const contested = () => {
    const graph = graphOf();
    const at = '2024-06-02T00:00:00.000Z';
    graph.putNode({ id: 'denial', labels: ['Claim'], properties: { text: 'we did not shell El Fasher', type: 'Denial' }, confidence: 1, recorded_at: at, provenance: [{ source: 'rsf-channel', timestamp: at }] });
    graph.putEdge({ id: 'e5', type: 'ASSERTS', from: 'rsf', to: 'denial', properties: {}, confidence: 1, recorded_at: at, provenance: [] });
    graph.putEdge({ id: 'e6', type: 'CONTRADICTS', from: 'denial', to: 'attack', properties: {}, confidence: 1, recorded_at: at, provenance: [] });
    return graph;
  };
  const weighed = (attack: 'disputed' | 'accepted') => ({
    graph: contested(),
    statuses: [
      { id: 'attack', status: attack, weight: attack === 'accepted' ? 2 : 1, sources: attack === 'accepted' ? 2 : 1 },
      { id: 'denial', status: attack === 'accepted' ? ('rejected' as const) : ('disputed' as const), weight: 1, sources: 1 },
    ],
  });

  it('tells the dispute behind a cited event once, who says what on each side, within the answer', () => {
    const analysis = writeAnalysis(question, routeQuestion(question), RUNS, contested(), 'answer', weighed('disputed'));
    expect(analysis.disputes).toHaveLength(1);
    expect(analysis.disputes[0].id).toBe('attack');
    expect(analysis.disputes[0].sentence).toMatch(/^disputed: .*"RSF shells El Fasher" \(1 source\); .*"we did not shell El Fasher" \(1 source, disputed\)/);
    expect(analysis.disputes[0].sentence).toContain('Rapid Support Forces');
    expect(analysis.answer).toContain(' Disputed: ');
    expect(words(analysis.answer)).toBeLessThanOrEqual(ANSWER_WORDS + 40);
  });

  it('says nothing of a dispute the evidence settled for the account it cites, and nothing without weighing', () => {
    const settled = writeAnalysis(question, routeQuestion(question), RUNS, contested(), 'answer', weighed('accepted'));
    // the cited event stands; its rejected denial is cited by no finding
    expect(settled.disputes).toEqual([]);
    expect(settled.answer).not.toMatch(/disputed|rejected/i);
    expect(writeAnalysis(question, routeQuestion(question), RUNS, contested()).disputes).toEqual([]);
  });
});
