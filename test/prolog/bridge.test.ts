import { describe, expect, it } from 'vitest';
import { PrologBridge, startProlog } from '../../engine/prolog/bridge.ts';
import { conflictGraph } from '../query/fixtures.ts';

await startProlog();

const REACHES = `
reaches(X, Y) :- reach(X, Y, [X]).
reach(X, Y, _) :- edge(_, _, X, Y, _).
reach(X, Z, Seen) :- edge(_, _, X, Y, _), \\+ seen(Y, Seen), reach(Y, Z, [Y|Seen]).
seen(X, [X|_]).
seen(X, [_|T]) :- seen(X, T).
loop(X) :- loop(X).
spin(N) :- N >= 0, M is N + 1, spin(M).
`;

const view = { graph: conflictGraph() };

describe('Prolog bridge', () => {
  it('answers base predicates from the graph view', () => {
    const bridge = new PrologBridge();
    const claims = bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C'], view).map(([id]) => id).sort();
    expect(claims).toEqual(['c1', 'c3']);
    const asserted = bridge.solve("edge(E, 'ASSERTS', rsf, C, _)", ['E', 'C'], view);
    expect(asserted).toEqual([['e1', 'c1'], ['e2', 'c2']]);
  });

  it('runs a consulted rule module over the graph', () => {
    const bridge = new PrologBridge();
    expect(bridge.consult(REACHES)).toEqual(expect.arrayContaining(['reaches/2', 'loop/1']));
    expect(bridge.defines('reaches', 2)).toBe(true);
    expect(bridge.holds('reaches(igad, rsf)', view)).toBe(true); // igad -ALLIED_WITH-> saf -ALLIED_WITH-> rsf
    expect(bridge.holds('reaches(c1, rsf)', view)).toBe(false);
    const fromIgad = new Set(bridge.solve('reaches(igad, Y)', ['Y'], view).map(([y]) => y));
    // the graph has a cycle (rsf <-> saf): the rule's visited list keeps the search finite
    expect([...fromIgad].sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'rsf', 'saf']);
  });

  it('sees only records visible at as_of', () => {
    const bridge = new PrologBridge();
    expect(bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C'], { ...view, asOf: '2024-01-02T00:00:00.000Z' })).toEqual([['c1']]);
  });

  it('stops a runaway rule at the inference limit and at the time limit', () => {
    const bridge = new PrologBridge();
    bridge.consult(REACHES);
    expect(() => bridge.holds('loop(a)', view, { inferenceLimit: 5_000 })).toThrow(/inferences/);
    // the time limit is checked every few thousand inferences (SWI-Prolog's heartbeat), which a loop of bare self-calls
    // and arithmetic (loop/1) never reaches: that one stops at the inference limit
    expect(() => bridge.holds('loop(a)', view, { inferenceLimit: 200_000 })).toThrow(/inferences/);
    expect(() => bridge.holds('spin(0)', view, { timeLimitMs: 50, inferenceLimit: 1_000_000_000 })).toThrow(/time limit/);
    // the session stays usable afterwards
    expect(bridge.holds('reaches(igad, saf)', view)).toBe(true);
  });

  it('refuses a module that does not parse', () => {
    const bridge = new PrologBridge();
    expect(() => bridge.consult('ok(1).\nbroken(:- .\n', 'mine/rules.pl')).toThrow(
      expect.objectContaining({ code: 'rule_module_invalid', details: expect.objectContaining({ file: 'mine/rules.pl', line: 2 }) }),
    );
  });
});
