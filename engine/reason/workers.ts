/**
 * The reasoning worker threads (worker.mjs, worker-entry.ts): started on first use, or ahead
 * of a call when a client is at work on a graph, and stopped when idle for a while.
 */
import { Piscina } from 'piscina';
import { START_TASK, type ReasonReply, type ReasonTask } from './tasks.ts';
import type { WorkerSetup } from './worker-entry.ts';

/** The largest timer delay Node honours (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ReasoningWorkers {
  /** Threads at most. */
  readonly count: number;
  private readonly pool: Piscina;
  private closed = false;

  /**
   * `count` threads that each stop after `idleMs` with nothing to do; `stopped` is called when one does (or crashes).
   * `callTimeoutMs` bounds a task: a call's deadline ends it.
   */
  constructor(setup: WorkerSetup, count: number, idleMs: number, callTimeoutMs: number, stopped: () => void) {
    this.count = count;
    this.pool = new Piscina({
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
    this.pool.on('workerDestroy', stopped);
  }

  /** Runs a task on the next free thread; past `signal` the thread is ended, so a runaway task frees its slot. */
  run(task: ReasonTask, signal: AbortSignal): Promise<ReasonReply> {
    return this.pool.run(task, { signal }) as Promise<ReasonReply>;
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
