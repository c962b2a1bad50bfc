/**
 * The reasoning worker threads (worker.mjs, worker-entry.ts): started on first use, or ahead
 * of a call when a client is at work on a graph, and stopped when idle for a while. A task that
 * reads a graph's view in Prolog goes to a worker whose engine holds that view (graph affinity,
 * ViewRouter): each engine holds the views of several graphs (within its bound on facts), and a
 * graph none holds is handed to ENGINES_PER_GRAPH engines, not to every one.
 */
import { Piscina, queueOptionsSymbol, type PiscinaTask } from 'piscina';
import type { TaskVersion } from './replicas.ts';
import { START_TASK, type ReasonReply, type ReasonTask } from './tasks.ts';
import type { WorkerSetup } from './worker-entry.ts';

/** The largest timer delay Node honours (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * How long a task told to end at its call's deadline (ReplicaHolders.abandon) has to do so before its thread is ended as
 * any other's: one it reaches while waiting for its replica ends at once, one already running its query cannot hear it.
 */
export const ABANDON_GRACE_MS = 10_000;

export class ReasoningWorkers {
  /** Threads at most. */
  readonly count: number;
  private readonly pool: Piscina;
  private closed = false;
  /** Tasks given to the pool and not yet answered. */
  private running = 0;
  private readonly router: ViewRouter;
  private readonly replicas: ReplicaHolders;
  /** Tasks on a graph above the preload bound given out: the last one's serial (what an abandon names, TaskVersion task). */
  private replicaTasks = 0;

  /**
   * `count` threads that each stop after `idleMs` with nothing to do; `stopped` is called when one does (or
   * crashes), with the thread ids still running. `callTimeoutMs` bounds a task: a call's deadline ends it.
   * `viewsOf` names the graphs whose views a worker's engine holds, `loadingOf` the one it is taking in parts,
   * `imagingOf` whether it is making a view image (ReplicaSource.viewsOf, loadingOf, imagingOf). `youngMb` bounds each
   * thread's young generation (ReasoningOptions.workerYoungMb; 0: V8's own).
   */
  constructor(
    setup: WorkerSetup,
    count: number,
    idleMs: number,
    callTimeoutMs: number,
    stopped: (live: Set<number>) => void,
    viewsOf: (worker: number) => ReadonlySet<string>,
    loadingOf: (worker: number) => string | undefined,
    imagingOf: (worker: number) => boolean,
    youngMb: number,
    replicas: ReplicaHolders = NO_REPLICAS,
  ) {
    this.count = count;
    this.replicas = replicas;
    this.router = new ViewRouter(viewsOf, loadingOf, () => this.threadIds(), imagingOf, replicas, () => this.nudge());
    this.pool = new Piscina({
      loadBalancer: this.router.choose,
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: count,
      idleTimeout: Math.min(idleMs, MAX_TIMER_MS),
      // an idle worker keeps its event loop turning (piscina's default parks it in Atomics.wait between
      // tasks): it applies replica deltas and hands a new replica to its engine while no task runs
      atomics: 'disabled',
      workerData: setup,
      ...(youngMb > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: youngMb } } : {}),
      // close() waits for the tasks running: a call's deadline ends them first (piscina reports a close past its own limit as an uncaught 'error')
      closeTimeout: Math.min(callTimeoutMs, MAX_TIMER_MS),
    });
    this.pool.on('workerDestroy', (worker: PiscinaWorker) => {
      // (piscina says so before it takes the thread off its list)
      const live = new Set(this.threadIds().filter((id) => id !== worker.id));
      stopped(live);
      this.router.keepOnly(live);
      this.nudge(); // a task waiting for the view of a graph only that worker held now goes to another
    });
  }

  /**
   * Runs a task on the next free thread (one whose engine holds the view of the task's graph, for a task that reads
   * it in Prolog; for a graph whose replica only the workers that asked hold, `onlyAsked`, one holding or building that
   * replica: ViewRouter); past `signal` the thread is ended, so a runaway task frees its slot, unless it is waiting for the
   * replica its thread is building (replicaDeadline).
   */
  run(task: ReasonTask, signal: AbortSignal, onlyAsked = false): Promise<ReasonReply> {
    const options: ViewOptions | undefined =
      task.kind === 'query' && !onlyAsked ? undefined : { ...(task.kind === 'query' ? {} : { graph: task.at.key }), ...(onlyAsked ? { replica: task.at.key, queuedAt: Date.now() } : {}) };
    const serial = onlyAsked ? ++this.replicaTasks : undefined;
    const at: TaskVersion = serial === undefined ? task.at : { ...task.at, task: serial };
    const routed = options ? { ...task, at, [queueOptionsSymbol]: options } : task;
    const deadline = serial !== undefined ? this.replicaDeadline(options as ViewOptions & { replica: string }, serial, signal) : { signal, clear: () => {} };
    this.running++;
    return (this.pool.run(routed, { signal: deadline.signal }) as Promise<ReasonReply>).finally(() => {
      deadline.clear();
      this.running--;
      if (options) this.router.ended(options);
    });
  }

  /**
   * The signal piscina ends a task on a graph above the bound by. At its call's deadline (`signal`) a task still queued is
   * dropped, and one running has its thread ended, as any task, unless its worker is building the replica it waits for:
   * that copy has cost minutes at ten million facts, and is what the graph's next task is routed to, so the worker is told
   * to end the task instead (ReplicaHolders.abandon), and the build goes on. The caller gets the deadline's error either
   * way; a task that has not ended ABANDON_GRACE_MS later (it was past its wait, in its query) has its thread ended then.
   */
  private replicaDeadline(options: ViewOptions & { replica: string }, task: number, signal: AbortSignal): { signal: AbortSignal; clear: () => void } {
    const ending = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    const atDeadline = () => {
      const worker = options.givenTo;
      if (worker === undefined || !this.replicas.builds(worker, options.replica)) return ending.abort(signal.reason);
      this.replicas.abandon(worker, options.replica, task);
      grace = setTimeout(() => ending.abort(signal.reason), ABANDON_GRACE_MS);
    };
    // (a signal aborted already fires no event: its deadline is now)
    if (signal.aborted) atDeadline();
    else signal.addEventListener('abort', atDeadline, { once: true });
    return {
      signal: ending.signal,
      clear: () => {
        signal.removeEventListener('abort', atDeadline);
        clearTimeout(grace);
      },
    };
  }

  /** The thread ids of the workers running, in the order they started. */
  threadIds(): number[] {
    return this.pool.threads.map((thread) => thread.threadId).filter((id) => id >= 0);
  }

  /**
   * A worker (thread id) said which views its engine holds now, which it is taking in parts, or whether it is making an image, other than before;
   * `held`: the views it holds changed. Only that word replaces the router's record of the task given to it last (a
   * hand-over begun or ended in the background says nothing of the view that task reads).
   */
  viewChanged(worker: number, held: boolean): void {
    if (held) this.router.heard(worker);
    this.nudge(); // a task waiting for a worker holding that view, or taking it, may go to it now
  }

  /** Piscina gives out waiting tasks only when a worker becomes free: a task that does nothing has it look again. */
  private nudge(): void {
    if (this.closed || this.running === 0) return;
    void this.pool.run(START_TASK).catch(() => {});
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
   * them all: the assess it prepares for spreads over all of them. One task that does nothing per
   * worker: those that find a free thread take it, the others start one. A worker that starts asks for the replica of the graph
   * last asked about (replicas.ts), and hands it to its engine before its first task.
   */
  start(): void {
    if (this.closed || this.pool.threads.length >= this.count) return;
    for (let i = 0; i < this.count; i++) void this.pool.run(START_TASK).catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    // close, not destroy: destroy drops the tasks on running threads, and a reply already on its way
    // (a warm-up task from start() answers within a millisecond) then reaches piscina as a reply
    // to no task, which it reports as an 'error' event: uncaught, it ended the embedded CLI with
    // exit 1 right after its answer. Forced, close drops at once the tasks still waiting for a thread.
    await this.pool.close({ force: true });
  }
}

type PiscinaWorker = Parameters<NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>>[1][number];

/** What a task carries for ViewRouter. */
interface ViewOptions {
  /** The graph (key) whose view it reads in Prolog. */
  graph?: string;
  /** The graph (key) whose replica it reads, one that only the workers that asked for it hold (pool.ts runAll: above the preload bound). */
  replica?: string;
  /** When it was given to the pool (Date.now()): how long it has waited for a busy worker holding its replica. */
  queuedAt?: number;
  /** The worker it was given to (thread id), while it runs: counted as building its replica until it ends. */
  givenTo?: number;
}

/** Where a graph's replica is, as the workers said (ReplicaSource.replicaBuiltMs, replicaHeldSince, buildsReplica). */
export interface ReplicaHolders {
  /** The ms the replica of `key` held by `worker` took to build; undefined when it holds none. */
  builtMs: (worker: number, key: string) => number | undefined;
  /** When (Date.now()) `worker` was first known to hold the replica of `key`; undefined when it holds none. */
  heldSince: (worker: number, key: string) => number | undefined;
  /** Whether `worker` has asked for, or is building, the replica of `key`. */
  builds: (worker: number, key: string) => boolean;
  /** Tells `worker` to end its task `task` (ReasoningWorkers' serial) on `key`, whose replica it is building (ReplicaSource.abandon). */
  abandon: (worker: number, key: string, task: number) => void;
}

const NO_REPLICAS: ReplicaHolders = { builtMs: () => undefined, heldSince: () => undefined, builds: () => false, abandon: () => {} };

/**
 * Engines a graph's tasks may have take its view while its holders are busy: one engine runs an assess's
 * frameworks one after another (about 1.9 s of a core at 100k facts), a second halves that for one hand-over
 * (about 0.8 s); a third and more would each pay the hand-over too (and, past their bound on facts, drop a view).
 */
export const ENGINES_PER_GRAPH = 2;

/**
 * Piscina's choice of a worker for a task (one task per worker at a time, as its default), by the views each
 * engine holds, or will once the task given to it last runs. A task that reads a graph's view goes to a free
 * worker holding it, else to a free worker taking it in parts in the background (a warm-up's hold, a preload:
 * the task makes only the parts left, where another engine would make the whole hand-over, about 0.8 s of a core
 * at 100k facts and 8 s at 1M). When none is free, and ENGINES_PER_GRAPH engines hold or are taking the view
 * already, it waits for one of them rather than have another engine take the view too; with fewer, the free
 * worker holding the fewest views takes it. Other tasks (queries, which read the replica, not the view) take
 * any free worker, one holding no view first.
 *
 * A worker making a view image (one synchronous call, some 22 s of a core at 1M facts, between tasks: piscina counts it
 * free) is counted as busy while another worker could take the task: a task waits for a busy engine holding its view
 * rather than behind the image. When every free worker is making one, and no other engine holds or is taking the view
 * (a pool of one worker), the task goes to one of them as before, and runs once the image is made.
 *
 * A graph above the preload bound has a replica only in the workers whose tasks asked for it (replicas.ts onlyAsked), and a
 * copy costs minutes at ten million facts and some 90 bytes a fact more. Its tasks go to a free worker holding the replica,
 * else to one building it; with every such worker busy, a task waits for one (one with no copy would make a second) while
 * any of them is still building it (a snapshot from the start is never quicker than one under way), and otherwise for as
 * long as the quickest copy took to build, as its holder measured it, from when the task came or that copy was ready,
 * whichever is later: past that, a free worker takes the task and makes a copy of its own. Waiting as long as a copy costs, then paying for one, is the ski-rental rule: the task never waits more
 * than twice what the better of the two choices would have cost, whatever the busy holder's task has left, which the pool
 * cannot know. A view task on such a graph that no free engine holds the view of goes to a free worker holding the replica
 * before any other.
 */
export class ViewRouter {
  /** Per worker (thread id), the graph of the task last given to it, until the worker says what its engine holds. */
  private readonly given = new Map<number, string>();
  /** Per worker (thread id), the graph above the preload bound of the task it runs: it asks for the replica (or holds it). */
  private readonly givenReplica = new Map<number, string>();
  /** When the nudge set for the earliest task waiting for a busy replica holder is due (Date.now()); Infinity: none set. */
  private retryAt = Infinity;

  /**
   * `viewsOf` names the graphs whose views a worker's engine holds, and `loadingOf` the graph whose view it is
   * taking in parts, as the worker last said (ReplicaSource.viewsOf, loadingOf); `live`, the thread ids of the
   * workers running, those still starting included (piscina offers a task only to those it has seen start: a
   * worker holding the view that piscina has not yet seen start is waited for too).
   */
  constructor(
    private readonly viewsOf: (worker: number) => ReadonlySet<string>,
    private readonly loadingOf: (worker: number) => string | undefined,
    private readonly live: () => number[],
    private readonly imaging: (worker: number) => boolean = () => false,
    private readonly replicas: Pick<ReplicaHolders, 'builtMs' | 'heldSince' | 'builds'> = NO_REPLICAS,
    /** Has piscina offer the waiting tasks to the free workers again (ReasoningWorkers.nudge). */
    private readonly retry: () => void = () => {},
  ) {}

  /** The worker said what its engine holds now (or it stopped): its own word replaces the task given. */
  heard(worker: number): void {
    this.given.delete(worker);
  }

  /** Forgets the workers no longer running. */
  keepOnly(live: Set<number>): void {
    for (const worker of this.given.keys()) if (!live.has(worker)) this.given.delete(worker);
    for (const worker of this.givenReplica.keys()) if (!live.has(worker)) this.givenReplica.delete(worker);
  }

  /** A task given out has ended: what its worker holds is what the worker said (it said it before the task's reply). */
  ended(options: ViewOptions): void {
    if (options.givenTo !== undefined && this.givenReplica.get(options.givenTo) === options.replica) this.givenReplica.delete(options.givenTo);
  }

  /** Whether the worker's engine holds the view of `graph`, or will once the task given to it last runs. */
  private holds(worker: number, graph: string): boolean {
    return this.given.get(worker) === graph || this.viewsOf(worker).has(graph);
  }

  /** Whether the worker's engine holds the view of `graph` (or will: holds), or is taking it in parts. */
  private holdsOrTakes(worker: number, graph: string): boolean {
    return this.holds(worker, graph) || this.loadingOf(worker) === graph;
  }

  readonly choose = (task: PiscinaTask, workers: PiscinaWorker[]): PiscinaWorker | null => {
    const options = task[queueOptionsSymbol] as ViewOptions | null;
    const chosen = this.chooseFor(options, workers);
    if (chosen && options?.replica !== undefined) {
      options.givenTo = chosen.id;
      this.givenReplica.set(chosen.id, options.replica);
    }
    return chosen;
  };

  private chooseFor(options: ViewOptions | null, workers: PiscinaWorker[]): PiscinaWorker | null {
    const graph = options?.graph;
    const idle = workers.filter((worker) => worker.currentUsage === 0 && !worker.terminating && !worker.destroyed);
    const free = idle.filter((worker) => !this.imaging(worker.id));
    if (graph === undefined && options?.replica !== undefined) {
      const toCopy = this.toReplica(options.replica, options.queuedAt ?? Date.now(), free);
      if (toCopy !== undefined) return toCopy;
    }
    const chosen = this.chooseFrom(graph, free, options?.replica);
    if (chosen || free.length === idle.length) return chosen;
    // only workers making an image are free: one takes the task (it waits for the image) when no other engine could
    const others = this.live().filter((worker) => !this.imaging(worker));
    if (graph === undefined ? others.length > 0 : others.some((worker) => this.holdsOrTakes(worker, graph))) return null;
    return this.chooseFrom(graph, idle, options?.replica);
  }

  /**
   * For a task reading the replica under `key`, one that only the workers that asked hold: a free worker holding it, else
   * one building it; null to wait for a busy one (the rule in the class's comment); undefined when none holds or builds it,
   * or the task has waited as long as a copy took to build (any free worker, which makes a copy of its own).
   */
  private toReplica(key: string, queuedAt: number, free: PiscinaWorker[]): PiscinaWorker | null | undefined {
    const held = (worker: number) => this.replicas.builtMs(worker, key) !== undefined;
    const building = (worker: number) => this.givenReplica.get(worker) === key || this.replicas.builds(worker, key);
    const holder = free.find((worker) => held(worker.id)) ?? free.find((worker) => building(worker.id));
    if (holder) return holder;
    const holders = this.live().filter((worker) => held(worker) || building(worker));
    if (holders.length === 0) return undefined;
    // the wait worth a copy: as long as the quickest copy held took to build, counted from when the task came or the copy
    // was ready, whichever is later (waiting for a copy partway is not waiting for a busy holder); unbounded while the
    // only copies are partway
    const due = Math.min(...holders.map((worker) => {
      const [builtMs, since] = [this.replicas.builtMs(worker, key), this.replicas.heldSince(worker, key)];
      return builtMs === undefined || since === undefined ? Infinity : Math.max(queuedAt, since) + builtMs;
    }));
    if (Date.now() >= due) return undefined;
    if (due < this.retryAt) {
      this.retryAt = due;
      // piscina offers a waiting task again only when a worker frees: a nudge then, in case none has
      setTimeout(() => {
        this.retryAt = Infinity;
        this.retry();
      }, due - Date.now()).unref();
    }
    return null;
  }

  /**
   * The worker of `free` for a task on `graph` (undefined: a query), or null to wait for one busy; with `replica` (a graph
   * above the preload bound), a free worker holding its replica comes before the others when no free engine holds the view.
   */
  private chooseFrom(graph: string | undefined, free: PiscinaWorker[], replica?: string): PiscinaWorker | null {
    if (free.length === 0) return null;
    const fewestViews = () => free.reduce((best, worker) => (this.viewsOf(worker.id).size < this.viewsOf(best.id).size ? worker : best));
    if (graph === undefined) return fewestViews();
    const holder = free.find((worker) => this.holds(worker.id, graph)) ?? free.find((worker) => this.loadingOf(worker.id) === graph);
    if (holder) return holder;
    if (this.live().filter((worker) => this.holdsOrTakes(worker, graph)).length >= ENGINES_PER_GRAPH) return null;
    const chosen = (replica !== undefined && free.find((worker) => this.replicas.builtMs(worker.id, replica) !== undefined)) || fewestViews();
    this.given.set(chosen.id, graph);
    return chosen;
  }
}
