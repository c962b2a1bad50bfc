import { mkdirSync } from 'node:fs';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { extractionOptions, reasoningOptions, type ParleyConfig } from './config.ts';
import type { AppDeps } from './deps.ts';

export interface OpenedEngine {
  deps: AppDeps;
  /** The admin key's secret when this open created it (first start), shown once. */
  createdAdminKey: string | undefined;
  /** PARLEY_ADMIN_KEY names a key that was revoked: it stays revoked. */
  adminKeyRevoked: boolean;
  /** How extraction runs (rules only, or with which model). */
  extractionStatus: string;
  close(): Promise<void>;
}

/** The store in config.dataDir (created when missing), with the configured graph cache. */
export function openStore(config: ParleyConfig): Promise<ParleyStore> {
  mkdirSync(config.dataDir, { recursive: true });
  return ParleyStore.open(`${config.dataDir}/store`, { cacheFacts: config.graphCacheFacts });
}

/** The store in config.dataDir, the extraction pipeline and the reasoning pool: what `npm start` and the embedded CLI serve. */
export async function openEngine(config: ParleyConfig): Promise<OpenedEngine> {
  const store = await openStore(config);
  // the two slow parts of a start, each a child process (the model's warm-up, the rule-module
  // catalog: seconds each), run side by side
  const opening = await Promise.allSettled([openExtractionPipeline(extractionOptions(config)), ReasoningPool.open(store, reasoningOptions(config)), store.bootstrapAdminKey(config.adminKey)]);
  const [extractionOpened, reasoningOpened, adminOpened] = opening;
  if (extractionOpened.status === 'rejected' || reasoningOpened.status === 'rejected' || adminOpened.status === 'rejected') {
    if (extractionOpened.status === 'fulfilled') await extractionOpened.value.pipeline.close();
    if (reasoningOpened.status === 'fulfilled') await reasoningOpened.value.close();
    await store.close();
    throw opening.find((result): result is PromiseRejectedResult => result.status === 'rejected')!.reason;
  }
  const { pipeline: extraction, status: extractionStatus } = extractionOpened.value;
  const reasoning = reasoningOpened.value;
  const admin = adminOpened.value;
  return {
    deps: { store, config, extraction, reasoning },
    createdAdminKey: admin.secret,
    adminKeyRevoked: admin.revoked === true,
    extractionStatus,
    async close() {
      await extraction.close();
      await reasoning.close();
      await store.close();
    },
  };
}
