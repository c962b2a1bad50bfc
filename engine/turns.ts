/**
 * Long work on the main thread (a large import parsed, validated and applied, an export
 * sorted) gives the event loop a turn every few milliseconds, so the requests of
 * everyone else are answered meanwhile (issue 12: health p99 under 50 ms during a
 * 200k-fact import).
 */

/** Longest stretch of synchronous work between two turns of the event loop. */
export const SLICE_MS = 4;

/** Lets the event loop run pending I/O (setImmediate runs after the poll phase). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Calls of dueStep() per look at the clock. A clock read costs 50-100 ns, and an import
 * made about five per record (validated, merged, compared, encoded: a few µs in all), some
 * 5% of its CPU; a slice overruns by at most STEP_STRIDE - 1 such steps.
 */
export const STEP_STRIDE = 8;

/** Says when SLICE_MS of work has run since the last turn: `if (slicer.due()) await slicer.turn()`. */
export class LoopSlicer {
  private since = performance.now();
  private steps = 0;

  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  /** due() for loops of short steps (a record each), looking at the clock once in STEP_STRIDE calls. */
  dueStep(): boolean {
    if (++this.steps < STEP_STRIDE) return false;
    this.steps = 0;
    return this.due();
  }

  async turn(): Promise<void> {
    await yieldToLoop();
    this.since = performance.now();
  }
}
