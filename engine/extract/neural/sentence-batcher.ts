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
 * Sentences go out in the order their calls came. A batch that fails fails every call it
 * held a sentence of.
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
    if (sentences.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const job: Job = { sentences, labels: new Array(sentences.length), next: 0, outstanding: 0, resolve, reject };
      signal.addEventListener('abort', () => this.fail(job, signal.reason), { once: true });
      this.queue.push(job);
      this.queued += sentences.length;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.lanes && this.queued > 0) {
      const size = Math.min(this.maxBatch, Math.ceil(this.queued / (this.lanes - this.running)));
      const parts: Part[] = [];
      for (let taken = 0; taken < size; ) {
        const job = this.queue[0]!;
        const count = Math.min(size - taken, job.sentences.length - job.next);
        parts.push({ job, from: job.next, to: job.next + count });
        job.next += count;
        job.outstanding += count;
        taken += count;
        if (job.next === job.sentences.length) this.queue.shift();
      }
      this.queued -= size;
      this.running++;
      this.batchCount++;
      this.sentenceCount += size;
      this.runBatch(parts.flatMap((p) => p.job.sentences.slice(p.from, p.to)))
        .then(
          (labels) => {
            let at = 0;
            for (const { job, from, to } of parts) {
              for (let i = from; i < to; i++) job.labels[i] = labels[at++]!;
            }
          },
          (error: unknown) => {
            for (const { job } of parts) this.fail(job, error);
          },
        )
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
    if (job.failure) job.reject(job.failure.error);
    else job.resolve(job.labels);
  }
}
