import { describe, expect, it } from 'vitest';
import { QueryError } from '../../engine/errors.ts';
import { runQuery } from '../../engine/query/index.ts';
import { conflictGraph } from './fixtures.ts';

/** COUNT { } and EXISTS { } over a pattern, and size() of a pattern comprehension counted without its list. */
describe('pattern subqueries', () => {
  const graph = conflictGraph();
  const rows = (query: string, parameters: Record<string, unknown> = {}) => runQuery(graph, query, { parameters }).rows;

  it('counts the claims each actor asserts, 0 for none, as the list form and OPTIONAL MATCH do', () => {
    const perActor = 'MATCH (a:Actor) RETURN a.label AS actor, COUNT { (a)-[:ASSERTS]->(:Claim) } AS claims ORDER BY actor';
    const expected = [['IGAD', 1n], ['Rapid Support Forces', 2n], ['Sudanese Armed Forces', 1n]];
    expect(rows(perActor)).toEqual(expected);
    expect(rows('MATCH (a:Actor) RETURN a.label AS actor, size([(a)-[:ASSERTS]->(:Claim) | 1]) AS claims ORDER BY actor')).toEqual(expected);
    expect(rows('MATCH (a:Actor) OPTIONAL MATCH (a)-[:ASSERTS]->(c:Claim) RETURN a.label AS actor, count(c) AS claims ORDER BY actor')).toEqual(expected);
    // the optional MATCH keyword inside the braces, and a label the end node lacks
    expect(rows('MATCH (a:Actor) RETURN a.label AS actor, COUNT { MATCH (a)-[:ASSERTS]->(:Location) } AS n ORDER BY actor').map((row) => row[1])).toEqual([0n, 0n, 0n]);
  });

  it('applies the WHERE inside the braces to the pattern’s own variables and the row’s', () => {
    expect(rows("MATCH (a:Actor) RETURN a.label AS actor, COUNT { (a)-[:ASSERTS]->(c) WHERE c.type = 'RedLine' } AS n ORDER BY actor"))
      .toEqual([['IGAD', 0n], ['Rapid Support Forces', 1n], ['Sudanese Armed Forces', 1n]]);
    expect(rows("MATCH (a:Actor) WHERE EXISTS { (a)-[:ASSERTS]->(c:Claim) WHERE c.type = $type } RETURN a.label AS actor ORDER BY actor", { type: 'RedLine' }))
      .toEqual([['Rapid Support Forces'], ['Sudanese Armed Forces']]);
    expect(rows('MATCH (a:Actor) WHERE NOT EXISTS { (a)-[:OPPOSES]->() } RETURN a.label AS actor ORDER BY actor'))
      .toEqual([['IGAD'], ['Sudanese Armed Forces']]);
    // the row's other variable, bound outside, joins the pattern
    expect(rows('MATCH (a:Actor), (b:Actor) WHERE a <> b AND EXISTS { (a)-[:ALLIED_WITH]->(b) } RETURN a.label AS a, b.label AS b ORDER BY a'))
      .toEqual([['IGAD', 'Sudanese Armed Forces'], ['Sudanese Armed Forces', 'Rapid Support Forces']]);
  });

  it('counts two hops and parallel ways, each relationship once per match', () => {
    const twoHop = rows('MATCH (a:Actor) RETURN a.label AS actor, COUNT { (a)-[:ALLIED_WITH]->()-[:ALLIED_WITH]->() } AS n ORDER BY actor');
    expect(twoHop).toEqual([['IGAD', 1n], ['Rapid Support Forces', 0n], ['Sudanese Armed Forces', 0n]]);
    // undirected: e7 seen from both ends, never twice in one match
    expect(rows("MATCH (a:Actor {label: 'Rapid Support Forces'}) RETURN COUNT { (a)-[:ALLIED_WITH]-()-[:ALLIED_WITH]-() } AS n")).toEqual([[1n]]);
  });

  it('counts size() of a comprehension without its list only where the mapped value cannot fail', () => {
    expect(rows("MATCH (a:Actor {label: 'Rapid Support Forces'}) RETURN size([(a)-[:ASSERTS]->(c) | c]) AS n")).toEqual([[2n]]);
    // a mapped value that fails is still evaluated, match by match
    expect(() => rows("MATCH (a:Actor {label: 'Rapid Support Forces'}) RETURN size([(a)-[:ASSERTS]->(c) | 1 / 0]) AS n")).toThrow(QueryError);
    // and one that names nothing in scope, or a parameter not given, is the error the list form raises
    expect(() => rows('MATCH (a:Actor) RETURN size([(a)-->(b) | nowhere]) AS n')).toThrow(expect.objectContaining({ code: 'undefined_variable' }));
    expect(() => rows('MATCH (a:Actor) RETURN size([(a)-->(b) | $missing]) AS n')).toThrow(expect.objectContaining({ code: 'missing_parameter' }));
  });

  it('takes MATCH and RETURN inside the braces, one row per match, and refuses a write there', () => {
    expect(rows('MATCH (a:Actor) WHERE EXISTS { MATCH (a)-[:OPPOSES]->(b) RETURN b } RETURN a.label AS actor')).toEqual([['Rapid Support Forces']]);
    expect(rows("MATCH (a:Actor {label: 'Rapid Support Forces'}) RETURN COUNT { MATCH (a)-[:ASSERTS]->(c) RETURN c.text } AS n")).toEqual([[2n]]);
    expect(() => rows('MATCH (a:Actor) RETURN COUNT { MATCH (a)-->(c) RETURN nowhere } AS n')).toThrow(expect.objectContaining({ code: 'undefined_variable' }));
    expect(() => rows('MATCH (a:Actor) WHERE EXISTS { MATCH (a)-->(c) SET c.x = 1 } RETURN a')).toThrow(expect.objectContaining({ code: 'invalid_clause_composition' }));
  });

  it('answers a syntax error inside the braces with its line and column', () => {
    const query = 'MATCH (a:Actor)\nRETURN COUNT { (a)-[:ASSERTS]->(c) WITH c } AS n';
    expect(() => rows(query)).toThrow(QueryError);
    expect(() => rows(query)).toThrow(expect.objectContaining({ line: 2, column: 36 }));
  });
});

describe('a sorted page', () => {
  it('holds only the rows its heap keeps, so a large match under a small cap on rows held is answered, and the same sort without a page is not', () => {
    const graph = conflictGraph();
    const ids = [...graph.nodes.values()].map((node) => node.id).sort();
    // 8^5 rows: the sort held every projected row before its heap took five; the 512 rows of the last a and first e come first, in input order
    const query = 'MATCH (a), (b), (c), (d), (e) RETURN id(a) AS a, id(e) AS e ORDER BY a DESC, e SKIP 2 LIMIT 3';
    expect(runQuery(graph, query, { limits: { intermediateRowCap: 1000 } }).rows).toEqual([[ids.at(-1), ids[0]], [ids.at(-1), ids[0]], [ids.at(-1), ids[0]]]);
    expect(() => runQuery(graph, 'MATCH (a), (b), (c), (d), (e) RETURN id(a) AS a ORDER BY a', { limits: { intermediateRowCap: 1000 } })).toThrow(
      expect.objectContaining({ code: 'query_intermediate_rows' }),
    );
  });

  it('counts a row DISTINCT keeps once against the cap, and DISTINCT in every path', () => {
    const graph = conflictGraph();
    const capped = (query: string) => runQuery(graph, query, { limits: { intermediateRowCap: 1500 } }).rows;
    // 1,100 rows held by the sort and 1,100 values by DISTINCT: each under the cap
    expect(capped('UNWIND range(1, 1100) AS x RETURN DISTINCT x ORDER BY x')).toHaveLength(1100);
    expect(capped('UNWIND range(1, 1100) AS x RETURN DISTINCT x ORDER BY x DESC LIMIT 700').at(-1)).toEqual([401n]);
    expect(capped('UNWIND range(1, 1100) AS x WITH DISTINCT x, count(*) AS n RETURN count(*) AS n')).toEqual([[1100n]]);
    expect(capped('UNWIND range(1, 1100) AS x RETURN x ORDER BY x')).toHaveLength(1100);
    // past the cap: the sort's rows, and DISTINCT's values whether sorted, paged or streamed
    for (const query of [
      'UNWIND range(1, 3000) AS x RETURN x ORDER BY x',
      'UNWIND range(1, 3000) AS x RETURN DISTINCT x ORDER BY x LIMIT 1',
      'UNWIND range(1, 3000) AS x WITH DISTINCT x RETURN count(*) AS n',
      'UNWIND range(1, 3000) AS x WITH DISTINCT x SKIP 2900 RETURN count(*) AS n',
    ]) {
      expect(() => capped(query), query).toThrow(expect.objectContaining({ code: 'query_intermediate_rows' }));
    }
  });

  it("raises a row's own error before an unreadable SKIP or LIMIT, as when every row was held first", () => {
    const graph = conflictGraph();
    expect(() => runQuery(graph, 'UNWIND [1, 0] AS x RETURN 1 / x AS y ORDER BY y LIMIT $n', { parameters: { n: -1 } })).toThrow(expect.objectContaining({ code: 'division_by_zero' }));
    expect(() => runQuery(graph, 'UNWIND [1, 2] AS x RETURN 1 / x AS y ORDER BY y LIMIT $n', { parameters: { n: -1 } })).toThrow(expect.objectContaining({ code: 'negative_integer_argument' }));
    // with no row at all, SKIP and LIMIT are still read
    expect(() => runQuery(graph, 'UNWIND [] AS x RETURN x ORDER BY x SKIP $n', { parameters: { n: -1 } })).toThrow(expect.objectContaining({ code: 'negative_integer_argument' }));
  });
});

describe('a page with no ORDER BY', () => {
  it('stops the match once the page is full, where the whole match would pass the limit on rows held', () => {
    const graph = conflictGraph();
    // 8^5 rows: the page's old path held every row and stopped at the cap of 1,000
    const query = 'MATCH (a), (b), (c), (d), (e) RETURN id(a) AS a SKIP 2 LIMIT 3';
    expect(runQuery(graph, query, { limits: { intermediateRowCap: 1000 } }).rows).toEqual(runQuery(graph, query).rows);
    expect(runQuery(graph, query).rows).toHaveLength(3);
    // DISTINCT counts toward the page only rows not seen before; WITH's WHERE filters the page
    expect(runQuery(graph, 'MATCH (a:Actor)-[:ASSERTS]->(c) RETURN DISTINCT a.label AS actor LIMIT 5', { limits: { intermediateRowCap: 1000 } }).rows).toHaveLength(3);
    // the page's two rows are both the first actor's (RSF): WHERE after the page keeps none of them, WHERE before it would keep SAF twice
    const wherePaged = "MATCH (a:Actor), (b), (c), (d) WITH a LIMIT 2 WHERE a.label STARTS WITH 'S' RETURN a.label AS actor";
    expect(runQuery(graph, wherePaged, { limits: { intermediateRowCap: 1000 } }).rows).toEqual([]);
    expect(runQuery(graph, "MATCH (a:Actor), (b), (c), (d) WITH a ORDER BY 0 LIMIT 2 WHERE a.label STARTS WITH 'S' RETURN a.label AS actor").rows).toEqual([]);
    // a page after OPTIONAL MATCH and after UNWIND; a page in each branch of a UNION
    expect(runQuery(graph, 'MATCH (a:Actor) OPTIONAL MATCH (a)-[:OPPOSES]->(b) RETURN a.label AS a, b.label AS b LIMIT 2').rows).toHaveLength(2);
    expect(runQuery(graph, 'UNWIND range(1, 100000) AS x RETURN x SKIP 3 LIMIT 2', { limits: { intermediateRowCap: 1000 } }).rows).toEqual([[4n], [5n]]);
    expect(runQuery(graph, 'MATCH (a:Actor) RETURN id(a) AS x LIMIT 1 UNION ALL MATCH (c:Claim) RETURN id(c) AS x LIMIT 2').rows).toHaveLength(3);
  });
});
