// The TCK runner's own parts, on inline text: npm test never needs the feature files.
import { describe, expect, it } from 'vitest';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { compareTables } from './compare.ts';
import { parseFeature, splitTableRow } from './gherkin.ts';
import { planScenario } from './scenario.ts';
import { compareSideEffects, sideEffectsBetween, snapshotGraph } from './side-effects.ts';
import { canonical, formatTckValue, parseTckValue, type TckValue } from './values.ts';

const FEATURE = `#
# Copyright notice lines are comments
#encoding: utf-8

Feature: Demo1 - A demo feature

  Background:
    Given an empty graph

  Scenario: [1] Plain scenario
    And having executed:
      """
      CREATE (:A {name: 'a'}),
             (:B)
      """
    When executing query:
      """
      MATCH (n)
      RETURN n
      """
    Then the result should be, in any order:
      | n                |
      | (:A {name: 'a'}) |
      | (:B)             |
    And no side effects

  @skipGrammarCheck
  Scenario Outline: [2] Outline <which>
    And parameters are:
      | p | <value> |
    When executing query:
      """
      RETURN $p AS x, <expr> AS y
      """
    Then the result should be, in order (ignoring element order for lists):
      | x       | y |
      | <value> | 1 |

    Examples:
      | which | value  | expr |
      | one   | [1, 2] | 1    |
      | two   | 'a\\|b' | 0+1  |

  Scenario: [3] Error
    When executing query:
      """
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable
`;

describe('Gherkin reader', () => {
  const feature = parseFeature(FEATURE, 'Demo1.feature');

  it('reads the feature name and expands outlines into one scenario per example row', () => {
    expect(feature.name).toBe('Demo1 - A demo feature');
    expect(feature.scenarios.map((scenario) => scenario.id)).toEqual([
      'Demo1.feature:10 Demo1 - A demo feature [1] Plain scenario',
      'Demo1.feature:28 Demo1 - A demo feature [2] Outline <which> | one | [1, 2] | 1 |',
      "Demo1.feature:28 Demo1 - A demo feature [2] Outline <which> | two | 'a|b' | 0+1 |",
      'Demo1.feature:44 Demo1 - A demo feature [3] Error',
    ]);
    expect(feature.scenarios[1].tags).toEqual(['@skipGrammarCheck']);
  });

  it('prepends background steps and dedents doc strings to their fence', () => {
    const [first] = feature.scenarios;
    expect(first.steps.map((step) => step.text)).toEqual([
      'an empty graph',
      'having executed:',
      'executing query:',
      'the result should be, in any order:',
      'no side effects',
    ]);
    expect(first.steps[1].docString).toBe("CREATE (:A {name: 'a'}),\n       (:B)");
  });

  it('substitutes example values into doc strings and tables', () => {
    const plan = planScenario(feature.scenarios[2]);
    expect(plan.query).toBe('RETURN $p AS x, 0+1 AS y');
    expect(plan.parameters.p).toEqual({ kind: 'string', value: 'a|b' });
    expect(plan.expectation).toEqual({ kind: 'rows', ordered: true, unorderedLists: true, columns: ['x', 'y'], rows: [["'a|b'", '1']] });
  });

  it('plans set-up, expectations and side effects', () => {
    const plain = planScenario(feature.scenarios[0]);
    expect(plain.setup).toHaveLength(1);
    expect(plain.expectation).toMatchObject({ kind: 'rows', ordered: false, unorderedLists: false });
    expect(plain.sideEffects?.['+nodes']).toBe(0);
    const error = planScenario(feature.scenarios[3]);
    expect(error.expectation).toEqual({ kind: 'error', type: 'SyntaxError', phase: 'compile time', detail: 'UndefinedVariable' });
    expect(error.unsupported).toEqual([]);
  });

  it('marks steps it cannot honour as unsupported', () => {
    const text = 'Feature: F\n  Scenario: S\n    Given the binary-tree-1 graph\n    When executing query:\n      """\n      RETURN 1\n      """\n    Then the result should be empty\n';
    const plan = planScenario(parseFeature(text, 'F.feature').scenarios[0]);
    expect(plan.unsupported).toEqual(['named graph: the binary-tree-1 graph']);
    expect(plan.expectation).toEqual({ kind: 'empty' });
  });

  it('splits table rows with escaped pipes and backslashes', () => {
    expect(splitTableRow('| a | b\\|c | d\\\\ |')).toEqual(['a', 'b|c', 'd\\']);
    expect(() => splitTableRow('| a | b')).toThrow();
  });
});

describe('TCK value notation', () => {
  const roundTrip = (text: string) => formatTckValue(parseTckValue(text));

  it('parses scalars, keeping integers and floats apart', () => {
    expect(parseTckValue('42')).toEqual({ kind: 'integer', value: 42n });
    expect(parseTckValue('-9223372036854775808')).toEqual({ kind: 'integer', value: -9223372036854775808n });
    expect(parseTckValue('1.0')).toEqual({ kind: 'float', value: 1 });
    expect(parseTckValue('-0.0')).toEqual({ kind: 'float', value: -0 });
    expect(parseTckValue('.5e-3')).toEqual({ kind: 'float', value: 0.0005 });
    expect(parseTckValue('NaN')).toMatchObject({ kind: 'float' });
    expect(parseTckValue('-Inf')).toEqual({ kind: 'float', value: -Infinity });
    expect(parseTckValue("'it\\'s'")).toEqual({ kind: 'string', value: "it's" });
    expect(parseTckValue("''")).toEqual({ kind: 'string', value: '' });
    expect(parseTckValue('null')).toEqual({ kind: 'null' });
  });

  it('parses containers and graph elements', () => {
    expect(roundTrip("[1, 'a', [], {}]")).toBe("[1, 'a', [], {}]");
    expect(roundTrip('{num:1, b: [2.5]}')).toBe('{num: 1, b: [2.5]}');
    expect(roundTrip("(:A:B {name: 'x'})")).toBe("(:A:B {name: 'x'})");
    expect(roundTrip('()')).toBe('()');
    expect(roundTrip('[:T {k: 1}]')).toBe('[:T {k: 1}]');
    expect(roundTrip('[[:T], [:U]]')).toBe('[[:T], [:U]]');
    expect(roundTrip('<(:A)-[:T]->(:B)<-[:U {w: 2}]-()>')).toBe('<(:A)-[:T]->(:B)<-[:U {w: 2}]-()>');
  });

  it('rejects malformed values', () => {
    for (const text of ['', '[1, 2', "'open", '(:A', '1 2', '{a 1}', '<(:A)-[:T]-(:B)>']) expect(() => parseTckValue(text), text).toThrow();
  });

  it('compares as the TCK does', () => {
    const same = (a: string, b: string, unorderedLists = false) =>
      canonical(parseTckValue(a), { unorderedLists }) === canonical(parseTckValue(b), { unorderedLists });
    expect(same('(:A:B {x: 1, y: 2})', '(:B:A {y: 2, x: 1})')).toBe(true);
    expect(same('1', '1.0')).toBe(false);
    expect(same("'1'", '1')).toBe(false);
    expect(same('NaN', 'NaN')).toBe(true);
    expect(same('0.0', '-0.0')).toBe(true);
    expect(same('[1, 2]', '[2, 1]')).toBe(false);
    expect(same('[1, 2]', '[2, 1]', true)).toBe(true);
    expect(same('[[1, 2], 3]', '[3, [2, 1]]', true)).toBe(true);
    expect(same('[1, 1, 2]', '[1, 2, 2]', true)).toBe(false);
    expect(same('<(:A)-[:T]->(:B)>', '<(:A)<-[:T]-(:B)>')).toBe(false);
    expect(same('[:T {k: 1}]', '[:U {k: 1}]')).toBe(false);
  });
});

describe('result table comparison', () => {
  const values = (...cells: string[]): TckValue[] => cells.map(parseTckValue);
  const expected = (rows: string[][], ordered: boolean) => ({ columns: ['a', 'b'], rows, ordered, unorderedLists: false });

  it('compares rows as a multiset when in any order', () => {
    const table = expected([['1', "'x'"], ['2', "'y'"], ['1', "'x'"]], false);
    expect(compareTables(table, { columns: ['a', 'b'], rows: [values('2', "'y'"), values('1', "'x'"), values('1', "'x'")] })).toBeUndefined();
    const missingDuplicate = compareTables(table, { columns: ['a', 'b'], rows: [values('2', "'y'"), values('1', "'x'"), values('2', "'y'")] });
    expect(missingDuplicate).toContain("missing:\n    | 1 | 'x' |");
    expect(missingDuplicate).toContain("unexpected:\n    | 2 | 'y' |");
  });

  it('compares rows as a sequence when in order', () => {
    const table = expected([['1', '2'], ['3', '4']], true);
    expect(compareTables(table, { columns: ['a', 'b'], rows: [values('1', '2'), values('3', '4')] })).toBeUndefined();
    expect(compareTables(table, { columns: ['a', 'b'], rows: [values('3', '4'), values('1', '2')] })).toMatch(/from row 1/);
    expect(compareTables(table, { columns: ['a', 'b'], rows: [values('1', '2')] })).toMatch(/from row 2/);
  });

  it('requires the same columns in the same order', () => {
    expect(compareTables(expected([], false), { columns: ['b', 'a'], rows: [] })).toMatch(/columns differ/);
    expect(compareTables(expected([], false), { columns: ['a', 'b'], rows: [] })).toBeUndefined();
  });
});

describe('side effects', () => {
  const node = (id: string, labels: string[], properties: Record<string, number | string>) => ({
    id,
    labels,
    properties,
    confidence: 1,
    provenance: [],
    recorded_at: '2026-01-01T00:00:00Z',
  });

  it('counts added and removed nodes, relationships, property triples and distinct labels', () => {
    const graph = new GraphIndex();
    graph.putNode(node('a', ['A'], { num: 1 }));
    graph.putNode(node('b', ['A', 'B'], {}));
    graph.putEdge({ id: 'r', type: 'T', from: 'a', to: 'b', properties: { w: 2 }, confidence: 1, provenance: [], recorded_at: '2026-01-01T00:00:00Z' });
    const before = snapshotGraph(graph);
    expect(sideEffectsBetween(before, snapshotGraph(graph))).toEqual({
      '+nodes': 0, '-nodes': 0, '+relationships': 0, '-relationships': 0, '+properties': 0, '-properties': 0, '+labels': 0, '-labels': 0,
    });

    graph.deleteNode('b'); // takes the relationship and its property with it; label A survives on a, B goes
    graph.putNode(node('a', ['A', 'C'], { num: 2, name: 'x' })); // a changed value counts as one removal and one addition
    graph.putNode(node('c', ['A'], {}));
    const effects = sideEffectsBetween(before, snapshotGraph(graph));
    expect(effects).toEqual({
      '+nodes': 1, '-nodes': 1, '+relationships': 0, '-relationships': 1, '+properties': 2, '-properties': 2, '+labels': 1, '-labels': 1,
    });
    expect(compareSideEffects(effects, effects)).toBeUndefined();
    expect(compareSideEffects({ ...effects, '+nodes': 0 }, effects)).toBe('side effects differ: +nodes: expected 0, got 1');
  });
});
