/**
 * Building, the third compile stage: a plan (plan.ts) becomes what execute.ts
 * runs. A MATCH's goals become, one for one and in order, the join steps match.ts
 * runs over the GraphIndex — a goal that binds a variable becomes a scan or an
 * expansion, the label and property goals on what it just bound fold into its
 * checks, `where` becomes a filter, a rule goal a call into the Prolog bridge (rules.ts).
 * Nothing is reordered or decided here: explain.ts prints the same goals.
 */
import type { PropertyValue } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import type { Expr, PatternPart } from './ast.ts';
import { isAnonymous, literalMembership, type SlotCounter, variablesOf } from './bind.ts';
import { type AggregateSpec, compileExpr, containsAggregate, type ExprContext } from './expressions.ts';
import {
  buildCountingRunner, buildDenseCounter, buildEndCounter, buildGroupCounter, buildPairCounter, buildMatchRunner, buildPatternCounter, buildPatternTest, type CountingRunner, type DenseCounter, type GroupCounter, type PairCounter,
  type MatchStep, type NodeCheck,
} from './match.ts';
import {
  type CreateElement, type CreatePlan, type Goal, type MatchPlan, type PairSide, type PartPlan, type PlanOptions, type ProjectionPlan,
  nodeGroupSlot, planPatternExpression, type QueryPlan,
} from './plan.ts';
import { isAggregateFunction, isCountStar } from './functions.ts';
import { callRule } from './rules.ts';
import type { Env, Fn, PatternCounter, PatternRunner, PatternTest, Row, Scope } from './types.ts';
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
  /** `slot`: the key is that projected item's value. */
  orderBy: { fn: Fn; descending: boolean; slot?: number }[];
  skip?: Fn;
  limit?: Fn;
  where?: Fn;
  /**
   * Whether a group's output row is built from its first input row: not when every
   * other item is an aggregate call and every sort key a projected item, so that the
   * groups hold no copy of a row.
   */
  groupsKeepFirstRow: boolean;
  /**
   * The slot of the node variable `v` when the groups are `v`'s nodes: the grouping keys
   * are `v` or `id(v)`, and any of `v`'s properties beside. Rows binding distinct nodes
   * there fall in distinct groups, and the other keys are read once per group.
   */
  groupKeySlot?: number;
  /**
   * The slots of the items WITH's WHERE reads, when it reads only items that are `count(*)`:
   * then whether a group passes depends on its count alone.
   */
  whereCountSlots?: number[];
  /**
   * The node variable's slot and the key when the one grouping key is a property `v.key` of
   * a node variable: the groups are that property's values over `v`'s nodes, so counts per
   * node fold into one count per value (Aggregator.countsPerValue).
   */
  groupProperty?: { slot: number; key: string };
  /** The slots of the items that are a plain `count(*)`. */
  countSlots: number[];
  /**
   * Per sort key that is a projected item (named or by its slot): the item's index, and
   * when the item is a variable of the input, that variable's slot. What the projection
   * before this one needs to sort its groups by this one's keys (Aggregator.topRowsFor).
   */
  sortItems: ({ item: number; inputSlot?: number } | undefined)[];
}

export type CompiledClause =
  /** `steps` are what `run` runs, in order: kept so that tests can hold them against the explained goal. */
  | {
      kind: 'match';
      optional: boolean;
      steps: MatchStep[];
      run: PatternRunner;
      newSlots: number[];
      count?: CountingRunner;
      /** With `count`: the slot that its prefix, one node scan, binds to a different node in every row it hands on. */
      distinctSlot?: number;
      /**
       * The counts per node of `slot`, in one array: with `distinctSlot` (its slot), when the scan is
       * by label and the tail a chain of expansions checked by labels; or per node the last
       * expansion reaches (MatchPlan.countsPerEnd).
       */
      perNode?: { count: DenseCounter; slot: number };
      /** MatchPlan.countsPerGroup: one row per group with its count, off the index. */
      countGroups?: GroupCounter;
      /** MatchPlan.countsPerPair: the counts per pair of its sides' groups, off the edges. */
      perPair?: { count: PairCounter; sides: { source: PairSide; end: PairSide } };
    }
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
}

/** `graph` gives the statistics for planning the patterns used as expressions, which are planned as they are built. */
export function buildQuery(plan: QueryPlan, graph: GraphIndex, options: PlanOptions): CompiledQuery {
  return { parts: plan.parts.map((part) => buildPart(part, graph, options)), unionAll: plan.unionAll };
}

/** Builds expressions of one query part: slots go on from where its plan stopped. */
class PartBuilder {
  private readonly slots: SlotCounter;

  constructor(part: PartPlan, private readonly graph: GraphIndex, private readonly options: PlanOptions) {
    this.slots = { ...part.slots };
  }

  private readonly allocateSlot = (): number => this.slots.nextSlot++;

  /** A pattern used as an expression, planned and built to join steps in `scope`. */
  private patternSteps(pattern: PatternPart, scope: Scope): MatchStep[] {
    return new MatchStepsBuilder(this.context(scope)).build(planPatternExpression(pattern, scope, this.slots, this.graph, this.options));
  }

  private readonly compilePattern = (pattern: PatternPart, scope: Scope): PatternRunner => buildMatchRunner(this.patternSteps(pattern, scope));

  private readonly countPattern = (pattern: PatternPart, scope: Scope): PatternCounter => buildPatternCounter(this.patternSteps(pattern, scope));

  private readonly testPattern = (pattern: PatternPart, scope: Scope): PatternTest => buildPatternTest(this.patternSteps(pattern, scope));

  context(scope: Scope, aggregates?: AggregateSpec[]): ExprContext {
    return { scope, aggregates, rules: this.options.rules, allocateSlot: this.allocateSlot, compilePattern: this.compilePattern, countPattern: this.countPattern, testPattern: this.testPattern };
  }

  expr(expr: Expr, scope: Scope): Fn {
    return compileExpr(expr, this.context(scope));
  }

  /** SKIP and LIMIT: expressions over no variables. */
  constant(expr: Expr | undefined): Fn | undefined {
    return expr ? this.expr(expr, new Map()) : undefined;
  }
}

function buildPart(part: PartPlan, graph: GraphIndex, options: PlanOptions): CompiledPart {
  const builder = new PartBuilder(part, graph, options);
  const clauses = part.clauses.map((clause, index): CompiledClause => {
    switch (clause.kind) {
      case 'match':
        return buildMatch(clause, builder, index === 0);
      case 'unwind':
        return { kind: 'unwind', fn: builder.expr(clause.expr, clause.scope), slot: clause.alias.slot };
      case 'with':
      case 'return':
        return { kind: 'project', projection: buildProjection(clause, builder), final: clause.kind === 'return' };
      case 'create':
        return { kind: 'create', run: buildCreate(clause, builder) };
    }
  });
  return { clauses, columns: part.columns };
}

// ---- MATCH ----

/** `first`: the part's first clause, which runs once, on the part's one empty row. */
function buildMatch(plan: MatchPlan, builder: PartBuilder, first: boolean): CompiledClause {
  if (plan.countFrom === undefined) {
    const steps = new MatchStepsBuilder(builder.context(plan.scope)).build(plan.goals);
    const endCount = plan.countsPerEnd === undefined ? undefined : buildEndCounter(steps, plan.distinctStartsPerEnd);
    return {
      kind: 'match', optional: plan.optional, steps, run: buildMatchRunner(steps), newSlots: plan.newSlots, countGroups: plan.countsPerGroup && buildGroupCounter(plan.countsPerGroup),
      perPair: plan.countsPerPair && { count: buildPairCounter(steps, plan.countsPerPair), sides: plan.countsPerPair },
      perNode: endCount && { count: endCount, slot: plan.countsPerEnd! },
    };
  }
  // the counted goals begin with an expansion, which starts a step of its own: the same steps as one build of all goals
  const prefix = new MatchStepsBuilder(builder.context(plan.scope)).build(plan.goals.slice(0, plan.countFrom));
  const steps = [...prefix, ...new MatchStepsBuilder(builder.context(plan.scope)).build(plan.goals.slice(plan.countFrom))];
  // run once, a scan binds each node once: every counted row has its own node
  const scan = first && prefix.length === 1 && prefix[0].kind === 'scanNode' ? prefix[0] : undefined;
  const counting = { keepZeros: plan.zeroCounts, distinctEnds: plan.distinctEnds, endNotStart: plan.endNotStart, once: plan.countsOnce };
  const denseCount = scan && buildDenseCounter(steps, prefix.length, counting);
  return {
    kind: 'match', optional: plan.optional, steps, run: buildMatchRunner(steps), newSlots: plan.newSlots,
    count: buildCountingRunner(steps, prefix.length, counting), distinctSlot: scan?.slot, perNode: denseCount && { count: denseCount, slot: scan!.slot },
  };
}

/**
 * One step per goal, in the goals' order, except that a label or property goal on
 * a variable the previous step has just bound is checked inside that step.
 */
class MatchStepsBuilder {
  private readonly steps: MatchStep[] = [];
  /** What the last step bound: the checks its nodes must pass, the properties its relationship must have. */
  private freshNodes = new Map<string, NodeCheck>();
  private freshRels = new Map<string, { key: string; fn: Fn }[]>();

  constructor(private readonly ctx: ExprContext) {}

  /** The names of the relationships a named path reads. */
  private pathRels = new Set<string>();
  /** Where a variable-length relationship a named path reads leaves the nodes it passes through, by its name. */
  private innerSlots = new Map<string, number>();

  build(goals: Goal[]): MatchStep[] {
    for (const goal of goals) if (goal.kind === 'namedPath') for (const rel of goal.rels) this.pathRels.add(rel.name);
    for (const goal of goals) this.add(goal);
    return this.steps;
  }

  /** A slot for the nodes a named path's variable-length relationship passes through (a relationship variable is walked once: a second use is a check of the bound list). */
  private innerSlot(rel: string): number {
    const slot = this.ctx.allocateSlot();
    this.innerSlots.set(rel, slot);
    return slot;
  }

  private start(step: MatchStep): void {
    this.steps.push(step);
    this.freshNodes = new Map();
    this.freshRels = new Map();
  }

  /** The checks a node goal adds to: those of the step that just bound the node, or a step checking it as it comes. */
  private checksOf(name: string, slot: number): NodeCheck {
    const fresh = this.freshNodes.get(name);
    if (fresh) return fresh;
    const step: MatchStep = { kind: 'checkNode', slot, labels: [], props: [] };
    this.start(step);
    this.freshNodes.set(name, step);
    return step;
  }

  private add(goal: Goal): void {
    const ctx = this.ctx;
    switch (goal.kind) {
      case 'node': {
        if (goal.scan) {
          const step: MatchStep = { kind: 'scanNode', slot: goal.node.slot, access: goal.label === undefined ? { kind: 'all' } : { kind: 'label', label: goal.label }, labels: [], props: [] };
          this.start(step);
          this.freshNodes.set(goal.node.name, step);
        } else {
          this.checksOf(goal.node.name, goal.node.slot).labels.push(goal.label!);
        }
        return;
      }
      case 'id': {
        const fn = compileExpr(goal.value, ctx);
        if (goal.scan) {
          const step: MatchStep = { kind: 'scanNode', slot: goal.node.slot, access: { kind: 'id', fn }, labels: [], props: [] };
          this.start(step);
          this.freshNodes.set(goal.node.name, step);
        } else {
          this.checksOf(goal.node.name, goal.node.slot).id = fn;
        }
        return;
      }
      case 'prop': {
        const fn = compileExpr(goal.value, ctx);
        if (goal.scan) {
          const access = goal.listed ? { kind: 'propIn' as const, key: goal.key, values: goal.listed } : { kind: 'prop' as const, key: goal.key, fn };
          const step: MatchStep = { kind: 'scanNode', slot: goal.element.slot, access, labels: [], props: [] };
          this.start(step);
          this.freshNodes.set(goal.element.name, step);
        } else {
          const relProps = this.freshRels.get(goal.element.name);
          (relProps ?? this.checksOf(goal.element.name, goal.element.slot).props).push({ key: goal.key, fn });
        }
        return;
      }
      case 'edge':
      case 'path': {
        const relProps: { key: string; fn: Fn }[] = [];
        const { access } = goal;
        const min = goal.kind === 'path' ? goal.min : 1;
        const max = goal.kind === 'path' ? goal.max : 1;
        if (access.kind === 'expand') {
          const { reversed } = access;
          const target = reversed ? goal.from : goal.to;
          const targetBound = reversed ? access.fromBound : access.toBound;
          const step: MatchStep = {
            kind: goal.kind === 'path' ? 'varExpand' : 'expand',
            sourceSlot: (reversed ? goal.to : goal.from).slot, targetSlot: target.slot, targetBound, relSlot: goal.rel.slot,
            direction: reversed ? flip(goal.direction) : goal.direction, types: goal.types, relProps, min, max, reversed, labels: [], props: [],
            // an anonymous relationship (its name begins with a space) is read by nothing after the step but a named path
            bindRel: !isAnonymous(goal.rel.name) || this.pathRels.has(goal.rel.name),
            innerSlot: goal.kind === 'path' && this.pathRels.has(goal.rel.name) ? this.innerSlot(goal.rel.name) : -1,
            // set by the first run: present from the start, so that every step of a kind keeps one shape
            ids: undefined,
          };
          this.start(step);
          if (!targetBound) this.freshNodes.set(target.name, step);
        } else {
          const fromCheck: NodeCheck = { labels: [], props: [] };
          const toCheck: NodeCheck = { labels: [], props: [] };
          this.start({
            kind: access.kind === 'scanEdges' ? 'scanEdges' : 'checkRel',
            relSlot: goal.rel.slot, fromSlot: goal.from.slot, toSlot: goal.to.slot, fromBound: access.fromBound, toBound: access.toBound,
            direction: goal.direction, types: goal.types, relProps, fromCheck, toCheck,
          });
          if (!access.fromBound) this.freshNodes.set(goal.from.name, fromCheck);
          if (!access.toBound) this.freshNodes.set(goal.to.name, toCheck);
        }
        this.freshRels.set(goal.rel.name, relProps);
        return;
      }
      case 'where': {
        // `n.key IN [literals]` on a node the last step bound: checked with its other properties, as an equality is
        const member = literalMembership(goal.expr);
        const checks = member && this.freshNodes.get(member.variable);
        if (member && checks) {
          const values = member.list.items.map((item) => (item as Extract<Expr, { kind: 'literal' }>).value);
          checks.props.push({ key: member.key, fn: () => values, among: true });
          return;
        }
        this.start({ kind: 'filter', fn: compileExpr(goal.expr, ctx), where: goal.expr });
        return;
      }
      case 'rule': {
        const args = goal.args.map((arg) => compileExpr(arg, ctx));
        const predicate = goal.predicate;
        this.start({ kind: 'filter', fn: (row, env) => callRule(predicate, args.map((arg) => arg(row, env)), env) });
        return;
      }
      case 'namedPath':
        this.start({
          kind: 'bindPath', slot: goal.path.slot, nodeSlots: goal.nodes.map((node) => node.slot), relSlots: goal.rels.map((rel) => rel.slot),
          innerSlots: goal.rels.map((rel) => this.innerSlots.get(rel.name) ?? -1),
        });
        return;
    }
  }
}

function flip(direction: 'out' | 'in' | 'both'): 'out' | 'in' | 'both' {
  return direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
}

// ---- WITH and RETURN ----

function buildProjection(plan: ProjectionPlan, builder: PartBuilder): CompiledProjection {
  const aggregates: AggregateSpec[] = [];
  const itemContext = builder.context(plan.inputScope, plan.aggregating ? aggregates : undefined);
  const items = plan.items.map((item) => ({ name: item.name, fn: compileExpr(item.expr, itemContext), slot: item.slot }));
  const sortContext = { ...builder.context(plan.sortScope, plan.aggregating ? aggregates : undefined), argumentScope: plan.inputScope };
  const orderBy = plan.orderBy.map(({ key, descending }) => {
    if ('slot' in key) {
      const slot = key.slot;
      return { fn: ((row: Row) => row[slot] ?? null) as Fn, descending, slot };
    }
    return { fn: compileExpr(key.expr, sortContext), descending };
  });
  return {
    items,
    aggregates,
    groupingItems: plan.groupingItems,
    aggregating: plan.aggregating,
    aggregateSlot: plan.aggregateSlot,
    distinct: plan.distinct,
    orderBy,
    skip: builder.constant(plan.skip),
    limit: builder.constant(plan.limit),
    where: plan.where ? builder.expr(plan.where, plan.sortScope) : undefined,
    // a sort expression without an aggregate reads the projected names alone, which the group's row holds
    groupsKeepFirstRow:
      plan.orderBy.some(({ key }) => !('slot' in key) && containsAggregate(key.expr)) ||
      plan.items.some((item, i) => !plan.groupingItems.includes(i) && !(item.expr.kind === 'call' && isAggregateFunction(item.expr.name))),
    groupKeySlot: nodeGroupSlot(plan.groupingItems.map((i) => plan.items[i].expr), plan.inputScope),
    whereCountSlots: plan.where && countSlotsRead(plan.where, plan.items),
    groupProperty: groupPropertyOf(plan.groupingItems.map((i) => plan.items[i].expr), plan.inputScope),
    countSlots: plan.items.filter(({ expr }) => expr.kind === 'call' && isCountStar(expr)).map((item) => item.slot),
    sortItems: plan.orderBy.map(({ key }) => {
      const slot = 'slot' in key ? key.slot : key.expr.kind === 'var' ? plan.sortScope.get(key.expr.name)?.slot : undefined;
      const item = plan.items.findIndex((item) => item.slot === slot);
      if (item < 0) return undefined;
      const { expr } = plan.items[item];
      return { item, inputSlot: expr.kind === 'var' ? plan.inputScope.get(expr.name)?.slot : undefined };
    }),
  };
}

/** The node variable's slot and the key, when the one grouping key is a property of a node variable. */
function groupPropertyOf(keys: Expr[], scope: Scope): { slot: number; key: string } | undefined {
  const [key] = keys;
  if (keys.length !== 1 || key.kind !== 'prop' || key.target.kind !== 'var') return undefined;
  const node = scope.get(key.target.name);
  return node?.kind === 'node' ? { slot: node.slot, key: key.key } : undefined;
}

/** The slots of the items `where` reads, when every one is a `count(*)`. */
function countSlotsRead(where: Expr, items: ProjectionPlan['items']): number[] | undefined {
  const slots: number[] = [];
  for (const name of variablesOf(where)) {
    const item = items.find((item) => item.name === name);
    if (!item || item.expr.kind !== 'call' || !isCountStar(item.expr)) return undefined;
    slots.push(item.slot);
  }
  return slots;
}

// ---- CREATE (the test-only writer) ----

function buildCreate(plan: CreatePlan, builder: PartBuilder): (row: Row, env: Env) => void {
  const actions = plan.elements.map((element) => createAction(element, element.properties ? builder.expr(element.properties, element.scope) : undefined));
  return (row, env) => actions.forEach((action) => action(row, env));
}

function createAction(element: CreateElement, props: Fn | undefined): (row: Row, env: Env) => void {
  if (element.kind === 'node') {
    const { node, labels } = element;
    return (row, env) => {
      row[node.slot] = { $node: createNode(env, labels, props?.(row, env)) };
    };
  }
  const { rel, type, from, to } = element;
  return (row, env) => {
    const fromNode = row[from.slot] as { $node: { id: string } };
    const toNode = row[to.slot] as { $node: { id: string } };
    row[rel.slot] = { $rel: createEdge(env, type, fromNode.$node.id, toNode.$node.id, props?.(row, env)) };
  };
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
