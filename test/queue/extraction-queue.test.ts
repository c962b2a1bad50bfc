/**
 * The extraction queue in one process (engine/queue/extraction.ts), on each queue backend
 * (test/helpers/queue-backends.ts): two workers, each with its own store on one PostgreSQL
 * database as two machines would have, commit a corpus slice into the graph one process
 * builds; the same corpus enqueued again adds nothing; a poison document ends in the
 * failed list with its error, tried once, and the others complete.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openExtractionPipeline, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ingestFolder, listCorpus } from '../../engine/ingest/batch.ts';
import { readSource } from '../../engine/extract/source.ts';
import { extractionJobs, queueConnection } from '../../engine/queue/connection.ts';
import { documentFailure, documentJobId, enqueueCorpus, followCorpus, startExtractionWorker, type DocumentOutcome, type ExtractionWorker, type QueuedDocument } from '../../engine/queue/extraction.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { freshDatabase } from '../helpers/postgres.ts';
import { makeTestApp } from '../helpers/app.ts';
import { queueBackends, stopQueueBackends } from '../helpers/queue-backends.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../corpora/sudan-drc-2024');
/** A slice of the sample corpus from both of its conflicts: enough for actors shared across documents. */
const SLICE = ['drc-01-sake-clashes.txt', 'drc-02-samidrc.md', 'drc-04-rwanda-mfa.txt', 'sudan-01-wad-madani.txt', 'sudan-02-igad-suspension.md', 'sudan-03-omdurman.html'];

let dir: string;
let pipeline: ExtractionPipeline;
let documents: QueuedDocument[];
let reference: string[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-queue-'));
  ({ pipeline } = await openExtractionPipeline({ symbolicWorkers: 1 }));
  const folder = path.join(dir, 'corpus');
  await mkdir(folder);
  for (const name of SLICE) await copyFile(path.join(CORPUS, name), path.join(folder, name));
  documents = [];
  for (const source of await listCorpus(folder)) {
    const read = await readSource(folder, source);
    documents.push({ source: read.source, text: read.text, ...(read.title ? { title: read.title } : {}) });
  }
  // the graph analyze-corpus builds in one process
  const store = await ParleyStore.open(path.join(dir, 'reference'));
  try {
    const summary = await ingestFolder({ store, pipeline }, folder, { tenant: 'default', graphId: 'g', workers: 1 });
    expect(summary.ingested).toBe(SLICE.length);
    reference = await exportWithoutInstants(await store.loadGraph('default', 'g'));
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  await pipeline?.close();
  await stopQueueBackends();
  await rm(dir, { recursive: true, force: true });
});

describe.each(queueBackends())('the extraction queue on $kind', (backend) => {
  let queue: string;
  let storeUrl: string;
  const stores: ParleyStore[] = [];
  const workers: ExtractionWorker[] = [];

  beforeAll(async () => {
    queue = await backend.newQueue();
    storeUrl = await freshDatabase(inject('postgresUrl'));
    for (const name of ['one', 'two']) {
      const store = await ParleyStore.open(storeUrl, { snapshotDir: path.join(dir, backend.kind, name) });
      stores.push(store);
      const worker = startExtractionWorker(queue, { store, pipeline }, { concurrency: 2, lockMs: 5_000 });
      await worker.ready;
      workers.push(worker);
    }
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    for (const store of stores) await store.close();
  });

  async function run(tenant: string, graphId: string, corpus: QueuedDocument[]) {
    const enqueued = await enqueueCorpus(queue, tenant, graphId, corpus, { backoffMs: 100 });
    const seen: Record<string, DocumentOutcome> = {};
    const outcome = await followCorpus(queue, enqueued, (jobId, document) => (seen[jobId] = document));
    return { enqueued, outcome, seen };
  }

  it('two workers commit the corpus in its order: the graph one process builds; the same corpus again adds nothing', async () => {
    const first = await run('default', 'g', documents);
    expect(first.enqueued.resumed).toBe(false);
    expect(Object.values(first.outcome.results).map((result) => result.status)).toEqual(SLICE.map(() => 'ingested'));
    expect(first.outcome.failures).toEqual({});
    expect(Object.keys(first.seen).sort()).toEqual([...first.enqueued.jobIds].sort());
    // committed in the corpus's order, whichever worker drafted each document first
    const revisions = first.enqueued.jobIds.map((jobId) => first.outcome.results[jobId].revision);
    expect(revisions.every((revision, i) => i === 0 || revision > revisions[i - 1]), revisions.join(' ')).toBe(true);
    const reader = await ParleyStore.open(storeUrl, { snapshotDir: path.join(dir, backend.kind, 'reader') });
    try {
      expect(await exportWithoutInstants(await reader.loadGraph('default', 'g'))).toEqual(reference);
      const revision = await reader.graphRevision('default', 'g');

      const again = await run('default', 'g', documents);
      expect(again.enqueued).toEqual({ ...first.enqueued, resumed: true });
      expect(again.outcome.results).toEqual(first.outcome.results);
      await reader.close();
      const after = await ParleyStore.open(storeUrl, { snapshotDir: path.join(dir, backend.kind, 'after') });
      try {
        expect(await after.graphRevision('default', 'g')).toBe(revision);
      } finally {
        await after.close();
      }
    } finally {
      await reader.close().catch(() => undefined);
    }
  });

  it('a document the graph holds, delivered again in another corpus, adds nothing; a poison document fails once with its error and the others complete', async () => {
    const poison = { source: 'blank.txt', text: '   \n  ' };
    const fresh = { source: 'note.txt', text: 'The RSF shelled El Fasher on 10 May 2024, the governor said.' };
    const { enqueued, outcome } = await run('default', 'g', [documents[0], poison, fresh]);
    const [known, poisonId, freshId] = enqueued.jobIds;
    expect(outcome.results[known]).toMatchObject({ source: documents[0].source, status: 'skipped' });
    expect(outcome.results[freshId]).toMatchObject({ source: 'note.txt', status: 'ingested' });
    expect(outcome.failures).toEqual({ [poisonId]: expect.stringContaining('(empty_text)') });
    expect(documentFailure(outcome.failures[poisonId])).toMatchObject({ code: 'empty_text', reason: expect.not.stringContaining('(empty_text)') });
    expect(documentFailure('Connection terminated unexpectedly')).toEqual({ code: 'extraction_failed', reason: 'Connection terminated unexpectedly' });
    expect(poisonId).toBe(documentJobId('default', 'g', poison.text));

    const jobs = extractionJobs(queueConnection(queue));
    try {
      const failed = await jobs.getJob(poisonId);
      expect(await failed!.getState()).toBe('failed');
      expect(failed!.attemptsMade).toBe(1);
    } finally {
      await jobs.close();
    }
  });

  it('a store error is tried again: the document commits once the store is back; while it stays down, the document fails after its tries with the error and nothing is written', async () => {
    const retried = await backend.newQueue();
    const store = await ParleyStore.open(storeUrl, { snapshotDir: path.join(dir, backend.kind, 'flaky') });
    const flaky = storeGoingDown(store);
    // the store comes back once a try has failed, unless told to stay down
    let staysDown = false;
    const onDocument = (_source: string, outcome: DocumentOutcome) => {
      if ('error' in outcome && !staysDown) flaky.down = false;
    };
    const worker = startExtractionWorker(retried, { store: flaky.store, pipeline }, { concurrency: 1, lockMs: 5_000, onDocument });
    const jobs = extractionJobs(queueConnection(retried));
    try {
      await worker.ready;
      flaky.down = true;
      const passing = { source: 'passing.txt', text: 'The SAF bombed Nyala on 3 June 2024, the RSF said.' };
      const first = await enqueueCorpus(retried, 'default', 'flaky', [passing], { attempts: 3, backoffMs: 50 });
      const passed = await followCorpus(retried, first, () => undefined);
      expect(passed.failures).toEqual({});
      expect(passed.results[first.jobIds[0]]).toMatchObject({ status: 'ingested' });
      const passedJob = await jobs.getJob(first.jobIds[0]);
      expect([await passedJob!.getState(), passedJob!.attemptsMade]).toEqual(['completed', 2]);

      staysDown = true;
      flaky.down = true;
      const revision = await store.graphRevision('default', 'flaky');
      const lasting = { source: 'lasting.txt', text: 'The RSF shelled El Obeid on 4 June 2024, the governor said.' };
      const second = await enqueueCorpus(retried, 'default', 'flaky', [lasting], { attempts: 3, backoffMs: 50 });
      const failed = await followCorpus(retried, second, () => undefined);
      expect(failed.failures).toEqual({ [second.jobIds[0]]: expect.stringContaining(STORE_DOWN) });
      const failedJob = await jobs.getJob(second.jobIds[0]);
      expect([await failedJob!.getState(), failedJob!.attemptsMade]).toEqual(['failed', 3]);
      expect(await store.graphRevision('default', 'flaky')).toBe(revision);
    } finally {
      await jobs.close();
      await worker.close();
      await store.close();
    }
  });

  it('health reports the queue next to the store: its backend and its jobs by state; an unreachable one as such', async () => {
    const served = await makeTestApp({ queue });
    const unreachable = await makeTestApp({ queue: backend.kind === 'redis' ? 'redis://127.0.0.1:1' : 'postgres://parley:wrong@127.0.0.1:1/none' });
    try {
      const health = (await served.app.inject({ method: 'GET', url: '/v1/health' })).json();
      // the poison document of the test before is kept in the failed list
      expect(health).toEqual({ status: 'ok', store: { kind: 'leveldb' }, queue: { kind: backend.kind, reachable: true, waiting: 0, active: 0, delayed: 0, failed: 1 }, reasoning: { workers: expect.any(Array) } });
      const down = await unreachable.app.inject({ method: 'GET', url: '/v1/health' });
      expect(down.statusCode).toBe(200);
      expect(down.json().queue).toEqual({ kind: backend.kind, reachable: false });
    } finally {
      await served.close();
      await unreachable.close();
    }
  });
});

const STORE_DOWN = 'Connection terminated unexpectedly';

/** `store` whose graph writes throw, while `down`, what a PostgreSQL store throws when its connection drops: an error that is not the document's fault. */
function storeGoingDown(store: ParleyStore): { store: ParleyStore; down: boolean } {
  const writes = new Set<PropertyKey>(['writeGraph', 'writeGraphs']);
  const state = {
    down: false,
    store: new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (!writes.has(key)) return value.bind(target);
        return async (...args: unknown[]) => {
          if (state.down) throw new Error(STORE_DOWN);
          return value.apply(target, args);
        };
      },
    }),
  };
  return state;
}
