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

/** Calls of LoopSlicer.due() between two reads of the clock, at most: a call covers one record or so. */
const MAX_STRIDE = 16;

/**
 * Says when SLICE_MS of work has run since the last turn: `if (slicer.due()) await slicer.turn()`.
 * The clock is read once per stride of calls: the stride doubles (up to MAX_STRIDE) while a
 * stride takes under an eighth of a slice, and falls back to one call when it takes longer,
 * so that checking costs little for cheap records (an import called it five times per
 * record) and a slice still ends close to SLICE_MS when records are heavy.
 */
export class LoopSlicer {
  private since = performance.now();
  private read = this.since;
  private stride = 1;
  private left = 1;

  due(): boolean {
    if (--this.left > 0) return false;
    const now = performance.now();
    this.stride = now - this.read < SLICE_MS / 8 ? Math.min(this.stride * 2, MAX_STRIDE) : 1;
    this.left = this.stride;
    this.read = now;
    return now - this.since >= SLICE_MS;
  }

  async turn(): Promise<void> {
    await yieldToLoop();
    this.since = this.read = performance.now();
    this.stride = this.left = 1;
  }
}
