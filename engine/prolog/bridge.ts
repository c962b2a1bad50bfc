/**
 * The one module that talks to tau-prolog (pinned 0.3.4, DESIGN.md decision 3):
 * session setup, the JS-backed graph predicates, a synchronous step driver with
 * an inference and a time limit, and an `emit/1` sink for answers. Rules are
 * consulted once; facts are never asserted: the graph is seen through
 *
 *   node(Id, Label)                       node Id carries Label
 *   prop(Id, Key, Value)                  node or edge Id has property Key = Value
 *   edge(Id, Type, From, To, Confidence)  an edge of the graph
 *
 * each choosing an index from whichever arguments are bound. Ids, labels, types,
 * keys and string values are atoms; numbers are numbers; booleans are the atoms
 * true/false. Stepping the thread directly (not through `answer()`, which waits on
 * a timer per answer) uses tau-prolog internals: keep the version pinned.
 */
import { createRequire } from 'node:module';
import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { LimitError, ValidationError } from '../errors.ts';

const require = createRequire(import.meta.url);
type Any = any;
const pl: Any = require('tau-prolog');

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

export interface GraphView {
  graph: GraphIndex;
  /** Records with recorded_at after this ISO instant are invisible. */
  asOf?: string;
}

export class PrologBridge {
  private readonly session: Any;
  private view: GraphView;
  private sink: PrologValue[][] = [];
  private readonly userPredicates = new Set<string>();

  constructor(view: GraphView) {
    this.view = view;
    this.session = pl.create(Number.MAX_SAFE_INTEGER);
    this.installGraphPredicates();
  }

  /** Points the JS-backed predicates at another graph (or as_of) for the next queries. */
  setView(view: GraphView): void {
    this.view = view;
  }

  /** Consults a rule module's text. Throws ValidationError when it does not parse. */
  consult(program: string): string[] {
    const before = new Set(Object.keys(this.session.modules.user.rules));
    // with file: false, tau-prolog consults text synchronously and reports through the callbacks
    let failure: string | undefined = 'tau-prolog did not report';
    this.session.consult(program, {
      file: false,
      html: false,
      url: false,
      script: false,
      success: () => (failure = undefined),
      error: (error: Any) => (failure = pl.format_answer(error)),
    });
    if (failure !== undefined) throw new ValidationError('rule_module_invalid', `rule module does not consult: ${failure}`);
    const added = Object.keys(this.session.modules.user.rules).filter((indicator) => !before.has(indicator));
    added.forEach((indicator) => this.userPredicates.add(indicator));
    return added;
  }

  /** Whether a consulted rule module defines `name/arity`. */
  defines(name: string, arity: number): boolean {
    return this.userPredicates.has(`${name}/${arity}`);
  }

  /**
   * Runs `goal` and collects the values of `template` (variable names of the goal)
   * for every answer, through the emit sink in a failure-driven loop.
   */
  solve(goal: string, template: string[], limits: SolveLimits = {}): PrologValue[][] {
    const emitted = `emit([${template.join(', ')}])`;
    const maxAnswers = limits.maxAnswers ?? Number.MAX_SAFE_INTEGER;
    this.sink = [];
    let failure: string | undefined = 'tau-prolog did not report';
    this.session.query(`(${goal}), ${emitted}, fail ; true.`, {
      html: false,
      success: () => (failure = undefined),
      error: (error: Any) => (failure = pl.format_answer(error)),
    });
    if (failure !== undefined) throw new ValidationError('rule_goal_invalid', `rule goal does not parse: ${failure}`);
    this.drive(limits, () => this.sink.length >= maxAnswers);
    return this.sink;
  }

  /** Whether `goal` has at least one solution. */
  holds(goal: string, limits: SolveLimits = {}): boolean {
    return this.solve(goal, [], { ...limits, maxAnswers: 1 }).length > 0;
  }

  /** The synchronous step driver: runs the thread until it finishes, errs or spends a limit. */
  private drive(limits: SolveLimits, stop: () => boolean): void {
    const thread = this.session.thread;
    const inferenceLimit = limits.inferenceLimit ?? DEFAULT_INFERENCE_LIMIT;
    const deadline = Date.now() + (limits.timeLimitMs ?? DEFAULT_RULE_TIME_LIMIT_MS);
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
        if ((inferences & 255) === 0 && Date.now() > deadline) {
          throw new LimitError('query_time_limit', `the rule query ran past its time limit of ${limits.timeLimitMs ?? DEFAULT_RULE_TIME_LIMIT_MS} ms`);
        }
        thread.step();
        if (stop()) break;
      }
    } finally {
      thread.points = [];
    }
  }

  private installGraphPredicates(): void {
    const rules = this.session.modules.user.rules;
    rules['emit/1'] = (_thread: Any, _point: Any, atom: Any) => {
      this.sink.push(toJs(atom.args[0]) as PrologValue[]);
      // no new state: the failure-driven loop backtracks into the next answer
    };
    rules['node/2'] = (thread: Any, point: Any, atom: Any) => {
      const [id, label] = atom.args;
      const results: Any[] = [];
      const push = (node: NodeRecord, nodeLabel: string) => results.push(term('node', [atomOf(node.id), atomOf(nodeLabel)]));
      if (isAtom(id)) {
        const node = this.visibleNode(id.id);
        if (node) for (const nodeLabel of node.labels) if (!isAtom(label) || label.id === nodeLabel) push(node, nodeLabel);
      } else if (isAtom(label)) {
        for (const nodeId of this.view.graph.nodesWithLabel(label.id)) {
          const node = this.visibleNode(nodeId);
          if (node) push(node, label.id);
        }
      } else {
        for (const node of this.view.graph.nodes.values()) if (this.isVisible(node)) for (const nodeLabel of node.labels) push(node, nodeLabel);
      }
      unifyEach(thread, point, atom, results);
    };
    rules['prop/3'] = (thread: Any, point: Any, atom: Any) => {
      const [id, key, value] = atom.args;
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
          for (const nodeId of this.view.graph.nodesWithProperty(key.id, scalar)) {
            const node = this.visibleNode(nodeId);
            if (node) results.push(term('prop', [atomOf(node.id), atomOf(key.id), fromJs(scalar)]));
          }
        }
      } else {
        for (const node of this.view.graph.nodes.values()) if (this.isVisible(node)) pushRecord(node);
        for (const edge of this.view.graph.edges.values()) if (this.isVisible(edge)) pushRecord(edge);
      }
      unifyEach(thread, point, atom, results);
    };
    rules['edge/5'] = (thread: Any, point: Any, atom: Any) => {
      const [id, type, from, to] = atom.args;
      const types = isAtom(type) ? [type.id] : undefined;
      let candidates: Iterable<EdgeRecord>;
      const graph = this.view.graph;
      if (isAtom(id)) {
        const edge = graph.edge(id.id);
        candidates = edge ? [edge] : [];
      } else if (isAtom(from)) candidates = graph.edgesOf(from.id, 'out', types);
      else if (isAtom(to)) candidates = graph.edgesOf(to.id, 'in', types);
      else if (types) candidates = [...graph.edgesWithType(types[0])].map((edgeId) => graph.edge(edgeId)!);
      else candidates = graph.edges.values();
      const results: Any[] = [];
      for (const edge of candidates) {
        if (!this.isVisible(edge)) continue;
        results.push(term('edge', [atomOf(edge.id), atomOf(edge.type), atomOf(edge.from), atomOf(edge.to), new pl.type.Num(edge.confidence, true)]));
      }
      unifyEach(thread, point, atom, results);
    };
  }

  private isVisible(record: { recorded_at: string }): boolean {
    return this.view.asOf === undefined || record.recorded_at <= this.view.asOf;
  }
  private visibleNode(id: string): NodeRecord | undefined {
    const node = this.view.graph.node(id);
    return node && this.isVisible(node) ? node : undefined;
  }
  private visibleEdge(id: string): EdgeRecord | undefined {
    const edge = this.view.graph.edge(id);
    return edge && this.isVisible(edge) ? edge : undefined;
  }
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
