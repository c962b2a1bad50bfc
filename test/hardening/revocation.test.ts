import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig, reasoningOptions } from '../../server/config.ts';

const ENV_KEY = 'operator-chosen-admin-secret-0123456789';

/** What main.ts does on start, with PARLEY_ADMIN_KEY set: the same data dir each time. */
async function start(dir: string, adminKey: string) {
  const config = { ...loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: adminKey }), reasonWorkers: 1 };
  const store = await ParleyStore.open(path.join(dir, 'store'));
  const bootstrap = await store.bootstrapAdminKey(config.adminKey);
  const reasoning = await ReasoningPool.open(store, reasoningOptions(config));
  const extraction = createExtractionPipeline();
  const app = await buildApp({ store, config, extraction, reasoning });
  return {
    app,
    store,
    bootstrap,
    listKeys: (key: string) => app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': key } }),
    async stop() {
      await app.close();
      await extraction.close();
      await reasoning.close();
      await store.close();
    },
  };
}

describe('revocation is durable', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('a revoked PARLEY_ADMIN_KEY stays 401 after a restart with the same value, and rotating it works', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-revoke-'));
    dirs.push(dir);
    const first = await start(dir, ENV_KEY);
    expect(first.bootstrap.created).toBe(true);
    const listed = await first.listKeys(ENV_KEY);
    expect(listed.statusCode).toBe(200);
    const keyId = listed.json().keys[0].key_id as string;
    const tenantKey = (await first.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': ENV_KEY }, payload: { tenant: 't1' } })).json();
    expect((await first.app.inject({ method: 'DELETE', url: `/v1/keys/${tenantKey.key_id}`, headers: { 'x-api-key': ENV_KEY } })).statusCode).toBe(204);
    expect((await first.app.inject({ method: 'DELETE', url: `/v1/keys/${keyId}`, headers: { 'x-api-key': ENV_KEY } })).statusCode).toBe(204);
    expect((await first.listKeys(ENV_KEY)).statusCode).toBe(401);
    await first.stop();

    const second = await start(dir, ENV_KEY);
    expect(second.bootstrap).toEqual({ created: false, revoked: true });
    const refused = await second.listKeys(ENV_KEY);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('invalid_api_key');
    expect((await second.app.inject({ method: 'GET', url: '/v1/graphs', headers: { 'x-api-key': tenantKey.api_key } })).statusCode).toBe(401);
    const stored = (await second.store.listKeys()).find((record) => record.key_id === keyId);
    expect(stored?.revoked_at).toEqual(expect.any(String));
    await second.stop();

    // rotation: a new value, a restart; the old key stays revoked and is listed so
    const rotated = 'operator-rotated-admin-secret-9876543210';
    const third = await start(dir, rotated);
    expect(third.bootstrap.created).toBe(true);
    const keys = await third.listKeys(rotated);
    expect(keys.statusCode).toBe(200);
    expect(keys.json().keys.find((key: { key_id: string }) => key.key_id === keyId).revoked_at).toEqual(expect.any(String));
    expect((await third.listKeys(ENV_KEY)).statusCode).toBe(401);
    await third.stop();
  });
});
