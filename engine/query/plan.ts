/**
 * The plan, the second compile stage: the one object that execution is built from
 * (build.ts) and that `explain` prints (explain.ts), so that the two cannot drift
 * apart. It makes the design's promise literal: a query compiles to a Prolog goal.
 *
 * A MATCH plans to an ordered conjunction of goals — `node(N, Label)`,
 * `prop(X, Key, Value)`, `edge(E, Type, From, To, _)` (direction and type
 * alternatives), `path(Es, Types, From, To, Min, Max)` for variable length,
 * `where(Expr)`, calls of rule predicates, `path_of(P, Nodes, Rels)` — in the join
 * order planner.ts picks from GraphIndex statistics, each WHERE conjunct right after
 * the goal that binds its last variable. Every goal carries what the executor
 * needs: the row slots of its variables and, for the goal that first binds a
 * variable, the access path the planner chose and its estimate. The rest of the
 * query (UNWIND, WITH, RETURN, CREATE) plans to clauses holding their expressions
 * and the scopes those are built in.
 */
import type { PropertyValue } from '../ontology/index.ts';
import type { RulePredicate } from '../prolog/registry.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { argumentOf, type Clause, type Expr, exprKey, forEachChild, type PatternPart, type Projection, projectedName, type QueryAst, replacing } from './ast.ts';
import { anonymousName, isAnonymous, type BoundPattern, bindPattern, conjuncts, constantValue, literalMembership, propertyEntries, type SlotCounter, variablesOf } from './bind.ts';
import { compileError, containsAggregate } from './expressions.ts';
import { isAggregateFunction, isCountStar } from './functions.ts';
import type { QueryLimits } from './limits.ts';
import { normaliseClauses } from './normalise.ts';
import { type NodeAccess, type PlanNode, type PlanOp, type PlanRel, planPattern } from './planner.ts';
import type { RuleSet } from './rules.ts';
import type { Scope, VarInfo } from './types.ts';
import { RECORD_FIELD_KEYS } from './values.ts';

export interface PlanOptions {
  rules?: RuleSet;
  parameters: Record<string, unknown>;
  limits: QueryLimits;
  /**
   * Whether the query runs with as_of, which the per-node counters (match.ts) give way to row by row: a path that
   * counts rows in place of another aggregate (count(DISTINCT a) per reached node) is then not taken.
   */
  asOf?: boolean;
}

/** A variable of the plan: the name it was written with (anonymous names begin with a space) and its row slot. */
export interface PlanVar {
  name: string;
  slot: number;
}

/** Set on the goal that binds its variable: the planner's estimate of the rows it yields. */
export interface Scan {
  estimate: number;
}

/** `node(N, Label)`, or `node(N, _)` without a label. With `scan`, it binds N: through the label index, or over all nodes. */
export interface NodeGoal {
  kind: 'node';
  node: PlanVar;
  label?: string;
  scan?: Scan;
}

/** `node_id(N, Id)`: N's external id is Id. With `scan`, it binds N by one lookup in the id dictionary. */
export interface IdGoal {
  kind: 'id';
  node: PlanVar;
  value: Expr;
  scan?: Scan;
}

/** `prop(X, Key, Value)` on a node or relationship. With `scan`, it binds the node X through the property index. */
export interface PropGoal {
  kind: 'prop';
  element: PlanVar;
  key: string;
  value: Expr;
  scan?: Scan;
  /** With `scan`, `n.key IN [...]`: the values the scan looks up (`value` is the list as written, also a filter after it). */
  listed?: PropertyValue[];
}

/**
 * How a relationship goal runs, as the planner chose: `expand` walks from a bound
 * end (from `to` when `reversed`), `scanEdges` enumerates the edges of its types,
 * `bound` checks a relationship bound before the pattern.
 */
export interface RelAccess {
  kind: 'expand' | 'scanEdges' | 'bound';
  reversed: boolean;
  /** Whether each end is known when the goal runs (a self-loop's second end is, once its first is). */
  fromBound: boolean;
  toBound: boolean;
  estimate: number;
}

interface RelGoalBase {
  rel: PlanVar;
  from: PlanVar;
  to: PlanVar;
  /** Alternatives; empty for any type. */
  types: string[];
  direction: 'out' | 'in' | 'both';
  access: RelAccess;
}

/** `edge(E, Type, From, To, _)`. */
export interface EdgeGoal extends RelGoalBase {
  kind: 'edge';
}

/** `path(Es, Types, From, To, Min, Max)`: a variable-length relationship. */
export interface PathGoal extends RelGoalBase {
  kind: 'path';
  min: number;
  max: number;
}

/** `where(Expr)`: a WHERE conjunct, tested once its variables are bound. */
export interface WhereGoal {
  kind: 'where';
  expr: Expr;
}

/** A WHERE conjunct that calls a predicate of a loaded rule module: solved by the Prolog bridge. */
export interface RuleGoal {
  kind: 'rule';
  name: string;
  args: Expr[];
  predicate: RulePredicate;
}

/** `path_of(P, Nodes, Rels)`: P names the path through the pattern's nodes and relationships. */
export interface NamedPathGoal {
  kind: 'namedPath';
  path: PlanVar;
  nodes: PlanVar[];
  rels: PlanVar[];
}

export type Goal = NodeGoal | IdGoal | PropGoal | EdgeGoal | PathGoal | WhereGoal | RuleGoal | NamedPathGoal;

export interface MatchPlan {
  kind: 'match';
  optional: boolean;
  goals: Goal[];
  /** The scope the goals' expressions see: the names bound before, and the pattern's own. */
  scope: Scope;
  /** The slots this MATCH binds: null-filled when an OPTIONAL MATCH finds nothing. */
  newSlots: number[];
  /**
   * Count pushdown: the goals from this index on bind only what the aggregation after
   * the MATCH never reads, and it only counts rows; so they are counted per row of the
   * goals before, and no row is made for each of their matches. An OPTIONAL MATCH is counted
   * from 0 only, for `count(x)` of what it binds: its matches per row before, 0 when none.
   */
  countFrom?: number;
  /**
   * The counted goals are an OPTIONAL MATCH's: a row they do not complete is counted 0, not
   * dropped. The MATCH before it is merged in when it walks no relationship.
   */
  zeroCounts?: boolean;
  /** The counted goals are a chain of expansions, counted by the distinct nodes the last reaches (`count(DISTINCT c)`). */
  distinctEnds?: boolean;
  /** With distinctEnds, the one WHERE goal among the counted goals, which says that the chain's two ends differ: its expression. */
  endNotStart?: Expr;
  /** A row before the counted goals counts 1 if they complete it at all (`count(DISTINCT c)` of the node scanned before them). */
  countsOnce?: boolean;
  /**
   * The aggregation after the MATCH groups by what the index counts and counts rows, so each
   * group is counted off the index, one row standing for all of its rows: `type`, one directed
   * relationship between unchecked ends grouped by its type alone (`MATCH ()-[r]->() RETURN
   * type(r), count(*)`; its slot and types, empty for any); `labels`, one unlabelled node
   * grouped by `labels(n)` alone.
   */
  countsPerGroup?: GroupCounts;
  /**
   * The aggregation groups by the node the MATCH's one expansion reaches last (or by a property
   * of it) and counts rows, and the goals before the expansion read only the node it starts
   * from: so the rows are counted per node reached, in one array, with no row made
   * (`MATCH (a:Actor)-[:ASSERTS]->(c:Claim {type: 'RedLine'}) RETURN id(a), count(*)`, begun
   * at the narrow end). The reached node's slot.
   */
  countsPerEnd?: number;
  /**
   * With countsPerEnd: the aggregation counts the distinct nodes the expansion starts from
   * (`count(DISTINCT a)` grouped by the reached node or by `key` of it), so each start counts once
   * per group, however many of the group's nodes it reaches and by however many edges.
   */
  distinctStartsPerEnd?: { key?: string };
  /**
   * The aggregation groups by a pair: a group of the node the MATCH's one expansion starts from
   * and one of the node it reaches (each the node itself, or one property's value), and counts
   * rows; the goals before the expansion read only its start. So each edge counts toward its pair,
   * with no row made (`MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a.label, c.type, count(*)`).
   */
  countsPerPair?: { source: PairSide; end: PairSide };
}

/** One side of MatchPlan.countsPerPair: the node's slot, and the property whose value groups it (none: the node itself). */
export interface PairSide {
  slot: number;
  key?: string;
}

/** What MatchPlan.countsPerGroup counts per group. */
export type GroupCounts = { by: 'type'; relSlot: number; types: string[] } | { by: 'labels'; nodeSlot: number };

export interface UnwindPlan {
  kind: 'unwind';
  expr: Expr;
  scope: Scope;
  alias: PlanVar;
}

export interface ProjectionPlan {
  kind: 'with' | 'return';
  items: { name: string; expr: Expr; slot: number }[];
  /** The scope of the items, and of aggregate arguments wherever they appear. */
  inputScope: Scope;
  aggregating: boolean;
  /** Indexes into `items` of the grouping keys (when aggregating). */
  groupingItems: number[];
  /** Slot holding each group's finished aggregate values, for ORDER BY after aggregation. */
  aggregateSlot: number;
  distinct: boolean;
  /** A sort key is a projected item's slot, or an expression over `sortScope`. */
  orderBy: { key: { slot: number } | { expr: Expr }; descending: boolean }[];
  /** What ORDER BY and WITH's WHERE see: the projected names and, without aggregation or DISTINCT, the input variables too. */
  sortScope: Scope;
  skip?: Expr;
  limit?: Expr;
  /** WITH ... WHERE, over the projected names. */
  where?: Expr;
  outputScope: Scope;
}

/** What a CREATE makes, in order; each element's properties see the names bound before it. */
export type CreateElement =
  | { kind: 'node'; node: PlanVar; labels: string[]; properties?: Expr; scope: Scope }
  | { kind: 'edge'; rel: PlanVar; type: string; from: PlanVar; to: PlanVar; properties?: Expr; scope: Scope };

export interface CreatePlan {
  kind: 'create';
  elements: CreateElement[];
}

export type ClausePlan = MatchPlan | UnwindPlan | ProjectionPlan | CreatePlan;

export interface PartPlan {
  clauses: ClausePlan[];
  columns: string[];
  /** Slots and anonymous names the plan used: building goes on from here. */
  slots: SlotCounter;
}

export interface QueryPlan {
  parts: PartPlan[];
  /** unionAll[i] joins parts[i] and parts[i+1]. */
  unionAll: boolean[];
}

interface PartState extends SlotCounter {
  scope: Scope;
}

export function planQuery(ast: QueryAst, graph: GraphIndex, options: PlanOptions): QueryPlan {
  const parts = ast.parts.map((part) => planPart(part.clauses, graph, options));
  const columns = parts[0].columns;
  for (const part of parts) {
    if (part.columns.length !== columns.length || part.columns.some((column, i) => column !== columns[i])) {
      throw compileError('DifferentColumnsInUnion', 'all parts of a UNION must return the same columns', { line: 1, column: 1 });
    }
  }
  return { parts, unionAll: ast.unionAll };
}

function planPart(written: Clause[], graph: GraphIndex, options: PlanOptions): PartPlan {
  const clauses = countsOfSubqueriesPerNode(normaliseClauses(written, new Set(Object.keys(options.parameters))));
  const state: PartState = { scope: new Map(), nextSlot: 0, anonymous: 0 };
  const planned: ClausePlan[] = [];
  let columns: string[] = [];
  for (const [at, clause] of clauses.entries()) {
    switch (clause.kind) {
      case 'match':
        planned.push(planMatch(clause.patterns, clause.where, clause.optional, state, graph, options, at === 0 ? countedNodeOf(clause, clauses[1]) : undefined));
        break;
      case 'unwind': {
        const scope = state.scope;
        const alias = { name: clause.alias, slot: state.nextSlot++ };
        state.scope = new Map(scope).set(clause.alias, { slot: alias.slot, kind: 'any' });
        planned.push({ kind: 'unwind', expr: clause.expr, scope, alias });
        break;
      }
      case 'with':
      case 'return': {
        const projection = planProjection(clause.kind, clause.projection, clause.kind === 'with' ? clause.where : undefined, state);
        columns = projection.items.map((item) => item.name);
        planned.push(projection);
        break;
      }
      case 'create':
        planned.push(planCreate(clause.patterns, state));
        break;
      case 'write':
        throw compileError('ReadOnlyQuery', `${clause.keyword} is not supported`, clause.pos);
    }
  }
  for (let i = 0; i + 1 < planned.length; i++) {
    const [match, projection] = [planned[i], planned[i + 1]];
    if (match.kind === 'match' && (projection.kind === 'with' || projection.kind === 'return')) {
      countRowsByMeaning(match, projection);
      // the part's first clause runs once, on one empty row: what it scans first binds each node once
      if (i === 0) {
        countDistinctEnds(match, projection);
        countScannedOnce(match, projection);
        countScannedNodes(match, projection);
        countPerEnd(match, projection, options);
        countPerPair(match, projection);
        countEdgesByType(match, projection);
        countNodesByLabels(match, projection);
      }
    }
  }
  // `MATCH (a:Actor) OPTIONAL MATCH (a)-->(c) ... count(c)`: one MATCH whose counted tail keeps the rows it does not
  // complete, with 0; only after a MATCH that walks no relationship: relationships are unique within one MATCH,
  // so merging a MATCH that walked some would keep the optional tail from walking them again
  for (let i = 0; i + 1 < planned.length; i++) {
    const [match, optional] = [planned[i], planned[i + 1]];
    if (match.kind === 'match' && !match.optional && match.countFrom === undefined && optional.kind === 'match' && optional.zeroCounts &&
      match.goals.every((goal) => goal.kind !== 'edge' && goal.kind !== 'path' && goal.kind !== 'namedPath')) {
      planned.splice(i, 2, { ...optional, optional: false, goals: [...match.goals, ...optional.goals], countFrom: match.goals.length, newSlots: [...match.newSlots, ...optional.newSlots] });
    }
  }
  return { clauses: planned, columns, slots: { nextSlot: state.nextSlot, anonymous: state.anonymous } };
}

/**
 * `MATCH (a:Actor) RETURN id(a), COUNT { (a)-[:ASSERTS]->(:Claim) } AS n ORDER BY n DESC LIMIT 10`:
 * a MATCH of one node (the part's first clause) gives one row per node, so a pattern counted
 * per row is counted per node, and the counting paths after a MATCH count it that way without
 * a row, or a subquery run, per node. The part is read as
 * `MATCH (a:Actor) OPTIONAL MATCH (a)-[ counted:ASSERTS]->(:Claim) WITH a, count( counted) AS ` count``
 * followed by the projection reading ` count` where it wrote the subquery: `count()` of what the
 * OPTIONAL MATCH binds is its matches per row, 0 for none, as the subquery's count, and the
 * WITH groups by the node, one group per row. Also `size()` of a pattern comprehension that maps
 * to a constant or a variable of its own. Only when the projection sorts (it reads every row
 * anyway; a page without ORDER BY stops the MATCH early) and aggregates nothing, with one
 * subquery, written once or more, that reads no variable but the node and its own.
 */
function countsOfSubqueriesPerNode(clauses: Clause[]): Clause[] {
  const [match, next] = clauses;
  if (match?.kind !== 'match' || match.optional || match.patterns.length !== 1 || (next?.kind !== 'with' && next?.kind !== 'return')) return clauses;
  const [{ nodes, relationships, pathVariable }] = match.patterns;
  const node = nodes[0].variable;
  const projection = next.projection;
  if (node === undefined || relationships.length > 0 || pathVariable !== undefined || projection.star || !projection.orderBy?.length) return clauses;
  const where = next.kind === 'with' ? next.where : undefined;
  const written = [...projection.items.map((item) => item.expr), ...projection.orderBy.map((sort) => sort.expr), ...(where ? [where] : [])];
  if (written.some(containsAggregate)) return clauses;
  const found = written.flatMap(countedPatternsIn);
  const [first] = found;
  if (!first || found.some((other) => exprKey(other.expr) !== exprKey(first.expr))) return clauses;
  const { pattern, where: condition, map } = first;
  const own = new Set([node]);
  for (const element of [...pattern.nodes, ...pattern.relationships]) if (element.variable) own.add(element.variable);
  if (pattern.pathVariable) own.add(pattern.pathVariable);
  const counted = pattern.relationships[0];
  const read = variablesOf(first.expr);
  if (!counted || [...read].some((name) => !own.has(name)) || (map && map.kind !== 'literal' && !(map.kind === 'var' && own.has(map.name)))) return clauses;
  // WITH's WHERE, and ORDER BY after DISTINCT, see the projected names alone, which the count read in their place is not;
  // in ORDER BY a projected name hides the variable it spells: `RETURN id(a) AS a ORDER BY COUNT { (a)-->() }`
  const inSort = projection.orderBy.some((sort) => countedPatternsIn(sort.expr).length > 0);
  const hides = (item: Projection['items'][number]) => item.alias !== undefined && own.has(item.alias) && !(item.expr.kind === 'var' && item.expr.name === item.alias);
  if ((where && countedPatternsIn(where).length > 0) || (inSort && (projection.distinct || projection.items.some(hides)))) return clauses;

  const pos = first.expr.pos;
  // the relationship counted must be bound by the OPTIONAL MATCH (an anonymous one is not): a name none of the pattern's
  let countedName = counted.variable ?? 'counted';
  while (counted.variable === undefined && own.has(countedName)) countedName += '_';
  const optional: Clause = {
    kind: 'match', optional: true, where: condition, pos,
    patterns: [{ ...pattern, relationships: pattern.relationships.map((rel) => (rel === counted ? { ...rel, variable: countedName } : rel)) }],
  };
  const countName = ' count';
  const perNode: Clause = {
    kind: 'with', pos,
    projection: {
      distinct: false, star: false, pos,
      items: [
        { expr: { kind: 'var', name: node, pos }, text: node, pos },
        { expr: { kind: 'call', name: 'count', distinct: false, star: false, args: [{ kind: 'var', name: countedName, pos }], pos }, alias: countName, text: countName, pos },
      ],
    },
  };
  const targets = new Set<object>(found.map(({ expr }) => expr));
  const count: Expr = { kind: 'var', name: countName, pos };
  const items = projection.items.map((item) => (targets.has(item.expr) ? { ...item, alias: item.alias ?? item.text, expr: count } : replacing(item, targets, count)));
  const rewritten: Projection = { ...projection, items, orderBy: replacing(projection.orderBy, targets, count) };
  const reading: Clause = next.kind === 'with' ? { ...next, projection: rewritten, where: where && replacing(where, targets, count) } : { ...next, projection: rewritten };
  return [match, optional, perNode, reading, ...clauses.slice(2)];
}

/**
 * The patterns counted per row in `expr`: `COUNT { }` with no RETURN, and `size()` of a pattern
 * comprehension; not inside an expression that binds names of its own (a comprehension, a
 * quantifier, a pattern), where a name may mean something else.
 */
function countedPatternsIn(expr: Expr): { expr: Expr; pattern: PatternPart; where?: Expr; map?: Expr }[] {
  if (expr.kind === 'patternSubquery') return expr.quantity === 'count' && !expr.returns ? [{ expr, pattern: expr.pattern, where: expr.where }] : [];
  const [only] = expr.kind === 'call' ? expr.args : [];
  if (expr.kind === 'call' && expr.name.toLowerCase() === 'size' && expr.args.length === 1 && only.kind === 'patternComprehension') {
    return [{ expr, pattern: only.pattern, where: only.where, map: only.map }];
  }
  if (expr.kind === 'comprehension' || expr.kind === 'quantifier' || expr.kind === 'pattern' || expr.kind === 'patternComprehension') return [];
  const found: ReturnType<typeof countedPatternsIn> = [];
  forEachChild(expr, (child) => found.push(...countedPatternsIn(child)));
  return found;
}

/**
 * `count(x)` of an element the MATCH binds is its row count: a MATCH that is not optional
 * binds no null. Written as `count(*)` it takes the same path, so `count(c)` over
 * `(a)-->(c)` is pushed down as `count(*)` over `(a)-->()` is, whichever name the user wrote.
 * Under an OPTIONAL MATCH, `count(x)` of an element it binds counts its matches per row
 * before it (0 when it finds none, where `count(*)` would count its row of nulls): the whole
 * pattern is counted, or nothing is rewritten.
 */
function countRowsByMeaning(match: MatchPlan, projection: ProjectionPlan): void {
  if (!projection.aggregating) return;
  const bound = new Set<string>();
  if (match.optional) {
    for (const [name, { slot }] of match.scope) if (match.newSlots.includes(slot)) bound.add(name);
  } else {
    for (const goal of match.goals) {
      if (goal.kind === 'node') bound.add(goal.node.name);
      else if (goal.kind === 'edge' || goal.kind === 'path') for (const element of [goal.rel, goal.from, goal.to]) bound.add(element.name);
      else if (goal.kind === 'namedPath') bound.add(goal.path.name);
    }
  }
  const rewritten = projection.items.map(({ expr }): Expr =>
    expr.kind === 'call' && !expr.star && !expr.distinct && expr.name.toLowerCase() === 'count' && expr.args.length === 1 && expr.args[0].kind === 'var' && bound.has(expr.args[0].name)
      ? { ...expr, star: true, args: [] }
      : expr,
  );
  const countFrom = countTail(match, projection, rewritten);
  const counted = !match.optional || (countFrom === 0 && !projection.items.some(({ expr }) => expr.kind === 'call' && isCountStar(expr)));
  if (!counted) return;
  projection.items.forEach((item, i) => (item.expr = rewritten[i]));
  if (countFrom !== undefined) Object.assign(match, { countFrom, zeroCounts: match.optional || undefined });
}

/**
 * `count(DISTINCT b)` of the node a MATCH reaches last by a chain of expansions (each from the
 * node the one before reached) from the node its scan binds, grouped by that node (the part's
 * first clause: one row per scanned node), is the number of distinct nodes the chain reaches
 * from it; counted so, without rows. The chain may hold one WHERE goal, that its two ends differ
 * (`a <> b`: the co-asserting actors of `(a)-->(:Claim)<--(b)`), which the counters apply by
 * node (MatchPlan.endNotStart). Grouped otherwise, or by a property alone, one group's rows may
 * reach one node twice.
 */
function countDistinctEnds(match: MatchPlan, projection: ProjectionPlan): void {
  if (match.optional || match.countFrom !== undefined || !projection.aggregating) return;
  const [scan] = match.goals;
  const scanned = subjectOf(scan);
  const at = match.goals.findIndex((goal) => goal.kind === 'edge' || goal.kind === 'path' || goal.kind === 'namedPath');
  if (at < 0 || !scanned || !('scan' in scan && scan.scan) || match.goals.slice(1).some((goal) => 'scan' in goal && goal.scan)) return;
  let end: PlanVar = scanned;
  for (const goal of match.goals.slice(at)) {
    if (goal.kind === 'path' || goal.kind === 'namedPath') return;
    if (goal.kind !== 'edge') continue;
    if (goal.access.kind !== 'expand' || (goal.access.reversed ? goal.to : goal.from).name !== end.name) return;
    end = goal.access.reversed ? goal.from : goal.to;
  }
  if (end === scanned) return;
  const keys = projection.groupingItems.map((i) => projection.items[i].expr);
  if (nodeGroupSlot(keys, projection.inputScope) !== scanned.slot) return;
  const rewritten = distinctCountsAsRows(projection, end.name);
  if (!rewritten) return;
  const differ = match.goals.find((goal): goal is Extract<Goal, { kind: 'where' }> => goal.kind === 'where' && endsDiffer(goal.expr, scanned.name, end.name));
  // the chain is the counted tail, from its first expansion; beside the ends' WHERE, checks alone
  if (countTail({ ...match, goals: match.goals.filter((goal) => goal !== differ) }, projection, rewritten) !== at) return;
  projection.items.forEach((item, i) => (item.expr = rewritten[i]));
  Object.assign(match, { countFrom: at, distinctEnds: true, endNotStart: differ?.expr });
}

/**
 * The projection's items with each aggregate as `count(*)`, where every aggregate is `count(DISTINCT v)`: what the
 * paths that count v's distinct nodes by other means (a counted tail once per node, distinct ends, each start once
 * per group) hand the aggregation. Undefined for any other aggregate.
 */
function distinctCountsAsRows(projection: ProjectionPlan, v: string): Expr[] | undefined {
  const ofV = (expr: Expr) => expr.kind === 'call' && expr.distinct && expr.name.toLowerCase() === 'count' && expr.args.length === 1 && expr.args[0].kind === 'var' && expr.args[0].name === v;
  const aggregates = projection.items.filter((item) => containsAggregate(item.expr));
  if (!aggregates.every((item) => ofV(item.expr))) return undefined;
  return projection.items.map((item) => (item.expr.kind === 'call' && aggregates.includes(item) ? { ...item.expr, distinct: false, star: true, args: [] } : item.expr));
}

/** Whether `expr` is `a <> b` or `id(a) <> id(b)` (either way round): for two bound nodes, that they are not one node. */
function endsDiffer(expr: Expr, a: string, b: string): boolean {
  if (expr.kind !== 'binary' || expr.op !== '<>') return false;
  const [left, right] = [idArgument(expr.left), idArgument(expr.right)];
  // a node beside an id is a node beside a string, unequal even for one node: both sides or neither under id()
  if ((left === expr.left) !== (right === expr.right) || left.kind !== 'var' || right.kind !== 'var') return false;
  return (left.name === a && right.name === b) || (left.name === b && right.name === a);
}

/** `x` for `id(x)`; any other expression as it is. */
function idArgument(expr: Expr): Expr {
  return argumentOf(expr, 'id') ?? expr;
}

/**
 * `count(DISTINCT c)` of the node a MATCH's scan binds (the part's first clause: one row per
 * node), grouped by nothing or by that node or its properties, is the number of its nodes the
 * rest of the pattern completes at all: the rest counted per node, 1 for any completion.
 */
function countScannedOnce(match: MatchPlan, projection: ProjectionPlan): void {
  if (match.optional || match.countFrom !== undefined || !projection.aggregating) return;
  const [scan] = match.goals;
  const scanned = subjectOf(scan);
  if (!scanned || !('scan' in scan && scan.scan)) return;
  const rewritten = distinctCountsAsRows(projection, scanned.name);
  if (!rewritten) return;
  const ofScannedAlone = (goals: Goal[]) => goals.every((goal) => subjectOf(goal)?.name === scanned.name);
  // no tail: one row per node already, which count(*) counts (and the paths for it may then count without rows)
  if (ofScannedAlone(match.goals)) {
    projection.items.forEach((item, i) => (item.expr = rewritten[i]));
    return;
  }
  // the first completion settles a node: a WHERE that could fail on a later one is evaluated row by row
  const at = countTail(match, projection, rewritten, false);
  // before the tail, the scan and checks of the scanned node alone: one row per node
  if (at === undefined || !ofScannedAlone(match.goals.slice(0, at))) return;
  projection.items.forEach((item, i) => (item.expr = rewritten[i]));
  Object.assign(match, { countFrom: at, countsOnce: true });
}

/**
 * `MATCH (c:Claim) RETURN c.type, count(*)`: a MATCH that scans one label and checks only the
 * node it scans (the part's first clause) counts each node once, so its rows are counted per
 * node with an empty tail, and grouping by the node or a property of it folds those counts
 * without a row per node.
 */
function countScannedNodes(match: MatchPlan, projection: ProjectionPlan): void {
  const [scan, ...checks] = match.goals;
  if (match.optional || match.countFrom !== undefined || match.countsPerGroup || !projection.aggregating) return;
  if (scan.kind !== 'node' || !scan.scan || scan.label === undefined) return;
  const ofScanned = (goal: Goal) => (goal.kind === 'where' ? [...variablesOf(goal.expr)].every((name) => name === scan.node.name) : subjectOf(goal)?.name === scan.node.name);
  if (!checks.every(ofScanned)) return;
  if (countsRowsAlone(projection)) match.countFrom = match.goals.length;
}

/**
 * The MATCH's one expansion after goals that read only the node it starts from, followed only by
 * checks of the node it reaches and of the relationship against constants (which the expansion
 * makes): what countPerEnd and countPerPair count without rows. Undefined for any other MATCH.
 */
function oneExpansionFromSource(match: MatchPlan): { source: PlanVar; end: PlanVar } | undefined {
  const at = match.goals.findIndex((goal) => goal.kind !== 'node' && goal.kind !== 'id' && goal.kind !== 'prop' && goal.kind !== 'where');
  const edge = match.goals[at];
  if (edge?.kind !== 'edge' || edge.access.kind !== 'expand' || edge.direction === 'both' || edge.from.name === edge.to.name) return undefined;
  const [source, end] = edge.access.reversed ? [edge.to, edge.from] : [edge.from, edge.to];
  if (edge.access.reversed ? edge.access.fromBound : edge.access.toBound) return undefined;
  const on = (goal: Goal) => subjectOf(goal)?.name;
  const before = match.goals.slice(0, at);
  if (!before.every((goal) => (goal.kind === 'where' ? [...variablesOf(goal.expr)].every((name) => name === source.name) : on(goal) === source.name))) return undefined;
  const checked = (goal: Goal) => on(goal) === end.name || (goal.kind === 'prop' && goal.element.name === edge.rel.name);
  if (!match.goals.slice(at + 1).every((goal) => !('scan' in goal && goal.scan) && checked(goal) && (goal.kind !== 'prop' || variablesOf(goal.value).size === 0))) return undefined;
  return { source, end };
}

/** Sets MatchPlan.countsPerEnd (and distinctStartsPerEnd) where it holds (the part's first clause). */
function countPerEnd(match: MatchPlan, projection: ProjectionPlan, options: PlanOptions): void {
  if (match.optional || match.countFrom !== undefined || match.countsPerGroup || !projection.aggregating) return;
  const expansion = oneExpansionFromSource(match);
  if (!expansion) return;
  const { source, end } = expansion;
  const keys = projection.groupingItems.map((i) => projection.items[i].expr);
  const [key] = keys;
  const byProperty = keys.length === 1 && key.kind === 'prop' && key.target.kind === 'var' && key.target.name === end.name;
  if (!byProperty && nodeGroupSlot(keys, projection.inputScope) !== end.slot) return;
  if (countsRowsAlone(projection)) {
    match.countsPerEnd = end.slot;
    return;
  }
  // count(DISTINCT a) of the node the expansion starts from: each start once per group, counted as count(*) of those;
  // not under as_of, where the counter gives way to rows, which count(*) would count each
  const rewritten = options.asOf ? undefined : distinctCountsAsRows(projection, source.name);
  if (!rewritten || !countsRowsAlone(projection, rewritten)) return;
  projection.items.forEach((item, i) => (item.expr = rewritten[i]));
  Object.assign(match, { countsPerEnd: end.slot, distinctStartsPerEnd: byProperty && key.kind === 'prop' ? { key: key.key } : {} });
}

/**
 * `MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a.label, c.type, count(*)` (or `RETURN DISTINCT`, made a
 * grouping by normalise.ts): the groups are pairs of a group of the node the expansion starts from and
 * one of the node it reaches, each a node (grouped by identity) or one property's value, so each edge
 * counts toward its pair with no row made (MatchPlan.countsPerPair).
 */
function countPerPair(match: MatchPlan, projection: ProjectionPlan): void {
  if (match.optional || match.countFrom !== undefined || match.countsPerGroup || match.countsPerEnd !== undefined || !projection.aggregating) return;
  const expansion = oneExpansionFromSource(match);
  if (!expansion || !countsRowsAlone(projection)) return;
  const keys = projection.groupingItems.map((i) => projection.items[i].expr);
  // the variable each key is of: `v`, `id(v)` or `v.key`
  const owners = keys.map((key) => {
    const target = key.kind === 'prop' ? key.target : idArgument(key);
    return target.kind === 'var' ? target.name : undefined;
  });
  const sideOf = (node: PlanVar): PairSide | undefined => {
    const own = keys.filter((_, i) => owners[i] === node.name);
    if (own.length === 0) return undefined;
    if (nodeGroupSlot(own, projection.inputScope) === node.slot) return { slot: node.slot };
    const [key] = own;
    // a key a record answers from its own fields (`confidence`) is not in the property index the groups are told apart by
    return own.length === 1 && key.kind === 'prop' && !RECORD_FIELD_KEYS.has(key.key) ? { slot: node.slot, key: key.key } : undefined;
  };
  const [source, end] = [sideOf(expansion.source), sideOf(expansion.end)];
  // every key is one side's: a key of anything else (the relationship, an expression of both) is not a pair's
  const ofSides = owners.every((owner) => owner === expansion.source.name || owner === expansion.end.name);
  if (!source || !end || !ofSides) return;
  match.countsPerPair = { source, end };
}

/**
 * `count(*)` grouped by `type(r)` alone, or by nothing, over a MATCH that is one relationship between two
 * different, unchecked ends (the part's first clause): each type's edge count, with one of its
 * edges to read the type from. Undirected, an edge would count twice (a self-loop once).
 */
function countEdgesByType(match: MatchPlan, projection: ProjectionPlan): void {
  // a plain count of the expansions from each node (countRowsByMeaning) reads every node's edges: this reads a count per type
  if (match.optional || match.distinctEnds || match.countsOnce || !projection.aggregating) return;
  // the relationship scanned, or expanded from one of its ends scanned over all nodes: no other node (a second
  // pattern part would multiply the rows)
  const edges = match.goals.filter((goal) => goal.kind === 'edge');
  const [edge] = edges;
  if (edges.length !== 1 || edge.kind !== 'edge' || edge.direction === 'both' || edge.from.name === edge.to.name) return;
  const isEnd = (name: string) => name === edge.from.name || name === edge.to.name;
  if (match.goals.length > 2 || !match.goals.every((goal) => goal === edge || (goal.kind === 'node' && goal.label === undefined && isEnd(goal.node.name)))) return;
  if (!groupsByCallOf('type', edge.rel.name, projection)) return;
  Object.assign(match, { countFrom: undefined, countsPerGroup: { by: 'type', relSlot: edge.rel.slot, types: edge.types } });
}

/** `count(*)` grouped by `labels(n)` alone, or by nothing, over a MATCH of one node of any label (the part's first clause). */
function countNodesByLabels(match: MatchPlan, projection: ProjectionPlan): void {
  const [scan] = match.goals;
  if (match.optional || match.countFrom !== undefined || !projection.aggregating || match.goals.length !== 1) return;
  if (scan.kind !== 'node' || !scan.scan || scan.label !== undefined || !groupsByCallOf('labels', scan.node.name, projection)) return;
  match.countsPerGroup = { by: 'labels', nodeSlot: scan.node.slot };
}

/**
 * Whether an aggregation's keys are all `fn(v)`, or it has none (the groups' counts then add up to
 * one), and its aggregates all `count(*)` (ORDER BY sorting by no other aggregate).
 */
function groupsByCallOf(fn: string, v: string, projection: ProjectionPlan): boolean {
  const ofVariable = (expr: Expr) => expr.kind === 'call' && expr.name.toLowerCase() === fn && expr.args.length === 1 && expr.args[0].kind === 'var' && expr.args[0].name === v;
  const keys = projection.groupingItems.map((i) => projection.items[i].expr);
  return keys.every(ofVariable) && countsRowsAlone(projection);
}

/**
 * Whether an aggregation counts rows alone: each of `items` (the projection's, or as a rewrite
 * would make them) a grouping key or `count(*)`, and ORDER BY sorting by no other aggregate.
 */
function countsRowsAlone(projection: ProjectionPlan, items: readonly Expr[] = projection.items.map(({ expr }) => expr)): boolean {
  return items.every((expr) => !containsAggregate(expr) || (expr.kind === 'call' && isCountStar(expr))) &&
    !projection.orderBy.some(({ key }) => 'expr' in key && containsAggregate(key.expr));
}

/** The variable a node, id or property goal is about. */
function subjectOf(goal: Goal | undefined): PlanVar | undefined {
  return goal?.kind === 'node' || goal?.kind === 'id' ? goal.node : goal?.kind === 'prop' ? goal.element : undefined;
}

/**
 * Where a MATCH's countable tail begins, if it has one: the earliest expansion to a new
 * node from which every goal is an expansion to a new node, a check of what the tail
 * bound against constants or (with `filters`) a WHERE condition, the aggregation after it
 * reading nothing the tail binds and its aggregates all `count(*)`. One hop (`(a)-->()`) or a
 * chain (`(a)-->()-->()`). `items` are the projection's item expressions as a rewrite would make them.
 */
function countTail(match: MatchPlan, projection: ProjectionPlan, items: readonly Expr[], filters = true): number | undefined {
  if (!countsRowsAlone(projection, items)) return undefined;
  const read = new Set<string>();
  for (const expr of items) variablesOf(expr, read);
  for (const { key } of projection.orderBy) if ('expr' in key) variablesOf(key.expr, read);
  const at = match.goals.findIndex((_, start) => countable(match.goals.slice(start), read, filters));
  return at >= 0 ? at : undefined;
}

/**
 * Whether `tail` can be counted without rows: what it binds is read neither after the MATCH nor by anything in it but
 * its own checks. With `filters`, those checks may be WHERE conditions (`c.type IN [...]`, `a <> b`), which the
 * counter evaluates on every completion as the rows would.
 */
function countable(tail: Goal[], read: Set<string>, filters: boolean): boolean {
  const bound = new Set<string>();
  return tail[0].kind === 'edge' && tail.every((goal) => {
    if (goal.kind === 'edge') {
      if (goal.access.kind !== 'expand') return false;
      const target = goal.access.reversed ? goal.from : goal.to;
      if ((goal.access.reversed ? goal.access.fromBound : goal.access.toBound) || read.has(target.name) || read.has(goal.rel.name)) return false;
      bound.add(target.name).add(goal.rel.name);
      return true;
    }
    return (goal.kind === 'node' && !goal.scan && bound.has(goal.node.name)) || (goal.kind === 'id' && !goal.scan && bound.has(goal.node.name)) ||
      (goal.kind === 'prop' && !goal.scan && bound.has(goal.element.name) && variablesOf(goal.value).size === 0) ||
      (goal.kind === 'where' && filters);
  });
}

/**
 * The slot of the node variable `v` when the grouping keys group by `v`'s identity: one
 * of them is `v` or `id(v)` and every other a property `v.key` (a function of the node).
 */
export function nodeGroupSlot(keys: Expr[], scope: Scope): number | undefined {
  const identity = keys.map(idArgument).find((expr) => expr.kind === 'var');
  if (identity?.kind !== 'var') return undefined;
  const node = scope.get(identity.name);
  const ofNode = (expr: Expr) => {
    const target = expr.kind === 'prop' ? expr.target : idArgument(expr);
    return target.kind === 'var' && target.name === identity.name;
  };
  return node?.kind === 'node' && keys.every(ofNode) ? node.slot : undefined;
}

// ---- MATCH ----

/**
 * `MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN c.type, count(*)`: when an aggregation after the
 * part's first MATCH reads one node of it and only counts, the MATCH is best begun at that node, so
 * that the rest is a tail counted per node without rows (countTail), whichever node is the
 * cheapest scan. Only where no other node is narrowed by a constant (a scan from there might
 * be far cheaper) and the WHERE reads that node alone.
 */
function countedNodeOf(match: Extract<Clause, { kind: 'match' }>, next: Clause | undefined): string | undefined {
  if (match.optional || (next?.kind !== 'with' && next?.kind !== 'return') || next.projection.star) return undefined;
  const { projection } = next;
  const aggregates = projection.items.map((item) => item.expr).filter(containsAggregate);
  const counts = (expr: Expr) => expr.kind === 'call' && expr.name.toLowerCase() === 'count' && (expr.star || (expr.args.length === 1 && expr.args[0].kind === 'var'));
  if (aggregates.length === 0 || !aggregates.every(counts) || match.patterns.some((part) => part.pathVariable !== undefined)) return undefined;
  const aliases = new Set(projection.items.flatMap((item) => (item.alias ? [item.alias] : [])));
  const read = new Set<string>();
  for (const item of projection.items) if (!containsAggregate(item.expr)) variablesOf(item.expr, read);
  for (const sort of projection.orderBy ?? []) for (const name of variablesOf(sort.expr)) if (!aliases.has(name)) read.add(name);
  if (next.kind === 'with' && next.where) for (const name of variablesOf(next.where)) if (!aliases.has(name)) read.add(name);
  for (const expr of aggregates) if (expr.kind === 'call' && expr.distinct) variablesOf(expr, read);
  const nodes = match.patterns.flatMap((part) => part.nodes);
  const relationships = match.patterns.flatMap((part) => part.relationships);
  const names = new Set([...nodes, ...relationships].flatMap((element) => (element.variable ? [element.variable] : [])));
  const readHere = [...read].filter((name) => names.has(name));
  const [counted] = readHere;
  if (readHere.length !== 1 || relationships.some((rel) => rel.variable === counted)) return undefined;
  const narrowed = nodes.some((node) => node.variable !== counted && node.properties !== undefined);
  if (narrowed || (match.where && [...variablesOf(match.where)].some((name) => name !== counted))) return undefined;
  return counted;
}

function planMatch(patterns: PatternPart[], where: Expr | undefined, optional: boolean, state: PartState, graph: GraphIndex, options: PlanOptions, start?: string): MatchPlan {
  const scope = new Map(state.scope);
  const pattern = bindPattern(patterns, state, scope);
  // inline property maps and WHERE equalities `n.key = constant` are the same constraint; so are `(n:L)` and `WHERE n:L`
  const equalities = new Map<string, { key: string; value: Expr }[]>();
  const ids = new Map<string, Expr>();
  const labels = new Map<string, string[]>();
  const memberships = new Map<string, { key: string; value: Expr }[]>();
  const filters: Expr[] = [];
  for (const filter of conjuncts(where)) {
    // `n.key IN [literals]` may be looked up in the property index, value by value; it stays a filter as well
    const member = literalMembership(filter);
    if (member && pattern.nodes.has(member.variable) && !pattern.nodes.get(member.variable)!.bound) {
      memberships.set(member.variable, [...(memberships.get(member.variable) ?? []), { key: member.key, value: member.list }]);
    }
    if (filter.kind === 'labels' && filter.target.kind === 'var' && pattern.nodes.has(filter.target.name)) {
      labels.set(filter.target.name, [...(labels.get(filter.target.name) ?? []), ...filter.labels]);
      continue;
    }
    if (filter.kind === 'binary' && filter.op === '=') {
      // `id(n) = constant string` is a lookup, not a filter over a scan
      const [call, id] = filter.left.kind === 'call' ? [filter.left, filter.right] : [filter.right, filter.left];
      if (call.kind === 'call' && call.name.toLowerCase() === 'id' && call.args.length === 1 && call.args[0].kind === 'var' && !ids.has(call.args[0].name) &&
        pattern.nodes.has(call.args[0].name) && !pattern.nodes.get(call.args[0].name)!.bound &&
        (id.kind === 'literal' || id.kind === 'param') && typeof constantValue(id, options.parameters) === 'string') {
        ids.set(call.args[0].name, id);
        continue;
      }
      const [prop, value] = filter.left.kind === 'prop' ? [filter.left, filter.right] : [filter.right, filter.left];
      if (prop.kind === 'prop' && prop.target.kind === 'var' && pattern.nodes.has(prop.target.name) && !pattern.nodes.get(prop.target.name)!.bound &&
        (value.kind === 'literal' || value.kind === 'param') && constantValue(value, options.parameters) !== undefined) {
        const list = equalities.get(prop.target.name) ?? [];
        list.push({ key: prop.key, value });
        equalities.set(prop.target.name, list);
        continue;
      }
    }
    filters.push(filter);
  }
  const goals = orderGoals(pattern, { equalities, ids, labels, memberships }, filters, state.scope, scope, graph, options, start);
  const newSlots = [...scope].filter(([name]) => !state.scope.has(name)).map(([, info]) => info.slot);
  state.scope = scope;
  return { kind: 'match', optional, goals, scope, newSlots };
}

/**
 * The goals of a pattern used as an expression (`WHERE (a)-->(b)`, pattern
 * comprehensions). build.ts plans these as it builds the expression, because their
 * scope (comprehension variables included) is only known then.
 */
export function planPatternExpression(pattern: PatternPart, scope: Scope, slots: SlotCounter, graph: GraphIndex, options: PlanOptions): Goal[] {
  const before = new Set(scope.keys());
  return orderGoals(bindPattern([pattern], slots, scope), { equalities: new Map(), ids: new Map(), labels: new Map(), memberships: new Map() }, [], before, scope, graph, options);
}

/** The distinct values of a list of literals the property index can hold (not null, which is in no list). */
function listedValues(list: Expr): PropertyValue[] {
  const values = new Set<PropertyValue>();
  for (const item of list.kind === 'list' ? list.items : []) {
    if (item.kind !== 'literal' || item.value === null) continue;
    values.add(typeof item.value === 'bigint' ? Number(item.value) : item.value);
  }
  return [...values];
}

/** A WHERE conjunct as a goal: a rule call when it calls a rule predicate, else a filter. */
function filterGoal(expr: Expr, options: PlanOptions): WhereGoal | RuleGoal {
  if (expr.kind === 'call' && !isAggregateFunction(expr.name)) {
    const predicate = options.rules?.predicate(expr.name, expr.args.length);
    if (predicate) return { kind: 'rule', name: expr.name, args: expr.args, predicate };
  }
  return { kind: 'where', expr };
}

/** What a MATCH's WHERE says of its pattern's nodes that the pattern could have said itself, by node name. */
interface WhereConstraints {
  /** `n.key = constant` */
  equalities: Map<string, { key: string; value: Expr }[]>;
  /** `id(n) = constant string` */
  ids: Map<string, Expr>;
  /** `n:Label` */
  labels: Map<string, string[]>;
  /** `n.key IN [literals]` (also among the filters) */
  memberships: Map<string, { key: string; value: Expr }[]>;
}

/**
 * Orders a bound pattern's goals by the planner's join order: each step's binding
 * goal, then the checks on what it bound, then every filter whose variables are now
 * all bound; a named path's binding comes last, and the filters that need it.
 * `boundBefore` holds the names known before the pattern runs.
 */
function orderGoals(
  pattern: BoundPattern,
  { equalities, ids, labels: whereLabels, memberships }: WhereConstraints,
  filters: Expr[],
  boundBefore: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  scope: Scope,
  graph: GraphIndex,
  options: PlanOptions,
  start?: string,
): Goal[] {
  const order = new GoalOrder(scope, boundBefore, options.parameters);
  const planNodes: PlanNode[] = [];
  for (const [name, entry] of pattern.nodes) {
    const inWhere = whereLabels.get(name);
    const labels = entry.patterns.length === 1 && !inWhere ? entry.patterns[0].labels : [...new Set([...entry.patterns.flatMap((node) => node.labels), ...(inWhere ?? [])])];
    const props = entry.patterns.flatMap((node) => propertyEntries(node.properties, 'node')).map(([key, value]) => ({ key, value }));
    const equal = equalities.get(name);
    if (equal) props.push(...equal);
    const id = ids.get(name);
    const sets = memberships.get(name) ?? [];
    order.constraints.set(name, { labels, props, id, sets });
    const constantProps: PlanNode['constantProps'] = [];
    for (const { key, value } of props) {
      const constant = constantValue(value, options.parameters);
      if (constant !== undefined) constantProps.push({ key, value: constant });
    }
    const constantSets = sets.map(({ key, value }) => ({ key, values: listedValues(value) }));
    planNodes.push({ name, labels, constantProps, constantSets, id: id && (constantValue(id, options.parameters) as string), bound: entry.bound });
  }
  const planRels: PlanRel[] = pattern.rels.map((rel) => ({
    name: rel.name,
    from: rel.from,
    to: rel.to,
    types: rel.pattern.types,
    direction: rel.pattern.direction,
    varLength: rel.pattern.range ? { min: rel.pattern.range.min ?? 1, max: rel.pattern.range.max ?? options.limits.maxVariableLength } : undefined,
    bound: rel.bound,
  }));

  for (const filter of filters) order.pending.push({ goal: filterGoal(filter, options), variables: variablesOf(filter) });
  // labels and properties written on a node bound before the pattern are checks on the row as it comes
  for (const [name, entry] of pattern.nodes) if (entry.bound) order.nodeChecks(name);
  order.flushPending();
  for (const op of planPattern(planNodes, planRels, graph, start)) {
    if (op.op === 'scanNode') order.scanNode(op.node, op.access, op.estimate);
    else order.relationship(pattern.rels.find((rel) => rel.name === op.rel)!, planRels.find((rel) => rel.name === op.rel)!, op);
    order.flushPending();
  }
  for (const path of pattern.paths) {
    order.goals.push({ kind: 'namedPath', path: { name: path.name, slot: path.slot }, nodes: path.nodeNames.map((name) => order.planVar(name)), rels: path.relNames.map((name) => order.planVar(name)) });
  }
  for (const { goal } of order.pending) order.goals.push(goal);
  return order.goals;
}

/** The goal list of one pattern as orderGoals appends to it, with what is bound so far and what waits for it. */
class GoalOrder {
  readonly goals: Goal[] = [];
  readonly constraints = new Map<string, { labels: string[]; props: { key: string; value: Expr }[]; id?: Expr; sets: { key: string; value: Expr }[] }>();
  /** Filters, and properties compared with variables, waiting for their variables. */
  readonly pending: { goal: Goal; variables: Set<string> }[] = [];
  private readonly boundHere = new Set<string>();

  constructor(
    private readonly scope: Scope,
    private readonly boundBefore: ReadonlySet<string> | ReadonlyMap<string, unknown>,
    private readonly parameters: Record<string, unknown>,
  ) {}

  planVar(name: string): PlanVar {
    return { name, slot: this.scope.get(name)!.slot };
  }

  private isBound(name: string): boolean {
    return this.boundBefore.has(name) || this.boundHere.has(name);
  }

  /** Whether every variable is bound by now (a name not in scope is left for the expression to report). */
  private known(variables: Set<string>): boolean {
    for (const name of variables) if (!this.isBound(name) && this.scope.has(name)) return false;
    return true;
  }

  flushPending(): void {
    for (let i = 0; i < this.pending.length; i++) {
      if (this.known(this.pending[i].variables)) {
        this.goals.push(this.pending[i].goal);
        this.pending.splice(i--, 1);
      }
    }
  }

  scanNode(name: string, access: NodeAccess, estimate: number): void {
    const node = this.planVar(name);
    const scan = { estimate };
    this.boundHere.add(name);
    if (access.kind === 'id') {
      this.goals.push({ kind: 'id', node, value: this.constraints.get(name)!.id!, scan });
      this.nodeChecks(name, { id: true });
    } else if (access.kind === 'label') {
      this.goals.push({ kind: 'node', node, label: access.label, scan });
      this.nodeChecks(name, { label: access.label });
    } else if (access.kind === 'prop') {
      const props = this.constraints.get(name)!.props;
      const at = props.findIndex(({ key, value }) => key === access.key && constantValue(value, this.parameters) === access.value);
      this.goals.push({ kind: 'prop', element: node, key: access.key, value: props[at].value, scan });
      this.nodeChecks(name, { prop: at });
    } else if (access.kind === 'propIn') {
      const set = this.constraints.get(name)!.sets.find(({ key }) => key === access.key)!;
      this.goals.push({ kind: 'prop', element: node, key: access.key, value: set.value, scan, listed: access.values });
      this.nodeChecks(name);
    } else {
      this.goals.push({ kind: 'node', node, scan });
      this.nodeChecks(name);
    }
  }

  relationship(rel: BoundPattern['rels'][number], planRel: PlanRel, op: Exclude<PlanOp, { op: 'scanNode' }>): void {
    const fromBound = this.isBound(rel.from);
    const toBound = this.isBound(rel.to) || rel.to === rel.from;
    const access: RelAccess = {
      kind: op.op === 'checkRel' ? 'bound' : op.op,
      reversed: op.op === 'expand' && op.reversed,
      fromBound,
      toBound,
      estimate: op.estimate,
    };
    const base = { rel: this.planVar(rel.name), from: this.planVar(rel.from), to: this.planVar(rel.to), types: planRel.types, direction: planRel.direction, access };
    this.goals.push(planRel.varLength ? { kind: 'path', ...base, ...planRel.varLength } : { kind: 'edge', ...base });
    this.boundHere.add(rel.from).add(rel.to).add(rel.name);
    // a relationship's properties are checked as it is walked, whatever they compare with
    for (const [key, value] of propertyEntries(rel.pattern.properties, 'relationship')) this.goals.push({ kind: 'prop', element: base.rel, key, value });
    if (!fromBound) this.nodeChecks(rel.from);
    if (!toBound) this.nodeChecks(rel.to);
  }

  /**
   * The label and property goals of a node just bound, but for the one its scan
   * already satisfies; a property compared with a variable not yet bound waits for it.
   */
  nodeChecks(name: string, satisfied?: { label: string } | { prop: number } | { id: true }): void {
    const { labels, props, id } = this.constraints.get(name)!;
    const node = this.planVar(name);
    if (id && !(satisfied && 'id' in satisfied)) this.goals.push({ kind: 'id', node, value: id });
    for (const label of labels) if (!(satisfied && 'label' in satisfied && satisfied.label === label)) this.goals.push({ kind: 'node', node, label });
    props.forEach(({ key, value }, i) => {
      if (satisfied && 'prop' in satisfied && satisfied.prop === i) return;
      const goal: PropGoal = { kind: 'prop', element: node, key, value };
      const variables = variablesOf(value);
      if (this.known(variables)) this.goals.push(goal);
      else this.pending.push({ goal, variables });
    });
  }
}

// ---- WITH and RETURN ----

function planProjection(kind: 'with' | 'return', projection: Projection, where: Expr | undefined, state: PartState): ProjectionPlan {
  const inputScope = state.scope;
  const written: { name: string; expr: Expr }[] = [];
  if (projection.star) {
    const names = [...inputScope.keys()].filter((name) => !isAnonymous(name)).sort();
    if (names.length === 0 && projection.items.length === 0) {
      throw compileError('NoVariablesInScope', 'RETURN * needs at least one variable in scope', projection.pos);
    }
    for (const name of names) written.push({ name, expr: { kind: 'var', name, pos: projection.pos } });
  }
  for (const item of projection.items) {
    written.push({ name: projectedName(item), expr: item.expr });
  }
  const aggregating = written.some((item) => containsAggregate(item.expr));
  const items = written.map((item) => ({ ...item, slot: state.nextSlot++ }));
  const groupingItems = items.map((item, i) => (containsAggregate(item.expr) ? -1 : i)).filter((i) => i >= 0);

  const outputScope: Scope = new Map();
  for (const item of items) outputScope.set(item.name, { slot: item.slot, kind: kindOf(item.expr, inputScope) });

  // ORDER BY and WITH's WHERE see the projected names and, without aggregation or DISTINCT, the input variables too
  const projected = aggregating || projection.distinct;
  const sortScope: Scope = projected ? new Map(outputScope) : new Map([...inputScope, ...outputScope]);
  const itemKeys = items.map((item) => exprKey(item.expr));
  const names = items.map((item) => item.name);
  const orderBy = (projection.orderBy ?? []).map((sort) => {
    const matchingItem = itemKeys.indexOf(exprKey(sort.expr));
    if (matchingItem >= 0 && projected) return { key: { slot: items[matchingItem].slot }, descending: sort.descending };
    // a projected item named by its alias: its slot too (the sort scope then holds only the projected names)
    const named = projected && sort.expr.kind === 'var' ? outputScope.get(sort.expr.name) : undefined;
    if (named) return { key: { slot: named.slot }, descending: sort.descending };
    const expr = projected ? rewriteToProjected(sort.expr, itemKeys, names) : sort.expr;
    return { key: { expr }, descending: sort.descending };
  });
  state.scope = outputScope;
  return {
    kind,
    items,
    inputScope,
    aggregating,
    groupingItems,
    aggregateSlot: state.nextSlot++,
    distinct: projection.distinct,
    orderBy,
    sortScope,
    skip: projection.skip,
    limit: projection.limit,
    where: where && projected ? rewriteToProjected(where, itemKeys, names) : where,
    outputScope,
  };
}

/** In ORDER BY after aggregation or DISTINCT, a sub-expression written like a projected item means that item. */
function rewriteToProjected(expr: Expr, itemKeys: string[], names: string[]): Expr {
  const at = itemKeys.indexOf(exprKey(expr));
  if (at >= 0) return { kind: 'var', name: names[at], pos: expr.pos };
  const recurse = (child: Expr) => rewriteToProjected(child, itemKeys, names);
  switch (expr.kind) {
    case 'binary':
      return { ...expr, left: recurse(expr.left), right: recurse(expr.right) };
    case 'unary':
    case 'isNull':
      return { ...expr, operand: recurse(expr.operand) };
    case 'prop':
      return { ...expr, target: recurse(expr.target) };
    case 'list':
      return { ...expr, items: expr.items.map(recurse) };
    case 'map':
      return { ...expr, entries: expr.entries.map(([key, value]) => [key, recurse(value)]) };
    case 'case':
      return {
        ...expr,
        subject: expr.subject && recurse(expr.subject),
        whens: expr.whens.map(([when, then]) => [recurse(when), recurse(then)]),
        otherwise: expr.otherwise && recurse(expr.otherwise),
      };
    case 'call':
      // the arguments of an aggregate are evaluated over the input rows: leave them as written
      return isAggregateFunction(expr.name) ? expr : { ...expr, args: expr.args.map(recurse) };
    default:
      return expr;
  }
}

/** What a projected expression is known to hold: MATCH on a name of kind 'value' is a type conflict. */
function kindOf(expr: Expr, scope: Scope): VarInfo['kind'] {
  switch (expr.kind) {
    case 'var':
      return scope.get(expr.name)?.kind ?? 'any';
    case 'literal':
      // null may stand where a node or relationship is expected: it matches nothing
      return expr.value === null ? 'any' : 'value';
    case 'list':
    case 'map':
    case 'binary':
    case 'isNull':
    case 'comprehension':
    case 'quantifier':
      return 'value';
    default:
      return 'any';
  }
}

// ---- CREATE (the test-only writer) ----

function planCreate(patterns: PatternPart[], state: PartState): CreatePlan {
  const scope = new Map(state.scope);
  const elements: CreateElement[] = [];
  const nodeVar = (node: PatternPart['nodes'][number]): PlanVar => {
    const name = node.variable;
    const existing = name ? scope.get(name) : undefined;
    if (existing) {
      if (node.labels.length > 0 || node.properties) throw compileError('VariableAlreadyBound', `'${name}' is already bound`, node.pos);
      return { name: name!, slot: existing.slot };
    }
    const created = { name: name ?? anonymousName(state), slot: state.nextSlot++ };
    if (name) scope.set(name, { slot: created.slot, kind: 'node' });
    elements.push({ kind: 'node', node: created, labels: node.labels, properties: node.properties, scope: new Map(scope) });
    return created;
  };
  for (const part of patterns) {
    const ends = [nodeVar(part.nodes[0])];
    part.relationships.forEach((rel, i) => {
      ends.push(nodeVar(part.nodes[i + 1]));
      if (rel.types.length !== 1 || rel.direction === 'both' || rel.range) {
        throw compileError('NoSingleRelationshipType', 'CREATE needs one relationship type and a direction', rel.pos);
      }
      const [from, to] = rel.direction === 'out' ? [ends[i], ends[i + 1]] : [ends[i + 1], ends[i]];
      const created = { name: rel.variable ?? anonymousName(state), slot: state.nextSlot++ };
      if (rel.variable) scope.set(rel.variable, { slot: created.slot, kind: 'rel' });
      elements.push({ kind: 'edge', rel: created, type: rel.types[0], from, to, properties: rel.properties, scope: new Map(scope) });
    });
  }
  state.scope = scope;
  return { kind: 'create', elements };
}
