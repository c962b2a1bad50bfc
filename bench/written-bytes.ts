import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';

/** What the LevelDB batches of this process wrote while counted: batches, characters of their keys and values, and the largest batch's. */
export interface WrittenBytes {
  batches: number;
  characters: number;
  largest: number;
}

let counting: WrittenBytes | undefined;
let installed = false;

/**
 * Counts what every LevelDB chained batch of the process writes (keys and values, in UTF-16
 * characters: the store's keys and values are nearly all ASCII, one byte each on disk) from now
 * until `stop`. The count wraps the batch's `put` once per process (a throwaway store yields the
 * batch's class), so any version of the store is counted the same way: the bytes per commit of
 * two commits of this project can be compared from the same bench.
 */
export async function countWrittenBytes(): Promise<{ stop(): WrittenBytes }> {
  if (!installed) await install();
  const counted: WrittenBytes = { batches: 0, characters: 0, largest: 0 };
  counting = counted;
  return {
    stop() {
      counting = undefined;
      return counted;
    },
  };
}

async function install(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-written-bytes-'));
  const db = new Level<string, string>(dir);
  await db.open();
  const batch = db.batch();
  const prototype = Object.getPrototypeOf(batch) as { put: (key: string, value: string) => unknown; write: () => Promise<void> };
  await batch.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
  const { put, write } = prototype;
  const sizes = new WeakMap<object, number>();
  prototype.put = function (this: object, key: string, value: string) {
    if (counting) sizes.set(this, (sizes.get(this) ?? 0) + key.length + value.length);
    return put.call(this, key, value);
  };
  prototype.write = function (this: object) {
    const size = sizes.get(this);
    if (counting && size !== undefined) {
      counting.batches++;
      counting.characters += size;
      counting.largest = Math.max(counting.largest, size);
    }
    return write.call(this);
  };
  installed = true;
}
