/**
 * The reasoning worker threads (worker.mjs, worker-entry.ts): started on first use, or ahead
 * of a call when a client is at work on a graph, and stopped when idle for a while. A task that
 * reads a graph's view in Prolog goes to a worker whose engine holds that view (graph affinity,
 * `viewBalancer`), so that the workers' views, spread over several graphs after a restart
 * (warm.ts), are not handed out of the engines by each other's assess.
 */
import { Piscina, queueOptionsSymbol, type PiscinaTask } from 'piscina';
import { START_TASK, type ReasonReply, type ReasonTask } from './tasks.ts';
import type { WorkerSetup } from './worker-entry.ts';

/** The largest timer delay Node honours (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ReasoningWorkers {
  /** Threads at most. */
  readonly count: number;
  private readonly pool: Piscina;
  private closed = false;
  /** Tasks given to the pool and not yet answered. */
  private running = 0;

  /**
   * `count` threads that each stop after `idleMs` with nothing to do; `stopped` is called when one does (or
   * crashes), with the thread ids still running. `callTimeoutMs` bounds a task: a call's deadline ends it.
   * `viewOf` names the graph whose view a worker's engine holds (ReplicaSource.viewOf).
   */
  constructor(setup: WorkerSetup, count: number, idleMs: number, callTimeoutMs: number, stopped: (live: Set<number>) => void, viewOf: (worker: number) => string | undefined) {
    this.count = count;
    this.pool = new Piscina({
      loadBalancer: viewBalancer(viewOf),
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: count,
      idleTimeout: Math.min(idleMs, MAX_TIMER_MS),
      // an idle worker keeps its event loop turning (piscina's default parks it in Atomics.wait between
      // tasks): it applies replica deltas and hands a new replica to its engine while no task runs
      atomics: 'disabled',
      workerData: setup,
      // close() waits for the tasks running: a call's deadline ends them first (piscina reports a close past its own limit as an uncaught 'error')
      closeTimeout: Math.min(callTimeoutMs, MAX_TIMER_MS),
    });
    this.pool.on('workerDestroy', () => {
      stopped(new Set(this.threadIds()));
      // a task waiting for the view of a graph only that worker held now goes to another
      this.viewTaken();
    });
  }

  /**
   * Runs a task on the next free thread (one whose engine holds the view of the task's graph, for a task that reads
   * it in Prolog: viewBalancer); past `signal` the thread is ended, so a runaway task frees its slot.
   */
  run(task: ReasonTask, signal: AbortSignal): Promise<ReasonReply> {
    const routed = task.kind === 'query' ? task : { ...task, [queueOptionsSymbol]: { graph: task.at.key } satisfies ViewOptions };
    this.running++;
    return (this.pool.run(routed, { signal }) as Promise<ReasonReply>).finally(() => this.running--);
  }

  /** The thread ids of the workers running, in the order they started. */
  threadIds(): number[] {
    return this.pool.threads.map((thread) => thread.threadId).filter((id) => id >= 0);
  }

  /**
   * A worker's engine took a view it did not hold: a task waiting for a worker holding that view may go to it now.
   * Piscina gives out waiting tasks only when a worker becomes free, so a task that does nothing is sent to have it look.
   */
  viewTaken(): void {
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

/** What a task carries for viewBalancer: the graph (key) whose view it reads in Prolog. */
interface ViewOptions {
  graph: string;
}

/**
 * Piscina's choice of a worker for a task (one task per worker at a time, as its default), by the views their
 * engines hold: a task that reads a graph's view goes to a free worker holding it; when none is free but one holds
 * it, the task waits for it rather than having another engine take the view too (seconds of a core at 100k facts,
 * and that engine's own view lost), unless a free worker holds no view at all. A graph no worker holds goes to a
 * free worker whose view another worker holds as well, else any free one. Other tasks (queries, which read the
 * replica, not the view) take any free worker, one holding no view first.
 */
export function viewBalancer(viewOf: (worker: number) => string | undefined): (task: PiscinaTask, workers: PiscinaWorker[]) => PiscinaWorker | null {
  return (task, workers) => {
    const free = workers.filter((worker) => worker.currentUsage === 0 && !worker.terminating && !worker.destroyed);
    if (free.length === 0) return null;
    const viewless = free.find((worker) => viewOf(worker.id) === undefined);
    const graph = (task[queueOptionsSymbol] as ViewOptions | null)?.graph;
    if (graph === undefined) return viewless ?? free[0]!;
    const holder = free.find((worker) => viewOf(worker.id) === graph);
    if (holder) return holder;
    if (viewless) return viewless;
    if (workers.some((worker) => !worker.destroyed && viewOf(worker.id) === graph)) return null;
    const held = new Map<string, number>();
    for (const worker of workers) {
      const view = viewOf(worker.id);
      if (view !== undefined) held.set(view, (held.get(view) ?? 0) + 1);
    }
    return free.find((worker) => held.get(viewOf(worker.id)!)! > 1) ?? free[0]!;
  };
}
