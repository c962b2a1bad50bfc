/**
 * The reasoning stage's pool: graph queries and framework runs execute in worker
 * threads on graph replicas (replicas.ts), so a heavy query or an assess of a large
 * graph never stalls the HTTP event loop. Calls are admitted through a CallGate:
 * beyond `maxQueue` calls at once the caller gets OverloadedError (HTTP 503 with
 * Retry-After). Framework results are cached per graph version, so a repeated
 * assess of an unchanged graph costs a lookup.
 *
 * Why workers rather than a cooperative driver on the event loop: the join engine
 * and rule calls inside WHERE are synchronous (a rule call can spend its whole
 * inference budget inside one expression), so yielding would mean turning every
 * row loop into a generator; workers bound the loop's stall without touching the
 * engine. The hop costs a point query about 0.3 ms (bench/query.ts: 1.28x at p50
 * over HTTP), so a query first gets a few milliseconds on the loop and moves to a
 * worker only when it needs more.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { CallGate } from '../gate.ts';
import type { CatalogListing } from '../prolog/framework-loader.ts';
import type { RuleSet } from '../prolog/registry.ts';
import type { FrameworkRun, RunLimits } from '../prolog/framework-run.ts';
import { runQuery, type QueryLimits, type QueryResult } from '../query/index.ts';
import { checkParameters } from '../query/limits.ts';
import { LimitError } from '../errors.ts';
import { replaceFile } from '../files.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { DEFAULT_CACHE_FACTS, type ParleyStore } from '../store/store.ts';
import { cachedCatalog, catalogKey } from './catalog-cache.ts';
import type { Period } from './period.ts';
import { ReplicaSource, graphKey, type GraphVersion } from './replicas.ts';
import { deserialise, START_TASK, type AnswerShaper, type ReasonReply, type ReasonTask, type ShapeRequest, type Trajectory } from './tasks.ts';
import type { WorkerSetup } from './worker-entry.ts';

export interface ReasoningOptions {
  /** Worker threads (default: one per core). They start on first use, or when a client opens or writes a graph (preload). */
  workers?: number;
  /**
   * How long a worker with nothing to do lives (default 15 minutes): a worker that stops takes its
   * replicas and its engine's view with it, and its successor pays seconds to start and take them
   * again, so an analyst who reads for a few minutes before asking for an assess should not pay it.
   */
  workerIdleMs?: number;
  /** Calls admitted at once, running or waiting (default 32); more get 503. */
  maxQueue?: number;
  /** Extra framework/rule directories beside the built-ins (PARLEY_FRAMEWORKS_DIR). */
  frameworkDirs?: string[];
  /** Graphs a worker keeps replicas of (default 8; least recently used dropped). */
  maxGraphs?: number;
  /**
   * Facts a worker's replicas may hold together (default 2,000,000, as the store's cache; least
   * recently used dropped, the one in use kept however large): workers live for minutes, and a
   * client paging through large graphs would otherwise leave each worker holding 8 of them.
   */
  replicaFacts?: number;
  /** Wall-clock limit of one call, queueing included (default 120 s): a safety net, since each query and framework run has its own time and inference limits. */
  callTimeoutMs?: number;
  /** How long a query may first run on the event loop before it moves to a worker (default 10 ms; 0 = always a worker). */
  inlineBudgetMs?: number;
  /**
   * URL of a module exporting `shapeAnswer` (tasks.ts AnswerShaper): what `answer` uses to
   * turn a result into the client's bytes, in the worker that ran the query.
   */
  answerShaper?: string;
  /**
   * Largest graph (in facts) a worker hands to its Prolog engine ahead of an assess (worker-entry.ts;
   * default 250,000; 0 = never): a bigger one costs each worker seconds of CPU and engine memory per
   * replica, and would stop at the framework time limit, for a graph that may never be assessed.
   */
  preloadMaxFacts?: number;
  /** A file that keeps the rule-module catalog between starts (catalog-cache.ts); without it each process lists the modules afresh. */
  catalogCache?: string;
  /**
   * A file naming the graph last preloaded or assessed, so that a restart preloads it again
   * (`preloadLast`), as PostgreSQL's autoprewarm reloads the buffers it held: the workspace an
   * analyst was on is ready when they come back, rather than its first assess paying the hand-over.
   */
  lastGraphFile?: string;
  /** How long a result a time limit stopped is kept (default 60 s; others are kept while the graph is unchanged). */
  timeStoppedKeptMs?: number;
}

export const DEFAULT_REASON_QUEUE = 32;
export const DEFAULT_REPLICA_GRAPHS = 8;
export const DEFAULT_PRELOAD_MAX_FACTS = 250_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
export const DEFAULT_INLINE_BUDGET_MS = 10;
export const DEFAULT_WORKER_IDLE_MS = 15 * 60_000;
/**
 * A preload waits for a pause this long in the requests about a graph (an import in parts, a
 * client paging through a graph), so that it is asked for once, after the last ...
 */
const PRELOAD_PAUSE_MS = 100;
/** ... but never longer than this after the first of them. */
const PRELOAD_MAX_WAIT_MS = 1_000;
/**
 * How long after a call on a graph, or its preload, a preload of another waits: the engines hold
 * one view each, and with two clients on two graphs (or one paging through workspaces) each
 * preload would hand the other's view out of the engines, seconds of CPU at 100k facts per
 * switch, paid again by the other's next assess. So background switches happen at most once
 * in this long; a call never waits for one.
 */
const VIEW_IN_USE_MS = 10_000;
/**
 * How long a result a time limit stopped is kept (others are kept until the graph changes):
 * where it stopped depends on how busy the machine was, so it is run again, but not on every
 * request (a client repeating an assess that meets the limit would keep the workers busy).
 */
export const DEFAULT_TIME_STOPPED_KEPT_MS = 60_000;
const stoppedByTime = (run: { error?: { code: string } }) => run.error?.code === 'query_time_limit';
/** How long a graph stays in use: VIEW_IN_USE_MS while a call on it runs, else what is left of it after the last. */
const inUseLeft = (use: { running: number; ended: number }, now: number) => (use.running > 0 ? VIEW_IN_USE_MS : use.ended + VIEW_IN_USE_MS - now);
/** The largest timer delay Node honours (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Framework results kept (per graph version, view and framework set). */
const RESULT_CACHE_SIZE = 64;
/** Query texts remembered as too heavy for the inline budget (per tenant and graph). */
const HEAVY_QUERIES_KEPT = 512;

type QueryOptions = { parameters?: Record<string, unknown>; asOf?: string; explain?: boolean; limits: Partial<QueryLimits> };

/**
 * The main thread only lists what is loaded (workers solve), so pools in one process
 * (tests build many apps) share one catalog per set of directories: loading the 15
 * frameworks starts a Prolog engine and consults 16 files. The first pool's cache file,
 * if it names one, serves the next process.
 */
const catalogs = new Map<string, Promise<{ listing: CatalogListing; sourceKey: string }>>();
function catalogFor(frameworkDirs: string[], cacheFile: string | undefined): Promise<{ listing: CatalogListing; sourceKey: string }> {
  const key = JSON.stringify(frameworkDirs);
  let catalog = catalogs.get(key);
  if (!catalog) {
    // the hash of the files listed: a worker that starts later checks that it consults the same (worker-entry.ts)
    const sourceKey = catalogKey(frameworkDirs);
    const listing = cacheFile ? cachedCatalog(cacheFile, frameworkDirs, () => loadCatalog(frameworkDirs), sourceKey) : loadCatalog(frameworkDirs);
    catalog = listing.then((listed) => ({ listing: listed, sourceKey }));
    catalogs.set(key, catalog);
    catalog.catch(() => catalogs.delete(key));
  }
  return catalog;
}

/** The catalog as a child process loads it, with the engine that process alone holds. */
function loadCatalog(frameworkDirs: string[]): Promise<CatalogListing> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./catalog-process.mjs', import.meta.url)), [JSON.stringify(frameworkDirs)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (listing) => resolve(listing as CatalogListing));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the rule-module catalog process exited (code ${code}) before it answered`)));
  });
}

/** A rule call met by a query running on the main thread, which has no Prolog engine: the query moves to a worker. */
class RuleCallNeedsWorker extends Error {}

/**
 * The workers' rule modules as the main thread sees them: WHERE calls resolve to the
 * same predicates as in a worker (so analysis, planning and explain agree), but
 * solving one throws RuleCallNeedsWorker.
 */
function workerRules(callable: Record<string, string>): RuleSet {
  return {
    generation: 0,
    predicate(name, arity) {
      const indicator = `${name}/${arity}`;
      if (!Object.hasOwn(callable, indicator)) return undefined;
      return {
        module: callable[indicator],
        indicator,
        holds: () => {
          throw new RuleCallNeedsWorker(`${indicator} is solved in a reasoning worker`);
        },
      };
    },
  };
}

export class ReasoningPool {
  /** The rule modules as the workers load them: what GET /v1/frameworks lists. */
  readonly catalog: CatalogListing;
  /** Their WHERE-callable predicates, for queries run on this thread (a rule call moves the query to a worker). */
  readonly rules: RuleSet;
  private readonly source: ReplicaSource;
  private readonly pool: Piscina;
  private readonly gate: CallGate;
  private readonly workers: number;
  private readonly cache = new Map<string, { value: unknown; until: number }>();
  /** Inferences of each framework's last run (one entry per loaded framework): the order an assess hands its tasks out in. */
  private readonly frameworkCost = new Map<string, number>();
  private readonly inlineBudgetMs: number;
  private readonly answerShaperUrl: string | undefined;
  private answerShaper: Promise<AnswerShaper> | undefined;
  /**
   * Queries that outran the inline budget go straight to a worker next time: each inline
   * attempt of a heavy query holds the loop for the whole budget, and a few heavy clients
   * repeating theirs would otherwise stack those stalls.
   */
  private readonly heavy = new Set<string>();
  private readonly preloadMaxFacts: number;
  /** The preload waiting for a pause in the requests about its graph (PRELOAD_PAUSE_MS): when they began, when the last came. */
  private ahead: { key: string; tenant: string; graphId: string; since: number; last: number; timer: NodeJS.Timeout } | undefined;
  /** Per graph, the calls running on it and when the last one ended (kept VIEW_IN_USE_MS). */
  private readonly inUse = new Map<string, { running: number; ended: number }>();
  private closed = false;
  private readonly lastGraphFile: string | undefined;
  private readonly timeStoppedKeptMs: number;
  /** What lastGraphFile says now, or is being made to say, and the write under way (one at a time, in order). */
  private lastGraph: string | undefined;
  private lastGraphWrite: Promise<void> = Promise.resolve();

  /** A pool over `store`, once a thread has loaded the rule modules (a refused module is listed with its file, line and reason). */
  static async open(store: ParleyStore, options: ReasoningOptions = {}): Promise<ReasoningPool> {
    const { listing, sourceKey } = await catalogFor(options.frameworkDirs ?? [], options.catalogCache);
    return new ReasoningPool(store, options, listing, sourceKey);
  }

  private constructor(store: ParleyStore, options: ReasoningOptions, catalog: CatalogListing, catalogSourceKey: string) {
    const frameworkDirs = options.frameworkDirs ?? [];
    this.inlineBudgetMs = options.inlineBudgetMs ?? DEFAULT_INLINE_BUDGET_MS;
    this.catalog = catalog;
    this.rules = workerRules(catalog.callable);
    const channelName = `parley-replicas-${randomUUID()}`;
    this.source = new ReplicaSource(store, channelName);
    const workers = (this.workers = Math.max(1, options.workers ?? availableParallelism()));
    this.answerShaperUrl = options.answerShaper;
    this.preloadMaxFacts = options.preloadMaxFacts ?? DEFAULT_PRELOAD_MAX_FACTS;
    this.lastGraphFile = options.lastGraphFile;
    this.timeStoppedKeptMs = options.timeStoppedKeptMs ?? DEFAULT_TIME_STOPPED_KEPT_MS;
    const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const setup: WorkerSetup = { channelName, frameworkDirs, catalogSourceKey, maxGraphs: options.maxGraphs ?? DEFAULT_REPLICA_GRAPHS, maxReplicaFacts: options.replicaFacts ?? DEFAULT_CACHE_FACTS, preloadMaxFacts: this.preloadMaxFacts, ...(options.answerShaper ? { answerShaper: options.answerShaper } : {}) };
    this.pool = new Piscina({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: workers,
      idleTimeout: Math.min(options.workerIdleMs ?? DEFAULT_WORKER_IDLE_MS, MAX_TIMER_MS),
      // an idle worker keeps its event loop turning (piscina's default parks it in Atomics.wait between
      // tasks): it applies replica deltas and hands a new replica to its engine while no task runs
      atomics: 'disabled',
      workerData: setup,
      // close() waits for the tasks running: a call's deadline ends them first (piscina reports a close past its own limit as an uncaught 'error')
      closeTimeout: Math.min(callTimeoutMs, MAX_TIMER_MS),
    });
    this.pool.on('workerDestroy', () => this.source.forgetPrepared());
    this.gate = new CallGate({ name: 'reasoning (queries and frameworks)', code: 'reasoning', advice: 'narrow the query, or ask for fewer frameworks' }, options.maxQueue ?? DEFAULT_REASON_QUEUE, callTimeoutMs, workers);
  }

  /** Runs a graph query (inline within the budget, else in a worker); the graph is the main thread's index at the version queried. */
  async query(tenant: string, graphId: string, text: string, options: QueryOptions): Promise<{ result: QueryResult; graph: GraphIndex }> {
    const { graph, at } = await this.admitQuery(tenant, graphId, options);
    const inline = this.tryInline(tenant, graphId, graph, text, options);
    if (inline) {
      this.preload(tenant, graphId);
      return { result: inline, graph };
    }
    const result = (await this.run({ kind: 'query', at, text, ...options })) as QueryResult;
    return { result, graph };
  }

  /**
   * Runs a graph query and returns the answer as the client receives it (the text the
   * answer shaper makes). A query that needs a worker is shaped there too, so a large
   * answer reaches the event loop as one string.
   */
  async answer(tenant: string, graphId: string, text: string, options: QueryOptions & { shape: ShapeRequest }): Promise<string> {
    if (!this.answerShaperUrl) throw new Error('ReasoningPool.answer needs the answerShaper option');
    const { graph, at } = await this.admitQuery(tenant, graphId, options);
    const inline = this.tryInline(tenant, graphId, graph, text, options);
    if (inline) {
      this.preload(tenant, graphId);
      this.answerShaper ??= import(this.answerShaperUrl).then((module: { shapeAnswer: AnswerShaper }) => module.shapeAnswer);
      return (await this.answerShaper)(inline, graph, text, options.shape);
    }
    return (await this.run({ kind: 'query', at, text, ...options })) as string;
  }

  /** What every query passes before it runs: admission, the parameters' shape (before structured clone walks them on the way to a worker), the graph at its current version. */
  private async admitQuery(tenant: string, graphId: string, options: QueryOptions): Promise<{ graph: GraphIndex; at: GraphVersion }> {
    this.gate.checkCapacity();
    checkParameters(options.parameters);
    return this.source.current(tenant, graphId);
  }

  /**
   * A point query costs the engine about 0.1 ms and a worker hop about 0.3 ms more, so
   * a query first runs on the event loop within a small time budget; one that does not
   * finish in it, or that calls a rule predicate (solved only in workers), is stopped,
   * remembered as heavy, and runs again in a worker under its full limits. The loop is never held longer than the budget (plus one clock-check interval).
   */
  private tryInline(tenant: string, graphId: string, graph: GraphIndex, text: string, options: QueryOptions): QueryResult | undefined {
    const budget = Math.min(this.inlineBudgetMs, options.limits.timeLimitMs ?? Number.MAX_SAFE_INTEGER);
    if (budget <= 0) return undefined;
    const key = JSON.stringify([tenant, graphId, text]);
    if (this.heavy.has(key)) return undefined;
    try {
      return runQuery(graph, text, {
        parameters: options.parameters,
        as_of: options.asOf,
        explain: options.explain,
        limits: { ...options.limits, timeLimitMs: budget },
        rules: this.rules,
      });
    } catch (error) {
      if (!(error instanceof RuleCallNeedsWorker || (error instanceof LimitError && error.code === 'query_time_limit'))) throw error;
      this.heavy.add(key);
      if (this.heavy.size > HEAVY_QUERIES_KEPT) this.heavy.delete(this.heavy.values().next().value!);
      return undefined;
    }
  }

  /** Runs frameworks over the graph (as recorded by `asOf`), cached per graph version. */
  async frameworks(tenant: string, graphId: string, frameworkIds: string[], options: { asOf?: string; limits: RunLimits }): Promise<{ runs: FrameworkRun[]; graph: GraphIndex }> {
    this.gate.checkCapacity();
    const { graph, at } = await this.source.current(tenant, graphId);
    if (graph.factCount <= this.preloadMaxFacts) this.rememberLast(tenant, graphId);
    const key = JSON.stringify(['frameworks', at, frameworkIds, options.asOf ?? null]);
    // one task per framework, so the workers share an assess; the costliest first (as their last runs measured
    // them), so that the workers, each taking the next task when it is free, finish together
    const runs = await this.cached(key, async () => {
      const order = frameworkIds.map((id, index) => ({ id, index, cost: this.frameworkCost.get(id) ?? Infinity }));
      order.sort((a, b) => (a.cost === b.cost ? a.index - b.index : b.cost - a.cost));
      const tasks: ReasonTask[] = order.map(({ id }) => ({ kind: 'frameworks', at, frameworkIds: [id], ...options }));
      const done = (await this.runAll(tasks)) as FrameworkRun[][];
      const inOrder: FrameworkRun[][] = [];
      order.forEach(({ index }, i) => (inOrder[index] = done[i]));
      for (const run of done.flat()) this.frameworkCost.set(run.framework_id, run.inferences);
      return inOrder.flat();
    }, (runs) => this.keptMs(runs.some(stoppedByTime)));
    return { runs, graph };
  }

  /** The time-aware frameworks once per period, cached per graph version. */
  async trajectory(
    tenant: string,
    graphId: string,
    frameworkIds: string[],
    options: { asOf?: string; period: Period; maxPeriods: number; limits: RunLimits },
  ): Promise<Trajectory> {
    this.gate.checkCapacity();
    const { at } = await this.source.current(tenant, graphId);
    const key = JSON.stringify(['trajectory', at, frameworkIds, options.asOf ?? null, options.period, options.maxPeriods]);
    return this.cached(key, () => this.run({ kind: 'trajectory', at, frameworkIds, ...options }) as Promise<Trajectory>, (trajectory) =>
      this.keptMs(trajectory.points.some((point) => point.results.some(stoppedByTime))),
    );
  }

  /**
   * Has the workers hand the graph's view to their Prolog engines ahead of an assess, when a
   * client is at work on it (the HTTP layer calls this when a workspace is opened, a graph read or
   * written; a query that runs inline calls it; one that runs in a worker makes the replica, and with
   * it the view): the first assess then pays neither the snapshot nor the hand-over (at 100k facts,
   * seconds). Asked once the requests about the graph pause (PRELOAD_PAUSE_MS, at most
   * PRELOAD_MAX_WAIT_MS after the first); the latest graph wins, as each engine holds one view,
   * and waits while another graph is in use (a call on it, or its preload, in the last
   * VIEW_IN_USE_MS). Starts the workers when they are not running. Graphs above preloadMaxFacts
   * are left to their first assess; an absent graph asks nothing.
   */
  preload(tenant: string, graphId: string): void {
    if (this.closed || this.preloadMaxFacts === 0) return;
    const key = graphKey(tenant, graphId);
    const now = Date.now();
    if (this.ahead?.key === key) {
      this.ahead.last = now; // (its timer looks again when it fires: a point query pays no timer of its own)
      return;
    }
    clearTimeout(this.ahead?.timer);
    this.ahead = { key, tenant, graphId, since: now, last: now, timer: setTimeout(() => this.preloadDue(), PRELOAD_PAUSE_MS).unref() };
  }

  /** The pending preload, asked now unless its requests have not paused yet or another graph is in use. */
  private preloadDue(): void {
    const ahead = this.ahead;
    if (this.closed || !ahead) return;
    const { key, tenant, graphId } = ahead;
    const now = Date.now();
    const wait = Math.max(Math.min(ahead.last + PRELOAD_PAUSE_MS, ahead.since + PRELOAD_MAX_WAIT_MS) - now, this.inUseElsewhere(key));
    if (wait > 0) {
      ahead.timer = setTimeout(() => this.preloadDue(), wait).unref();
      return;
    }
    this.ahead = undefined;
    this.source.preload(tenant, graphId, this.preloadMaxFacts).then(
      (worth) => {
        if (!worth || this.closed) return;
        this.used(key).ended = Date.now(); // the engines take this view: no other preload for VIEW_IN_USE_MS
        this.startWorkers();
        this.rememberLast(tenant, graphId);
      },
      () => {}, // the graph was deleted meanwhile: nothing to preload
    );
  }

  /**
   * Preloads the graph lastGraphFile names (the one last preloaded or assessed before a restart),
   * when it still exists; a server calls this once it listens.
   */
  async preloadLast(): Promise<void> {
    if (!this.lastGraphFile) return;
    const named = await readFile(this.lastGraphFile, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined); // none yet, or damaged: nothing to preload
    if (!Array.isArray(named) || named.length !== 2 || !named.every((part) => typeof part === 'string')) return;
    const [tenant, graphId] = named as [string, string];
    this.lastGraph = JSON.stringify(named);
    this.preload(tenant, graphId);
  }

  /** Writes lastGraphFile when the graph it names changes (a failed write costs only the preload after a restart). */
  private rememberLast(tenant: string, graphId: string): void {
    const named = JSON.stringify([tenant, graphId]);
    if (!this.lastGraphFile || this.preloadMaxFacts === 0 || named === this.lastGraph) return;
    this.lastGraph = named;
    const file = this.lastGraphFile;
    this.lastGraphWrite = this.lastGraphWrite.then(() => replaceFile(file, named)).catch(() => {});
  }

  /** How long until no other graph than `key` has been in use for VIEW_IN_USE_MS (0: none is). */
  private inUseElsewhere(key: string): number {
    this.dropUnused();
    const now = Date.now();
    let wait = 0;
    for (const [other, use] of this.inUse) if (other !== key) wait = Math.max(wait, inUseLeft(use, now));
    return wait;
  }

  /** Forgets the graphs no longer in use. */
  private dropUnused(): void {
    const now = Date.now();
    for (const [key, use] of this.inUse) if (inUseLeft(use, now) <= 0) this.inUse.delete(key);
  }

  /** The use entry of `key` (made when absent). */
  private used(key: string): { running: number; ended: number } {
    this.dropUnused();
    let use = this.inUse.get(key);
    if (!use) this.inUse.set(key, (use = { running: 0, ended: 0 }));
    return use;
  }

  /**
   * Resolves once every worker holds the graph's view in its Prolog engine, at its current
   * version (false after `timeoutMs`): the preload each worker starts when a snapshot makes
   * its replica (worker-entry.ts) has finished, so an assess now pays no hand-over.
   */
  viewsPrepared(tenant: string, graphId: string, timeoutMs: number): Promise<boolean> {
    return this.source.prepared(tenant, graphId, this.workers, timeoutMs);
  }

  private async run(task: ReasonTask): Promise<unknown> {
    const [value] = await this.runAll([task]);
    return value;
  }

  /** One call of several tasks, spread over the workers; values in task order. */
  private async runAll(tasks: ReasonTask[]): Promise<unknown[]> {
    const use = this.used(tasks[0].at.key);
    use.running++;
    // past the call's deadline the signal ends the worker threads, so runaway tasks free their slots
    const replies = await this.gate.run(tasks, (item, signal) => this.pool.run(item, { signal }) as Promise<ReasonReply>).finally(() => {
      use.running--;
      use.ended = Date.now();
      this.startWorkers();
    });
    return replies.map((reply) => {
      if (!reply.ok) throw deserialise(reply.error);
      return reply.value;
    });
  }

  /**
   * Starts the workers not running once a call is answered (the pool's first, and the first after
   * they stopped for want of work): piscina starts a thread only when a task finds none free, so
   * after a first query on one thread, a first assess would run on that one while the next starts
   * (some 4 s: its engine, the rule modules), which then loads its replica and its Prolog facts for
   * the last task alone. Not before the first call is answered: engines starting side by side on
   * cores shared with other work each take longer (bench/frameworks: the first call 8 s against 3 s
   * at load 3-5; started with the pool, the first call took 7-10 s against 3.6 s at load 2-4), and
   * the first call waits for one. A preload (a client at work on a graph, no call waiting) starts
   * them all: the assess it prepares for spreads over all of them. One task that does nothing per worker: those that find a free
   * thread take it, the others start one. A worker that starts asks for the replica of the graph
   * last asked about (replicas.ts), and hands it to its engine before its first task.
   */
  private startWorkers(): void {
    if (this.closed || this.pool.threads.length >= this.workers) return;
    for (let i = 0; i < this.workers; i++) void this.pool.run(START_TASK).catch(() => {});
  }

  /** How long a result is kept: until the graph changes, or a while when a time limit stopped a run of it. */
  private keptMs(stoppedByTime: boolean): number {
    return stoppedByTime ? this.timeStoppedKeptMs : Infinity;
  }

  /** The value of `key`, computed when not cached (or kept past its time), and kept for as long as `keepMs` says. */
  private async cached<T>(key: string, compute: () => Promise<T>, keepMs: (value: T) => number): Promise<T> {
    const kept = this.cache.get(key);
    this.cache.delete(key);
    if (kept && Date.now() < kept.until) {
      this.cache.set(key, kept); // most recently used last
      return kept.value as T;
    }
    const value = await compute();
    this.cache.set(key, { value, until: Date.now() + keepMs(value) });
    if (this.cache.size > RESULT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.ahead?.timer);
    this.source.close();
    // close, not destroy: destroy drops the tasks on running threads, and a reply already on its way
    // (a warm-up task from startWorkers answers within a millisecond) then reaches piscina as a reply
    // to no task, which it reports as an 'error' event: uncaught, it ended the embedded CLI with
    // exit 1 right after its answer. Forced, close drops at once the tasks still waiting for a thread.
    await this.pool.close({ force: true });
    await this.lastGraphWrite;
  }
}
