import { ValidationError } from '../errors.ts';
import { nestedDeeperThan } from '../shape.ts';
import { LoopSlicer } from '../turns.ts';
import {
  COMMON_PROPERTY_TYPES,
  EDGE_ENDPOINTS,
  EDGE_PROPERTY_TYPES,
  NODE_PROPERTY_TYPES,
  PROVENANCE_PROPERTY_TYPES,
  type PropertyType,
  EDGE_ENUM_PROPERTIES,
  NODE_ENUM_PROPERTIES,
  NODE_REQUIRED_PROPERTIES,
  isEdgeType,
  isNodeKind,
  type PropertyValue,
  type Provenance,
} from '../ontology/index.ts';

/** What a write may contain: one node or edge as the caller states it. */
export interface NodeInput {
  id?: string;
  /** labels[0] is the node's kind. */
  labels: string[];
  properties: Record<string, PropertyValue>;
  confidence?: number;
  provenance?: Provenance[];
  recorded_at?: string;
}

export interface EdgeInput {
  id?: string;
  type: string;
  from: string;
  to: string;
  properties?: Record<string, PropertyValue>;
  confidence?: number;
  provenance?: Provenance[];
  recorded_at?: string;
}

export interface GraphWrite {
  nodes: NodeInput[];
  edges: EdgeInput[];
}

/** Ids, labels, edge types, tenants and graph ids: printable, bounded, never a NUL. */
const ID_PATTERN = /^[^\u0000-\u001f]{1,256}$/;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const ISO_INSTANT = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?)?)?$/;

/**
 * An ISO 8601 date (`2024`, `2024-03`, `2024-03-03`) or date-time that names a real
 * day and time: "2024-13-45T99:99:99Z" has the shape and is still refused, since
 * as_of comparisons would silently drop the record.
 */
export function isIsoInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = ISO_INSTANT.exec(value);
  if (!match) return false;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', offsetHours = '00', offsetMinutes = '00'] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return (
    Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= daysInMonth &&
    Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59 && Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59
  );
}

function checkType(where: string, field: string, value: PropertyValue | undefined, type: PropertyType): void {
  if (value === undefined || value === null) return;
  const valid =
    type === 'string' ? typeof value === 'string'
    : type === 'strings' ? Array.isArray(value) && value.every((item) => typeof item === 'string')
    : type === 'instant' ? isIsoInstant(value)
    : Number.isSafeInteger(value) && (value as number) >= 0;
  if (!valid) fail(where, field, `${field} must be ${TYPE_NAMES[type]} (got ${JSON.stringify(value).slice(0, 60)})`);
}

const TYPE_NAMES: Record<PropertyType, string> = {
  string: 'a string',
  strings: 'a list of strings',
  instant: 'an ISO 8601 date or date-time naming a real day and time',
  count: 'a non-negative integer',
};

function checkTypes(where: string, properties: Record<string, PropertyValue> | undefined, types: Record<string, PropertyType> | undefined): void {
  if (!properties || !types) return;
  // for...in over the small ontology tables: no entries array per record on the import path
  for (const field in types) checkType(where, field, properties[field], types[field]);
}

/** Tenant ids, graph ids and workspace ids: what the key layout and URLs can carry safely. */
export function validateName(what: string, value: string): void {
  if (!NAME_PATTERN.test(value)) {
    throw new ValidationError(
      `invalid_${what}`,
      `${what} must be 1-128 characters of letters, digits, '_', '.' or '-', starting with a letter or digit`,
      { field: what },
    );
  }
}

function fail(where: string, field: string, message: string): never {
  throw new ValidationError('invalid_record', `${where}: ${message}`, { record: where, field });
}

function checkEnum(where: string, field: string, value: PropertyValue | undefined, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail(where, field, `${field} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
}

function checkCommon(where: string, record: { id?: string; confidence?: number; provenance?: Provenance[]; recorded_at?: string }): void {
  if (record.id !== undefined && (typeof record.id !== 'string' || !ID_PATTERN.test(record.id))) {
    fail(where, 'id', 'id must be a string of 1-256 characters without control characters');
  }
  if (record.confidence !== undefined && (typeof record.confidence !== 'number' || !(record.confidence >= 0 && record.confidence <= 1))) {
    fail(where, 'confidence', 'confidence must be a number from 0 to 1');
  }
  if (record.recorded_at !== undefined && !isIsoInstant(record.recorded_at)) {
    fail(where, 'recorded_at', 'recorded_at must be an ISO 8601 timestamp naming a real day and time');
  }
  if (record.provenance === undefined) return;
  if (!Array.isArray(record.provenance)) fail(where, 'provenance', 'provenance must be an array');
  if (nestedDeeperThan(record.provenance, MAX_PROPERTY_DEPTH)) {
    throw new ValidationError('property_depth', `${where}: provenance nests lists and maps more than ${MAX_PROPERTY_DEPTH} deep`, { record: where, field: 'provenance', limit: MAX_PROPERTY_DEPTH });
  }
  record.provenance.forEach((entry, i) => {
    const at = `provenance[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(where, at, `${at} must be an object`);
    if (typeof entry.source !== 'string' || entry.source.length === 0) fail(where, `${at}.source`, `${at}.source must be a non-empty string`);
    if (!isIsoInstant(entry.timestamp)) fail(where, `${at}.timestamp`, `${at}.timestamp must be an ISO 8601 date or timestamp naming a real day and time`);
    checkTypes(`${where}.${at}`, entry as Record<string, PropertyValue>, PROVENANCE_PROPERTY_TYPES);
    const span = entry.span;
    if (span !== undefined) {
      const valid = span !== null && typeof span === 'object' && Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.end >= span.start;
      if (!valid) fail(where, `${at}.span`, `${at}.span must be {start, end} with 0 <= start <= end`);
    }
  });
}

/**
 * Lists and maps inside one property value nest at most this deep: every read of the
 * graph walks stored values recursively (JSON.stringify, the query evaluator).
 */
export const MAX_PROPERTY_DEPTH = 16;
/** Bytes of one node's or edge's properties (as JSON): a record is read whole on every match. */
export const MAX_RECORD_BYTES = 1024 * 1024;

function checkProperties(where: string, properties: unknown): asserts properties is Record<string, PropertyValue> {
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) fail(where, 'properties', 'properties must be an object');
  // An upper bound of the JSON's UTF-8 bytes (a code unit is at most 6 bytes escaped),
  // so that a record of scalars is cleared without serialising it; lists and maps are serialised.
  let bound = 2;
  for (const key in properties) {
    const value = (properties as Record<string, PropertyValue>)[key];
    if (value !== null && typeof value === 'object') {
      if (nestedDeeperThan(value, MAX_PROPERTY_DEPTH)) {
        throw new ValidationError('property_depth', `${where}: property '${key}' nests lists and maps more than ${MAX_PROPERTY_DEPTH} deep`, { record: where, field: key, limit: MAX_PROPERTY_DEPTH });
      }
      bound = Infinity;
    }
    bound += 6 * key.length + 4 + (typeof value === 'string' ? 6 * value.length + 2 : 24);
  }
  if (bound <= MAX_RECORD_BYTES) return;
  const bytes = Buffer.byteLength(JSON.stringify(properties));
  if (bytes > MAX_RECORD_BYTES) {
    throw new ValidationError('record_too_large', `${where}: properties take ${bytes} bytes as JSON, more than ${MAX_RECORD_BYTES}`, { record: where, field: 'properties', limit: MAX_RECORD_BYTES });
  }
}

/**
 * Checks a write against the ontology before anything is stored: kinds, required
 * properties, closed vocabularies, edge endpoints (which must exist in the graph or
 * in the same write). The first problem found rejects the whole write. A large write
 * is checked a slice at a time, with the event loop turning between slices (the write's
 * own slicer, so the time it spent before counts).
 */
export async function validateGraphWrite(
  write: GraphWrite,
  lookupLabels: (nodeId: string) => readonly string[] | undefined,
  resolveNodeId: (node: NodeInput) => string,
  slicer: LoopSlicer,
): Promise<void> {
  const labelsInWrite = new Map<string, readonly string[]>();
  for (const [i, node] of write.nodes.entries()) {
    if (slicer.due()) await slicer.turn();
    const where = `nodes[${i}]`;
    checkCommon(where, node);
    if (!Array.isArray(node.labels) || node.labels.length === 0 || node.labels.some((l) => typeof l !== 'string' || !ID_PATTERN.test(l))) {
      fail(where, 'kind', 'kind must be a non-empty string');
    }
    checkProperties(where, node.properties);
    const kind = node.labels[0];
    if (isNodeKind(kind)) {
      for (const field of NODE_REQUIRED_PROPERTIES[kind]) {
        const value = node.properties[field];
        if (value === undefined || value === null || value === '') fail(where, field, `a ${kind} needs ${field}`);
      }
      const enums = NODE_ENUM_PROPERTIES[kind];
      for (const field in enums) checkEnum(where, field, node.properties[field], enums[field]);
      checkTypes(where, node.properties, NODE_PROPERTY_TYPES[kind]);
    }
    checkTypes(where, node.properties, COMMON_PROPERTY_TYPES);
    labelsInWrite.set(resolveNodeId(node), node.labels);
  }
  const labelsOf = (id: string) => labelsInWrite.get(id) ?? lookupLabels(id);
  for (const [i, edge] of write.edges.entries()) {
    if (slicer.due()) await slicer.turn();
    const where = `edges[${i}]`;
    checkCommon(where, edge);
    if (typeof edge.type !== 'string' || !ID_PATTERN.test(edge.type)) fail(where, 'type', 'type must be a non-empty string');
    for (const end of ['from', 'to'] as const) {
      if (typeof edge[end] !== 'string' || !ID_PATTERN.test(edge[end])) fail(where, end, `${end} must be a node id`);
    }
    if (edge.properties !== undefined) checkProperties(where, edge.properties);
    checkTypes(where, edge.properties, COMMON_PROPERTY_TYPES);
    if (isEdgeType(edge.type)) checkTypes(where, edge.properties, EDGE_PROPERTY_TYPES[edge.type]);
    const fromLabels = labelsOf(edge.from);
    const toLabels = labelsOf(edge.to);
    if (!fromLabels) fail(where, 'from', `from '${edge.from}' is not a node of this graph or of this import`);
    if (!toLabels) fail(where, 'to', `to '${edge.to}' is not a node of this graph or of this import`);
    if (!isEdgeType(edge.type)) continue;
    const endpoints = EDGE_ENDPOINTS[edge.type];
    for (const [end, labels] of [['from', fromLabels], ['to', toLabels]] as const) {
      const allowed = endpoints[end];
      if (allowed !== '*' && !allowed.includes(labels[0] as never)) {
        fail(where, end, `${edge.type} goes from ${listKinds(endpoints.from)} to ${listKinds(endpoints.to)}; '${edge[end]}' is a ${labels[0]}`);
      }
    }
    for (const [field, allowed] of Object.entries(EDGE_ENUM_PROPERTIES[edge.type] ?? {})) {
      checkEnum(where, field, edge.properties?.[field], allowed);
    }
  }
}

function listKinds(kinds: readonly string[] | '*'): string {
  return kinds === '*' ? 'any node' : kinds.join(' or ');
}
