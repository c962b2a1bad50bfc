/**
 * Runs a compiled query: rows streamed clause to clause (MATCH joins,
 * OPTIONAL MATCH null-filling, UNWIND, projections with grouping and aggregation,
 * DISTINCT, ORDER BY, SKIP, LIMIT, UNION), within the query's limits.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { CompiledPart, CompiledProjection, CompiledQuery } from './build.ts';
import { createAccumulator } from './functions.ts';
import { Budget, approximateBytes, type QueryLimits } from './limits.ts';
import type { RuleSet } from './rules.ts';
import type { Env, Row } from './types.ts';
import { type CypherMap, type CypherValue, equivalenceKey, orderCompare, runtimeError, typeName } from './values.ts';
import { ValidationError } from '../errors.ts';
import { isIsoInstant } from '../store/validate.ts';

export interface ExecuteOptions {
  parameters: Record<string, unknown>;
  limits: QueryLimits;
  asOf?: string;
  allowWrites: boolean;
  rules?: RuleSet;
}

export interface ExecutionResult {
  columns: string[];
  rows: CypherValue[][];
}

/** Parameters arrive as JSON-like values: whole numbers are integers, bigint stays integer. */
export function parameterValue(value: unknown): CypherValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'bigint' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(parameterValue);
  if (typeof value === 'object') {
    if ('$node' in value || '$rel' in value || '$path' in value) return value as CypherValue;
    const map: CypherMap = {};
    for (const [key, item] of Object.entries(value)) map[key] = parameterValue(item);
    return map;
  }
  throw new ValidationError('query_parameter_type', `parameter of type ${typeof value} is not supported`);
}

function normaliseAsOf(asOf: string | undefined): string | undefined {
  if (asOf === undefined) return undefined;
  const time = Date.parse(asOf);
  if (Number.isNaN(time) || !isIsoInstant(asOf)) throw new ValidationError('invalid_as_of', `as_of '${asOf}' is not an ISO 8601 date-time`, { field: 'as_of' });
  return new Date(time).toISOString();
}

export function executeQuery(query: CompiledQuery, graph: GraphIndex, options: ExecuteOptions): ExecutionResult {
  const params: Record<string, CypherValue> = {};
  for (const [name, value] of Object.entries(options.parameters)) params[name] = parameterValue(value);
  const env: Env = {
    graph,
    params,
    budget: new Budget(options.limits),
    asOf: normaliseAsOf(options.asOf),
    rules: options.rules,
    aggregateValues: [],
  };
  let rows = runPart(query.parts[0], env);
  for (let i = 1; i < query.parts.length; i++) {
    rows = rows.concat(runPart(query.parts[i], env));
    if (!query.unionAll[i - 1]) rows = distinctRows(rows);
  }
  env.budget.checkRows(rows.length);
  return { columns: query.parts[0].columns, rows };
}

function distinctRows(rows: CypherValue[][]): CypherValue[][] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = equivalenceKey(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Where a clause hands its rows: the next clause, or the answer. */
interface Sink {
  push(row: Row): void;
  /**
   * Only on an aggregation's sink: a row that stands for `weight` rows (count pushdown),
   * and that is the match runner's own (`live`: copied if it starts a group).
   */
  pushCounted?(row: Row, weight: number, live: boolean): void;
  end(): void;
}

/**
 * Rows flow through the clauses one at a time, so that nothing holds every row of an
 * intermediate result unless the query needs them together (ORDER BY, SKIP/LIMIT,
 * CREATE): an aggregate sees each row as it is made, and its limits stop a query
 * before the rows that would feed it pile up.
 */
function runPart(part: CompiledPart, env: Env): CypherValue[][] {
  const output: CypherValue[][] = [];
  let sink: Sink = { push: () => {}, end: () => {} };
  for (let i = part.clauses.length - 1; i >= 0; i--) sink = clauseSink(part.clauses[i], sink, env, output);
  sink.push([]);
  sink.end();
  return output;
}

function clauseSink(clause: CompiledPart['clauses'][number], next: Sink, env: Env, output: CypherValue[][]): Sink {
  switch (clause.kind) {
    case 'match': {
      // a MATCH feeding an aggregation hands it the runner's own rows (or counts), never copies
      const counted = clause.optional ? undefined : next.pushCounted?.bind(next);
      return {
        push(row) {
          if (counted) {
            if (clause.count) clause.count(row, env, (matched, count) => counted(matched, count, true));
            else clause.run(row, env, (matched) => counted(matched, 1, true), true);
            return;
          }
          let matched = false;
          clause.run(row, env, (result) => {
            matched = true;
            next.push(result);
          });
          if (!matched && clause.optional) {
            const filled = row.slice();
            for (const slot of clause.newSlots) filled[slot] = null;
            next.push(filled);
          }
        },
        end: () => next.end(),
      };
    }
    case 'unwind':
      return {
        push(row) {
          const value = clause.fn(row, env);
          const items = value === null ? [] : Array.isArray(value) ? value : [value];
          for (const item of items) {
            env.budget.tick();
            const extended = row.slice();
            extended[clause.slot] = item;
            next.push(extended);
          }
        },
        end: () => next.end(),
      };
    case 'project': {
      const projection = clause.projection;
      const target: Sink = clause.final
        ? {
            push(row) {
              const values = projection.items.map((item) => row[item.slot] ?? null);
              env.budget.chargeResponse(approximateBytes(values, env.budget.limits.responseBytes));
              output.push(values);
            },
            end() {},
          }
        : next;
      return projectSink(projection, target, env);
    }
    case 'create': {
      // every CREATE of the clause before any later clause reads the graph
      const rows: Row[] = [];
      return {
        push: (row) => void rows.push(row),
        end() {
          for (const row of rows) clause.run(row, env);
          for (const row of rows) next.push(row);
          next.end();
        },
      };
    }
  }
}

/** A projection: rows pass straight through unless it aggregates, sorts or pages. */
function projectSink(projection: CompiledProjection, next: Sink, env: Env): Sink {
  const buffered = projection.aggregating || projection.orderBy.length > 0 || projection.skip !== undefined || projection.limit !== undefined;
  if (!buffered) {
    const seen = projection.distinct ? new Set<string>() : undefined;
    return {
      push(row) {
        const out = projectRow(projection, row, env);
        if (seen) {
          const key = equivalenceKey(projection.items.map((item) => out[item.slot] ?? null));
          if (seen.has(key)) return;
          seen.add(key);
        }
        if (projection.where && projection.where(out, env) !== true) return;
        next.push(out);
      },
      end: () => next.end(),
    };
  }
  if (projection.aggregating) {
    const aggregator = new Aggregator(projection, env);
    return {
      push: (row) => aggregator.add(row, 1, false),
      pushCounted: (row, weight, live) => aggregator.add(row, weight, live),
      end() {
        for (const row of finishProjection(projection, aggregator.rows(), env)) next.push(row);
        next.end();
      },
    };
  }
  const rows: Row[] = [];
  return {
    push(row) {
      rows.push(projectRow(projection, row, env));
      if ((rows.length & 1023) === 0) env.budget.checkIntermediate(rows.length);
    },
    end() {
      for (const row of finishProjection(projection, rows, env)) next.push(row);
      next.end();
    },
  };
}

function projectRow(projection: CompiledProjection, row: Row, env: Env): Row {
  env.budget.tick();
  const out = row.slice();
  for (const item of projection.items) out[item.slot] = item.fn(row, env);
  return out;
}

/** DISTINCT, ORDER BY (a bounded heap when LIMIT keeps fewer rows than there are), SKIP, LIMIT and WITH's WHERE over projected rows. */
function finishProjection(projection: CompiledProjection, projected: Row[], env: Env): Row[] {
  let rows = projected;
  // SKIP and LIMIT are expressions over no variables: known before sorting
  const skip = projection.skip ? countArgument(projection.skip(rows[0] ?? [], env), 'SKIP') : 0;
  const limit = projection.limit ? countArgument(projection.limit(rows[0] ?? [], env), 'LIMIT') : undefined;
  if (projection.distinct) {
    const seen = new Set<string>();
    rows = rows.filter((row) => {
      const key = equivalenceKey(projection.items.map((item) => row[item.slot] ?? null));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (projection.orderBy.length > 0) {
    const keyed = rows.map((row, index) => {
      if (projection.aggregating) env.aggregateValues = row[projection.aggregateSlot] as CypherValue[];
      return { row, index, keys: projection.orderBy.map((sort) => sortValue(sort.fn(row, env))) };
    });
    // ties keep their input order, as a stable sort would
    const compare = (a: (typeof keyed)[number], b: (typeof keyed)[number]) => {
      env.budget.tick();
      for (let i = 0; i < projection.orderBy.length; i++) {
        const result = orderCompare(a.keys[i], b.keys[i]);
        if (result !== 0) return projection.orderBy[i].descending ? -result : result;
      }
      return a.index - b.index;
    };
    const kept = limit === undefined ? Infinity : skip + limit;
    rows = (kept < keyed.length ? smallest(keyed, kept, compare) : keyed.sort(compare)).map(({ row }) => row);
  }
  if (skip > 0 || limit !== undefined) rows = rows.slice(skip, limit === undefined ? undefined : skip + limit);
  if (projection.where) {
    const where = projection.where;
    rows = rows.filter((row) => where(row, env) === true);
  }
  return rows;
}

function sortValue(value: CypherValue): CypherValue {
  return value === undefined ? null : value;
}

function countArgument(value: CypherValue, clause: string): number {
  if (typeof value !== 'bigint') {
    throw runtimeError('SyntaxError', 'InvalidArgumentType', `${clause} needs a non-negative integer, got ${typeName(value)}`);
  }
  if (value < 0n) throw runtimeError('SyntaxError', 'NegativeIntegerArgument', `${clause} needs a non-negative integer, got ${value}`);
  return Number(value);
}

/** A single string key needs no escaping: its 's' prefix already sets it apart from every other key. */
function scalarGroupKey(value: CypherValue): string {
  return typeof value === 'string' ? 's' + value : equivalenceKey(value);
}

/** The `k` least items by `compare`, in order: a max-heap of the k least seen so far, so n items cost n log k. */
function smallest<T>(items: T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k === 0) return [];
  const heap: T[] = [];
  const siftDown = (from: number) => {
    for (let i = from; ;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let largest = i;
      if (left < heap.length && compare(heap[left], heap[largest]) > 0) largest = left;
      if (right < heap.length && compare(heap[right], heap[largest]) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest], heap[i]];
      i = largest;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (compare(heap[i], heap[parent]) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (compare(item, heap[0]) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}

/**
 * The groups of an aggregating projection, filled one input row at a time. When every
 * aggregate is a plain count(*), the counts live in one flat array (group × aggregate)
 * and a row may stand for many (`weight`, from count pushdown); otherwise each group
 * holds one accumulator per aggregate.
 */
class Aggregator {
  private readonly keyItems: CompiledProjection['items'];
  private readonly groups = new Map<string, number>();
  private readonly firstRows: Row[] = [];
  private readonly keys: CypherValue[][] = [];
  private readonly counts: number[] | undefined;
  private readonly accumulators: ReturnType<typeof createAccumulator>[][] = [];

  constructor(private readonly projection: CompiledProjection, private readonly env: Env) {
    this.keyItems = projection.groupingItems.map((i) => projection.items[i]);
    const countsOnly = projection.aggregates.every((spec) => spec.star && !spec.distinct && spec.name.toLowerCase() === 'count');
    this.counts = countsOnly ? [] : undefined;
  }

  /** `live`: the row is the match runner's own, copied if it starts a group. */
  add(row: Row, weight: number, live: boolean): void {
    const { env, keyItems } = this;
    env.budget.tick();
    let keys: CypherValue[];
    let groupKey: string;
    if (keyItems.length === 1) {
      keys = [keyItems[0].fn(row, env)];
      groupKey = scalarGroupKey(keys[0]);
    } else {
      keys = keyItems.map((item) => item.fn(row, env));
      groupKey = keyItems.length === 0 ? '' : equivalenceKey(keys);
    }
    let group = this.groups.get(groupKey);
    if (group === undefined) group = this.open(groupKey, live ? row.slice() : row, keys);
    const aggregates = this.projection.aggregates;
    if (this.counts) {
      for (let i = 0, at = group * aggregates.length; i < aggregates.length; i++) this.counts[at + i] += weight;
      return;
    }
    if (weight !== 1) throw new Error('only count(*) takes weighted rows');
    const accumulators = this.accumulators[group];
    for (let i = 0; i < aggregates.length; i++) accumulators[i].add(aggregates[i].args.map((arg) => arg(row, this.env)));
  }

  private open(groupKey: string, row: Row, keys: CypherValue[]): number {
    const group = this.firstRows.length;
    this.groups.set(groupKey, group);
    this.firstRows.push(row);
    this.keys.push(keys);
    const aggregates = this.projection.aggregates;
    if (this.counts) for (let i = 0; i < aggregates.length; i++) this.counts.push(0);
    else this.accumulators.push(aggregates.map((spec) => createAccumulator(spec.name, spec.distinct, spec.star, this.env.budget)));
    if ((this.firstRows.length & 1023) === 0) this.env.budget.checkIntermediate(this.firstRows.length);
    return group;
  }

  rows(): Row[] {
    const { projection, env, keyItems } = this;
    // with no grouping keys, an empty input still gives one row (count(*) = 0)
    if (this.firstRows.length === 0 && keyItems.length === 0) this.open('', [], []);
    const width = projection.aggregates.length;
    const rows: Row[] = [];
    for (let group = 0; group < this.firstRows.length; group++) {
      const first = this.firstRows[group];
      const out = first.slice();
      env.aggregateValues = this.counts
        ? this.counts.slice(group * width, (group + 1) * width).map((count) => BigInt(count))
        : this.accumulators[group].map((accumulator) => accumulator.result());
      out[projection.aggregateSlot] = env.aggregateValues;
      keyItems.forEach((item, i) => (out[item.slot] = this.keys[group][i]));
      projection.items.forEach((item, i) => {
        if (!projection.groupingItems.includes(i)) out[item.slot] = item.fn(first, env);
      });
      rows.push(out);
    }
    return rows;
  }
}
