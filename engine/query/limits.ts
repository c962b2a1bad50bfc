/**
 * Every query is bounded. Defaults, chosen so that a runaway query answers within
 * seconds instead of holding the event loop or the heap:
 * - QUERY_TIME_LIMIT_MS: wall-clock budget, checked inside join loops (503 `query_time_limit`).
 * - ROW_CAP: rows a query may return (400 `query_row_cap`: narrow the query or add LIMIT).
 * - INTERMEDIATE_ROW_CAP: rows any clause may hold between clauses (503 `query_intermediate_rows`).
 * - INFERENCE_LIMIT: Prolog inferences for rule predicates (503 `query_inference_limit`).
 * - MAX_VARIABLE_LENGTH: the upper bound assumed for `*` and `*n..` (longer paths are not explored).
 */
import { LimitError, ValidationError } from '../errors.ts';

export const QUERY_TIME_LIMIT_MS = 5_000;
export const ROW_CAP = 10_000;
export const INTERMEDIATE_ROW_CAP = 1_000_000;
export const INFERENCE_LIMIT = 20_000_000;
export const MAX_VARIABLE_LENGTH = 32;

export interface QueryLimits {
  timeLimitMs: number;
  rowCap: number;
  intermediateRowCap: number;
  inferenceLimit: number;
  maxVariableLength: number;
}

export const DEFAULT_LIMITS: QueryLimits = {
  timeLimitMs: QUERY_TIME_LIMIT_MS,
  rowCap: ROW_CAP,
  intermediateRowCap: INTERMEDIATE_ROW_CAP,
  inferenceLimit: INFERENCE_LIMIT,
  maxVariableLength: MAX_VARIABLE_LENGTH,
};

/** Counts work and throws once a budget is spent. One per query run. */
export class Budget {
  private readonly deadline: number;
  private ticks = 0;

  constructor(readonly limits: QueryLimits) {
    this.deadline = Date.now() + limits.timeLimitMs;
  }

  /** Cheap enough for inner loops: reads the clock every 1024 calls. */
  tick(): void {
    if ((++this.ticks & 1023) === 0) this.checkTime();
  }

  checkTime(): void {
    if (Date.now() > this.deadline) {
      throw new LimitError('query_time_limit', `the query ran past its time limit of ${this.limits.timeLimitMs} ms`, {
        limit_ms: this.limits.timeLimitMs,
      });
    }
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  checkIntermediate(count: number): void {
    if (count > this.limits.intermediateRowCap) {
      throw new LimitError('query_intermediate_rows', `the query built more than ${this.limits.intermediateRowCap} intermediate rows`, {
        limit: this.limits.intermediateRowCap,
      });
    }
  }

  checkRows(count: number): void {
    if (count > this.limits.rowCap) {
      throw new ValidationError('query_row_cap', `the query returns more than ${this.limits.rowCap} rows; add LIMIT or narrow the pattern`, {
        limit: this.limits.rowCap,
      });
    }
  }
}
