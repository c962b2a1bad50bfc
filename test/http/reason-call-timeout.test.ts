import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import { loadConfig } from '../../server/config.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

// PARLEY_REASON_CALL_TIMEOUT_MS reaches the server's reasoning pool: an assess past it is refused by name, with the
// limit it met, and the server answers the next call once the timeout is raised again (a restart on the same data).
describe('the reasoning call timeout setting', () => {
  let t: TestApp | undefined;
  let dir: string;
  let key: string;
  let workspace: string;
  const assess = () => t!.app.inject({ method: 'POST', url: `/v1/workspaces/${workspace}/assess`, headers: { 'x-api-key': key }, payload: {} });
  const timeoutFrom = (env: Record<string, string>) => ({ reasonCallTimeoutMs: loadConfig(env).reasonCallTimeoutMs });

  beforeAll(async () => {
    t = await makeTestApp(timeoutFrom({ PARLEY_REASON_CALL_TIMEOUT_MS: '1' }), { keepData: true });
    dir = t.dir;
    key = await t.keyFor('tenant-a');
    await t.store.writeGraph('tenant-a', 'g', generate(2_000).write);
    workspace = (await t.app.inject({ method: 'POST', url: '/v1/workspaces', headers: { 'x-api-key': key }, payload: { name: 'w', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' } })).json().id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('stops an assess that passes it with 503 reasoning_timeout naming the limit, and lets one within the default conclude', { timeout: 120_000 }, async () => {
    const stopped = await assess();
    expect(stopped.statusCode).toBe(503);
    expect(stopped.headers['content-type']).toContain('application/problem+json');
    expect(stopped.json()).toMatchObject({ code: 'reasoning_timeout', limit_ms: 1 });

    await t!.close();
    t = await makeTestApp(timeoutFrom({}), { dir });
    const concluded = await assess();
    expect(concluded.statusCode).toBe(200);
    expect(concluded.json().assessments.length).toBeGreaterThan(0);
  });
});
