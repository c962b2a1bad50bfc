import { describe, expect, it } from 'vitest';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { applyCreateForTests, runQuery } from '../../engine/query/index.ts';

function sudan(): GraphIndex {
  const graph = new GraphIndex();
  applyCreateForTests(graph, "CREATE (:Actor {label: 'SAF'})-[:OPPOSES]->(:Actor {label: 'RSF'})");
  return graph;
}

describe('query notifications against the graph schema', () => {
  it('warn about each label and relationship type the graph holds none of, where it is written; the rows are those without them', () => {
    const graph = sudan();
    const result = runQuery(graph, 'MATCH (a:Actr)-[:OPOSES]->(b:Actor)\nWHERE b:Acter OR a:Actor\nRETURN a.label');
    expect(result.rows).toEqual([]);
    expect(result.notifications?.map(({ code, severity, position }) => ({ code, severity, position }))).toEqual([
      { code: 'unknown_label', severity: 'warning', position: { line: 1, column: 10 } },
      { code: 'unknown_relationship_type', severity: 'warning', position: { line: 1, column: 18 } },
      { code: 'unknown_label', severity: 'warning', position: { line: 2, column: 9 } },
    ]);
    expect(result.notifications![0].title).toContain('`Actr`');
    expect(result.notifications![1].description).toContain('OPOSES');
  });

  it('say nothing about a query over names the graph holds, and see a name once the graph gains it', () => {
    const graph = sudan();
    const known = runQuery(graph, 'MATCH (a:Actor)-[:OPPOSES|ALLIES_WITH]->(b) RETURN a.label');
    expect(known.rows).toEqual([['SAF']]);
    // ALLIES_WITH is not held: one warning for it, none for OPPOSES
    expect(known.notifications?.map((n) => n.title)).toEqual(['The relationship type `ALLIES_WITH` is not in the graph']);
    expect(runQuery(graph, 'MATCH (a:Actor)-[:OPPOSES]->(b) RETURN a.label').notifications).toBeUndefined();

    const query = 'MATCH (m:Mediator) RETURN count(m)';
    expect(runQuery(graph, query).notifications).toHaveLength(1);
    applyCreateForTests(graph, "CREATE (:Mediator {label: 'AU'})");
    const after = runQuery(graph, query);
    expect(after.rows).toEqual([[1n]]);
    expect(after.notifications).toBeUndefined();
  });

  it('reach pattern expressions, every UNION part and explain', () => {
    const graph = sudan();
    const query = 'MATCH (a:Actor) RETURN size([(a)-[:FUNDS]->(x) | x]) AS n UNION ALL MATCH (c:Claim) RETURN 0 AS n';
    const result = runQuery(graph, query, { explain: true });
    expect(result.notifications?.map((n) => [n.code, n.position.column])).toEqual([
      ['unknown_relationship_type', query.indexOf('FUNDS') + 1],
      ['unknown_label', query.indexOf('Claim') + 1],
    ]);
    expect(result.plan).toBeDefined();
  });

  it('warn about a property key no node or relationship has held, read of a record or in a pattern map, not about a key of a map the query builds', () => {
    const graph = sudan();
    const query = "MATCH (a:Actor {lable: 'SAF'})-[r:OPPOSES]->(b)\nWITH a, r, b, {nme: 1} AS m\nRETURN a.label, b.nme, r.sinse, m.nme, a.confidence";
    const result = runQuery(graph, query);
    expect(result.rows).toEqual([]);
    expect(result.notifications?.map((n) => [n.code, n.title, n.position.line, n.position.column])).toEqual([
      ['unknown_property_key', 'The property key `lable` is not in the graph', 1, query.indexOf('lable') + 1],
      ['unknown_property_key', 'The property key `nme` is not in the graph', 3, 'RETURN a.label, b.'.length + 1],
      ['unknown_property_key', 'The property key `sinse` is not in the graph', 3, 'RETURN a.label, b.nme, r.'.length + 1],
    ]);
  });

  it('see a property key once a node or relationship holds it', () => {
    const graph = sudan();
    const query = 'MATCH (a:Actor)-[r]->(b) WHERE a.since IS NULL RETURN r.since';
    expect(runQuery(graph, query).notifications?.map((n) => n.code)).toEqual(['unknown_property_key', 'unknown_property_key']);
    applyCreateForTests(graph, "CREATE (:Actor {label: 'AU'})-[:MEDIATES {since: 2023}]->(:Actor {label: 'SAF'})");
    expect(runQuery(graph, query).notifications).toBeUndefined();
  });

  it('follow a variable through WITH and UNION parts: a name rebound to a map or a list element reads the query\'s own keys', () => {
    const graph = sudan();
    const codes = (query: string) => runQuery(graph, query).notifications?.map((n) => `${n.code} ${n.title}`);
    expect(codes('MATCH (a:Actor) WITH {nme: 1} AS a RETURN a.nme')).toBeUndefined();
    expect(codes('MATCH (a:Actor) RETURN [a IN [{k: 1}] | a.k] AS x')).toBeUndefined();
    expect(codes('MATCH (a:Actor) UNWIND [{k: 1}] AS a RETURN a.k')).toBeUndefined();
    expect(codes('MATCH (a:Actor) RETURN a.label AS x UNION ALL WITH {k: 1} AS a RETURN a.k AS x')).toBeUndefined();
    // still a node: passed on by WITH under its name or another, or read inside a comprehension over something else
    expect(codes('MATCH (a:Actor) WITH a AS b, 1 AS one RETURN b.nme')).toEqual(['unknown_property_key The property key `nme` is not in the graph']);
    expect(codes('MATCH (a:Actor) RETURN [x IN [1] | a.nme] AS y')).toEqual(['unknown_property_key The property key `nme` is not in the graph']);
  });
});
