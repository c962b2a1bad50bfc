/**
 * npm run fuzz: the fuzz suite's generators at full count. Generated queries go to the
 * engine directly (runQuery over a small conflict graph); mutated import bodies and
 * generated queries go through the HTTP app (app.inject, real store in a temp dir).
 * Counts untyped errors and 5xx answers, prints the first few, exits 1 when any.
 *
 *   npm run fuzz [-- --queries 1000000 --http 20000 --seed 42]
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { runQuery } from '../../engine/query/index.ts';
import { makeTestApp } from '../helpers/app.ts';
import { conflictGraph } from '../query/fixtures.ts';
import { PARAMETERS, anyQuery, isTypedQueryError, mutatedImport } from './generators.ts';

const { values: args } = parseArgs({ options: { queries: { type: 'string', default: '1000000' }, http: { type: 'string', default: '20000' }, seed: { type: 'string' } } });
const QUERIES = Number(args.queries);
const HTTP = Number(args.http);
const seed = args.seed !== undefined ? Number(args.seed) : Date.now() % 2 ** 31;
/** Generated per batch: fast-check's sampling is cheap next to running the queries. */
const BATCH = 10_000;

const failures: string[] = [];
function record(what: string): void {
  if (failures.length < 20) failures.push(what);
  else failures.length++;
}

const started = Date.now();
console.log(`fuzz: seed ${seed}; ${QUERIES} engine queries, ${HTTP} HTTP import+query pairs`);
const graph = conflictGraph();
let done = 0;
for (let batch = 0; done < QUERIES; batch++) {
  for (const query of fc.sample(anyQuery, { numRuns: Math.min(BATCH, QUERIES - done), seed: seed + batch })) {
    try {
      runQuery(graph, query, { parameters: PARAMETERS, limits: { timeLimitMs: 50 } });
    } catch (error) {
      if (!isTypedQueryError(error)) record(`engine: ${JSON.stringify(query)} -> ${(error as Error)?.stack?.split('\n').slice(0, 3).join(' | ')}`);
    }
    done++;
  }
  if (done % 100_000 === 0 || done === QUERIES) console.log(`  engine: ${done} queries, ${((Date.now() - started) / 1000).toFixed(0)} s, untyped errors so far: ${failures.length}`);
}
const engineSeconds = (Date.now() - started) / 1000;

const t = await makeTestApp({ queryTimeoutMs: 500, authFailuresPerMinute: 0 });
const key = await t.keyFor('fuzz');
const httpStarted = Date.now();
let serverErrors = 0;
const pairs = fc.sample(fc.tuple(mutatedImport, anyQuery), { numRuns: HTTP, seed });
for (const [body, query] of pairs) {
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
await t.close();
const httpSeconds = (Date.now() - httpStarted) / 1000;

console.log(`\nengine: ${done} generated queries in ${engineSeconds.toFixed(0)} s (${(done / engineSeconds).toFixed(0)}/s)`);
console.log(`http: ${HTTP} mutated imports + ${HTTP} queries in ${httpSeconds.toFixed(0)} s; 5xx other than a limit: ${serverErrors}`);
console.log(`untyped errors, 500s and non-problem errors: ${failures.length}`);
for (const failure of failures.filter(Boolean)) console.log('  ' + failure);
process.exit(failures.length === 0 ? 0 : 1);
