/**
 * Framework results per graph version (the version is part of each key), so a repeated
 * assess of an unchanged graph costs a lookup.
 */

/** Framework results kept (per graph version, view and framework set). */
const RESULT_CACHE_SIZE = 64;

/**
 * Whether a time limit stopped the run: where it stopped depends on how busy the machine was,
 * so its result is run again, but not on every request (a client repeating an assess that
 * meets the limit would keep the workers busy).
 */
export const stoppedByTime = (run: { error?: { code: string } }) => run.error?.code === 'query_time_limit';

export class ResultCache {
  private readonly entries = new Map<string, { value: unknown; until: number }>();
  private readonly timeStoppedKeptMs: number;

  /** `timeStoppedKeptMs`: how long a result a time limit stopped is kept (others: until the graph changes). */
  constructor(timeStoppedKeptMs: number) {
    this.timeStoppedKeptMs = timeStoppedKeptMs;
  }

  /** The value of `key`, computed when not cached (or kept past its time); kept a while only when `timeStopped` says a time limit stopped a run of it. */
  async get<T>(key: string, compute: () => Promise<T>, timeStopped: (value: T) => boolean): Promise<T> {
    const kept = this.entries.get(key);
    this.entries.delete(key);
    if (kept && Date.now() < kept.until) {
      this.entries.set(key, kept); // most recently used last
      return kept.value as T;
    }
    const value = await compute();
    this.entries.set(key, { value, until: Date.now() + (timeStopped(value) ? this.timeStoppedKeptMs : Infinity) });
    if (this.entries.size > RESULT_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
