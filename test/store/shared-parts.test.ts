import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { decodeGraph, encodeGraph } from '../../engine/store/snapshot.ts';
import { liveHeap } from '../helpers/heap.ts';

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

  it('gives plain records back equal to what was put through every read, across replacements, deletions and renumbering', () => {
    const plain = [edge('e1', 'a', 'c'), edge('e2', 'b', 'c'), edge('e3', 'c', 'a')];
    const proven: EdgeRecord = { ...edge('e4', 'a', 'b'), confidence: 0.5, provenance: [{ document_id: 'd1', span: [0, 4] } as unknown as EdgeRecord['provenance'][number]] };
    const nodes = [node('a', ['Actor']), node('b', ['Actor', 'Person'], { label: 'Bravo' }), { ...node('c', ['Claim']), confidence: 0.75, recorded_at: '2024-02-01T00:00:00.000Z' }];
    const index = GraphIndex.fromRecords(nodes, [...plain, proven]);
    const expectAsPut = (nodes: NodeRecord[], edges: EdgeRecord[]) => {
      expect([...index.nodes.values()]).toEqual(nodes);
      expect([...index.edges.values()]).toEqual(edges);
      for (const record of nodes) expect(index.node(record.id)).toEqual(record);
      for (const record of edges) expect(index.edge(record.id)).toEqual(record);
      // the members in the order the records were put in (JSON answers and snapshots keep it)
      expect(JSON.stringify([...index.nodes.values(), ...index.edges.values()])).toBe(JSON.stringify([...nodes, ...edges]));
      const decoded = decodeGraph(encodeGraph(index.nodes.values(), index.edges.values(), index.nodeCount, index.edgeCount));
      expect(GraphIndex.fromDistinctRecords(decoded.nodes, decoded.edges, decoded.ends).edgesOf('a', 'both')).toEqual(index.edgesOf('a', 'both'));
    };
    expectAsPut(nodes, [...plain, proven]);
    expect(index.edgesOf('c', 'in')).toEqual([plain[0], plain[1]]);
    expect(index.denseEdge(index.edge('e2')!)).toBe(1);

    // a plain record replaced by one that is not, and the other way round, in place
    const reweighed = edge('e2', 'b', 'c', { weight: 3 });
    index.putEdge(reweighed);
    index.putEdge(edge('e4', 'a', 'b'));
    index.putNode({ ...node('a', ['Actor']), confidence: 0.5 });
    index.putNode(node('c', ['Claim', 'Demand'], { text: 'x' }));
    const replaced = [{ ...node('a', ['Actor']), confidence: 0.5 }, nodes[1], node('c', ['Claim', 'Demand'], { text: 'x' })];
    expectAsPut(replaced, [plain[0], reweighed, plain[2], edge('e4', 'a', 'b')]);

    // enough deletions to renumber the rest (closeHoles): each keeps its parts under its new dense id
    const many = GraphIndex.fromRecords(
      Array.from({ length: 3_000 }, (_, i) => node(`n${i}`, [i % 2 ? 'Actor' : 'Claim'], i % 3 ? { label: `n${i}` } : {})),
      Array.from({ length: 3_000 }, (_, i) => edge(`x${i}`, `n${i}`, `n${(i * 7) % 3_000}`)),
    );
    for (let i = 0; i < 2_000; i++) many.deleteNode(`n${i}`);
    for (let i = 2_000; i < 3_000; i++) expect(many.node(`n${i}`)).toEqual(node(`n${i}`, [i % 2 ? 'Actor' : 'Claim'], i % 3 ? { label: `n${i}` } : {}));
    const left = Array.from({ length: 3_000 }, (_, i) => i).filter((i) => i >= 2_000 && (i * 7) % 3_000 >= 2_000);
    expect([...many.edges.values()]).toEqual(left.map((i) => edge(`x${i}`, `n${i}`, `n${(i * 7) % 3_000}`)));
  });

  it('holds a plain edge in well under the bytes of an object of its own (issue 28: memory per fact)', () => {
    const count = 100_000;
    const index = GraphIndex.fromRecords([node('a', ['Actor']), node('b', ['Actor'])], []);
    const before = liveHeap();
    // each edge's id is its own string, held only by the index
    for (let i = 0; i < count; i++) index.putEdge(edge(`e${i}`, 'a', 'b'));
    const perEdge = (liveHeap() - before) / count;
    // measured: 43 bytes (its id, its place in the id table, the columns); 146 with an object of its own per edge
    expect(perEdge).toBeLessThan(80);
    expect(index.edgeCount).toBe(count);
  });

  it('keeps no recorded_at that no edge holds any more: rewriting the same edges again and again does not grow the graph', () => {
    const index = GraphIndex.fromRecords([node('a', ['Actor']), node('b', ['Actor'])], []);
    const ids = Array.from({ length: 10 }, (_, i) => `e${i}`);
    // each write at its own recorded_at (a server importing the same ids again and again), its strings made anew
    const rewrite = (writes: number, from: number) => {
      for (let write = from; write < from + writes; write++) {
        const at = new Date(Date.UTC(2024, 0, 1) + write).toISOString();
        for (const id of ids) index.putEdge({ ...edge(id, 'a', 'b'), recorded_at: at });
      }
    };
    rewrite(1_000, 0);
    const before = liveHeap();
    rewrite(20_000, 1_000);
    const grown = liveHeap() - before;
    // measured: about 0; one string and its int per write (about 100 bytes) before, 2 MB here
    expect(grown).toBeLessThan(400_000);
    expect([...index.edges.values()]).toEqual(ids.map((id) => ({ ...edge(id, 'a', 'b'), recorded_at: new Date(Date.UTC(2024, 0, 1) + 20_999).toISOString() })));
    // edges of two writes, one of them partly rewritten and partly deleted: each keeps its own
    index.putEdge({ ...edge('e0', 'a', 'b'), recorded_at: '2025-01-01T00:00:00.000Z' });
    index.deleteEdge('e1');
    index.putEdge({ ...edge('e2', 'a', 'b'), recorded_at: '2025-01-02T00:00:00.000Z' });
    expect(index.edge('e0')!.recorded_at).toBe('2025-01-01T00:00:00.000Z');
    expect(index.edge('e2')!.recorded_at).toBe('2025-01-02T00:00:00.000Z');
    expect(index.edge('e3')!.recorded_at).toBe(new Date(Date.UTC(2024, 0, 1) + 20_999).toISOString());
  });

  it('takes a snapshot\'s edges in chunks, ids unhashed, into a graph equal to one they were put into (a worker\'s replica)', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => node(`n${i}`, ['Actor']));
    const edges = Array.from({ length: 3_000 }, (_, i) => (i % 5 ? edge(`e${i}`, `n${i % 300}`, `n${(i * 7) % 301}`) : edge(`e${i}`, `n${i % 300}`, `n${(i * 7) % 301}`, { weight: i })));
    const put = GraphIndex.fromRecords(nodes, edges);
    // as a worker receives them: structured clones
    const adopted = GraphIndex.fromRecords(deserialize(serialize(nodes)), []);
    for (let at = 0; at < edges.length; at += 1_000) adopted.adoptEdges(deserialize(serialize(edges.slice(at, at + 1_000))));
    expect([...adopted.nodes.values()]).toEqual([...put.nodes.values()]);
    expect([...adopted.edges.values()]).toEqual([...put.edges.values()]);
    expect(JSON.stringify([...adopted.edges.values()])).toBe(JSON.stringify(edges));
    expect(adopted.edgesOf('n3', 'both')).toEqual(put.edgesOf('n3', 'both'));
    expect(adopted.factCount).toBe(put.factCount);
    // the first lookup by id hashes them; then a delta goes in as it would have
    expect(adopted.edge('e2999')).toEqual(edges[2_999]);
    expect(adopted.putEdge(edge('e5', 'n5', 'n35'))).toBe(true);
    expect(adopted.putEdge(edge('f1', 'n1', 'n2'))).toBe(false);
    expect(adopted.edge('e5')).toEqual(edge('e5', 'n5', 'n35'));
    expect(adopted.edgeCount).toBe(3_001);
    // once an id has been looked up, more edges cannot go in unhashed (they would not be found)
    expect(() => adopted.adoptEdges([edge('g1', 'n1', 'n2')])).toThrow();
  });
});
