/**
 * The rule registry: every loaded rule module (the 15 frameworks, third-party
 * frameworks, plain rule files), each consulted once into a Prolog module of
 * its own that imports the shared helper library (lib/conflict.pl and
 * lib/argumentation.pl), so that two
 * modules never clash on a predicate name. The query language reaches the predicates
 * a module exports (its `:- module(Id, Exports)` header; every one it defines when it
 * has no header) through `predicate(name, arity)` (WHERE `spoiler(a)`); frameworks run
 * through `module(id)`. Every solve call is given its graph view: nothing here holds
 * a graph.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type GraphView, PrologBridge, type PrologValue, type SolveLimits, handOverImage, handOverInParts, holdsWholeView, prepareView } from './bridge.ts';

/** The shared helper library every module is consulted with: time windows, counts, pairs, sides, trends (conflict.pl); the statuses of contradicted accounts (argumentation.pl). */
const LIBRARY_FILES = ['conflict.pl', 'argumentation.pl'];
let libraryTexts: { file: string; text: string }[] | undefined;

function helperLibrary(): { file: string; text: string }[] {
  return (libraryTexts ??= LIBRARY_FILES.map((file) => ({ file, text: readFileSync(fileURLToPath(new URL(`./lib/${file}`, import.meta.url)), 'utf8') })));
}

/** A WHERE-callable rule predicate, resolved to the module that defines it. */
export interface RulePredicate {
  module: string;
  indicator: string;
  /** Whether the goal `name(args...)` holds; `args` are Prolog terms (quoteAtom, numbers). */
  holds(args: string[], view: GraphView, limits: SolveLimits): boolean;
}

/** A predicate some module defines but does not export, so WHERE cannot call it: what to call instead. */
export interface HiddenPredicate {
  /** The modules that define it. */
  modules: string[];
  /** The predicates WHERE may call from those modules (from every module, when those export none), `name/arity`. */
  exported: string[];
}

/**
 * What the query engine needs of loaded rule modules: WHERE calls resolved to their
 * predicates, the predicates it cannot call explained, and a generation that changes
 * whenever the modules do (plans cache by it).
 */
export interface RuleSet {
  generation: number;
  predicate(name: string, arity: number): RulePredicate | undefined;
  hidden(name: string, arity: number): HiddenPredicate | undefined;
}

export class RuleRegistry implements RuleSet {
  private readonly modules = new Map<string, PrologBridge>();
  private readonly libraryPredicates: Set<string>;
  /** A session with the helper library alone: helper predicates are callable with no module loaded. */
  private readonly base: PrologBridge;
  /** Bumped by every load and unload: query plans resolved against the modules before are stale. */
  generation = 0;

  /**
   * `reserved`: predicates no module lends to WHERE, whichever defines them (the framework
   * contract, engine/frameworks/contract.ts: every framework defines them, so a name alone names none).
   */
  constructor(private readonly reserved: readonly string[] = []) {
    this.base = new PrologBridge();
    this.libraryPredicates = new Set(helperLibrary().flatMap(({ file, text }) => this.base.consult(text, `engine/prolog/lib/${file}`, true)));
  }

  /**
   * Consults a module (with the helper library) under `id`. Throws RuleModuleError
   * (file, line, reason) when it does not consult; the registry is then unchanged.
   */
  load(id: string, program: string, origin: string): string[] {
    if (this.modules.has(id)) throw new Error(`rule module '${id}' is loaded already`);
    const bridge = new PrologBridge();
    bridge.adoptPredicates(this.base, this.libraryPredicates);
    const defined = bridge.consult(program, origin).filter((indicator) => !this.libraryPredicates.has(indicator));
    this.modules.set(id, bridge);
    this.generation++;
    return defined;
  }

  /** Takes a module out again (a framework whose rules consult but break the contract). */
  unload(id: string): void {
    const bridge = this.modules.get(id);
    if (!bridge) return;
    bridge.releaseKeys();
    this.modules.delete(id);
    this.generation++;
  }

  module(id: string): PrologBridge | undefined {
    return this.modules.get(id);
  }

  moduleIds(): string[] {
    return [...this.modules.keys()];
  }

  /** The modules defining `name/arity` (the helper library counts as 'lib'). */
  providers(name: string, arity: number): string[] {
    const indicator = `${name}/${arity}`;
    if (this.libraryPredicates.has(indicator)) return ['lib'];
    return [...this.modules].filter(([, bridge]) => bridge.defines(name, arity)).map(([id]) => id);
  }

  /** The modules that make `name/arity` public: export it in their header, or define it and have no header. */
  private publishers(name: string, arity: number): string[] {
    const indicator = `${name}/${arity}`;
    return [...this.modules].filter(([, bridge]) => (bridge.exports()?.includes(indicator) ?? true) && bridge.defines(name, arity)).map(([id]) => id);
  }

  /**
   * The predicate WHERE may call as `name(...)`: a helper-library predicate, or one that
   * exactly one module makes public (a reserved one is not callable).
   */
  predicate(name: string, arity: number): RulePredicate | undefined {
    const indicator = `${name}/${arity}`;
    if (this.reserved.includes(indicator)) return undefined;
    const providers = this.libraryPredicates.has(indicator) ? ['lib'] : this.publishers(name, arity);
    if (providers.length !== 1) return undefined;
    const bridge = providers[0] === 'lib' ? this.base : this.modules.get(providers[0])!;
    return {
      module: providers[0],
      indicator,
      holds: (args, view, limits) => bridge.holdsCall(name, args, view, limits),
    };
  }

  /**
   * A predicate that modules define but none makes public (their headers do not export it), with
   * the module predicates WHERE may call instead; undefined for one WHERE may call, a reserved
   * predicate, or one no module defines.
   */
  hidden(name: string, arity: number, callable = this.callable()): HiddenPredicate | undefined {
    const indicator = `${name}/${arity}`;
    if (this.reserved.includes(indicator) || this.libraryPredicates.has(indicator)) return undefined;
    const modules = this.providers(name, arity);
    if (modules.length === 0 || this.publishers(name, arity).length > 0) return undefined;
    const modulePredicates = (ids: string[]) => Object.entries(callable).filter(([, module]) => ids.includes(module)).map(([predicate]) => predicate).sort();
    const exported = modulePredicates(modules);
    return { modules, exported: exported.length > 0 ? exported : modulePredicates(this.moduleIds()) };
  }

  /** Every predicate WHERE may call, by indicator, with the module `predicate` resolves it to: the registry as data, for a thread without an engine. */
  callable(): Record<string, string> {
    const callable: Record<string, string> = {};
    for (const indicator of new Set([...this.libraryPredicates, ...[...this.modules.values()].flatMap((bridge) => bridge.predicates())])) {
      const slash = indicator.lastIndexOf('/');
      const predicate = this.predicate(indicator.slice(0, slash), Number(indicator.slice(slash + 1)));
      if (predicate) callable[indicator] = predicate.module;
    }
    return callable;
  }

  /** Every predicate `hidden` explains, by indicator: the registry as data, for a thread without an engine. */
  hiddenPredicates(): Record<string, HiddenPredicate> {
    const hidden: Record<string, HiddenPredicate> = {};
    const callable = this.callable();
    for (const indicator of new Set([...this.modules.values()].flatMap((bridge) => bridge.predicates()))) {
      const slash = indicator.lastIndexOf('/');
      const found = this.hidden(indicator.slice(0, slash), Number(indicator.slice(slash + 1)), callable);
      if (found) hidden[indicator] = found;
    }
    return hidden;
  }

  /**
   * Makes the engine ready for the framework runs of `view` before any is asked for (a reasoning
   * worker does this when a snapshot makes a replica, and after writes to it): the view handed
   * over (whole, or the records added since), SWI-Prolog's clause indexes built, and the helper
   * library's shared sets computed (warm_view_sets/0: the nodes of each type, who asserts and did
   * what, the hostile pairs; after an addition only those it changed), which the frameworks would
   * otherwise compute inside the first assess. Returns whether the engine did any work (false when
   * it held the view already).
   *
   * The shared sets are computed under `limits`, solve's (DEFAULT_INFERENCE_LIMIT and
   * DEFAULT_RULE_TIME_LIMIT_MS) when none are given: they take some 0.54M inferences at 100k facts and
   * 5.1M at 1M, and a graph on which they run past the limit (pairs that multiply) ends the preload
   * with a LimitError, its facts and indexes handed over, each framework then computing what it reads
   * within its own limits. The indexes are not under a limit: SWI-Prolog builds them in C, in a
   * dozen lookups (some 60 inferences) that no limit interrupts, in time linear in the facts.
   */
  prepare(view: GraphView, limits: SolveLimits = {}): boolean {
    if (!this.handOver(view)) return false;
    this.warmSets(view, limits);
    return true;
  }

  /**
   * The helper library's shared sets of `view` (handed over when the engine does not hold it), kept for its facts; those
   * a framework run or an earlier warm-up computed already are kept as they are. Of a view held whole (one an image may
   * be made of), which sets were asked for is recorded too, each set kept already computed again to learn the sets it
   * came from (some 1.5 s of a core at 1M facts after the 15 runs), so that an image made after a task's own hand-over
   * carries the same sets as one made after prepare does; after a write (records added or taken out), only what is
   * missing is computed. Throws a LimitError past `limits`.
   */
  warmSets(view: GraphView, limits: SolveLimits = {}): void {
    this.base.solve(`parley_warm_sets(warm_view_sets, ${holdsWholeView(view.graph) ? 'whole' : 'kept'})`, [], view, limits);
  }

  /**
   * prepare made in parts (bridge.ts handOverInParts): the caller resumes it until it is done, and the
   * calls that come meanwhile run between two parts; the shared sets are one part, the last. With `image`
   * (the graph's view image, engine/reason/view-images.ts), the view is handed over from it in the first part
   * (bridge.ts handOverImage), or from the records, in parts, when the engine refuses it. `imageIndexes`: whether the
   * clause indexes of a view from the image are built now (a hand-over ahead of any task) or left to the runs (a task's own).
   */
  *prepareInParts(view: GraphView, limits: SolveLimits = {}, image?: Uint8Array, { imageIndexes = true } = {}): Generator<void, boolean> {
    if (!(image !== undefined && handOverImage(view, image, { indexes: imageIndexes })) && !(yield* handOverInParts(view))) return false;
    yield;
    this.warmSets(view, limits);
    return true;
  }

  /**
   * Hands `view` to the engine (its facts, and SWI-Prolog's clause indexes when it is handed over
   * whole), as the first solve call over it would; false when the engine holds it already. A
   * framework run does this before its limits start (engine/frameworks/run.ts).
   */
  handOver(view: GraphView): boolean {
    return prepareView(view);
  }

  /** Solves a goal of the helper library alone (no rule module), e.g. argument_statuses/1. */
  solveLibrary(goal: string, template: string[], view: GraphView, limits: SolveLimits = {}): PrologValue[][] {
    return this.base.solve(goal, template, view, limits);
  }

  /** Solves a goal in one module's session. */
  solve(moduleId: string, goal: string, template: string[], view: GraphView, limits: SolveLimits = {}): PrologValue[][] {
    const bridge = this.modules.get(moduleId);
    if (!bridge) throw new Error(`rule module '${moduleId}' is not loaded`);
    return bridge.solve(goal, template, view, limits);
  }
}
