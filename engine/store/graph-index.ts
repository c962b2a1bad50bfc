import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';

/** A graph's size: nodes by kind (labels[0]) and edges by type. */
export interface GraphCounts {
  node_count: number;
  edge_count: number;
  nodes: Record<string, number>;
  edges: Record<string, number>;
}

/**
 * The in-memory indexes of one graph (DESIGN.md decision 1): by id, by label, by
 * property value, and out/in edges by type. LevelDB is the source of truth; the
 * store applies every committed batch here, and the query engine reads only this.
 * Iteration order is insertion order, so results are stable across runs.
 */
export class GraphIndex {
  readonly nodes = new Map<string, NodeRecord>();
  readonly edges = new Map<string, EdgeRecord>();
  private readonly byLabel = new Map<string, Set<string>>();
  /** property key → value key → node ids */
  private readonly byProperty = new Map<string, Map<string, Set<string>>>();
  private readonly byEdgeType = new Map<string, Set<string>>();
  /** node id → edge type → edges leaving it */
  private readonly outgoing = new Map<string, Map<string, EdgeRecord[]>>();
  /** node id → edge type → edges arriving at it */
  private readonly incoming = new Map<string, Map<string, EdgeRecord[]>>();
  private schema = 0;
  private properties = 0;

  static fromRecords(nodes: Iterable<NodeRecord>, edges: Iterable<EdgeRecord>): GraphIndex {
    const index = new GraphIndex();
    for (const node of nodes) index.putNode(node);
    for (const edge of edges) index.putEdge(edge);
    return index;
  }

  /**
   * Changes whenever what a query plan was chosen from may have changed: a label, edge
   * type or property key appears or disappears, or a node or edge count crosses a power
   * of two. Plans stay correct across other writes; they were only chosen from statistics.
   */
  get schemaVersion(): number {
    return this.schema;
  }

  /** Facts as the issue counts them: nodes, their properties, and edges. */
  get factCount(): number {
    return this.nodes.size + this.properties + this.edges.size;
  }

  get nodeCount(): number {
    return this.nodes.size;
  }
  get edgeCount(): number {
    return this.edges.size;
  }

  /** Inserts or replaces a node, keeping every index in step. */
  putNode(node: NodeRecord): void {
    const previous = this.nodes.get(node.id);
    if (previous) this.unindexNode(previous);
    this.nodes.set(node.id, node);
    this.properties += Object.keys(node.properties).length;
    if (!previous) this.countChanged(this.nodes.size);
    for (const label of node.labels) if (addToSet(this.byLabel, label, node.id)) this.schema++;
    for (const [key, value] of Object.entries(node.properties)) {
      const valueKey = propertyValueKey(value);
      if (valueKey === undefined) continue;
      let values = this.byProperty.get(key);
      if (!values) {
        this.byProperty.set(key, (values = new Map()));
        this.schema++;
      }
      addToSet(values, valueKey, node.id);
    }
  }

  /** Inserts or replaces an edge. Both endpoints must already be present. */
  putEdge(edge: EdgeRecord): void {
    const previous = this.edges.get(edge.id);
    if (previous) this.unindexEdge(previous);
    this.edges.set(edge.id, edge);
    if (!previous) this.countChanged(this.edges.size);
    if (addToSet(this.byEdgeType, edge.type, edge.id)) this.schema++;
    adjacencyList(this.outgoing, edge.from, edge.type).push(edge);
    adjacencyList(this.incoming, edge.to, edge.type).push(edge);
  }

  /** Removes a node and every edge touching it. */
  deleteNode(id: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    for (const edge of [...this.edgesOf(id, 'both')]) this.deleteEdge(edge.id);
    this.unindexNode(node);
    this.nodes.delete(id);
    this.countChanged(this.nodes.size);
    this.outgoing.delete(id);
    this.incoming.delete(id);
  }

  deleteEdge(id: string): void {
    const edge = this.edges.get(id);
    if (!edge) return;
    this.unindexEdge(edge);
    this.edges.delete(id);
    this.countChanged(this.edges.size);
  }

  private countChanged(count: number): void {
    if ((count & (count - 1)) === 0) this.schema++;
  }

  node(id: string): NodeRecord | undefined {
    return this.nodes.get(id);
  }
  edge(id: string): EdgeRecord | undefined {
    return this.edges.get(id);
  }

  /** Ids of the nodes carrying `label`. */
  nodesWithLabel(label: string): ReadonlySet<string> {
    return this.byLabel.get(label) ?? EMPTY;
  }

  /** Ids of the nodes whose property `key` equals `value` (scalars only; lists and maps are not indexed). */
  nodesWithProperty(key: string, value: PropertyValue): ReadonlySet<string> {
    const valueKey = propertyValueKey(value);
    if (valueKey === undefined) return EMPTY;
    return this.byProperty.get(key)?.get(valueKey) ?? EMPTY;
  }

  /** Ids of the edges of `type`. */
  edgesWithType(type: string): ReadonlySet<string> {
    return this.byEdgeType.get(type) ?? EMPTY;
  }

  /**
   * Edges at a node. `types` undefined means every type. Direction 'both' lists a
   * self-loop once.
   */
  edgesOf(nodeId: string, direction: 'out' | 'in' | 'both', types?: readonly string[]): EdgeRecord[] {
    const result: EdgeRecord[] = [];
    if (direction !== 'in') collectEdges(this.outgoing.get(nodeId), types, result);
    if (direction !== 'out') {
      const before = result.length;
      collectEdges(this.incoming.get(nodeId), types, result);
      if (direction === 'both') {
        // a self-loop is both outgoing and incoming: keep it once
        for (let i = result.length - 1; i >= before; i--) if (result[i].from === result[i].to) result.splice(i, 1);
      }
    }
    return result;
  }

  /** The edges of one type leaving ('out') or arriving at ('in') a node: the index's own list, not to be changed or kept. */
  adjacent(nodeId: string, direction: 'out' | 'in', type: string): readonly EdgeRecord[] {
    return (direction === 'out' ? this.outgoing : this.incoming).get(nodeId)?.get(type) ?? NO_EDGES;
  }

  /** Planner statistics. */
  labelCount(label: string): number {
    return this.byLabel.get(label)?.size ?? 0;
  }
  edgeTypeCount(type: string): number {
    return this.byEdgeType.get(type)?.size ?? 0;
  }
  propertyValueCount(key: string, value: PropertyValue): number {
    return this.nodesWithProperty(key, value).size;
  }
  /** How many distinct values property `key` takes (0 when never set). */
  distinctPropertyValues(key: string): number {
    return this.byProperty.get(key)?.size ?? 0;
  }

  counts(): GraphCounts {
    const nodes: Record<string, number> = {};
    const edges: Record<string, number> = {};
    for (const node of this.nodes.values()) nodes[node.labels[0]] = (nodes[node.labels[0]] ?? 0) + 1;
    for (const type of this.edgeTypes()) edges[type] = this.edgeTypeCount(type);
    return { node_count: this.nodeCount, edge_count: this.edgeCount, nodes, edges };
  }

  labels(): string[] {
    return [...this.byLabel.keys()].filter((label) => this.labelCount(label) > 0);
  }
  edgeTypes(): string[] {
    return [...this.byEdgeType.keys()].filter((type) => this.edgeTypeCount(type) > 0);
  }

  private unindexNode(node: NodeRecord): void {
    this.properties -= Object.keys(node.properties).length;
    for (const label of node.labels) if (deleteFromSet(this.byLabel, label, node.id)) this.schema++;
    for (const [key, value] of Object.entries(node.properties)) {
      const valueKey = propertyValueKey(value);
      const values = this.byProperty.get(key);
      if (valueKey === undefined || !values) continue;
      deleteFromSet(values, valueKey, node.id);
      if (values.size === 0) {
        this.byProperty.delete(key);
        this.schema++;
      }
    }
  }

  private unindexEdge(edge: EdgeRecord): void {
    if (deleteFromSet(this.byEdgeType, edge.type, edge.id)) this.schema++;
    removeFromAdjacency(this.outgoing, edge.from, edge);
    removeFromAdjacency(this.incoming, edge.to, edge);
  }
}

const EMPTY: ReadonlySet<string> = new Set();
const NO_EDGES: readonly EdgeRecord[] = [];

/**
 * The key a scalar property value is indexed under. Numbers and strings must not
 * collide ('1' is not 1), so the key carries the type. Lists and maps are not indexed.
 */
export function propertyValueKey(value: PropertyValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return 's' + value;
    case 'number':
      return 'n' + value;
    case 'boolean':
      return value ? 'bt' : 'bf';
    default:
      return undefined;
  }
}

/** Whether `key` is new to the map. */
function addToSet<K>(map: Map<K, Set<string>>, key: K, id: string): boolean {
  const set = map.get(key);
  if (set) {
    set.add(id);
    return false;
  }
  map.set(key, new Set([id]));
  return true;
}

/** Whether `key` left the map. */
function deleteFromSet<K>(map: Map<K, Set<string>>, key: K, id: string): boolean {
  const set = map.get(key);
  if (!set) return false;
  set.delete(id);
  if (set.size > 0) return false;
  map.delete(key);
  return true;
}

function adjacencyList(map: Map<string, Map<string, EdgeRecord[]>>, nodeId: string, type: string): EdgeRecord[] {
  let byType = map.get(nodeId);
  if (!byType) map.set(nodeId, (byType = new Map()));
  let list = byType.get(type);
  if (!list) byType.set(type, (list = []));
  return list;
}

function removeFromAdjacency(map: Map<string, Map<string, EdgeRecord[]>>, nodeId: string, edge: EdgeRecord): void {
  const list = map.get(nodeId)?.get(edge.type);
  if (!list) return;
  const at = list.findIndex((candidate) => candidate.id === edge.id);
  if (at >= 0) list.splice(at, 1);
}

function collectEdges(byType: Map<string, EdgeRecord[]> | undefined, types: readonly string[] | undefined, into: EdgeRecord[]): void {
  if (!byType) return;
  if (types === undefined) {
    for (const list of byType.values()) into.push(...list);
    return;
  }
  for (const type of types) {
    const list = byType.get(type);
    if (list) into.push(...list);
  }
}
