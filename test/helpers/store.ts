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

/** A real store in a fresh temp dir and a real extraction pipeline: what the draft and commit tests run on. */
export async function openStoreWithPipeline(prefix: string): Promise<StoreWithPipeline> {
  const work = await mkdtemp(path.join(tmpdir(), prefix));
  const store = await ParleyStore.open(path.join(work, 'store'));
  const { pipeline } = await openExtractionPipeline({ ruleWorkers: 1 });
  return {
    store,
    pipeline,
    async close() {
      await pipeline.close();
      await store.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}
