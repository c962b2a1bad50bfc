import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { runQuery } from '../../engine/query/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { conflictGraph } from './fixtures.ts';

/** `MATCH ()-[r]->() RETURN type(r), count(*)`: counted per type off the edge columns, with the answers of the row path. */
describe('relationships counted per type', () => {
  const overview = 'MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n ORDER BY type';
  // the same question the planner cannot count per type (a WHERE on the ends): row by row
  const rowByRow = 'MATCH (a)-[r]->(b) WHERE a IS NOT NULL AND b IS NOT NULL RETURN type(r) AS type, count(*) AS n ORDER BY type';

  it('counts each type, says so in the plan, and answers as row by row does', () => {
    const graph = conflictGraph();
    const result = runQuery(graph, overview, { explain: true });
    expect(result.rows).toEqual([['ALLIED_WITH', 2n], ['ASSERTS', 4n], ['OPPOSES', 1n]]);
    expect(result.plan).toContain('count the relationships per type off the edge columns (no rows; as_of: row by row)');
    expect(runQuery(graph, rowByRow, { explain: true }).plan).not.toContain('count the relationships per type off the edge columns (no rows; as_of: row by row)');
    expect(runQuery(graph, rowByRow).rows).toEqual(result.rows);
    // count(r) is count(*) here; a type list; the other direction; the columns in another order
    expect(runQuery(graph, 'MATCH ()-[r:ASSERTS|OPPOSES]->() RETURN count(r) AS n, type(r) AS type ORDER BY type').rows).toEqual([[4n, 'ASSERTS'], [1n, 'OPPOSES']]);
    expect(runQuery(graph, 'MATCH ()<-[r]-() RETURN type(r) AS type, count(*) AS n ORDER BY type').rows).toEqual(result.rows);
  });

  it('counts row by row where the index cannot: as_of, both directions, a self-loop pattern, a key besides the type', () => {
    const graph = conflictGraph();
    // e3 is recorded on day 5
    expect(runQuery(graph, overview, { as_of: '2024-01-02T00:00:00Z' }).rows).toEqual([['ALLIED_WITH', 2n], ['ASSERTS', 3n], ['OPPOSES', 1n]]);
    expect(runQuery(graph, 'MATCH ()-[r]-() RETURN type(r) AS type, count(*) AS n ORDER BY type').rows).toEqual([['ALLIED_WITH', 4n], ['ASSERTS', 8n], ['OPPOSES', 2n]]);
    expect(runQuery(graph, 'MATCH (a)-[r]->(a) RETURN type(r) AS type, count(*) AS n').rows).toEqual([]);
    expect(runQuery(graph, 'MATCH (a)-[r]->() RETURN type(r) AS type, a.label AS actor, count(*) AS n ORDER BY type, actor').rows).toHaveLength(6);
    expect(runQuery(graph, 'MATCH ()-[r]->() RETURN type(r) AS type, collect(id(r)) AS ids ORDER BY type').rows).toEqual([['ALLIED_WITH', ['e6', 'e7']], ['ASSERTS', ['e1', 'e2', 'e3', 'e4']], ['OPPOSES', ['e5']]]);
    // a node of its own beside the relationship multiplies the rows: 8 nodes
    for (const pattern of ['(a)-[r]->(b), (c)', '(c), ()-[r]->()', '()-[r]->(), (c), (d)']) {
      const query = `MATCH ${pattern} RETURN type(r) AS type, count(*) AS n ORDER BY type`;
      expect(runQuery(graph, query, { explain: true }).plan).not.toContain('count the relationships per type off the edge columns (no rows; as_of: row by row)');
      const perNode = pattern.endsWith('(d)') ? 64n : 8n;
      expect(runQuery(graph, query).rows).toEqual([['ALLIED_WITH', 2n * perNode], ['ASSERTS', 4n * perNode], ['OPPOSES', 1n * perNode]]);
    }
  });

  it('leaves out an edge whose end is not in the graph, as the match does', () => {
    const at = '2024-01-01T00:00:00.000Z';
    const node = (id: string): NodeRecord => ({ id, labels: ['Actor'], properties: {}, confidence: 1, provenance: [], recorded_at: at });
    const edge = (id: string, from: string, to: string): EdgeRecord => ({ id, type: 'OPPOSES', from, to, properties: {}, confidence: 1, provenance: [], recorded_at: at });
    const graph = GraphIndex.fromRecords([node('a'), node('b')], [edge('e1', 'a', 'b'), edge('e2', 'a', 'nowhere'), edge('e3', 'b', 'a')]);
    expect(runQuery(graph, overview).rows).toEqual([['OPPOSES', 2n]]);
    expect(runQuery(graph, rowByRow).rows).toEqual([['OPPOSES', 2n]]);
  });
});

/** `MATCH (n) RETURN labels(n), count(*)`: counted per set of labels without a row per node. */
describe('nodes counted per set of labels', () => {
  const overview = 'MATCH (n) RETURN labels(n) AS labels, count(*) AS n ORDER BY n DESC, labels';
  const rowByRow = 'MATCH (n) WHERE n IS NOT NULL RETURN labels(n) AS labels, count(*) AS n ORDER BY n DESC, labels';

  it('counts each set of labels, one label or several or none, as row by row does', () => {
    const at = (day: number) => `2024-01-0${day}T00:00:00.000Z`;
    const node = (id: string, labels: string[], day = 1): NodeRecord => ({ id, labels, properties: {}, confidence: 1, provenance: [], recorded_at: at(day) });
    const graph = GraphIndex.fromRecords([
      node('a', ['Actor']), node('b', ['Actor', 'Person']), node('c', ['Claim']), node('d', ['Actor']), node('e', []), node('f', ['Actor', 'Person'], 5), node('g', ['Person', 'Actor']),
    ], []);
    const result = runQuery(graph, overview, { explain: true });
    expect(result.rows).toEqual([[['Actor'], 2n], [['Actor', 'Person'], 2n], [[], 1n], [['Claim'], 1n], [['Person', 'Actor'], 1n]]);
    expect(result.plan).toContain('count the nodes per set of labels (no rows; as_of: row by row)');
    expect(runQuery(graph, rowByRow).rows).toEqual(result.rows);
    // a past view counts row by row: f is recorded on day 5
    expect(runQuery(graph, overview, { as_of: at(2) }).rows).toEqual([[['Actor'], 2n], [[], 1n], [['Actor', 'Person'], 1n], [['Claim'], 1n], [['Person', 'Actor'], 1n]]);
    // a labelled scan, or another key, is not this count
    expect(runQuery(graph, 'MATCH (n:Actor) RETURN labels(n) AS labels, count(*) AS n ORDER BY labels', { explain: true }).plan).not.toContain('count the nodes per set of labels (no rows; as_of: row by row)');
    expect(runQuery(graph, 'MATCH (n) RETURN labels(n) AS labels, id(n) AS id, count(*) AS n').rows).toHaveLength(7);
  });
});
