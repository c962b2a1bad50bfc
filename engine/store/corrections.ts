/**
 * Corrections: an analyst's merge, retract, retype and set, kept as audited records beside
 * the records extraction and imports wrote (never in place of them), and applied as an overlay
 * when a graph is read. The store keeps two things per graph: the records as written (the raw
 * graph, which writes merge onto exactly as before) and the graph as corrected (what every query,
 * assess, analyze, export and report reads). A graph without corrections is one index: the
 * overlay costs nothing there.
 *
 * Because the overlay is applied to whatever the raw graph holds, corrections outlive
 * re-extraction: a document that brings a retracted record back only updates its raw record,
 * which stays out of the corrected graph; a mention of a merged alias lands on the alias's raw
 * record, which folds into the node it was merged into; a retyped edge keeps its new type
 * whatever type its raw record is written with again.
 */
import { ConflictError, ValidationError } from '../errors.ts';
import { EDGE_ENDPOINTS, EDGE_TYPES, isEdgeType, type EdgeRecord, type NodeRecord, type PropertyValue } from '../ontology/index.ts';
import type { AuditFields, CorrectionBody, CorrectionRecord } from './backend.ts';
import { GraphIndex } from './graph-index.ts';
import { unionProvenance } from './merge.ts';
import { endAllows, WriteChecker } from './validate.ts';

export type { CorrectionRecord } from './backend.ts';

export const CORRECTION_OPS = ['merge', 'retract', 'retype', 'set'] as const;
export type CorrectionOp = (typeof CORRECTION_OPS)[number];

/** Longest `reason` a correction keeps. */
export const MAX_REASON_LENGTH = 2000;
/** Most nodes one merge folds in. */
export const MAX_MERGE_FROM = 100;

/** A correction as a client asks for it. */
export type CorrectionInput =
  | { op: 'merge'; into: string; from: string[]; reason: string }
  | { op: 'retract'; target: string; reason: string }
  | { op: 'retype'; edge: string; type: string; reason: string }
  | { op: 'set'; target: string; properties: Record<string, PropertyValue>; reason: string };

/** How many merges deep an alias may resolve: merges chain (a into b, then b into c), never in a cycle. */
const MAX_ALIAS_DEPTH = 1_000;

/**
 * The corrections of one graph, in the order they were made, and what the ones still in force
 * (made and not undone) say: which ids are aliases of which nodes, what is retracted, retyped
 * and set.
 */
export class Corrections {
  /** Every audit record, the oldest first. */
  readonly records: readonly CorrectionRecord[];
  /** alias id → the node it was merged into (which may itself have been merged since) */
  private readonly aliases = new Map<string, string>();
  private readonly retracted = new Set<string>();
  private readonly retyped = new Map<string, string>();
  private readonly sets = new Map<string, Record<string, PropertyValue>>();
  /** corrected node id → the ids merged into it, however many merges ago, in the order merged */
  private readonly members = new Map<string, string[]>();
  /** correction id → the undo record that undid it */
  readonly undoneBy = new Map<string, CorrectionRecord>();

  static readonly NONE = new Corrections([]);

  constructor(records: readonly CorrectionRecord[]) {
    this.records = records;
    for (const record of records) if (record.op === 'undo') this.undoneBy.set(record.undoes, record);
    for (const record of records) {
      if (record.op === 'undo' || this.undoneBy.has(record.correction_id)) continue;
      if (record.op === 'merge') for (const id of record.from) this.aliases.set(id, record.into);
      else if (record.op === 'retract') this.retracted.add(record.target);
      else if (record.op === 'retype') this.retyped.set(record.edge, record.type);
      else this.sets.set(record.target, { ...this.sets.get(record.target), ...record.properties });
    }
    for (const alias of this.aliases.keys()) {
      const root = this.resolve(alias);
      const list = this.members.get(root);
      if (list) list.push(alias);
      else this.members.set(root, [alias]);
    }
  }

  /** Whether any correction is in force: when none is, the corrected graph is the raw graph. */
  get inForce(): boolean {
    return this.aliases.size + this.retracted.size + this.retyped.size + this.sets.size > 0;
  }

  /** The id a node id names in the corrected graph: itself, or the node it was merged into. */
  resolve(id: string): string {
    let at = id;
    for (let depth = 0; depth < MAX_ALIAS_DEPTH; depth++) {
      const next = this.aliases.get(at);
      if (next === undefined) return at;
      at = next;
    }
    return at;
  }

  /** The ids merged into `id` (empty when none). */
  aliasesOf(id: string): readonly string[] {
    return this.members.get(id) ?? [];
  }

  find(correctionId: string): CorrectionRecord | undefined {
    return this.records.find((record) => record.correction_id === correctionId);
  }

  /** The audit records that name `ids` (a record's id and its aliases), with the undos of those, oldest first. */
  touching(ids: readonly string[]): CorrectionRecord[] {
    const named = new Set(ids);
    const touched = new Set<string>();
    for (const record of this.records) {
      const names = record.op === 'merge' ? [record.into, ...record.from] : record.op === 'retype' ? [record.edge] : record.op === 'undo' ? [] : [record.target];
      if (names.some((name) => named.has(name))) touched.add(record.correction_id);
    }
    return this.records.filter((record) => touched.has(record.correction_id) || (record.op === 'undo' && touched.has(record.undoes)));
  }

  /** The corrected form of node `id` (a node id, not an alias), given the raw records; undefined when it is retracted or absent. */
  node(id: string, raw: GraphIndex): NodeRecord | undefined {
    if (this.retracted.has(id) || this.aliases.has(id)) return undefined;
    let node = this.patched(raw.node(id));
    if (!node) return undefined;
    for (const alias of this.aliasesOf(id)) {
      const other = this.patched(raw.node(alias));
      if (other && !this.retracted.has(alias)) node = joined(node, other);
    }
    return node;
  }

  /** The corrected form of a raw edge: its ends resolved, its type as retyped; undefined when it or an end is retracted. */
  edge(edge: EdgeRecord): EdgeRecord | undefined {
    if (this.retracted.has(edge.id)) return undefined;
    const from = this.resolve(edge.from);
    const to = this.resolve(edge.to);
    if (this.retracted.has(from) || this.retracted.has(to)) return undefined;
    const type = this.retyped.get(edge.id) ?? edge.type;
    const patched = this.patched(edge)!;
    return from === edge.from && to === edge.to && type === edge.type ? patched : { ...patched, from, to, type };
  }

  /** A record with the properties `set` gave it. */
  private patched<R extends NodeRecord | EdgeRecord>(record: R | undefined): R | undefined {
    const set = record && this.sets.get(record.id);
    return set ? { ...record, properties: { ...record.properties, ...set } } : record;
  }
}

/** A node with another merged into it: its own properties win, the other's name joins its aliases, provenance is the union. */
function joined(into: NodeRecord, other: NodeRecord): NodeRecord {
  const properties: Record<string, PropertyValue> = { ...other.properties, ...into.properties };
  const names = [...stringsOf(into.properties.aliases), ...stringsOf(other.properties.aliases)];
  const otherName = other.properties.label;
  if (typeof otherName === 'string' && otherName !== into.properties.label) names.push(otherName);
  if (names.length > 0) properties.aliases = [...new Set(names)];
  return {
    id: into.id,
    labels: [...new Set([...into.labels, ...other.labels])],
    properties,
    confidence: Math.max(into.confidence, other.confidence),
    provenance: unionProvenance(into.provenance, other.provenance),
    recorded_at: other.recorded_at < into.recorded_at ? other.recorded_at : into.recorded_at,
  };
}

function stringsOf(value: PropertyValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The corrected graph of a raw one: a new index, the raw records' order kept. */
export function correctedGraph(raw: GraphIndex, corrections: Corrections): GraphIndex {
  const corrected = new GraphIndex();
  for (const node of raw.nodes.values()) {
    const kept = corrections.node(node.id, raw);
    if (kept) corrected.putNode(kept);
  }
  for (const edge of raw.edges.values()) {
    const kept = corrections.edge(edge);
    if (kept) corrected.putEdge(kept);
  }
  return corrected;
}

/**
 * What a write to the raw graph changes in the corrected one: the corrected forms of the nodes the
 * changed raw nodes are (or were merged into), and of the changed edges, leaving out what is retracted.
 */
export function correctedChanges(raw: GraphIndex, corrections: Corrections, nodes: readonly NodeRecord[], edges: readonly EdgeRecord[]): { nodes: NodeRecord[]; edges: EdgeRecord[] } {
  const roots = new Set(nodes.map((node) => corrections.resolve(node.id)));
  const correctedNodes: NodeRecord[] = [];
  for (const id of roots) {
    const node = corrections.node(id, raw);
    if (node) correctedNodes.push(node);
  }
  const correctedEdges: EdgeRecord[] = [];
  for (const edge of edges) {
    const kept = corrections.edge(edge);
    if (kept) correctedEdges.push(kept);
  }
  return { nodes: correctedNodes, edges: correctedEdges };
}

/** What a correction is checked against: the graph as corrected now, the raw graph, and the corrections in force. */
interface CorrectionTarget {
  corrected: GraphIndex;
  raw: GraphIndex;
  corrections: Corrections;
}

/** The fields of an audit record a correction's check settles (the store adds id, ordinal, key and time). */
type CheckedCorrection = CorrectionBody & { reason: string };

/**
 * Checks a correction against the graph as corrected now and the ontology, and resolves its ids
 * (an alias names the node it was merged into). Refuses an unknown id (400 unknown_record), a
 * record already retracted (409 record_retracted), a node merged into itself, an edge where a node
 * belongs and the reverse, an edge type or property the ontology refuses.
 */
export function checkCorrection(input: CorrectionInput, target: CorrectionTarget): CheckedCorrection {
  const reason = input.reason;
  if (typeof reason !== 'string' || reason.trim() === '') throw new ValidationError('missing_reason', 'a correction needs a reason', { field: 'reason' });
  switch (input.op) {
    case 'merge': {
      const into = nodeOf(target, input.into, 'into');
      const from: string[] = [];
      input.from.forEach((id, i) => {
        const node = nodeOf(target, id, `from.${i}`);
        if (node.id === into.id) throw new ValidationError('merge_into_itself', `from.${i}: '${id}' is the node merged into ('${into.id}')`, { field: `from.${i}`, id });
        if (from.includes(node.id)) throw new ValidationError('duplicate_id', `from.${i}: '${id}' names a node already listed ('${node.id}')`, { field: `from.${i}`, id });
        if (node.labels[0] !== into.labels[0]) {
          throw new ValidationError('kind_mismatch', `from.${i}: '${id}' is a ${node.labels[0]}, '${into.id}' a ${into.labels[0]}: only nodes of one kind merge`, { field: `from.${i}`, id });
        }
        from.push(node.id);
      });
      return { op: 'merge', into: into.id, from, reason };
    }
    case 'retract': {
      const record = recordOf(target, input.target, 'target');
      return { op: 'retract', target: record.record.id, target_kind: record.kind, reason };
    }
    case 'retype': {
      const edge = edgeOf(target, input.edge, 'edge');
      const type = input.type;
      if (!isEdgeType(type)) throw new ValidationError('invalid_value', `field 'type' must be one of: ${EDGE_TYPES.join(', ')}`, { field: 'type', allowed: [...EDGE_TYPES] });
      if (type === edge.type) throw new ValidationError('type_unchanged', `edge '${edge.id}' is a ${type} already`, { field: 'type' });
      for (const [end, id] of [['from', edge.from], ['to', edge.to]] as const) {
        const kind = target.corrected.node(id)!.labels[0];
        if (!endAllows(type, end, kind)) {
          throw new ValidationError('invalid_endpoint', `a ${type} goes ${end} ${(EDGE_ENDPOINTS[type][end] as readonly string[]).join(' or ')}; '${id}' is a ${kind}`, { field: 'type', id });
        }
      }
      checkEdgeRecord({ ...edge, type }, target, 'type');
      return { op: 'retype', edge: edge.id, type, previous_type: edge.type, reason };
    }
    case 'set': {
      const { record, kind } = recordOf(target, input.target, 'target');
      if (Object.keys(input.properties).length === 0) throw new ValidationError('empty_properties', 'a set correction needs at least one property', { field: 'properties' });
      const properties = { ...record.properties, ...input.properties };
      if (kind === 'node') {
        const node = record as NodeRecord;
        asField('properties', () => new WriteChecker().node({ labels: node.labels, properties }, 0));
      } else checkEdgeRecord({ ...(record as EdgeRecord), properties }, target, 'properties');
      return { op: 'set', target: record.id, target_kind: kind, properties: input.properties, reason };
    }
  }
}

/** An edge record checked as a write would check it, its ends' kinds read from the corrected graph. */
function checkEdgeRecord(edge: EdgeRecord, target: CorrectionTarget, field: string): void {
  asField(field, () => new WriteChecker().edge(edge, 0, (id) => target.corrected.node(id)?.labels[0]));
}

/** Runs a record check, its refusal naming the correction's field rather than a place in a write. */
function asField(field: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.code, error.message.replace(/^(nodes|edges)\[0\]: /, `${field}: `), { ...error.details, record: undefined, field });
  }
}

function nodeOf(target: CorrectionTarget, id: string, field: string): NodeRecord {
  const found = recordOf(target, id, field);
  if (found.kind !== 'node') throw new ValidationError('not_a_node', `${field}: '${id}' is an edge; only nodes merge`, { field, id });
  return found.record as NodeRecord;
}

function edgeOf(target: CorrectionTarget, id: string, field: string): EdgeRecord {
  const found = recordOf(target, id, field);
  if (found.kind !== 'edge') throw new ValidationError('not_an_edge', `${field}: '${id}' is a node; only edges are retyped`, { field, id });
  return found.record as EdgeRecord;
}

/** The corrected record an id names (an alias: the node it was merged into); refuses an unknown id and a retracted record. */
function recordOf(target: CorrectionTarget, id: string, field: string): { record: NodeRecord | EdgeRecord; kind: 'node' | 'edge' } {
  const { corrected, raw, corrections } = target;
  const resolved = corrections.resolve(id);
  const node = corrected.node(resolved);
  if (node) return { record: node, kind: 'node' };
  const edge = corrected.edge(id);
  if (edge) return { record: edge, kind: 'edge' };
  if (raw.node(id) || raw.edge(id)) throw new ConflictError('record_retracted', `${field}: '${id}' is retracted; undo its retraction to correct it`, { field, id });
  throw new ValidationError('unknown_record', `${field}: '${id}' is no node or edge of this graph`, { field, id });
}

/** The fields each op takes beside `op` and `reason`, all required. */
const OP_FIELDS: Record<CorrectionOp, readonly string[]> = { merge: ['into', 'from'], retract: ['target'], retype: ['edge', 'type'], set: ['target', 'properties'] };

/**
 * A request body as a correction: its op's fields present, no field of another op (the HTTP schema
 * has checked each field's shape, and that no field is foreign to every op).
 */
export function correctionInput(body: { op: CorrectionOp } & Record<string, unknown>): CorrectionInput {
  const fields = OP_FIELDS[body.op];
  for (const field of fields) {
    if (body[field] === undefined) throw new ValidationError('missing_field', `a ${body.op} correction needs field '${field}'`, { field });
  }
  for (const field of Object.keys(body)) {
    if (field !== 'op' && field !== 'reason' && !fields.includes(field)) {
      throw new ValidationError('unknown_field', `field '${field}' is not one of a ${body.op} correction (${[...fields, 'reason'].join(', ')})`, { field });
    }
  }
  return body as unknown as CorrectionInput;
}
