import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { CallGate } from '../../gate.ts';
import { readDraftMessage, readFileDraftMessage, type DocumentDraft, type DraftTask, type FileDraft, type FileDraftTask } from '../draft.ts';
import type { DocumentInput, Findings } from '../types.ts';
import type { SymbolicLayer } from './layer.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './version.ts';

/** find() calls admitted at a time (running or waiting for a worker); more are refused with OverloadedError (HTTP 503). */
export const DEFAULT_SYMBOLIC_MAX_QUEUE = 64;
/**
 * Wall-clock limit of one find() call (LimitError beyond). The pipeline sends at most one
 * symbolic chunk (50,000 characters, about 2-3 s of the symbolic layer) per call; a worker's first call
 * also loads the gazetteers.
 */
export const DEFAULT_SYMBOLIC_TIMEOUT_MS = 60_000;
/** How long a symbolic worker with nothing to do stays, keeping its loaded gazetteers for the next document. */
const SYMBOLIC_WORKER_IDLE_MS = 60_000;

export interface PooledSymbolicLayerOptions {
  /** Worker threads; default one per core. */
  workers?: number;
  /** find() calls admitted at a time; default DEFAULT_SYMBOLIC_MAX_QUEUE. */
  maxQueue?: number;
  /** Wall-clock limit of one find() call; default DEFAULT_SYMBOLIC_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * The symbolic layer in worker threads, so that a long document never stalls the HTTP
 * event loop (measured in the main thread: ~1.9 s stalls on a 1M-character document).
 * Each worker loads the gazetteers once, on its first document. Calls are admitted
 * through a CallGate, like the model pools'; a call that runs out of time has its
 * worker terminated (the symbolic layer is plain JavaScript) and replaced.
 */
export class PooledSymbolicLayer implements SymbolicLayer {
  readonly version = SYMBOLIC_EXTRACTOR_VERSION;
  private readonly pool: Piscina<DocumentInput | DraftTask | FileDraftTask, Findings | string>;
  private readonly gate: CallGate;

  constructor(options: PooledSymbolicLayerOptions = {}) {
    const workers = Math.max(1, options.workers ?? availableParallelism());
    this.pool = new Piscina({
      filename: new URL('./worker.mjs', import.meta.url).href,
      // started on the first document and ended after a minute idle: an idle server holds
      // no worker (each is ~70 MB resident once its gazetteers are loaded)
      minThreads: 0,
      maxThreads: workers,
      idleTimeout: SYMBOLIC_WORKER_IDLE_MS,
      // The gate bounds the calls admitted, and so the pool's queue.
      maxQueue: Infinity,
      // nothing reads the pool's run- and wait-time histograms; recording them cost the main thread 1-3% of a batch
      recordTiming: false,
    });
    this.gate = new CallGate({ name: 'symbolic extraction', code: 'rules' }, options.maxQueue ?? DEFAULT_SYMBOLIC_MAX_QUEUE, options.timeoutMs ?? DEFAULT_SYMBOLIC_TIMEOUT_MS, workers);
  }

  /** Calls admitted whose task has not stopped yet. */
  get pending(): number {
    return this.gate.pending;
  }

  async find(document: DocumentInput): Promise<Findings> {
    const [findings] = await this.gate.run([document], (task, signal) => this.pool.run(task, { signal }));
    return findings as Findings;
  }

  /** The symbolic layer and structuring in one worker call: the main thread only receives the nodes and edges. */
  async draft(task: DraftTask & { sha256: string; documentId: string }): Promise<DocumentDraft> {
    const [draft] = await this.gate.run([task], (one, signal) => this.pool.run(one, { signal, name: 'draft' }));
    // sent as JSON (worker.mjs): a draft is plain data, which JSON carries unchanged
    return readDraftMessage<DocumentDraft>(draft as string, (value) => value);
  }

  /** A batch's file read, hashed and drafted in one worker call (engine/extract/read-file.ts), sent as JSON like draft(). */
  async draftFile(task: FileDraftTask): Promise<FileDraft> {
    const [file] = await this.gate.run([task], (one, signal) => this.pool.run(one, { signal, name: 'draftFile' }));
    return readFileDraftMessage(file as string);
  }

  async close(): Promise<void> {
    await this.gate.drain();
    await this.pool.destroy();
  }
}
