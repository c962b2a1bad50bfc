/**
 * The one module that talks to the Prolog engine, SWI-Prolog compiled to WebAssembly
 * (swipl-wasm, pinned; DESIGN.md decision 3): one engine per thread, a Prolog module
 * per consulted rule module, the graph predicates, and solve calls with an inference
 * and a time limit. Rules read the graph only through
 *
 *   node(Id, Label)                       node Id carries Label
 *   prop(Id, Key, Value)                  node or edge Id has property Key = Value
 *   edge(Id, Type, From, To, Confidence)  an edge of the graph
 *   valid_time(Id, Date)                  when node Id held or was said ('YYYY-MM-DD')
 *   nodes_where(Label, Key, Value, Ids)   the sorted list of nodes with Label (and Key = Value
 *                                         when Key is bound)
 *   reference_date(Date)                  "now" for recent/trend rules: the view's valid-time
 *                                         cut, else the latest valid time in the view
 *   date_days(Date, Days)                 days since 1970-01-01 (for windows and spans)
 *   text_mentions(Id, Keywords, Keyword)  the first of Keywords (lower-case atoms) that the
 *                                         node's text or label contains, ignoring case
 *   filter_ids(Ids, Condition, Kept)      the ids of a list that meet Condition: window(From, To)
 *                                         (days before the reference date), current(Days) (in the
 *                                         last Days, or undated), dated, mentions(Keywords) (read
 *                                         from the text index when every keyword is one a module
 *                                         declares or a node name it indexes), prop(Key, Value),
 *                                         kind(Label)
 *   mentioning_each(Ids, Words, Pairs)    Word-Hits for each of Words: filter_ids' mentions([Word]) of
 *                                         each, the indexed words read in one pass over Ids' mentions
 *   group_by_edge(Ids, Type, Dir, Role, Groups)
 *                                         groups Ids by the node at the other end of their edges of
 *                                         Type (Dir in: edges arriving at the id; out: leaving it),
 *                                         Role (when bound) matching the edge's role (default
 *                                         participant): a sorted list of Node-Ids pairs
 *   sum_prop(Ids, Key, Sum)               the sum of a numeric property over Ids
 *   count_ids(List, N)                    the length of a list
 *   union_ids(Lists, Union)               the sorted, duplicate-free union of a list of lists
 *   merge_pairs(Pairs, Mode, Merged)      p(A, B, Ids) terms merged per pair, Ids unioned; Mode
 *                                         undirected orders each pair (A @< B) first
 *   link_pairs(Ids, SideA, SideB, Pairs)  the pairs of nodes each id links, one through SideA and
 *                                         one through SideB (a side: in(Type), in(Type, Role),
 *                                         out(Type)): a sorted list of p(A, B, Ids), e.g. who
 *                                         (perpetrator) attacked whom (target) in which events
 *   view_memo(Key, Value, Goal)           Value as Goal's first answer computes it, kept under Key
 *                                         for the rest of the view (a per-view set a rule reads
 *                                         again: cheaper than `:- table` for large answers)
 *   argument_source(Id, Source)           a source of node Id's provenance (its document id, else
 *                                         its source), for each claim and event at an end of a
 *                                         CONTRADICTS or SUPPORTS edge (lib/argumentation.pl
 *                                         weighs them)
 *
 * A module may declare `keywords(Name, Words)` facts (word lists, indexed in every text)
 * and `name_keywords(Label)` facts: the names of the nodes of Label (label/2: their label,
 * else text, lower case) are then indexed in every text too, so that `mentioning(Ids,
 * [Name], Hits)` with a place or issue name read from the graph is a lookup, not a scan.
 *
 * defined in lib/graph.pl over facts that hold the records of the solve call's graph
 * view (engine/store/view.ts). A JavaScript call from Prolog costs tens of
 * microseconds in swipl-wasm, a fact lookup well under one, so the view is handed
 * over once as facts (when the graph, its revision or the view's cuts change: only the
 * records added, when the graph has only grown; only the records taken out, when the
 * valid-time cut moved earlier or a view without one is cut; else all of them; tabled rule
 * predicates are dropped with the old facts), with the keyword index of its texts
 * (text-index.ts) and every rule runs inside the engine. The view holds the properties of the
 * keys the consulted rules read (viewKeys), all of them once a rule computes a key. Ids, labels, types, keys and
 * string values are atoms; numbers are numbers; booleans are the atoms true/false;
 * double-quoted text is an atom.
 */
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import { type GraphView, inView, recordedBy, validTime } from '../store/view.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { addedSince } from '../store/graph-changes.ts';
import { LimitError, ValidationError } from '../errors.ts';
import { TextIndex } from './text-index.ts';

const require = createRequire(import.meta.url);
type Any = any;

export type { GraphView } from '../store/view.ts';

/** Inferences one rule query may use before it is stopped (SWI-Prolog counts calls; a few seconds of swipl-wasm is far more than any rule needs). */
export const DEFAULT_INFERENCE_LIMIT = 20_000_000;
/** Wall-clock budget of one rule query. */
export const DEFAULT_RULE_TIME_LIMIT_MS = 5_000;
/**
 * How many inferences pass between two checks of a solve call's time limit (SWI-Prolog's
 * heartbeat). The heartbeat is only checked when a loop calls a built-in other than
 * arithmetic: a clause that only calls itself (`loop(X) :- loop(X).`, or with `is/2`)
 * never reaches it, and is stopped by the inference limit.
 */
const HEARTBEAT_INFERENCES = 10_000;
/** The largest integer the engine takes from JavaScript (a C long in WebAssembly). */
const MAX_ENGINE_INT = 2 ** 31 - 1;

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
  /** What it read that records added to the view could change (lib/graph.pl read_note/1), as text: `label(Claim)`, `type(any)`, `ref`... */
  reads: string[];
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

/**
 * The thread's engine (about a second and ~100 MB; every PrologBridge of the thread
 * shares it). It starts only when a thread asks for it with startProlog, so threads
 * that import the query engine or the catalog's types never hold one: the server's
 * main thread leaves Prolog to the reasoning workers. Its console output is dropped:
 * consult problems are collected by lib/graph.pl and reported as RuleModuleError.
 */
let engine: Any | undefined;
/** The engine's own (Emscripten, in-memory) file system: view images pass through it (viewImage, handOverImage). */
let engineFiles: Any | undefined;
/** The engine's C allocator (Emscripten's malloc and free): reserveViewMemory grows the engine's memory with it. */
let engineHeap: { _malloc(bytes: number): number; _free(block: number): void } | undefined;
let starting: Promise<void> | undefined;

/** Starts this thread's engine, once; PrologBridge calls made before it resolves throw. */
export function startProlog(): Promise<void> {
  return (starting ??= startEngine().then((started) => {
    engine = started.prolog;
    engineFiles = started.FS;
    engineHeap = started;
  }));
}

async function startEngine(): Promise<Any> {
  const SWIPL = require('swipl-wasm');
  const swipl = await SWIPL({ arguments: ['-q'], print: () => {}, printErr: () => {} });
  const prolog = swipl.prolog;
  const graphLibrary = readFileSync(fileURLToPath(new URL('./lib/graph.pl', import.meta.url)), 'utf8');
  const library = new URL('./lib/', import.meta.url);
  const code = createHash('sha256');
  for (const file of readdirSync(library).filter((name) => name.endsWith('.pl')).sort()) code.update(file).update(readFileSync(new URL(file, library)));
  handOverCode = code.update(readFileSync(fileURLToPath(import.meta.url))).digest('hex');
  prolog.query('set_prolog_flag(double_quotes, atom)').once();
  const loaded = prolog.query("setup_call_cleanup(open_string(Text, S), load_files(user:'engine/prolog/lib/graph.pl', [stream(S), silent(true), optimise(true)]), close(S))", { Text: graphLibrary }).once();
  if (!loaded || loaded.error || loaded.success === false) throw new Error(`lib/graph.pl does not load: ${loaded?.message ?? 'failed'}`);
  prolog.query(`set_prolog_flag(heartbeat, ${HEARTBEAT_INFERENCES})`).once();
  return swipl;
}

/** Runs a goal with input bindings and returns its first answer's bindings; engine errors throw. */
function once(goal: string, input: Record<string, unknown>): Record<string, Any> {
  if (!engine) throw new Error('no Prolog engine in this thread: await startProlog() first');
  const answer = engine.query(goal, input).once();
  if (!answer || answer.error) throw new Error(`Prolog engine: ${answer?.message ?? 'no answer'}`);
  if (answer.success === false) throw new Error(`Prolog engine: ${goal} failed`);
  return answer;
}

let moduleCount = 0;

export class PrologBridge {
  /** The Prolog module this bridge's rules live in. */
  private readonly module = `parley_m${++moduleCount}`;
  private readonly userPredicates = new Set<string>();
  /** The bridge whose predicates this one adopted (the helper library's): a module header resets a module's imports, so the consult adopts them again. */
  private adopted: PrologBridge | undefined;
  /** Whether a text consulted here names g_* facts (lib/graph.pl), which rules read past the notes of what they read. */
  private unreported = false;
  /** What the rule module's header exports (`name/arity`); undefined for a module consulted without a header. */
  private exportList: string[] | undefined;
  /** The names of the key readers the module sees (lib/graph.pl parley_reader_names/2): a query passing one may read keys. */
  private readerNames = new Set<string>();
  /** Inferences spent by the last solve call. */
  lastUsage: SolveUsage = { inferences: 0, reads: [] };

  /**
   * Consults a rule module's text. Throws RuleModuleError naming `origin`, the line and
   * the reason when it does not load. `trusted` code (the helper library) has its
   * arithmetic compiled inline, which costs no inference and runs faster; a rule module's
   * is not, because inline arithmetic never reaches the heartbeat that checks the time
   * limit, so a runaway arithmetic loop would only stop at the inference limit.
   */
  consult(program: string, origin = 'rule module', trusted = false): string[] {
    const before = new Set(this.definedNow());
    const { Problems } = once('parley_consult(M, Source, Text, Optimise, Problems)', {
      M: this.module,
      // SWI-Prolog loads one source into one module only: the same file consulted by two registries needs two names
      Source: `${this.module}/${origin}`,
      Text: program,
      Optimise: trusted ? 'true' : 'false',
    });
    const problems = (Problems as Any[]).map((problem) => compoundArgs(problem) as [number, number, string]);
    if (problems.length > 0) {
      const [line, column, message] = problems[0];
      throw new RuleModuleError(origin, line > 0 ? line : undefined, column > 0 ? column : undefined, String(message).trim());
    }
    if (this.adopted) once('add_import_module(M, From, start)', { M: this.module, From: this.adopted.module });
    const { Exports } = once('parley_exports(M, Es), ( Es == none -> Exports = none ; maplist([N/A, I]>>format(atom(I), "~w/~w", [N, A]), Es, Exports) )', { M: this.module });
    this.exportList = Exports === 'none' ? undefined : (Exports as string[]);
    const added = this.definedNow().filter((indicator) => !before.has(indicator));
    added.forEach((indicator) => this.userPredicates.add(indicator));
    indexKeywords(this.module);
    indexNames(this.module);
    holdKeys(this, once('parley_read_keys(M, Keys)', { M: this.module }).Keys);
    this.readerNames = new Set(once('parley_reader_names(M, Names)', { M: this.module }).Names as string[]);
    if (!this.unreported && /\bg_[a-z]+\s*\(/.test(program)) {
      this.unreported = true;
      once('assertz(parley_unreported(M))', { M: this.module });
    }
    forgetAnswers(); // new rules: no answer of the old ones stands for theirs
    return added;
  }

  private definedNow(): string[] {
    const { Indicators } = once('parley_defined(M, Is), maplist([N/A, I]>>format(atom(I), "~w/~w", [N, A]), Is, Indicators)', { M: this.module });
    return Indicators as string[];
  }

  /** Makes the predicates another bridge has consulted (the helper library) callable here, without consulting them again. */
  adoptPredicates(from: PrologBridge, indicators: Iterable<string>): void {
    once('add_import_module(M, From, start)', { M: this.module, From: from.module });
    this.adopted = from;
    forgetAnswers();
    for (const indicator of indicators) this.userPredicates.add(indicator);
  }

  /**
   * Whether every read of the graph by the rules here (and by the ones adopted) is noted in SolveUsage.reads:
   * false when a text consulted names g_* facts, read past the graph predicates that note them.
   */
  readsReported(): boolean {
    return !this.unreported && (this.adopted?.readsReported() ?? true);
  }

  /** The predicates the module's header exports, as `name/arity`; undefined when it has no header (every predicate it defines is public). */
  exports(): string[] | undefined {
    return this.exportList;
  }

  /** The predicates callable here: the ones consulted into this bridge and the ones adopted, as `name/arity`. */
  predicates(): string[] {
    return [...this.userPredicates];
  }

  /** Whether a consulted rule module defines `name/arity`. */
  defines(name: string, arity: number): boolean {
    return this.userPredicates.has(`${name}/${arity}`);
  }

  /** Runs `goal` over `view` and collects the values of `template` (variable names of the goal) for every answer. */
  solve(goal: string, template: string[], view: GraphView, limits: SolveLimits = {}): PrologValue[][] {
    holdKeys(this, once('parley_goal_keys(M, Goal, Keys)', { M: this.module, Goal: goal }).Keys);
    return this.run(goal, template, view, limits);
  }

  /**
   * Whether `name(args)` holds over `view`, called from a query (WHERE): `args` are data (quoteAtom, numbers), so
   * they read no key, save a reader's name the predicate calls (lib/graph.pl parley_call_keys/3).
   */
  holdsCall(name: string, args: string[], view: GraphView, limits: SolveLimits = {}): boolean {
    const goal = `${name}(${args.join(', ')})`;
    if (args.some((arg) => this.readerNames.has(arg.replace(/^'(.*)'$/, '$1')))) holdKeys(this, once('parley_call_keys(M, Goal, Keys)', { M: this.module, Goal: goal }).Keys);
    return this.run(goal, [], view, { ...limits, maxAnswers: 1 }).length > 0;
  }

  /** Takes the keys this bridge's rules and goals read out of those views hold (its module unloaded). */
  releaseKeys(): void {
    releaseKeys(this);
  }

  private run(goal: string, template: string[], view: GraphView, limits: SolveLimits): PrologValue[][] {
    loadView(view);
    const inferenceLimit = Math.min(limits.inferenceLimit ?? DEFAULT_INFERENCE_LIMIT, MAX_ENGINE_INT);
    const timeLimitMs = Math.min(limits.timeLimitMs ?? DEFAULT_RULE_TIME_LIMIT_MS, MAX_ENGINE_INT);
    const maxAnswers = Math.min(limits.maxAnswers ?? MAX_ENGINE_INT, MAX_ENGINE_INT);
    const { Result } = once('parley_solve(M, Goal, Names, Max, Limit, Ms, Result)', {
      M: this.module,
      Goal: goal,
      Names: template,
      Max: maxAnswers,
      Limit: inferenceLimit,
      Ms: timeLimitMs,
    });
    const [inferences, outcome, reads] = compoundArgs(Result) as [number, Any, string[]];
    this.lastUsage = { inferences: Number(inferences), reads };
    if (typeof outcome === 'string') {
      if (outcome === 'inference_limit') {
        throw new LimitError('query_inference_limit', `the rule query used more than ${inferenceLimit} inferences`, { limit: inferenceLimit });
      }
      throw new LimitError('query_time_limit', `the rule query ran past its time limit of ${timeLimitMs} ms`, { limit_ms: timeLimitMs });
    }
    const [detail] = compoundArgs(outcome);
    if (outcome.functor === 'syntax') throw new ValidationError('rule_goal_invalid', `rule goal does not parse: ${String(detail).trim()}`);
    if (outcome.functor === 'error') throw new ValidationError('rule_error', `rule evaluation failed: ${String(detail).trim()}`);
    return (detail as Any[]).map((answer) => (answer as Any[]).map(toJs));
  }

  /** Whether `goal` has at least one solution over `view`. */
  holds(goal: string, view: GraphView, limits: SolveLimits = {}): boolean {
    return this.solve(goal, [], view, { ...limits, maxAnswers: 1 }).length > 0;
  }
}

/** The keywords every consulted module declares, indexed in the texts of each view handed over. */
const textIndex = new TextIndex();

/**
 * Adds the words a module declares (its keywords/2 facts) to the text index; a new word
 * makes the next solve call load its view again, so that the index covers every text.
 */
function indexKeywords(module: string): void {
  const { Words } = once('parley_keywords(M, Words)', { M: module });
  const words = (Words as unknown[]).filter((word): word is string => typeof word === 'string');
  if (!textIndex.add(words)) return;
  once('parley_index_words(Words)', { Words: words });
  forgetViews();
}

/**
 * The property keys the view holds as g_prop and g_eprop facts: those the consulted rules read (lib/graph.pl
 * parley_read_keys/2, which reads them off the clauses), and those of goals solved directly, over the bridges
 * not released (keysReadBy); 'all' once a rule reads a key it computes or takes from a query. A view holds no other property: at 1M facts of the bench graphs
 * a fifth of them are timestamps and dates that rules read only as valid times (g_valid).
 */
let viewKeys: Set<string> | 'all' = new Set();

/** The keys each bridge's rules, and the goals solved on it, read: viewKeys is their union. */
const keysReadBy = new Map<PrologBridge, Set<string> | 'all'>();

/** Adds keys `bridge` reads (a list, or 'all') to its own and the view's; a new one makes the next solve call load its view again. */
function holdKeys(bridge: PrologBridge, keys: unknown): void {
  const read = keys === 'all' ? 'all' : (keys as unknown[]).filter((key): key is string => typeof key === 'string');
  const before = keysReadBy.get(bridge) ?? new Set<string>();
  keysReadBy.set(bridge, read === 'all' || before === 'all' ? 'all' : new Set([...before, ...read]));
  if (viewKeys === 'all') return;
  if (read === 'all') viewKeys = 'all';
  else {
    const held = viewKeys;
    const added = read.filter((key) => !held.has(key));
    if (added.length === 0) return;
    for (const key of added) held.add(key);
  }
  forgetViews();
}

/**
 * Drops the keys only `bridge` read from those views hold. Views handed over already keep their facts of them
 * (no rule left reads them): only later hand-overs, whole or grown, leave them out.
 */
function releaseKeys(bridge: PrologBridge): void {
  if (!keysReadBy.delete(bridge)) return;
  const reads = [...keysReadBy.values()];
  viewKeys = reads.includes('all') ? 'all' : new Set(reads.flatMap((keys) => [...(keys as Set<string>)]));
}

/** The property keys views hold (sorted), or 'all': what the rules consulted so far read. */
export function propertyKeysHeld(): string[] | 'all' {
  return viewKeys === 'all' ? 'all' : [...viewKeys].sort();
}

function viewHolds(key: string): boolean {
  return viewKeys === 'all' || viewKeys.has(key);
}

/** The node labels whose nodes' names some module indexes (its name_keywords/1 facts). */
const nameLabels = new Set<string>();

/** Adds the labels a module declares in name_keywords/1; a new one makes the next solve call load its view again. */
function indexNames(module: string): void {
  const { Labels } = once('parley_name_labels(M, Labels)', { M: module });
  let added = false;
  for (const label of Labels as unknown[]) {
    if (typeof label !== 'string' || nameLabels.has(label)) continue;
    nameLabels.add(label);
    added = true;
  }
  if (added) forgetViews();
}

/**
 * The name of a node as a keyword: what label/2 (lib/conflict.pl) reads (its label, else its
 * text, else its id), lower-cased; undefined for a node of no name_keywords label.
 */
function nodeName(node: NodeRecord): string | undefined {
  if (!node.labels.some((label) => nameLabels.has(label))) return undefined;
  const { label, text } = node.properties;
  const name = (typeof label === 'string' ? label : typeof text === 'string' ? text : node.id).toLowerCase();
  return name === '' ? undefined : name;
}

/** The names of `nodes` (nodeName) that `names` does not hold yet, each once, in order. */
function newNames(nodes: Iterable<NodeRecord>, names: TextIndex): string[] {
  const found = new Set<string>();
  for (const node of nodes) {
    const name = nodeName(node);
    if (name !== undefined && !names.has(name)) found.add(name);
  }
  return [...found];
}

/** A node's text (else its label) as g_text/2 holds it and the keyword index reads it: lower case, curly apostrophes straight. */
function lowerText(node: NodeRecord): string | undefined {
  const text = node.properties.text ?? node.properties.label;
  return typeof text === 'string' ? text.toLowerCase().replace(/[\u2018\u2019]/g, "'") : undefined;
}

/**
 * Whether views hand over the text and label properties (the rules read both: the built-in ones do), so that a node's
 * g_text/2 fact may be left out where lib/graph.pl node_text/2 reads it back from them (textReadBackFromProps): at 1M facts of
 * bench/store's graph, 20 MB of each engine holding the view (a clause of some 100 bytes per node with a text).
 */
function viewReadsTextsFromProps(): boolean {
  return viewHolds('text') && viewHolds('label');
}

/**
 * Whether node_text/2 reads `node`'s lowered text back from its text (else label) property, its g_text/2 fact left out:
 * a string in ASCII, where SWI-Prolog's downcase_atom/2 lowers as toLowerCase does and no curly apostrophe is, and that
 * no other value becomes as an atom (fromJs: the booleans, an object's JSON), so that node_text/2 tells them apart.
 */
function textReadBackFromProps(node: NodeRecord): boolean {
  const text = node.properties.text ?? node.properties.label;
  return typeof text === 'string' && /^[\x00-\x7f]*$/.test(text) && text !== 'true' && text !== 'false' && !text.startsWith('{');
}

/** A view whose records a slot holds as facts, and the latest valid time among them. */
interface HeldView {
  graph: WeakRef<GraphIndex>;
  revision: number;
  asOf?: string;
  validUntil?: string;
  latest?: string;
  names: TextIndex;
  /** Its g_text/2 facts leave out the texts node_text/2 reads back from the properties (viewReadsTextsFromProps when it was handed over whole). */
  textsInProps: boolean;
  /** Its facts are those of one whole hand-over, in the graph's order (no write added to them since, nothing cut): what viewImage may keep. */
  whole?: true;
}

/**
 * A view slot: a Prolog module holding the g_* facts of one view (lib/graph.pl parley_use_view/1), so that
 * the engine holds several graphs' views at once and a call on any of them pays no hand-over.
 */
interface ViewSlot {
  readonly module: string;
  /** The view its facts hold; undefined when they hold none (new keywords to index: the next call hands its view over whole). */
  held: HeldView | undefined;
  /** Facts of the graph when its view was handed over or added to: what the bound counts. */
  facts: number;
  /** When a call last read it (the least recently read is dropped first). */
  lastUsed: number;
  /** The hand-over (handOvers) since which its facts have only grown, and what each addition since changed (parley_add_view/11). */
  since: number;
  changes: { at: number; changes: string[] }[];
}

/** Facts of the views one engine holds together (setViewBound); the view a call reads is held however large. */
export const DEFAULT_VIEW_FACTS = 500_000;
let maxViewFacts = DEFAULT_VIEW_FACTS;
/**
 * Never shrinks, yet stays bounded: a new slot is made only when no slot is free or of a graph no longer used,
 * so there are at most as many as graphs with a view alive at once, the worker's replicas (PARLEY_REPLICA_GRAPHS)
 * and those garbage collection has not yet taken.
 */
const slots: ViewSlot[] = [];
/** The slot the graph predicates read now. */
let active: ViewSlot | undefined;

/**
 * Bounds the facts of the views this thread's engine holds together: beyond it, the views read least
 * recently are dropped (their facts retracted) as another is handed over.
 */
export function setViewBound(facts: number): void {
  maxViewFacts = facts;
}

/** Calls that read a slot so far: each slot's lastUsed is one of them. */
let slotUses = 0;
/** Makes `slot` the one the graph predicates read. */
function activate(slot: ViewSlot): ViewSlot {
  if (active !== slot) once('parley_use_view(Slot)', { Slot: slot.module });
  active = slot;
  slot.lastUsed = ++slotUses;
  return slot;
}

/** The slot holding a view of `graph` (whatever its revision and cuts). */
function slotOf(graph: GraphIndex): ViewSlot | undefined {
  return slots.find((slot) => slot.held?.graph.deref() === graph);
}

/** Every slot's facts stand for no view now (new keywords or names to index): each is handed over whole again. */
function forgetViews(): void {
  for (const slot of slots) slot.held = undefined;
  inParts = undefined;
}

/**
 * A slot to hand a view of `facts` facts over into whole: the views read least recently are dropped (their
 * facts retracted) until the others and this one fit the bound, and so are the views of graphs no longer
 * used (a replica dropped); the first slot so freed is taken, else a new one. Its facts are cleared by
 * the whole hand-over that follows.
 */
function slotFor(facts: number): ViewSlot {
  const [taken, ...others] = [...slots.filter((slot) => !isLive(slot)), ...evictedFor(facts)];
  for (const slot of others) if (slot.facts > 0) dropView(slot);
  if (inParts?.slot === taken) inParts = undefined; // (its facts so far cleared by the hand-over into it)
  if (taken) return taken;
  const slot: ViewSlot = { module: `parley_view_${slots.length + 1}`, held: undefined, facts: 0, lastUsed: 0, since: 0, changes: [] };
  slots.push(slot);
  return slot;
}

/** Whether `slot` holds the view of a graph still used (its replica not dropped), or is taking one in parts. */
function isLive(slot: ViewSlot): boolean {
  return slot.held?.graph.deref() !== undefined || inParts?.slot === slot;
}

/** The views of graphs still used that a view of `facts` facts drops to fit the bound, least recently read first. */
function evictedFor(facts: number): ViewSlot[] {
  const live = slots.filter(isLive).sort((a, b) => a.lastUsed - b.lastUsed);
  let total = live.reduce((sum, slot) => sum + slot.facts, 0);
  const evicted: ViewSlot[] = [];
  for (const slot of live) {
    if (total + facts <= maxViewFacts) break;
    total -= slot.facts;
    evicted.push(slot);
  }
  return evicted;
}

/** Retracts the facts of the view `slot` holds, or is taking in parts (and its kept answers), without making it the active slot. */
function dropView(slot: ViewSlot): void {
  if (inParts?.slot === slot) inParts = undefined;
  once('parley_clear_view(Slot)', { Slot: slot.module });
  slot.held = undefined;
  slot.facts = 0;
}

/**
 * Makes the g_* facts of lib/graph.pl hold the records of `view`: nothing to do when they
 * do already; the records added since, when the view is the whole graph and it has only
 * grown since it was loaded (a write applied to a worker's replica); the records of a later
 * valid time taken out, when the view is the one held cut at an earlier day, or cut where the one
 * held is not (a trajectory's periods, run from the last back, after an assess); else all of them.
 */
function loadView(view: GraphView): 'held' | 'added' | 'removed' | 'whole' {
  const { graph } = view;
  if (inParts?.graph === graph) finishParts(); // a call never reads a view taken in part: it waits for the rest of its own graph's
  const holding = slotOf(graph);
  const slot = activate(holding ?? slotFor(graph.factCount));
  const same = holds(slot, view);
  if (same && slot.held!.revision === graph.revision) return 'held';
  if (cutEarlier(slot, view)) {
    removeLater(slot, view);
    return 'removed';
  }
  // (texts left out of g_text only while the view holds the properties they are read back from: else whole again)
  const added = same && view.asOf === undefined && view.validUntil === undefined && slot.held!.textsInProps === viewReadsTextsFromProps() ? addedSince(graph, slot.held!.revision) : undefined;
  const previous = slot.held;
  slot.held = undefined;
  slot.facts = graph.factCount;
  if (added) {
    const { names } = previous!;
    const facts = new ViewFacts(view, previous!.latest, names, previous!.textsInProps);
    // a new name is looked for in the texts held already (the added texts are matched against every name as they are added)
    const named = newNames(added.nodes.map((id) => graph.node(id)!), names);
    if (named.length > 0) {
      names.add(named);
      const addedIds = new Set(added.nodes);
      const unindexed = new TextIndex();
      unindexed.add(named.filter((name) => !textIndex.has(name)));
      if (unindexed.size > 0) for (const node of graph.nodes.values()) if (!addedIds.has(node.id)) facts.addMentions(node, unindexed);
    }
    for (const id of added.nodes) facts.addNode(graph.node(id)!);
    for (const id of added.edges) facts.addEdge(graph.edge(id)!);
    const { Changes } = once('parley_add_view(N, P, EP, E, V, T, M, S, Ref, Named, Changes)', facts.arguments(facts.latest !== previous!.latest, named));
    slot.held = { graph: new WeakRef(graph), revision: graph.revision, latest: facts.latest, names, textsInProps: previous!.textsInProps };
    logChanges(slot, Changes === 'all' ? undefined : (Changes as string[]));
    addedHandOvers.count++;
    return 'added';
  }
  for (const _ of wholeInParts(slot, view));
  return 'whole';
}

/**
 * Hands `view` over whole into `slot`, active or not, a part at a time: it yields after each part of HAND_OVER_PART
 * list elements the engine has taken (and, with `indexes`, after each clause index built: parley_warm/3), and
 * holds the view once the last is in. The records are those of the graph when it begins: a write meanwhile
 * (a replica's delta) is added to the view held by the next call, as any write is.
 */
function* wholeInParts(slot: ViewSlot, view: GraphView, { indexes = false } = {}): Generator<void, void> {
  const { graph } = view;
  const revision = graph.revision;
  slot.held = undefined;
  slot.facts = graph.factCount;
  wholeHandOvers.count++;
  const started = wholeHandOvers.clock();
  once('parley_clear_view(Slot)', { Slot: slot.module });
  wholeHandOvers.clearMs += wholeHandOvers.clock() - started;
  const reserving = wholeHandOvers.clock();
  reserveViewMemory(graph);
  wholeHandOvers.reserveMs += wholeHandOvers.clock() - reserving;
  const nodes = [...graph.nodes.values()].filter((node) => inView(node, view));
  const edges = [...graph.edges.values()];
  const names = new TextIndex();
  names.add(newNames(nodes, names));
  const inProps = viewReadsTextsFromProps();
  const facts = new ViewFacts(view, undefined, names, inProps, slot.module);
  for (const node of nodes) {
    facts.addNode(node);
    if (facts.handOverFull()) yield;
  }
  for (const edge of edges) {
    if (!inView(edge, view)) continue;
    // under a valid-time cut an edge is in the view only when both its ends are
    if (view.validUntil !== undefined && !(facts.visible.has(edge.from) && facts.visible.has(edge.to))) continue;
    facts.addEdge(edge);
    if (facts.handOverFull()) yield;
  }
  facts.handOver();
  once('parley_end_view(Slot, Ref, Named, InProps)', { Slot: slot.module, Ref: facts.reference(true), Named: names.words(), InProps: String(inProps) });
  slot.held = { graph: new WeakRef(graph), revision, asOf: view.asOf, validUntil: view.validUntil, latest: facts.latest, names, textsInProps: inProps, whole: true };
  logChanges(slot, undefined);
  if (indexes) yield* indexesInParts(slot);
}

/**
 * View images: the g_* facts of a whole view as SWI-Prolog quick-load code (lib/graph.pl parley_write_image/2),
 * which an engine loads in place of reading the records, converting them and asserting them: the load some 4.5x
 * faster than that at 300k and 1M facts, the whole hand-over with the clause indexes some 2.6x (bench/handover.ts
 * prints both; docs/operations.md), so that a restart need not hand an untouched graph's view over again. An
 * image holds one whole view of one graph as the rules consulted when it was made read it: its header names those rules' property keys, keywords and name labels, the engine's version and VIEW_IMAGE_FORMAT
 * (imageSignature), and the graph's facts, its length and the SHA-256 of the header and code together; it is refused under
 * any other, or torn, or with either edited.
 * Which graph and version an image is of, the image file's header says and engine/reason/view-images.ts checks
 * (handOverImage says who checks what). Format 4: the image also holds the view's shared sets when the engine kept them
 * for its facts (lib/graph.pl parley_write_image/2), so that an engine loading it does not compute them again
 * (warm_view_sets/0: some 2.5 s of a core at 1M facts, 0.4 s loaded); format 3 held the facts alone, its g_node facts
 * the nodes' valid times (g_node/3), where format 2 held them as g_valid facts of their own.
 */
const VIEW_IMAGE_FORMAT = 4;

interface ViewImageHeader {
  signature: string;
  facts: number;
  latest?: string;
  names: string[];
  bytes: number;
  sha256: string;
}

/**
 * The SHA-256 of the code that makes a view's facts and its shared sets, read as the engine starts: the texts of the
 * helper library (lib/*.pl: graph.pl's hand-over, conflict.pl's and argumentation.pl's sets) and of this module (its
 * conversion of the records), so that an image made before a deploy that changed any of them is refused. A change to
 * the modules this one imports that changes the facts bumps VIEW_IMAGE_FORMAT.
 */
let handOverCode = '';

/** What an image depends on besides its graph: an image made under another signature would hold other facts. */
function imageSignature(): string {
  const { Version } = once('current_prolog_flag(version, Version)', {});
  return JSON.stringify({ format: VIEW_IMAGE_FORMAT, prolog: Version, code: handOverCode, keys: propertyKeysHeld(), keywords: textIndex.words().sort(), names: [...nameLabels].sort() });
}

/** The digest of an image: its header less the digest, as written, then its code, so that an edited header is refused as an edited fact is. */
function imageDigest(header: Omit<ViewImageHeader, 'sha256'>, qlf: Uint8Array): string {
  return createHash('sha256').update(JSON.stringify(header)).update('\n').update(qlf).digest('hex');
}

/**
 * The image of the whole view of `graph` the engine holds at the graph's revision, as one whole hand-over made it,
 * or undefined when it holds none, a cut or as_of one, or one a write was added to since. Some two to three times a whole hand-over's CPU (at 100k facts about 2 s; the
 * compiler's copy of the facts, some 200 bytes a fact, is freed after), and about 40 bytes a fact.
 */
export function viewImage(graph: GraphIndex): Buffer | undefined {
  if (!holdsWholeView(graph)) return undefined;
  const slot = slotOf(graph)!;
  const held = slot.held!;
  const folder = '/parley/image';
  engineFiles.mkdirTree(folder);
  try {
    once('parley_write_image(Slot, Stub)', { Slot: slot.module, Stub: `${folder}/view.pl` });
    const qlf = Buffer.from(engineFiles.readFile(`${folder}/view.qlf`) as Uint8Array);
    const header = { signature: imageSignature(), facts: graph.factCount, latest: held.latest, names: held.names.words(), bytes: qlf.length };
    return Buffer.concat([Buffer.from(JSON.stringify({ ...header, sha256: imageDigest(header, qlf) }) + '\n'), qlf]);
  } finally {
    for (const file of ['view.pl', 'view.qlf']) if (engineFiles.analyzePath(`${folder}/${file}`).exists) engineFiles.unlink(`${folder}/${file}`);
  }
}

/** Whether the engine holds the whole view of `graph` at its revision as one whole hand-over made it: what viewImage makes an image of. */
export function holdsWholeView(graph: GraphIndex): boolean {
  const held = slotOf(graph)?.held;
  // (facts a write was added to sit in another order than a whole hand-over's, which a fresh engine would make; texts
  // left out under property keys since released are not the facts the image's signature, the keys held now, stands for)
  return held?.whole === true && held.asOf === undefined && held.validUntil === undefined && held.revision === graph.revision && held.textsInProps === viewReadsTextsFromProps();
}

/** The header and code of `image` when it is whole and made under this engine's signature for a graph of `facts` facts; else undefined. */
function readImage(image: Uint8Array, facts: number): { header: ViewImageHeader; qlf: Uint8Array } | undefined {
  const newline = image.indexOf(10);
  if (newline < 0) return undefined;
  let header: ViewImageHeader;
  try {
    header = JSON.parse(Buffer.from(image.subarray(0, newline)).toString()) as ViewImageHeader;
  } catch {
    return undefined;
  }
  const qlf = image.subarray(newline + 1);
  const { sha256, ...digested } = header;
  if (header.bytes !== qlf.length || header.facts !== facts || header.signature !== imageSignature() || imageDigest(digested, qlf) !== sha256) return undefined;
  return { header, qlf };
}

/**
 * Hands the whole view of `view`'s graph over from `image` (viewImage's), then, with `indexes`, builds the clause
 * indexes, as prepareView does; the engine holds the view after, as after a whole hand-over. Without, each run builds
 * the indexes it reads as it first reads them (SWI-Prolog's just-in-time indexes): a task's own hand-over, whose engine
 * may run one framework of 15 and so need only some of them (at 1M facts some 1 s of a core for all of them; galtung,
 * which reads nearly all, pays as much in its run: docs/operations.md). Returns false, handing nothing
 * over, when the view is cut or as_of, the engine holds a view of the graph already, or the image is refused,
 * does not load, or its load throws (the slot then left empty).
 *
 * Who checks what: this checks what the engine alone can know, that the image is whole (its length and the
 * SHA-256 of its header and code), made under this engine's signature (the rules' keys, keywords and name labels,
 * SWI-Prolog's version, the hand-over code) and of a graph of as many facts, and that it holds each view
 * predicate (parley_load_image/2). Which graph and version it is of, the graph does not say (a GraphIndex holds
 * no tenant, id or store revision): an image of another graph of equal size under the same rules would be taken.
 * That is the image file's to check: engine/reason/view-images.ts readViewImage returns an image only for the
 * tenant, graph, generation and store revision its first line names, and a worker passes it only for a replica
 * no change has been applied to since the snapshot of that revision (replicas.ts). Another caller must check
 * the same itself.
 */
export function handOverImage(view: GraphView, image: Uint8Array, { indexes = true } = {}): boolean {
  const { graph } = view;
  if (view.asOf !== undefined || view.validUntil !== undefined || slotOf(graph) !== undefined) return false;
  const started = wholeHandOvers.clock();
  const read = readImage(image, graph.factCount);
  if (!read) {
    wholeHandOvers.imageMs += wholeHandOvers.clock() - started;
    return false;
  }
  const slot = slotFor(graph.factCount);
  slot.held = undefined;
  slot.facts = graph.factCount;
  slot.lastUsed = ++slotUses; // (read now, as a whole hand-over's slot is: not the first to be dropped for the next)
  const folder = `/parley/${slot.module}`; // (a folder per slot: lib/graph.pl parley_load_image/2)
  try {
    engineFiles.mkdirTree(folder);
    // (the engine's file takes the image's bytes as they are, not a copy of them: some 49 MB at 1M facts, only read
    // by the load and let go with the file below)
    engineFiles.writeFile(`${folder}/view.qlf`, read.qlf, { canOwn: true });
    reserveViewMemory(graph);
    const loaded = engine.query('parley_load_image(Slot, File)', { Slot: slot.module, File: `${folder}/view.qlf` }).once()?.success === true;
    if (!loaded) {
      slot.facts = 0;
      return false;
    }
    const names = new TextIndex();
    names.add(read.header.names);
    // (its signature names the keys held when it was made: those held now)
    slot.held = { graph: new WeakRef(graph), revision: graph.revision, latest: read.header.latest, names, textsInProps: viewReadsTextsFromProps(), whole: true };
  } catch {
    // an image that passed its checks and still broke its load is refused as one that does not load, the slot left
    // empty: the caller hands the view over from the records and says the image refused, which removes it, rather
    // than it being read, and breaking, at every hand-over of that version
    emptySlot(slot);
    return false;
  } finally {
    if (engineFiles.analyzePath(`${folder}/view.qlf`).exists) engineFiles.unlink(`${folder}/view.qlf`);
    wholeHandOvers.imageMs += wholeHandOvers.clock() - started;
  }
  wholeHandOvers.count++;
  wholeHandOvers.images++;
  logChanges(slot, undefined);
  if (indexes) for (const _ of indexesInParts(slot));
  return true;
}

/** Empties `slot` after a hand-over into it broke: its facts retracted where the engine still answers, none counted either way. */
function emptySlot(slot: ViewSlot): void {
  try {
    dropView(slot);
  } catch {
    slot.held = undefined;
    slot.facts = 0;
  }
}

/**
 * The WebAssembly memory a view takes in the engine, per fact of its graph: its clauses, their indexes and its atoms
 * (some 220 bytes at 1M facts: bench:handover), with room to spare, as reserveViewMemory reserves too much at no cost.
 */
const VIEW_MEMORY_PER_FACT = 400;

/**
 * The smallest view whose memory is grown ahead. Below it the steps are few (9 growths at 300k facts, fewer below)
 * and cost little; and at 100k facts, growing ahead came with a worse /v1/health p99 in the 5 s after a restart
 * (2.5-4.0 s against 0.4-0.9 s, three cold starts each at load 23-38, cause not found), so small views grow as
 * they go, as before.
 */
const RESERVE_FROM_FACTS = 250_000;

/**
 * The smallest graph whose views' memory is grown ahead (RESERVE_FROM_FACTS), and how many times this thread's engine
 * grew it so (its allocation succeeded). A test lowers `fromFacts` to hand a small view over through the same
 * allocator calls as a large one's.
 */
export const viewMemoryReserve = { fromFacts: RESERVE_FROM_FACTS, made: 0 };

/**
 * The WebAssembly memory grown ahead of the hand-over of a replica being built that has not taken it yet
 * (reserveViewMemoryAhead), in bytes: that replica's hand-over grows the memory only by what this does not cover, and
 * any hand-over forgets it (another view may have taken the room). The replica is held weakly: a graph dropped before
 * its hand-over is not kept alive by its reservation.
 */
let reservedAhead: { graph: WeakRef<GraphIndex>; bytes: number } | undefined;

/**
 * Grows the engine's WebAssembly memory once by what a view of the graph's `facts` facts takes (VIEW_MEMORY_PER_FACT: an
 * upper bound for a view cut by as_of or valid_until, which holds fewer; reserving too much costs nothing), where it
 * would grow by a fifth at a time as the view is loaded (Emscripten's step), most steps answered by V8 with a full
 * collection of the thread's JavaScript heap, which in a worker holds the graph's replica: at 1M facts some 15
 * growths and 11 collections of a heap that itself grows with the graph, so that loading an image took 1.8-2.2 s
 * of CPU in place of 0.9 s (hence a load that grew faster than the facts), and a hand-over from the records paid
 * the same. The block is freed at once: the allocator keeps the memory for the view's own allocations (WebAssembly
 * memory never shrinks), and no page of it is resident until the engine writes it. An engine that cannot grow that
 * far (its 2 GiB) reserves nothing and grows as it goes, as before.
 */
function reserveViewMemory(graph: GraphIndex): void {
  const ahead = reservedAhead?.graph.deref() === graph ? reservedAhead.bytes : 0;
  reservedAhead = undefined;
  const facts = graph.factCount;
  if (facts < viewMemoryReserve.fromFacts || facts * VIEW_MEMORY_PER_FACT <= ahead) return;
  growEngineMemory(facts * VIEW_MEMORY_PER_FACT);
}

/** Grows the engine's memory by `bytes` at once (an allocation freed at once): false when it cannot. */
function growEngineMemory(bytes: number): boolean {
  const block = bytes < 2 ** 31 ? engineHeap!._malloc(bytes) : 0;
  if (block === 0) return false;
  engineHeap!._free(block);
  viewMemoryReserve.made++;
  return true;
}

/**
 * The memory a view takes per record (node or edge) of its graph, for a reservation made before the graph's facts are
 * counted: VIEW_MEMORY_PER_FACT for three facts, where the generated conflict graph has some two (881,215 facts in
 * 433,527 records at 1M: a record and one property). A graph whose records carry more is grown the rest by its hand-over.
 */
const VIEW_MEMORY_PER_RECORD = 3 * VIEW_MEMORY_PER_FACT;

/**
 * Grows the engine's memory now for the view of a graph of `records` nodes and edges whose replica is about to be built
 * (a snapshot's beginning, worker-entry.ts), so that the full collection V8 answers the growth with runs over a heap
 * without that replica: grown at the hand-over, it collected the 1M-fact replica's 162 MB heap inside it, some 0.16-0.74 s
 * by the load (docs/operations.md). The hand-over that follows then grows it only by what this did not cover
 * (reserveViewMemory). Only for graphs surely at RESERVE_FROM_FACTS (a record is at least one fact); smaller ones are
 * grown by their hand-over, as before.
 */
export function reserveViewMemoryAhead(graph: GraphIndex, records: number): void {
  // a snapshot heard while the engine is still starting (a worker restarted after an idle stop loads its rule modules
  // with its channel open) is grown for by its hand-over, as before
  if (records < viewMemoryReserve.fromFacts || !engineHeap) return;
  const bytes = records * VIEW_MEMORY_PER_RECORD;
  if (growEngineMemory(bytes)) reservedAhead = { graph: new WeakRef(graph), bytes };
}

/** The memory grown ahead for the replica `begun` is for `read` now, which took its place (a replica read from the store's snapshot file). */
export function reservedAheadFor(begun: GraphIndex, read: GraphIndex): void {
  if (reservedAhead?.graph.deref() === begun) reservedAhead.graph = new WeakRef(read);
}


/** Whether a view of `facts` facts would fit beside the views the engine holds, none of them dropped for it. */
export function viewFitsBeside(facts: number): boolean {
  return evictedFor(facts).length === 0;
}

/**
 * Has SWI-Prolog build the clause indexes of `slot`'s facts that the graph predicates look them up by (parley_warm/3),
 * yielding before each: some 0.3 s at 100k facts, else paid inside the first framework run.
 */
function* indexesInParts(slot: ViewSlot): Generator<void, void> {
  for (let lookup = 0, more = true; more; lookup++) {
    yield;
    const started = wholeHandOvers.clock();
    more = once('parley_warm(Slot, N, More)', { Slot: slot.module, N: lookup }).More === 'true';
    wholeHandOvers.indexes++;
    wholeHandOvers.indexMs += wholeHandOvers.clock() - started;
  }
}

/**
 * The whole hand-over this engine is making in parts (handOverInParts), between calls: the graph, the slot it
 * fills (not the active one's facts: calls meanwhile read their own slots), and its parts left.
 */
let inParts: { graph: GraphIndex; slot: ViewSlot; parts: Generator<void, void> } | undefined;

/** Makes the rest of the hand-over in parts at once: a call on its graph is about to read it. */
function finishParts(): void {
  const { parts } = inParts!;
  inParts = undefined;
  for (const _ of parts);
}

/**
 * prepareView made in parts, for a hand-over in the background (a reasoning worker's, between its tasks): the
 * caller resumes it until it is done, letting the calls that come meanwhile run between two parts (at 100k facts
 * 20 parts, most some 25 ms of a core, the first about 0.2 s, where the whole takes about 0.7 s; RuleRegistry.prepareInParts
 * adds the shared sets as a 21st part, some 0.98 s in all: bench/warm-parts.ts). A
 * call meanwhile never reads the view in part: a call on the same graph makes the rest first (loadView), one
 * on another graph reads its own slot; one whose hand-over needs this slot drops what it holds so far, and
 * this ends. A part that throws, or a caller that stops resuming it (return(): a worker whose replica was
 * dropped), drops the facts handed over so far and frees the slot. Only a whole view of a graph the engine
 * holds no view of is made in parts; the rest (records added, a cut) at once, as prepareView. Returns whether
 * it handed anything over (false: the engine held the view, the hand-over was dropped, or a call meanwhile
 * left a cut or as_of view of the graph in its slot, not the whole view the caller's shared sets are for).
 */
export function* handOverInParts(view: GraphView): Generator<void, boolean> {
  const { graph } = view;
  if (view.asOf !== undefined || view.validUntil !== undefined || slotOf(graph) !== undefined || inParts !== undefined) return prepareView(view);
  const slot = slotFor(graph.factCount);
  slot.lastUsed = ++slotUses;
  const mine = (inParts = { graph, slot, parts: wholeInParts(slot, view, { indexes: true }) });
  try {
    for (;;) {
      // (between two parts a call may have made the rest, cut it or read it as_of, or dropped the slot)
      if (inParts !== mine) return holdsGraph(graph);
      if (mine.parts.next().done) break;
      yield;
    }
    inParts = undefined;
    return true;
  } finally {
    // a part that threw, or a caller that gave up (return()): the facts so far stand for no view, and the slot is free
    if (inParts === mine) dropView(slot);
  }
}

/**
 * Whether `view` is the view the engine holds (graph, revision, as_of) cut at an earlier or the same
 * valid time, or cut where the view held is not (an assess's view, then a trajectory's). Taking the
 * later records out of the held facts leaves the others in the order the whole hand-over asserts
 * them (the graph's), which rules can read (the first of a node's edges): adding the records of a
 * later cut would append them after the others instead.
 */
function cutEarlier(slot: ViewSlot, view: GraphView): boolean {
  const loaded = slot.held;
  return (
    loaded !== undefined &&
    loaded.graph.deref() === view.graph &&
    loaded.revision === view.graph.revision &&
    loaded.asOf === view.asOf &&
    view.validUntil !== undefined &&
    (loaded.validUntil === undefined || view.validUntil.slice(0, 10) <= loaded.validUntil.slice(0, 10))
  );
}

/**
 * Takes out of the held facts the records the view's valid-time cut hides (inView: the nodes of a
 * later valid time, the edges of a later one or with an end not in the view), with the mentions
 * of node names no node left in the view has; keeps the view_memo/3 answers that do not read them.
 */
function removeLater(slot: ViewSlot, view: GraphView): void {
  const { graph, asOf } = view;
  const held = slot.held!;
  // undefined: the view held has no valid-time cut (it holds every node recorded, and every edge, whatever its ends)
  const before = held.validUntil?.slice(0, 10);
  const after = view.validUntil!.slice(0, 10);
  slot.held = undefined;
  const nodeTime = new Map<string, string | undefined>();
  const removedNodes: string[] = [];
  const labels = new Set<string>();
  const kept: NodeRecord[] = [];
  let latest: string | undefined;
  for (const node of graph.nodes.values()) {
    if (!recordedBy(node, asOf)) continue;
    const time = validTime(node);
    nodeTime.set(node.id, time);
    if (time !== undefined && time > after) {
      if (before !== undefined && time > before) continue;
      removedNodes.push(node.id);
      for (const label of node.labels) labels.add(label);
      continue;
    }
    kept.push(node);
    if (time !== undefined && (latest === undefined || time > latest)) latest = time;
  }
  const shownAt = (id: string, cut: string) => {
    if (!nodeTime.has(id)) return false;
    const time = nodeTime.get(id);
    return time === undefined || time <= cut;
  };
  const removedEdges: string[] = [];
  const types = new Set<string>();
  for (const edge of graph.edges.values()) {
    if (!recordedBy(edge, asOf)) continue;
    const time = validTime(edge);
    const shownBefore = before === undefined || ((time === undefined || time <= before) && shownAt(edge.from, before) && shownAt(edge.to, before));
    if (!shownBefore) continue;
    if ((time === undefined || time <= after) && shownAt(edge.from, after) && shownAt(edge.to, after)) continue;
    removedEdges.push(edge.id);
    types.add(edge.type);
  }
  const names = new TextIndex();
  names.add(newNames(kept, names));
  const gone = held.names.words().filter((name) => !names.has(name) && !textIndex.has(name));
  const ref = after === before ? [] : [after, Date.parse(after) / DAY_MS];
  once('parley_remove_view(N, E, L, T, Gone, Named, Ref)', { N: removedNodes, E: removedEdges, L: [...labels], T: [...types], Gone: gone, Named: names.words(), Ref: ref });
  slot.held = { graph: new WeakRef(graph), revision: graph.revision, asOf, validUntil: view.validUntil, latest, names, textsInProps: held.textsInProps };
  logChanges(slot, undefined);
}

/** Whether `slot` holds facts of `view`'s records, at whatever revision of its graph. */
function holds(slot: ViewSlot | undefined, view: GraphView): boolean {
  const loaded = slot?.held;
  return loaded !== undefined && loaded.graph.deref() === view.graph && loaded.asOf === view.asOf && loaded.validUntil === view.validUntil;
}

/**
 * Whether the engine is taking `graph`'s whole view in parts (handOverInParts): false once a call on another graph
 * has taken its slot or dropped it to fit the bound, and the hand-over can no longer end with the view held.
 */
export function takingInParts(graph: GraphIndex): boolean {
  return inParts?.graph === graph;
}

/** Whether a whole hand-over in parts (handOverInParts) is under way, of whatever graph: until its last part, or a call made its rest or dropped it. */
export function handingOverInParts(): boolean {
  return inParts !== undefined;
}

/** Whether the engine holds facts of `graph`'s records (whole, at no as_of or valid-time cut), at whatever revision. */
export function holdsGraph(graph: GraphIndex): boolean {
  return holds(slotOf(graph), { graph });
}

/**
 * Whether a view of `graph` could be handed to the engine without dropping another graph's: it holds one
 * already, or it holds none of a graph still used (a larger view is then held alone), or the views of
 * graphs still used and this one fit the bound (setViewBound), as slotFor counts them.
 */
export function viewFits(graph: GraphIndex): boolean {
  return slotOf(graph) !== undefined || viewFitsBeside(graph.factCount);
}

/**
 * The hand-overs of this thread's engine, counted over all its slots (one count: an answer noted at a
 * hand-over into one slot is never taken for one of a later view in another); each slot keeps the last
 * that was not only records added (a whole view, records taken out, an addition while a table is held),
 * and what each addition after it changed (parley_add_view/11).
 */
let handOvers = 0;
/** Additions a slot's log keeps; an answer kept from before the oldest of them is computed again. */
const MAX_LOGGED_ADDITIONS = 256;

/** Counts a hand-over into `slot`: an addition and what it changed, or (undefined) one that was not only records added. */
function logChanges(slot: ViewSlot, changes: string[] | undefined): void {
  const at = ++handOvers;
  if (changes === undefined) {
    restartLog(slot, at);
    return;
  }
  slot.changes.push({ at, changes });
  if (slot.changes.length > MAX_LOGGED_ADDITIONS) slot.since = slot.changes.shift()!.at;
}

/** New rules: no answer kept, in any slot, stands for theirs. */
function forgetAnswers(): void {
  const at = ++handOvers;
  for (const slot of slots) restartLog(slot, at);
}

/** `slot`'s facts have only grown since hand-over `at`, with no addition logged yet. */
function restartLog(slot: ViewSlot, at: number): void {
  slot.since = at;
  slot.changes = [];
}

/** The hand-over the engine's facts are at now: what a caller keeping an answer of the whole view notes beside it. */
export function handOverNow(): number {
  return handOvers;
}

/**
 * Whether `reads` (SolveUsage.reads of calls made over the whole view of `graph` at hand-over `at`) read
 * nothing the hand-overs since changed: only records added, none of what they changed read. Their answers
 * would be the same now.
 */
export function unchangedSince(graph: GraphIndex, at: number, reads: ReadonlySet<string>): boolean {
  const slot = slotOf(graph);
  if (!holds(slot, { graph }) || at < slot!.since) return false;
  for (const { at: when, changes } of slot!.changes) {
    if (when <= at) continue;
    for (const change of changes) if (reads.has(change)) return false;
  }
  return true;
}

/**
 * Hands `view` to the engine ahead of the solve calls that will read it (RuleRegistry.prepare):
 * the records, then, when they were handed over whole, a goal that has SWI-Prolog build the
 * clause indexes the graph predicates look the facts up by (some 0.3 s at 100k facts, else
 * paid inside the first framework run). Returns whether it handed anything over (false: the
 * engine holds the view already).
 */
export function prepareView(view: GraphView): boolean {
  const done = loadView(view);
  if (done === 'whole') for (const _ of indexesInParts(slotOf(view.graph)!));
  return done !== 'held';
}

/**
 * This thread's whole hand-overs since it started: how many (a view handed over whole, not held already
 * in a slot nor only added to; `images` of them from a view image: handOverImage), and the milliseconds they spent by `clock` (wall time, unless a bench sets
 * a CPU clock: bench/handover.ts), by part: taking the slot's last facts out, the engine's memory grown ahead of a
 * hand-over from the records (reserveMs: reserveViewMemory), the engine's calls taking the lists of facts (their
 * conversion into terms and the assertions), checking and loading an image in their place (imageMs: the slot's
 * last facts out too, the memory grown ahead, and images refused), and the clause indexes built ahead of the runs
 * (prepareView, handOverImage: `indexes` of them, one per lookup parley_warm/3 makes).
 * bench/handover.ts reads the times; the rest of a hand-over is reading the records into the lists. The
 * workers report the count (ReasoningPool.heldViews).
 */
export const wholeHandOvers = { count: 0, images: 0, clearMs: 0, reserveMs: 0, engineMs: 0, indexes: 0, indexMs: 0, imageMs: 0, clock: () => performance.now() };

/** This thread's hand-overs of only the records writes added to a view the engine held (loadView): the workers report the count (ReasoningPool.heldViews). */
export const addedHandOvers = { count: 0 };

/** The bytes of the engine's global stack in use now: live terms (the shared sets and kept answers live there) and garbage. */
export function stackInUse(): number {
  return Number(once('statistics(globalused, Used)', {}).Used);
}

/**
 * Collects the engine's global stack now (garbage_collect/0) and says what it freed (bytes; the stack's use before
 * less after) and what it left in use. The stacks are not trimmed: the first call after a trim grows them back by
 * copying (stack shifts, 0.1 to 0.6 s at 1M facts, docs/operations.md).
 */
export function collectStacks(): { freedBytes: number; inUse: number } {
  const { Before, After } = once('statistics(globalused, Before), garbage_collect, statistics(globalused, After)', {});
  return { freedBytes: Number(Before) - Number(After), inUse: Number(After) };
}

/** The arguments of a compound term the engine returned (swipl-wasm 8.0.5 keeps them as the one element of an array under the functor's name). */
function compoundArgs(term: Any): unknown[] {
  return term[term.functor][0];
}

const DAY_MS = 86_400_000;

/**
 * List elements a whole hand-over passes to the engine per call (parley_add_facts/9): the calls' lists sit on
 * the engine's global stack, whose WebAssembly memory is never given back, so parts keep that peak to a
 * few megabytes where the whole view in one call grew them by some 300 bytes per fact.
 */
const HAND_OVER_PART = 60_000;

/**
 * The g_* facts of some records, as the flat lists parley_add_facts/9 and parley_add_view/11
 * take (the arguments of one fact after another). With `into` (a slot), handOverFull hands the
 * lists to that slot's facts (parley_add_facts/9) and empties them once they hold HAND_OVER_PART elements.
 */
class ViewFacts {
  readonly nodes: unknown[] = [];
  readonly props: unknown[] = [];
  readonly edgeProps: unknown[] = [];
  readonly edges: unknown[] = [];
  readonly valid: unknown[] = [];
  readonly texts: unknown[] = [];
  /** Keyword, node id: the declared keywords and the node names each text contains (g_mention). */
  readonly mentions: unknown[] = [];
  /** Node id, source: the provenance sources of the ends of CONTRADICTS and SUPPORTS edges (g_source). */
  readonly sources: unknown[] = [];
  /** The lists by the names the goals give them, in parley_add_facts/9's order. */
  private readonly lists = { N: this.nodes, P: this.props, EP: this.edgeProps, E: this.edges, V: this.valid, T: this.texts, M: this.mentions, S: this.sources };
  /** Nodes in the view (for the edges under a valid-time cut). */
  readonly visible = new Set<string>();
  /** Nodes whose sources `sources` holds. */
  private readonly sourced = new Set<string>();

  constructor(
    private readonly view: GraphView,
    /** The latest valid time of the records the engine holds already. */
    public latest: string | undefined,
    /** The names of the view's nodes of name_keywords labels. */
    private readonly names: TextIndex,
    /** Whether g_text/2 leaves out the texts node_text/2 reads back from the properties (textReadBackFromProps). */
    private readonly textsInProps: boolean,
    /** The slot (its module) handOver fills. */
    private readonly into?: string,
  ) {}

  /** Hands the lists held to the slot's facts and empties them. */
  handOver(): void {
    const started = wholeHandOvers.clock();
    once('parley_add_facts(Slot, N, P, EP, E, V, T, M, S)', { Slot: this.into, ...this.lists });
    wholeHandOvers.engineMs += wholeHandOvers.clock() - started;
    for (const list of Object.values(this.lists)) list.length = 0;
  }

  /** Hands the lists over when they hold a part's worth (HAND_OVER_PART elements); whether it did. */
  handOverFull(): boolean {
    if (this.into === undefined) return false;
    const held = Object.values(this.lists).reduce((sum, list) => sum + list.length, 0);
    if (held < HAND_OVER_PART) return false;
    this.handOver();
    return true;
  }

  addNode(node: NodeRecord): void {
    this.visible.add(node.id);
    for (const label of node.labels) this.nodes.push(node.id, label);
    for (const [key, value] of Object.entries(node.properties)) if (value !== null && viewHolds(key)) this.props.push(node.id, key, fromJs(value));
    const time = validTime(node); // a real calendar day, or none
    if (time !== undefined) {
      this.valid.push(node.id, time, Date.parse(time) / DAY_MS);
      if (this.latest === undefined || time > this.latest) this.latest = time;
    }
    const lower = lowerText(node);
    if (lower !== undefined) {
      if (!(this.textsInProps && textReadBackFromProps(node))) this.texts.push(node.id, lower);
      const words = textIndex.matches(lower);
      for (const name of this.names.matches(lower)) if (!textIndex.has(name)) words.push(name);
      for (const word of words) this.mentions.push(word, node.id);
    }
  }

  /** The mentions of `names` (none of them a declared keyword) in the text of a node the engine holds already: what the full hand-over would have found with them. */
  addMentions(node: NodeRecord, names: TextIndex): void {
    const lower = lowerText(node);
    if (lower !== undefined) for (const name of names.matches(lower)) this.mentions.push(name, node.id);
  }

  addEdge(edge: EdgeRecord): void {
    // the role in the edge's fact ([] for none): the rules that group events by who took part read it where they find the edge
    this.edges.push(edge.id, edge.type, edge.from, edge.to, edge.confidence, typeof edge.properties.role === 'string' ? edge.properties.role : []);
    for (const [key, value] of Object.entries(edge.properties)) if (value !== null && viewHolds(key)) this.edgeProps.push(edge.id, key, fromJs(value));
    // only the arguments' sources: every node's would add a fact per node to each hand-over, for the few that are weighed
    if (edge.type === 'CONTRADICTS' || edge.type === 'SUPPORTS') for (const end of [edge.from, edge.to]) this.addSources(end);
  }

  private addSources(id: string): void {
    if (this.sourced.has(id)) return;
    this.sourced.add(id);
    const node = this.view.graph.node(id);
    const sources = new Set((node?.provenance ?? []).map((record) => record.document_id ?? record.source));
    for (const source of sources) this.sources.push(id, source);
  }

  /** The goal's input; `named`, the node names the index covers anew. */
  arguments(withReference: boolean, named: string[]): Record<string, unknown> {
    return { ...this.lists, Ref: this.reference(withReference), Named: named };
  }

  /** The reference date as the engine takes it (the view's valid-time cut, else the latest valid time), when `withReference`; else [] (the same one). */
  reference(withReference: boolean): unknown {
    const reference = this.view.validUntil !== undefined ? this.view.validUntil.slice(0, 10) : this.latest;
    return !withReference ? [] : reference === undefined ? 'none' : [reference, Date.parse(reference) / DAY_MS];
  }
}

/** A property value as the engine takes it: strings become atoms, booleans the atoms true/false. */
function fromJs(value: PropertyValue): unknown {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((item) => fromJs(item as PropertyValue));
  return JSON.stringify(value);
}

/** An answer value (atoms, numbers, lists: lib/graph.pl's plain/2 turned the rest into text) as JavaScript. */
function toJs(value: Any): PrologValue {
  if (Array.isArray(value)) return value.map(toJs);
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (typeof value === 'string') return value;
  return String(value);
}
