import { describe, expect, it } from 'vitest';
import { PrologBridge } from '../../engine/prolog/bridge.ts';
import { conflictGraph } from '../query/fixtures.ts';

const REACHES = `
reaches(X, Y) :- reach(X, Y, [X]).
reach(X, Y, _) :- edge(_, _, X, Y, _).
reach(X, Z, Seen) :- edge(_, _, X, Y, _), \\+ seen(Y, Seen), reach(Y, Z, [Y|Seen]).
seen(X, [X|_]).
seen(X, [_|T]) :- seen(X, T).
loop(X) :- loop(X).
`;

describe('tau-prolog bridge', () => {
  it('answers base predicates from the graph through JS-backed predicates', () => {
    const bridge = new PrologBridge({ graph: conflictGraph() });
    const claims = bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C']).map(([id]) => id).sort();
    expect(claims).toEqual(['c1', 'c3']);
    const asserted = bridge.solve("edge(E, 'ASSERTS', rsf, C, _)", ['E', 'C']);
    expect(asserted).toEqual([['e1', 'c1'], ['e2', 'c2']]);
  });

  it('runs a consulted rule module over the graph without asserting facts', () => {
    const bridge = new PrologBridge({ graph: conflictGraph() });
    expect(bridge.consult(REACHES)).toEqual(expect.arrayContaining(['reaches/2', 'loop/1']));
    expect(bridge.defines('reaches', 2)).toBe(true);
    expect(bridge.holds('reaches(igad, rsf)')).toBe(true); // igad -ALLIED_WITH-> saf -ALLIED_WITH-> rsf
    expect(bridge.holds('reaches(c1, rsf)')).toBe(false);
    const fromIgad = new Set(bridge.solve('reaches(igad, Y)', ['Y']).map(([y]) => y));
    // the graph has a cycle (rsf <-> saf): the rule's visited list keeps the search finite
    expect([...fromIgad].sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'rsf', 'saf']);
  });

  it('sees only records visible at as_of', () => {
    const bridge = new PrologBridge({ graph: conflictGraph(), asOf: '2024-01-02T00:00:00.000Z' });
    expect(bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C'])).toEqual([['c1']]);
  });

  it('stops a runaway rule at the inference limit and at the time limit', () => {
    const bridge = new PrologBridge({ graph: conflictGraph() });
    bridge.consult(REACHES);
    expect(() => bridge.holds('loop(a)', { inferenceLimit: 5_000 })).toThrow(/inferences/);
    expect(() => bridge.holds('loop(a)', { timeLimitMs: 50 })).toThrow(/time limit/);
    // the session stays usable afterwards
    expect(bridge.holds('reaches(igad, saf)')).toBe(true);
  });

  it('refuses a module that does not parse', () => {
    const bridge = new PrologBridge({ graph: conflictGraph() });
    expect(() => bridge.consult('broken(:- .')).toThrow(/rule module/);
  });
});
