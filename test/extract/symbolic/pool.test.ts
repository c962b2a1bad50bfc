import { readFile } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import { PooledRuleLayer } from '../../../engine/extract/symbolic/pool.ts';
import { OverloadedError } from '../../../engine/errors.ts';

const pool = new PooledRuleLayer({ workers: 2 });
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

it('refuses documents beyond its queue with OverloadedError', async () => {
  const small = new PooledRuleLayer({ workers: 1, maxQueue: 1 });
  try {
    const document = { text: 'The army shelled the town. '.repeat(200), source: 'x' };
    const calls = Array.from({ length: 6 }, () => small.find(document));
    const settled = await Promise.allSettled(calls);
    const refused = settled.filter((result) => result.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(OverloadedError);
    expect(settled.some((result) => result.status === 'fulfilled')).toBe(true);
  } finally {
    await small.close();
  }
});
