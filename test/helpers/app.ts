import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig, reasoningOptions, type ParleyConfig } from '../../server/config.ts';
import { openStore } from '../../server/open.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import type { AppDeps } from '../../server/deps.ts';

export interface TestApp {
  app: FastifyInstance;
  store: ParleyStore;
  deps: AppDeps;
  /** Secret of the bootstrapped admin key (tenant 'admin'). */
  adminKey: string;
  dir: string;
  /** A new key for `tenant` (created through the admin API, so that path is exercised too). */
  keyFor(tenant: string, scope?: 'read' | 'write'): Promise<string>;
  close(): Promise<void>;
}

/**
 * The real app on a real LevelDB store (or the PostgreSQL database overrides.store names) in a fresh temp dir, or in `dir` (a restart on the data of an
 * app closed with keepData: its keys stand, and no admin key is made again).
 */
export async function makeTestApp(overrides: Partial<ParleyConfig> = {}, { dir: reopened, keepData = false }: { dir?: string; keepData?: boolean } = {}): Promise<TestApp> {
  const dir = reopened ?? (await mkdtemp(path.join(tmpdir(), 'parley-test-')));
  // one reasoning worker per app: test files run two at a time on two cores
  const config = { ...loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_CORPORA_DIR: path.join(dir, 'corpora') }), reasonWorkers: 1, ...overrides };
  // the LevelDB directory in `dir`, unless overrides.store names a PostgreSQL database
  const store = await openStore(config);
  const { secret } = await store.bootstrapAdminKey();
  const deps: AppDeps = { store, config, extraction: createExtractionPipeline(), reasoning: await ReasoningPool.open(store, reasoningOptions(config)) };
  const app = await buildApp(deps);
  return {
    app,
    store,
    deps,
    adminKey: secret ?? '',
    dir,
    async keyFor(tenant, scope = 'write') {
      const response = await app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': secret! }, payload: { tenant, scope } });
      if (response.statusCode !== 201) throw new Error(`key creation failed: ${response.body}`);
      return response.json().api_key as string;
    },
    async close() {
      await app.close();
      await deps.extraction.close();
      await deps.reasoning.close();
      await store.close();
      if (!keepData) await rm(dir, { recursive: true, force: true });
    },
  };
}
