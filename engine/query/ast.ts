/**
 * The abstract syntax of the pattern language, as parser.ts builds it. Every node
 * that can be the subject of an error carries `pos` (1-based line and column).
 */

export interface Position {
  line: number;
  column: number;
}

export type Literal = null | boolean | bigint | number | string;

export type Expr =
  | { kind: 'literal'; value: Literal; pos: Position }
  | { kind: 'param'; name: string; pos: Position }
  | { kind: 'var'; name: string; pos: Position }
  | { kind: 'prop'; target: Expr; key: string; keyAt: Position; pos: Position }
  | { kind: 'index'; target: Expr; index: Expr; pos: Position }
  | { kind: 'slice'; target: Expr; from?: Expr; to?: Expr; pos: Position }
  | { kind: 'list'; items: Expr[]; pos: Position }
  | { kind: 'map'; entries: [string, Expr][]; keysAt: Position[]; pos: Position }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: Position }
  | { kind: 'unary'; op: 'NOT' | '-' | '+'; operand: Expr; pos: Position }
  | { kind: 'isNull'; operand: Expr; negated: boolean; pos: Position }
  | { kind: 'labels'; target: Expr; labels: string[]; labelsAt: Position[]; pos: Position }
  | { kind: 'call'; name: string; distinct: boolean; args: Expr[]; star: boolean; pos: Position }
  | { kind: 'case'; subject?: Expr; whens: [Expr, Expr][]; otherwise?: Expr; pos: Position }
  | { kind: 'comprehension'; variable: string; source: Expr; where?: Expr; map?: Expr; pos: Position }
  | { kind: 'quantifier'; quantifier: 'all' | 'any' | 'none' | 'single'; variable: string; source: Expr; where: Expr; pos: Position }
  | { kind: 'pattern'; pattern: PatternPart; pos: Position }
  | { kind: 'patternComprehension'; pattern: PatternPart; where?: Expr; map: Expr; pos: Position }
  /**
   * `COUNT { [MATCH] pattern [WHERE …] [RETURN …] }` (how many matches) and `EXISTS { … }` (whether
   * one). `returns`: what RETURN projects, checked but never evaluated (a row per match either way).
   */
  | { kind: 'patternSubquery'; quantity: 'count' | 'exists'; pattern: PatternPart; where?: Expr; returns?: Expr[]; pos: Position };

export type BinaryOp =
  | 'OR' | 'XOR' | 'AND'
  | '=' | '<>' | '<' | '>' | '<=' | '>='
  | 'IN' | 'STARTS WITH' | 'ENDS WITH' | 'CONTAINS' | '=~'
  | '+' | '-' | '*' | '/' | '%' | '^';

export interface NodePattern {
  variable?: string;
  labels: string[];
  /** Where each label is written (labelsAt[i] for labels[i]). */
  labelsAt: Position[];
  properties?: Expr;
  pos: Position;
}

export interface RelationshipPattern {
  variable?: string;
  types: string[];
  /** Where each type is written (typesAt[i] for types[i]). */
  typesAt: Position[];
  direction: 'out' | 'in' | 'both';
  /** Present for variable-length relationships: `*` alone has neither bound. */
  range?: { min?: number; max?: number };
  properties?: Expr;
  pos: Position;
}

export interface PatternPart {
  pathVariable?: string;
  /** nodes.length === relationships.length + 1; relationships[i] joins nodes[i] and nodes[i+1]. */
  nodes: NodePattern[];
  relationships: RelationshipPattern[];
  pos: Position;
}

export interface ProjectionItem {
  expr: Expr;
  alias?: string;
  /** The item's source text: the column name when there is no alias. */
  text: string;
  pos: Position;
}

export interface SortItem {
  expr: Expr;
  descending: boolean;
}

export interface Projection {
  distinct: boolean;
  star: boolean;
  items: ProjectionItem[];
  orderBy?: SortItem[];
  skip?: Expr;
  limit?: Expr;
  pos: Position;
}

export type Clause =
  | { kind: 'match'; optional: boolean; patterns: PatternPart[]; where?: Expr; pos: Position }
  | { kind: 'unwind'; expr: Expr; alias: string; pos: Position }
  | { kind: 'with'; projection: Projection; where?: Expr; pos: Position }
  | { kind: 'return'; projection: Projection; pos: Position }
  | { kind: 'create'; patterns: PatternPart[]; pos: Position }
  /** Parsed only so that the public endpoints can refuse them by name. */
  | { kind: 'write'; keyword: 'MERGE' | 'SET' | 'DELETE' | 'REMOVE' | 'DETACH DELETE'; pos: Position };

export interface SingleQuery {
  clauses: Clause[];
}

export interface QueryAst {
  parts: SingleQuery[];
  /** unionAll[i] joins parts[i] and parts[i+1]. */
  unionAll: boolean[];
}

/** The argument of `fn(x)` (a call of one argument, `fn` in any case); undefined for any other expression. */
export function argumentOf(expr: Expr, fn: string): Expr | undefined {
  return expr.kind === 'call' && expr.args.length === 1 && expr.name.toLowerCase() === fn ? expr.args[0] : undefined;
}

/** The name a projection item is known by after it: its alias, the variable it names, or its text. */
export function projectedName(item: ProjectionItem): string {
  return item.alias ?? (item.expr.kind === 'var' ? item.expr.name : item.text);
}

/** Keys that say where something is written, not what it is. */
export const WHERE_WRITTEN: ReadonlySet<string> = new Set(['pos', 'labelsAt', 'typesAt', 'keyAt', 'keysAt']);

/** An expression's identity wherever it was written: two expressions with one key are the same expression. */
export function exprKey(expr: Expr): string {
  return JSON.stringify(expr, (key, value) => (WHERE_WRITTEN.has(key) ? undefined : typeof value === 'bigint' ? `${value}n` : value));
}

/** The expressions directly inside `expr` (a pattern's own expressions excepted). */
export function forEachChild(expr: Expr, visit: (child: Expr) => void): void {
  for (const value of Object.values(expr)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (Array.isArray(item)) item.forEach((x) => isExpr(x) && visit(x));
        else if (isExpr(item)) visit(item);
      }
    } else if (isExpr(value)) visit(value);
  }
}

/** A copy of `expr` with each expression directly inside it (as forEachChild visits them) mapped; `expr` itself when none changes. */
export function mapChildren(expr: Expr, map: (child: Expr) => Expr): Expr {
  let changed = false;
  const mapped = (value: unknown): unknown => {
    if (!isExpr(value)) return value;
    const result = map(value);
    changed ||= result !== value;
    return result;
  };
  const copy = Object.fromEntries(
    Object.entries(expr).map(([key, value]) => [key, Array.isArray(value) ? value.map((item) => (Array.isArray(item) ? item.map(mapped) : mapped(item))) : mapped(value)]),
  );
  return changed ? (copy as Expr) : expr;
}

/** The variables a pattern's nodes and relationships name, each with where it is written. */
export function namesOf(pattern: PatternPart): { name: string; pos: Position }[] {
  return [...pattern.nodes, ...pattern.relationships].flatMap((element) => (element.variable ? [{ name: element.variable, pos: element.pos }] : []));
}

function isExpr(value: unknown): value is Expr {
  return typeof value === 'object' && value !== null && 'kind' in value && 'pos' in value && !('nodes' in value);
}

/** A copy of `value` with each of `targets` (objects of it, found by identity) replaced by `by`. */
export function replacing<T>(value: T, targets: ReadonlySet<object>, by: unknown): T {
  if (typeof value !== 'object' || value === null) return value;
  if (targets.has(value)) return by as T;
  if (Array.isArray(value)) return value.map((item) => replacing(item, targets, by)) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replacing(item, targets, by)])) as T;
}
