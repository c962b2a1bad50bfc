import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { OverloadedError, TooLargeError } from '../../errors.ts';
import type { NerBackend, NeuralEntity, TextSpan } from '../types.ts';
import { groupEntities, type WordPrediction } from './bio.ts';
import { inspectNerModelDir, NerModelUnavailableError, type NerModelFiles } from './model-dir.ts';
import { splitSentences } from './sentences.ts';
import { TokenClassifier, type SentenceLabels } from './token-classifier.ts';
import type { NerTask } from './worker-task.ts';
import { splitWords } from './words.ts';

/**
 * The neural layer as the pipeline uses it: split documents into sentences and words on the
 * calling thread (cheap, and it keeps the offsets here), send sentences in small tasks to a
 * piscina pool of workers that each run the model with one ONNX thread, and group the
 * returned word labels into entities with offsets into each document.
 */

/** recognise() calls admitted at a time (running or waiting for a worker); more are refused with OverloadedError (HTTP 503). */
export const DEFAULT_NER_MAX_QUEUE = 64;
/** Sentences in one recognise() call; beyond it the call is refused with TooLargeError (about 3 minutes of work for BERT-base on two cores). */
export const DEFAULT_NER_MAX_SENTENCES_PER_CALL = 10_000;
/** Sentences per worker task: small enough to spread one document over all workers, large enough to batch. */
const SENTENCES_PER_TASK = 8;
/** A worker that does not finish its running tasks within this time after close() is terminated. */
const CLOSE_TIMEOUT_MS = 30_000;
const WARM_UP_SENTENCE = ['Warm', 'up', '.'];

export interface NerBackendOptions {
  /** Folder with config.json, tokenizer.json and onnx/model_quantized.onnx (or onnx/model.onnx). */
  modelDir: string;
  /** Worker threads, one ONNX thread each; default one per core. 0 runs the model on the calling thread, one call at a time. */
  workers?: number;
  /** recognise() calls admitted at a time; default DEFAULT_NER_MAX_QUEUE. */
  maxQueue?: number;
  /** Sentences one recognise() call may hold; default DEFAULT_NER_MAX_SENTENCES_PER_CALL. */
  maxSentencesPerCall?: number;
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
      minThreads: workers,
      maxThreads: workers,
      // Admission is bounded by PooledNerBackend (calls) and per call (sentences), so the pool's own queue never grows past that.
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
  private admitted = 0;
  private closed = false;

  constructor(
    files: NerModelFiles,
    private readonly runner: SentenceRunner,
    readonly workers: number,
    readonly maxQueue: number,
    readonly maxSentencesPerCall: number,
  ) {
    this.model = files.model;
  }

  /** recognise() calls admitted and not yet finished. */
  get pending(): number {
    return this.admitted;
  }

  async recognise(texts: readonly string[]): Promise<NeuralEntity[][]> {
    if (this.closed) throw new Error('the NER backend is closed');
    if (this.admitted >= this.maxQueue) {
      throw new OverloadedError('ner_queue_full', `entity recognition is busy (${this.admitted} requests admitted); retry shortly`, {
        limit: this.maxQueue,
      });
    }
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

    this.admitted++;
    try {
      const tasks: Promise<SentenceLabels[]>[] = [];
      for (let i = 0; i < sentences.length; i += SENTENCES_PER_TASK) {
        const chunk = sentences.slice(i, i + SENTENCES_PER_TASK);
        tasks.push(this.runner.run(chunk.map((s) => s.words.map((w) => texts[s.document]!.slice(w.start, w.end)))));
      }
      const labelled = (await Promise.all(tasks)).flat();
      const entities: NeuralEntity[][] = texts.map(() => []);
      sentences.forEach((sentence, i) => {
        const { labels, scores } = labelled[i]!;
        const predictions: WordPrediction[] = sentence.words.map((w, j) => ({ ...w, label: labels[j]!, score: scores[j]! }));
        entities[sentence.document]!.push(...groupEntities(texts[sentence.document]!, predictions));
      });
      return entities;
    } finally {
      this.admitted--;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runner.close();
  }
}

/**
 * Checks the model folder, starts the workers and loads the model in each (a warm-up
 * sentence per worker), so that a broken model fails here with NerModelUnavailableError
 * rather than on the first document.
 */
export async function createNerBackend(options: NerBackendOptions): Promise<PooledNerBackend> {
  const files = await inspectNerModelDir(options.modelDir);
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer (got ${workers})`);
  const maxQueue = options.maxQueue ?? DEFAULT_NER_MAX_QUEUE;
  const maxSentences = options.maxSentencesPerCall ?? DEFAULT_NER_MAX_SENTENCES_PER_CALL;
  if (maxQueue < 1 || maxSentences < 1) throw new RangeError('maxQueue and maxSentencesPerCall must be at least 1');

  const runner = workers === 0 ? new InProcessRunner(await TokenClassifier.load(files)) : new PoolRunner(files, workers);
  try {
    await Promise.all(Array.from({ length: Math.max(workers, 1) }, () => runner.run([WARM_UP_SENTENCE])));
  } catch (cause) {
    await runner.close().catch(() => undefined);
    if (cause instanceof NerModelUnavailableError) throw cause;
    throw new NerModelUnavailableError('load_failed', files.dir, `NER model in ${files.dir} failed to run: ${(cause as Error).message}`, [], { cause });
  }
  return new PooledNerBackend(files, runner, workers, maxQueue, maxSentences);
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
