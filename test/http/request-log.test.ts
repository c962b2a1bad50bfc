import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, stopServer } from '../helpers/server-process.ts';

const ADMIN_KEY = 'pk_request_log_admin_key_0123456789abcdef';

/** The request log lines a server printed for `url`. */
function logged(output: string, url: string): number {
  return output.split('\n').filter((line) => line.includes('"msg":"request completed"') && line.includes(`"url":"${url}"`)).length;
}

/**
 * The request log is gathered and written a few kilobytes at a time (server/app.ts): no line is
 * lost, a line waits a bounded time when no more come, and what waits is written at exit.
 */
describe('the request log', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-request-log-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every line: soon after the requests stop, and what waits when the server is stopped', { timeout: 120_000 }, async () => {
    const server = await spawnServer(['server/start.mjs'], { PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: ADMIN_KEY, PARLEY_NER_MODEL_DIR: 'none', PARLEY_REASON_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '0' });
    try {
      // more lines than one batch holds, then none: the last ones are written by the timer
      for (let i = 0; i < 60; i++) expect((await fetch(`${server.base}/v1/health`)).status).toBe(200);
      const stoppedAt = Date.now();
      while (logged(server.output(), '/v1/health') < 60 && Date.now() - stoppedAt < 10_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(logged(server.output(), '/v1/health')).toBe(60);
      expect(Date.now() - stoppedAt).toBeLessThan(2_000);

      // fewer than a batch, then a stop straight away: none lost as the process exits
      for (let i = 0; i < 5; i++) expect((await fetch(`${server.base}/v1/openapi.json`)).status).toBe(200);
    } finally {
      expect(await stopServer(server.child)).toBe(0);
    }
    expect(logged(server.output(), '/v1/openapi.json')).toBe(5);
    expect(server.output()).toContain('SIGTERM: closing');
  });
});
