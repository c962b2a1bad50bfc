/**
 * `parley analyze-corpus --queue` and `parley worker` as real processes over loopback, on each
 * queue backend (test/helpers/queue-backends.ts; PostgreSQL's in the store's own database): two workers build the
 * graph one process builds from a slice of the sample corpus, and so do they when one of them
 * is killed with SIGKILL part way (its jobs run again once their claim lapses), each document
 * once; a second run of the same command follows the finished flow and adds nothing; a queue
 * URL of another kind, a worker without a queue and --queue on a LevelDB store are usage errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ingestFolder } from '../../engine/ingest/batch.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { freshDatabase } from '../helpers/postgres.ts';
import { ROOT } from '../helpers/server-process.ts';
import { queueBackends, stopQueueBackends } from '../helpers/queue-backends.ts';
import { startWorker as startQueueWorker, type WorkerProcess } from '../helpers/worker-process.ts';

const BIN = path.join(ROOT, 'packages/cli/bin/parley.mjs');
const CORPUS = path.join(ROOT, 'corpora/sudan-drc-2024');
const SLICE = [
  'drc-01-sake-clashes.txt', 'drc-02-samidrc.md', 'drc-03-kinshasa-protests.html', 'drc-04-rwanda-mfa.txt', 'drc-05-luanda-ministers.md',
  'sudan-01-wad-madani.txt', 'sudan-02-igad-suspension.md', 'sudan-03-omdurman.html', 'sudan-04-unsc-ramadan.txt', 'sudan-05-rsf-anniversary.txt',
];
/** A short claim, so that a killed worker's jobs run again within seconds. */
const LOCK_MS = '3000';

let dir: string;
let folder: string;
let store: string;
let reference: string[];
const workers: ChildProcess[] = [];

function env(name: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PARLEY_STORE: store,
    PARLEY_DATA_DIR: path.join(dir, name),
    PARLEY_NER_MODEL_DIR: 'none',
    PARLEY_SYMBOLIC_WORKERS: '1',
    PARLEY_REASON_WORKERS: '1',
    PARLEY_QUEUE_LOCK_MS: LOCK_MS,
  };
}

/** A `parley worker` process on `queue`, killed after the tests when still running. */
async function startWorker(queue: string, name: string): Promise<WorkerProcess> {
  const worker = await startQueueWorker(queue, env(name));
  workers.push(worker.child);
  return worker;
}

/** Stops a worker (SIGTERM: it finishes the jobs in hand) and waits for it to exit. */
function stopped(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    worker.child.once('exit', () => resolve());
    worker.child.kill('SIGTERM');
  });
}

/** `parley analyze-corpus --queue <queue>` into `graph`; `onOutput` sees its output as it comes. */
function analyzeOnQueue(queue: string, graph: string, onOutput: (output: string) => void = () => undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'analyze-corpus', folder, '--graph', graph, '--queue', queue, '--no-report', '--progress', 'lines'], { cwd: ROOT, env: env('analyze'), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        onOutput(output);
      });
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function exported(graph: string): Promise<{ records: string[]; revision: number }> {
  const reader = await ParleyStore.open(store, { snapshotDir: path.join(dir, 'reader-snapshots') });
  try {
    return { records: await exportWithoutInstants(await reader.loadGraph('default', graph)), revision: await reader.graphRevision('default', graph) };
  } finally {
    await reader.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-queue-processes-'));
  folder = path.join(dir, 'corpus');
  await mkdir(folder);
  for (const name of SLICE) await copyFile(path.join(CORPUS, name), path.join(folder, name));
  store = await freshDatabase(inject('postgresUrl'));
  const { pipeline } = await openExtractionPipeline({ symbolicWorkers: 1 });
  const local = await ParleyStore.open(path.join(dir, 'reference'));
  try {
    await ingestFolder({ store: local, pipeline }, folder, { tenant: 'default', graphId: 'g', workers: 1 });
    reference = await exportWithoutInstants(await local.loadGraph('default', 'g'));
  } finally {
    await local.close();
    await pipeline.close();
  }
}, 120_000);

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stopQueueBackends();
  await rm(dir, { recursive: true, force: true });
});

describe.each(queueBackends())('on $kind', (backend) => {
  let queue: string;
  const running: WorkerProcess[] = [];
  beforeAll(async () => {
    queue = backend.kind === 'postgres' ? store : await backend.newQueue();
  });

  it('two worker processes build the graph one process builds; the same command again follows the finished flow and adds nothing', async () => {
    running.push(...(await Promise.all([startWorker(queue, `one-${backend.kind}`), startWorker(queue, `two-${backend.kind}`)])));
    const run = await analyzeOnQueue(queue, `g-${backend.kind}`);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`${SLICE.length} documents: ${SLICE.length} ingested, 0 skipped (already in the graph), 0 failed`);
    const first = await exported(`g-${backend.kind}`);
    expect(first.records).toEqual(reference);

    const again = await analyzeOnQueue(queue, `g-${backend.kind}`);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('following the flow enqueued before');
    expect((await exported(`g-${backend.kind}`)).revision).toBe(first.revision);
  }, 240_000);

  it('a worker killed with SIGKILL part way loses nothing: the run completes with every document once, the same graph', async () => {
    // the doomed worker alone takes the corpus's first documents; another takes over once it is killed
    await Promise.all(running.splice(0).map(stopped));
    const doomed = await startWorker(queue, `doomed-${backend.kind}`);
    let rescuer: Promise<WorkerProcess> | undefined;
    const run = await analyzeOnQueue(queue, `k-${backend.kind}`, () => {
      // once the doomed worker has finished a document it holds the next ones: kill it mid-job
      if (!rescuer && /^(ingested|skipped) /m.test(doomed.output())) {
        doomed.child.kill('SIGKILL');
        rescuer = startWorker(queue, `rescuer-${backend.kind}`);
      }
    });
    expect(rescuer).toBeDefined();
    await rescuer;
    expect(doomed.child.signalCode).toBe('SIGKILL');
    expect(run.code, run.output).toBe(0);
    const summary = /(\d+) documents: (\d+) ingested, (\d+) skipped \(already in the graph\), (\d+) failed/.exec(run.output);
    expect(summary).not.toBeNull();
    const [, total, ingested, skipped, failed] = summary!.map(Number);
    expect([total, ingested + skipped, failed]).toEqual([SLICE.length, SLICE.length, 0]);
    const { records } = await exported(`k-${backend.kind}`);
    expect(records).toEqual(reference);
    expect(records.filter((line) => line.includes('"Document"')).length).toBe(SLICE.length);
  }, 240_000);
});

it('refuses a queue that is not a redis:// or postgres:// URL, a worker without a queue, and --queue on a LevelDB store, each with exit 2 and what to do', async () => {
  const cli = (argv: string[], extra: NodeJS.ProcessEnv = {}) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const { PARLEY_QUEUE: _queue, ...without } = { ...env('usage'), ...extra };
      const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env: without, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.on('close', (code) => resolve({ code, output }));
    });
  const [badUrl, noQueue, level] = await Promise.all([
    cli(['worker', '--queue', 'http://user:secret@host/']),
    cli(['worker']),
    cli(['analyze-corpus', folder, '--graph', 'g', '--queue', store], { PARLEY_STORE: '' }),
  ]);
  expect(badUrl.code).toBe(2);
  expect(badUrl.output).toContain("must be a redis://, rediss://, postgres:// or postgresql:// URL (got 'http://…@host/')");
  expect(noQueue).toMatchObject({ code: 2, output: expect.stringContaining('worker needs --queue <url> (or PARLEY_QUEUE)') });
  expect(level).toMatchObject({ code: 2, output: expect.stringContaining('--queue needs a store the workers share: set PARLEY_STORE=postgres://') });
}, 120_000);
