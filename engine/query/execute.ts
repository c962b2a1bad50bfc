/**
 * Runs a compiled query: clause after clause over materialised rows (MATCH joins,
 * OPTIONAL MATCH null-filling, UNWIND, projections with grouping and aggregation,
 * DISTINCT, ORDER BY, SKIP, LIMIT, UNION), within the query's limits.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { CompiledPart, CompiledProjection, CompiledQuery } from './build.ts';
import { createAccumulator } from './functions.ts';
import { Budget, approximateBytes, type QueryLimits } from './limits.ts';
import type { RuleRegistry } from './rules.ts';
import type { Env, Row } from './types.ts';
import { type CypherMap, type CypherValue, equivalenceKey, orderCompare, runtimeError, typeName } from './values.ts';
import { ValidationError } from '../errors.ts';
import { isIsoInstant } from '../store/validate.ts';

export interface ExecuteOptions {
  parameters: Record<string, unknown>;
  limits: QueryLimits;
  asOf?: string;
  allowWrites: boolean;
  rules?: RuleRegistry;
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
    case 'match':
      return {
        push(row) {
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
  const aggregation = projection.aggregating ? new Aggregation(projection, env) : undefined;
  const rows: Row[] = [];
  return {
    push(row) {
      if (aggregation) aggregation.add(row);
      else {
        rows.push(projectRow(projection, row, env));
        if ((rows.length & 1023) === 0) env.budget.checkIntermediate(rows.length);
      }
    },
    end() {
      for (const row of finishProjection(projection, aggregation ? aggregation.rows() : rows, env)) next.push(row);
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

/** DISTINCT, ORDER BY, SKIP, LIMIT and WITH … WHERE over a projection's rows. */
function finishProjection(projection: CompiledProjection, input: Row[], env: Env): Row[] {
  let rows = input;
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
    const keyed = rows.map((row) => {
      if (projection.aggregating) env.aggregateValues = row[projection.aggregateSlot] as CypherValue[];
      return { row, keys: projection.orderBy.map((sort) => sortValue(sort.fn(row, env))) };
    });
    keyed.sort((a, b) => {
      env.budget.tick();
      for (let i = 0; i < projection.orderBy.length; i++) {
        const result = orderCompare(a.keys[i], b.keys[i]);
        if (result !== 0) return projection.orderBy[i].descending ? -result : result;
      }
      return 0;
    });
    rows = keyed.map(({ row }) => row);
  }
  const skip = projection.skip ? countArgument(projection.skip(rows[0] ?? [], env), 'SKIP') : 0;
  const limit = projection.limit ? countArgument(projection.limit(rows[0] ?? [], env), 'LIMIT') : undefined;
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

type Group = { row: Row; keys: CypherValue[]; accumulators: ReturnType<typeof createAccumulator>[] };

/** Grouping and aggregation, one input row at a time. */
class Aggregation {
  private readonly groups = new Map<string, Group>();
  private readonly keyItems: CompiledProjection['items'];

  constructor(
    private readonly projection: CompiledProjection,
    private readonly env: Env,
  ) {
    this.keyItems = projection.groupingItems.map((i) => projection.items[i]);
  }

  add(row: Row): void {
    const { env, keyItems, projection } = this;
    env.budget.tick();
    const keys = keyItems.map((item) => item.fn(row, env));
    const groupKey = keyItems.length === 0 ? '' : keyItems.length === 1 ? scalarGroupKey(keys[0]) : equivalenceKey(keys);
    let group = this.groups.get(groupKey);
    if (!group) {
      group = { row, keys, accumulators: this.newAccumulators() };
      this.groups.set(groupKey, group);
      if ((this.groups.size & 1023) === 0) env.budget.checkIntermediate(this.groups.size);
    }
    projection.aggregates.forEach((spec, i) => group!.accumulators[i].add(spec.args.map((arg) => arg(row, env))));
  }

  rows(): Row[] {
    const { env, keyItems, projection, groups } = this;
    // with no grouping keys, an empty input still gives one row (count(*) = 0)
    if (groups.size === 0 && keyItems.length === 0) groups.set('', { row: [], keys: [], accumulators: this.newAccumulators() });
    const rows: Row[] = [];
    for (const group of groups.values()) {
      const out = group.row.slice();
      env.aggregateValues = group.accumulators.map((accumulator) => accumulator.result());
      out[projection.aggregateSlot] = env.aggregateValues;
      keyItems.forEach((item, i) => (out[item.slot] = group.keys[i]));
      projection.items.forEach((item, i) => {
        if (!projection.groupingItems.includes(i)) out[item.slot] = item.fn(group.row, env);
      });
      rows.push(out);
    }
    return rows;
  }

  private newAccumulators(): Group['accumulators'] {
    return this.projection.aggregates.map((spec) => createAccumulator(spec.name, spec.distinct, spec.star, this.env.budget));
  }
}
