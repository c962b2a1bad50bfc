import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import type { LoopSlicer } from '../turns.ts';

/** A graph's size: nodes by kind (labels[0]) and edges by type. */
export interface GraphCounts {
  node_count: number;
  edge_count: number;
  nodes: Record<string, number>;
  edges: Record<string, number>;
}

/** Where a record sits in its table, kept on the record itself (not enumerable: invisible to JSON, spread, structured clone and equality). */
const DENSE = Symbol('dense id');
type Placed = { [DENSE]?: number };

/**
 * Records by external id, each also under a dense integer id (its position in the
 * table), so that the indexes can hold ints in typed arrays instead of strings in Maps.
 * Dense ids are handed out in insertion order and not reused, so iterating them in
 * order is insertion order (a replaced record keeps its place, as in a Map). A node
 * id may hold a place before its record arrives (an edge naming it came first).
 */
export class RecordTable<R extends { id: string }> {
  private readonly ids = new Map<string, number>();
  private slots: (R | undefined)[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }
  /** Dense ids run from 0 to below this. */
  get span(): number {
    return this.slots.length;
  }
  /** Places left by deleted records. */
  get holes(): number {
    return this.slots.length - this.ids.size;
  }

  get(id: string): R | undefined {
    const dense = this.ids.get(id);
    return dense === undefined ? undefined : this.slots[dense];
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  at(dense: number): R | undefined {
    return this.slots[dense];
  }
  /** The dense id of `id` (-1 when it has no place). */
  denseOf(id: string): number {
    return this.ids.get(id) ?? -1;
  }
  /** The dense id of a record read from this table: found on the record, else by its id. */
  denseOfRecord(record: R): number {
    const dense = (record as Placed)[DENSE];
    return dense !== undefined && this.slots[dense] === record ? dense : this.denseOf(record.id);
  }

  /** A place for `id`, made when it has none. */
  reserve(id: string): number {
    return this.ids.get(id) ?? this.append(id);
  }

  /** A new place at the end, for an id known to have none. */
  append(id: string): number {
    const dense = this.slots.length;
    this.ids.set(id, dense);
    this.slots.push(undefined);
    return dense;
  }

  /** Stores a record in its id's place (a new place at the end for a new id); returns the record it replaced. */
  put(record: R, dense = this.reserve(record.id)): R | undefined {
    const previous = this.slots[dense];
    if (!previous) this.live++;
    this.slots[dense] = record;
    place(record, dense);
    return previous;
  }

  /** Removes the record and its place; returns its dense id (-1 when absent). */
  remove(id: string): number {
    const dense = this.ids.get(id);
    if (dense === undefined) return -1;
    this.ids.delete(id);
    if (this.slots[dense]) this.live--;
    this.slots[dense] = undefined;
    return dense;
  }

  /** Renumbers the places in use (records, and ids named before their record), closing the holes; returns old → new dense id (-1: a hole). */
  compact(): Int32Array {
    const mapping = new Int32Array(this.slots.length).fill(-1);
    const slots: (R | undefined)[] = [];
    // the map's order is dense order: places are handed out in the order ids are first set
    for (const [id, dense] of this.ids) {
      mapping[dense] = slots.length;
      this.ids.set(id, slots.length);
      const record = this.slots[dense];
      if (record) place(record, slots.length);
      slots.push(record);
    }
    this.slots = slots;
    return mapping;
  }

  *values(): IterableIterator<R> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const record = slots[i];
      if (record) yield record;
    }
  }
  *keys(): IterableIterator<string> {
    for (const record of this.values()) yield record.id;
  }
  *entries(): IterableIterator<[string, R]> {
    for (const record of this.values()) yield [record.id, record];
  }
  [Symbol.iterator](): IterableIterator<[string, R]> {
    return this.entries();
  }
}

function place(record: object, dense: number): void {
  if ((record as Placed)[DENSE] !== undefined) (record as Placed)[DENSE] = dense;
  else if (Object.isExtensible(record)) Object.defineProperty(record, DENSE, { value: dense, writable: true, enumerable: false });
}

/**
 * The edges of one type in one direction, CSR-style: the edges at node n are
 * `edges[offsets[n]..offsets[n+1]]` (dense edge ids, insertion order) with the node at
 * their other end in `others`; edges written since the arrays were built wait in
 * `appended` (node → dense edge ids). A deleted edge stays in the arrays until the next
 * build, marked dead in the index's type column.
 */
interface Adjacency {
  offsets: Int32Array;
  edges: Int32Array;
  others: Int32Array;
  appended: Map<number, number[]>;
}

/** Writes waiting in append areas and tombstones before the arrays are rebuilt: this fraction of the built edges, or at least the floor. */
const REBUILD_FRACTION = 0.25;
const REBUILD_FLOOR = 1024;
const DEAD = -1;
/** Edges a sliced build (prepareInSlices) handles between looks at the clock. */
const BUILD_STEP = 4096;

/**
 * The in-memory indexes of one graph (DESIGN.md decision 1). LevelDB is the source of
 * truth; the store applies every committed batch here, and the query engine reads only
 * this. Nodes and edges live in tables under dense integer ids; labels and edge types
 * are small ints; adjacency is kept per edge type and direction in typed arrays
 * (Adjacency), so that joins and counts walk arrays of ints and read a record only for
 * what they bind. External ids stay the only ids anything outside sees.
 * Iteration order is insertion order, so results are stable across runs.
 */
export class GraphIndex {
  readonly nodes = new RecordTable<NodeRecord>();
  readonly edges = new RecordTable<EdgeRecord>();
  private readonly byLabel = new Map<string, Set<string>>();
  /** property key → value key → dense node ids */
  private byProperty = new Map<string, Map<string, Set<number>>>();
  /** label → its int; the bitset of its nodes by dense id */
  private readonly labelIds = new Map<string, number>();
  private labelBits: Uint32Array[] = [];
  /** edge type → its int; its name and live edge count by int */
  private readonly typeIds = new Map<string, number>();
  private readonly typeNames: string[] = [];
  private readonly typeCounts: number[] = [];
  /** by dense edge id: its ends' dense node ids and its type (DEAD once deleted) */
  private edgeFrom = new Int32Array(64);
  private edgeTo = new Int32Array(64);
  private edgeType = new Int32Array(64).fill(DEAD);
  /** by type int */
  private out: Adjacency[] = [];
  private in: Adjacency[] = [];
  /** Edge writes and deletions since the adjacency arrays were built, and how many edges they were built from. */
  private pending = 0;
  private built = 0;
  /** Edges deleted since the build: while none, a node's degree is the difference of two offsets. */
  private deleted = 0;
  private schema = 0;
  private properties = 0;
  private changes = 0;

  static fromRecords(nodes: Iterable<NodeRecord>, edges: Iterable<EdgeRecord>): GraphIndex {
    const index = new GraphIndex();
    for (const node of nodes) index.putNode(node);
    for (const edge of edges) index.putEdge(edge);
    return index;
  }

  /** Grows with every change, so that a reader holding a copy of the graph (the Prolog bridge's facts) sees when it is stale. */
  get revision(): number {
    return this.changes;
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
    this.changes++;
    const dense = this.nodes.reserve(node.id);
    const previous = this.nodes.at(dense);
    if (previous) this.unindexNode(previous, dense);
    this.nodes.put(node, dense);
    this.properties += Object.keys(node.properties).length;
    if (!previous) this.countChanged(this.nodes.size);
    for (const label of node.labels) {
      if (addToSet(this.byLabel, label, node.id)) this.schema++;
      setBit(this.labelBitsOf(label), dense);
    }
    for (const [key, value] of Object.entries(node.properties)) {
      const valueKey = propertyValueKey(value);
      if (valueKey === undefined) continue;
      let values = this.byProperty.get(key);
      if (!values) {
        this.byProperty.set(key, (values = new Map()));
        this.schema++;
      }
      addToSet(values, valueKey, dense);
    }
  }

  /** Inserts or replaces an edge. Its ends are found by id, whether or not their nodes are in yet. */
  putEdge(edge: EdgeRecord): void {
    this.changes++;
    const known = this.edges.denseOf(edge.id);
    if (known >= 0) {
      const previous = this.edges.at(known)!;
      if (previous.type === edge.type && previous.from === edge.from && previous.to === edge.to) {
        this.edges.put(edge, known);
        return;
      }
      // new ends or type: the edge leaves its old adjacency and joins the end of the new
      this.deleteEdge(edge.id);
      this.changes--;
    }
    const dense = this.edges.append(edge.id);
    this.edges.put(edge, dense);
    this.countChanged(this.edges.size);
    let type = this.typeIds.get(edge.type);
    if (type === undefined) {
      type = this.typeNames.length;
      this.typeIds.set(edge.type, type);
      this.typeNames.push(edge.type);
      this.typeCounts.push(0);
    }
    if (this.typeCounts[type]++ === 0) this.schema++;
    if (dense >= this.edgeType.length) this.growEdgeColumns(dense + 1);
    const from = this.nodes.reserve(edge.from);
    const to = this.nodes.reserve(edge.to);
    this.edgeFrom[dense] = from;
    this.edgeTo[dense] = to;
    this.edgeType[dense] = type;
    if (this.out[type]) {
      appendTo(this.out[type].appended, from, dense);
      appendTo(this.in[type].appended, to, dense);
    }
    this.pending++;
  }

  /** Removes a node and every edge touching it. */
  deleteNode(id: string): void {
    this.changes++;
    const node = this.nodes.get(id);
    if (!node) return;
    for (const edge of this.edgesOf(id, 'both')) this.deleteEdge(edge.id);
    const dense = this.nodes.denseOf(id);
    this.unindexNode(node, dense);
    this.nodes.remove(id);
    this.countChanged(this.nodes.size);
    this.closeHoles();
  }

  deleteEdge(id: string): void {
    this.changes++;
    const dense = this.edges.remove(id);
    if (dense < 0) return;
    this.countChanged(this.edges.size);
    const type = this.edgeType[dense];
    this.edgeType[dense] = DEAD;
    if (--this.typeCounts[type] === 0) this.schema++;
    this.pending++;
    this.deleted++;
    this.closeHoles();
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
  nodesWithProperty(key: string, value: PropertyValue): Iterable<string> & { readonly size: number; has(id: string): boolean } {
    const dense = this.nodesWithPropertyDense(key, value);
    const nodes = this.nodes;
    return {
      size: dense.size,
      has: (id) => dense.has(nodes.denseOf(id)),
      *[Symbol.iterator]() {
        for (const node of dense) yield nodes.at(node)!.id;
      },
    };
  }

  /** The same nodes by dense id, in the order they took the value. */
  nodesWithPropertyDense(key: string, value: PropertyValue): ReadonlySet<number> {
    const valueKey = propertyValueKey(value);
    if (valueKey === undefined) return NO_NODES;
    return this.byProperty.get(key)?.get(valueKey) ?? NO_NODES;
  }

  /** Ids of the edges of `type`, in insertion order. */
  edgesWithType(type: string): Iterable<string> & { readonly size: number } {
    const typeId = this.typeIds.get(type);
    const size = typeId === undefined ? 0 : this.typeCounts[typeId];
    const { edges, edgeType } = this;
    return {
      size,
      *[Symbol.iterator]() {
        if (typeId === undefined) return;
        for (let dense = 0; dense < edges.span; dense++) if (edgeType[dense] === typeId) yield edges.at(dense)!.id;
      },
    };
  }

  /**
   * Edges at a node, by type (in the order types first appeared), each type's in
   * insertion order. `types` undefined means every type. Direction 'both' lists a
   * self-loop once.
   */
  edgesOf(nodeId: string, direction: 'out' | 'in' | 'both', types?: readonly string[]): EdgeRecord[] {
    const result: EdgeRecord[] = [];
    const node = this.nodes.denseOf(nodeId);
    if (node < 0) return result;
    this.eachEdge(node, direction, types === undefined ? undefined : this.typeIdsOf(types), (edge) => void result.push(this.edges.at(edge)!));
    return result;
  }

  /** The edges of one type leaving ('out') or arriving at ('in') a node. */
  adjacent(nodeId: string, direction: 'out' | 'in', type: string): readonly EdgeRecord[] {
    return this.edgesOf(nodeId, direction, [type]);
  }

  // ---- dense access, for the query engine's joins and counts ----

  /** The dense id of a node record read from this index (-1 when it is not in it). */
  denseNode(node: NodeRecord): number {
    const dense = this.nodes.denseOfRecord(node);
    return dense >= 0 && this.nodes.at(dense) ? dense : -1;
  }
  denseEdge(edge: EdgeRecord): number {
    return this.edges.denseOfRecord(edge);
  }
  nodeAt(dense: number): NodeRecord | undefined {
    return this.nodes.at(dense);
  }
  edgeAt(dense: number): EdgeRecord | undefined {
    return this.edges.at(dense);
  }
  /** A label's int (-1: no node has ever carried it). */
  labelId(label: string): number {
    return this.labelIds.get(label) ?? -1;
  }
  hasLabel(node: number, label: number): boolean {
    const bits = this.labelBits[label];
    return bits !== undefined && node >>> 5 < bits.length && (bits[node >>> 5] & (1 << (node & 31))) !== 0;
  }
  /** Visits the dense ids of the nodes carrying a label, in insertion order; returning true stops the walk (and returns true). */
  eachNodeWithLabel(label: number, visit: (node: number) => boolean | void): boolean {
    const bits = this.labelBits[label];
    if (!bits) return false;
    for (let word = 0; word < bits.length; word++) {
      let rest = bits[word];
      while (rest !== 0) {
        const low = rest & -rest;
        if (visit((word << 5) + 31 - Math.clz32(low)) === true) return true;
        rest ^= low;
      }
    }
    return false;
  }
  /** An edge type's int (-1: no edge has ever had it). */
  typeId(type: string): number {
    return this.typeIds.get(type) ?? -1;
  }
  /** The ints of the types that exist, in order. */
  typeIdsOf(types: readonly string[]): number[] {
    const ids: number[] = [];
    for (const type of types) {
      const id = this.typeIds.get(type);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /**
   * Visits the live edges at a dense node: `visit(edge, other)` with the dense edge id
   * and the dense id of its other end; returning true stops the walk (and eachEdge
   * returns true). By direction (out before in), then type, then insertion order;
   * 'both' visits a self-loop once. `types` undefined means every type.
   */
  eachEdge(node: number, direction: 'out' | 'in' | 'both', types: readonly number[] | undefined, visit: (edge: number, other: number) => boolean | void): boolean {
    this.prepare();
    const typeCount = types === undefined ? this.typeNames.length : types.length;
    if (direction !== 'in') {
      for (let t = 0; t < typeCount; t++) if (this.walk(this.out[types === undefined ? t : types[t]], this.edgeTo, node, false, visit)) return true;
    }
    if (direction !== 'out') {
      for (let t = 0; t < typeCount; t++) if (this.walk(this.in[types === undefined ? t : types[t]], this.edgeFrom, node, direction === 'both', visit)) return true;
    }
    return false;
  }

  /** `ends`: the column holding the other end of an appended edge. */
  private walk(adjacency: Adjacency, ends: Int32Array, node: number, skipLoops: boolean, visit: (edge: number, other: number) => boolean | void): boolean {
    const { offsets, edges, others } = adjacency;
    const edgeType = this.edgeType;
    if (node + 1 < offsets.length) {
      const checkDead = this.deleted > 0;
      for (let i = offsets[node], end = offsets[node + 1]; i < end; i++) {
        const edge = edges[i];
        if ((checkDead && edgeType[edge] === DEAD) || (skipLoops && others[i] === node)) continue;
        if (visit(edge, others[i]) === true) return true;
      }
    }
    const appended = adjacency.appended.get(node);
    if (appended) {
      for (const edge of appended) {
        if (edgeType[edge] === DEAD) continue;
        const other = ends[edge];
        if (skipLoops && other === node) continue;
        if (visit(edge, other) === true) return true;
      }
    }
    return false;
  }

  /**
   * How many live edges of `type` leave ('out') or arrive at ('in') a dense node whose
   * other end carries every label in `labels`: read off the arrays, nothing materialised.
   */
  countEdges(node: number, direction: 'out' | 'in', type: number, labels: readonly number[]): number {
    this.prepare();
    const adjacency = (direction === 'out' ? this.out : this.in)[type];
    if (!adjacency) return 0;
    const { offsets, edges, others } = adjacency;
    const edgeType = this.edgeType;
    // one label (the usual pattern) is tested inline; more go through hasLabel
    const bits = labels.length === 1 ? this.labelBits[labels[0]] : undefined;
    const more = labels.length > 1;
    let count = 0;
    if (node + 1 < offsets.length) {
      const start = offsets[node];
      const end = offsets[node + 1];
      if (labels.length === 0 && this.deleted === 0) count = end - start;
      else {
        // with no deletion since the build, no edge in the arrays is dead: no look at the type column (a cache miss per edge)
        const checkDead = this.deleted > 0;
        for (let i = start; i < end; i++) {
          if (checkDead && edgeType[edges[i]] === DEAD) continue;
          const other = others[i];
          if (bits !== undefined ? (bits[other >>> 5] & (1 << (other & 31))) !== 0 : !more || this.hasLabels(other, labels)) count++;
        }
      }
    }
    const appended = adjacency.appended.get(node);
    if (appended) {
      const ends = direction === 'out' ? this.edgeTo : this.edgeFrom;
      for (const edge of appended) {
        if (edgeType[edge] !== DEAD && this.hasLabels(ends[edge], labels)) count++;
      }
    }
    return count;
  }

  private hasLabels(node: number, labels: readonly number[]): boolean {
    for (const label of labels) if (!this.hasLabel(node, label)) return false;
    return true;
  }

  /** Planner statistics. */
  labelCount(label: string): number {
    return this.byLabel.get(label)?.size ?? 0;
  }
  edgeTypeCount(type: string): number {
    const id = this.typeIds.get(type);
    return id === undefined ? 0 : this.typeCounts[id];
  }
  propertyValueCount(key: string, value: PropertyValue): number {
    return this.nodesWithPropertyDense(key, value).size;
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
    return this.typeNames.filter((_, id) => this.typeCounts[id] > 0);
  }

  private labelBitsOf(label: string): Uint32Array {
    let id = this.labelIds.get(label);
    if (id === undefined) {
      id = this.labelBits.length;
      this.labelIds.set(label, id);
      this.labelBits.push(new Uint32Array(0));
    }
    const needed = (this.nodes.span + 31) >>> 5;
    let bits = this.labelBits[id];
    if (bits.length < needed) {
      const grown = new Uint32Array(Math.max(needed, bits.length * 2, 4));
      grown.set(bits);
      this.labelBits[id] = bits = grown;
    }
    return bits;
  }

  private growEdgeColumns(size: number): void {
    const capacity = Math.max(size, this.edgeType.length * 2);
    const grow = (column: Int32Array, fill: number) => {
      const grown = new Int32Array(capacity).fill(fill);
      grown.set(column);
      return grown;
    };
    this.edgeFrom = grow(this.edgeFrom, 0);
    this.edgeTo = grow(this.edgeTo, 0);
    this.edgeType = grow(this.edgeType, DEAD);
  }

  /**
   * Rebuilds the adjacency arrays when the writes since the last build pass a fraction
   * of it (first renumbering nodes and edges when deletions left too many holes), so
   * that a run of writes costs amortised O(1) each and reads stay on arrays.
   */
  private prepare(): void {
    if (!this.stale()) return;
    for (const _ of this.build());
  }

  private stale(): boolean {
    return this.out.length !== this.typeNames.length || this.pending > Math.max(REBUILD_FLOOR, this.built * REBUILD_FRACTION);
  }

  /**
   * What prepare does, with the loop turning between slices: the store calls it after
   * applying a large write, while readers wait for the write, so the first read after
   * it does not rebuild the arrays in one step (120 ms at 200k facts on a busy machine).
   */
  async prepareInSlices(slicer: LoopSlicer): Promise<void> {
    if (!this.stale()) return;
    for (const _ of this.build()) if (slicer.due()) await slicer.turn();
  }

  /**
   * After a deletion: renumbers nodes and edges once deletions have left too many
   * holes. Only a write does this, never a read, since a reader may hold dense ids
   * across the calls it makes (the arrays are rebuilt at the next read).
   */
  private closeHoles(): void {
    if (this.edges.holes <= Math.max(REBUILD_FLOOR, this.edges.span * REBUILD_FRACTION) && this.nodes.holes <= Math.max(REBUILD_FLOOR, this.nodes.span * REBUILD_FRACTION)) return;
    this.renumber();
    this.out = [];
    this.in = [];
    this.pending = Number.MAX_SAFE_INTEGER;
  }

  private renumber(): void {
    const { edgeFrom, edgeTo, edgeType } = this;
    const edgeMap = this.edges.compact();
    const nodeMap = this.nodes.compact();
    const size = Math.max(64, this.edges.span);
    this.edgeFrom = new Int32Array(size);
    this.edgeTo = new Int32Array(size);
    this.edgeType = new Int32Array(size).fill(DEAD);
    for (let edge = 0; edge < edgeMap.length; edge++) {
      const to = edgeMap[edge];
      if (to < 0) continue;
      this.edgeFrom[to] = nodeMap[edgeFrom[edge]];
      this.edgeTo[to] = nodeMap[edgeTo[edge]];
      this.edgeType[to] = edgeType[edge];
    }
    const moved = new Map<string, Map<string, Set<number>>>();
    for (const [key, values] of this.byProperty) {
      moved.set(key, new Map([...values].map(([valueKey, nodes]) => [valueKey, new Set([...nodes].map((node) => nodeMap[node]))])));
    }
    this.byProperty = moved;
    this.labelBits = this.labelBits.map((bits) => {
      const moved = new Uint32Array((this.nodes.span + 31) >>> 5);
      for (let node = 0; node < nodeMap.length; node++) {
        const to = nodeMap[node];
        if (to >= 0 && node >>> 5 < bits.length && (bits[node >>> 5] & (1 << (node & 31))) !== 0) moved[to >>> 5] |= 1 << (to & 31);
      }
      return moved;
    });
  }

  /**
   * Counting sort of the live edges by (type, end node), in dense edge order within each
   * node; pauses (yields) every BUILD_STEP edges, and puts the new arrays in place only
   * when they are whole.
   */
  private *build(): Generator<void> {
    const nodeSpan = this.nodes.span;
    const edgeSpan = this.edges.span;
    const types = this.typeNames.length;
    const { edgeFrom, edgeTo, edgeType } = this;
    const outCounts = Array.from({ length: types }, () => new Int32Array(nodeSpan + 1));
    const inCounts = Array.from({ length: types }, () => new Int32Array(nodeSpan + 1));
    let live = 0;
    for (let edge = 0; edge < edgeSpan; edge++) {
      if (edge % BUILD_STEP === 0) yield;
      const type = edgeType[edge];
      if (type === DEAD) continue;
      outCounts[type][edgeFrom[edge] + 1]++;
      inCounts[type][edgeTo[edge] + 1]++;
      live++;
    }
    const make = (counts: Int32Array): Adjacency => {
      for (let node = 0; node < nodeSpan; node++) counts[node + 1] += counts[node];
      const size = counts[nodeSpan];
      return { offsets: counts, edges: new Int32Array(size), others: new Int32Array(size), appended: new Map() };
    };
    const out = outCounts.map(make);
    const into = inCounts.map(make);
    yield;
    const outFill = out.map((adjacency) => adjacency.offsets.slice(0, nodeSpan));
    const inFill = into.map((adjacency) => adjacency.offsets.slice(0, nodeSpan));
    for (let edge = 0; edge < edgeSpan; edge++) {
      if (edge % BUILD_STEP === 0) yield;
      const type = edgeType[edge];
      if (type === DEAD) continue;
      const from = edgeFrom[edge];
      const to = edgeTo[edge];
      const o = outFill[type][from]++;
      out[type].edges[o] = edge;
      out[type].others[o] = to;
      const i = inFill[type][to]++;
      into[type].edges[i] = edge;
      into[type].others[i] = from;
    }
    this.out = out;
    this.in = into;
    this.built = live;
    this.pending = 0;
    this.deleted = 0;
  }

  private unindexNode(node: NodeRecord, dense: number): void {
    this.properties -= Object.keys(node.properties).length;
    for (const label of node.labels) {
      if (deleteFromSet(this.byLabel, label, node.id)) this.schema++;
      const bits = this.labelBits[this.labelIds.get(label)!];
      if (dense >>> 5 < bits.length) bits[dense >>> 5] &= ~(1 << (dense & 31));
    }
    for (const [key, value] of Object.entries(node.properties)) {
      const valueKey = propertyValueKey(value);
      const values = this.byProperty.get(key);
      if (valueKey === undefined || !values) continue;
      deleteFromSet(values, valueKey, dense);
      if (values.size === 0) {
        this.byProperty.delete(key);
        this.schema++;
      }
    }
  }
}

const EMPTY: ReadonlySet<string> = new Set();
const NO_NODES: ReadonlySet<number> = new Set();

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
function addToSet<K, V>(map: Map<K, Set<V>>, key: K, id: V): boolean {
  const set = map.get(key);
  if (set) {
    set.add(id);
    return false;
  }
  map.set(key, new Set([id]));
  return true;
}

/** Whether `key` left the map. */
function deleteFromSet<K, V>(map: Map<K, Set<V>>, key: K, id: V): boolean {
  const set = map.get(key);
  if (!set) return false;
  set.delete(id);
  if (set.size > 0) return false;
  map.delete(key);
  return true;
}

function setBit(bits: Uint32Array, index: number): void {
  bits[index >>> 5] |= 1 << (index & 31);
}

function appendTo(map: Map<number, number[]>, node: number, edge: number): void {
  const list = map.get(node);
  if (list) list.push(edge);
  else map.set(node, [edge]);
}
