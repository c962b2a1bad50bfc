/**
 * Cypher values and their semantics: equality (three-valued), comparison,
 * the global sort order of ORDER BY, and equivalence for DISTINCT and grouping.
 *
 * Representation: integers are `bigint` (64-bit range enforced by arithmetic),
 * floats are `number`, so `1` and `1.0` stay different; lists are arrays; maps
 * are plain objects; graph elements are wrappers `{ $node }`, `{ $rel }`, `{ $path }`.
 * Stored property numbers come back as integers when they are whole (JSON keeps
 * no difference between 1 and 1.0).
 */
import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import { QueryError } from '../errors.ts';

export interface NodeValue {
  $node: NodeRecord;
}
export interface RelValue {
  $rel: EdgeRecord;
}
export interface PathValue {
  $path: { nodes: NodeRecord[]; rels: EdgeRecord[] };
}
export interface CypherMap {
  [key: string]: CypherValue;
}
export type CypherValue = null | boolean | bigint | number | string | CypherValue[] | NodeValue | RelValue | PathValue | CypherMap;

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

export function isNode(value: CypherValue): value is NodeValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$node' in value;
}
export function isRel(value: CypherValue): value is RelValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$rel' in value;
}
export function isPath(value: CypherValue): value is PathValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$path' in value;
}
export function isMap(value: CypherValue): value is CypherMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('$node' in value) && !('$rel' in value) && !('$path' in value);
}
export function isNumber(value: CypherValue): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

export function typeName(value: CypherValue): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'boolean':
      return 'BOOLEAN';
    case 'bigint':
      return 'INTEGER';
    case 'number':
      return 'FLOAT';
    case 'string':
      return 'STRING';
  }
  if (Array.isArray(value)) return 'LIST';
  if (isNode(value)) return 'NODE';
  if (isRel(value)) return 'RELATIONSHIP';
  if (isPath(value)) return 'PATH';
  return 'MAP';
}

/** A runtime type error in the shape the TCK names (`TypeError: InvalidArgumentType` and the like). */
export function runtimeError(tckType: string, tckDetail: string, message: string): QueryError {
  return QueryError.tck(tckType, tckDetail, message, { line: 0, column: 0 }, { phase: 'runtime' });
}

export function fromProperty(value: PropertyValue | undefined): CypherValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(fromProperty);
  if (typeof value === 'object') {
    const map: CypherMap = {};
    for (const [key, item] of Object.entries(value)) map[key] = fromProperty(item);
    return map;
  }
  return value;
}

/** Converts a value for storage as a property; graph elements cannot be stored. */
export function toProperty(value: CypherValue): PropertyValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toProperty);
  if (isMap(value)) {
    const map: Record<string, PropertyValue> = {};
    for (const [key, item] of Object.entries(value)) map[key] = toProperty(item);
    return map;
  }
  throw runtimeError('TypeError', 'InvalidPropertyType', `a ${typeName(value)} cannot be stored as a property`);
}

/** Keys a record answers from its own fields when it has no such property (nodeProperty, relProperty): always known. */
export const RECORD_FIELD_KEYS: ReadonlySet<string> = new Set(['confidence']);

export function nodeProperty(node: NodeRecord, key: string): CypherValue {
  const value = node.properties[key];
  if (value === undefined && key === 'confidence' && !Object.hasOwn(node.properties, 'confidence') && node.provenance.length > 0) {
    return node.confidence;
  }
  return fromProperty(value);
}

export function relProperty(edge: EdgeRecord, key: string): CypherValue {
  const value = edge.properties[key];
  if (value === undefined && key === 'confidence' && edge.provenance.length > 0) return edge.confidence;
  return fromProperty(value);
}

// ---- equality ----

/** Cypher `=`: true, false, or null when the answer is unknown. */
export function equals(left: CypherValue, right: CypherValue): boolean | null {
  if (left === null || right === null) return null;
  if (isNumber(left) && isNumber(right)) return numericCompare(left, right) === 0;
  if (typeof left !== typeof right) return false;
  if (typeof left !== 'object') return left === right;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    let unknown = false;
    for (let i = 0; i < left.length; i++) {
      const result = equals(left[i], (right as CypherValue[])[i]);
      if (result === false) return false;
      if (result === null) unknown = true;
    }
    return unknown ? null : true;
  }
  if (Array.isArray(right)) return false;
  if (isNode(left)) return isNode(right) && left.$node.id === right.$node.id;
  if (isRel(left)) return isRel(right) && left.$rel.id === right.$rel.id;
  if (isPath(left)) {
    if (!isPath(right)) return false;
    const a = left.$path;
    const b = right.$path;
    return a.nodes.length === b.nodes.length && a.rels.length === b.rels.length &&
      a.nodes.every((node, i) => node.id === b.nodes[i].id) && a.rels.every((rel, i) => rel.id === b.rels[i].id);
  }
  if (!isMap(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  let unknown = false;
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key)) return false;
    const result = equals(left[key], right[key]);
    if (result === false) return false;
    if (result === null) unknown = true;
  }
  return unknown ? null : true;
}

function numericCompare(left: number | bigint, right: number | bigint): number {
  if (typeof left === 'bigint' && typeof right === 'bigint') return left < right ? -1 : left > right ? 1 : 0;
  const a = Number(left);
  const b = Number(right);
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === b && typeof left !== typeof right) {
    // a float equal to an integer after rounding: compare exactly through bigint when whole
    const float = typeof left === 'number' ? left : (right as number);
    const integer = typeof left === 'bigint' ? left : (right as bigint);
    if (Number.isInteger(float)) {
      const difference = BigInt(float) - integer;
      const sign = difference < 0n ? -1 : difference > 0n ? 1 : 0;
      return typeof left === 'number' ? sign : -sign;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Cypher `<` and friends: a number below 0, 0, above 0, or null when incomparable. NaN beside a
 * number gives NaN, under which every one of `<`, `<=`, `>`, `>=` is false (the TCK's Comparison2).
 */
export function compare(left: CypherValue, right: CypherValue): number | null {
  if (left === null || right === null) return null;
  if (isNumber(left) && isNumber(right)) return numericCompare(left, right);
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  if (Array.isArray(left) && Array.isArray(right)) {
    for (let i = 0; i < Math.min(left.length, right.length); i++) {
      const result = compare(left[i], right[i]);
      if (result === null) return null;
      if (result !== 0) return result;
    }
    return left.length - right.length;
  }
  return null;
}

// ---- the global order of ORDER BY (openCypher orderability) ----

function orderRank(value: CypherValue): number {
  if (value === null) return 9;
  switch (typeof value) {
    case 'string':
      return 5;
    case 'boolean':
      return 6;
    case 'number':
    case 'bigint':
      return 7;
  }
  if (Array.isArray(value)) return 3;
  if (isNode(value)) return 1;
  if (isRel(value)) return 2;
  if (isPath(value)) return 4;
  return 0;
}

/** A total order over every value: maps, nodes, relationships, lists, paths, strings, booleans, numbers, null. */
export function orderCompare(left: CypherValue, right: CypherValue): number {
  const rankLeft = orderRank(left);
  const rankRight = orderRank(right);
  if (rankLeft !== rankRight) return rankLeft - rankRight;
  switch (rankLeft) {
    case 9:
      return 0;
    case 7: {
      const leftNaN = typeof left === 'number' && Number.isNaN(left);
      const rightNaN = typeof right === 'number' && Number.isNaN(right);
      if (leftNaN || rightNaN) return Number(leftNaN) - Number(rightNaN);
      return numericCompare(left as number | bigint, right as number | bigint);
    }
    case 5:
    case 6:
      return compare(left, right) ?? 0;
    case 3: {
      const a = left as CypherValue[];
      const b = right as CypherValue[];
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        const result = orderCompare(a[i], b[i]);
        if (result !== 0) return result;
      }
      return a.length - b.length;
    }
    case 1:
      return compareIds((left as NodeValue).$node.id, (right as NodeValue).$node.id);
    case 2:
      return compareIds((left as RelValue).$rel.id, (right as RelValue).$rel.id);
    case 4: {
      const a = (left as PathValue).$path;
      const b = (right as PathValue).$path;
      return orderCompare(
        a.nodes.map((node) => ({ $node: node })),
        b.nodes.map((node) => ({ $node: node })),
      );
    }
    default: {
      const a = left as CypherMap;
      const b = right as CypherMap;
      const keysA = Object.keys(a).sort();
      const keysB = Object.keys(b).sort();
      const byKeys = orderCompare(keysA, keysB);
      if (byKeys !== 0) return byKeys;
      return orderCompare(keysA.map((key) => a[key]), keysB.map((key) => b[key]));
    }
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A key equal for equivalent values (DISTINCT, grouping): null ≡ null, 1 ≡ 1.0. */
export function equivalenceKey(value: CypherValue): string {
  if (value === null) return 'N';
  switch (typeof value) {
    case 'boolean':
      return value ? 'T' : 'F';
    case 'bigint':
      return 'n' + value.toString();
    case 'number':
      return Number.isInteger(value) ? 'n' + BigInt(value).toString() : 'n' + String(value);
    case 'string':
      return 's' + JSON.stringify(value);
  }
  if (Array.isArray(value)) return '[' + value.map(equivalenceKey).join(',') + ']';
  if (isNode(value)) return 'V' + value.$node.id;
  if (isRel(value)) return 'E' + value.$rel.id;
  if (isPath(value)) return 'P' + value.$path.nodes.map((node) => node.id).join('|') + '/' + value.$path.rels.map((rel) => rel.id).join('|');
  const map = value as CypherMap;
  return '{' + Object.keys(map).sort().map((key) => JSON.stringify(key) + ':' + equivalenceKey(map[key])).join(',') + '}';
}

// ---- three-valued logic ----

export function truthValue(value: CypherValue): boolean | null {
  if (value === null || typeof value === 'boolean') return value;
  throw runtimeError('TypeError', 'InvalidArgumentType', `expected a boolean, got ${typeName(value)}`);
}

export function and(left: boolean | null, right: boolean | null): boolean | null {
  if (left === false || right === false) return false;
  if (left === null || right === null) return null;
  return true;
}
export function or(left: boolean | null, right: boolean | null): boolean | null {
  if (left === true || right === true) return true;
  if (left === null || right === null) return null;
  return false;
}
export function xor(left: boolean | null, right: boolean | null): boolean | null {
  if (left === null || right === null) return null;
  return left !== right;
}
