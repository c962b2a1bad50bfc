import { beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework } from '../../engine/frameworks/run.ts';
import { startProlog } from '../../engine/prolog/bridge.ts';
import type { RuleRegistry } from '../../engine/prolog/registry.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { copyOf, keptCountGoal } from '../helpers/kept-answers.ts';

const at = '2024-05-01T00:00:00.000Z';
const node = (id: string, label: string, properties: NodeRecord['properties']): NodeRecord => ({ id, labels: [label], properties, confidence: 0.9, recorded_at: at, provenance: [{ source: `doc-${id}`, timestamp: at }] });
const edge = (id: string, type: string, from: string, to: string, role?: string): EdgeRecord => ({ id, type, from, to, properties: role ? { role } : {}, confidence: 0.8, recorded_at: at, provenance: [{ source: `doc-${id}`, timestamp: at }] });
const position = (id: string, text: string) => node(id, 'Claim', { type: 'Position', text });

let rules: RuleRegistry;
let run: (graph: GraphIndex) => unknown;
beforeAll(async () => {
  await startProlog();
  const catalog = await loadRuleModules([]);
  const galtung = catalog.frameworks.find((entry) => entry.id === 'galtung');
  if (galtung?.status !== 'loaded') throw new Error('galtung not loaded');
  rules = catalog.registry;
  run = (graph) => {
    const { inferences, ...rest } = runFramework(rules, galtung.manifest, { graph }, { inferenceLimit: 5_000_000, timeLimitMs: 60_000 });
    expect(rest.error).toBeUndefined();
    return rest;
  };
});

const answer = (goal: string) => (graph: GraphIndex) => rules.module('galtung')!.solve(goal, ['L'], { graph })[0][0];
const adjacency = answer('gt_adjacency(Index), assoc_to_list(Index, L)');
const opposedSets = answer('gt_model(m(_, _, BySet, _)), maplist([Set-Ev, S]>>format(string(S), "~w-~w", [Set, Ev]), BySet, L)');

describe('galtung\'s contradiction (frameworks/galtung/rules.pl gt_model/1)', () => {
  it('keeps each pair of adversaries once, under the first of the two, and finds the pair every adversary would: one whose adversaries in the set all come before it, one opposed to itself, a set with none', () => {
    const graph = GraphIndex.fromRecords(
      [
        ...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => node(id, 'Actor', { label: id })),
        ...['i1', 'i2', 'i3', 'i4'].map((id) => node(id, 'Issue', { label: `issue ${id}` })),
        ...['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10'].map((id) => position(id, `claim ${id}`)),
        node('ev1', 'Event', { event_type: 'ASSAULT', label: 'raid', date: '2024-05-01' }),
        node('in1', 'Interest', { label: 'safety', interest_type: 'security' }), node('in2', 'Interest', { label: 'walls', interest_type: 'security' }),
      ],
      [
        // adversaries: c-b, d-a, f-a, b-a (OPPOSES, each from the later actor), c on a (an ASSAULT), e against itself
        edge('o1', 'OPPOSES', 'c', 'b'), edge('o2', 'OPPOSES', 'd', 'a'), edge('o3', 'OPPOSES', 'f', 'a'), edge('o4', 'OPPOSES', 'b', 'a'), edge('o5', 'OPPOSES', 'e', 'e'),
        edge('p1', 'PARTICIPATES_IN', 'c', 'ev1', 'perpetrator'), edge('p2', 'PARTICIPATES_IN', 'a', 'ev1', 'target'),
        // i1: b, c and d speak (b and c adversaries); i2: c, e and a (c's adversary a comes before it); i3: d and e (e alone
        // against itself, d's adversary a not there); i4: b and d, no adversaries
        ...[['b', 'k1', 'i1'], ['c', 'k2', 'i1'], ['d', 'k3', 'i1'], ['c', 'k4', 'i2'], ['e', 'k5', 'i2'], ['a', 'k6', 'i2'], ['d', 'k7', 'i3'], ['e', 'k8', 'i3'], ['b', 'k9', 'i4'], ['d', 'k10', 'i4']].flatMap(
          ([actor, claim, issue]) => [edge(`s-${claim}`, 'ASSERTS', actor, claim), edge(`ab-${claim}`, 'ABOUT', claim, issue)],
        ),
        edge('h1', 'HOLDS_INTEREST', 'b', 'in1'), edge('h2', 'HOLDS_INTEREST', 'a', 'in2'),
      ],
    );
    run(graph);
    expect(adjacency(graph)).toEqual(['a-[b,c,d,f]', 'b-[c]', 'e-[e]']);
    expect(opposedSets(graph)).toEqual(['interest(security)-[in2,in1]', 'issue(i1)-[i1,k1,k2]', 'issue(i2)-[i2,k6,k4]', 'issue(i3)-[i3,k8]']);

    // b threatens d: i4's pair, and the index grown (each end of the link a changed actor) as a fresh copy's
    putLogged(graph, [node('ev2', 'Event', { event_type: 'THREATEN', label: 'warning', date: '2024-05-02' })], [edge('p3', 'PARTICIPATES_IN', 'd', 'ev2', 'perpetrator'), edge('p4', 'PARTICIPATES_IN', 'b', 'ev2', 'target')]);
    rules.solveLibrary('true', [], { graph });
    expect(rules.solveLibrary(keptCountGoal('_:gt_model'), ['N'], { graph })[0][0]).toBe(1);
    const copy = copyOf(graph);
    expect(adjacency(graph)).toEqual(['a-[b,c,d,f]', 'b-[c,d]', 'e-[e]']);
    expect(opposedSets(graph)).toEqual([...opposedSets(copy) as string[]]);
    expect(opposedSets(graph)).toContain('issue(i4)-[i4,k9,k10]');
    expect(run(graph)).toEqual(run(copy));
  });
});

const statements = (result: unknown) => Object.fromEntries((result as { findings: { key: string; value: unknown; statement: string }[] }).findings.map((f) => [`${f.key}=${String(f.value)}`, f.statement]));

describe('galtung\'s justified acts (frameworks/galtung/rules.pl gt_justified_acts/2)', () => {
  it('counts a Justification claim as justifying violence when it refers to an ASSAULT or COERCE event, and no other claim or reference', () => {
    const justification = (id: string) => node(id, 'Claim', { type: 'Justification', text: `statement ${id}` });
    const graph = GraphIndex.fromRecords(
      [
        node('a', 'Actor', { label: 'Army' }),
        node('e1', 'Event', { event_type: 'ASSAULT', label: 'shelling', date: '2024-05-01' }),
        node('e2', 'Event', { event_type: 'COERCE', label: 'curfew', date: '2024-05-01' }),
        node('e3', 'Event', { event_type: 'PROTEST', label: 'march', date: '2024-05-01' }),
        node('e4', 'Event', { event_type: 'THREATEN', label: 'ultimatum', date: '2024-05-01' }),
        // the claims' ids sort unlike the events they refer to
        ...['j1', 'j2', 'j3', 'j4', 'j5', 'j6'].map(justification),
        node('g1', 'Claim', { type: 'Grievance', text: 'statement g1' }), node('p1', 'Claim', { type: 'Position', text: 'statement p1' }),
      ],
      [
        edge('r1', 'REFERS_TO', 'j1', 'e2'), // a COERCE: justifying
        edge('r2', 'REFERS_TO', 'j2', 'e3'), // a PROTEST only
        edge('r3', 'REFERS_TO', 'j3', 'e4'), edge('r4', 'REFERS_TO', 'j3', 'e1'), // a THREATEN and an ASSAULT: justifying, once
        edge('r5', 'REFERS_TO', 'j4', 'j1'), edge('r6', 'REFERS_TO', 'j4', 'a'), // a claim and an actor only
        edge('r7', 'REFERS_TO', 'j6', 'e1'), // the ASSAULT j3 refers to as well: justifying
        edge('r8', 'REFERS_TO', 'g1', 'e1'), edge('r9', 'REFERS_TO', 'p1', 'e2'), // not Justification claims
        ...['j1', 'j2', 'j3', 'j4', 'j5', 'j6', 'g1', 'p1'].map((claim) => edge(`s-${claim}`, 'ASSERTS', 'a', claim)),
      ],
    );
    expect(answer('claims_of_type(\'Justification\', J), gt_justified_acts(J, L)')(graph)).toEqual(['j1', 'j3', 'j6']);
    expect(statements(run(graph))['violence=cultural']).toBe('Cultural violence: 3 claims (0 dehumanising the other side, 3 justifying violence), by Army.');
  });
});

describe('galtung\'s direct violence sentence (frameworks/galtung/rules.pl gt_direct_sentence/1)', () => {
  it('names the four perpetrators with the most ASSAULT and COERCE events together, ties in actor order, and counts the others', () => {
    // labels sort the other way round from ids, so that a tie broken by label would name other actors
    const labels: Record<string, string> = { p1: 'Zulu Front', p2: 'Yankee Guard', p3: 'X-ray Militia', p4: 'Whiskey Unit', p5: 'Victor Police', p6: 'Uniform Band' };
    // p1: two ASSAULTs and a COERCE (3); p2: two COERCEs (2); p3: two ASSAULTs (2); p4, p5 (a COERCE) and p6 one each
    const perpetrated: [string, string][] = [['p1', 'v1'], ['p1', 'v2'], ['p1', 'v6'], ['p2', 'v6'], ['p2', 'v7'], ['p3', 'v1'], ['p3', 'v3'], ['p4', 'v4'], ['p5', 'v7'], ['p6', 'v5']];
    const graph = GraphIndex.fromRecords(
      [
        ...Object.entries(labels).map(([id, label]) => node(id, 'Actor', { label })),
        node('civ', 'Actor', { label: 'Villagers' }),
        ...['v1', 'v2', 'v3', 'v4', 'v5'].map((id, i) => node(id, 'Event', { event_type: 'ASSAULT', label: `raid ${id}`, date: '2024-05-01', fatalities: i === 0 ? 4 : i === 2 ? 2 : 0 })),
        ...['v6', 'v7'].map((id) => node(id, 'Event', { event_type: 'COERCE', label: `eviction ${id}`, date: '2024-05-01' })),
        node('v8', 'Event', { event_type: 'PROTEST', label: 'march', date: '2024-05-01' }),
      ],
      [
        ...perpetrated.map(([actor, event]) => edge(`p-${actor}-${event}`, 'PARTICIPATES_IN', actor, event, 'perpetrator')),
        ...['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7'].map((event) => edge(`t-${event}`, 'PARTICIPATES_IN', 'civ', event, 'target')),
        edge('p-civ-v8', 'PARTICIPATES_IN', 'civ', 'v8', 'perpetrator'),
      ],
    );
    expect(statements(run(graph))['violence=direct']).toBe(
      'Direct violence: 7 ASSAULT or COERCE events with 6 fatalities reported, by Zulu Front, Yankee Guard, X-ray Militia, Whiskey Unit and 2 others.',
    );
  });
});
