/**
 * The query engine's public interface (DESIGN.md decision 2).
 *
 * Pipeline: lexer.ts → parser.ts (AST) → semantic.ts (openCypher's compile-time
 * errors) → bind.ts (variables to slots) → plan.ts (the query as one plan: each
 * MATCH an ordered conjunction of Prolog goals, in the join order planner.ts picks
 * from GraphIndex statistics) → build.ts (the plan's goals as join steps and
 * closures) → execute.ts (indexed joins, match.ts; Cypher expression semantics,
 * aggregation, ORDER BY/SKIP/LIMIT). `explain` prints the same plan (explain.ts).
 * Rule predicates (WHERE `reaches(a, b)` for a loaded rule module) run in
 * SWI-Prolog (swipl-wasm) through engine/prolog/bridge.ts.
 *
 * - `parseQuery(text)` → QueryAst; throws QueryError with line/column.
 * - `runQuery(graph, text, options)` → QueryResult, SYNCHRONOUSLY (the Prolog bridge
 *   solves synchronously, bounded by the inference and time limits).
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
 * `<TckType>.<TckDetail>` (e.g. `SyntaxError.UndefinedVariable`,
 * `TypeError.InvalidArgumentType`) and `details` carries `tck_type`,
 * `tck_detail` and `phase` ('compile' | 'runtime'); compile-time errors carry the
 * line and column. LimitError (503) / ValidationError (400, row cap) when a
 * limit of limits.ts is hit.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { QueryAst } from './ast.ts';
import { parse } from './parser.ts';
import { analyse } from './semantic.ts';
import { planQuery } from './plan.ts';
import { buildQuery } from './build.ts';
import { executeQuery } from './execute.ts';
import { explainQuery } from './explain.ts';
import { DEFAULT_LIMITS, type QueryLimits } from './limits.ts';
import type { RuleRegistry } from './rules.ts';
import type { CypherValue } from './values.ts';

export type { QueryAst } from './ast.ts';
export type { CypherValue, NodeValue, RelValue, PathValue, CypherMap } from './values.ts';
export { isNode, isRel, isPath, isMap } from './values.ts';
export type { QueryLimits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { RuleRegistry } from '../prolog/registry.ts';

export interface QueryOptions {
  parameters?: Record<string, unknown>;
  limits?: Partial<QueryLimits>;
  /** ISO 8601: nodes and edges recorded after this instant are invisible. */
  as_of?: string;
  /** Test-only: lets CREATE write into the graph index. */
  allowWrites?: boolean;
  /** Rule modules whose predicates WHERE may call. */
  rules?: RuleRegistry;
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

export function runQuery(graph: GraphIndex, text: string, options: QueryOptions = {}): QueryResult {
  const ast = parseQuery(text);
  analyse(ast, { allowWrites: options.allowWrites ?? false, rules: options.rules });
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const planOptions = { rules: options.rules, parameters: options.parameters ?? {}, limits };
  const plan = planQuery(ast, graph, planOptions);
  const result = executeQuery(buildQuery(plan, graph, planOptions), graph, {
    parameters: options.parameters ?? {},
    limits,
    asOf: options.as_of,
    allowWrites: options.allowWrites ?? false,
    rules: options.rules,
  });
  if (options.explain) return { ...result, ...explainQuery(plan) };
  return result;
}

export function applyCreateForTests(graph: GraphIndex, text: string, parameters: Record<string, unknown> = {}): void {
  runQuery(graph, text, { parameters, allowWrites: true, limits: { rowCap: Number.MAX_SAFE_INTEGER } });
}
