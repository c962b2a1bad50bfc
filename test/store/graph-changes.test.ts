import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { addedSince, MAX_LOGGED_RECORDS, putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const node = (id: string, label = id): NodeRecord => ({
  id, labels: ['Actor'], properties: { label }, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z',
});

describe('graph change log', () => {
  it('lists what was added since a revision, in order, across several writes', () => {
    const graph = new GraphIndex();
    putLogged(graph, [node('a')], []);
    const start = graph.revision;
    putLogged(graph, [node('b'), node('c')], []);
    putLogged(graph, [node('d')], [{ id: 'e1', type: 'OPPOSES', from: 'b', to: 'd', properties: {}, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' }]);
    expect(addedSince(graph, start)).toEqual({ nodes: ['b', 'c', 'd'], edges: ['e1'] });
    expect(addedSince(graph, graph.revision)).toBeUndefined(); // nothing to add: the reader holds it all
  });

  it('offers nothing across a replaced record, a change made around the log, or a revision it no longer holds', () => {
    const graph = new GraphIndex();
    putLogged(graph, [node('a')], []);
    let start = graph.revision;
    putLogged(graph, [node('a', 'renamed')], []);
    expect(addedSince(graph, start)).toBeUndefined();

    start = graph.revision;
    graph.putNode(node('b')); // not logged
    putLogged(graph, [node('c')], []);
    expect(addedSince(graph, start)).toBeUndefined();

    start = graph.revision;
    putLogged(graph, [node('d'), node('d')], []); // the second replaces the first
    expect(addedSince(graph, start)).toBeUndefined();

    start = graph.revision;
    for (let i = 0; i <= MAX_LOGGED_RECORDS; i++) putLogged(graph, [node(`n${i}`)], []);
    expect(addedSince(graph, start)).toBeUndefined(); // the oldest entries were dropped
    expect(addedSince(graph, graph.revision - 1)).toEqual({ nodes: [`n${MAX_LOGGED_RECORDS}`], edges: [] });
  });
});
