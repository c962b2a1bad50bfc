/**
 * Every query is bounded. Defaults, chosen so that a runaway query answers within
 * seconds instead of holding the event loop or the heap:
 * - QUERY_TIME_LIMIT_MS: wall-clock budget, checked inside join loops (503 `query_time_limit`).
 * - ROW_CAP: rows a query may return (400 `query_row_cap`: narrow the query or add LIMIT).
 * - INTERMEDIATE_ROW_CAP: rows a clause may hold at once: a projection's sorted rows (all of
 *   them, or its heap's with LIMIT), its groups when it aggregates, and the values DISTINCT keeps,
 *   each counted alone; rows that stream through a clause count against the time limit (503 `query_intermediate_rows`).
 * - INFERENCE_LIMIT: Prolog inferences for rule predicates (503 `query_inference_limit`).
 * - MAX_VARIABLE_LENGTH: the upper bound assumed for `*` and `*n..` (longer paths are not explored).
 * - COLLECTION_LIMIT: elements of any one list a query builds (collect(), range(),
 *   comprehensions, list concatenation), checked as it grows (400 `query_collection_limit`).
 * - RESPONSE_LIMIT_BYTES: size of the answer as JSON, estimated as rows and lists are
 *   built, so that neither the worker nor the serialiser ever holds an answer past it
 *   (400 `query_response_limit`).
 * - MAX_QUERY_NESTING: brackets, braces, parentheses and CASE open at once in the query text
 *   (400 `query_nesting_depth`); the parser recurses once per level and overflows the
 *   stack near 200.
 * - MAX_EXPRESSION_DEPTH: depth of the parsed query (chains such as `NOT NOT …` or
 *   `a + b + …`), 400 `query_expression_depth`; analysis recurses per level and overflows
 *   near 4,000.
 * - MAX_PARAMETER_DEPTH: nesting of lists and maps in `parameters` (400 `query_parameter_depth`).
 */
import { LimitError, ValidationError } from '../errors.ts';
import { nestedDeeperThan } from '../input-checks.ts';
import { isNode, isPath, isRel, type CypherValue } from './values.ts';

export const QUERY_TIME_LIMIT_MS = 5_000;
export const ROW_CAP = 10_000;
export const INTERMEDIATE_ROW_CAP = 1_000_000;
export const INFERENCE_LIMIT = 20_000_000;
export const MAX_VARIABLE_LENGTH = 32;
export const COLLECTION_LIMIT = 100_000;
export const RESPONSE_LIMIT_BYTES = 16 * 1024 * 1024;
export const MAX_QUERY_NESTING = 64;
export const MAX_EXPRESSION_DEPTH = 1_000;
export const MAX_PARAMETER_DEPTH = 32;

export interface QueryLimits {
  timeLimitMs: number;
  rowCap: number;
  intermediateRowCap: number;
  inferenceLimit: number;
  maxVariableLength: number;
  collectionLimit: number;
  responseBytes: number;
}

/** The operator setting that raises each limit a client can run into (server/config.ts reads them). */
export const LIMIT_SETTINGS = {
  rowCap: 'PARLEY_QUERY_ROW_LIMIT',
  collectionLimit: 'PARLEY_QUERY_COLLECTION_LIMIT',
  responseBytes: 'PARLEY_QUERY_RESPONSE_LIMIT_BYTES',
  timeLimitMs: 'PARLEY_QUERY_TIMEOUT_MS',
} as const;

export const DEFAULT_LIMITS: QueryLimits = {
  timeLimitMs: QUERY_TIME_LIMIT_MS,
  rowCap: ROW_CAP,
  intermediateRowCap: INTERMEDIATE_ROW_CAP,
  inferenceLimit: INFERENCE_LIMIT,
  maxVariableLength: MAX_VARIABLE_LENGTH,
  collectionLimit: COLLECTION_LIMIT,
  responseBytes: RESPONSE_LIMIT_BYTES,
};

/** Counts work and throws once a budget is spent. One per query run. */
export class Budget {
  private readonly deadline: number;
  private ticks = 0;
  private responseBytes = 0;

  constructor(readonly limits: QueryLimits) {
    this.deadline = Date.now() + limits.timeLimitMs;
  }

  /** Cheap enough for inner loops: reads the clock every 1024 calls. */
  tick(): void {
    if ((++this.ticks & 1023) === 0) this.checkTime();
  }

  checkTime(): void {
    if (Date.now() > this.deadline) {
      throw new LimitError('query_time_limit', `the query ran past its time limit of ${this.limits.timeLimitMs} ms`, {
        limit_ms: this.limits.timeLimitMs,
        setting: LIMIT_SETTINGS.timeLimitMs,
      });
    }
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  checkIntermediate(count: number): void {
    if (count > this.limits.intermediateRowCap) {
      throw new LimitError('query_intermediate_rows', `the query built more than ${this.limits.intermediateRowCap} intermediate rows`, {
        limit: this.limits.intermediateRowCap,
      });
    }
  }

  checkRows(count: number): void {
    if (count > this.limits.rowCap) {
      throw new ValidationError('query_row_cap', `the query returns more than ${this.limits.rowCap} rows; add LIMIT or narrow the pattern`, {
        limit: this.limits.rowCap,
        setting: LIMIT_SETTINGS.rowCap,
      });
    }
  }

  /** A list grown to `size` elements. */
  checkCollection(size: number): void {
    if (size > this.limits.collectionLimit) {
      throw new ValidationError('query_collection_limit', `the query builds a list of more than ${this.limits.collectionLimit} elements; aggregate less, or ask the operator to raise ${LIMIT_SETTINGS.collectionLimit}`, {
        limit: this.limits.collectionLimit,
        setting: LIMIT_SETTINGS.collectionLimit,
      });
    }
  }

  /** One value of `bytes` (as JSON) held for the answer; a list under construction counts whole, as it grows. */
  checkValueBytes(bytes: number): void {
    if (bytes > this.limits.responseBytes) this.responseTooLarge();
  }

  /** A row of the answer, added to what the answer holds already. */
  chargeResponse(bytes: number): void {
    this.responseBytes += bytes;
    if (this.responseBytes > this.limits.responseBytes) this.responseTooLarge();
  }

  private responseTooLarge(): never {
    throw new ValidationError('query_response_limit', `the answer would be larger than ${this.limits.responseBytes} bytes; return less (LIMIT, fewer columns, aggregates), or ask the operator to raise ${LIMIT_SETTINGS.responseBytes}`, {
      limit_bytes: this.limits.responseBytes,
      setting: LIMIT_SETTINGS.responseBytes,
    });
  }
}

const recordBytes = new WeakMap<object, number>();

/**
 * About how many bytes `value` takes as JSON in an answer, computed without recursion;
 * stops counting past `cap`. A node or relationship counts its stored record, measured
 * once.
 */
export function approximateBytes(value: CypherValue, cap = Number.MAX_SAFE_INTEGER): number {
  // a scalar, or a row of scalars (the usual answer row), is summed without the stack
  const scalar = scalarBytes(value);
  if (scalar >= 0) return scalar;
  if (Array.isArray(value)) {
    let flat = 2 + value.length;
    for (let i = 0; i < value.length && flat >= 0; i++) {
      const bytes = scalarBytes(value[i]);
      flat = bytes < 0 ? -1 : flat + bytes;
    }
    if (flat >= 0) return flat;
  }
  let total = 0;
  const stack: CypherValue[] = [value];
  while (stack.length > 0 && total <= cap) {
    const item = stack.pop()!;
    const scalar = scalarBytes(item);
    if (scalar >= 0) total += scalar;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const child of item) stack.push(child);
    } else if (isNode(item) || isRel(item)) total += storedBytes(isNode(item) ? item.$node : item.$rel);
    else if (isPath(item)) {
      for (const node of item.$path.nodes) total += storedBytes(node);
      for (const rel of item.$path.rels) total += storedBytes(rel);
    } else {
      for (const [key, child] of Object.entries(item)) {
        total += key.length + 4;
        stack.push(child);
      }
    }
  }
  return total;
}

/** The bytes of a null, boolean, string or number; -1 for anything else. */
function scalarBytes(value: CypherValue): number {
  if (value === null || typeof value === 'boolean') return 5;
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'bigint') return 12;
  return -1;
}

function storedBytes(record: object): number {
  let bytes = recordBytes.get(record);
  if (bytes === undefined) recordBytes.set(record, (bytes = JSON.stringify(record).length));
  return bytes;
}

/** Parameters nested past MAX_PARAMETER_DEPTH are refused before anything walks them. */
export function checkParameters(parameters: Record<string, unknown> | undefined): void {
  if (parameters !== undefined && nestedDeeperThan(parameters, MAX_PARAMETER_DEPTH + 1)) {
    throw new ValidationError('query_parameter_depth', `parameters nest lists and maps more than ${MAX_PARAMETER_DEPTH} deep`, {
      field: 'parameters',
      limit: MAX_PARAMETER_DEPTH,
    });
  }
}
