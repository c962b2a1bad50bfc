import { LimitError, OverloadedError } from './errors.ts';

/**
 * Admission, fan-out and time limit of the calls to one worker pool (entity and claim models, the symbolic layer, reasoning). A call is admitted while
 * fewer than `maxQueue` calls are (OverloadedError otherwise, HTTP 503); its tasks go out
 * through one lane per worker, each lane sending the next task when its last one returns, so
 * that a call never floods the pool's queue and concurrent calls interleave in the pool's
 * first-in first-out queue (the entity model gives each call one task and interleaves the
 * calls' sentences itself, round-robin: SentenceBatcher). Past `timeoutMs`
 * the call fails with LimitError, sends no further task and aborts the signal its tasks were
 * given. What a task on a worker does then is the pool's choice: the model pools let it finish,
 * because terminating a thread inside onnxruntime-node aborts the whole process; the symbolic
 * layer's pool (plain JavaScript) terminates the thread.
 */
export class CallGate {
  /** Admitted calls, each settled when its lanes have stopped. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    /** What the calls do, for messages ("entity recognition"), the prefix of error codes ("ner"), and what to do after a timeout. */
    private readonly activity: { name: string; code: string; advice?: string },
    readonly maxQueue: number,
    readonly timeoutMs: number,
    private readonly lanes: number,
  ) {
    if (maxQueue < 1 || timeoutMs < 1 || lanes < 1) throw new RangeError('maxQueue, timeoutMs and lanes must be at least 1');
  }

  /** Calls admitted whose lanes have not stopped yet. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Refuses a call when the queue is full; callers check before preparing work, so a refused call costs nothing. */
  checkCapacity(): void {
    if (this.inFlight.size >= this.maxQueue) {
      throw new OverloadedError(`${this.activity.code}_queue_full`, `${this.activity.name} is busy (${this.inFlight.size} requests admitted); retry shortly`, {
        limit: this.maxQueue,
      });
    }
  }

  /** Runs one call's tasks; results in task order. `signal` aborts when the call runs out of time. */
  async run<Task, Result>(tasks: readonly Task[], runTask: (task: Task, signal: AbortSignal) => Promise<Result>): Promise<Result[]> {
    this.checkCapacity();
    const results: Result[] = [];
    const deadlineReached = new AbortController();
    let next = 0;
    let stopped = false;
    const lane = async () => {
      try {
        while (next < tasks.length && !stopped) {
          const index = next++;
          results[index] = await runTask(tasks[index]!, deadlineReached.signal);
        }
      } catch (error) {
        stopped = true;
        throw error;
      }
    };
    const lanes = Array.from({ length: Math.min(this.lanes, tasks.length) }, lane);
    // The call counts against maxQueue until its lanes stop, even when its caller got an error earlier.
    const settled: Promise<unknown> = Promise.allSettled(lanes).then(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        stopped = true;
        const error = new LimitError(`${this.activity.code}_timeout`, `${this.activity.name} took longer than ${this.timeoutMs} ms; ${this.activity.advice ?? 'split the text into smaller parts'}`, {
          limit_ms: this.timeoutMs,
        });
        reject(error);
        deadlineReached.abort(error);
      }, this.timeoutMs);
    });
    try {
      await Promise.race([Promise.all(lanes), deadline]);
    } finally {
      clearTimeout(timer);
    }
    return results;
  }

  /** Resolves when every admitted call has stopped. */
  async drain(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }
}
