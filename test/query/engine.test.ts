import { describe, expect, it } from 'vitest';
import { QueryError } from '../../engine/errors.ts';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { isNode, runQuery, type CypherValue } from '../../engine/query/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { conflictGraph } from './fixtures.ts';

await startProlog();

const ids = (rows: CypherValue[][]) => rows.map((row) => row.map((value) => (isNode(value) ? value.$node.id : value)));

describe('query execution', () => {
  it('answers the RedLine query with the planner starting from the most selective literal', () => {
    const result = runQuery(conflictGraph(), "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c", { explain: true });
    expect(result.columns).toEqual(['a', 'c']);
    expect(ids(result.rows).sort()).toEqual([['rsf', 'c1'], ['saf', 'c3']]);
    // 2 RedLine claims < 4 claims < 3 actors' 4 ASSERTS edges: the goal starts at the property index
    expect(result.goal).toMatch(/^prop\(V_c, type, 'RedLine'\), node\(V_c, 'Claim'\), edge\(\w+, 'ASSERTS', V_a, V_c, _\), node\(V_a, 'Actor'\)/);
    expect(result.plan).toEqual(expect.arrayContaining([expect.stringMatching(/^scan c by property type/)]));
  });

  it('filters by as_of', () => {
    const result = runQuery(conflictGraph(), "MATCH (a:Actor)-[:ASSERTS]->(c:Claim {type: 'RedLine'}) RETURN c.text AS text", { as_of: '2024-01-02T00:00:00Z' });
    expect(result.rows).toEqual([['No negotiation while the army holds Khartoum']]);
  });

  it('groups aggregates by the other columns and orders, skips and limits', () => {
    const result = runQuery(conflictGraph(), 'MATCH (a:Actor)-[:ASSERTS]->(c) RETURN a.label AS actor, count(c) AS claims, collect(c.type) AS types ORDER BY claims DESC, actor SKIP 0 LIMIT 2');
    expect(result.rows).toEqual([
      ['Rapid Support Forces', 2n, ['RedLine', 'Demand']],
      ['IGAD', 1n, ['Offer']],
    ]);
  });

  it('keeps integers and floats apart and follows three-valued logic', () => {
    const result = runQuery(conflictGraph(), 'RETURN 7 / 2 AS i, 7 / 2.0 AS f, null = null AS n, (null OR true) AS t, 1 = 1.0 AS eq');
    expect(result.rows).toEqual([[3n, 3.5, null, true, true]]);
  });

  it('matches variable-length paths and optional matches', () => {
    const graph = conflictGraph();
    const reach = runQuery(graph, "MATCH (i:Actor {label: 'IGAD'})-[:ALLIED_WITH*1..3]->(x) RETURN x.label AS label ORDER BY label");
    expect(reach.rows).toEqual([['Rapid Support Forces'], ['Sudanese Armed Forces']]);
    const optional = runQuery(graph, 'MATCH (a:Actor) OPTIONAL MATCH (a)-[:OPPOSES]->(b) RETURN a.label AS a, b.label AS b ORDER BY a');
    expect(optional.rows).toEqual([['IGAD', null], ['Rapid Support Forces', 'Sudanese Armed Forces'], ['Sudanese Armed Forces', null]]);
  });

  it('scans edges and binds paths alike on a graph loaded from its snapshot, whose edge ids are mapped only when looked up', () => {
    const built = conflictGraph();
    const nodes = [...built.nodes.values()];
    const edges = [...built.edges.values()];
    const position = new Map(nodes.map((node, i) => [node.id, i]));
    const loaded = GraphIndex.fromDistinctRecords(nodes, edges, Int32Array.from(edges.flatMap((edge) => [position.get(edge.from)!, position.get(edge.to)!])));
    const cases: [string, unknown[][]][] = [
      // type by type, each in insertion order
      ['MATCH (a)-[r:OPPOSES|ALLIED_WITH]->(b) RETURN id(a), type(r), id(b)', [['rsf', 'OPPOSES', 'saf'], ['igad', 'ALLIED_WITH', 'saf'], ['saf', 'ALLIED_WITH', 'rsf']]],
      ["MATCH p = (a:Actor {label: 'IGAD'})-[:ALLIED_WITH*0..2]->(b) RETURN [n IN nodes(p) | id(n)], [r IN relationships(p) | id(r)]", [[['igad'], []], [['igad', 'saf'], ['e6']], [['igad', 'saf', 'rsf'], ['e6', 'e7']]]],
      ["MATCH p = (c:Claim {type: 'Offer'})<-[:ASSERTS]-(a)-[:ALLIED_WITH*2]-(b)-[:OPPOSES]->(d) RETURN [n IN nodes(p) | id(n)]", [[['c4', 'igad', 'saf', 'rsf', 'saf']]]],
      ['MATCH p = (a)-[:OPPOSES]-(b) RETURN [n IN nodes(p) | id(n)]', [[['rsf', 'saf']], [['saf', 'rsf']]]],
    ];
    // walked right to left, from the end the label picks: the nodes passed through come in the path's order all the same
    const reversed: [string, unknown[][]][] = [
      ["MATCH p = (a)-[:ALLIED_WITH*2]->(b:Actor {label: 'Rapid Support Forces'}) RETURN [n IN nodes(p) | id(n)], [r IN relationships(p) | id(r)]", [[['igad', 'saf', 'rsf'], ['e6', 'e7']]]],
      ["MATCH p = (a)-[:ALLIED_WITH*0..2]-(b:Actor {label: 'Rapid Support Forces'}) RETURN [n IN nodes(p) | id(n)], [r IN relationships(p) | id(r)]", [[['rsf'], []], [['saf', 'rsf'], ['e7']], [['igad', 'saf', 'rsf'], ['e6', 'e7']]]],
      ["MATCH p = (a)-[:ALLIED_WITH|OPPOSES*3]-(b:Actor {label: 'IGAD'}) RETURN [n IN nodes(p) | id(n)], [r IN relationships(p) | id(r)]", [[['saf', 'rsf', 'saf', 'igad'], ['e5', 'e7', 'e6']], [['saf', 'rsf', 'saf', 'igad'], ['e7', 'e5', 'e6']]]],
    ];
    cases.push(...reversed);
    for (const [query] of reversed) expect(runQuery(built, query, { explain: true }).plan, query).toContainEqual(expect.stringMatching(/^expand b -\[.*\]- a /));
    for (const [query, expected] of cases) {
      const rows = (graph: GraphIndex) => runQuery(graph, query).rows.map((row) => row.map((value) => (isNode(value) ? value.$node.id : value)));
      expect(rows(loaded), query).toEqual(expected);
      expect(rows(built), query).toEqual(expected);
    }
    expect(runQuery(loaded, cases[0][0], { explain: true }).plan).toEqual(expect.arrayContaining([expect.stringMatching(/^scan edges/)]));
  });

  it('binds parameters', () => {
    const result = runQuery(conflictGraph(), 'MATCH (c:Claim) WHERE c.type IN $types RETURN count(*) AS n', { parameters: { types: ['Offer', 'Demand'] } });
    expect(result.rows).toEqual([[2n]]);
  });

  it('raises the errors openCypher names, with line and column', () => {
    const cases: [string, string, number, number][] = [
      ['MATCH (a)\nRETURN b', 'undefined_variable', 2, 8],
      ['MATCH (a)-[r]->(b)\nMATCH (r) RETURN r', 'variable_type_conflict', 2, 7],
      ['MATCH (a) WHERE count(a) > 1 RETURN a', 'invalid_aggregation', 1, 17],
      ['MATCH (a) RETURN a.label + count(*)', 'ambiguous_aggregation_expression', 1, 18],
      ['RETURN nosuch(1)', 'unknown_function', 1, 8],
    ];
    for (const [text, code, line, column] of cases) {
      try {
        runQuery(conflictGraph(), text);
        expect.unreachable(text);
      } catch (error) {
        expect(error).toBeInstanceOf(QueryError);
        expect({ text, code: (error as QueryError).code, line: (error as QueryError).line, column: (error as QueryError).column }).toEqual({ text, code, line, column });
      }
    }
  });

  it('stops at the row cap and the time limit', () => {
    const graph = conflictGraph();
    expect(() => runQuery(graph, 'MATCH (a), (b), (c) RETURN a, b, c', { limits: { rowCap: 100 } })).toThrow(expect.objectContaining({ code: 'query_row_cap' }));
    expect(() => runQuery(graph, 'UNWIND range(1, 3000) AS x UNWIND range(1, 1000) AS y WITH x WHERE x < 0 RETURN x', { limits: { timeLimitMs: 20 } })).toThrow(
      expect.objectContaining({ code: 'query_time_limit' }),
    );
  });

  it('routes a predicate of a loaded rule module to Prolog', () => {
    const rules = new RuleRegistry();
    rules.load('reach', `
      reaches(X, Y) :- reach(X, Y, [X]).
      reach(X, Y, _) :- edge(_, 'ALLIED_WITH', X, Y, _).
      reach(X, Z, Seen) :- edge(_, 'ALLIED_WITH', X, Y, _), \\+ seen(Y, Seen), reach(Y, Z, [Y|Seen]).
      seen(X, [X|_]).
      seen(X, [_|T]) :- seen(X, T).
    `, 'reach.pl');
    const text = 'MATCH (a:Actor), (b:Actor) WHERE a <> b AND reaches(a, b) RETURN a.label AS a, b.label AS b ORDER BY a, b';
    const result = runQuery(conflictGraph(), text, { rules, explain: true });
    expect(result.rows).toEqual([
      ['IGAD', 'Rapid Support Forces'],
      ['IGAD', 'Sudanese Armed Forces'],
      ['Sudanese Armed Forces', 'Rapid Support Forces'],
    ]);
    expect(result.goal).toContain('reaches(V_a, V_b)');
    // without the module the same name is an unknown function
    expect(() => runQuery(conflictGraph(), text)).toThrow(expect.objectContaining({ code: 'unknown_function' }));
  });

  it('refuses a pattern predicate that introduces a variable, and a pattern outside a predicate, where they are written', () => {
    // before, b was bound in the row's own scope and read as a column of nulls
    expect(() => runQuery(conflictGraph(), 'MATCH (a:Actor)\nWHERE (a)-[:ASSERTS]->(b) RETURN b')).toThrow(
      expect.objectContaining({ code: 'undefined_variable', details: expect.objectContaining({ line: 2, column: 23 }) }),
    );
    expect(() => runQuery(conflictGraph(), 'MATCH (a:Actor) WHERE (a)-[r:ASSERTS]->() RETURN a')).toThrow(
      expect.objectContaining({ code: 'undefined_variable', details: expect.objectContaining({ line: 1, column: 26 }) }),
    );
    expect(() => runQuery(conflictGraph(), 'MATCH (a:Actor) RETURN (a)-[:ASSERTS]->() AS asserts')).toThrow(
      expect.objectContaining({ code: 'unexpected_syntax', details: expect.objectContaining({ line: 1, column: 24 }) }),
    );
    // where a truth value is read, a pattern is a predicate: NOT, AND/OR/XOR, a searched CASE's condition
    const predicates = runQuery(conflictGraph(), 'MATCH (a:Actor) RETURN id(a) AS a, NOT (a)-[:ASSERTS]->() AS silent, CASE WHEN (a)-[:OPPOSES]->() THEN 1 ELSE 0 END AS opposes ORDER BY a');
    expect(predicates.rows).toEqual([['igad', false, 0n], ['rsf', false, 1n], ['saf', false, 0n]]);
    // what the same questions are written as
    const named = runQuery(conflictGraph(), 'MATCH (a:Actor) WHERE EXISTS { (a)-[:ASSERTS]->(b:Claim) WHERE b.type = $type } RETURN id(a) AS a ORDER BY a', { parameters: { type: 'RedLine' } });
    expect(named.rows).toEqual([['rsf'], ['saf']]);
    const predicate = runQuery(conflictGraph(), 'MATCH (a:Actor) WHERE NOT (a)-[:ASSERTS]->(:Claim {type: "RedLine"}) AND exists((a)-[:ASSERTS]->()) RETURN id(a) AS a');
    expect(predicate.rows).toEqual([['igad']]);
  });

  it('refuses a literal that is not a boolean under AND, OR, XOR or NOT before running, where it is written', () => {
    for (const [text, column] of [['RETURN true AND 123', 17], ["MATCH (a:Actor) WHERE NOT 'x' RETURN a", 27], ['RETURN null OR [true]', 16], ['RETURN {} XOR false', 8]] as const) {
      expect(() => runQuery(conflictGraph(), text), text).toThrow(
        expect.objectContaining({ code: 'invalid_argument_type', details: expect.objectContaining({ phase: 'compile', line: 1, column }) }),
      );
    }
    expect(runQuery(conflictGraph(), 'RETURN true AND null AS a, NOT false AS b, (1 = 1) XOR false AS c').rows).toEqual([[null, true, true]]);
  });

  it("lets WITH's WHERE read the variables before the WITH, as ORDER BY does, unless the WITH aggregates or is DISTINCT", () => {
    const graph = conflictGraph();
    // before, a variable the WITH did not project was undefined in its WHERE
    expect(runQuery(graph, "MATCH (a:Actor) WITH a.label AS label WHERE a.role = 'party' RETURN label ORDER BY label").rows).toEqual([['Rapid Support Forces'], ['Sudanese Armed Forces']]);
    // DISTINCT: what is written like a projected item means that item
    expect(runQuery(graph, "MATCH (c:Claim) WITH DISTINCT c.type AS type WHERE c.type STARTS WITH 'R' RETURN type").rows).toEqual([['RedLine']]);
    expect(runQuery(graph, "MATCH (c:Claim) WITH DISTINCT c.type AS type WHERE CASE WHEN c.type = 'Offer' THEN true ELSE false END RETURN type").rows).toEqual([['Offer']]);
    expect(() => runQuery(graph, 'MATCH (a:Actor)-[:ASSERTS]->(c) WITH a, count(c) AS n WHERE c.type = "RedLine" RETURN a')).toThrow(expect.objectContaining({ code: 'undefined_variable' }));
  });

  it('keeps one row of equal values under DISTINCT of several columns, whatever their types, sorted, paged or not', () => {
    const graph = conflictGraph();
    // a string that begins as a null's key would, strings that join alike, 1 and 1.0, lists of each
    const pairs = [['a', 1], ['a', 1.0], ['a', null], ['a', null], [null, 'a'], ['\u0000N', null], [null, null], ['a,b', 'c'], ['a', 'b,c'], [[1], 'x'], [[1.0], 'x'], ['', '']];
    const distinct = [['a', 1n], ['a', null], [null, 'a'], ['\u0000N', null], [null, null], ['a,b', 'c'], ['a', 'b,c'], [[1n], 'x'], ['', '']];
    const query = (tail: string) => runQuery(graph, `UNWIND $pairs AS pair RETURN DISTINCT pair[0] AS x, pair[1] AS y ${tail}`, { parameters: { pairs } }).rows;
    expect(query('')).toEqual(distinct);
    const ordered = query('ORDER BY x, y');
    expect(ordered).toHaveLength(distinct.length);
    expect(new Set(ordered.map((row) => JSON.stringify(row, (_, value) => (typeof value === 'bigint' ? Number(value) : value))))).toEqual(
      new Set(distinct.map((row) => JSON.stringify(row, (_, value) => (typeof value === 'bigint' ? Number(value) : value)))),
    );
    expect(query('ORDER BY x, y SKIP 1 LIMIT 3')).toEqual(ordered.slice(1, 4));
    // the same tuples as groups of several keys: each distinct tuple one group, with its rows counted
    const grouped = runQuery(graph, 'UNWIND $pairs AS pair RETURN pair[0] AS x, pair[1] AS y, count(*) AS n', { parameters: { pairs } }).rows;
    expect(grouped).toEqual(distinct.map((row, i) => [...row, [2n, 2n, 1n, 1n, 1n, 1n, 1n, 2n, 1n][i]]));
    // written in the query (parameters make 1.0 an integer): 1 and 1.0, 0.0 and -0.0, NaN and NaN are each one value
    const written = runQuery(graph, "UNWIND [['a', 1], ['a', 1.0], [[1], 'x'], [[1.0], 'x'], [0.0, 'z'], [-0.0, 'z'], [0.0 / 0.0, 'n'], [0.0 / 0.0, 'n']] AS pair RETURN DISTINCT pair[0] AS x, pair[1] AS y").rows;
    expect(written).toEqual([['a', 1n], [[1n], 'x'], [0, 'z'], [NaN, 'n']]);
    // many tuples: a first column of distinct values, each prefix alone until a second tuple shares it
    const tuples = (of: string) => runQuery(graph, `UNWIND range(1, 3000) AS x WITH DISTINCT ${of}, 1 AS one RETURN count(*) AS n`).rows[0][0];
    expect(tuples('toString(x % 1000) AS s, x % 2 AS k')).toBe(1000n);
    expect(tuples('toString(x % 100) AS s, x % 7 AS k')).toBe(700n);
    expect(tuples('toString(x) AS s, x % 3 AS k')).toBe(3000n);
    // three columns, and a match's rows: each actor's label beside the claim types it asserts
    const triples = runQuery(graph, 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN DISTINCT a.label AS actor, c.type AS type, 1 AS one ORDER BY actor, type LIMIT 10').rows;
    expect(triples).toEqual([['IGAD', 'Offer', 1n], ['Rapid Support Forces', 'Demand', 1n], ['Rapid Support Forces', 'RedLine', 1n], ['Sudanese Armed Forces', 'RedLine', 1n]]);
  });

  it('matches a pattern from the variable of a list comprehension, which may hold nodes', () => {
    const result = runQuery(conflictGraph(), "MATCH p = (:Actor {label: 'IGAD'})-[:ALLIED_WITH]->() RETURN [x IN nodes(p) | size([(x)-[:ASSERTS]->(c:Claim) | c])] AS claims");
    expect(result.rows).toEqual([[[1n, 1n]]]);
    expect(() => runQuery(conflictGraph(), 'UNWIND [1] AS x RETURN [y IN [x] | size([(y)-->() | 1])] AS n')).toThrow(expect.objectContaining({ code: 'variable_type_conflict' }));
  });

  it('calls only what a module with a header exports, and names the exported predicates for one it does not', () => {
    const rules = new RuleRegistry();
    rules.load('alliances', `
      :- module(alliances, [allied_to/2, has_allies/1]).
      allied_to(X, Y) :- edge(_, 'ALLIED_WITH', X, Y, _).
      has_allies(X) :- allied_to(X, _).
      alliance_edge(E) :- edge(E, 'ALLIED_WITH', _, _, _).
    `, 'alliances.pl');
    const exported = 'MATCH (a:Actor), (b:Actor) WHERE allied_to(a, b) RETURN a.label AS a, b.label AS b ORDER BY a, b';
    expect(runQuery(conflictGraph(), exported, { rules }).rows).toEqual([
      ['IGAD', 'Sudanese Armed Forces'],
      ['Sudanese Armed Forces', 'Rapid Support Forces'],
    ]);
    expect(rules.predicate('alliance_edge', 1)).toBeUndefined();
    expect(() => runQuery(conflictGraph(), 'MATCH ()-[r]->() WHERE alliance_edge(r) RETURN r', { rules })).toThrow(
      expect.objectContaining({
        code: 'rule_predicate_not_exported',
        message: 'alliance_edge/1 is not exported by alliances: WHERE may call allied_to/2, has_allies/1 (and the helper library\'s predicates)',
        details: expect.objectContaining({ predicate: 'alliance_edge/1', modules: ['alliances'], exported: ['allied_to/2', 'has_allies/1'], line: 1, column: 24 }),
      }),
    );
    // a name no module defines is still an unknown function
    expect(() => runQuery(conflictGraph(), 'MATCH (a) WHERE alliance_ids(a) RETURN a', { rules })).toThrow(expect.objectContaining({ code: 'unknown_function' }));
  });
});

describe('collection limit', () => {
  it('stops collect() as its list passes the limit, before the rows feeding it pile up', () => {
    const graph = conflictGraph();
    expect(() => runQuery(graph, 'UNWIND range(0, 999) AS x UNWIND range(0, 999) AS y RETURN collect([x, y])[0] AS first', { limits: { collectionLimit: 5_000 } })).toThrow(
      expect.objectContaining({ code: 'query_collection_limit', details: { limit: 5_000, setting: 'PARLEY_QUERY_COLLECTION_LIMIT' } }),
    );
    expect(runQuery(graph, 'UNWIND range(1, 4000) AS x RETURN collect(x)[3999] AS last', { limits: { collectionLimit: 5_000 } }).rows).toEqual([[4000n]]);
  });
});
