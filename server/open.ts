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
  const admin = await store.bootstrapAdminKey(config.adminKey);
  const { pipeline: extraction, status: extractionStatus } = await openExtractionPipeline(extractionOptions(config));
  const reasoning = await ReasoningPool.open(store, reasoningOptions(config));
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
