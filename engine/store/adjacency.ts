/**
 * A graph's adjacency in CSR form: per edge type and direction, typed arrays of dense ids
 * built from the index's edge columns (by dense edge id: its ends and its type), walked
 * without a Map lookup or a record read per edge.
 */

/**
 * The edges of one type in one direction, CSR-style: the edges at node n are
 * `edges[offsets[n]..offsets[n+1]]` (dense edge ids, insertion order) with the node at
 * their other end in `others`; edges written since the arrays were built wait in
 * `appended` (node → dense edge ids). A deleted edge stays in the arrays until the next
 * build, marked dead in the index's type column.
 */
export interface Adjacency {
  offsets: Int32Array;
  edges: Int32Array;
  others: Int32Array;
  appended: Map<number, number[]>;
}

/** Writes waiting in append areas and tombstones before the arrays are rebuilt: this fraction of the built edges, or at least the floor. */
export const REBUILD_FRACTION = 0.25;
export const REBUILD_FLOOR = 1024;
/** The type of a deleted edge in the type column. */
export const DEAD = -1;
/** Edges a sliced build (prepareInSlices) handles between looks at the clock. */
const BUILD_STEP = 4096;

/**
 * Visits the live edges of `adjacency` at a dense node: `visit(edge, other)`; returning true
 * stops the walk (and returns true). `ends`: the column holding the other end of an appended
 * edge; `checkDead`: whether an edge in the arrays may have been deleted since they were
 * built; `skipLoops`: a self-loop is not visited (the other direction visits it).
 */
export function walkAdjacency(
  adjacency: Adjacency,
  ends: Int32Array,
  edgeType: Int32Array,
  checkDead: boolean,
  node: number,
  skipLoops: boolean,
  visit: (edge: number, other: number) => boolean | void,
): boolean {
  const { offsets, edges, others } = adjacency;
  if (node + 1 < offsets.length) {
    for (let i = offsets[node], end = offsets[node + 1]; i < end; i++) {
      const edge = edges[i];
      if ((checkDead && edgeType[edge] === DEAD) || (skipLoops && others[i] === node)) continue;
      if (visit(edge, others[i]) === true) return true;
    }
  }
  const appended = adjacency.appended.size > 0 ? adjacency.appended.get(node) : undefined;
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
 * Counting sort of the live edges by (type, end node), in dense edge order within each
 * node, into each type's out and in arrays; pauses (yields) every BUILD_STEP edges, and
 * returns the arrays and how many live edges they hold.
 */
export function* buildAdjacency(
  nodeSpan: number,
  edgeSpan: number,
  types: number,
  edgeFrom: Int32Array,
  edgeTo: Int32Array,
  edgeType: Int32Array,
): Generator<void, { out: Adjacency[]; in: Adjacency[]; live: number }> {
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
  return { out, in: into, live };
}

/** Puts an edge written since the build in the append area of the node at its end. */
export function appendTo(appended: Map<number, number[]>, node: number, edge: number): void {
  const list = appended.get(node);
  if (list) list.push(edge);
  else appended.set(node, [edge]);
}
