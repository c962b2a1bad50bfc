import { readFile } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import { PooledSymbolicLayer } from '../../../engine/extract/symbolic/pool.ts';
import { LimitError, OverloadedError } from '../../../engine/errors.ts';
import { toProblem } from '../../../server/problems.ts';

const pool = new PooledSymbolicLayer({ workers: 2 });
afterAll(() => pool.close());

it('finds in worker threads exactly what the rules find on the calling thread', async () => {
  const text = await readFile(new URL('../../../corpora/sudan-el-fasher.txt', import.meta.url), 'utf8');
  const documents = [
    { text, source: 'sudan-el-fasher.txt', document_date: '2024-03-04' },
    { text: 'On 3 March 2024 the Rapid Support Forces attacked El Fasher.', source: 'inline' },
  ];
  const pooled = await Promise.all(documents.map((document) => pool.find(document)));
  expect(pooled).toEqual(documents.map(findConflictEntities));
  expect(pooled[0].claims.length).toBeGreaterThan(0);
});

it('admits at most maxQueue calls at once and refuses the rest with a 503 OverloadedError', async () => {
  const small = new PooledSymbolicLayer({ workers: 1, maxQueue: 2 });
  try {
    const document = { text: 'The army shelled the town. '.repeat(200), source: 'x' };
    const settled = await Promise.allSettled(Array.from({ length: 6 }, () => small.find(document)));
    // Admission is decided when find() is called: the first two get in, the flood behind them does not.
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'rejected']);
    for (const result of settled.slice(2)) {
      const reason = (result as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(OverloadedError);
      expect(reason.code).toBe('rules_queue_full');
      expect(toProblem(reason)).toMatchObject({ status: 503, code: 'rules_queue_full', limit: 2 });
    }
    expect(small.pending).toBe(0);
    // Once the admitted calls are done, new ones get in again.
    expect((await small.find(document)).events.length).toBeGreaterThan(0);
  } finally {
    await small.close();
  }
});

it('stops a call that runs out of time with a LimitError and terminates its worker', async () => {
  // A worker's first call loads the gazetteers (seconds): far beyond 50 ms.
  const slow = new PooledSymbolicLayer({ workers: 1, timeoutMs: 50 });
  try {
    const error = await slow.find({ text: 'The army shelled the town. '.repeat(2_000), source: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).code).toBe('rules_timeout');
    expect(toProblem(error)).toMatchObject({ status: 503, code: 'rules_timeout', limit_ms: 50 });
    // The worker is terminated, not left to finish (seconds): the call stops counting against admission at once.
    await expect.poll(() => slow.pending, { timeout: 500 }).toBe(0);
  } finally {
    await slow.close();
  }
});
