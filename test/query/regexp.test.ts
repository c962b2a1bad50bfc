import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it, vi } from 'vitest';
import { makeTestApp } from '../helpers/app.ts';

const CHILD = fileURLToPath(new URL('../fixtures/regexp-first.ts', import.meta.url));

it('a fresh process turns the linear-time RegExp engine on where =~ first compiles, in a worker thread first and on the main thread', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise((resolve, reject) => child.once('error', reject).once('exit', resolve));
  expect(code).toBe(0);
  const expected = { rows: [[false, true]], refused: 'QueryError invalid_regular_expression' };
  expect(JSON.parse(output)).toEqual({ worker: expected, main: expected });
});

// This test must run before any =~ compiles in this file's process: once the linear-time flag is on
// (expressions.ts), a refused 'l' flag is an invalid pattern (400), not the runtime's fault (500).
it("answers =~ on a runtime that refuses the linear-time engine with a 500 naming that fault, and runs =~ once the runtime takes the flag", async () => {
  const t = await makeTestApp();
  try {
    const key = await t.keyFor('tenant-a');
    const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/g/import', headers: { 'x-api-key': key }, payload: { nodes: [{ kind: 'Actor', id: 'goma', label: 'Goma' }] } });
    expect(imported.statusCode).toBe(200);
    const query = () => t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { query: "MATCH (a:Actor) RETURN a.label =~ 'G.ma' AS m", graph_id: 'g' } });
    // what V8 says of the 'l' flag when --enable-experimental-regexp-engine did not take (no Node 20 flag makes it refuse)
    vi.stubGlobal('RegExp', new Proxy(RegExp, {
      construct: (target, args: [string, string?], newTarget) => {
        if (args[1]?.includes('l')) throw new SyntaxError(`Invalid flags supplied to RegExp constructor '${args[1]}'`);
        return Reflect.construct(target, args, newTarget);
      },
    }));
    let refused;
    try {
      refused = await query();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(refused.statusCode).toBe(500);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 500, code: 'linear_regexp_unavailable', type: 'https://parley.dev/problems/linear_regexp_unavailable' });
    expect(refused.json().detail).toMatch(/refused V8's linear-time RegExp engine .*Invalid flags supplied to RegExp constructor 'l'/);
    const documented = (await t.app.inject({ url: '/v1/openapi.json' })).json().paths['/v1/graph/query'].post.responses[500];
    expect(documented.description).toContain('linear_regexp_unavailable');
    const answered = await query();
    expect(answered.statusCode).toBe(200);
    expect(answered.json().rows).toEqual([[true]]);
  } finally {
    await t.close();
  }
});
