/**
 * The one module that talks to tau-prolog (pinned 0.3.4, DESIGN.md decision 3):
 * session setup, the JS-backed graph predicates, a synchronous step driver with
 * an inference and a time limit, and an `emit/1` sink for answers. Rules are
 * consulted once; facts are never asserted: the graph is seen through
 *
 *   node(Id, Label)                       node Id carries Label
 *   prop(Id, Key, Value)                  node or edge Id has property Key = Value
 *   edge(Id, Type, From, To, Confidence)  an edge of the graph
 *   valid_time(Id, Date)                  when node Id held or was said ('YYYY-MM-DD')
 *   nodes_where(Label, Key, Value, Ids)   the sorted list of nodes with Label (and Key = Value
 *                                         when Key is bound): one inference for a whole set
 *   reference_date(Date)                  "now" for recent/trend rules: the view's valid-time
 *                                         cut, else the latest valid time in the view
 *   date_days(Date, Days)                 days since 1970-01-01 (for windows and spans)
 *   text_mentions(Id, Keywords, Keyword)  the first of Keywords (lower-case atoms) that the
 *                                         node's text or label contains, ignoring case
 *   filter_ids(Ids, Condition, Kept)      the ids of a list that meet Condition: window(From, To)
 *                                         (days before the reference date), current(Days) (in the
 *                                         last Days, or undated), dated, mentions(Keywords),
 *                                         prop(Key, Value), kind(Label)
 *   group_by_edge(Ids, Type, Dir, Role, Groups)
 *                                         groups Ids by the node at the other end of their edges of
 *                                         Type (Dir in: edges arriving at the id; out: leaving it),
 *                                         Role (when bound) matching the edge's role (default
 *                                         participant): a sorted list of Node-Ids pairs
 *   sum_prop(Ids, Key, Sum)               the sum of a numeric property over Ids
 *   count_ids(List, N)                    the length of a list, in one inference
 *   union_ids(Lists, Union)               the sorted, duplicate-free union of a list of lists
 *   merge_pairs(Pairs, Mode, Merged)      p(A, B, Ids) terms merged per pair, Ids unioned; Mode
 *                                         undirected orders each pair (A @< B) first
 *   link_pairs(Ids, SideA, SideB, Pairs)  the pairs of nodes each id links, one through SideA and
 *                                         one through SideB (a side: in(Type), in(Type, Role),
 *                                         out(Type)): a sorted list of p(A, B, Ids), e.g. who
 *                                         (perpetrator) attacked whom (target) in which events
 *
 * The list predicates do in one inference what a rule would otherwise do once per
 * element: tau-prolog runs about 70 thousand inferences a second, so rules over
 * large graphs work on sets.
 *
 * each choosing an index from whichever arguments are bound, and each seeing only
 * the records of the graph view passed to that solve call (engine/store/view.ts).
 * Ids, labels, types, keys and string values are atoms; numbers are numbers;
 * booleans are the atoms true/false; double-quoted text is an atom. Stepping the
 * thread directly (not through `answer()`, which waits on a timer per answer) uses
 * tau-prolog internals: keep the version pinned.
 */
import { createRequire } from 'node:module';
import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import { type GraphView, inView, validTime } from '../store/view.ts';
import { LimitError, ValidationError } from '../errors.ts';

const require = createRequire(import.meta.url);
type Any = any;
const pl: Any = require('tau-prolog');
require('tau-prolog/modules/lists.js')(pl);
skipListsInGoalSearch();

export type { GraphView } from '../store/view.ts';

/** Inferences one rule query may use before it is stopped (about a minute of tau-prolog at its measured speed is far more than any rule needs). */
export const DEFAULT_INFERENCE_LIMIT = 1_000_000;
/** Wall-clock budget of one rule query. */
export const DEFAULT_RULE_TIME_LIMIT_MS = 5_000;

export type PrologValue = string | number | boolean | null | PrologValue[];

export interface SolveLimits {
  inferenceLimit?: number;
  timeLimitMs?: number;
  /** Stop after this many answers. */
  maxAnswers?: number;
}

/** What a solve call spent: callers that share one budget across calls (a framework run) add these up. */
export interface SolveUsage {
  inferences: number;
}

/** A rule module that does not consult: where and why. */
export class RuleModuleError extends ValidationError {
  constructor(
    readonly origin: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
    readonly reason: string,
  ) {
    super('rule_module_invalid', `${origin}${line !== undefined ? `:${line}` : ''}${column !== undefined ? `:${column}` : ''}: ${reason}`, {
      file: origin,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      reason,
    });
  }
}

/** Settings every session starts with: text in double quotes is an atom, and the list library is loaded. */
const PRELUDE = ':- set_prolog_flag(double_quotes, atom).\n:- use_module(library(lists)).\n';

export class PrologBridge {
  private readonly session: Any;
  /** The view of the solve call running now; the step driver is synchronous, so one call runs at a time. */
  private view: GraphView | undefined;
  private sink: PrologValue[][] = [];
  private readonly userPredicates = new Set<string>();
  private readonly referenceDates = new WeakMap<object, Map<string, string | null>>();
  /** Inferences spent by the last solve call. */
  lastUsage: SolveUsage = { inferences: 0 };

  constructor() {
    this.session = pl.create(Number.MAX_SAFE_INTEGER);
    this.consultText(PRELUDE, 'prelude');
    this.installGraphPredicates();
  }

  /**
   * Consults a rule module's text. Throws RuleModuleError naming `origin`, the line and
   * the reason when it does not parse or redefines a graph predicate.
   */
  consult(program: string, origin = 'rule module'): string[] {
    const before = new Set(Object.keys(this.session.modules.user.rules));
    this.consultText(program, origin);
    const added = Object.keys(this.session.modules.user.rules).filter((indicator) => !before.has(indicator));
    added.forEach((indicator) => this.userPredicates.add(indicator));
    return added;
  }

  private consultText(program: string, origin: string): void {
    // with file: false, tau-prolog consults text synchronously and reports through the callbacks
    let failure: Any = 'tau-prolog did not report';
    this.session.consult(program, {
      file: false,
      html: false,
      url: false,
      script: false,
      success: () => (failure = undefined),
      error: (error: Any) => (failure = error),
    });
    if (failure === undefined) return;
    if (typeof failure === 'string') throw new RuleModuleError(origin, undefined, undefined, failure);
    throw moduleError(origin, failure);
  }

  /**
   * Takes over predicates another session has consulted, clause objects and all, instead
   * of parsing their text again (the helper library: ~0.2 s of parsing per module).
   * tau-prolog renames a clause's variables on every use and never edits a clause, so
   * sessions can share them.
   */
  adoptPredicates(from: PrologBridge, indicators: Iterable<string>): void {
    const source = from.session.modules.user.rules;
    for (const indicator of indicators) {
      for (const rule of source[indicator] ?? []) this.session.thread.add_rule(rule, { from: 'library', context_module: 'user' });
      this.userPredicates.add(indicator);
    }
  }

  /** Whether a consulted rule module defines `name/arity`. */
  defines(name: string, arity: number): boolean {
    return this.userPredicates.has(`${name}/${arity}`);
  }

  /**
   * Runs `goal` over `view` and collects the values of `template` (variable names of
   * the goal) for every answer, through the emit sink in a failure-driven loop.
   */
  solve(goal: string, template: string[], view: GraphView, limits: SolveLimits = {}): PrologValue[][] {
    const emitted = `emit([${template.join(', ')}])`;
    const maxAnswers = limits.maxAnswers ?? Number.MAX_SAFE_INTEGER;
    const sink: PrologValue[][] = [];
    this.sink = sink;
    this.view = view;
    try {
      let failure: string | undefined = 'tau-prolog did not report';
      this.session.query(`(${goal}), ${emitted}, fail ; true.`, {
        html: false,
        success: () => (failure = undefined),
        error: (error: Any) => (failure = pl.format_answer(error)),
      });
      if (failure !== undefined) throw new ValidationError('rule_goal_invalid', `rule goal does not parse: ${failure}`);
      this.drive(limits, () => sink.length >= maxAnswers);
      return sink;
    } finally {
      this.view = undefined;
    }
  }

  /** Whether `goal` has at least one solution over `view`. */
  holds(goal: string, view: GraphView, limits: SolveLimits = {}): boolean {
    return this.solve(goal, [], view, { ...limits, maxAnswers: 1 }).length > 0;
  }

  /** The synchronous step driver: runs the thread until it finishes, errs or spends a limit. */
  private drive(limits: SolveLimits, stop: () => boolean): void {
    const thread = this.session.thread;
    const inferenceLimit = limits.inferenceLimit ?? DEFAULT_INFERENCE_LIMIT;
    const timeLimitMs = limits.timeLimitMs ?? DEFAULT_RULE_TIME_LIMIT_MS;
    const deadline = Date.now() + timeLimitMs;
    let inferences = 0;
    try {
      while (thread.points.length > 0) {
        const head = thread.head_point();
        if (head.goal === null) {
          thread.points.pop();
          continue;
        }
        if (pl.type.is_error_state(head)) {
          const error = pl.format_answer(head.goal.args[0] ?? head.goal);
          throw new ValidationError('rule_error', `rule evaluation failed: ${error}`);
        }
        if (++inferences > inferenceLimit) {
          throw new LimitError('query_inference_limit', `the rule query used more than ${inferenceLimit} inferences`, { limit: inferenceLimit });
        }
        if ((inferences & 15) === 0 && Date.now() > deadline) {
          throw new LimitError('query_time_limit', `the rule query ran past its time limit of ${timeLimitMs} ms`, { limit_ms: timeLimitMs });
        }
        thread.step();
        if (stop()) break;
      }
    } finally {
      thread.points = [];
      this.lastUsage = { inferences };
    }
  }

  private get current(): GraphView {
    if (!this.view) throw new Error('a graph predicate ran outside a solve call');
    return this.view;
  }

  private installGraphPredicates(): void {
    const rules = this.session.modules.user.rules;
    rules['emit/1'] = (_thread: Any, _point: Any, atom: Any) => {
      this.sink.push(toJs(atom.args[0]) as PrologValue[]);
      // no new state: the failure-driven loop backtracks into the next answer
    };
    rules['node/2'] = (thread: Any, point: Any, atom: Any) => {
      const [id, label] = atom.args;
      const graph = this.current.graph;
      const results: Any[] = [];
      const push = (node: NodeRecord, nodeLabel: string) => results.push(term('node', [atomOf(node.id), atomOf(nodeLabel)]));
      if (isAtom(id)) {
        const node = this.visibleNode(id.id);
        if (node) for (const nodeLabel of node.labels) if (!isAtom(label) || label.id === nodeLabel) push(node, nodeLabel);
      } else if (isAtom(label)) {
        for (const nodeId of graph.nodesWithLabel(label.id)) {
          const node = this.visibleNode(nodeId);
          if (node) push(node, label.id);
        }
      } else {
        for (const node of graph.nodes.values()) if (inView(node, this.current)) for (const nodeLabel of node.labels) push(node, nodeLabel);
      }
      unifyEach(thread, point, atom, results);
    };
    rules['prop/3'] = (thread: Any, point: Any, atom: Any) => {
      const [id, key, value] = atom.args;
      const graph = this.current.graph;
      const results: Any[] = [];
      const pushRecord = (record: NodeRecord | EdgeRecord) => {
        for (const [propertyKey, propertyValue] of Object.entries(record.properties)) {
          if (isAtom(key) && key.id !== propertyKey) continue;
          if (propertyValue === null) continue;
          results.push(term('prop', [atomOf(record.id), atomOf(propertyKey), fromJs(propertyValue)]));
        }
      };
      if (isAtom(id)) {
        const record = this.visibleNode(id.id) ?? this.visibleEdge(id.id);
        if (record) pushRecord(record);
      } else if (isAtom(key) && !pl.type.is_variable(value)) {
        const scalar = toJs(value);
        if (typeof scalar === 'string' || typeof scalar === 'number' || typeof scalar === 'boolean') {
          for (const nodeId of graph.nodesWithProperty(key.id, scalar)) {
            const node = this.visibleNode(nodeId);
            if (node) results.push(term('prop', [atomOf(node.id), atomOf(key.id), fromJs(scalar)]));
          }
        }
      } else {
        for (const node of graph.nodes.values()) if (inView(node, this.current)) pushRecord(node);
        for (const edge of graph.edges.values()) if (this.edgeInView(edge)) pushRecord(edge);
      }
      unifyEach(thread, point, atom, results);
    };
    rules['edge/5'] = (thread: Any, point: Any, atom: Any) => {
      const [id, type, from, to] = atom.args;
      const types = isAtom(type) ? [type.id] : undefined;
      let candidates: Iterable<EdgeRecord>;
      const graph = this.current.graph;
      if (isAtom(id)) {
        const edge = graph.edge(id.id);
        candidates = edge ? [edge] : [];
      } else if (isAtom(from)) candidates = graph.edgesOf(from.id, 'out', types);
      else if (isAtom(to)) candidates = graph.edgesOf(to.id, 'in', types);
      else if (types) candidates = [...graph.edgesWithType(types[0])].map((edgeId) => graph.edge(edgeId)!);
      else candidates = graph.edges.values();
      const results: Any[] = [];
      for (const edge of candidates) {
        if (!this.edgeInView(edge)) continue;
        results.push(term('edge', [atomOf(edge.id), atomOf(edge.type), atomOf(edge.from), atomOf(edge.to), new pl.type.Num(edge.confidence, true)]));
      }
      unifyEach(thread, point, atom, results);
    };
    rules['valid_time/2'] = (thread: Any, point: Any, atom: Any) => {
      const [id] = atom.args;
      const graph = this.current.graph;
      const results: Any[] = [];
      const push = (record: NodeRecord) => {
        const time = validTime(record);
        if (time !== undefined) results.push(term('valid_time', [atomOf(record.id), atomOf(time)]));
      };
      if (isAtom(id)) {
        const node = this.visibleNode(id.id);
        if (node) push(node);
      } else {
        for (const node of graph.nodes.values()) if (inView(node, this.current)) push(node);
      }
      unifyEach(thread, point, atom, results);
    };
    rules['nodes_where/4'] = (thread: Any, point: Any, atom: Any) => {
      const [label, key, value] = atom.args;
      if (!isAtom(label)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const graph = this.current.graph;
      let candidates: Iterable<string> = graph.nodesWithLabel(label.id);
      if (isAtom(key) && !pl.type.is_variable(value)) {
        const scalar = toJs(value);
        const withValue = typeof scalar === 'string' || typeof scalar === 'number' || typeof scalar === 'boolean' ? graph.nodesWithProperty(key.id, scalar) : new Set<string>();
        const withLabel = graph.nodesWithLabel(label.id);
        candidates = [...withValue].filter((nodeId) => withLabel.has(nodeId));
      }
      const ids: string[] = [];
      for (const nodeId of candidates) if (this.visibleNode(nodeId)) ids.push(nodeId);
      ids.sort();
      unifyEach(thread, point, atom, [term('nodes_where', [atom.args[0], atom.args[1], atom.args[2], fromJs(ids)])]);
    };
    rules['text_mentions/3'] = (thread: Any, point: Any, atom: Any) => {
      const [id, keywords] = atom.args;
      if (!isAtom(id)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const list = toJs(keywords);
      const hit = Array.isArray(list) ? this.mentionedKeyword(id.id, list) : undefined;
      unifyEach(thread, point, atom, hit === undefined ? [] : [term('text_mentions', [id, keywords, atomOf(hit)])]);
    };
    rules['filter_ids/3'] = (thread: Any, point: Any, atom: Any) => {
      const [ids, condition] = atom.args;
      const list = toJs(ids);
      if (!Array.isArray(list) || pl.type.is_variable(condition)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const keep = this.condition(condition);
      if (!keep) return thread.throw_error(pl.error.domain('filter_condition', condition, atom.indicator));
      const kept = list.filter((id) => typeof id === 'string' && keep(id));
      unifyEach(thread, point, atom, [term('filter_ids', [ids, condition, fromJs(kept)])]);
    };
    rules['group_by_edge/5'] = (thread: Any, point: Any, atom: Any) => {
      const [ids, type, direction, role] = atom.args;
      const list = toJs(ids);
      if (!Array.isArray(list) || !isAtom(type) || !isAtom(direction)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const wantedRole = isAtom(role) ? role.id : undefined;
      const groups = new Map<string, Set<string>>();
      for (const id of list) {
        if (typeof id !== 'string') continue;
        for (const edge of this.current.graph.edgesOf(id, direction.id === 'in' ? 'in' : 'out', [type.id])) {
          if (!this.edgeInView(edge)) continue;
          if (wantedRole !== undefined && (typeof edge.properties.role === 'string' ? edge.properties.role : 'participant') !== wantedRole) continue;
          const other = direction.id === 'in' ? edge.from : edge.to;
          let members = groups.get(other);
          if (!members) groups.set(other, (members = new Set()));
          members.add(id);
        }
      }
      const pairs = [...groups.keys()].sort().map((key) => term('-', [atomOf(key), fromJs([...groups.get(key)!].sort())]));
      let listTerm = atomOf('[]');
      for (let i = pairs.length - 1; i >= 0; i--) listTerm = new pl.type.Term('.', [pairs[i], listTerm]);
      unifyEach(thread, point, atom, [term('group_by_edge', [ids, type, direction, role, listTerm])]);
    };
    rules['link_pairs/4'] = (thread: Any, point: Any, atom: Any) => {
      const [ids, sideA, sideB] = atom.args;
      const list = toJs(ids);
      const ends = (side: Any) => {
        if (!pl.type.is_term(side) || !['in', 'out'].includes(side.id) || !isAtom(side.args[0])) return undefined;
        const [type, role] = side.args;
        return (id: string) =>
          this.current.graph.edgesOf(id, side.id, [type.id])
            .filter((edge) => this.edgeInView(edge) && (!isAtom(role) || (typeof edge.properties.role === 'string' ? edge.properties.role : 'participant') === role.id))
            .map((edge) => (side.id === 'in' ? edge.from : edge.to));
      };
      const [endsA, endsB] = [ends(sideA), ends(sideB)];
      if (!Array.isArray(list) || !endsA || !endsB) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const pairs = new Map<string, { a: string; b: string; ids: Set<string> }>();
      for (const id of list) {
        if (typeof id !== 'string') continue;
        const bs = endsB(id);
        for (const a of endsA(id)) {
          for (const b of bs) {
            if (a === b) continue;
            const key = JSON.stringify([a, b]);
            let pair = pairs.get(key);
            if (!pair) pairs.set(key, (pair = { a, b, ids: new Set() }));
            pair.ids.add(id);
          }
        }
      }
      unifyEach(thread, point, atom, [term('link_pairs', [ids, sideA, sideB, pairList([...pairs.values()])])]);
    };
    rules['count_ids/2'] = (thread: Any, point: Any, atom: Any) => {
      const list = toJs(atom.args[0]);
      if (!Array.isArray(list)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      unifyEach(thread, point, atom, [term('count_ids', [atom.args[0], new pl.type.Num(list.length, false)])]);
    };
    rules['union_ids/2'] = (thread: Any, point: Any, atom: Any) => {
      const lists = toJs(atom.args[0]);
      if (!Array.isArray(lists)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const union = [...new Set(lists.flatMap((list) => (Array.isArray(list) ? list : [])).filter((id): id is string => typeof id === 'string'))].sort();
      unifyEach(thread, point, atom, [term('union_ids', [atom.args[0], fromJs(union)])]);
    };
    rules['merge_pairs/3'] = (thread: Any, point: Any, atom: Any) => {
      const [pairsTerm, mode] = atom.args;
      if (!isAtom(mode)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const merged = new Map<string, { a: string; b: string; ids: Set<string> }>();
      for (let pointer = pairsTerm; pl.type.is_term(pointer) && pointer.indicator === './2'; pointer = pointer.args[1]) {
        const pair = pointer.args[0];
        if (!pl.type.is_term(pair) || pair.indicator !== 'p/3' || !isAtom(pair.args[0]) || !isAtom(pair.args[1])) continue;
        let [a, b] = [pair.args[0].id as string, pair.args[1].id as string];
        if (mode.id === 'undirected' && b < a) [a, b] = [b, a];
        const key = JSON.stringify([a, b]);
        let entry = merged.get(key);
        if (!entry) merged.set(key, (entry = { a, b, ids: new Set() }));
        const ids = toJs(pair.args[2]);
        if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') entry.ids.add(id);
      }
      unifyEach(thread, point, atom, [term('merge_pairs', [pairsTerm, mode, pairList([...merged.values()])])]);
    };
    rules['sum_prop/3'] = (thread: Any, point: Any, atom: Any) => {
      const [ids, key] = atom.args;
      const list = toJs(ids);
      if (!Array.isArray(list) || !isAtom(key)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      let sum = 0;
      for (const id of list) {
        const value = typeof id === 'string' ? this.visibleNode(id)?.properties[key.id] : undefined;
        if (typeof value === 'number') sum += value;
      }
      unifyEach(thread, point, atom, [term('sum_prop', [ids, key, new pl.type.Num(sum, !Number.isInteger(sum))])]);
    };
    rules['reference_date/1'] = (thread: Any, point: Any, atom: Any) => {
      const date = this.referenceDate();
      unifyEach(thread, point, atom, date === null ? [] : [term('reference_date', [atomOf(date)])]);
    };
    rules['date_days/2'] = (thread: Any, point: Any, atom: Any) => {
      const [date] = atom.args;
      if (!isAtom(date)) return thread.throw_error(pl.error.instantiation(atom.indicator));
      const time = Date.parse(date.id.slice(0, 10));
      const results = Number.isNaN(time) ? [] : [term('date_days', [date, new pl.type.Num(Math.floor(time / 86_400_000), false)])];
      unifyEach(thread, point, atom, results);
    };
  }

  /** The first keyword (lower case) that a node's text, else its label, contains; curly apostrophes read as straight ones. */
  private mentionedKeyword(id: string, keywords: PrologValue[]): string | undefined {
    const node = this.visibleNode(id);
    const textValue = node?.properties.text ?? node?.properties.label;
    if (typeof textValue !== 'string') return undefined;
    const lower = textValue.toLowerCase().replace(/[\u2018\u2019]/g, "'");
    return keywords.find((keyword): keyword is string => typeof keyword === 'string' && lower.includes(keyword));
  }

  /** A filter_ids/3 condition as a test on ids, or undefined when it is not one. */
  private condition(condition: Any): ((id: string) => boolean) | undefined {
    const name = condition.id;
    const args = condition.args ?? [];
    const daysBefore = (id: string): number | undefined => {
      const reference = this.referenceDate();
      const node = this.visibleNode(id);
      const time = node && validTime(node);
      if (reference === null || time === undefined) return undefined;
      return Math.round((Date.parse(reference) - Date.parse(time)) / 86_400_000);
    };
    const numberArg = (i: number) => (pl.type.is_number(args[i]) ? (args[i].value as number) : NaN);
    switch (`${name}/${args.length}`) {
      case 'window/2': {
        const [from, to] = [numberArg(0), numberArg(1)];
        return (id) => {
          const days = daysBefore(id);
          return days !== undefined && days >= from && days <= to;
        };
      }
      case 'current/1': {
        const within = numberArg(0);
        return (id) => {
          if (!this.visibleNode(id)) return false;
          const days = daysBefore(id);
          return days === undefined || (days >= 0 && days <= within);
        };
      }
      case 'dated/0':
        return (id) => {
          const node = this.visibleNode(id);
          return node !== undefined && validTime(node) !== undefined;
        };
      case 'mentions/1': {
        const keywords = toJs(args[0]);
        if (!Array.isArray(keywords)) return undefined;
        return (id) => this.mentionedKeyword(id, keywords) !== undefined;
      }
      case 'prop/2': {
        const key = args[0]?.id;
        const value = toJs(args[1]);
        return (id) => {
          const record = this.visibleNode(id) ?? this.visibleEdge(id);
          return record !== undefined && record.properties[key] === value;
        };
      }
      case 'kind/1': {
        const label = args[0]?.id;
        return (id) => this.visibleNode(id)?.labels.includes(label) ?? false;
      }
      default:
        return undefined;
    }
  }

  /** The view's valid-time cut, else the latest valid time of a node in the view (cached per graph and view). */
  private referenceDate(): string | null {
    const view = this.current;
    if (view.validUntil !== undefined) return view.validUntil.slice(0, 10);
    const cacheKey = `${view.asOf ?? ''}|${view.graph.nodeCount}|${view.graph.edgeCount}`;
    let byView = this.referenceDates.get(view.graph);
    if (!byView) this.referenceDates.set(view.graph, (byView = new Map()));
    let date = byView.get(cacheKey);
    if (date === undefined) {
      date = null;
      for (const node of view.graph.nodes.values()) {
        if (!inView(node, view)) continue;
        const time = validTime(node);
        if (time !== undefined && (date === null || time > date)) date = time;
      }
      byView.set(cacheKey, date);
    }
    return date;
  }

  private visibleNode(id: string): NodeRecord | undefined {
    const node = this.current.graph.node(id);
    return node && inView(node, this.current) ? node : undefined;
  }
  private visibleEdge(id: string): EdgeRecord | undefined {
    const edge = this.current.graph.edge(id);
    return edge && this.edgeInView(edge) ? edge : undefined;
  }
  /** An edge is in the view when it is and, under a valid-time cut, both its ends are. */
  private edgeInView(edge: EdgeRecord): boolean {
    const view = this.current;
    if (!inView(edge, view)) return false;
    if (view.validUntil === undefined) return true;
    return this.visibleNode(edge.from) !== undefined && this.visibleNode(edge.to) !== undefined;
  }
}

/**
 * On every step tau-prolog 0.3.4 looks for the running goal inside each enclosing goal
 * (`Term.search`) to name the caller in error messages. Its search recurses into every
 * argument, so a list of 7,000 ids bound in a rule made each step walk 7,000 cells
 * (steps slowed from ~17,000/s at 1k facts to ~2,000/s at 100k) and overflowed the
 * stack. A goal never sits inside a data list, so the search here skips list cells
 * and walks iteratively; at worst an error names an outer caller.
 */
function skipListsInGoalSearch(): void {
  pl.type.Term.prototype.search = function search(this: Any, expr: Any): boolean {
    const pending: Any[] = [this];
    while (pending.length > 0) {
      const current = pending.pop();
      if (current === expr || current.ref === expr.ref) return true;
      for (const arg of current.args) if (pl.type.is_term(arg) && arg.indicator !== './2') pending.push(arg);
    }
    return false;
  };
}

/** Reads tau-prolog's error term `error(syntax_error(Reason), [line(L), column(C), found(T)])` into a RuleModuleError. */
function moduleError(origin: string, error: Any): RuleModuleError {
  let line: number | undefined;
  let column: number | undefined;
  let reason = pl.format_answer(error).replace(/^uncaught exception: /, '');
  const thrown = error?.indicator === 'throw/1' ? error.args[0] : error;
  const formal = thrown?.args?.[0];
  const context = thrown?.args?.[1];
  if (formal && pl.type.is_term(formal)) {
    // syntax_error(Message) reads better as the message alone
    reason = formal.indicator === 'syntax_error/1' ? `syntax error: ${formal.args[0].toString({ quoted: false })}` : formal.toString({ quoted: true });
  }
  for (let pointer = context; pointer && pl.type.is_term(pointer) && pointer.indicator === './2'; pointer = pointer.args[1]) {
    const item = pointer.args[0];
    if (item?.id === 'line' && pl.type.is_number(item.args[0])) line = item.args[0].value;
    if (item?.id === 'column' && pl.type.is_number(item.args[0])) column = item.args[0].value;
    if (item?.id === 'found') reason += `, found '${item.args[0].toString({ quoted: false })}'`;
    if (item?.id === 'token_not_found') reason += ', the clause is not finished';
  }
  return new RuleModuleError(origin, line, column, reason);
}

function isAtom(value: Any): boolean {
  return pl.type.is_atom(value);
}

function atomOf(text: string): Any {
  return new pl.type.Term(text, []);
}

function term(name: string, args: Any[]): Any {
  return new pl.type.Term(name, args);
}

/** A sorted Prolog list of p(A, B, Ids) terms. */
function pairList(pairs: { a: string; b: string; ids: Set<string> }[]): Any {
  const sorted = pairs.sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : x.b > y.b ? 1 : 0) : x.a < y.a ? -1 : 1));
  let list = atomOf('[]');
  for (let i = sorted.length - 1; i >= 0; i--) list = new pl.type.Term('.', [term('p', [atomOf(sorted[i].a), atomOf(sorted[i].b), fromJs([...sorted[i].ids].sort())]), list]);
  return list;
}

/** Pushes one alternative per candidate fact, each unifying the call with that fact. */
function unifyEach(thread: Any, point: Any, atom: Any, facts: Any[]): void {
  const states: Any[] = [];
  for (const fact of facts) {
    states.push(new pl.type.State(point.goal.replace(new pl.type.Term('=', [atom, fact])), point.substitution, point));
  }
  thread.prepend(states);
}

export function fromJs(value: PropertyValue | PrologValue): Any {
  if (value === null) return atomOf('null');
  if (typeof value === 'string') return atomOf(value);
  if (typeof value === 'boolean') return atomOf(value ? 'true' : 'false');
  if (typeof value === 'number') return new pl.type.Num(value, !Number.isInteger(value));
  if (Array.isArray(value)) {
    let list = atomOf('[]');
    for (let i = value.length - 1; i >= 0; i--) list = new pl.type.Term('.', [fromJs(value[i]), list]);
    return list;
  }
  return atomOf(JSON.stringify(value));
}

export function toJs(value: Any): PrologValue {
  if (pl.type.is_number(value)) return value.value;
  if (pl.type.is_variable(value)) return null;
  if (pl.type.is_term(value) && value.indicator === './2') {
    const items: PrologValue[] = [];
    let pointer = value;
    while (pl.type.is_term(pointer) && pointer.indicator === './2') {
      items.push(toJs(pointer.args[0]));
      pointer = pointer.args[1];
    }
    return items;
  }
  if (pl.type.is_atom(value)) {
    if (value.id === '[]') return [];
    if (value.id === 'true') return true;
    if (value.id === 'false') return false;
    if (value.id === 'null') return null;
    return value.id;
  }
  return String(value.toString());
}

/** Quotes text as a Prolog atom. */
export function quoteAtom(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
