/**
 * The reasoning stage's pool: graph queries and framework runs execute in worker
 * threads on graph replicas (replicas.ts), so a heavy query or an assess of a large
 * graph never stalls the HTTP event loop. Calls are admitted through a CallGate:
 * beyond `maxQueue` calls at once the caller gets OverloadedError (HTTP 503 with
 * Retry-After). Framework results are cached per graph version (result-cache.ts),
 * and the graph a client is at work on is handed to the workers' engines ahead of
 * its assess (preload.ts).
 *
 * Why workers rather than a cooperative driver on the event loop: the join engine
 * and rule calls inside WHERE are synchronous (a rule call can spend its whole
 * inference budget inside one expression), so yielding would mean turning every
 * row loop into a generator; workers bound the loop's stall without touching the
 * engine. The hop costs a point query about 0.3 ms (bench/query.ts: 1.28x at p50
 * over HTTP), so a query first gets a few milliseconds on the loop and moves to a
 * worker only when it needs more (inline-query.ts).
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { detectConflicts, type Conflict } from '../conflicts/detect.ts';
import { resolveScope, scopeKey, type ResolvedScope, type ScopeRequest } from '../conflicts/scope.ts';
import { CallGate } from '../gate.ts';
import { catalogFor } from '../frameworks/catalog.ts';
import type { CatalogListing } from '../frameworks/loader.ts';
import type { RuleSet } from '../prolog/registry.ts';
import { DEFAULT_INFERENCE_LIMIT, DEFAULT_VIEW_FACTS } from '../prolog/bridge.ts';
import type { FrameworkRun, RunLimits } from '../frameworks/run.ts';
import type { QueryResult } from '../query/index.ts';
import { checkParameters } from '../query/limits.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { DEFAULT_CACHE_FACTS, type ParleyStore } from '../store/store.ts';
import { InlineQueries, runOnPastView, workerRules, type QueryOptions } from './inline-query.ts';
import type { Period } from './period.ts';
import { Preloads } from './preload.ts';
import { StoredRuns, storedRunsKey } from './stored-runs.ts';
import { DEFAULT_SNAPSHOT_READ_BYTES, REPLICA_WAIT_MS, ReplicaSource, type GraphVersion, type HeldReplica, type HeldViews, type WorkerMemory } from './replicas.ts';
import { DEFAULT_VIEW_IMAGE_BYTES, ViewImages, type ImageOf } from './view-images.ts';
import { warmGraphs, type WarmBounds } from './warm.ts';
import { ResultCache, stoppedByTime } from './result-cache.ts';
import { deserialise, type AnswerShaper, type ReasonTask, type ShapeRequest, type Trajectory } from './tasks.ts';
import { bindsContested, shownUnlessPastLimits, statusById, type ArgumentStatuses } from './disputes.ts';
import type { WorkerSetup } from './worker-entry.ts';
import { ReasoningWorkers } from './workers.ts';

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
  /**
   * Wall-clock limit of one call, queueing included (default 120 s, at most MAX_CALL_TIMEOUT_MS): a safety net, since each
   * query and framework run has its own time and inference limits, which do not count a hand-over; past it the call's
   * tasks end with their threads (and the views their engines held).
   */
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
   * default 1,000,000; 0 = never): a bigger one costs each worker more seconds of CPU and engine memory
   * per replica (some 5 s of a core at 1M facts) for a graph that may never be assessed. A framework
   * run's limits do not count the hand-over, so a graph above the bound still concludes: its first
   * assess pays the hand-over before the runs.
   */
  preloadMaxFacts?: number;
  /** A file that keeps the rule-module catalog between starts (engine/frameworks/catalog-cache.ts); without it each process lists the modules afresh. */
  catalogCache?: string;
  /**
   * A file naming the graph last preloaded or assessed, so that a restart preloads it again
   * (`preloadLast`), as PostgreSQL's autoprewarm reloads the buffers it held: the workspace an
   * analyst was on is ready when they come back, rather than its first assess paying the hand-over.
   */
  lastGraphFile?: string;
  /** How long a result a time limit stopped is kept (default 60 s; others are kept while the graph is unchanged). */
  timeStoppedKeptMs?: number;
  /**
   * Facts of the graphs `warmUp` loads and replicates in the background after a restart (warm.ts;
   * default 500,000, the graph lastGraphFile names counted first; 0 = none), at most maxGraphs graphs.
   */
  warmFacts?: number;
  /**
   * Facts of the graphs' views each worker's Prolog engine holds together (default 500,000, the warm-up's
   * budget: every graph warmed after a restart is held on every engine); beyond it the view read least
   * recently is dropped as another is handed over. A view larger than the bound is still held, alone
   * (0: one view at a time).
   */
  viewFacts?: number;
  /**
   * Bytes the graphs' view images may take together in the store's snapshot folder (view-images.ts; default
   * 1 GiB, the oldest removed past it; 0: none made or read). An image, some 41 bytes a fact, lets a restart hand
   * an untouched graph's view over from it rather than from the records; none is made of a graph above preloadMaxFacts.
   */
  viewImageBytes?: number;
  /**
   * How long a worker asked to make a graph's view image waits with no task before it makes it (default 30 s): making
   * one holds the worker for two to three times a whole hand-over (2 s of a core at 100k facts, 23 s at 1M), so not
   * between the calls of an analyst at work.
   */
  viewImageIdleMs?: number;
  /**
   * Inferences the shared sets of a background hand-over (a preload, a warm-up's hold, a snapshot for another worker's task) may
   * take (worker-entry.ts; default 20,000,000, solve's: some 5.1M at 1M facts); past them the view is held without the sets,
   * each framework computing what it reads within its own limits, and its image is made all the same.
   */
  backgroundSetsInferences?: number;
  /**
   * Bytes of store snapshot files the workers read at once, each for its own replica of an untouched graph (replicas.ts
   * DEFAULT_SNAPSHOT_READ_BYTES, 512 MiB); a larger file is read by one worker at a time, the others waiting their turn.
   */
  snapshotReadBytes?: number;
  /**
   * The most each worker's V8 young generation may take, in MB (Node's resourceLimits.maxYoungGenerationSizeMb: V8
   * makes it three semi-spaces' worth, two of them committed; default 12, two 4 MB semi-spaces; 0: V8's own, 48 on 64 bits,
   * two 16 MB semi-spaces; at most 48).
   */
  workerYoungMb?: number;
}

export const DEFAULT_REASON_QUEUE = 32;
export const DEFAULT_REPLICA_GRAPHS = 8;
export const DEFAULT_PRELOAD_MAX_FACTS = 1_000_000;
export const DEFAULT_WARM_FACTS = 500_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/**
 * The longest call timeout a pool takes (PARLEY_REASON_CALL_TIMEOUT_MS): an hour, some 25 times what a first assess at
 * 1M facts took on 2 loaded cores (docs/operations.md); a call that long holds an admission slot and every worker.
 */
export const MAX_CALL_TIMEOUT_MS = 60 * 60_000;
export const DEFAULT_INLINE_BUDGET_MS = 10;
export const DEFAULT_WORKER_IDLE_MS = 15 * 60_000;
/** How long a result a time limit stopped is kept (result-cache.ts stoppedByTime); others are kept until the graph changes. */
export const DEFAULT_TIME_STOPPED_KEPT_MS = 60_000;
export const DEFAULT_VIEW_IMAGE_IDLE_MS = 30_000;
/**
 * Two 4 MB semi-spaces: unbounded, V8 grows a worker's to 2 x 16 MB during a hand-over and gives it back only at a full
 * collection in a quiet spell, minutes later on a busy server (bench:soak's RSS fell by 50-75 MB then, past its band);
 * bounded, a whole hand-over and an assess at 100k facts took the same CPU within the noise, queries in a worker some
 * 10 % more at the median (docs/operations.md, "Memory per fact").
 */
export const DEFAULT_WORKER_YOUNG_MB = 12;
/** V8's own bound on a worker's young generation on 64 bits (two 16 MB semi-spaces and their share of large objects): a setting above would let it grow past V8's default. */
export const MAX_WORKER_YOUNG_MB = 48;

export class ReasoningPool {
  /** The rule modules as the workers load them: what GET /v1/frameworks lists. */
  readonly catalog: CatalogListing;
  /** Their WHERE-callable predicates, for queries run on this thread (a rule call moves the query to a worker). */
  readonly rules: RuleSet;
  private readonly source: ReplicaSource;
  private readonly workers: ReasoningWorkers;
  private readonly gate: CallGate;
  private readonly inline: InlineQueries;
  private readonly results: ResultCache;
  private readonly preloads: Preloads;
  /** Framework runs answered from stored runs since the pool opened (a diagnostic: tests and bench/restart-views.ts read it). */
  storedRunsRead = 0;
  /** Unsubscribes the removal of a deleted graph's stored runs. */
  private readonly forgetDeletedRuns: () => void;
  /** Inferences of each framework's last run (one entry per loaded framework): the order an assess hands its tasks out in. */
  private readonly frameworkCost = new Map<string, number>();
  private readonly answerShaperUrl: string | undefined;
  private answerShaper: AnswerShaper | undefined;
  private readonly preloadMaxFacts: number;
  private readonly store: ParleyStore;
  private readonly warmBounds: WarmBounds;
  private closed = false;

  /** A pool over `store`, once a thread has loaded the rule modules (a refused module is listed with its file, line and reason). */
  static async open(store: ParleyStore, options: ReasoningOptions = {}): Promise<ReasoningPool> {
    const { listing, sourceKey } = await catalogFor(options.frameworkDirs ?? [], options.catalogCache);
    const imageBytes = options.viewImageBytes ?? DEFAULT_VIEW_IMAGE_BYTES;
    const images = imageBytes > 0 ? await ViewImages.open(store.snapshotDir, imageBytes, options.preloadMaxFacts ?? DEFAULT_PRELOAD_MAX_FACTS) : undefined;
    const storedRuns = await StoredRuns.open(store.snapshotDir, storedRunsKey(sourceKey));
    return new ReasoningPool(store, options, listing, sourceKey, images, storedRuns);
  }

  private constructor(
    store: ParleyStore,
    options: ReasoningOptions,
    catalog: CatalogListing,
    catalogSourceKey: string,
    images: ViewImages | undefined,
    /** The whole graphs' runs kept on disk for their version (stored-runs.ts): a restart answers an untouched graph's first assess from them. */
    private readonly storedRuns: StoredRuns,
  ) {
    this.forgetDeletedRuns = store.onChange((change) => (change.kind === 'delete' ? storedRuns.remove(change.tenant, change.graphId) : undefined));
    const frameworkDirs = options.frameworkDirs ?? [];
    this.store = store;
    this.catalog = catalog;
    this.rules = workerRules(catalog);
    this.inline = new InlineQueries(this.rules, options.inlineBudgetMs ?? DEFAULT_INLINE_BUDGET_MS);
    const channelName = `parley-replicas-${randomUUID()}`;
    this.preloadMaxFacts = options.preloadMaxFacts ?? DEFAULT_PRELOAD_MAX_FACTS;
    this.source = new ReplicaSource(store, channelName, images, this.preloadMaxFacts, REPLICA_WAIT_MS, options.snapshotReadBytes ?? DEFAULT_SNAPSHOT_READ_BYTES, (worker) => this.workers.threadIds().includes(worker));
    const workers = Math.max(1, options.workers ?? availableParallelism());
    this.answerShaperUrl = options.answerShaper;
    const viewFacts = options.viewFacts ?? DEFAULT_VIEW_FACTS;
    const maxGraphs = options.maxGraphs ?? DEFAULT_REPLICA_GRAPHS;
    this.warmBounds = { maxFacts: options.warmFacts ?? DEFAULT_WARM_FACTS, maxGraphs, viewFacts, preloadMaxFacts: this.preloadMaxFacts };
    this.results = new ResultCache(options.timeStoppedKeptMs ?? DEFAULT_TIME_STOPPED_KEPT_MS);
    const setup: WorkerSetup = { channelName, frameworkDirs, catalogSourceKey, maxGraphs, maxReplicaFacts: options.replicaFacts ?? DEFAULT_CACHE_FACTS, preloadMaxFacts: this.preloadMaxFacts, viewFacts, imageAfterIdleMs: options.viewImageIdleMs ?? DEFAULT_VIEW_IMAGE_IDLE_MS, backgroundSetsInferences: options.backgroundSetsInferences ?? DEFAULT_INFERENCE_LIMIT, ...(options.answerShaper ? { answerShaper: options.answerShaper } : {}) };
    const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.workers = new ReasoningWorkers(
      setup,
      workers,
      options.workerIdleMs ?? DEFAULT_WORKER_IDLE_MS,
      callTimeoutMs,
      (live) => this.source.forgetPrepared(live),
      (worker) => this.source.viewsOf(worker),
      (worker) => this.source.loadingOf(worker),
      (worker) => this.source.imagingOf(worker),
      options.workerYoungMb ?? DEFAULT_WORKER_YOUNG_MB,
      { builtMs: (worker, key) => this.source.replicaBuiltMs(worker, key), heldSince: (worker, key) => this.source.replicaHeldSince(worker, key), builds: (worker, key) => this.source.buildsReplica(worker, key), abandon: (worker, key, task) => this.source.abandon(worker, key, task) },
    );
    this.source.onViewChanged = (worker, held) => this.workers.viewChanged(worker, held);
    this.preloads = new Preloads(this.source, this.preloadMaxFacts, options.lastGraphFile, () => this.workers.start());
    this.gate = new CallGate({ name: 'reasoning (queries and frameworks)', code: 'reasoning', advice: 'narrow the query, or ask for fewer frameworks' }, options.maxQueue ?? DEFAULT_REASON_QUEUE, callTimeoutMs, workers);
  }

  /** Runs a graph query (inline within the budget, else in a worker); the graph is the main thread's index at the version queried. */
  async query(tenant: string, graphId: string, text: string, options: QueryOptions): Promise<{ result: QueryResult; graph: GraphIndex }> {
    const { graph, at } = await this.admitQuery(tenant, graphId, options);
    const past = await this.pastView(tenant, graphId, options);
    if (past) return { result: runOnPastView(this.rules, past, text, options), graph: past };
    const inline = this.inline.run(tenant, graphId, graph, text, options);
    if (inline) {
      this.preload(tenant, graphId);
      return { result: inline, graph };
    }
    const result = (await this.runInWorker(tenant, graphId, { kind: 'query', at, text, ...options }, graph.factCount)) as QueryResult;
    return { result, graph };
  }

  /**
   * Runs a graph query and returns the answer as the client receives it (the text the
   * answer shaper makes). A query that needs a worker is shaped there too, so a large
   * answer reaches the event loop as one string.
   */
  async answer(tenant: string, graphId: string, text: string, options: QueryOptions & { shape: ShapeRequest }): Promise<string> {
    if (!this.answerShaperUrl) throw new Error('ReasoningPool.answer needs the answerShaper option');
    // a graph in use is admitted without an await, a query without as_of reads no past view, and the shaper once
    // loaded is called as it is: each await was a turn of the microtask queue on a point query's path
    const admitted = this.admitQuery(tenant, graphId, options);
    const { graph, at } = admitted instanceof Promise ? await admitted : admitted;
    const past = options.asOf === undefined ? undefined : await this.pastView(tenant, graphId, options);
    const inline = past ? runOnPastView(this.rules, past, text, options) : this.inline.run(tenant, graphId, graph, text, options);
    if (inline) {
      this.preload(tenant, graphId);
      const shown = past ?? graph;
      // (a query run in a worker weighs there: tasks.ts)
      const statuses = bindsContested(inline, shown) ? await this.weighed(at, graph.factCount, options.shape.asOf).then(statusById, shownUnlessPastLimits) : undefined;
      const shapeAnswer = this.answerShaper ?? (this.answerShaper = ((await import(this.answerShaperUrl)) as { shapeAnswer: AnswerShaper }).shapeAnswer);
      return shapeAnswer(inline, shown, text, statuses ? { ...options.shape, statuses } : options.shape);
    }
    return (await this.runInWorker(tenant, graphId, { kind: 'query', at, text, ...options }, graph.factCount)) as string;
  }

  /** A query the inline path did not answer, run in a worker (over a graph of `facts` at its version), its round trip told to the inline path. */
  private async runInWorker(tenant: string, graphId: string, task: ReasonTask & { kind: 'query' }, facts: number): Promise<unknown> {
    const started = performance.now();
    const value = await this.run(task, facts);
    this.inline.ranInWorker(tenant, graphId, task.text, performance.now() - started);
    return value;
  }

  /**
   * What every query passes before it runs: admission, the parameters' shape (before structured clone walks them on
   * the way to a worker), the graph at its current version (without waiting when it is in use: ReplicaSource.currentNow).
   */
  private admitQuery(tenant: string, graphId: string, options: QueryOptions): { graph: GraphIndex; at: GraphVersion } | Promise<{ graph: GraphIndex; at: GraphVersion }> {
    this.gate.checkCapacity();
    checkParameters(options.parameters);
    return this.source.currentNow(tenant, graphId) ?? this.source.current(tenant, graphId);
  }

  /** The graph as read at the query's as_of when a correction came after it (engine/store/corrections.ts), else undefined. */
  private async pastView(tenant: string, graphId: string, options: QueryOptions): Promise<GraphIndex | undefined> {
    const asOf = options.asOf === undefined ? NaN : Date.parse(options.asOf);
    return Number.isNaN(asOf) ? undefined : this.store.graphAsOf(tenant, graphId, new Date(asOf).toISOString());
  }

  /** Runs frameworks over the graph (as recorded by `asOf`; over the sub-graph of `scope`), cached per graph version. */
  async frameworks(tenant: string, graphId: string, frameworkIds: string[], options: { asOf?: string; limits: RunLimits; scope?: ResolvedScope }): Promise<{ runs: FrameworkRun[]; graph: GraphIndex }> {
    this.gate.checkCapacity();
    const { graph, at } = await this.source.current(tenant, graphId);
    if (graph.factCount <= this.preloadMaxFacts) this.preloads.remember(tenant, graphId);
    const key = JSON.stringify(['frameworks', at, frameworkIds, options.asOf ?? null, scopeKey(options.scope)]);
    // a whole graph's runs at a version stored on disk (stored-runs.ts): as a fresh run would give them
    const of = options.asOf === undefined && options.scope === undefined ? this.storedVersion(tenant, graphId, at) : undefined;
    const runs = await this.results.get(key, async () => {
      const stored = of && (await this.storedRuns.read(of, options.limits, frameworkIds));
      if (stored) {
        this.storedRunsRead += stored.length;
        // (their inferences order the next assess's tasks, as a fresh run's do)
        for (const run of stored) this.frameworkCost.set(run.framework_id, run.inferences);
        return stored;
      }
      // one task per framework, so the workers share an assess; the costliest first (as their last runs measured
      // them), so that the workers, each taking the next task when it is free, finish together
      const order = frameworkIds.map((id, index) => ({ id, index, cost: this.frameworkCost.get(id) ?? Infinity }));
      order.sort((a, b) => (a.cost === b.cost ? a.index - b.index : b.cost - a.cost));
      const tasks: ReasonTask[] = order.map(({ id }) => ({ kind: 'frameworks', at, frameworkIds: [id], ...options }));
      const done = (await this.runAll(tasks, graph.factCount)) as FrameworkRun[][];
      const inOrder: FrameworkRun[][] = [];
      order.forEach(({ index }, i) => (inOrder[index] = done[i]));
      for (const run of done.flat()) this.frameworkCost.set(run.framework_id, run.inferences);
      const all = inOrder.flat();
      // only runs that concluded: a time limit's stop depends on the machine, and a rule error may too (an engine's
      // resource or stack error); a write while they ran: they are of the version before, which no restart reads
      if (of && all.every((run) => !run.error) && this.storedVersion(tenant, graphId, at)?.revision === of.revision) void this.storedRuns.keep(of, options.limits, all);
      return all;
    }, (runs) => runs.some(stoppedByTime));
    return { runs, graph };
  }

  /** The graph version `at` as stored runs name it (its store revision), when it is the graph's version now. */
  private storedVersion(tenant: string, graphId: string, at: GraphVersion): ImageOf | undefined {
    const revision = this.source.revisionAt(at);
    return revision === undefined ? undefined : { tenant, graphId, generation: at.generation, revision };
  }

  /** The time-aware frameworks once per period, cached per graph version. */
  async trajectory(
    tenant: string,
    graphId: string,
    frameworkIds: string[],
    options: { asOf?: string; period: Period; maxPeriods: number; limits: RunLimits; scope?: ResolvedScope },
  ): Promise<Trajectory> {
    this.gate.checkCapacity();
    const { graph, at } = await this.source.current(tenant, graphId);
    const key = JSON.stringify(['trajectory', at, frameworkIds, options.asOf ?? null, options.period, options.maxPeriods, scopeKey(options.scope)]);
    return this.results.get(key, () => this.run({ kind: 'trajectory', at, frameworkIds, ...options }, graph.factCount) as Promise<Trajectory>, (trajectory) =>
      trajectory.points.some((point) => point.results.some(stoppedByTime)),
    );
  }

  /** The separate conflicts of the graph at its current version (engine/conflicts/detect.ts). */
  async conflicts(tenant: string, graphId: string): Promise<Conflict[]> {
    const { graph } = await this.source.current(tenant, graphId);
    return detectConflicts(graph);
  }

  /** A scope's names resolved against the graph at its current version: the ids its tasks carry. */
  async scope(tenant: string, graphId: string, request: ScopeRequest): Promise<ResolvedScope> {
    const { graph } = await this.source.current(tenant, graphId);
    return resolveScope(graph, request);
  }

  /**
   * The statuses of the graph's contradicted claims and events (engine/reason/disputes.ts), weighed
   * in Prolog by a worker once per graph version (and as_of).
   */
  async arguments(tenant: string, graphId: string, asOf?: string): Promise<{ statuses: ArgumentStatuses; graph: GraphIndex }> {
    this.gate.checkCapacity();
    const { graph, at } = await this.source.current(tenant, graphId);
    // a graph nothing contradicts in has nothing to weigh: no worker need take its view
    return { statuses: graph.edgeTypeCount('CONTRADICTS') === 0 ? [] : await this.weighed(at, graph.factCount, asOf), graph };
  }

  /** The statuses at `at` (a version of `facts` facts), weighed by a worker once per version and as_of. */
  private weighed(at: GraphVersion, facts: number, asOf: string | undefined): Promise<ArgumentStatuses> {
    const key = JSON.stringify(['arguments', at, asOf ?? null]);
    return this.results.get(key, () => this.run({ kind: 'arguments', at, ...(asOf ? { asOf } : {}) }, facts) as Promise<ArgumentStatuses>, () => false);
  }

  /**
   * Has the workers hand the graph's view to their Prolog engines ahead of an assess, when a
   * client is at work on it (the HTTP layer calls this when a workspace is opened, a graph read or
   * written; a query that runs inline calls it; one that runs in a worker makes the replica, and with
   * it the view): the first assess then pays neither the snapshot nor the hand-over (at 100k facts,
   * seconds). Asked once the requests about the graph pause (preload.ts), the latest graph winning,
   * and waiting while another graph is in use (a call on it, or its preload, a few seconds ago): the
   * engines hold several views, within viewFacts, the least recently read dropped past it. Starts the workers when they are not running. Graphs above
   * preloadMaxFacts are left to their first assess; an absent graph asks nothing.
   */
  preload(tenant: string, graphId: string): void {
    this.preloads.request(tenant, graphId);
  }

  /**
   * Preloads the graph lastGraphFile names (the one last preloaded or assessed before a restart),
   * when it still exists; a server calls this once it listens.
   */
  async preloadLast(): Promise<{ tenant: string; graphId: string } | undefined> {
    const named = await this.preloads.lastNamed();
    if (named) this.preloads.request(named.tenant, named.graphId);
    return named;
  }

  /**
   * What a server calls once it listens: starts the workers now, rather than on the first call
   * (their engines and rule modules take seconds), and has the store load, and the workers
   * replicate, the graphs it held at its last closes, within warmFacts, the graph lastGraphFile
   * names first, their views handed to every worker's engine while they fit viewFacts (the first warmed whatever
   * that bound, none above preloadMaxFacts, none over a view an engine holds: warm.ts). All in the
   * background: a call meanwhile waits only for its own graph. The graph lastGraphFile names, when not warmed
   * (warmFacts 0, or too large for it), is preloaded on every worker. Resolves with the graphs warmed.
   */
  async warmUp(): Promise<{ tenant: string; graphId: string }[]> {
    this.workers.start();
    const remembered = await this.preloads.lastNamed();
    const warmed = await warmGraphs(this.store, this.source, this.workers, remembered, this.warmBounds, () => this.closed);
    if (remembered && !warmed.some(({ tenant, graphId }) => tenant === remembered.tenant && graphId === remembered.graphId)) this.preloads.request(remembered.tenant, remembered.graphId);
    return warmed;
  }

  /**
   * Per worker (thread id) running, the graphs whose views its engine holds and how many views it has taken
   * whole since it started, of them how many from a view image, how many writes it took as additions to a view held,
   * and whether it is making a view image (HeldViews): what the pool routes a graph's tasks by, and what /v1/health counts.
   */
  heldViews(): Map<number, HeldViews> {
    return this.ofRunning(this.source.heldViews());
  }

  /** Per worker (thread id) running, the graphs whose replicas it holds: how many copies of a graph above the preload bound the workers made. */
  heldReplicas(): Map<number, HeldReplica[]> {
    return this.ofRunning(this.source.heldReplicas());
  }

  /** The entries of `byWorker` (by thread id) of the workers running: the source keeps a stopped worker's until forgetPrepared. */
  private ofRunning<T>(byWorker: Iterable<[number, T]>): Map<number, T> {
    const live = new Set(this.workers.threadIds());
    return new Map([...byWorker].filter(([worker]) => live.has(worker)));
  }

  /**
   * Resolves once every worker (or `workers` of them) holds the graph's view in its Prolog engine, at its current
   * version (false after `timeoutMs`): the preload each worker starts when a snapshot makes
   * its replica (worker-entry.ts) has finished, so an assess now pays no hand-over.
   */
  viewsPrepared(tenant: string, graphId: string, timeoutMs: number, workers = this.workers.count): Promise<boolean> {
    return this.source.prepared(tenant, graphId, workers, timeoutMs);
  }

  private async run(task: ReasonTask, facts: number): Promise<unknown> {
    const [value] = await this.runAll([task], facts);
    return value;
  }

  /**
   * One call of several tasks on a graph of `facts` facts at their version (as the caller loaded it), spread over the
   * workers; values in task order. Whether the graph is above the preload bound, its tasks then going to the worker
   * that holds or builds its replica, comes from those facts, not from the graph cache: a graph evicted there since, or
   * under a write, was routed as a small one, and a worker without the copy made a second (at 10M facts, gigabytes).
   */
  private async runAll(tasks: ReasonTask[], facts: number): Promise<unknown[]> {
    const ended = this.preloads.callOn(tasks[0].at.key);
    // (the bound replicas.ts ReplicaSource keeps: 0, preloads off, bounds nothing)
    const onlyAsked = this.preloadMaxFacts !== 0 && facts > this.preloadMaxFacts;
    // past the call's deadline the signal ends the worker threads, so runaway tasks free their slots
    const replies = await this.gate.run(tasks, (item, signal) => this.workers.run(item, signal, onlyAsked)).finally(() => {
      ended();
      this.workers.start();
    });
    return replies.map((reply) => {
      if (!reply.ok) throw deserialise(reply.error);
      return reply.value;
    });
  }

  /** What each running worker's isolate holds (a diagnostic: ReplicaSource.workerMemory). */
  workerMemory(collect: boolean, waitMs = 2_000): Promise<WorkerMemory[]> {
    return this.source.workerMemory(collect, waitMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.preloads.close();
    this.source.close();
    await this.workers.close();
    await this.preloads.lastGraphWritten();
    this.forgetDeletedRuns();
    await this.storedRuns.written();
  }
}
