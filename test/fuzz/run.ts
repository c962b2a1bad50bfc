/**
 * npm run fuzz: the fuzz suite's generators at full count.
 *   - Generated queries are answered the way the query route answers one that runs
 *     inline (answerLikeTheRoute: parameter check, engine under the default limits,
 *     the answer shaped into its HTTP body, errors mapped to their status by problems.ts),
 *     in --threads worker threads, without the HTTP round trip that made a million take hours.
 *   - A sample goes through the real HTTP app (app.inject, real store in a temp dir), on
 *     the main thread meanwhile: --http pairs of a mutated import body and a generated query.
 * Counts untyped errors, 5xx answers other than limits and error bodies that are not
 * problem+json, prints the first few, exits 1 when any.
 *
 *   npm run fuzz [-- --queries 1000000 --http 20000 --threads 2 --seed 42]
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { makeTestApp } from '../helpers/app.ts';
import { PARAMETERS, anyQuery, mutatedImport } from './generators.ts';
import type { FuzzBatchReport, FuzzWork } from './worker.ts';

const { values: args } = parseArgs({
  options: { queries: { type: 'string', default: '1000000' }, http: { type: 'string', default: '20000' }, threads: { type: 'string' }, seed: { type: 'string' } },
});
const QUERIES = Number(args.queries);
const HTTP = Number(args.http);
const THREADS = Math.max(1, Number(args.threads ?? availableParallelism()));
const seed = args.seed !== undefined ? Number(args.seed) : Date.now() % 2 ** 31;
/** Queries per batch: fast-check's sampling is cheap next to running them. */
const BATCH = 10_000;
/** A progress line after every this many engine queries. */
const PROGRESS = 50_000;

const failures: string[] = [];
function record(what: string): void {
  if (failures.length < 20) failures.push(what);
  else failures.length++;
}

const started = Date.now();
const seconds = (since: number) => (Date.now() - since) / 1000;
console.log(`fuzz: seed ${seed}; ${QUERIES} engine queries in ${THREADS} threads, ${HTTP} HTTP import+query pairs`);

const work: FuzzWork[] = Array.from({ length: THREADS }, () => ({ seed, batches: [] }));
for (let index = 0, left = QUERIES; left > 0; index++, left -= BATCH) work[index % THREADS].batches.push({ index, size: Math.min(BATCH, left) });
let done = 0;
let engineSeconds = 0;
const engine = Promise.all(
  work.map(
    (data) =>
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: data });
        worker.on('message', (report: FuzzBatchReport) => {
          const before = done;
          done += report.done;
          for (const failure of report.failures) record(failure);
          if (Math.floor(done / PROGRESS) > Math.floor(before / PROGRESS)) {
            console.log(`  engine: ${done} queries, ${seconds(started).toFixed(0)} s (${(done / seconds(started)).toFixed(0)}/s), failures so far: ${failures.length}`);
          }
        });
        worker.on('error', reject);
        worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fuzz worker exited with ${code}`))));
      }),
  ),
).then(() => (engineSeconds = seconds(started)));

const t = await makeTestApp({ queryTimeoutMs: 500, authFailuresPerMinute: 0 });
const key = await t.keyFor('fuzz');
let serverErrors = 0;
for (const [body, query] of fc.sample(fc.tuple(mutatedImport, anyQuery), { numRuns: HTTP, seed })) {
  const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/fuzz/import', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: body });
  const answered = await t.app.inject({ method: 'POST', url: '/v1/graph/query', headers: { 'x-api-key': key }, payload: { graph_id: 'fuzz', query, parameters: PARAMETERS } });
  for (const [what, response] of [['import', imported], ['query', answered]] as const) {
    const problem = response.statusCode >= 400 && !/^application\/problem\+json/.test(String(response.headers['content-type']));
    if (response.statusCode >= 500 && !(response.statusCode === 503 && /limit|queue/.test(response.json().code))) {
      serverErrors++;
      record(`http ${what}: ${response.statusCode} ${response.body.slice(0, 200)} for ${JSON.stringify(what === 'import' ? body : query).slice(0, 300)}`);
    } else if (problem) record(`http ${what}: ${response.statusCode} not problem+json`);
  }
}
const httpSeconds = seconds(started);
await t.close();
await engine;

console.log(`\nengine (the route's inline path, ${THREADS} threads): ${done} generated queries in ${engineSeconds.toFixed(0)} s (${(done / engineSeconds).toFixed(0)}/s)`);
console.log(`http (app.inject, meanwhile): ${HTTP} mutated imports + ${HTTP} queries in ${httpSeconds.toFixed(0)} s (${((2 * HTTP) / httpSeconds).toFixed(0)} requests/s); 5xx other than a limit: ${serverErrors}`);
console.log(`untyped errors, 500s and non-problem errors: ${failures.length}`);
for (const failure of failures.filter(Boolean)) console.log('  ' + failure);
process.exit(failures.length === 0 ? 0 : 1);
