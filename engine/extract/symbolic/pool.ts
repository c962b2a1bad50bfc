import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { OverloadedError } from '../../errors.ts';
import type { DocumentInput, Findings } from '../types.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './index.ts';

/** Documents (or chunks of one) waiting for a rule-layer worker before new ones are refused with 503. */
export const DEFAULT_RULE_QUEUE = 256;

/**
 * The rule layer in worker threads, so that a long document never stalls the HTTP
 * event loop (measured in the main thread: ~1.9 s stalls on a 1M-character document).
 * Each worker loads the gazetteers once, on its first document.
 */
export class PooledRuleLayer {
  readonly version = SYMBOLIC_EXTRACTOR_VERSION;
  private readonly pool: Piscina;

  constructor(options: { workers?: number; maxQueue?: number } = {}) {
    const workers = Math.max(1, options.workers ?? availableParallelism());
    this.pool = new Piscina({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: workers,
      maxThreads: workers,
      maxQueue: options.maxQueue ?? DEFAULT_RULE_QUEUE,
    });
  }

  async find(document: DocumentInput): Promise<Findings> {
    if (this.pool.queueSize >= this.pool.options.maxQueue) {
      throw new OverloadedError('rules_queue_full', 'too many documents are waiting for extraction; retry shortly');
    }
    return this.pool.run(document);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
