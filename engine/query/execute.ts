/**
 * Runs a compiled query: rows streamed clause to clause (MATCH joins,
 * OPTIONAL MATCH null-filling, UNWIND, projections with grouping and aggregation,
 * DISTINCT, ORDER BY, SKIP, LIMIT, UNION), within the query's limits.
 */
import type { NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import type { CompiledPart, CompiledProjection, CompiledQuery } from './build.ts';
import { createAccumulator, isCountStar } from './functions.ts';
import { Budget, approximateBytes, type QueryLimits } from './limits.ts';
import { type PerNodeCounts, type PerPairCounts, valueHolders } from './match.ts';
import type { PairSide } from './plan.ts';
import type { RuleSet } from './rules.ts';
import type { Env, Fn, Row } from './types.ts';
import { type CypherMap, type CypherValue, equivalenceKey, isNode, orderCompare, runtimeError, typeName } from './values.ts';
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

/** UNION's rows, each once: rows of one width, told apart as DISTINCT tells a projection's. */
function distinctRows(rows: CypherValue[][]): CypherValue[][] {
  const seen = new TupleMap<CypherValue[], true>(rows[0]?.length ?? 0, (row, i) => row[i]);
  return rows.filter((row) => seen.addIfNew(row));
}

/** Where a clause hands its rows: the next clause, or the answer. */
interface Sink {
  /** True: the sink wants no more rows (a page without ORDER BY is full), so what feeds it may stop. */
  push(row: Row): boolean | void;
  /**
   * Only on an aggregation's sink: a row that stands for `weight` rows (count pushdown),
   * and that is the match runner's own (copied if it starts a group).
   */
  pushCounted?(row: Row, weight: number, distinctSlot?: number): void;
  /** Only on an aggregation's sink: the rows binding each node in `slot` with a count there, each standing for that many rows. */
  pushPerNode?(counted: PerNodeCounts, slot: number): void;
  /** Only on an aggregation's sink: the rows binding each pair's two nodes in its sides' slots, each standing for the pair's count. */
  pushPerPair?(counted: PerPairCounts, sides: { source: PairSide; end: PairSide }): void;
  end(): void;
  /** The sink keeps nothing of a pushed row past the push (it copies what it keeps), so a MATCH may hand it its own live row. */
  copies?: boolean;
  /**
   * Only on a projection that sorts its rows and keeps a page of them: it and its page, so
   * that an aggregation feeding it may hand on only the groups that can reach that page.
   */
  sortedPage?: () => { projection: CompiledProjection; page: Page };
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
      const counted = clause.optional && !clause.count ? undefined : next.pushCounted?.bind(next);
      return {
        push(row) {
          if (counted) {
            const perPair = next.pushPerPair && clause.perPair?.count(row, env);
            if (perPair) return next.pushPerPair!(perPair, clause.perPair!.sides);
            if (clause.countGroups?.(row, env, counted)) return;
            const distinctSlot = clause.distinctSlot;
            const perNode = next.pushPerNode && clause.perNode?.count(row, env);
            if (perNode) next.pushPerNode!(perNode, clause.perNode!.slot);
            else if (clause.count) clause.count(row, env, (matched, count) => counted(matched, count, distinctSlot));
            else clause.run(row, env, (matched) => counted(matched, 1), true);
            return;
          }
          let matched = false;
          let full = false;
          clause.run(
            row,
            env,
            (result) => {
              matched = true;
              return (full = next.push(result) === true);
            },
            next.copies === true,
          );
          if (!matched && clause.optional) {
            const filled = row.slice();
            for (const slot of clause.newSlots) filled[slot] = null;
            return next.push(filled);
          }
          return full;
        },
        end: () => next.end(),
      };
    }
    case 'unwind':
      return {
        copies: true,
        push(row) {
          const value = clause.fn(row, env);
          const items = value === null ? [] : Array.isArray(value) ? value : [value];
          for (const item of items) {
            env.budget.tick();
            const extended = row.slice();
            extended[clause.slot] = item;
            if (next.push(extended) === true) return true;
          }
          return false;
        },
        end: () => next.end(),
      };
    case 'project': {
      const projection = clause.projection;
      const answer = (values: CypherValue[]) => {
        env.budget.chargeResponse(approximateBytes(values, env.budget.limits.responseBytes));
        output.push(values);
      };
      if (clause.final && !buffered(projection) && !projection.distinct && !projection.where) {
        // each answer row straight from the input row, with no projected copy of the row between
        return {
          copies: true,
          push(row) {
            env.budget.tick();
            answer(projection.items.map((item) => item.fn(row, env) ?? null));
          },
          end() {},
        };
      }
      const target: Sink = clause.final ? { push: (row) => answer(projection.items.map((item) => row[item.slot] ?? null)), end() {} } : next;
      // every projection copies the rows it hands on or keeps (projectRow, projectInto and a finisher's copies)
      return { ...projectSink(projection, target, env), copies: true };
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

/** Whether a projection needs its rows together: it aggregates, sorts or pages. */
function buffered(projection: CompiledProjection): boolean {
  return projection.aggregating || projection.orderBy.length > 0 || projection.skip !== undefined || projection.limit !== undefined;
}

/** A projection: rows pass straight through unless it is buffered. */
function projectSink(projection: CompiledProjection, next: Sink, env: Env): Sink {
  if (!buffered(projection)) {
    const isNew = distinctFilter(projection, env);
    return {
      push(row) {
        const out = projectRow(projection, row, env);
        if (!isNew(out)) return;
        if (projection.where && projection.where(out, env) !== true) return;
        return next.push(out);
      },
      end: () => next.end(),
    };
  }
  if (!projection.aggregating && projection.orderBy.length === 0) return pageSink(projection, next, env);
  if (projection.aggregating) {
    const aggregator = new Aggregator(projection, env);
    return {
      push: (row) => aggregator.add(row, 1, true),
      pushCounted: (row, weight, distinctSlot) => aggregator.add(row, weight, true, distinctSlot),
      pushPerNode: (counted, slot) => aggregator.addPerNode(counted, slot),
      pushPerPair: (counted, sides) => aggregator.addPerPair(counted, sides),
      end() {
        const page = pageOf(projection, env);
        const paged = page.skip > 0 || page.limit !== undefined;
        const after = next.sortedPage?.();
        const rows =
          aggregator.topRows(page) ??
          (after && aggregator.topRowsFor(after.projection, after.page)) ??
          finishProjection(projection, page, (visit) => aggregator.forEachRow(visit, !paged), env);
        for (const row of rows) next.push(row);
        next.end();
      },
    };
  }
  // each row projected into one reused row and offered as it comes: only what DISTINCT, the
  // sort (its heap, with LIMIT) or the page keeps is held, as copies, not every row of the match
  let finisher: ProjectionFinisher | undefined;
  // SKIP or LIMIT that cannot be read is raised after every row is projected, as when the rows were all held first
  let pageError: unknown;
  const finisherOrError = () => {
    if (!finisher && pageError === undefined) {
      try {
        finisher = projectionFinisher(projection, pageOf(projection, env), env);
      } catch (error) {
        pageError = error;
      }
    }
    return finisher;
  };
  const scratch: Row = [];
  return {
    sortedPage: projection.orderBy.length > 0 && projection.limit ? () => ({ projection, page: pageOf(projection, env) }) : undefined,
    push(row) {
      const projected = projectInto(scratch, projection, row, env);
      finisherOrError()?.offer(projected, false);
    },
    end() {
      const finished = finisherOrError();
      if (!finished) throw pageError;
      for (const row of finished.rows()) next.push(row);
      next.end();
    },
  };
}

/**
 * SKIP and LIMIT with no ORDER BY: the rows of the page pass as they come, and once it is full
 * the sink says so, so that the MATCH feeding it stops. The order of finishProjection: DISTINCT,
 * then the page, then WITH's WHERE over the page.
 */
function pageSink(projection: CompiledProjection, next: Sink, env: Env): Sink {
  const isNew = distinctFilter(projection, env);
  let page: Page | undefined;
  let seen = 0;
  return {
    push(row) {
      page ??= pageOf(projection, env);
      const end = page.limit === undefined ? Infinity : page.skip + page.limit;
      if (seen >= end) return true;
      const out = projectRow(projection, row, env);
      if (!isNew(out)) return false;
      seen++;
      if (seen > page.skip && (!projection.where || projection.where(out, env) === true) && next.push(out) === true) return true;
      return seen >= end;
    },
    end() {
      // SKIP and LIMIT are checked even when no row came
      pageOf(projection, env);
      next.end();
    },
  };
}

function projectRow(projection: CompiledProjection, row: Row, env: Env): Row {
  return withItems(row.slice(), projection, row, env);
}

/** `row` with the projection's items set, written into `out`, a row reused for each. */
function projectInto(out: Row, projection: CompiledProjection, row: Row, env: Env): Row {
  out.length = row.length;
  for (let i = 0; i < row.length; i++) out[i] = row[i];
  return withItems(out, projection, row, env);
}

function withItems(out: Row, projection: CompiledProjection, row: Row, env: Env): Row {
  env.budget.tick();
  for (const item of projection.items) out[item.slot] = item.fn(row, env);
  return out;
}

/** Projected rows, one at a time; `own` false: the row is reused for the next one, so it is copied if kept. */
type RowSource = (visit: (row: Row, own: boolean) => void) => void;

/**
 * DISTINCT: whether a projected row is the first with its values (every row is, without
 * DISTINCT). The values it keeps count against the cap on intermediate rows, in every path.
 */
function distinctFilter(projection: CompiledProjection, env: Env): (row: Row) => boolean {
  if (!projection.distinct) return () => true;
  const slots = projection.items.map((item) => item.slot);
  const seen = new TupleMap<Row, true>(slots.length, (row, i) => row[slots[i]] ?? null);
  return (row) => {
    if (!seen.addIfNew(row)) return false;
    if ((seen.size & 1023) === 0) env.budget.checkIntermediate(seen.size);
    return true;
  };
}

/** The rest of a tuple's keys past a level, while it is the only tuple there (TupleMap). */
class LoneSuffix<T> {
  constructor(readonly keys: string[], readonly entry: T) {}
}

/**
 * A map from tuples of values, kept as a tree with one level per position, each value by
 * its distinctKey: most DISTINCT columns and grouping keys are strings the graph already
 * holds, so a lookup costs a map read per value and builds no key of its own. A prefix
 * only one tuple has holds that tuple's remaining keys (a LoneSuffix) until a second
 * arrives, so a first column of distinct values costs one entry per tuple, not a map.
 * `valueAt(source, i)` reads the tuple's i-th value, once per lookup.
 */
class TupleMap<Source, T> {
  private readonly root = new Map<string, unknown>();
  private entries = 0;
  /** The values of the tuple last looked up, in order. */
  readonly values: CypherValue[];
  private readonly keys: string[];
  /** Where `add` stores the entry of the tuple last looked up: the level, its key there, and the position of that key. */
  private pendingLevel = this.root;
  private pendingKey = '';
  private pendingAt = 0;

  constructor(private readonly width: number, private readonly valueAt: (source: Source, i: number) => CypherValue) {
    this.values = new Array(width);
    this.keys = new Array(width);
  }

  get size(): number {
    return this.entries;
  }

  /** The entry of the tuple `source` holds, or undefined; readies `add` for that tuple. */
  lookUp(source: Source): T | undefined {
    const { keys, width } = this;
    for (let i = 0; i < width; i++) keys[i] = distinctKey((this.values[i] = this.valueAt(source, i)));
    let level = this.root;
    for (let i = 0; i < width; i++) {
      const next = level.get(keys[i]);
      if (i === width - 1 || next === undefined) return this.pending(level, i, next as T | undefined);
      if (next instanceof LoneSuffix) {
        if (sameKeys(next.keys, keys, i + 1)) return next.entry as T;
        // a second tuple with this prefix: the lone one moves a level down
        const branch = new Map<string, unknown>([[next.keys[0], next.keys.length === 1 ? next.entry : new LoneSuffix(next.keys.slice(1), next.entry)]]);
        level.set(keys[i], branch);
        level = branch;
      } else level = next as Map<string, unknown>;
    }
    return this.pending(level, 0, level.get('') as T | undefined);
  }

  /** Stores `entry` for the tuple last looked up, which had none. */
  add(entry: T): void {
    const rest = this.pendingAt + 1 < this.width ? this.keys.slice(this.pendingAt + 1) : undefined;
    this.pendingLevel.set(this.pendingKey, rest ? new LoneSuffix(rest, entry) : entry);
    this.entries++;
  }

  /** Whether the tuple `source` holds is new, added if so (a set of tuples). */
  addIfNew(this: TupleMap<Source, true>, source: Source): boolean {
    if (this.lookUp(source)) return false;
    this.add(true);
    return true;
  }

  private pending(level: Map<string, unknown>, at: number, found: T | undefined): T | undefined {
    this.pendingLevel = level;
    this.pendingAt = at;
    this.pendingKey = this.width === 0 ? '' : this.keys[at];
    return found;
  }
}

function sameKeys(suffix: readonly string[], keys: readonly string[], from: number): boolean {
  for (let i = 0; i < suffix.length; i++) if (suffix[i] !== keys[from + i]) return false;
  return true;
}

/** A value as a key among others of its position: a string (not starting with U+0000) stands for itself; any other value is that character and its equivalence key. */
function distinctKey(value: CypherValue): string {
  return typeof value === 'string' && value.charCodeAt(0) !== 0 ? value : '\0' + equivalenceKey(value);
}

interface Page {
  skip: number;
  limit: number | undefined;
}

/** SKIP and LIMIT: expressions over no variables, known before any row. */
function pageOf(projection: CompiledProjection, env: Env): Page {
  return {
    skip: projection.skip ? countArgument(projection.skip([], env), 'SKIP') : 0,
    limit: projection.limit ? countArgument(projection.limit([], env), 'LIMIT') : undefined,
  };
}

/**
 * DISTINCT, ORDER BY (a bounded heap when LIMIT keeps fewer rows than come: a row is
 * copied only when the heap takes it), SKIP, LIMIT and WITH's WHERE over projected rows.
 */
function finishProjection(projection: CompiledProjection, page: Page, source: RowSource, env: Env): Row[] {
  const finisher = projectionFinisher(projection, page, env);
  source(finisher.offer);
  return finisher.rows();
}

/** finishProjection's work with the rows offered one at a time, as a projection's input makes them. */
interface ProjectionFinisher {
  /** `own` false: the row is reused for the next one, so it is copied if kept. */
  offer(row: Row, own: boolean): void;
  /** The rows kept, in order; once, after the last offer. */
  rows(): Row[];
}

function projectionFinisher(projection: CompiledProjection, { skip, limit }: Page, env: Env): ProjectionFinisher {
  const isNew = distinctFilter(projection, env);
  // the rows it holds while they come (the sort's, the page's) are bounded as a MATCH's are; DISTINCT bounds its own
  let offered = 0;
  const checkHeld = (count: number) => {
    if ((++offered & 1023) === 0) env.budget.checkIntermediate(count);
  };
  if (projection.orderBy.length > 0) {
    type Keyed = { row: Row; index: number; keys: CypherValue[] };
    // ties keep their input order, as a stable sort would
    const compare = (a: Keyed, b: Keyed) => {
      env.budget.tick();
      for (let i = 0; i < projection.orderBy.length; i++) {
        const result = orderCompare(a.keys[i], b.keys[i]);
        if (result !== 0) return projection.orderBy[i].descending ? -result : result;
      }
      return a.index - b.index;
    };
    const heap = limit === undefined ? undefined : new BoundedHeap<Keyed>(skip + limit, compare);
    const keyed: Keyed[] = [];
    // a row's sort keys go into one reused candidate first: only what is kept is allocated
    const scratch: Keyed = { row: [], index: 0, keys: new Array(projection.orderBy.length) };
    let index = 0;
    return {
      offer(row, own) {
        checkHeld(heap ? heap.size : keyed.length);
        if (!isNew(row)) return;
        if (projection.aggregating) env.aggregateValues = row[projection.aggregateSlot] as CypherValue[];
        scratch.row = row;
        scratch.index = index++;
        for (let i = 0; i < projection.orderBy.length; i++) scratch.keys[i] = sortValue(projection.orderBy[i].fn(row, env));
        if (heap && !heap.admits(scratch)) return;
        const candidate = { row: own ? row : row.slice(), index: scratch.index, keys: scratch.keys.slice() };
        if (heap) heap.offer(candidate);
        else keyed.push(candidate);
      },
      rows: () => pagedAndFiltered(projection, (heap ? heap.sorted() : keyed.sort(compare)).map(({ row }) => row), skip, limit, env),
    };
  }
  // with no page to take first, WITH's WHERE drops a row before it is copied
  const where = skip === 0 && limit === undefined ? projection.where : undefined;
  const kept: Row[] = [];
  return {
    offer(row, own) {
      checkHeld(kept.length);
      if (isNew(row) && (!where || where(row, env) === true)) kept.push(own ? row : row.slice());
    },
    rows: () => (where ? kept : pagedAndFiltered(projection, kept, skip, limit, env)),
  };
}

/** The page of sorted or distinct rows, then WITH's WHERE over it. */
function pagedAndFiltered(projection: CompiledProjection, rows: Row[], skip: number, limit: number | undefined, env: Env): Row[] {
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

/** The `k` least items offered, by `compare`: a max-heap of the k least so far, so n items cost n log k. */
class BoundedHeap<T> {
  private readonly heap: T[] = [];

  constructor(readonly k: number, private readonly compare: (a: T, b: T) => number) {}

  /** Whether the heap holds k items, k > 0. */
  get full(): boolean {
    return this.heap.length > 0 && this.heap.length >= this.k;
  }

  /** How many items it keeps now. */
  get size(): number {
    return this.heap.length;
  }

  /** The greatest item kept (the first to go); only when some is. */
  get greatest(): T {
    return this.heap[0];
  }

  /** Whether `item` would be kept, were it offered now. */
  admits(item: T): boolean {
    return this.k > 0 && (this.heap.length < this.k || this.compare(item, this.heap[0]) < 0);
  }

  /** Keeps `item`, which `admits` has let in, dropping the greatest when full. */
  offer(item: T): void {
    const { heap, compare } = this;
    if (heap.length < this.k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (compare(heap[i], heap[parent]) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
      return;
    }
    heap[0] = item;
    for (let i = 0; ;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let largest = i;
      if (left < heap.length && compare(heap[left], heap[largest]) > 0) largest = left;
      if (right < heap.length && compare(heap[right], heap[largest]) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest], heap[i]];
      i = largest;
    }
  }

  sorted(): T[] {
    return this.heap.sort(this.compare);
  }
}

/**
 * What `heap` keeps of the groups, offered in `order` (group numbers; undefined: every group in
 * turn), a group's count at group × stride: with the count as the first sort key (`sign`, its
 * direction; 0 when another key leads), a group behind the heap's greatest on it stays out
 * without a comparison, and `passes` (WITH's WHERE on the count) drops a group before the heap
 * sees it. One loop for topRows and topRowsFor, compiled hot whichever form of a question runs.
 */
function keepTop(heap: BoundedHeap<number>, counts: ArrayLike<number>, stride: number, order: Int32Array | undefined, sign: number, budget: Budget, passes?: (count: number) => boolean): number[] {
  const end = order ? order.length : counts.length / stride;
  // with the count first, the count the heap's last place will hold, found on counts alone: a group
  // tied with it is compared on the other keys, which are read for it; one worse stays out unread
  let last = NaN;
  if (sign !== 0) {
    const best = new BoundedHeap<number>(heap.k, (a, b) => sign * (a - b));
    for (let i = 0; i < end; i++) {
      const count = counts[(order ? order[i] : i) * stride];
      // WHERE asked only of a count the heap would take: once it is full, of few
      if (best.admits(count) && (!passes || passes(count))) best.offer(count);
    }
    if (best.full) last = best.greatest;
  }
  for (let i = 0; i < end; i++) {
    const group = order ? order[i] : i;
    const count = counts[group * stride];
    budget.tick();
    if (sign * (count - last) > 0) continue;
    if ((!passes || passes(count)) && heap.admits(group)) heap.offer(group);
  }
  return heap.sorted();
}

/**
 * Counts a MATCH handed per node or per pair, kept as it counted them and read in place
 * (Aggregator.addPerNode, addPerPair): a group is a number, its count at that number.
 */
interface KeptCounts {
  counts: ArrayLike<number>;
  /** The groups in the order the rows would have begun them (the counted nodes); undefined: as numbered. */
  order?: Int32Array;
  /** By group, its place in `order`, where that is not ascending: what ties are broken by. */
  rank?: Int32Array;
  /** `row` binding what the group's keys are read off: its node, or its pair's two. */
  bind(group: number, row: Row): Row;
}

/**
 * The groups of an aggregating projection, filled one input row at a time. When every
 * aggregate is a plain count(*), the counts live in one flat array (group × aggregate)
 * and a row may stand for many (`weight`, from count pushdown); otherwise each group
 * holds one accumulator per aggregate. Grouping values live in one flat array (group ×
 * key), a single string key is its own Map key, and a group keeps a copy of its first
 * row only when its output row is built from it (CompiledProjection.groupsKeepFirstRow):
 * a group is a few array slots, not objects for the collector to trace.
 */
class Aggregator {
  private readonly keyItems: CompiledProjection['items'];
  /** The items that are not grouping keys. */
  private readonly valueItems: CompiledProjection['items'];
  /** Groups by their single string key; by the node's id when the groups are nodes (CompiledProjection.groupKeySlot); by equivalence key otherwise; by their keys' tuple when there are several. */
  private readonly stringGroups = new Map<string, number>();
  private readonly nodeGroups = new Map<string, number>();
  private readonly otherGroups = new Map<string, number>();
  private tupleGroups: TupleMap<Row, number> | undefined;
  private readonly keyValues: CypherValue[] = [];
  private readonly firstRows: Row[] | undefined;
  private groupCount = 0;
  private readonly counts: number[] | undefined;
  private readonly accumulators: ReturnType<typeof createAccumulator>[][] = [];
  /** Counts kept as a MATCH counted them (addPerNode, addPerPair): the groups are the nodes or pairs with a count. */
  private kept: KeptCounts | undefined;
  /** A row keptKey binds a group's node or nodes in, refilled. */
  private readonly keyRow: Row = [];

  constructor(private readonly projection: CompiledProjection, private readonly env: Env) {
    this.keyItems = projection.groupingItems.map((i) => projection.items[i]);
    this.valueItems = projection.items.filter((_, i) => !projection.groupingItems.includes(i));
    const countsOnly = projection.aggregates.every(isCountStar);
    this.counts = countsOnly ? [] : undefined;
    this.firstRows = projection.groupsKeepFirstRow ? [] : undefined;
  }

  /**
   * `live`: the row is the match runner's own, copied if it starts a group.
   * `distinctSlot`: every row comes with a different node in this slot; when the groups
   * are that slot's nodes, each row starts a group of its own, and no map is kept.
   */
  add(row: Row, weight: number, live: boolean, distinctSlot?: number): void {
    const { env, keyItems } = this;
    env.budget.tick();
    let group: number | undefined;
    let groupKey: string | undefined;
    const nodeSlot = this.projection.groupKeySlot;
    const node = nodeSlot === undefined ? undefined : row[nodeSlot];
    if (distinctSlot !== undefined && distinctSlot === nodeSlot) {
      group = this.open(null, this.keysOf(row), row, live);
    } else if (node && isNode(node)) {
      // grouped by the node: its other keys are read when its group begins
      group = this.nodeGroups.get(node.$node.id);
      if (group === undefined) this.nodeGroups.set(node.$node.id, (group = this.open(null, this.keysOf(row), row, live)));
    } else if (keyItems.length === 1) {
      const key = keyItems[0].fn(row, env);
      if (typeof key === 'string') group = this.stringGroups.get(key);
      else group = this.otherGroups.get((groupKey = equivalenceKey(key)));
      if (group === undefined) group = this.open(groupKey, key, row, live);
    } else {
      const groups = (this.tupleGroups ??= new TupleMap(keyItems.length, (row, i) => keyItems[i].fn(row, env)));
      group = groups.lookUp(row);
      if (group === undefined) groups.add((group = this.open(null, groups.values.slice(), row, live)));
    }
    const aggregates = this.projection.aggregates;
    if (this.counts) {
      for (let i = 0, at = group * aggregates.length; i < aggregates.length; i++) this.counts[at + i] += weight;
      return;
    }
    if (weight !== 1) throw new Error('only count(*) takes weighted rows');
    const accumulators = this.accumulators[group];
    for (let i = 0; i < aggregates.length; i++) accumulators[i].add(aggregates[i].args.map((arg) => arg(row, this.env)));
  }

  /** The single key's value, or the keys' values when there are several. */
  private keysOf(row: Row): CypherValue[] | CypherValue {
    const { keyItems, env } = this;
    return keyItems.length === 1 ? keyItems[0].fn(row, env) : keyItems.map((item) => item.fn(row, env));
  }

  /**
   * `keys`: the single key's value, or the keys' values when there are several.
   * `groupKey` undefined: the group's key is the single string key; null: no row will look the group up.
   */
  private open(groupKey: string | undefined | null, keys: CypherValue[] | CypherValue, row: Row, live: boolean): number {
    const group = this.groupCount++;
    if (groupKey === undefined) this.stringGroups.set(keys as string, group);
    else if (groupKey !== null) this.otherGroups.set(groupKey, group);
    if (this.keyItems.length === 1) this.keyValues.push(keys as CypherValue);
    else for (const key of keys as CypherValue[]) this.keyValues.push(key);
    this.firstRows?.push(live ? row.slice() : row);
    const aggregates = this.projection.aggregates;
    if (this.counts) for (let i = 0; i < aggregates.length; i++) this.counts.push(0);
    else this.accumulators.push(aggregates.map((spec) => createAccumulator(spec.name, spec.distinct, spec.star, this.env.budget)));
    if ((this.groupCount & 1023) === 0) this.env.budget.checkIntermediate(this.groupCount);
    return group;
  }

  /**
   * A MATCH's counts per dense node (MatchClause.denseCount), each node with a count its
   * own group in node order, as the counting runner would have handed them. Kept as they
   * are when the groups are those nodes and hold plain counts only, for topRows; made
   * groups otherwise, and at the first other read.
   */
  addPerNode(counted: PerNodeCounts, slot: number): void {
    this.env.budget.checkIntermediate(this.groupCount + counted.nodes.length);
    if (this.counts && !this.firstRows && !this.kept && this.groupCount === 0) {
      const { groupKeySlot, groupProperty } = this.projection;
      const kept = slot === groupKeySlot ? counted : slot === groupProperty?.slot ? this.foldPerValue(counted, groupProperty.key) : undefined;
      if (kept) {
        this.kept = { counts: kept.counts, order: kept.nodes, rank: kept.rank, bind: (node, row) => this.nodeRow(node, slot, row) };
        return;
      }
    }
    this.openPerNode(counted, slot);
  }

  /**
   * A MATCH's counts per pair of groups (MatchClause.perPair), each pair its own group, in the
   * order the rows would first make them, kept as they are: no group is made, and a pair's keys
   * are read off its two nodes only when compared or output.
   */
  addPerPair(counted: PerPairCounts, { source, end }: { source: PairSide; end: PairSide }): void {
    // the planner (plan.ts countPerPair) counts pairs for the part's first clause, which runs once, under plain counts
    if (!this.counts || this.firstRows || this.kept || this.groupCount !== 0) throw new Error('invariant broken: pairs counted for an aggregation that holds groups or more than counts');
    // (the pairs were counted against the cap on intermediate rows as they were made, at the groups' cadence)
    const graph = this.env.graph;
    // a side grouped by a property is read for that value alone: one binding, refilled, serves every
    // pair; a side grouped by its node has the binding itself for its key, so each read binds its own
    const sourceBinding = source.key === undefined ? undefined : { $node: undefined as unknown as NodeRecord };
    const endBinding = end.key === undefined ? undefined : { $node: undefined as unknown as NodeRecord };
    const bind = (pair: number, row: Row): Row => {
      const sourceNode = graph.nodeAt(counted.sourceNodes[pair])!;
      const endNode = graph.nodeAt(counted.endNodes[pair])!;
      if (sourceBinding) (row[source.slot] = sourceBinding).$node = sourceNode;
      else row[source.slot] = { $node: sourceNode };
      if (endBinding) (row[end.slot] = endBinding).$node = endNode;
      else row[end.slot] = { $node: endNode };
      return row;
    };
    this.kept = { counts: counted.counts, bind };
  }

  /**
   * Counts per node folded, in place, into counts per value of the node's property `key`:
   * each value's count on the first counted node holding it (in node order, where
   * openPerNode would begin its group), the nodes folded into another left out of the
   * counted list, so that the groups are again the counted nodes, and a group's key is read
   * off its node. Values are told apart by the node first holding each
   * (GraphIndex.firstHoldersOf), so no group is made, no row built, no record read and no
   * value hashed; counted nodes without the key fold into one group (null). Undefined, the
   * counts untouched, when a node holds a list or a map there, or the key is one a record
   * answers from its own fields.
   */
  private foldPerValue({ counts, nodes, rank }: PerNodeCounts, key: string): PerNodeCounts | undefined {
    const holders = valueHolders(this.env.graph, key);
    if (!holders) return undefined;
    // by first holder (the nodes without the key: the slot after the last node), the first counted node holding the same value
    const firstCounted = new Int32Array(counts.length + 1).fill(-1);
    let kept = 0;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const holder = holders[node] < 0 ? counts.length : holders[node];
      const first = firstCounted[holder];
      if (first < 0) {
        firstCounted[holder] = node;
        nodes[kept++] = node;
      } else {
        counts[first] += counts[node];
        counts[node] = 0;
      }
    }
    return { counts, nodes: nodes.subarray(0, kept), rank };
  }

  private openPerNode({ counts, nodes }: PerNodeCounts, slot: number): void {
    // without first rows a group keeps no input row: one row serves every node
    const reused: Row | undefined = this.firstRows ? undefined : [];
    for (let i = 0; i < nodes.length; i++) this.add(this.nodeRow(nodes[i], slot, reused), counts[nodes[i]], false, slot);
  }

  /**
   * Each group's output row, in the order the groups began; without first rows, in one reused row (`own` false).
   * `unpaged`: no SKIP or LIMIT comes before WITH's WHERE, so a group that fails it may be left out.
   */
  forEachRow(visit: (row: Row, own: boolean) => void, unpaged: boolean): void {
    // (counts are kept only where no row makes a group: addPerNode, addPerPair)
    if (this.kept) {
      // the groups are the nodes or pairs with a count, in the order the rows would have begun them
      const [reused, bound]: Row[] = [[], []];
      const { counts, order } = this.kept;
      const passes = unpaged ? this.countPasses() : undefined;
      const end = order ? order.length : counts.length;
      for (let i = 0; i < end; i++) {
        const group = order ? order[i] : i;
        if (passes && !passes(counts[group])) continue;
        this.env.budget.tick();
        visit(this.keptGroupRow(group, reused, bound), false);
      }
      return;
    }
    // with no grouping keys, an empty input still gives one row (count(*) = 0)
    if (this.groupCount === 0 && this.keyItems.length === 0) this.open(null, [], [], false);
    const reused: Row = [];
    for (let group = 0; group < this.groupCount; group++) visit(this.rowOf(group, reused), this.firstRows !== undefined);
  }

  /**
   * ORDER BY … LIMIT straight over the flat counts, when every sort key is a grouping key,
   * a count(*) or an expression of the projected names (`id(a)` of a projected node `a`): a
   * bounded heap of group numbers (or, with counts per node, node ids), so that only the
   * groups kept get an output row (and their counts an integer), an expression read off the
   * row of a group compared, once. Ties go to the group that began first, as in
   * finishProjection, which sees the groups in that order. Undefined when the projection
   * needs finishProjection.
   */
  topRows({ skip, limit }: Page): Row[] | undefined {
    const { projection, keyItems, counts, keyValues, kept, env } = this;
    if (!counts || this.firstRows || limit === undefined || projection.distinct || keyItems.length === 0) return undefined;
    // per sort key what it reads: a grouping key, the count (every other item is a count(*), having
    // no first rows) or an expression of the group's row
    type SortKey = ({ kind: 'group'; key: number } | { kind: 'count' } | { kind: 'expr' }) & { descending: boolean; fn: Fn };
    const keys: SortKey[] = [];
    for (const { slot, descending, fn } of projection.orderBy) {
      if (slot === undefined) {
        keys.push({ kind: 'expr', descending, fn });
        continue;
      }
      const item = projection.items.findIndex((item) => item.slot === slot);
      if (item < 0) return undefined;
      const key = projection.groupingItems.indexOf(item);
      keys.push(key < 0 ? { kind: 'count', descending, fn } : { kind: 'group', key, descending, fn });
    }
    const width = projection.aggregates.length;
    const keyWidth = keyItems.length;
    // a group's count is at group × stride
    const [countAt, stride] = kept ? [kept.counts, 1] : [counts, width];
    const keyOf = kept ? (group: number, key: number) => this.keptKey(group, key) : (group: number, key: number) => keyValues[group * keyWidth + key] ?? null;
    // the values of the expression keys of the groups compared so far, each group's row built once.
    // Only groups the heap compares are evaluated: a key that would raise a runtime error (an
    // integer `/ 0`) raises none when a single group is never compared, where finishProjection,
    // which evaluates every row's keys, would raise it
    const computed = new Map<number, CypherValue[]>();
    const [row, bound]: Row[] = [[], []];
    const computedOf = (group: number) => {
      let values = computed.get(group);
      if (!values) {
        const groupRow = kept ? this.keptGroupRow(group, row, bound) : this.rowOf(group, row);
        computed.set(group, (values = keys.map((key) => (key.kind === 'expr' ? sortValue(key.fn(groupRow, env)) : null))));
      }
      return values;
    };
    // ties go to the group that began first: with counts per node, the node counted first
    const rank = kept?.rank;
    const compare = (a: number, b: number): number => {
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const result = key.kind === 'count' ? countAt[a * stride] - countAt[b * stride] : key.kind === 'expr' ? orderCompare(computedOf(a)[i], computedOf(b)[i]) : orderCompare(keyOf(a, key.key), keyOf(b, key.key));
        if (result !== 0) return key.descending ? -result : result;
      }
      return rank ? rank[a] - rank[b] : a - b;
    };
    const heap = new BoundedHeap<number>(skip + limit, compare);
    const sign = keys.length > 0 && keys[0].kind === 'count' ? (keys[0].descending ? -1 : 1) : 0;
    // the groups in the order they began: with counts per node, the counted nodes
    const top = keepTop(heap, countAt, stride, kept?.order, sign, env.budget);
    const rows = top.slice(skip).map((group) => (kept ? this.keptGroupRow(group, []) : this.rowOf(group, [])));
    // WITH's WHERE filters the page, as in finishProjection
    const where = projection.where;
    return where ? rows.filter((row) => where(row, env) === true) : rows;
  }

  /**
   * The groups that can reach the page of `next`, the projection these groups feed, when
   * that sorts its items and keeps a page (no DISTINCT, WHERE or aggregate), this one has
   * no sort or page of its own and its groups hold plain counts: a bounded heap of groups
   * by `next`'s sort keys, a key read off the counts where it is a `count(*)` item of this
   * projection, and otherwise off the group's row (counts per node) or its kept key (other
   * groups, whose sort keys must then each be a grouping key or a count), so that a group
   * behind the heap on a leading count gets no row. WITH's WHERE, when it reads counts alone,
   * drops a group first. The rows come in `next`'s order, ties in the order the groups began
   * (as forEachRow hands them on), and `next` sorts and pages them as ever. Undefined when
   * that does not hold.
   */
  topRowsFor(next: CompiledProjection, { skip, limit }: Page): Row[] | undefined {
    const { projection, kept, counts, env } = this;
    if (!counts || this.firstRows || limit === undefined || next.aggregating || next.distinct || next.where) return undefined;
    if (projection.orderBy.length > 0 || projection.skip || projection.limit || projection.distinct) return undefined;
    const passes = this.countPasses();
    if (projection.where && !passes) return undefined;
    if (next.sortItems.includes(undefined)) return undefined;
    const keys = next.sortItems.map((key, i) => {
      const { item, inputSlot } = key!;
      const count = inputSlot !== undefined && projection.countSlots.includes(inputSlot);
      const grouping = inputSlot === undefined ? -1 : this.keyItems.findIndex((keyItem) => keyItem.slot === inputSlot);
      return { count, grouping, fn: next.items[item].fn, descending: next.orderBy[i].descending };
    });
    // other groups: each sort key a grouping key or a count, and some grouping key (without one, no input still makes a group)
    const byKeys = keys.every((key) => key.count || key.grouping >= 0);
    if (!kept && (this.keyItems.length === 0 || !byKeys)) return undefined;
    // a group's count is at group × stride
    const [countAt, stride] = kept ? [kept.counts, 1] : [counts, projection.aggregates.length];
    // kept counts sorted by other keys: the sort keys of the groups compared lately, each read off the group's row
    // once; cleared as it outgrows the heap, since a group the heap turned away is not compared again (the heap's
    // own, read again after a clear, cost at most skip + limit rows each time)
    const known = new Map<number, CypherValue[]>();
    const [row, bound]: Row[] = [[], []];
    const keyWidth = this.keyItems.length;
    const keyOf = !kept
      ? (group: number, i: number) => this.keyValues[group * keyWidth + keys[i].grouping] ?? null
      : byKeys
        ? (group: number, i: number) => this.keptKey(group, keys[i].grouping)
        : (group: number, i: number) => {
          let values = known.get(group);
          if (!values) {
            if (known.size > 4 * (skip + limit) + 64) known.clear();
            this.keptGroupRow(group, row, bound);
            known.set(group, (values = keys.map((key) => (key.count ? null : key.fn(row, env) ?? null))));
          }
          return values[i];
        };
    const rank = kept?.rank;
    const compare = (a: number, b: number): number => {
      for (let i = 0; i < keys.length; i++) {
        const result = keys[i].count ? countAt[a * stride] - countAt[b * stride] : orderCompare(keyOf(a, i), keyOf(b, i));
        if (result !== 0) return keys[i].descending ? -result : result;
      }
      return rank ? rank[a] - rank[b] : a - b;
    };
    const heap = new BoundedHeap<number>(skip + limit, compare);
    const sign = keys[0].count ? (keys[0].descending ? -1 : 1) : 0;
    return keepTop(heap, countAt, stride, kept?.order, sign, env.budget, passes).map((group) => (kept ? this.keptGroupRow(group, []) : this.rowOf(group, [])));
  }

  /**
   * Whether a group of `count` passes WITH's WHERE, when that depends on the count alone
   * (CompiledProjection.whereCountSlots): decided once per count, so that a group that
   * fails gets no row. finishProjection still filters the rows that pass.
   */
  private countPasses(): ((count: number) => boolean) | undefined {
    const { where, whereCountSlots } = this.projection;
    if (!where || !whereCountSlots) return undefined;
    // by count (whole numbers, mostly small: an array's index, not a hashed key)
    const decided: (boolean | undefined)[] = [];
    const row: Row = [];
    return (count) => {
      let passes = decided[count];
      if (passes === undefined) {
        const value = BigInt(count);
        for (const slot of whereCountSlots) row[slot] = value;
        decided[count] = passes = where(row, this.env) === true;
      }
      return passes;
    };
  }

  /** A grouping key of a kept group: the key item on a row binding only the group's node or nodes. */
  private keptKey(group: number, key: number): CypherValue {
    return this.keyItems[key].fn(this.kept!.bind(group, this.keyRow), this.env) ?? null;
  }

  /** The output row of a kept group, in `out`: its keys, read off its node or nodes now, and its counts. */
  private keptGroupRow(group: number, out: Row, bound: Row = []): Row {
    const { keyItems, kept } = this;
    kept!.bind(group, bound);
    for (const item of keyItems) out[item.slot] = item.fn(bound, this.env) ?? null;
    return this.finishRow(out, new Array(this.projection.aggregates.length).fill(BigInt(kept!.counts[group])));
  }

  /** A row binding only the dense `node`, in `slot`: `row` when given, refilled. */
  private nodeRow(node: number, slot: number, row: Row = []): Row {
    row[slot] = { $node: this.env.graph.nodeAt(node)! };
    return row;
  }

  /** The output row of `group`: a copy of its first row, or `reused` refilled. */
  private rowOf(group: number, reused: Row): Row {
    const { projection, keyItems } = this;
    const width = projection.aggregates.length;
    const first = this.firstRows?.[group];
    const out = first ? first.slice() : reused;
    const values: CypherValue[] = new Array(width);
    for (let i = 0; i < width; i++) values[i] = this.counts ? BigInt(this.counts[group * width + i]) : this.accumulators[group][i].result();
    for (let i = 0; i < keyItems.length; i++) out[keyItems[i].slot] = this.keyValues[group * keyItems.length + i];
    return this.finishRow(out, values, first);
  }

  /** `out` with its grouping keys: the aggregate values and the items computed from them (or from the group's first row). */
  private finishRow(out: Row, values: CypherValue[], first?: Row): Row {
    this.env.aggregateValues = values;
    out[this.projection.aggregateSlot] = values;
    for (const item of this.valueItems) out[item.slot] = item.fn(first ?? out, this.env);
    return out;
  }
}
