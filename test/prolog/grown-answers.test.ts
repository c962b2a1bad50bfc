import { beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const at = '2024-05-01T00:00:00.000Z';
const node = (id: string, label: string, properties: NodeRecord['properties']): NodeRecord => ({ id, labels: [label], properties, confidence: 0.9, recorded_at: at, provenance: [{ source: `doc-${id}`, timestamp: at }] });
const edge = (id: string, type: string, from: string, to: string, role?: string): EdgeRecord => ({ id, type, from, to, properties: role ? { role } : {}, confidence: 0.8, recorded_at: at, provenance: [{ source: `doc-${id}`, timestamp: at }] });

let registry: RuleRegistry;
beforeAll(async () => {
  await startProlog();
  registry = new RuleRegistry();
});

/** How many of the engine's kept answers (lib/graph.pl view_memo/3) are the library's hostile pairs. */
const keptPairs = (graph: GraphIndex) => registry.solveLibrary('aggregate_all(count, ( user:g_memo(S), nb_getval(S, Es), member((_:hostile_actor_pairs)-_, Es) ), N)', ['N'], { graph })[0][0];
const pairsOf = (graph: GraphIndex) => registry.solveLibrary('hostile_actor_pairs(Ps), maplist([X-Y, [X, Y]]>>true, Ps, P)', ['P'], { graph })[0][0];

describe('answers the helper library keeps for a view, grown by a write instead of found again', () => {
  it('the hostile pairs take an OPPOSES edge, an event and a claim added, and edges added to an event and a claim held; equal to a fresh copy\'s', () => {
    const graph = GraphIndex.fromRecords(
      [
        ...['a', 'b', 'c', 'd'].map((id) => node(id, 'Actor', { label: id })),
        node('ev1', 'Event', { event_type: 'ASSAULT', label: 'shelling', date: '2024-05-01' }),
        node('ev2', 'Event', { event_type: 'CONSULT', label: 'talks', date: '2024-05-01' }),
        node('cl1', 'Claim', { type: 'Threat', text: 'we will strike' }),
      ],
      [
        edge('p1', 'PARTICIPATES_IN', 'a', 'ev1', 'perpetrator'), edge('p2', 'PARTICIPATES_IN', 'b', 'ev1', 'target'),
        edge('p3', 'PARTICIPATES_IN', 'a', 'ev2', 'perpetrator'), edge('p4', 'PARTICIPATES_IN', 'c', 'ev2', 'target'),
        edge('s1', 'ASSERTS', 'c', 'cl1'), edge('t1', 'TARGETS', 'cl1', 'd'),
      ],
    );
    expect(pairsOf(graph)).toEqual([['a', 'b'], ['c', 'd']]);
    putLogged(
      graph,
      [node('cl2', 'Claim', { type: 'Demand', text: 'leave the city' }), node('ev3', 'Event', { event_type: 'COERCE', label: 'raid', date: '2024-05-01' })],
      [
        edge('o1', 'OPPOSES', 'd', 'a'), // an OPPOSES edge: d-a
        edge('p5', 'PARTICIPATES_IN', 'c', 'ev1', 'target'), // a new target of an event held: a-c
        edge('p6', 'PARTICIPATES_IN', 'd', 'ev2', 'target'), // of an event of no hostile type: nothing
        edge('s2', 'ASSERTS', 'b', 'cl2'), edge('t2', 'TARGETS', 'cl2', 'a'), // a new claim: b-a, held already as a-b
        edge('t3', 'TARGETS', 'cl1', 'b'), // a new aim of a claim held: c-b
        edge('p7', 'PARTICIPATES_IN', 'b', 'ev3', 'perpetrator'), edge('p8', 'PARTICIPATES_IN', 'd', 'ev3', 'target'), // a new event: b-d
      ],
    );
    // the write handed over (a call that reads nothing), the pairs are still kept: grown, not dropped
    registry.solveLibrary('true', [], { graph });
    expect(keptPairs(graph)).toBe(1);
    const grown = pairsOf(graph);
    expect(grown).toEqual([['a', 'b'], ['a', 'c'], ['a', 'd'], ['b', 'c'], ['b', 'd'], ['c', 'd']]);
    expect(pairsOf(GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values()))).toEqual(grown);
    // and what reads them reads the grown pairs
    expect(registry.solveLibrary('opponents(b, Os)', ['Os'], { graph })).toEqual([[['a', 'c', 'd']]]);
  });
});
