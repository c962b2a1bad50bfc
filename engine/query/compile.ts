/**
 * Compiles an analysed AST into an executable plan and its Prolog goal text.
 * A MATCH becomes base literals — `node(N, Label)`, `prop(N, Key, Value)`,
 * `edge(E, Type, From, To, Confidence)`, `path(Es, Types, From, To, Min, Max)` —
 * in the order planner.ts chooses, with each WHERE conjunct placed right after
 * the literal that binds its last variable; every literal is one join step that
 * execute.ts runs over the GraphIndex. The goal text renders exactly those steps.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { PropertyValue } from '../ontology/index.ts';
import type { Clause, Expr, NodePattern, PatternPart, Projection, QueryAst, RelationshipPattern } from './ast.ts';
import {
  type AggregateSpec, compileError, compileExpr, containsAggregate, type ExprContext, type Fn, type PatternRunner,
  type Row, type Scope, type VarInfo, type Env,
} from './expressions.ts';
import type { QueryLimits } from './limits.ts';
import { type PlanNode, type PlanOp, type PlanRel, planPattern } from './planner.ts';
import type { RuleRegistry } from './rules.ts';
import { isAggregateFunction } from './functions.ts';
import { buildMatchRunner, type MatchStep } from './match.ts';
import { type CypherValue, toProperty } from './values.ts';

export interface CompiledProjection {
  items: { name: string; fn: Fn; slot: number }[];
  aggregates: AggregateSpec[];
  /** Indexes into `items` of the grouping keys (when aggregating). */
  groupingItems: number[];
  aggregating: boolean;
  /** Slot holding each group's finished aggregate values, for ORDER BY after aggregation. */
  aggregateSlot: number;
  distinct: boolean;
  orderBy: { fn: Fn; descending: boolean }[];
  skip?: Fn;
  limit?: Fn;
  where?: Fn;
}

export type CompiledClause =
  | { kind: 'match'; optional: boolean; run: PatternRunner; newSlots: number[] }
  | { kind: 'unwind'; fn: Fn; slot: number }
  | { kind: 'project'; projection: CompiledProjection; final: boolean }
  | { kind: 'create'; run: (row: Row, env: Env) => void };

export interface CompiledPart {
  clauses: CompiledClause[];
  columns: string[];
}

export interface CompiledQuery {
  parts: CompiledPart[];
  unionAll: boolean[];
  goal: string;
  plan: string[];
}

export interface CompileOptions {
  rules?: RuleRegistry;
  parameters: Record<string, unknown>;
  limits: QueryLimits;
}

interface PartState {
  scope: Scope;
  nextSlot: number;
  goal: string[];
  plan: string[];
  anonymous: number;
}

export function compileQuery(ast: QueryAst, graph: GraphIndex, options: CompileOptions): CompiledQuery {
  const goals: string[] = [];
  const plan: string[] = [];
  const parts = ast.parts.map((part, i) => {
    const state: PartState = { scope: new Map(), nextSlot: 0, goal: [], plan: [], anonymous: 0 };
    const compiled = compilePart(part.clauses, state, graph, options);
    goals.push(state.goal.join(',\n'));
    plan.push(...state.plan.map((line) => (ast.parts.length > 1 ? `part ${i + 1}: ${line}` : line)));
    return compiled;
  });
  const columns = parts[0].columns;
  for (const part of parts) {
    if (part.columns.length !== columns.length || part.columns.some((column, i) => column !== columns[i])) {
      throw compileError('DifferentColumnsInUnion', 'all parts of a UNION must return the same columns', { line: 1, column: 1 });
    }
  }
  return { parts, unionAll: ast.unionAll, goal: goals.join(';\n'), plan };
}

function compilePart(clauses: Clause[], state: PartState, graph: GraphIndex, options: CompileOptions): CompiledPart {
  const compiled: CompiledClause[] = [];
  let columns: string[] = [];
  for (const clause of clauses) {
    switch (clause.kind) {
      case 'match': {
        const before = new Set(state.scope.keys());
        const run = compileMatch(clause.patterns, clause.where, state, graph, options, clause.optional);
        const newSlots = [...state.scope].filter(([name]) => !before.has(name)).map(([, info]) => info.slot);
        compiled.push({ kind: 'match', optional: clause.optional, run, newSlots });
        break;
      }
      case 'unwind': {
        const fn = compileExpr(clause.expr, exprContext(state, graph, options));
        const slot = state.nextSlot++;
        state.scope = new Map(state.scope).set(clause.alias, { slot, kind: 'any' });
        state.goal.push(`unwind(${renderExpr(clause.expr)}, ${prologVar(clause.alias)})`);
        state.plan.push(`unwind ${clause.alias}`);
        compiled.push({ kind: 'unwind', fn, slot });
        break;
      }
      case 'with':
      case 'return': {
        const { projection, names } = compileProjection(clause.projection, clause.kind === 'with' ? clause.where : undefined, state, graph, options);
        columns = names;
        const final = clause.kind === 'return';
        state.goal.push(`${clause.kind}([${names.map((name) => `'${name.replace(/'/g, "\\'")}'`).join(', ')}])`);
        state.plan.push(`${clause.kind} ${names.join(', ')}${projection.aggregating ? ' (aggregate)' : ''}`);
        compiled.push({ kind: 'project', projection, final });
        break;
      }
      case 'create': {
        compiled.push({ kind: 'create', run: compileCreate(clause.patterns, state, graph, options) });
        state.goal.push('create(...)');
        break;
      }
      case 'write':
        throw compileError('ReadOnlyQuery', `${clause.keyword} is not supported`, clause.pos);
    }
  }
  return { clauses: compiled, columns };
}

function exprContext(state: PartState, graph: GraphIndex, options: CompileOptions, aggregates?: AggregateSpec[], scope = state.scope): ExprContext {
  return {
    scope,
    aggregates,
    rules: options.rules,
    allocateSlot: () => state.nextSlot++,
    compilePattern: (pattern, patternScope) => compilePatternExpression(pattern, patternScope, state, graph, options),
  };
}

// ---- projections ----

function compileProjection(
  projection: Projection,
  where: Expr | undefined,
  state: PartState,
  graph: GraphIndex,
  options: CompileOptions,
): { projection: CompiledProjection; names: string[] } {
  const inputScope = state.scope;
  const items: { name: string; expr: Expr; visibleAs: string }[] = [];
  if (projection.star) {
    const names = [...inputScope.keys()].filter((name) => !name.startsWith(' ')).sort();
    if (names.length === 0 && projection.items.length === 0) {
      throw compileError('NoVariablesInScope', 'RETURN * needs at least one variable in scope', projection.pos);
    }
    for (const name of names) items.push({ name, expr: { kind: 'var', name, pos: projection.pos }, visibleAs: name });
  }
  for (const item of projection.items) {
    const name = item.alias ?? (item.expr.kind === 'var' ? item.expr.name : item.text);
    items.push({ name, expr: item.expr, visibleAs: name });
  }
  const aggregates: AggregateSpec[] = [];
  const aggregating = items.some((item) => containsAggregate(item.expr));
  const compiledItems = items.map((item) => ({
    name: item.name,
    fn: compileExpr(item.expr, exprContext(state, graph, options, aggregating ? aggregates : undefined, inputScope)),
    slot: state.nextSlot++,
    kind: kindOf(item.expr, inputScope),
  }));
  const groupingItems = items.map((item, i) => (containsAggregate(item.expr) ? -1 : i)).filter((i) => i >= 0);

  const outputScope: Scope = new Map();
  compiledItems.forEach((item) => outputScope.set(item.name, { slot: item.slot, kind: item.kind }));

  // ORDER BY sees the projected names and, without aggregation or DISTINCT, the input variables too
  const sortScope: Scope = aggregating || projection.distinct ? new Map(outputScope) : new Map([...inputScope, ...outputScope]);
  const itemKeys = items.map((item) => exprKey(item.expr));
  const orderBy = (projection.orderBy ?? []).map((sort) => {
    const matchingItem = itemKeys.indexOf(exprKey(sort.expr));
    if (matchingItem >= 0 && (aggregating || projection.distinct)) {
      const slot = compiledItems[matchingItem].slot;
      return { fn: ((row: Row) => row[slot] ?? null) as Fn, descending: sort.descending };
    }
    const sortAggregates = aggregating ? aggregates : undefined;
    const rewritten = aggregating || projection.distinct ? rewriteToProjected(sort.expr, itemKeys, compiledItems.map((item) => item.name)) : sort.expr;
    const fn = compileExpr(rewritten, { ...exprContext(state, graph, options, sortAggregates, sortScope), argumentScope: inputScope });
    return { fn, descending: sort.descending };
  });
  const constant = (expr: Expr | undefined) => (expr ? compileExpr(expr, exprContext(state, graph, options, undefined, new Map())) : undefined);
  state.scope = outputScope;
  const whereFn = where ? compileExpr(where, exprContext(state, graph, options)) : undefined;
  return {
    projection: {
      items: compiledItems,
      aggregates,
      groupingItems,
      aggregating,
      aggregateSlot: state.nextSlot++,
      distinct: projection.distinct,
      orderBy,
      skip: constant(projection.skip),
      limit: constant(projection.limit),
      where: whereFn,
    },
    names: compiledItems.map((item) => item.name),
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
    case 'call':
      // the arguments of an aggregate are evaluated over the input rows: leave them as written
      return isAggregateFunction(expr.name) ? expr : { ...expr, args: expr.args.map(recurse) };
    default:
      return expr;
  }
}

export function exprKey(expr: Expr): string {
  return JSON.stringify(expr, (key, value) => (key === 'pos' ? undefined : typeof value === 'bigint' ? `${value}n` : value));
}

/** What a projected expression is known to hold: MATCH on a name of kind 'value' is a type conflict. */
function kindOf(expr: Expr, scope: Scope): VarInfo['kind'] {
  switch (expr.kind) {
    case 'var':
      return scope.get(expr.name)?.kind ?? 'any';
    case 'literal':
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

// ---- MATCH ----

interface NormalisedPattern {
  nodes: Map<string, { pattern: NodePattern[]; info: VarInfo; bound: boolean }>;
  rels: { name: string; pattern: RelationshipPattern; from: string; to: string; info: VarInfo; bound: boolean }[];
  paths: { slot: number; nodeNames: string[]; relNames: string[] }[];
}

function anonymousName(state: PartState): string {
  return ` anon${state.anonymous++}`;
}

function normalise(patterns: PatternPart[], state: PartState, scope: Scope): NormalisedPattern {
  const result: NormalisedPattern = { nodes: new Map(), rels: [], paths: [] };
  for (const part of patterns) {
    const nodeNames: string[] = [];
    const relNames: string[] = [];
    part.nodes.forEach((node, i) => {
      const name = node.variable ?? anonymousName(state);
      nodeNames.push(name);
      let entry = result.nodes.get(name);
      if (!entry) {
        const existing = scope.get(name);
        if (existing && existing.kind !== 'node' && existing.kind !== 'any') {
          throw compileError('VariableTypeConflict', `'${name}' is a ${existing.kind}, not a node`, node.pos);
        }
        const info = existing ?? { slot: state.nextSlot++, kind: 'node' as const };
        entry = { pattern: [], info, bound: !!existing };
        result.nodes.set(name, entry);
        scope.set(name, info);
      }
      entry.pattern.push(node);
      if (i > 0) {
        const rel = part.relationships[i - 1];
        const relName = rel.variable ?? anonymousName(state);
        relNames.push(relName);
        const existing = scope.get(relName);
        if (existing && (existing.kind === 'node' || existing.kind === 'path' || existing.kind === 'value')) {
          throw compileError('VariableTypeConflict', `'${relName}' is a ${existing.kind}, not a relationship`, rel.pos);
        }
        if (result.rels.some((other) => other.name === relName)) {
          throw compileError('RelationshipUniquenessViolation', `relationship '${relName}' appears twice in one pattern`, rel.pos);
        }
        const info = existing ?? { slot: state.nextSlot++, kind: rel.range ? ('relList' as const) : ('rel' as const) };
        scope.set(relName, info);
        result.rels.push({ name: relName, pattern: rel, from: nodeNames[i - 1], to: name, info, bound: !!existing });
      }
    });
    if (part.pathVariable) {
      if (scope.has(part.pathVariable)) throw compileError('VariableAlreadyBound', `'${part.pathVariable}' is already bound`, part.pos);
      const slot = state.nextSlot++;
      scope.set(part.pathVariable, { slot, kind: 'path' });
      result.paths.push({ slot, nodeNames, relNames });
    }
  }
  return result;
}

/** Splits a WHERE into its conjuncts. */
function conjuncts(expr: Expr | undefined): Expr[] {
  if (!expr) return [];
  if (expr.kind === 'binary' && expr.op === 'AND') return [...conjuncts(expr.left), ...conjuncts(expr.right)];
  return [expr];
}

function variablesOf(expr: Expr, into = new Set<string>(), bound = new Set<string>()): Set<string> {
  const visit = (e: Expr | undefined, locals: Set<string>) => {
    if (!e) return;
    switch (e.kind) {
      case 'var':
        if (!locals.has(e.name)) into.add(e.name);
        return;
      case 'comprehension':
      case 'quantifier': {
        visit(e.source, locals);
        const inner = new Set(locals).add(e.variable);
        visit(e.where, inner);
        if (e.kind === 'comprehension') visit(e.map, inner);
        return;
      }
      case 'pattern':
      case 'patternComprehension': {
        for (const node of e.pattern.nodes) {
          if (node.variable && !locals.has(node.variable)) into.add(node.variable);
          visit(node.properties, locals);
        }
        for (const rel of e.pattern.relationships) {
          if (rel.variable && !locals.has(rel.variable)) into.add(rel.variable);
          visit(rel.properties, locals);
        }
        if (e.kind === 'patternComprehension') {
          visit(e.where, locals);
          visit(e.map, locals);
        }
        return;
      }
    }
    for (const value of Object.values(e)) {
      if (Array.isArray(value)) {
        for (const item of value) {
          if (Array.isArray(item)) item.forEach((x) => typeof x === 'object' && x && 'kind' in x && visit(x as Expr, locals));
          else if (typeof item === 'object' && item && 'kind' in item) visit(item as Expr, locals);
        }
      } else if (typeof value === 'object' && value && 'kind' in value) visit(value as Expr, locals);
    }
  };
  visit(expr, bound);
  return into;
}

function constantValue(expr: Expr, options: CompileOptions): PropertyValue | undefined {
  try {
    if (expr.kind === 'literal') return expr.value === null ? null : toProperty(expr.value as CypherValue);
    if (expr.kind === 'param' && Object.hasOwn(options.parameters, expr.name)) {
      const value = options.parameters[expr.name];
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
      if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function compileMatch(
  patterns: PatternPart[],
  where: Expr | undefined,
  state: PartState,
  graph: GraphIndex,
  options: CompileOptions,
  optional: boolean,
): PatternRunner {
  const scope = new Map(state.scope);
  const normalised = normalise(patterns, state, scope);
  const filters = conjuncts(where);
  // inline property maps and WHERE equalities `n.key = constant` are the same constraint
  const extraProps = new Map<string, { key: string; expr: Expr }[]>();
  const remainingFilters: Expr[] = [];
  for (const filter of filters) {
    if (filter.kind === 'binary' && filter.op === '=') {
      const [prop, value] = filter.left.kind === 'prop' ? [filter.left, filter.right] : [filter.right, filter.left];
      if (prop.kind === 'prop' && prop.target.kind === 'var' && normalised.nodes.has(prop.target.name) && !normalised.nodes.get(prop.target.name)!.bound &&
        (value.kind === 'literal' || value.kind === 'param') && constantValue(value, options) !== undefined) {
        const list = extraProps.get(prop.target.name) ?? [];
        list.push({ key: prop.key, expr: value });
        extraProps.set(prop.target.name, list);
        continue;
      }
    }
    remainingFilters.push(filter);
  }
  const steps = planAndBuild(normalised, remainingFilters, extraProps, scope, state, graph, options, optional ? 'optional' : 'match');
  state.scope = scope;
  return buildMatchRunner(steps);
}

function compilePatternExpression(pattern: PatternPart, scope: Scope, state: PartState, graph: GraphIndex, options: CompileOptions): PatternRunner {
  const saved = { goal: state.goal, plan: state.plan };
  state.goal = [];
  state.plan = [];
  const normalised = normalise([pattern], state, scope);
  const steps = planAndBuild(normalised, [], new Map(), scope, state, graph, options, 'exists');
  state.goal = saved.goal;
  state.plan = saved.plan;
  return buildMatchRunner(steps);
}

function planAndBuild(
  normalised: NormalisedPattern,
  filters: Expr[],
  extraProps: Map<string, { key: string; expr: Expr }[]>,
  scope: Scope,
  state: PartState,
  graph: GraphIndex,
  options: CompileOptions,
  wrapper: 'match' | 'optional' | 'exists',
): MatchStep[] {
  const ctx = exprContext(state, graph, options, undefined, scope);
  const nodeProps = new Map<string, { key: string; expr: Expr; fn: Fn }[]>();
  const planNodes: PlanNode[] = [];
  for (const [name, entry] of normalised.nodes) {
    const props: { key: string; expr: Expr; fn: Fn }[] = [];
    const labels = new Set<string>();
    for (const pattern of entry.pattern) {
      pattern.labels.forEach((label) => labels.add(label));
      if (pattern.properties) {
        if (pattern.properties.kind !== 'map') throw compileError('InvalidParameterUse', 'a parameter cannot be used as a node property map in MATCH', pattern.properties.pos);
        for (const [key, expr] of pattern.properties.entries) props.push({ key, expr, fn: compileExpr(expr, ctx) });
      }
    }
    for (const { key, expr } of extraProps.get(name) ?? []) props.push({ key, expr, fn: compileExpr(expr, ctx) });
    nodeProps.set(name, props);
    const constantProps = props
      .map(({ key, expr }) => ({ key, value: constantValue(expr, options) }))
      .filter((prop): prop is { key: string; value: PropertyValue } => prop.value !== undefined);
    planNodes.push({ name, labels: [...labels], constantProps, bound: entry.bound });
  }
  const planRels: PlanRel[] = normalised.rels.map((rel) => ({
    name: rel.name,
    from: rel.from,
    to: rel.to,
    types: rel.pattern.types,
    direction: rel.pattern.direction,
    varLength: rel.pattern.range ? { min: rel.pattern.range.min ?? 1, max: rel.pattern.range.max ?? options.limits.maxVariableLength } : undefined,
    bound: rel.bound,
  }));
  const ops = planPattern(planNodes, planRels, graph);
  const nodeByName = new Map(planNodes.map((node) => [node.name, node]));
  const relByName = new Map(normalised.rels.map((rel) => [rel.name, rel]));
  const planRelByName = new Map(planRels.map((rel) => [rel.name, rel]));

  const boundNames = new Set(planNodes.filter((node) => node.bound).map((node) => node.name));
  for (const rel of normalised.rels) if (rel.bound) boundNames.add(rel.name);
  for (const [name] of state.scope) boundNames.add(name);
  const pending = filters.map((filter) => ({ filter, variables: variablesOf(filter), fn: compileExpr(filter, ctx) }));
  const steps: MatchStep[] = [];
  const goal: string[] = [];
  const plan: string[] = [];

  const nodeCheck = (name: string, skipAccess?: PlanOp) => {
    const node = nodeByName.get(name)!;
    const props = nodeProps.get(name)!;
    const accessLabel = skipAccess?.op === 'scanNode' && skipAccess.access.kind === 'label' ? skipAccess.access.label : undefined;
    const accessProp = skipAccess?.op === 'scanNode' && skipAccess.access.kind === 'prop' ? skipAccess.access.key : undefined;
    for (const label of node.labels) if (label !== accessLabel) goal.push(`node(${prologVar(name)}, ${atom(label)})`);
    for (const prop of props) if (prop.key !== accessProp) goal.push(`prop(${prologVar(name)}, ${atom(prop.key)}, ${renderExpr(prop.expr)})`);
    return { labels: node.labels, props: props.map(({ key, fn }) => ({ key, fn })) };
  };
  const flushFilters = () => {
    for (let i = 0; i < pending.length; i++) {
      const { filter, variables, fn } = pending[i];
      if ([...variables].every((name) => boundNames.has(name) || !scope.has(name))) {
        steps.push({ kind: 'filter', fn });
        goal.push(`where(${renderExpr(filter)})`);
        pending.splice(i--, 1);
      }
    }
  };
  flushFilters();
  for (const op of ops) {
    switch (op.op) {
      case 'scanNode': {
        const name = op.node;
        const info = scope.get(name)!;
        const access = op.access;
        goal.push(
          access.kind === 'label' ? `node(${prologVar(name)}, ${atom(access.label)})`
            : access.kind === 'prop' ? `prop(${prologVar(name)}, ${atom(access.key)}, ${renderValue(access.value)})`
              : `node(${prologVar(name)}, _)`,
        );
        const check = nodeCheck(name, op);
        const accessFn = access.kind === 'prop' ? nodeProps.get(name)!.find((prop) => prop.key === access.key)!.fn : undefined;
        steps.push({ kind: 'scanNode', slot: info.slot, access: access.kind === 'prop' ? { kind: 'prop', key: access.key, fn: accessFn! } : access, ...check });
        plan.push(`scan ${name.trim()} by ${access.kind === 'all' ? 'all nodes' : access.kind === 'label' ? `label ${access.label}` : `property ${access.key}`} (~${Math.round(op.estimate)} rows)`);
        boundNames.add(name);
        break;
      }
      case 'expand':
      case 'scanEdges':
      case 'checkRel': {
        const rel = relByName.get(op.rel)!;
        const planRel = planRelByName.get(op.rel)!;
        const relProps = compileRelProps(rel.pattern, ctx);
        const fromInfo = scope.get(rel.from)!;
        const toInfo = scope.get(rel.to)!;
        const fromBound = boundNames.has(rel.from);
        const toBound = boundNames.has(rel.to);
        goal.push(renderEdge(rel.name, planRel, rel.pattern));
        const fromCheck = fromBound ? undefined : nodeCheck(rel.from);
        const toCheck = toBound ? undefined : nodeCheck(rel.to);
        if (op.op === 'expand') {
          const reversed = op.reversed;
          const sourceSlot = reversed ? toInfo.slot : fromInfo.slot;
          const targetSlot = reversed ? fromInfo.slot : toInfo.slot;
          const targetBound = reversed ? fromBound : toBound;
          const direction = reversed ? flip(planRel.direction) : planRel.direction;
          const targetCheck = (reversed ? fromCheck : toCheck) ?? { labels: [], props: [] };
          steps.push({
            kind: planRel.varLength ? 'varExpand' : 'expand',
            sourceSlot, targetSlot, targetBound, relSlot: rel.info.slot, direction, types: planRel.types, relProps,
            min: planRel.varLength?.min ?? 1, max: planRel.varLength?.max ?? 1, reversed, ...targetCheck,
          });
          plan.push(`expand ${op.from.trim() || '()'} -[${rel.name.trim()}${planRel.types.length ? ':' + planRel.types.join('|') : ''}${planRel.varLength ? `*${planRel.varLength.min}..${planRel.varLength.max}` : ''}]- ${op.to.trim() || '()'} (~${op.estimate.toFixed(2)} per row)`);
        } else {
          steps.push({
            kind: op.op === 'scanEdges' ? 'scanEdges' : 'checkRel',
            relSlot: rel.info.slot, fromSlot: fromInfo.slot, toSlot: toInfo.slot, fromBound, toBound,
            direction: planRel.direction, types: planRel.types, relProps,
            fromCheck: fromCheck ?? { labels: [], props: [] }, toCheck: toCheck ?? { labels: [], props: [] },
          });
          plan.push(`${op.op === 'scanEdges' ? 'scan edges' : 'bound edge'} ${rel.name.trim()} (~${Math.round(op.estimate)} rows)`);
        }
        boundNames.add(rel.from);
        boundNames.add(rel.to);
        boundNames.add(rel.name);
        break;
      }
    }
    flushFilters();
  }
  for (const path of normalised.paths) {
    steps.push({
      kind: 'bindPath',
      slot: path.slot,
      nodeSlots: path.nodeNames.map((name) => scope.get(name)!.slot),
      relSlots: path.relNames.map((name) => scope.get(name)!.slot),
    });
  }
  for (const { fn, filter } of pending) {
    steps.push({ kind: 'filter', fn });
    goal.push(`where(${renderExpr(filter)})`);
  }
  const body = goal.length === 0 ? 'true' : goal.join(', ');
  if (wrapper !== 'exists') {
    state.goal.push(wrapper === 'optional' ? `optional((${body}))` : body);
    state.plan.push(...plan.map((line) => (wrapper === 'optional' ? `optional ${line}` : line)));
  }
  return steps;
}

function compileRelProps(pattern: RelationshipPattern, ctx: ExprContext): { key: string; fn: Fn }[] {
  if (!pattern.properties) return [];
  if (pattern.properties.kind !== 'map') throw compileError('InvalidParameterUse', 'a parameter cannot be used as a relationship property map in MATCH', pattern.properties.pos);
  return pattern.properties.entries.map(([key, expr]) => ({ key, fn: compileExpr(expr, ctx) }));
}

function flip(direction: 'out' | 'in' | 'both'): 'out' | 'in' | 'both' {
  return direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
}

// ---- CREATE (test-only writer) ----

function compileCreate(patterns: PatternPart[], state: PartState, graph: GraphIndex, options: CompileOptions): (row: Row, env: Env) => void {
  const scope = new Map(state.scope);
  const ctx = exprContext(state, graph, options, undefined, scope);
  type Action = (row: Row, env: Env) => void;
  const actions: Action[] = [];
  const nodeSlot = (node: NodePattern): number => {
    const name = node.variable;
    const existing = name ? scope.get(name) : undefined;
    if (existing) {
      if (node.labels.length > 0 || node.properties) throw compileError('VariableAlreadyBound', `'${name}' is already bound`, node.pos);
      return existing.slot;
    }
    const slot = state.nextSlot++;
    if (name) scope.set(name, { slot, kind: 'node' });
    const props = node.properties ? compileExpr(node.properties, ctx) : undefined;
    const labels = node.labels;
    actions.push((row, env) => {
      row[slot] = { $node: createNode(env, labels, props?.(row, env)) };
    });
    return slot;
  };
  for (const part of patterns) {
    const slots = [nodeSlot(part.nodes[0])];
    part.relationships.forEach((rel, i) => {
      slots.push(nodeSlot(part.nodes[i + 1]));
      if (rel.types.length !== 1 || rel.direction === 'both' || rel.range) {
        throw compileError('NoSingleRelationshipType', 'CREATE needs one relationship type and a direction', rel.pos);
      }
      const [fromSlot, toSlot] = rel.direction === 'out' ? [slots[i], slots[i + 1]] : [slots[i + 1], slots[i]];
      const slot = state.nextSlot++;
      if (rel.variable) scope.set(rel.variable, { slot, kind: 'rel' });
      const props = rel.properties ? compileExpr(rel.properties, ctx) : undefined;
      const type = rel.types[0];
      actions.push((row, env) => {
        const from = row[fromSlot] as { $node: { id: string } };
        const to = row[toSlot] as { $node: { id: string } };
        row[slot] = { $rel: createEdge(env, type, from.$node.id, to.$node.id, props?.(row, env)) };
      });
    });
  }
  state.scope = scope;
  return (row, env) => actions.forEach((action) => action(row, env));
}

let createdCounter = 0;

function propertiesFrom(value: CypherValue | undefined): Record<string, PropertyValue> {
  const properties: Record<string, PropertyValue> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value as Record<string, CypherValue>)) if (item !== null) properties[key] = toProperty(item);
  }
  return properties;
}

function createNode(env: Env, labels: string[], props: CypherValue | undefined) {
  const record = {
    id: `n${++createdCounter}`,
    labels: [...new Set(labels)],
    properties: propertiesFrom(props),
    confidence: 1,
    provenance: [],
    recorded_at: new Date().toISOString(),
  };
  while (env.graph.node(record.id)) record.id = `n${++createdCounter}`;
  env.graph.putNode(record);
  return record;
}

function createEdge(env: Env, type: string, from: string, to: string, props: CypherValue | undefined) {
  const record = { id: `e${++createdCounter}`, type, from, to, properties: propertiesFrom(props), confidence: 1, provenance: [], recorded_at: new Date().toISOString() };
  while (env.graph.edge(record.id)) record.id = `e${++createdCounter}`;
  env.graph.putEdge(record);
  return record;
}

// ---- goal text ----

export function prologVar(name: string): string {
  const trimmed = name.trim();
  if (trimmed.startsWith('anon')) return '_' + trimmed.slice(4).replace(/^/, 'A');
  return 'V_' + trimmed.replace(/[^A-Za-z0-9_]/g, '_');
}

function atom(text: string): string {
  return /^[a-z][A-Za-z0-9_]*$/.test(text) ? text : `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function renderValue(value: PropertyValue): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function renderEdge(name: string, rel: PlanRel, pattern: RelationshipPattern): string {
  const type = rel.types.length === 0 ? '_' : rel.types.length === 1 ? atom(rel.types[0]) : `T_${name.trim()}`;
  const typeGoal = rel.types.length > 1 ? `, member(${type}, [${rel.types.map(atom).join(', ')}])` : '';
  const [from, to] = [prologVar(rel.from), prologVar(rel.to)];
  const props = (pattern.properties?.kind === 'map' ? pattern.properties.entries : []).map(([key, expr]) => `, prop(${prologVar(name)}, ${atom(key)}, ${renderExpr(expr)})`).join('');
  if (rel.varLength) {
    return `path(${prologVar(name)}, [${rel.types.map(atom).join(', ')}], ${rel.direction === 'in' ? to : from}, ${rel.direction === 'in' ? from : to}, ${rel.varLength.min}, ${rel.varLength.max})`;
  }
  const edge = (a: string, b: string) => `edge(${prologVar(name)}, ${type}, ${a}, ${b}, _)`;
  const body = rel.direction === 'out' ? edge(from, to) : rel.direction === 'in' ? edge(to, from) : `(${edge(from, to)} ; ${edge(to, from)})`;
  return body + typeGoal + props;
}

export function renderExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return typeof expr.value === 'string' ? renderValue(expr.value) : expr.value === null ? 'null' : String(expr.value);
    case 'param':
      return `'$${expr.name}'`;
    case 'var':
      return prologVar(expr.name);
    case 'prop':
      return `prop_of(${renderExpr(expr.target)}, ${atom(expr.key)})`;
    case 'binary':
      return `${BINARY_NAMES[expr.op]}(${renderExpr(expr.left)}, ${renderExpr(expr.right)})`;
    case 'unary':
      return expr.op === 'NOT' ? `\\+ ${renderExpr(expr.operand)}` : `${expr.op === '-' ? 'neg' : 'pos'}(${renderExpr(expr.operand)})`;
    case 'isNull':
      return `${expr.negated ? 'is_not_null' : 'is_null'}(${renderExpr(expr.operand)})`;
    case 'call':
      return `${atom(expr.name)}(${expr.star ? '*' : expr.args.map(renderExpr).join(', ')})`;
    case 'list':
      return `[${expr.items.map(renderExpr).join(', ')}]`;
    case 'labels':
      return expr.labels.map((label) => `node(${renderExpr(expr.target)}, ${atom(label)})`).join(', ');
    case 'pattern':
      return `exists(pattern)`;
    default:
      return `cypher(${expr.kind})`;
  }
}

const BINARY_NAMES: Record<string, string> = {
  OR: 'or', XOR: 'xor', AND: 'and', '=': 'eq', '<>': 'neq', '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge', IN: 'in',
  'STARTS WITH': 'starts_with', 'ENDS WITH': 'ends_with', CONTAINS: 'contains', '=~': 'matches', '+': 'add', '-': 'sub',
  '*': 'mul', '/': 'div', '%': 'mod', '^': 'pow',
};
