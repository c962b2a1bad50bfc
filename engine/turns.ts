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

/** Says when SLICE_MS of work has run since the last turn: `if (slicer.due()) await slicer.turn()`. */
export class LoopSlicer {
  private since = performance.now();

  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  async turn(): Promise<void> {
    await yieldToLoop();
    this.since = performance.now();
  }
}
