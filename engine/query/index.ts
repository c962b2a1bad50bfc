/**
 * The query engine's public interface (DESIGN.md decision 2).
 *
 * Pipeline: lexer.ts → parser.ts (AST) → semantic.ts (openCypher's compile-time
 * errors) → normalise.ts (equivalent forms written as the one the planner knows) →
 * bind.ts (variables to slots) → plan.ts (the query as one plan: each
 * MATCH an ordered conjunction of Prolog goals, in the join order planner.ts picks
 * from GraphIndex statistics) → build.ts (the plan's goals as join steps and
 * closures) → execute.ts (indexed joins, match.ts; Cypher expression semantics,
 * aggregation, ORDER BY/SKIP/LIMIT). `explain` prints the same plan (explain.ts).
 * Rule predicates (WHERE `reaches(a, b)` for a loaded rule module) run in
 * SWI-Prolog (swipl-wasm) through engine/prolog/bridge.ts, in whichever thread holds
 * the RuleRegistry passed as `rules` (the server's reasoning workers); this module
 * itself never loads the engine.
 *
 * - `parseQuery(text)` → QueryAst; throws QueryError with line/column.
 * - `runQuery(graph, text, options)` → QueryResult, SYNCHRONOUSLY (the Prolog bridge
 *   solves synchronously, bounded by the inference and time limits); with notifications
 *   (notifications.ts) when it names a label, relationship type or property key the graph
 *   holds none of.
 * - `applyCreateForTests(graph, text, parameters)`: the test-only writer (the TCK
 *   runner's setup scripts). It runs the full engine with CREATE enabled
 *   (`allowWrites: true`), so setup scripts may use MATCH, WITH, UNWIND too.
 *   The public endpoints never pass allowWrites.
 *
 * Values (CypherValue, values.ts): null | boolean | bigint (INTEGER) | number
 * (FLOAT) | string | CypherValue[] | map (plain object) | { $node: NodeRecord } |
 * { $rel: EdgeRecord } | { $path: { nodes: NodeRecord[]; rels: EdgeRecord[] } }.
 *
 * Errors: QueryError (400) for compile-time and runtime query errors. `code` is
 * the TCK detail in snake_case (`undefined_variable` for
 * `SyntaxError.UndefinedVariable`, `invalid_argument_type`) and `details` carries `tck_type`,
 * `tck_detail` and `phase` ('compile' | 'runtime'); compile-time errors carry the
 * line and column. LimitError (503) / ValidationError (400, row cap) when a
 * limit of limits.ts is hit.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { QueryAst } from './ast.ts';
import { parse, tooComplex } from './parser.ts';
import { analyse } from './semantic.ts';
import { planQuery, type QueryPlan } from './plan.ts';
import { buildQuery, type CompiledQuery } from './build.ts';
import { executeQuery } from './execute.ts';
import { explainQuery } from './explain.ts';
import { schemaNotifications, type QueryNotification } from './notifications.ts';
import { DEFAULT_LIMITS, checkParameters, type QueryLimits } from './limits.ts';
import type { RuleSet } from './rules.ts';
import type { CypherValue } from './values.ts';

export type { QueryAst } from './ast.ts';
export type { CypherValue, NodeValue, RelValue, PathValue, CypherMap } from './values.ts';
export { isNode, isRel, isPath, isMap } from './values.ts';
export type { QueryLimits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type { RuleSet } from './rules.ts';
export type { QueryNotification } from './notifications.ts';

export interface QueryOptions {
  parameters?: Record<string, unknown>;
  limits?: Partial<QueryLimits>;
  /** ISO 8601: nodes and edges recorded after this instant are invisible. */
  as_of?: string;
  /** Test-only: lets CREATE write into the graph index. */
  allowWrites?: boolean;
  /** Rule modules whose predicates WHERE may call. */
  rules?: RuleSet;
  /** Include the compiled Prolog goal and the plan in the result. */
  explain?: boolean;
}

export interface QueryResult {
  columns: string[];
  rows: CypherValue[][];
  /** The compiled Prolog goal (when `explain`). */
  goal?: string;
  /** The plan, step by step with estimated cardinalities (when `explain`). */
  plan?: unknown;
  /** Labels, relationship types and property keys the query names that the graph holds none of (absent: none). */
  notifications?: QueryNotification[];
}

/** Parsed queries by text: ASTs are never mutated, and parsing is most of a point query's cost. */
const PARSE_CACHE_SIZE = 256;
const parseCache = new Map<string, QueryAst>();

export function parseQuery(text: string): QueryAst {
  const cached = parseCache.get(text);
  if (cached) return cached;
  const ast = parse(text);
  if (parseCache.size >= PARSE_CACHE_SIZE) parseCache.delete(parseCache.keys().next().value!);
  parseCache.set(text, ast);
  return ast;
}

/**
 * Analysed, planned and built queries of one graph, by query text and parameter shape.
 * A plan is correct for any data (the statistics only chose its order), so an entry is
 * dropped only when the graph's schemaVersion or the rule modules change. Bounded, LRU.
 */
const PLAN_CACHE_SIZE = 256;
interface PlanCache {
  schemaVersion: number;
  rules: RuleSet | undefined;
  rulesGeneration: number;
  entries: Map<string, CompiledEntry>;
}
interface CompiledEntry {
  plan: QueryPlan;
  compiled: CompiledQuery;
  notifications: QueryNotification[];
}
const planCaches = new WeakMap<GraphIndex, PlanCache>();

/**
 * What planning reads of the parameters: which exist and whether each is null, a
 * string, a boolean, a number or a composite (constantValue turns only scalars into
 * index lookups). Values differing only within a kind share a plan.
 */
function parameterShape(parameters: Record<string, unknown>): string {
  let shape = '';
  for (const name in parameters) {
    const value = parameters[name];
    shape += `${name}:${value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value};`;
  }
  return shape;
}

function planCacheOf(graph: GraphIndex, rules: RuleSet | undefined): PlanCache {
  let cache = planCaches.get(graph);
  if (!cache || cache.schemaVersion !== graph.schemaVersion || cache.rules !== rules || cache.rulesGeneration !== (rules?.generation ?? 0)) {
    cache = { schemaVersion: graph.schemaVersion, rules, rulesGeneration: rules?.generation ?? 0, entries: new Map() };
    planCaches.set(graph, cache);
  }
  return cache;
}

function compile(graph: GraphIndex, text: string, options: QueryOptions, limits: QueryLimits): CompiledEntry {
  const allowWrites = options.allowWrites ?? false;
  const parameters = options.parameters ?? {};
  // writes change the graph under the plan and name what they create: never cached
  const cache = allowWrites ? undefined : planCacheOf(graph, options.rules);
  // as_of or not: a plan may count rows in place of another aggregate only where the counters run (PlanOptions.asOf)
  const asOf = options.as_of !== undefined;
  const key = `${limits.maxVariableLength}\u0000${asOf}\u0000${parameterShape(parameters)}\u0000${text}`;
  const cached = cache?.entries.get(key);
  if (cached) {
    cache!.entries.delete(key);
    cache!.entries.set(key, cached);
    return cached;
  }
  const ast = parseQuery(text);
  analyse(ast, { allowWrites, rules: options.rules });
  const planOptions = { rules: options.rules, parameters, limits, asOf };
  const plan = planQuery(ast, graph, planOptions);
  // a write names what it creates: no warning about what the graph does not hold yet
  const entry = { plan, compiled: buildQuery(plan, graph, planOptions), notifications: allowWrites ? [] : schemaNotifications(ast, graph) };
  if (cache) {
    if (cache.entries.size >= PLAN_CACHE_SIZE) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(key, entry);
  }
  return entry;
}

export function runQuery(graph: GraphIndex, text: string, options: QueryOptions = {}): QueryResult {
  try {
    return run(graph, text, options);
  } catch (error) {
    // the depth checks bound recursion and the collection and size limits bound values; this is the net under both
    if (error instanceof RangeError) throw tooComplex();
    throw error;
  }
}

function run(graph: GraphIndex, text: string, options: QueryOptions): QueryResult {
  checkParameters(options.parameters);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const { plan, compiled, notifications } = compile(graph, text, options, limits);
  const result = executeQuery(compiled, graph, {
    parameters: options.parameters ?? {},
    limits,
    asOf: options.as_of,
    allowWrites: options.allowWrites ?? false,
    rules: options.rules,
  });
  const answered = notifications.length > 0 ? { ...result, notifications } : result;
  return options.explain ? { ...answered, ...explainQuery(plan) } : answered;
}

export function applyCreateForTests(graph: GraphIndex, text: string, parameters: Record<string, unknown> = {}): void {
  runQuery(graph, text, { parameters, allowWrites: true, limits: { rowCap: Number.MAX_SAFE_INTEGER } });
}
