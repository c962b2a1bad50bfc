import type { SentenceLabels } from './token-classifier.ts';

/**
 * Most sentences in one worker task (the classifier cuts a task into model calls of at most 16
 * windows of similar length). Measured on the shipped model, one worker, two loaded cores
 * (bench/extract, 36-word sentences): 1.92 ms of CPU per sentence at 1 per task, 1.27 at 4, 1.24
 * at 16, 1.11 at 32 (a mean of 19: four 10-sentence documents in flight queue no more); on the
 * calling thread alone (UNER English-PUD, 21 words), 0.93 ms at 1, 0.73 at 16, 0.60 at 32, 0.54
 * at 64. Past 32 the gain is small while a task holds its worker longer.
 */
export const DEFAULT_NER_BATCH_SENTENCES = 32;

/** One recognise() call's sentences and where they stand. */
interface Job {
  sentences: string[][];
  labels: SentenceLabels[];
  /** First sentence not yet sent to a worker. */
  next: number;
  /** Sentences sent and not yet returned. */
  outstanding: number;
  failure?: { error: unknown };
  /** Removes the job's abort listener (the signal may outlive the call). */
  unlisten(): void;
  resolve(labels: SentenceLabels[]): void;
  reject(error: unknown): void;
}

/** A run of one job's sentences inside a batch. */
interface Part {
  job: Job;
  from: number;
  to: number;
}

/**
 * The sentences of every admitted call in one queue, sent to the workers in batches that may
 * mix calls, with at most one batch per worker in flight. A batch takes the queued sentences
 * spread over the idle workers, up to `maxBatch`: a lone document on an idle pool is split
 * over every worker (its latency), and under load every worker gets full batches (its CPU per
 * sentence), whatever the pool size. Before, each call was cut into at least one task per
 * worker, so that a pool of 16 ran a 10-sentence document as 10 tasks of one sentence.
 * A batch is filled round-robin over the calls with sentences unsent, each call's in its own
 * order: a call queued behind a large one goes out in the next batch rather than after all of
 * the large one's (a 25,000-sentence call takes minutes). A batch that fails, or whose runner
 * returns a label count other than its sentence count, fails every call it held a sentence of.
 */
export class SentenceBatcher {
  /** Jobs with sentences not yet sent, oldest first (at most the gate's admitted calls). */
  private readonly queue: Job[] = [];
  private queued = 0;
  private running = 0;
  private batchCount = 0;
  private sentenceCount = 0;

  constructor(
    private readonly runBatch: (sentences: string[][]) => Promise<SentenceLabels[]>,
    /** Batches in flight at once: one per worker. */
    private readonly lanes: number,
    private readonly maxBatch: number,
  ) {
    if (!Number.isInteger(lanes) || lanes < 1 || !Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('lanes and maxBatch must be positive integers');
  }

  /** Batches sent and the sentences they held, since the start (their ratio is the mean batch). */
  get sent(): { batches: number; sentences: number } {
    return { batches: this.batchCount, sentences: this.sentenceCount };
  }

  /** Labels of the sentences in order. When `signal` aborts, unsent sentences are dropped and the call fails once its sent ones are back. */
  submit(sentences: string[][], signal: AbortSignal): Promise<SentenceLabels[]> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (sentences.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const onAbort = () => this.fail(job, signal.reason);
      const job: Job = {
        sentences,
        labels: new Array(sentences.length),
        next: 0,
        outstanding: 0,
        resolve,
        reject,
        unlisten: () => signal.removeEventListener('abort', onAbort),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.queued += sentences.length;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.lanes && this.queued > 0) {
      const size = Math.min(this.maxBatch, Math.ceil(this.queued / (this.lanes - this.running)));
      const parts = this.takeRoundRobin(size);
      this.running++;
      this.batchCount++;
      this.sentenceCount += size;
      let labelled: Promise<SentenceLabels[]>;
      try {
        labelled = this.runBatch(parts.flatMap((p) => p.job.sentences.slice(p.from, p.to)));
      } catch (error) {
        // a runner that throws fails its batch like one that rejects, and the lane goes on
        labelled = Promise.reject(error);
      }
      labelled
        .then((labels) => {
          if (labels.length !== size) throw new Error(`the NER runner returned ${labels.length} labels for a batch of ${size} sentences`);
          let at = 0;
          for (const { job, from, to } of parts) {
            for (let i = from; i < to; i++) job.labels[i] = labels[at++]!;
          }
        })
        .catch((error: unknown) => {
          for (const { job } of parts) this.fail(job, error);
        })
        .finally(() => {
          this.running--;
          for (const { job, from, to } of parts) {
            job.outstanding -= to - from;
            this.settleIfDone(job);
          }
          this.dispatch();
        });
    }
  }

  /**
   * Takes `size` queued sentences (at most those queued) one per job in turn, in queue order;
   * the parts are in queue order. Jobs that took a share go behind those that did not (only
   * when `size` is below the number of jobs), so that every job takes its turn.
   */
  private takeRoundRobin(size: number): Part[] {
    const counts = this.queue.map(() => 0);
    for (let left = size; left > 0; ) {
      this.queue.forEach((job, i) => {
        if (left > 0 && job.next + counts[i]! < job.sentences.length) {
          counts[i]!++;
          left--;
        }
      });
    }
    const parts: Part[] = [];
    const waiting: Job[] = [];
    const served: Job[] = [];
    this.queue.forEach((job, i) => {
      const count = counts[i]!;
      if (count === 0) {
        waiting.push(job);
        return;
      }
      parts.push({ job, from: job.next, to: job.next + count });
      job.next += count;
      job.outstanding += count;
      if (job.next < job.sentences.length) served.push(job);
    });
    this.queue.splice(0, this.queue.length, ...waiting, ...served);
    this.queued -= size;
    return parts;
  }

  /** Drops the job's unsent sentences; it fails once its sent ones are back. */
  private fail(job: Job, error: unknown): void {
    job.failure ??= { error };
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      this.queued -= job.sentences.length - job.next;
      job.next = job.sentences.length;
    }
    this.settleIfDone(job);
  }

  private settleIfDone(job: Job): void {
    if (job.outstanding > 0 || job.next < job.sentences.length) return;
    job.unlisten();
    if (job.failure) job.reject(job.failure.error);
    else job.resolve(job.labels);
  }
}
