import { ValidationError } from '../errors.ts';
import { nestedDeeperThan } from '../input-checks.ts';
import {
  COMMON_PROPERTY_TYPES,
  EDGE_ENDPOINTS,
  EDGE_PROPERTY_TYPES,
  NODE_PROPERTY_TYPES,
  PROVENANCE_PROPERTY_TYPES,
  type EdgeType,
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

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const ISO_INSTANT = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?)?)?$/;

/**
 * An ISO 8601 date (`2024`, `2024-03`, `2024-03-03`) or date-time that names a real
 * day and time: "2024-13-45T99:99:99Z" has the shape and is still refused, since
 * as_of comparisons would silently drop the record.
 */
export function isIsoInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value === lastInstant) return true;
  const match = ISO_INSTANT.exec(value);
  if (!match) return false;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', offsetHours = '00', offsetMinutes = '00'] = match;
  const valid =
    isCalendarDay(Number(year), Number(month), Number(day)) &&
    Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59 && Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59;
  if (valid) lastInstant = value;
  return valid;
}

/** The last instant isIsoInstant passed: a document's records and provenance entries mostly carry one or two (a write checks thousands). */
let lastInstant: string | undefined;

/** Whether a year, month (1-12) and day name a real day of the proleptic Gregorian calendar (ISO 8601's). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days in a month (1-12) of the proleptic Gregorian calendar; Date.UTC would read the years 0-99 as 1900-1999. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Where in a write a record is (`nodes[3]`), spelled only when a check fails: a write of
 * 10k records built 10k such strings for nothing. One per list, moved from record to record.
 */
class Where {
  index = 0;
  constructor(private readonly list: string, private readonly suffix = '') {}
  /** The place of something inside the current record (`nodes[3].provenance[0]`). */
  within(suffix: string): Where {
    const inner = new Where(this.list, `${this.suffix}.${suffix}`);
    inner.index = this.index;
    return inner;
  }
  toString(): string {
    return `${this.list}[${this.index}]${this.suffix}`;
  }
}

function checkType(where: Where, field: string, value: PropertyValue | undefined, type: PropertyType): void {
  if (!validType(value, type)) fail(where, field, `${field} must be ${TYPE_NAMES[type]} (got ${JSON.stringify(value).slice(0, 60)})`);
}

/** Whether a property's value is of its type (absent and null are). */
function validType(value: PropertyValue | undefined, type: PropertyType): boolean {
  if (value === undefined || value === null) return true;
  return type === 'string' ? typeof value === 'string'
    : type === 'strings' ? Array.isArray(value) && value.every((item) => typeof item === 'string')
    : type === 'instant' ? isIsoInstant(value)
    : type === 'share' ? typeof value === 'number' && value >= 0 && value <= 1
    : Number.isSafeInteger(value) && (value as number) >= 0;
}

const TYPE_NAMES: Record<PropertyType, string> = {
  string: 'a string',
  strings: 'a list of strings',
  instant: 'an ISO 8601 date or date-time naming a real day and time',
  count: 'a non-negative integer',
  share: 'a number from 0 to 1',
};

function checkTypes(where: Where, properties: Record<string, PropertyValue> | undefined, types: Record<string, PropertyType> | undefined): void {
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

function fail(where: Where, field: string, message: string): never {
  throw new ValidationError('invalid_record', `${where}: ${message}`, { record: String(where), field });
}

/** Ids, labels and edge types: 1-256 characters, none a control character (tested without a regex: the import path tests four per edge). */
function isId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) return false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20) return false;
  return true;
}

function checkEnum(where: Where, field: string, value: PropertyValue | undefined, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    fail(where, field, `${field} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
}

function checkCommon(where: Where, record: { id?: string; confidence?: number; provenance?: Provenance[]; recorded_at?: string }): void {
  if (record.id !== undefined && !isId(record.id)) {
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
  if (provenanceDeeperThan(record.provenance, MAX_PROPERTY_DEPTH)) {
    throw new ValidationError('property_depth', `${where}: provenance nests lists and maps more than ${MAX_PROPERTY_DEPTH} deep`, { record: String(where), field: 'provenance', limit: MAX_PROPERTY_DEPTH });
  }
  const list = record.provenance;
  for (let i = 0; i < list.length; i++) if (!validProvenanceEntry(list[i])) checkProvenanceEntry(where, list[i], i);
}

/** Whether a provenance entry passes checkProvenanceEntry, answered without spelling where it is (a write checks one or more per record). */
function validProvenanceEntry(entry: Provenance): boolean {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return false;
  if (typeof entry.source !== 'string' || entry.source.length === 0 || !isIsoInstant(entry.timestamp)) return false;
  for (const field in PROVENANCE_PROPERTY_TYPES) if (!validType((entry as Record<string, PropertyValue>)[field], PROVENANCE_PROPERTY_TYPES[field])) return false;
  return validSpan(entry.span);
}

/** Whether a provenance entry's span is absent or {start, end} with 0 <= start <= end. */
function validSpan(span: Provenance['span']): boolean {
  return span === undefined || (span !== null && typeof span === 'object' && Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.end >= span.start);
}

/** Fails with what is wrong with provenance entry `i`. */
function checkProvenanceEntry(where: Where, entry: Provenance, i: number): void {
  const at = `provenance[${i}]`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(where, at, `${at} must be an object`);
  if (typeof entry.source !== 'string' || entry.source.length === 0) fail(where, `${at}.source`, `${at}.source must be a non-empty string`);
  if (!isIsoInstant(entry.timestamp)) fail(where, `${at}.timestamp`, `${at}.timestamp must be an ISO 8601 date or timestamp naming a real day and time`);
  checkTypes(where.within(at), entry as Record<string, PropertyValue>, PROVENANCE_PROPERTY_TYPES);
  if (!validSpan(entry.span)) fail(where, `${at}.span`, `${at}.span must be {start, end} with 0 <= start <= end`);
  throw new Error(`${at} failed validProvenanceEntry but no check here: the two disagree`);
}

/**
 * Whether a provenance list nests deeper than `limit` (nestedDeeperThan), its entries walked here and
 * only their lists and maps (a span) handed on: the import path checks one list per record.
 */
function provenanceDeeperThan(list: readonly unknown[], limit: number): boolean {
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    // the list at depth 1, an entry at 2, an entry's list or map at 3
    if (limit < 2) return true;
    for (const key in entry) {
      const value = (entry as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object' && nestedDeeperThan(value, limit - 2)) return true;
    }
  }
  return false;
}

/**
 * Lists and maps inside one property value nest at most this deep: every read of the
 * graph walks stored values recursively (JSON.stringify, the query evaluator).
 */
export const MAX_PROPERTY_DEPTH = 16;
/** Bytes of one node's or edge's properties (as JSON): a record is read whole on every match. */
export const MAX_RECORD_BYTES = 1024 * 1024;

function checkProperties(where: Where, properties: unknown): asserts properties is Record<string, PropertyValue> {
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) fail(where, 'properties', 'properties must be an object');
  // An upper bound of the JSON's UTF-8 bytes (a code unit is at most 6 bytes escaped),
  // so that a record of scalars is cleared without serialising it; lists and maps are serialised.
  let bound = 2;
  for (const key in properties) {
    const value = (properties as Record<string, PropertyValue>)[key];
    if (value !== null && typeof value === 'object') {
      if (nestedDeeperThan(value, MAX_PROPERTY_DEPTH)) {
        throw new ValidationError('property_depth', `${where}: property '${key}' nests lists and maps more than ${MAX_PROPERTY_DEPTH} deep`, { record: String(where), field: key, limit: MAX_PROPERTY_DEPTH });
      }
      bound = Infinity;
    }
    bound += 6 * key.length + 4 + (typeof value === 'string' ? 6 * value.length + 2 : 24);
  }
  if (bound <= MAX_RECORD_BYTES) return;
  const bytes = Buffer.byteLength(JSON.stringify(properties));
  if (bytes > MAX_RECORD_BYTES) {
    throw new ValidationError('record_too_large', `${where}: properties take ${bytes} bytes as JSON, more than ${MAX_RECORD_BYTES}`, { record: String(where), field: 'properties', limit: MAX_RECORD_BYTES });
  }
}

/**
 * Checks a write's records against the ontology before anything is stored: kinds,
 * required properties, closed vocabularies, edge endpoints (which must exist in the graph
 * or in the same write). The first problem found rejects the whole write. The caller walks
 * the write, a record at a time, so that it can turn the event loop between slices and
 * merge each node as soon as it is checked.
 */
export class WriteChecker {
  private readonly nodeAt = new Where('nodes');
  private readonly edgeAt = new Where('edges');

  /** Node `i` of the write. */
  node(node: NodeInput, i: number): void {
    const where = this.nodeAt;
    where.index = i;
    checkCommon(where, node);
    if (!Array.isArray(node.labels) || node.labels.length === 0 || !node.labels.every(isId)) fail(where, 'kind', 'kind must be a non-empty string');
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
  }

  /**
   * Edge `i` of the write. `kindOf` gives the kind (labels[0]) of the node an end names
   * (undefined: no such node in the graph or the write); it is asked for end 0 (`from`), then
   * end 1 (`to`).
   */
  edge(edge: EdgeInput, i: number, kindOf: (nodeId: string, end: 0 | 1) => string | undefined): void {
    const where = this.edgeAt;
    where.index = i;
    checkCommon(where, edge);
    if (!isId(edge.type)) fail(where, 'type', 'type must be a non-empty string');
    if (!isId(edge.from)) fail(where, 'from', 'from must be a node id');
    if (!isId(edge.to)) fail(where, 'to', 'to must be a node id');
    if (edge.properties !== undefined) checkProperties(where, edge.properties);
    checkTypes(where, edge.properties, COMMON_PROPERTY_TYPES);
    const type = edge.type;
    const known = isEdgeType(type);
    if (known) checkTypes(where, edge.properties, EDGE_PROPERTY_TYPES[type]);
    const fromKind = kindOf(edge.from, 0);
    const toKind = kindOf(edge.to, 1);
    if (fromKind === undefined) fail(where, 'from', `from '${edge.from}' is not a node of this graph or of this import`);
    if (toKind === undefined) fail(where, 'to', `to '${edge.to}' is not a node of this graph or of this import`);
    if (!known) return;
    checkEnd(where, type, 'from', edge.from, fromKind);
    checkEnd(where, type, 'to', edge.to, toKind);
    const enums = EDGE_ENUM_PROPERTIES[type];
    for (const field in enums) checkEnum(where, field, edge.properties?.[field], enums[field]);
  }
}

/** Whether an edge of an ontology type may have a node of this kind at this end. */
export function endAllows(type: EdgeType, end: 'from' | 'to', kind: string): boolean {
  const allowed = EDGE_ENDPOINTS[type][end];
  return allowed === '*' || allowed.includes(kind as never);
}

/** That the node at one end of an edge of an ontology type is of a kind the type allows there. */
function checkEnd(where: Where, type: EdgeType, end: 'from' | 'to', id: string, kind: string): void {
  if (!endAllows(type, end, kind)) {
    const endpoints = EDGE_ENDPOINTS[type];
    fail(where, end, `${type} goes from ${listKinds(endpoints.from)} to ${listKinds(endpoints.to)}; '${id}' is a ${kind}`);
  }
}

function listKinds(kinds: readonly string[] | '*'): string {
  return kinds === '*' ? 'any node' : kinds.join(' or ');
}
