import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InlineQueries } from '../../engine/reason/inline-query.ts';
import { ReasoningPool, type ReasoningOptions } from '../../engine/reason/pool.ts';
import { periodsBetween } from '../../engine/reason/tasks.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { ANSWER_SHAPER_URL } from '../../server/shape/query-answer.ts';
import { writeModule } from '../helpers/rule-module.ts';

const limits = { inferenceLimit: 1_000_000, timeLimitMs: 10_000 };
const actor = (id: string, label: string) => ({ id, labels: ['Actor'], properties: { label, role: 'party' } });

describe('the reasoning pool', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const labels = async (graphId: string) =>
    (await pool.query('t', graphId, 'MATCH (a:Actor) RETURN a.label AS label ORDER BY label', { limits: {} })).result.rows.map(([label]) => label);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-pool-'));
    store = await ParleyStore.open(path.join(dir, 'store'));
    pool = await ReasoningPool.open(store, { workers: 2, inlineBudgetMs: 0 }); // every query through a worker
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the workers\' replicas in step with every write, on both workers', async () => {
    await store.writeGraph('t', 'g', { nodes: [actor('a', 'Alpha')], edges: [] });
    expect(await labels('g')).toEqual(['Alpha']);
    for (let i = 0; i < 6; i++) {
      await store.writeGraph('t', 'g', { nodes: [actor(`n${i}`, `Actor ${i}`)], edges: [] });
      // concurrent reads land on both workers: each must see the write just made
      const seen = await Promise.all([labels('g'), labels('g'), labels('g')]);
      for (const rows of seen) expect(rows).toContain(`Actor ${i}`);
    }
  });

  it('forgets a deleted graph: a new graph with the same id starts empty', async () => {
    await store.writeGraph('t', 'h', { nodes: [actor('x', 'Old')], edges: [] });
    expect(await labels('h')).toEqual(['Old']);
    await store.deleteGraph('t', 'h');
    await expect(labels('h')).rejects.toMatchObject({ code: 'graph_not_found' });
    await store.writeGraph('t', 'h', { nodes: [actor('y', 'New')], edges: [] });
    expect(await labels('h')).toEqual(['New']);
  });

  it('keeps tenants apart in the replicas', async () => {
    await store.writeGraph('other', 'g', { nodes: [actor('z', 'Other tenant')], edges: [] });
    expect(await labels('g')).not.toContain('Other tenant');
    expect((await pool.query('other', 'g', 'MATCH (a:Actor) RETURN a.label', { limits: {} })).result.rows).toEqual([['Other tenant']]);
  });

  it('brings typed errors back from the worker', async () => {
    await expect(pool.query('t', 'g', 'MATCH (a:Actor RETURN a', { limits: {} })).rejects.toMatchObject({ kind: 'query', code: 'unexpected_syntax', line: 1 });
    await expect(pool.frameworks('t', 'g', ['nope'], { limits })).rejects.toMatchObject({ code: 'framework_not_found' });
  });

  it('answers a repeated assess of an unchanged graph from its cache, and runs again after a write', async () => {
    const first = await pool.frameworks('t', 'g', ['glasl'], { limits });
    const again = await pool.frameworks('t', 'g', ['glasl'], { limits });
    expect(again.runs).toBe(first.runs);
    await store.writeGraph('t', 'g', { nodes: [actor('late', 'Latecomer')], edges: [] });
    const after = await pool.frameworks('t', 'g', ['glasl'], { limits });
    expect(after.runs).not.toBe(first.runs);
  });

  it('answers an assess in the order asked, though it hands the costliest frameworks out first', async () => {
    const ids = ['glasl', 'azar', 'burton', 'zartman'];
    const first = await pool.frameworks('t', 'g', ids, { limits });
    expect(first.runs.map((run) => run.framework_id)).toEqual(ids);
    // cheapest first as asked: the tasks go out in the reverse order, the answers come back as asked
    const cheapestFirst = [...first.runs].sort((a, b) => a.inferences - b.inferences).map((run) => run.framework_id);
    expect(new Set(first.runs.map((run) => run.inferences)).size).toBe(ids.length);
    await store.writeGraph('t', 'g', { nodes: [actor('later', 'Later still')], edges: [] });
    const after = await pool.frameworks('t', 'g', cheapestFirst, { limits });
    expect(after.runs.map((run) => run.framework_id)).toEqual(cheapestFirst);
  });
});


/**
 * Runs `body` with a one-worker pool over a store of its own in a temp dir, graph 'g' holding
 * Alpha; with `module`, its frameworks include that one (writeModule; `folder` is its folder).
 * Closes and removes everything after.
 */
async function withPool(
  options: ReasoningOptions,
  body: (pool: ReasoningPool, store: ParleyStore, folder: string) => Promise<void>,
  module?: { id: string; rules: string[] },
): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-pool-'));
  const folder = module ? await writeModule(dir, module.id, module.rules) : '';
  const store = await ParleyStore.open(path.join(dir, 'store'));
  const pool = await ReasoningPool.open(store, { workers: 1, ...(module ? { frameworkDirs: [path.join(dir, 'modules')] } : {}), ...options });
  try {
    await store.writeGraph('t', 'g', { nodes: [actor('a', 'Alpha')], edges: [] });
    await body(pool, store, folder);
  } finally {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('a framework stopped by its time limit', () => {
  it('is reported with the run\'s limit, and its result is kept only a while: an assess after that runs it again', async () => {
    const rules = [
      'finding(k, v, s, [], []) :- spin(0).',
      // (a built-in besides arithmetic: the heartbeat that checks the time is reached only through one)
      'spin(N) :- atom_length(abc, _), M is N + 1, spin(M).',
    ];
    await withPool({ timeStoppedKeptMs: 1_500 }, async (spinning) => {
      const timeLimited = { inferenceLimit: 1e12, timeLimitMs: 300 };
      const first = await spinning.frameworks('t', 'g', ['spinner', 'glasl'], { limits: timeLimited });
      expect(first.runs[0].error).toEqual({ code: 'query_time_limit', message: 'the framework ran past its time limit of 300 ms' });
      expect(first.runs[1].error).toBeUndefined();
      // kept a while (a client repeating it does not keep the workers busy), then run again
      expect((await spinning.frameworks('t', 'g', ['spinner', 'glasl'], { limits: timeLimited })).runs).toBe(first.runs);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const again = await spinning.frameworks('t', 'g', ['spinner', 'glasl'], { limits: timeLimited });
      expect(again.runs).not.toBe(first.runs);
      expect(again.runs[0].error).toEqual(first.runs[0].error);
      // an inference limit stops the run at the same point every time: that result is kept
      const inferenceLimited = { inferenceLimit: 50_000, timeLimitMs: 60_000 };
      const stopped = await spinning.frameworks('t', 'g', ['spinner'], { limits: inferenceLimited });
      expect(stopped.runs[0].error).toEqual({ code: 'query_inference_limit', message: 'the framework used more than its 50000 inferences' });
      expect((await spinning.frameworks('t', 'g', ['spinner'], { limits: inferenceLimited })).runs).toBe(stopped.runs);
    }, { id: 'spinner', rules });
  }, 60_000);
});

describe('rule modules changed on disk after the listing', () => {
  it('are not run by a worker started since: the call says the server needs a restart, as the listing still shows the old ones', async () => {
    await withPool({}, async (pool, _store, folder) => {
      expect(pool.catalog.frameworks.find((entry) => entry.id === 'edited')).toMatchObject({ status: 'loaded' });
      // edited (broken, even) after the listing, before the first worker starts and consults it
      await writeFile(path.join(folder, 'rules.pl'), 'present(actors, Ids) :- .\n');
      await expect(pool.frameworks('t', 'g', ['edited', 'glasl'], { limits })).rejects.toMatchObject({ kind: 'runtime', code: 'rule_modules_changed' });
      // queries do not depend on the modules unless they call one: they still answer
      expect((await pool.query('t', 'g', 'MATCH (a:Actor) RETURN a.label', { limits: {} })).result.rows).toEqual([['Alpha']]);
    }, { id: 'edited', rules: ["finding(present, yes, 'there are actors', [], [])."] });
  }, 60_000);
});

describe('queries on the event loop first', () => {
  it('tells the inline path how long each query the workers answered took, by query() and by answer()', async () => {
    const told = vi.spyOn(InlineQueries.prototype, 'ranInWorker');
    try {
      await withPool({ inlineBudgetMs: 0, answerShaper: ANSWER_SHAPER_URL }, async (pool) => {
        const text = 'MATCH (a:Actor) RETURN a.label AS label';
        await pool.query('t', 'g', text, { limits: {} });
        await pool.answer('t', 'g', text, { limits: {}, shape: { includeProvenance: false } });
        expect(told.mock.calls.map(([tenant, graphId, query, ms]) => [tenant, graphId, query, ms > 0])).toEqual([['t', 'g', text, true], ['t', 'g', text, true]]);
      });
    } finally {
      told.mockRestore();
    }
  });

  it('answers within the inline budget, or moves the query to a worker with the same answer', async () => {
    await withPool({ inlineBudgetMs: 2 }, async (pool) => {
      const heavy = 'UNWIND range(1, 3000) AS x UNWIND range(1, 100) AS y WITH y WHERE y % 2 = 0 RETURN count(y) AS n';
      expect((await pool.query('t', 'g', heavy, { limits: {} })).result.rows).toEqual([[150000n]]);
      // a real time limit still holds once the query is in the worker
      await expect(pool.query('t', 'g', 'UNWIND range(1, 90000) AS x UNWIND range(1, 500) AS y RETURN count(y)', { limits: { timeLimitMs: 50 } })).rejects.toMatchObject({ code: 'query_time_limit' });
      expect((await pool.query('t', 'g', "MATCH (a:Actor {label: 'Alpha'}) RETURN a.label", { limits: {} })).result.rows).toEqual([['Alpha']]);
    });
  });
});

describe('a graph in use', () => {
  it('is queried without waiting for its load, yet a query never sees part of a write, nor another tenant\'s graph of the same id', async () => {
    await withPool({ inlineBudgetMs: 1_000, answerShaper: ANSWER_SHAPER_URL }, async (pool, store) => {
      const count = async (tenant: string) => JSON.parse(await pool.answer(tenant, 'g', 'MATCH (a:Actor) RETURN count(a) AS n', { limits: {}, shape: { includeProvenance: false } })).rows[0][0];
      expect(await count('t')).toBe(1);
      // a write large enough to be applied to the graph in slices, the loop turning between them: queries meanwhile see it whole or not at all
      const many = Array.from({ length: 30_000 }, (_, i) => actor(`m${i}`, `Member ${i}`));
      let written = false;
      const write = store.writeGraph('t', 'g', { nodes: many, edges: [] }).then(() => (written = true));
      const seen = new Set<number>();
      let queriedDuringWrite = 0;
      while (!written) {
        seen.add(await count('t'));
        queriedDuringWrite++;
        // (a query of a graph in use awaits no I/O: the loop has to be let turn for the write to go on)
        await new Promise((resolve) => setImmediate(resolve));
      }
      await write;
      // (queries during the write, or the check below proves nothing)
      expect(queriedDuringWrite).toBeGreaterThanOrEqual(2);
      expect([...seen].filter((n) => n !== 1 && n !== 30_001)).toEqual([]);
      expect(await count('t')).toBe(30_001);
      await store.writeGraph('u', 'g', { nodes: [actor('o', 'Other tenant')], edges: [] });
      expect(await count('u')).toBe(1);
      expect(await count('t')).toBe(30_001);
    });
  }, 60_000);
});

describe('rule calls', () => {
  it('are solved in a worker: a query calling one moves there, and this thread never starts a Prolog engine', async () => {
    await withPool({ inlineBudgetMs: 10_000 }, async (pool, store) => {
      await store.writeGraph('t', 'g', { nodes: [{ id: 'c', labels: ['Claim'], properties: { type: 'RedLine', text: 'No.' } }], edges: [] });
      expect((await pool.query('t', 'g', 'MATCH (a) WHERE actor(a) RETURN a.label', { limits: {} })).result.rows).toEqual([['Alpha']]);
      const { result } = await pool.query('t', 'g', 'MATCH (a) WHERE actor(a) RETURN a.label', { limits: {}, explain: true });
      expect(result.plan).toEqual(expect.arrayContaining([expect.stringContaining('call actor/1 of rule module lib')]));
      // an unknown function is still a compile error, found on this thread
      await expect(pool.query('t', 'g', 'MATCH (a) WHERE nosuch(a) RETURN a', { limits: {} })).rejects.toMatchObject({ code: 'unknown_function' });
      expect(Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('swipl'))).toEqual([]);
    });
  });
});

describe('shaped answers', () => {
  it('gives the same bytes whether the query ran on the event loop or was shaped in a worker', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-answer-'));
    const store = await ParleyStore.open(path.join(dir, 'store'));
    const inline = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 1_000, answerShaper: ANSWER_SHAPER_URL });
    const worker = await ReasoningPool.open(store, { workers: 1, inlineBudgetMs: 0, answerShaper: ANSWER_SHAPER_URL });
    try {
      const provenance = [{ source: 'doc-1', char_start: 0, char_end: 5, extractor: 'test', timestamp: '2024-01-01T00:00:00Z' }];
      await store.writeGraph('t', 'g', {
        nodes: [
          { ...actor('a', 'Alpha'), provenance },
          { id: 'c', labels: ['Claim'], properties: { type: 'RedLine', text: 'No retreat.' }, provenance },
        ],
        edges: [{ id: 'e', type: 'ASSERTS', from: 'a', to: 'c', provenance }],
      });
      const query = 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a, c';
      const shape = { includeProvenance: true };
      const [onLoop, inWorker] = await Promise.all([inline.answer('t', 'g', query, { limits: {}, shape }), worker.answer('t', 'g', query, { limits: {}, shape })]);
      expect(inWorker).toBe(onLoop);
      const body = JSON.parse(inWorker);
      expect(body.actors.map((a: { label: string }) => a.label)).toEqual(['Alpha']);
      expect(body.claims[0]).toMatchObject({ id: 'c', type: 'RedLine' });
      expect(body.claims[0].provenance).toBeDefined();
      expect(body.edges.map((e: { id: string }) => e.id)).toEqual(['e']);
      // a typed error crosses the thread boundary as itself
      await expect(worker.answer('t', 'g', 'MATCH (a RETURN a', { limits: {}, shape })).rejects.toMatchObject({ kind: 'query', line: 1 });
    } finally {
      await inline.close();
      await worker.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('trajectory periods', () => {
  it('covers the dated span with calendar months, quarters and years', () => {
    expect(periodsBetween('2023-11-20', '2024-02-03', 'month')).toEqual([
      { label: '2023-11', until: '2023-11-30' },
      { label: '2023-12', until: '2023-12-31' },
      { label: '2024-01', until: '2024-01-31' },
      { label: '2024-02', until: '2024-02-29' },
    ]);
    expect(periodsBetween('2023-08-01', '2024-04-01', 'quarter').map((p) => `${p.label}:${p.until}`)).toEqual([
      '2023-Q3:2023-09-30', '2023-Q4:2023-12-31', '2024-Q1:2024-03-31', '2024-Q2:2024-06-30',
    ]);
    expect(periodsBetween('2022-05-05', '2024-01-01', 'year').map((p) => p.label)).toEqual(['2022', '2023', '2024']);
  });
});
