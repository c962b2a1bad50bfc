import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { decodeGraph, encodeGraph } from '../../engine/store/snapshot.ts';

const node = (id: string, labels: string[], properties: NodeRecord['properties'] = {}): NodeRecord => ({ id, labels, properties, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' });
const edge = (id: string, from: string, to: string, properties: EdgeRecord['properties'] = {}): EdgeRecord => ({ id, type: 'ASSERTS', from, to, properties, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' });

describe('records in a GraphIndex share what they have in common (issue 28: memory per fact)', () => {
  it('holds its own copy of each record, equal to it, with label lists and empty members shared and frozen', () => {
    // as a worker's replica receives them: structured clones, each with its own lists and objects
    const nodes: NodeRecord[] = deserialize(serialize([node('a', ['Actor']), node('b', ['Actor']), node('c', ['Claim'], { text: 'x' }), node('d', ['Actor', 'Person'])]));
    const edges: EdgeRecord[] = deserialize(serialize([edge('e1', 'a', 'c'), edge('e2', 'b', 'c', { weight: 2 })]));
    const before = structuredClone({ nodes, edges });
    const index = GraphIndex.fromRecords(nodes, edges);

    expect({ nodes: [...index.nodes.values()], edges: [...index.edges.values()] }).toEqual(before);
    // the records given are left as they were: the index changes its copies only
    expect({ nodes, edges }).toEqual(before);
    expect(index.node('a')).not.toBe(nodes[0]);
    expect(index.node('a')!.labels).toBe(index.node('b')!.labels);
    expect(index.node('a')!.labels).not.toBe(index.node('d')!.labels);
    expect(index.node('a')!.properties).toBe(index.edge('e1')!.properties);
    expect(index.node('a')!.provenance).toBe(index.edge('e2')!.provenance);
    expect(index.node('c')!.properties).toEqual({ text: 'x' });
    expect(index.edge('e2')!.properties).toEqual({ weight: 2 });
    expect(Object.isFrozen(index.node('a')!.labels) && Object.isFrozen(index.node('a')!.properties) && Object.isFrozen(index.node('a')!.provenance)).toBe(true);
    expect(() => index.node('a')!.labels.push('Claim')).toThrow(TypeError);
  });

  it('shares the same parts in a graph read from its snapshot, and answers alike after a replacement', () => {
    const nodes = [node('a', ['Actor']), node('b', ['Actor']), node('c', ['Claim'])];
    const edges = [edge('e1', 'a', 'c'), edge('e2', 'b', 'c')];
    const decoded = decodeGraph(encodeGraph(nodes, edges, nodes.length, edges.length));
    const index = GraphIndex.fromDistinctRecords(decoded.nodes, decoded.edges, decoded.ends);
    expect(index.node('a')!.labels).toBe(index.node('b')!.labels);
    expect(index.edge('e1')!.properties).toBe(index.edge('e2')!.properties);

    // a replaced node with properties of its own keeps them; its label list is still the one shared
    index.putNode(node('b', ['Actor'], { label: 'Bravo' }));
    expect(index.node('b')).toEqual(node('b', ['Actor'], { label: 'Bravo' }));
    expect(index.node('b')!.labels).toBe(index.node('a')!.labels);
    expect(index.edgesOf('c', 'in').map((e) => e.from)).toEqual(['a', 'b']);
  });
});
