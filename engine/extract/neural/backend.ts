import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { TooLargeError } from '../../errors.ts';
import type { NerBackend, NeuralEntity, TextSpan } from '../types.ts';
import { groupEntities, type WordPrediction } from './bio.ts';
import { CallGate } from '../../gate.ts';
import { inspectNerModelDir, NerModelUnavailableError, type NerModelFiles } from './model-dir.ts';
import { DEFAULT_NER_BATCH_SENTENCES, SentenceBatcher } from './sentence-batcher.ts';
import { splitSentences } from './sentences.ts';
// transformers and ONNX (about 180 MB resident) load only where a model runs: see openNerBackend
import type { SentenceLabels, TokenClassifier } from './token-classifier.ts';
import type { NerTask } from './worker-task.ts';
import { splitWords } from './words.ts';

/**
 * The neural layer as the pipeline uses it: split documents into sentences and words on the
 * calling thread (cheap, and it keeps the offsets here), send sentences in batches (see
 * SentenceBatcher) to a piscina pool of workers that each run the model with one ONNX
 * thread, and group the returned word labels into entities with offsets into each document.
 */

/** recognise() calls admitted at a time (running or waiting for a worker); more are refused with OverloadedError (HTTP 503). */
export const DEFAULT_NER_MAX_QUEUE = 64;
/**
 * Sentences in one recognise() call; beyond it the call is refused with TooLargeError. Above
 * what the pipeline's largest document (1M characters, about 8,000 sentences of prose) holds,
 * so that only list-like text of very short lines reaches it.
 */
export const DEFAULT_NER_MAX_SENTENCES_PER_CALL = 25_000;
/**
 * Wall-clock limit of one recognise() call (see CallGate): the pipeline's largest document
 * takes about 2-3 minutes on two cores with a BERT-base model (about 60 sentences/s).
 */
export const DEFAULT_NER_TIMEOUT_MS = 5 * 60_000;
/** close() drains the admitted calls before closing the pool; this only bounds a worker that hangs while shutting down. */
const CLOSE_TIMEOUT_MS = 30_000;
const WARM_UP_SENTENCE = ['Warm', 'up', '.'];
/**
 * A worker idle this long ends (each holds the model and an ONNX session, 100-200 MB), so
 * an idle server stays small; the next document starts workers again, each loading the
 * model on its first task.
 */
const NER_WORKER_IDLE_MS = 60_000;
/** Starting a worker and loading a BERT-base model takes a few seconds; this catches one that never gets there. */
const WARM_UP_TIMEOUT_MS = 120_000;

export interface NerBackendOptions {
  /** Folder with config.json, tokenizer.json and onnx/model_quantized.onnx (or onnx/model.onnx). */
  modelDir: string;
  /** Worker threads, one ONNX thread each; default one per core. 0 runs the model on the calling thread, one call at a time. */
  workers?: number;
  /** recognise() calls admitted at a time; default DEFAULT_NER_MAX_QUEUE. */
  maxQueue?: number;
  /** Sentences one recognise() call may hold; default DEFAULT_NER_MAX_SENTENCES_PER_CALL. */
  maxSentencesPerCall?: number;
  /** Wall-clock limit of one recognise() call (LimitError beyond); default DEFAULT_NER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Most sentences in one worker task, from one call or several; default DEFAULT_NER_BATCH_SENTENCES. */
  batchSentences?: number;
}

/** What runs sentences through the model: the worker pool, or the calling thread. */
interface SentenceRunner {
  run(sentences: string[][]): Promise<SentenceLabels[]>;
  close(): Promise<void>;
}

class PoolRunner implements SentenceRunner {
  private readonly pool: Piscina<NerTask, SentenceLabels[]>;

  constructor(
    private readonly files: NerModelFiles,
    readonly workers: number,
  ) {
    this.pool = new Piscina({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: workers,
      idleTimeout: NER_WORKER_IDLE_MS,
      // PooledNerBackend bounds the calls it admits, and its batcher keeps at most one task per worker in flight.
      maxQueue: Infinity,
      closeTimeout: CLOSE_TIMEOUT_MS,
    });
  }

  run(sentences: string[][]): Promise<SentenceLabels[]> {
    return this.pool.run({ files: this.files, sentences });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * Runs sentences in a child process of its own, for the start-up warm-up: a worker thread
 * that has loaded the model leaves ONNX Runtime's libraries and about 70 MB in the server
 * process after it ends (measured), a process that ends leaves nothing.
 */
class ProcessRunner implements SentenceRunner {
  private child: ChildProcess | undefined;

  constructor(private readonly files: NerModelFiles) {}

  run(sentences: string[][]): Promise<SentenceLabels[]> {
    return new Promise((resolve, reject) => {
      const child = (this.child = fork(fileURLToPath(new URL('./warm-up.mjs', import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
      child.once('message', (reply: { ok: true; labels: SentenceLabels[] } | { ok: false; message: string }) => (reply.ok ? resolve(reply.labels) : reject(new Error(reply.message))));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the model process exited (code ${code}) before it answered`)));
      child.send({ files: this.files, sentences } satisfies NerTask);
    });
  }

  async close(): Promise<void> {
    this.child?.kill();
  }
}

class InProcessRunner implements SentenceRunner {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly classifier: TokenClassifier) {}

  run(sentences: string[][]): Promise<SentenceLabels[]> {
    // One model call at a time: this runner stands for "one thread, no workers".
    const result = this.chain.then(() => this.classifier.classify(sentences));
    this.chain = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.classifier.dispose();
  }
}

interface PreparedSentence {
  document: number;
  words: TextSpan[];
}

export class PooledNerBackend implements NerBackend {
  readonly model: string;
  private readonly gate: CallGate;
  private readonly batcher: SentenceBatcher;
  private closed = false;

  constructor(
    files: NerModelFiles,
    private readonly runner: SentenceRunner,
    readonly workers: number,
    maxQueue: number,
    readonly maxSentencesPerCall: number,
    timeoutMs: number,
    batchSentences: number,
  ) {
    this.model = files.model;
    // One task per call: the batcher, shared by the calls, cuts their sentences into batches.
    this.gate = new CallGate({ name: 'entity recognition', code: 'ner' }, maxQueue, timeoutMs, 1);
    this.batcher = new SentenceBatcher((sentences) => this.runner.run(sentences), Math.max(workers, 1), batchSentences);
  }

  /** recognise() calls admitted and not yet finished. */
  get pending(): number {
    return this.gate.pending;
  }

  /** Batches sent to the model and the sentences they held, since the start. */
  get sent(): { batches: number; sentences: number } {
    return this.batcher.sent;
  }

  async recognise(texts: readonly string[]): Promise<NeuralEntity[][]> {
    if (this.closed) throw new Error('the NER backend is closed');
    this.gate.checkCapacity();
    const sentences: PreparedSentence[] = [];
    texts.forEach((text, document) => {
      for (const sentence of splitSentences(text)) {
        const words = splitWords(text, sentence.start, sentence.end);
        if (words.length > 0) sentences.push({ document, words });
      }
    });
    if (sentences.length > this.maxSentencesPerCall) {
      throw new TooLargeError('ner_too_many_sentences', `entity recognition takes at most ${this.maxSentencesPerCall} sentences per request (got ${sentences.length})`, {
        limit: this.maxSentencesPerCall,
      });
    }

    const asWords = sentences.map((s) => s.words.map((w) => texts[s.document]!.slice(w.start, w.end)));
    const [labelled] = await this.gate.run([asWords], (task, signal) => this.batcher.submit(task, signal));
    const entities: NeuralEntity[][] = texts.map(() => []);
    sentences.forEach((sentence, i) => {
      const { labels, scores } = labelled![i]!;
      // Fields named, not `...w`: the spread took 0.055 ms per sentence of the calling thread's 0.13 (about 36 words), where this takes 0.002.
      const predictions: WordPrediction[] = sentence.words.map((w, j) => ({ start: w.start, end: w.end, label: labels[j]!, score: scores[j]! }));
      entities[sentence.document]!.push(...groupEntities(texts[sentence.document]!, predictions));
    });
    return entities;
  }

  /** Refuses new calls, lets the admitted ones finish, then stops the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gate.drain();
    await this.runner.close();
  }
}

/**
 * Checks the model folder and runs a warm-up sentence through the model in a child process,
 * so that a broken model fails here with NerModelUnavailableError rather than on the first
 * document. That process is stopped once it answers (it holds the model, 100-200 MB, and
 * the server may sit idle for long); workers start (and load the model) when documents come.
 */
export async function createNerBackend(options: NerBackendOptions): Promise<PooledNerBackend> {
  const files = await inspectNerModelDir(options.modelDir);
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer (got ${workers})`);
  const maxQueue = options.maxQueue ?? DEFAULT_NER_MAX_QUEUE;
  const maxSentences = options.maxSentencesPerCall ?? DEFAULT_NER_MAX_SENTENCES_PER_CALL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_NER_TIMEOUT_MS;
  const batchSentences = options.batchSentences ?? DEFAULT_NER_BATCH_SENTENCES;
  if (maxQueue < 1 || maxSentences < 1 || timeoutMs < 1 || batchSentences < 1) throw new RangeError('maxQueue, maxSentencesPerCall, timeoutMs and batchSentences must be at least 1');

  let runner: SentenceRunner = workers === 0 ? new InProcessRunner(await (await import('./token-classifier.ts')).TokenClassifier.load(files)) : new ProcessRunner(files);
  try {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`workers did not load the model within ${WARM_UP_TIMEOUT_MS} ms`)), WARM_UP_TIMEOUT_MS);
    });
    try {
      await Promise.race([runner.run([WARM_UP_SENTENCE]), limit]);
    } finally {
      clearTimeout(timer);
    }
  } catch (cause) {
    await runner.close().catch(() => undefined);
    if (cause instanceof NerModelUnavailableError) throw cause;
    throw new NerModelUnavailableError('load_failed', files.dir, `NER model in ${files.dir} failed to run: ${(cause as Error).message}`, [], { cause });
  }
  if (runner instanceof ProcessRunner) {
    await runner.close();
    runner = new PoolRunner(files, workers);
  }
  return new PooledNerBackend(files, runner, workers, maxQueue, maxSentences, timeoutMs, batchSentences);
}

export type NerBackendStatus =
  | { backend: PooledNerBackend; status: string }
  | { backend: null; status: string };

/**
 * For the pipeline: a backend when a model folder is configured and works, otherwise null
 * and the reason, which extraction results report ("symbolic layer only: ...").
 */
export async function openNerBackend(options: Partial<NerBackendOptions>): Promise<NerBackendStatus> {
  if (!options.modelDir) {
    return { backend: null, status: 'no NER model configured (set PARLEY_NER_MODEL_DIR, see `npm run models:pull`): symbolic layer only' };
  }
  try {
    const backend = await createNerBackend({ ...options, modelDir: options.modelDir });
    return { backend, status: `NER model ${backend.model} on ${backend.workers || 'no'} worker thread(s)` };
  } catch (error) {
    if (!(error instanceof NerModelUnavailableError)) throw error;
    return { backend: null, status: `${error.message}: symbolic layer only` };
  }
}
