import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

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
