import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openExtractionPipeline, type ExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ParleyStore, isPostgresUrl } from '../engine/store/store.ts';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { extractionOptions, reasoningOptions, type ParleyConfig } from './config.ts';
import type { AppDeps } from './deps.ts';

export interface OpenedEngine {
  deps: AppDeps;
  /** The admin key's secret when this open created it (first start), shown once. */
  createdAdminKey: string | undefined;
  /** PARLEY_ADMIN_KEY names a key that was revoked: it stays revoked. */
  adminKeyRevoked: boolean;
  /**
   * How extraction runs (the symbolic layer only, or with which model), once the model has warmed up;
   * rejects when extraction cannot open. Until then extraction calls wait (openEngine does not).
   */
  extractionOpened: Promise<string>;
  close(): Promise<void>;
}

/** The store's lock is held: another process (a parley server, most likely) has it open. */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(`the data directory ${dataDir} is in use by another process (a parley server?): one process at a time opens a store`);
  }
}

/**
 * The store config.store names (the LevelDB directory in config.dataDir by default, created when
 * missing; or a PostgreSQL database, this server's graph snapshots then in config.dataDir), with
 * the configured graph cache.
 */
export async function openStore(config: ParleyConfig): Promise<ParleyStore> {
  mkdirSync(config.dataDir, { recursive: true });
  try {
    const snapshots = isPostgresUrl(config.store) ? { snapshotDir: path.join(config.dataDir, 'snapshots') } : {};
    return await ParleyStore.open(config.store, { cacheFacts: config.graphCacheFacts, ...snapshots });
  } catch (error) {
    // LevelDB says only "Database failed to open"; why is in its cause
    if ((error as { cause?: { code?: unknown } }).cause?.code === 'LEVEL_LOCKED') throw new DataDirInUseError(config.dataDir);
    throw error;
  }
}

/**
 * The store in config.dataDir, the extraction pipeline and the reasoning pool: what `npm start`
 * and the embedded CLI serve. It resolves once the store, the rule-module catalog and the admin
 * key are ready; the NER model's warm-up (about a second, in a child process) goes on after, so
 * the server listens without waiting for it.
 */
export async function openEngine(config: ParleyConfig): Promise<OpenedEngine> {
  const store = await openStore(config);
  const extractionOpening = openExtractionPipeline(extractionOptions(config));
  const extraction = whenOpened(extractionOpening.then(({ pipeline }) => pipeline));
  const opening = await Promise.allSettled([ReasoningPool.open(store, reasoningOptions(config)), store.bootstrapAdminKey(config.adminKey)]);
  const [reasoningOpened, adminOpened] = opening;
  if (reasoningOpened.status === 'rejected' || adminOpened.status === 'rejected') {
    await extraction.close();
    if (reasoningOpened.status === 'fulfilled') await reasoningOpened.value.close();
    await store.close();
    throw opening.find((result): result is PromiseRejectedResult => result.status === 'rejected')!.reason;
  }
  const reasoning = reasoningOpened.value;
  const admin = adminOpened.value;
  const extractionOpened = extractionOpening.then(({ status }) => status);
  // a caller that never asks (the embedded CLI) meets a failure in its extraction calls instead
  extractionOpened.catch(() => undefined);
  return {
    deps: { store, config, extraction, reasoning },
    createdAdminKey: admin.secret,
    adminKeyRevoked: admin.revoked === true,
    extractionOpened,
    async close() {
      await extraction.close();
      await reasoning.close();
      await store.close();
    },
  };
}

/**
 * The pipeline `opening` resolves to, usable before it does: calls wait for it. A draft comes
 * only from the pipeline's own draft(), so until it is open resolve() has nothing to resolve.
 */
function whenOpened(opening: Promise<ExtractionPipeline>): ExtractionPipeline {
  let opened: ExtractionPipeline | undefined;
  opening.then((pipeline) => (opened = pipeline), () => undefined);
  return {
    get extractor() {
      if (!opened) throw new Error('extraction is still opening: its extractor is known once the model has warmed up');
      return opened.extractor;
    },
    extract: async (input, options) => (await opening).extract(input, options),
    draft: async (input, options) => (await opening).draft(input, options),
    resolve: (draft, input, options) => opened?.resolve(draft, input, options),
    async close() {
      await (await opening.catch(() => undefined))?.close();
    },
  };
}
