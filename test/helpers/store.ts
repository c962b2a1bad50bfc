import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openExtractionPipeline, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ParleyStore } from '../../engine/store/store.ts';

export interface StoreWithPipeline {
  store: ParleyStore;
  /** The extraction pipeline with one rule worker (the drafts are made there). */
  pipeline: ExtractionPipeline;
  close(): Promise<void>;
}

export interface TempStore {
  store: ParleyStore;
  /** The temp dir (the store is in its `store` folder): room for other files of the test. */
  dir: string;
  /** Closes the store and removes the dir. */
  close(): Promise<void>;
}

/** A real store in a fresh temp dir, opened with `options`. */
export async function openTempStore(prefix: string, options: Parameters<typeof ParleyStore.open>[1] = {}): Promise<TempStore> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const store = await ParleyStore.open(path.join(dir, 'store'), options);
  return {
    store,
    dir,
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `temp`'s store closed and opened again in the same dir: a graph written before is then read from its snapshot file (the
 * store's `snapshots` folder). Its close closes the reopened store and removes the dir.
 */
export async function reopenTempStore(temp: TempStore): Promise<TempStore> {
  const location = path.join(temp.dir, 'store');
  await temp.store.close();
  const store = await ParleyStore.open(location);
  return {
    store,
    dir: temp.dir,
    async close() {
      await store.close();
      await rm(temp.dir, { recursive: true, force: true });
    },
  };
}

/** A real store in a fresh temp dir and a real extraction pipeline: what the draft and commit tests run on. */
export async function openStoreWithPipeline(prefix: string): Promise<StoreWithPipeline> {
  const temp = await openTempStore(prefix);
  const { pipeline } = await openExtractionPipeline({ symbolicWorkers: 1 });
  return {
    store: temp.store,
    pipeline,
    async close() {
      await pipeline.close();
      await temp.close();
    },
  };
}
