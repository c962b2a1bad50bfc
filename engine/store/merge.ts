/**
 * How writes merge onto a graph: each record a write names is merged onto the one before it
 * (merged by an earlier write of the same commit, else the stored one), and the writes'
 * changes tallied against what the graph held.
 */
import { ConflictError, ValidationError } from '../errors.ts';
import { NODE_UNKNOWN_VALUES, type EdgeRecord, type NodeKind, type NodeRecord, type PropertyValue, type Provenance } from '../ontology/index.ts';
import type { LoopSlicer } from '../turns.ts';
import type { WriteSummary } from './backend.ts';
import type { GraphIndex } from './graph-index.ts';
import { canonicalJson, deriveEdgeId, deriveNodeId } from './ids.ts';
import { CHUNKED_FROM, chunkedDocuments, noteGrown } from './provenance-chunks.ts';
import { ProvenanceJson } from './provenance-json.ts';
import { hasNoKeys, NO_PROPERTIES, NO_PROVENANCE } from './shared-parts.ts';
import { WriteChecker, validateName, type EdgeInput, type GraphWrite, type NodeInput } from './validate.ts';

/** Default confidence of a record imported without one: the client states it as fact. */
const DEFAULT_CONFIDENCE = 1;

export function nodeIdOf(input: NodeInput): string {
  return input.id ?? deriveNodeId(input.labels[0], input.properties);
}

export function edgeIdOf(input: EdgeInput): string {
  return input.id ?? deriveEdgeId(input.type, input.from, input.to, input.properties ?? {});
}

/** Refuses an invalid graph id, or a write without nodes and edges arrays, before anything is merged. */
export function checkWrites(graphId: string, writes: readonly GraphWrite[]): void {
  validateName('graph_id', graphId);
  for (const write of writes) {
    if (!Array.isArray(write.nodes) || !Array.isArray(write.edges)) throw new ValidationError('invalid_write', 'a write needs nodes and edges arrays');
  }
}

/**
 * The records a write changed, as it left them but for a long provenance list, which is the commit's final one (the
 * commit's later writes append to it in place: CommitLists): a graph takes them write by write, so that its order is
 * what writes one by one leave; a reader between the pieces may see a record of an earlier write with entries of a later
 * write of the same commit, all of them durable.
 */
export interface WriteChanges {
  nodes: Changes<NodeRecord>;
  edges: Changes<EdgeRecord>;
}

/** What each step of a commit's merge works with. */
interface Merging {
  /** The graph as stored. */
  index: GraphIndex;
  now: string;
  slicer: LoopSlicer;
  checker: WriteChecker;
  /**
   * Every record the writes touch, by id, with the stored one (looked up once: an import of
   * new records looks nothing up again) and the one as the writes so far leave it.
   */
  nodes: Map<string, Touched<NodeRecord>>;
  edges: Map<string, Touched<EdgeRecord>>;
  /** The texts of the provenance lists merged from known ones, for the commit to write. */
  provenanceJson: ProvenanceJson;
  lists: CommitLists;
}

/**
 * The long provenance lists a commit's merge made, each with the list it was copied from (one the graph
 * held before the commit, a new record's empty one, or a short list an earlier write of the commit made). No reader sees one before the commit is
 * durable: the index holds the lists it held until the commit applies (graph-records.ts), a
 * replica gets the records once applied, and a commit that fails drops them. So a later write of
 * the same commit appends to one in place rather than copying it again: a record every document
 * names (a long batch's most-named actor) is copied once a commit, not once a document of it
 * (docs/batch.md). Once the commit is over, nothing appends to them: the next commit copies.
 */
export type CommitLists = Map<readonly Provenance[], readonly Provenance[]>;

/**
 * Several writes merged onto `index` one after the other (validated as they go: an invalid
 * record rejects them all), nothing written: a large commit merges in slices, the loop
 * turning between them. Returns each write's summary (the first says it created the graph,
 * when `createsGraph`) and changes, the records that differ from the stored ones once all are merged, and
 * the texts of their provenance lists known without serialising them (provenance-json.ts).
 */
export async function mergeWrites(
  index: GraphIndex,
  writes: readonly GraphWrite[],
  now: string,
  slicer: LoopSlicer,
  createsGraph: boolean,
): Promise<{
  summaries: WriteSummary[];
  replay: WriteChanges[];
  changedNodes: NodeRecord[];
  changedEdges: EdgeRecord[];
  provenanceJson: ProvenanceJson;
  provenanceFrom: Map<NodeRecord | EdgeRecord, number>;
}> {
  const merging: Merging = { index, now, slicer, checker: new WriteChecker(), nodes: new Map(), edges: new Map(), provenanceJson: new ProvenanceJson(), lists: new Map() };
  const summaries: WriteSummary[] = [];
  const replay: WriteChanges[] = [];
  for (let write = 0; write < writes.length; write++) {
    const { nodes: nodeInputs, edges: edgeInputs } = writes[write];
    const touchedNodes = await mergeNodes(merging, nodeInputs, write);
    const ends = await checkEdges(merging, edgeInputs, write);
    const touchedEdges = await mergeEdges(merging, edgeInputs, ends, write);
    const changed = { nodes: await changesOf(touchedNodes, slicer), edges: await changesOf(touchedEdges, slicer) };
    summaries.push({
      nodes_created: changed.nodes.created.length, nodes_updated: changed.nodes.updated.length,
      edges_created: changed.edges.created.length, edges_updated: changed.edges.updated.length, graph_created: createsGraph && write === 0,
      node_ids: touchedNodes.map((touched) => touched.record.id), edge_ids: touchedEdges.map((touched) => touched.record.id),
    });
    replay.push(changed);
  }
  // What the writes changed against the stored graph. One write changed what its tally
  // found (compared once, there); of several, the records some write changed are compared
  // again, as the last left them (a later write may have put one back as stored).
  const changedNodes = writes.length === 1 ? [...replay[0].nodes.updated, ...replay[0].nodes.created.map(recordOf)] : changedSinceStored(merging.nodes);
  const changedEdges = writes.length === 1 ? [...replay[0].edges.updated, ...replay[0].edges.created.map(recordOf)] : changedSinceStored(merging.edges);
  const provenanceFrom = new Map<NodeRecord | EdgeRecord, number>();
  grownFromStored(changedNodes, merging.nodes, provenanceFrom);
  grownFromStored(changedEdges, merging.edges, provenanceFrom);
  return { summaries, replay, changedNodes, changedEdges, provenanceJson: merging.provenanceJson, provenanceFrom };
}

/**
 * Notes in `into` each of the `changed` records whose stored provenance list was long (CHUNKED_FROM entries or more), with
 * that list's length. Merging only appends provenance, and never to the stored list (CommitLists), so the record's list is
 * the stored one with entries appended: a replica that holds the stored record is sent those entries alone (replicas.ts),
 * not a list a batch's most-named actor grows by a document at each commit. A short list goes whole: it costs about what
 * noting it would.
 */
function grownFromStored<R extends NodeRecord | EdgeRecord>(changed: readonly R[], merged: ReadonlyMap<string, Touched<R>>, into: Map<NodeRecord | EdgeRecord, number>): void {
  for (const record of changed) {
    if (record.provenance.length <= CHUNKED_FROM) continue;
    const stored = merged.get(record.id)?.stored?.provenance.length ?? 0;
    if (stored >= CHUNKED_FROM) into.set(record, stored);
  }
}

/**
 * Merges write number `write`'s nodes, each as soon as it is checked (merging a node cannot
 * fail, and an invalid one later still rejects the whole write); returns those it touched.
 */
async function mergeNodes({ index, now, slicer, checker, nodes, provenanceJson, lists }: Merging, inputs: readonly NodeInput[], write: number): Promise<Touched<NodeRecord>[]> {
  const touched: Touched<NodeRecord>[] = [];
  const mergeOnto = (previous: NodeRecord | undefined, input: NodeInput, id: string) => mergeNode(previous, input, id, now, provenanceJson, lists);
  for (let i = 0; i < inputs.length; i++) {
    if (slicer.dueStep()) await slicer.turn();
    const input = inputs[i];
    checker.node(input, i);
    mergeInput(input, nodeIdOf(input), write, (id) => index.node(id), nodes, touched, mergeOnto).labels = input.labels;
  }
  return touched;
}

/**
 * Checks every edge of write number `write` before any is merged, so that an invalid edge is
 * reported before another's id conflict. Returns the dense ids of the ends each names in the
 * index (edge i's at 2i and 2i+1; -1: a node of these writes), found once, for the check and
 * for the index.
 */
async function checkEdges({ index, slicer, checker, nodes }: Merging, inputs: readonly EdgeInput[], write: number): Promise<Int32Array> {
  const ends = new Int32Array(2 * inputs.length);
  let edge = 0;
  const kindOf = (id: string, end: 0 | 1): string | undefined => {
    const touched = nodes.get(id);
    ends[2 * edge + end] = -1;
    // a node this write names is checked as this write gives it, as before it was merged
    if (touched) return (touched.write === write ? touched.labels! : touched.record.labels)[0];
    // read off the index's kind column, not the record: two random reads fewer per end
    const dense = index.nodes.denseOf(id);
    const kind = dense < 0 ? undefined : index.kindAt(dense);
    if (kind !== undefined) ends[2 * edge + end] = dense;
    return kind;
  };
  for (edge = 0; edge < inputs.length; edge++) {
    if (slicer.dueStep()) await slicer.turn();
    checker.edge(inputs[edge], edge, kindOf);
  }
  return ends;
}

/** Merges write number `write`'s checked edges, placing a new one at the `ends` checkEdges found; returns those it touched. */
async function mergeEdges({ index, now, slicer, edges, provenanceJson, lists }: Merging, inputs: readonly EdgeInput[], ends: Int32Array, write: number): Promise<Touched<EdgeRecord>[]> {
  const touchedEdges: Touched<EdgeRecord>[] = [];
  const mergeEdgeOnto = (previous: EdgeRecord | undefined, input: EdgeInput, id: string) => mergeEdge(previous, input, id, now, provenanceJson, lists);
  for (let i = 0; i < inputs.length; i++) {
    if (slicer.dueStep()) await slicer.turn();
    const input = inputs[i];
    const touched = mergeInput(input, edgeIdOf(input), write, (id) => index.edge(id), edges, touchedEdges, mergeEdgeOnto);
    if (touched.from === UNPLACED) {
      touched.from = ends[2 * i];
      touched.to = ends[2 * i + 1];
    }
  }
  return touchedEdges;
}

/** Touched.from and .to of a record that is no edge, or not placed yet. */
const UNPLACED = -2;

/** A record some write of a commit touches: as stored before the commit, as the writes so far leave it, and as it was before the write now merging. */
interface Touched<R> {
  stored: R | undefined;
  record: R;
  before: R | undefined;
  /** How long `before`'s provenance list was then: a later write of the commit may have appended to it in place (CommitLists). */
  beforeLength: number;
  /** The last write that touched it, and whether some write changed it. */
  write: number;
  changed: boolean;
  /** A node's labels as that write last gave them. */
  labels: readonly string[] | undefined;
  /** An edge's ends by dense id in the index (-1: found by id when the edge goes in). */
  from: number;
  to: number;
}

export const recordOf = <R>(touched: Touched<R>): R => touched.record;

/** What one write changed of the records it touched, each as the write left it (its long provenance list the commit's: WriteChanges). */
export interface Changes<R> {
  created: Touched<R>[];
  updated: R[];
}

async function changesOf<R extends NodeRecord | EdgeRecord>(touched: readonly Touched<R>[], slicer: LoopSlicer): Promise<Changes<R>> {
  const changes: Changes<R> = { created: [], updated: [] };
  for (let i = 0; i < touched.length; i++) {
    if (slicer.dueStep()) await slicer.turn();
    const entry = touched[i];
    const previous = entry.before;
    if (previous && sameRecord(previous, entry.record, entry.beforeLength)) continue;
    entry.changed = true;
    if (previous) changes.updated.push(entry.record);
    else changes.created.push(entry);
  }
  return changes;
}

/** Of several writes' merged records: those some write changed that differ from the stored ones. */
function changedSinceStored<R extends NodeRecord | EdgeRecord>(merged: ReadonlyMap<string, Touched<R>>): R[] {
  const records: R[] = [];
  for (const { changed, stored, record } of merged.values()) if (changed && (!stored || !sameRecord(stored, record))) records.push(record);
  return records;
}

/**
 * Whether a merged record equals the stored one. Merging only appends provenance, so a
 * longer provenance list is a change, found without serialising the whole record (a
 * much-mentioned actor carries hundreds of provenance records).
 */
function sameRecord(before: NodeRecord | EdgeRecord, after: NodeRecord | EdgeRecord, beforeLength = before.provenance.length): boolean {
  if (beforeLength !== after.provenance.length || before.confidence !== after.confidence) return false;
  return canonicalJson(before) === canonicalJson(after);
}

/** Fields that tell provenance records apart cheaply: records that differ in them are never equal. */
function provenanceSketch(record: Provenance): string {
  return `${record.document_id ?? ''}\u0000${record.span?.start ?? ''}\u0000${record.span?.end ?? ''}\u0000${record.source}`;
}

/**
 * `existing` with each incoming record it does not hold yet, in order. Only records that share
 * a sketch (provenanceSketch) may be equal, so only those are serialised and compared, each once,
 * when the first incoming record of its sketch comes: a write costs what it brings, not what the
 * node holds, and a new document's records (whose document no stored record names) are appended
 * without serialising any. The result is `existing` with entries appended, and noted so
 * (provenance-chunks.ts): a commit writes only those. A result that is `existing` with every incoming record
 * appended is noted in `known`, the commit's texts of lists (provenance-json.ts). With `lists`, the lists
 * a commit made so far: one of them is appended to in place, and a copy joins them.
 */
export function unionProvenance(existing: readonly Provenance[], incoming: readonly Provenance[] | undefined, known?: ProvenanceJson, lists?: CommitLists): Provenance[] {
  if (!incoming || incoming.length === 0) {
    if (existing.length === 0) return NO_PROVENANCE;
    if (lists?.has(existing)) return existing as Provenance[];
    const copy = [...existing];
    noteGrown(copy, existing);
    noteMade(lists, copy, existing);
    return copy;
  }
  // one entry of a document the list does not name (a record a new document mentions once, most often): nothing it may equal, no sketch made
  if (incoming.length === 1 && !namesDocument(existing, incoming[0].document_id)) return appended(existing, incoming, known, lists);
  const sketches = incoming.map(provenanceSketch);
  const wanted = new Set(sketches);
  const alike = heldAlike(existing, incoming, wanted);
  // no held record may equal an incoming one, and no two incoming ones may be equal: all appended (a new document's, most often)
  if (alike.size === 0 && wanted.size === incoming.length) return appended(existing, incoming, known, lists);
  const origin = lists?.get(existing);
  const result = origin ? (existing as Provenance[]) : [...existing];
  const from = existing.length;
  for (let i = 0; i < incoming.length; i++) {
    const record = incoming[i];
    const group = alike.get(sketches[i]);
    if (!group) {
      alike.set(sketches[i], { unread: [record], keys: new Set() });
    } else {
      for (const kept of group.unread) group.keys.add(canonicalJson(kept));
      group.unread.length = 0;
      const key = canonicalJson(record);
      if (group.keys.has(key)) continue;
      group.keys.add(key);
    }
    result.push(record);
  }
  if (origin) {
    noteGrown(result, origin, from);
    known?.noteAppendedInPlace(result, undefined);
  } else {
    noteGrown(result, existing);
    noteMade(lists, result, existing);
  }
  return result;
}

/** `existing` with every entry of `incoming` appended, noted so (unionProvenance): in place when the commit made `existing` (CommitLists). */
function appended(existing: readonly Provenance[], incoming: readonly Provenance[], known: ProvenanceJson | undefined, lists: CommitLists | undefined): Provenance[] {
  const origin = lists?.get(existing);
  if (origin) {
    const list = existing as Provenance[];
    const from = list.length;
    for (const record of incoming) list.push(record);
    noteGrown(list, origin, from);
    known?.noteAppendedInPlace(list, incoming);
    return list;
  }
  const result = existing.concat(incoming);
  noteGrown(result, existing);
  known?.noteAppended(result, existing, incoming);
  noteMade(lists, result, existing);
  return result;
}

/** Notes that the commit made `list` from `base`, when it is long enough for copies to matter (a short one's copy costs what noting it would). */
function noteMade(lists: CommitLists | undefined, list: readonly Provenance[], base: readonly Provenance[]): void {
  if (list.length >= CHUNKED_FROM) lists?.set(list, base);
}

/** Whether an entry of `list` may name `document` (a long list's documents are known: provenance-chunks.ts). */
function namesDocument(list: readonly Provenance[], document: string | undefined): boolean {
  if (list.length === 0) return false;
  const held = chunkedDocuments(list);
  return held ? held.has(document) : list.some((record) => record.document_id === document);
}

/** By sketch, the records kept so far that an incoming record may equal: those not yet serialised, and the serialised ones' keys. */
type Alike = Map<string, { unread: Provenance[]; keys: Set<string> }>;

/** The held records an incoming record may equal (unionProvenance): those of the incoming documents whose sketch is `wanted`. */
function heldAlike(existing: readonly Provenance[], incoming: readonly Provenance[], wanted: ReadonlySet<string>): Alike {
  const alike: Alike = new Map();
  // a new record's list: nothing held to read
  if (existing.length === 0) return alike;
  const incomingDocuments = new Set(incoming.map((record) => record.document_id));
  // a long list's documents are known (provenance-chunks.ts): a new document's records are appended without reading it
  const held = chunkedDocuments(existing);
  if (held !== undefined && ![...incomingDocuments].some((document) => held.has(document))) return alike;
  for (const record of existing) {
    if (!incomingDocuments.has(record.document_id)) continue;
    const sketch = provenanceSketch(record);
    if (!wanted.has(sketch)) continue;
    const group = alike.get(sketch);
    if (group) group.unread.push(record);
    else alike.set(sketch, { unread: [record], keys: new Set() });
  }
  return alike;
}

/**
 * Incoming properties over stored ones, keeping known values against "not known" ones and unioning `aliases`.
 * The stored object itself when the input changes none of them (records are replaced, never edited): a
 * much-mentioned actor's properties are then neither copied nor encoded again at each commit (record-codec.ts).
 */
export function mergeNodeProperties(existing: Pick<NodeRecord, 'properties'> | undefined, input: NodeInput, labels: readonly string[]): Record<string, PropertyValue> {
  if (existing && keepsProperties(existing.properties, input.properties, labels)) return existing.properties;
  const properties = { ...existing?.properties, ...input.properties };
  if (!existing) return properties;
  for (const key in input.properties) {
    const stored = existing.properties[key];
    if (knownWins(stored, input.properties[key], key, labels)) properties[key] = stored;
  }
  const oldAliases = existing.properties.aliases;
  const newAliases = input.properties.aliases;
  if (Array.isArray(oldAliases) && Array.isArray(newAliases)) properties.aliases = [...new Set([...oldAliases, ...newAliases])];
  return properties;
}

/**
 * Whether merging `incoming` onto `stored` leaves `stored` as it is: each incoming key is stored
 * already with the same primitive value, or a "not known" value the stored known one wins over,
 * or aliases the stored ones hold. Any other shape (a new key, another array) takes the general merge.
 */
function keepsProperties(stored: Record<string, PropertyValue>, incoming: Record<string, PropertyValue>, labels: readonly string[]): boolean {
  for (const key in incoming) {
    const value = incoming[key];
    const held = stored[key];
    if (value === held && (typeof value !== 'object' || value === null)) continue;
    if (held === undefined && !(key in stored)) return false;
    // (the union drops repeated aliases: stored ones without repeats stay as they are)
    if (key === 'aliases' && Array.isArray(value) && Array.isArray(held) && value.every((alias) => held.includes(alias)) && !hasRepeats(held)) continue;
    if (knownWins(held, value, key, labels)) continue;
    return false;
  }
  return true;
}

/** Lists longer than this are checked for repeats with a Set; shorter ones (a node's labels, an actor's aliases, most often) by comparing pairs. */
const REPEATS_BY_PAIRS_UP_TO = 16;

/** Whether an item of `list` appears twice: on a short list without allocating (merges ask it of every named actor at each commit). */
function hasRepeats(list: readonly unknown[]): boolean {
  if (list.length > REPEATS_BY_PAIRS_UP_TO) return new Set(list).size !== list.length;
  for (let i = 1; i < list.length; i++) for (let j = 0; j < i; j++) if (list[i] === list[j]) return true;
  return false;
}

/** Whether a stored known value of `key` stays against an incoming one that says "not known" for one of the labels (NODE_UNKNOWN_VALUES). */
function knownWins(stored: PropertyValue | undefined, incoming: PropertyValue, key: string, labels: readonly string[]): boolean {
  return typeof stored === 'string' && stored !== incoming && labels.some((label) => NODE_UNKNOWN_VALUES[label as NodeKind]?.[key] === incoming);
}

/**
 * Merges an input of write number `write` into `merged` (the records as the writes so far
 * leave them), onto the record before it: one merged earlier, else the stored one. `touched`
 * gets the records this write touches, in the order it first names them.
 */
function mergeInput<I, R extends NodeRecord | EdgeRecord>(
  input: I,
  id: string,
  write: number,
  storedOf: (id: string) => R | undefined,
  merged: Map<string, Touched<R>>,
  touched: Touched<R>[],
  merge: (previous: R | undefined, input: I, id: string) => R,
): Touched<R> {
  let entry = merged.get(id);
  if (!entry) {
    const stored = storedOf(id);
    entry = { stored, record: merge(stored, input, id), before: stored, beforeLength: stored?.provenance.length ?? 0, write, changed: false, labels: undefined, from: UNPLACED, to: UNPLACED };
    merged.set(id, entry);
    touched.push(entry);
    return entry;
  }
  if (entry.write !== write) {
    entry.before = entry.record;
    entry.beforeLength = entry.record.provenance.length;
    entry.write = write;
    touched.push(entry);
  }
  entry.record = merge(entry.record, input, id);
  return entry;
}

function mergeNode(existing: NodeRecord | undefined, input: NodeInput, id: string, now: string, known: ProvenanceJson, lists: CommitLists): NodeRecord {
  const labels = mergeLabels(existing?.labels, input.labels);
  return {
    id,
    labels,
    properties: mergeNodeProperties(existing, input, labels),
    confidence: Math.max(existing?.confidence ?? 0, input.confidence ?? DEFAULT_CONFIDENCE),
    provenance: unionProvenance(existing?.provenance ?? [], input.provenance, known, lists),
    recorded_at: existing?.recorded_at ?? input.recorded_at ?? now,
  };
}

/**
 * A node's labels once `incoming` ones are merged onto `stored` ones: the stored array itself when the union
 * is that array (keepsLabels), so that a much-mentioned node's merge allocates none.
 */
export function mergeLabels(stored: string[] | undefined, incoming: readonly string[]): string[] {
  if (!stored) return [...incoming];
  return keepsLabels(stored, incoming) ? stored : [...new Set([...stored, ...incoming])];
}

/**
 * Whether the union of `stored` and `incoming` labels is `stored` as it is: no label new, none repeated. Its array
 * is then kept (records are replaced, never edited), not built again at each commit that names the node.
 */
function keepsLabels(stored: readonly string[], incoming: readonly string[]): boolean {
  if (hasRepeats(stored)) return false;
  return incoming.every((label) => stored.includes(label));
}

function mergeEdge(existing: EdgeRecord | undefined, input: EdgeInput, id: string, now: string, known: ProvenanceJson, lists: CommitLists): EdgeRecord {
  if (existing && (existing.from !== input.from || existing.to !== input.to || existing.type !== input.type)) {
    throw new ConflictError('edge_id_conflict', `edge '${id}' exists already with other endpoints or type`, { edge_id: id });
  }
  return {
    id,
    type: input.type,
    from: input.from,
    to: input.to,
    properties: hasNoKeys(existing?.properties) && hasNoKeys(input.properties) ? NO_PROPERTIES : { ...existing?.properties, ...input.properties },
    confidence: Math.max(existing?.confidence ?? 0, input.confidence ?? DEFAULT_CONFIDENCE),
    provenance: unionProvenance(existing?.provenance ?? [], input.provenance, known, lists),
    recorded_at: existing?.recorded_at ?? input.recorded_at ?? now,
  };
}
