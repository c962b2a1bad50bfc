import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { runQuery } from '../../engine/query/index.ts';
import { MAX_PAGE_SIZE } from '../../engine/store/backend.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { lowConfidenceRecords } from '../../engine/store/low-confidence.ts';
import { decodeGraph, encodeGraph } from '../../engine/store/snapshot.ts';
import type { LoopSlicer } from '../../engine/turns.ts';

const RECORDED_AT = '2024-01-01T00:00:00.000Z';
const LABELS = ['Actor', 'Claim', 'Event'];
const TYPES = ['ASSERTS', 'SUPPORTS', 'TARGETS'];

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * What the index must answer, kept the plain way: records in Maps, places in the order
 * ids were first named (by a node or by an edge's end), edges in the order they were put,
 * an edge that changes ends or type going to the end.
 */
class Model {
  readonly nodes = new Map<string, NodeRecord>();
  readonly edges = new Map<string, EdgeRecord>();
  private readonly places = new Map<string, number>();
  private readonly edgeOrder = new Map<string, number>();
  private next = 0;
  private nextEdge = 0;
  readonly types: string[] = [];

  private place(id: string): void {
    if (!this.places.has(id)) this.places.set(id, this.next++);
  }
  putNode(node: NodeRecord): void {
    this.place(node.id);
    this.nodes.set(node.id, node);
  }
  putEdge(edge: EdgeRecord): void {
    const previous = this.edges.get(edge.id);
    if (previous && (previous.type !== edge.type || previous.from !== edge.from || previous.to !== edge.to)) this.deleteEdge(edge.id);
    if (!this.edgeOrder.has(edge.id)) this.edgeOrder.set(edge.id, this.nextEdge++);
    this.edges.set(edge.id, edge);
    this.place(edge.from);
    this.place(edge.to);
    if (!this.types.includes(edge.type)) this.types.push(edge.type);
  }
  deleteEdge(id: string): void {
    this.edges.delete(id);
    this.edgeOrder.delete(id);
  }
  deleteNode(id: string): void {
    if (!this.nodes.has(id)) return;
    for (const edge of [...this.edges.values()]) if (edge.from === id || edge.to === id) this.deleteEdge(edge.id);
    this.nodes.delete(id);
    this.places.delete(id);
  }
  nodesInOrder(): NodeRecord[] {
    return [...this.nodes.values()].sort((a, b) => this.places.get(a.id)! - this.places.get(b.id)!);
  }
  /** The edges in put order. */
  ordered(): EdgeRecord[] {
    return [...this.edges.values()].sort((a, b) => this.edgeOrder.get(a.id)! - this.edgeOrder.get(b.id)!);
  }
  edgesOf(id: string, direction: 'out' | 'in' | 'both', types = this.types, ordered = this.ordered()): EdgeRecord[] {
    const result: EdgeRecord[] = [];
    const typeOrder = this.types.filter((type) => types.includes(type));
    if (direction !== 'in') for (const type of typeOrder) result.push(...ordered.filter((edge) => edge.type === type && edge.from === id));
    if (direction !== 'out') {
      for (const type of typeOrder) result.push(...ordered.filter((edge) => edge.type === type && edge.to === id && !(direction === 'both' && edge.from === id)));
    }
    return result;
  }
}

function randomNode(random: () => number, id: string): NodeRecord {
  const labels = LABELS.filter(() => random() < 0.5);
  return { id, labels: labels.length ? labels : ['Actor'], properties: { rank: Math.floor(random() * 4) }, confidence: 1, provenance: [], recorded_at: RECORDED_AT };
}

function randomEdge(random: () => number, id: string, ids: number): EdgeRecord {
  const end = () => `n${Math.floor(random() * ids)}`;
  return { id, type: TYPES[Math.floor(random() * TYPES.length)], from: end(), to: end(), properties: {}, confidence: 1, provenance: [], recorded_at: RECORDED_AT };
}

function expectSame(index: GraphIndex, model: Model): void {
  expect([...index.nodes.values()].map((node) => node.id)).toEqual(model.nodesInOrder().map((node) => node.id));
  expect(index.nodeCount).toBe(model.nodes.size);
  expect(index.edgeCount).toBe(model.edges.size);
  // ids read without unpacking a packed edge, and only the edges kept whole (those that are not plain)
  const edges = [...index.edges.values()];
  expect([...index.edges.keys()]).toEqual(edges.map((edge) => edge.id));
  expect([...index.edges.whole()].map((edge) => edge.id)).toEqual(edges.filter((edge) => edge.confidence !== 1).map((edge) => edge.id));
  for (const label of LABELS) {
    const expected = model.nodesInOrder().filter((node) => node.labels.includes(label)).map((node) => node.id);
    expect(new Set(index.nodesWithLabel(label))).toEqual(new Set(expected));
    const walked: string[] = [];
    index.eachNodeWithLabel(index.labelId(label), (dense) => void walked.push(index.nodeAt(dense)!.id));
    expect(walked).toEqual(expected);
  }
  for (let rank = 0; rank < 4; rank++) {
    const expected = model.nodesInOrder().filter((node) => node.properties.rank === rank).map((node) => node.id);
    expect(new Set(index.nodesWithProperty('rank', rank))).toEqual(new Set(expected));
  }
  for (const type of TYPES) expect(index.edgeTypeCount(type)).toBe([...model.edges.values()].filter((edge) => edge.type === type).length);
  // counts() is kept between calls until the graph changes: each write since the last call shows
  const tally = (keys: string[]) => keys.reduce<Record<string, number>>((counted, key) => ({ ...counted, [key]: (counted[key] ?? 0) + 1 }), {});
  const counts = index.counts();
  expect(counts).toEqual({ node_count: model.nodes.size, edge_count: model.edges.size, nodes: tally([...model.nodes.values()].map((node) => node.labels[0])), edges: tally([...model.edges.values()].map((edge) => edge.type)) });
  expect(index.counts()).toBe(counts);
  // the kind column (what a write checks an edge's ends against) says labels[0] where a node is, nothing where none is
  for (let place = 0; place < index.nodes.span; place++) expect(index.kindAt(place)).toBe(index.nodeAt(place)?.labels[0]);
  const ordered = model.ordered();
  for (const node of model.nodes.values()) {
    for (const direction of ['out', 'in', 'both'] as const) {
      expect(index.edgesOf(node.id, direction).map((edge) => edge.id)).toEqual(model.edgesOf(node.id, direction, model.types, ordered).map((edge) => edge.id));
    }
    const dense = index.denseNode(node);
    for (const type of TYPES) {
      for (const direction of ['out', 'in'] as const) {
        const edges = model.edgesOf(node.id, direction, [type], ordered);
        expect(index.adjacent(node.id, direction, type).map((edge) => edge.id)).toEqual(edges.map((edge) => edge.id));
        if (index.typeId(type) < 0) continue;
        const other = (edge: EdgeRecord) => model.nodes.get(direction === 'out' ? edge.to : edge.from);
        expect(index.countEdges(dense, direction, index.typeId(type), [])).toBe(edges.length);
        for (const label of LABELS) {
          const labelled = edges.filter((edge) => other(edge)?.labels.includes(label)).length;
          expect(index.countEdges(dense, direction, index.typeId(type), [index.labelId(label)])).toBe(labelled);
        }
      }
    }
  }
}

describe('GraphIndex on dense ids', () => {
  it('answers as the plain model does through appends, replacements, deletions, rebuilds and renumbering', () => {
    const random = lcg(7);
    const index = new GraphIndex();
    const model = new Model();
    const IDS = 120;
    let edgeCounter = 0;
    const liveEdgeIds = () => [...model.edges.keys()];
    for (let step = 0; step < 12_000; step++) {
      const draw = random();
      if (draw < 0.25) {
        const node = randomNode(random, `n${Math.floor(random() * IDS)}`);
        index.putNode(node);
        model.putNode(node);
      } else if (draw < 0.6) {
        // a write saying how many edges it brings may drop the arrays before they go in
        if (random() < 0.02) index.expectEdges(Math.floor(random() * 3_000));
        const edge = randomEdge(random, `e${edgeCounter++}`, IDS);
        index.putEdge(edge);
        model.putEdge(edge);
      } else if (draw < 0.7) {
        // the same edge again: a new record with the same ends, or with new ends or type
        const ids = liveEdgeIds();
        if (ids.length === 0) continue;
        const previous = model.edges.get(ids[Math.floor(random() * ids.length)])!;
        const edge = random() < 0.5 ? { ...previous, confidence: random() } : randomEdge(random, previous.id, IDS);
        index.putEdge(edge);
        model.putEdge(edge);
      } else if (draw < 0.9) {
        const ids = liveEdgeIds();
        if (ids.length === 0) continue;
        const id = ids[Math.floor(random() * ids.length)];
        index.deleteEdge(id);
        model.deleteEdge(id);
      } else {
        const id = `n${Math.floor(random() * IDS)}`;
        index.deleteNode(id);
        model.deleteNode(id);
      }
      if (step % 1_000 === 999) expectSame(index, model);
    }
    expectSame(index, model);
    // the review queue reads only the edges kept whole and lists what the model says is unsure
    const unsure = new Set<string>();
    let pageToken: string | undefined;
    do {
      const page = lowConfidenceRecords({ graph: index }, 0.6, { pageSize: MAX_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) });
      for (const item of page.items) unsure.add(`${item.record} ${item.id}`);
      pageToken = page.next_page_token;
    } while (pageToken);
    const expected = [...model.edges.values()].filter((edge) => edge.confidence < 0.6).map((edge) => `edge ${edge.id}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(unsure).toEqual(new Set(expected));
    // nothing about dense ids leaks into the records
    const someNode = index.nodes.values().next().value!;
    expect(Object.keys(someNode).sort()).toEqual(['confidence', 'id', 'labels', 'properties', 'provenance', 'recorded_at']);
    expect(JSON.parse(JSON.stringify(someNode))).toEqual(someNode);
  });

  it('loads a snapshot\'s records, edges placed by their end positions, as record by record, and takes writes after', () => {
    const random = lcg(11);
    const IDS = 120;
    // every seventh id has no node: edges naming it reserve its place by id
    const nodes = Array.from({ length: IDS }, (_, i) => randomNode(random, `n${i}`)).filter((_, i) => i % 7 !== 3);
    const edges = Array.from({ length: 500 }, (_, i) => randomEdge(random, `e${i}`, IDS));
    const model = new Model();
    for (const node of nodes) model.putNode(node);
    for (const edge of edges) model.putEdge(edge);
    const decoded = decodeGraph(encodeGraph(nodes, edges, nodes.length, edges.length));
    expect(decoded.ends.filter((end) => end < 0).length).toBeGreaterThan(0);
    const index = GraphIndex.fromDistinctRecords(decoded.nodes, decoded.edges, decoded.ends);
    expectSame(index, model);
    expect(index.edge('e7')).toEqual(edges[7]);
    // writes after the load: replaced and re-ended edges, deletions, new edges (edge ids are mapped on first use)
    let edgeCounter = edges.length;
    for (let step = 0; step < 600; step++) {
      const draw = random();
      const ids = [...model.edges.keys()];
      if (draw < 0.3) {
        const previous = model.edges.get(ids[Math.floor(random() * ids.length)])!;
        const edge = random() < 0.5 ? { ...previous, confidence: random() } : randomEdge(random, previous.id, IDS);
        index.putEdge(edge);
        model.putEdge(edge);
      } else if (draw < 0.6) {
        const id = ids[Math.floor(random() * ids.length)];
        index.deleteEdge(id);
        model.deleteEdge(id);
      } else if (draw < 0.9) {
        const edge = randomEdge(random, `e${edgeCounter++}`, IDS);
        index.putEdge(edge);
        model.putEdge(edge);
      } else {
        const id = `n${Math.floor(random() * IDS)}`;
        index.deleteNode(id);
        model.deleteNode(id);
      }
    }
    expectSame(index, model);
    // node ids must be distinct, and an end position must be one of the nodes
    expect(() => GraphIndex.fromDistinctRecords([nodes[0], nodes[0]], [], new Int32Array(0))).toThrow(RangeError);
    expect(() => GraphIndex.fromDistinctRecords([nodes[0]], [edges[0]], Int32Array.of(0, 1))).toThrow(RangeError);
  });

  it('rebuilds the arrays in slices as it does in one go, and a read between slices sees the graph whole', async () => {
    const random = lcg(11);
    const index = new GraphIndex();
    const model = new Model();
    for (let i = 0; i < 60; i++) {
      const node = randomNode(random, `n${i}`);
      index.putNode(node);
      model.putNode(node);
    }
    for (let round = 0; round < 2; round++) {
      // past the rebuild threshold (a quarter of the built edges, at least 1,024), and past one step of the sliced build
      for (let i = 0; i < 4_500; i++) {
        const edge = randomEdge(random, `e${round}-${i}`, 60);
        index.putEdge(edge);
        model.putEdge(edge);
      }
      let turns = 0;
      const eager = { due: () => true, turn: async () => {
        turns++;
        const node = `n${turns % 60}`;
        expect(index.edgesOf(node, 'both').map((edge) => edge.id)).toEqual(model.edgesOf(node, 'both', model.types, model.ordered()).map((edge) => edge.id));
      } } as unknown as LoopSlicer;
      await index.prepareInSlices(eager);
      expect(turns).toBeGreaterThan(1);
      expectSame(index, model);
    }
  });

  it('keeps query answers right across writes after the arrays were built', () => {
    const node = (id: string, label: string, properties: NodeRecord['properties'] = {}): NodeRecord => ({ id, labels: [label], properties, confidence: 1, provenance: [], recorded_at: RECORDED_AT });
    const edge = (id: string, from: string, to: string, type = 'ASSERTS'): EdgeRecord => ({ id, type, from, to, properties: {}, confidence: 1, provenance: [], recorded_at: RECORDED_AT });
    const graph = GraphIndex.fromRecords(
      [node('a1', 'Actor'), node('a2', 'Actor'), node('c1', 'Claim', { type: 'RedLine' }), node('c2', 'Claim', { type: 'Demand' })],
      [edge('e1', 'a1', 'c1'), edge('e2', 'a1', 'c2'), edge('e3', 'a2', 'c1')],
    );
    const perActor = 'MATCH (a:Actor)-[:ASSERTS]->(:Claim) RETURN id(a) AS actor, count(*) AS claims ORDER BY actor';
    const pairs = "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN id(a) AS a, id(c) AS c ORDER BY a";
    const rows = (text: string) => runQuery(graph, text).rows.map((row) => row.map(String).join('|'));
    expect(rows(perActor)).toEqual(['a1|2', 'a2|1']);
    expect(rows(pairs)).toEqual(['a1|c1', 'a2|c1']);
    // writes land in the append area and as tombstones; reads see them at once
    graph.putNode(node('a3', 'Actor'));
    graph.putEdge(edge('e4', 'a3', 'c2'));
    graph.putEdge(edge('e5', 'a3', 'c1'));
    graph.deleteEdge('e1');
    graph.putNode(node('c2', 'Event'));
    expect(rows(perActor)).toEqual(['a1|0', 'a2|1', 'a3|1'].filter((row) => !row.endsWith('|0')));
    expect(rows(pairs)).toEqual(['a2|c1', 'a3|c1']);
    graph.deleteNode('c1');
    expect(rows(pairs)).toEqual([]);
    expect(rows(perActor)).toEqual([]);
  });
});
