import { describe, expect, it } from 'vitest';
import { detectConflicts } from '../../engine/conflicts/detect.ts';
import { resolveScope, scopedGraph } from '../../engine/conflicts/scope.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { questionScope } from '../../engine/reason/question-scope.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

/** Two wars and an organisation that speaks about both: the shape of the sample corpus, small. */
const node = (id: string, kind: string, properties: NodeRecord['properties']): NodeRecord => ({ id, labels: [kind], properties, confidence: 1, provenance: [], recorded_at: '2025-01-01T00:00:00.000Z' });
let edges = 0;
const edge = (type: string, from: string, to: string): EdgeRecord => ({ id: `e${++edges}`, type, from, to, properties: {}, confidence: 1, provenance: [], recorded_at: '2025-01-01T00:00:00.000Z' });

function twoWars(): GraphIndex {
  const nodes = [
    node('rsf', 'Actor', { label: 'Rapid Support Forces', aliases: ['RSF'], actor_type: 'armed_group' }),
    node('saf', 'Actor', { label: 'Sudanese Armed Forces', aliases: ['SAF', 'Sudanese army'], actor_type: 'armed_forces' }),
    node('uae', 'Actor', { label: 'United Arab Emirates', actor_type: 'state' }),
    node('m23', 'Actor', { label: 'M23', actor_type: 'armed_group' }),
    node('fardc', 'Actor', { label: 'FARDC', aliases: ['Congolese army'], actor_type: 'armed_forces' }),
    node('rwanda', 'Actor', { label: 'Rwanda', actor_type: 'state' }),
    node('un', 'Actor', { label: 'United Nations', actor_type: 'international_org' }),
    node('sudan', 'Location', { label: 'Sudan', location_type: 'country', country_code: 'SD' }),
    node('fasher', 'Location', { label: 'El Fasher', location_type: 'city', country_code: 'SD' }),
    node('goma', 'Location', { label: 'Goma', location_type: 'city', country_code: 'CD' }),
    node('s1', 'Event', { event_type: 'ASSAULT', date: '2024-02-10', label: 'RSF attack on El Fasher' }),
    node('s2', 'Event', { event_type: 'ASSAULT', date: '2024-06-10', label: 'army shelling' }),
    node('s3', 'Event', { event_type: 'SUPPORT', date: '2024-04-01', label: 'UAE supplies' }),
    node('d1', 'Event', { event_type: 'ASSAULT', date: '2024-03-05', label: 'M23 takes Goma' }),
    node('c1', 'Claim', { type: 'Accusation', text: 'The RSF targets civilians', valid_from: '2024-02-11' }),
    node('c2', 'Claim', { type: 'Accusation', text: 'Rwanda backs the M23', valid_from: '2024-03-06' }),
    node('c3', 'Claim', { type: 'Demand', text: 'Both wars must stop', valid_from: '2024-05-01' }),
  ];
  const links = [
    edge('OPPOSES', 'rsf', 'saf'), edge('PARTICIPATES_IN', 'rsf', 's1'), edge('PARTICIPATES_IN', 'saf', 's1'), edge('OCCURRED_AT', 's1', 'fasher'),
    edge('PARTICIPATES_IN', 'saf', 's2'), edge('PARTICIPATES_IN', 'rsf', 's2'), edge('PARTICIPATES_IN', 'uae', 's3'), edge('PARTICIPATES_IN', 'rsf', 's3'),
    edge('ALLIED_WITH', 'rwanda', 'm23'), edge('OPPOSES', 'm23', 'fardc'), edge('PARTICIPATES_IN', 'm23', 'd1'), edge('PARTICIPATES_IN', 'fardc', 'd1'), edge('OCCURRED_AT', 'd1', 'goma'),
    edge('ASSERTS', 'saf', 'c1'), edge('TARGETS', 'c1', 'rsf'), edge('ASSERTS', 'fardc', 'c2'), edge('TARGETS', 'c2', 'rwanda'),
    edge('ASSERTS', 'un', 'c3'), edge('TARGETS', 'c3', 'rsf'), edge('TARGETS', 'c3', 'm23'),
  ];
  return GraphIndex.fromRecords(nodes, links);
}

describe('conflict detection', () => {
  it('finds the two wars apart, the organisation that speaks of both a third party of each', () => {
    const conflicts = detectConflicts(twoWars());
    expect(conflicts.map((conflict) => conflict.actors)).toEqual([['rsf', 'saf', 'uae'], ['fardc', 'm23', 'rwanda']]);
    expect(conflicts.map((conflict) => conflict.third_parties)).toEqual([['un'], ['un']]);
    expect(conflicts[0].name).toBe('Rapid Support Forces vs Sudanese Armed Forces (Sudan, El Fasher)');
    // equally engaged: by id
    expect(conflicts[1].parties.map((party) => party.id)).toEqual(['fardc', 'm23']);
    expect(conflicts[1].places.map((place) => place.label)).toEqual(['Goma']);
    expect(conflicts[0]).toMatchObject({ events: 3, claims: 2, first: '2024-02-10', last: '2024-06-10' });
    expect(detectConflicts(twoWars())).toEqual(conflicts);
  });

  it('a state that fights in both wars is no side of either war together: the two stay apart', () => {
    const graph = twoWars();
    graph.putNode(node('usa', 'Actor', { label: 'United States', actor_type: 'state' }));
    graph.putEdge(edge('OPPOSES', 'usa', 'rsf'));
    graph.putEdge(edge('OPPOSES', 'usa', 'm23'));
    graph.putEdge(edge('ALLIED_WITH', 'uae', 'rsf'));
    graph.putEdge(edge('OPPOSES', 'rwanda', 'fardc'));
    const conflicts = detectConflicts(graph);
    expect(conflicts.map((conflict) => conflict.actors)).toEqual([['rsf', 'saf', 'uae'], ['fardc', 'm23', 'rwanda']]);
    expect(conflicts.every((conflict) => conflict.third_parties.includes('usa'))).toBe(true);
  });
});

describe('scoped sub-graphs', () => {
  const ids = (graph: GraphIndex) => [...graph.nodes.values()].map((record) => record.id).sort();

  it('a conflict: its actors, their events and claims, the counterparts and places those name', () => {
    const graph = twoWars();
    const [sudan] = detectConflicts(graph);
    const scoped = scopedGraph(graph, resolveScope(graph, { conflict: sudan.id }));
    expect(ids(scoped)).toEqual(['c1', 'c3', 'fasher', 'm23', 'rsf', 's1', 's2', 's3', 'saf', 'uae', 'un'].sort());
    // the claim of the organisation about both wars comes with its speaker and both targets, but M23's own edges stay out
    expect([...scoped.edges.values()].filter((record) => record.from === 'm23' || record.to === 'm23').map((record) => record.type)).toEqual(['TARGETS']);
  });

  it('a dyad: what passes between the two; a period: the records dated in it; a country: its places', () => {
    const graph = twoWars();
    const dyad = scopedGraph(graph, resolveScope(graph, { dyad: ['RSF', 'sudanese army'] }));
    expect(ids(dyad)).toEqual(['c1', 'fasher', 'rsf', 's1', 's2', 'saf']);
    const spring = scopedGraph(graph, resolveScope(graph, { from: '2024-03-01', to: '2024-05-31' }));
    expect(ids(spring).filter((id) => /^[scd]\d$/.test(id))).toEqual(['c2', 'c3', 'd1', 's3']);
    const inSudan = scopedGraph(graph, resolveScope(graph, { places: ['Sudan'] }));
    expect(ids(inSudan).filter((id) => /^[sd]\d$/.test(id))).toEqual(['s1']);
    expect(ids(inSudan)).toEqual(expect.arrayContaining(['rsf', 'saf', 'fasher', 'c1']));
    expect(ids(inSudan)).not.toContain('goma');
  });

  it('refuses a name the graph does not hold, naming the field', () => {
    expect(() => resolveScope(twoWars(), { places: ['Atlantis'] })).toThrow(expect.objectContaining({ code: 'scope_not_found', details: { field: 'scope.places', name: 'Atlantis' } }));
  });
});

describe('the scope a question names', () => {
  it('two actors after "between" are a dyad; "the army" is the army of their conflict; a month without a year its latest by the graph', () => {
    expect(questionScope(twoWars(), 'Why do talks fail between the RSF and the army since March?')).toEqual({ actors: ['rsf', 'saf'], dyad: true, places: [], from: '2024-03-01', source: 'question' });
  });

  it('a place after "in", a year, and nothing for a question that names none', () => {
    expect(questionScope(twoWars(), 'Who are the spoilers in Goma in 2024?')).toEqual({ actors: [], dyad: false, places: ['goma'], from: '2024-01-01', to: '2024-12-31', source: 'question' });
    expect(questionScope(twoWars(), 'Who are the spoilers?')).toBeUndefined();
    expect(questionScope(twoWars(), 'May the talks succeed?')).toBeUndefined();
  });
});

describe('the scope a question names, and the words inside names', () => {
  it('a word of a name found ("the Sudanese government") stands for no other actor; "the government" of a conflict that has two names none', () => {
    const graph = twoWars();
    graph.putNode(node('gov', 'Actor', { label: 'Government of Sudan', aliases: ['Sudanese government'], actor_type: 'government' }));
    graph.putNode(node('chad', 'Actor', { label: 'Government of Chad', actor_type: 'government' }));
    graph.putEdge(edge('OPPOSES', 'gov', 'rsf'));
    graph.putEdge(edge('ALLIED_WITH', 'chad', 'rsf'));
    expect(questionScope(graph, 'Will the Sudanese government and the RSF talk?')?.actors).toEqual(['gov', 'rsf']);
    expect(questionScope(graph, 'Will the RSF talk to the government?')?.actors).toEqual(['rsf']);
    expect(questionScope(graph, 'Will the RSF talk to the army?')?.actors).toEqual(['rsf', 'saf']);
  });
});
