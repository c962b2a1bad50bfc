/**
 * Runs tasks one after another per key: a task starts only when every earlier task
 * on the same key has settled (whether it succeeded or failed). Keys with nothing
 * queued are forgotten, so the map stays as small as the work in flight.
 */
export class SerialQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const next = (this.tails.get(key) ?? Promise.resolve()).then(task, task);
    const settled = next.catch(() => undefined);
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }

  /** Resolves when every task queued so far has settled. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }
}
