/**
 * bench:writes — does a large write stall everyone else? The server runs as `npm start`
 * runs it, in a child process listening on 127.0.0.1 (so the client's own work does not
 * share its event loop). This process sends GET /v1/health every 10 ms (open loop: a stall
 * delays every request due during it) and prints p50/p99/max:
 *   - with nothing else running (the baseline, same run),
 *   - while a generated conflict graph of --facts facts (200k by default) is imported in
 *     one request, once as JSON and once as JSON Lines (each into a graph of its own),
 *   - while a graph of --export-facts facts (420k by default: about 34 MB of JSON Lines, the
 *     issue's export), imported beforehand in parts, is exported (GET …/export, the body
 *     read as it streams; its size printed).
 *
 * Target (issue 12, a note, not a test): health p99 under 50 ms during a 200k-fact import and a 34 MB export.
 *
 *   npm run bench:writes [-- --facts 200000 --export-facts 420000 --formats json,ndjson]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { healthEvery, postJson, startServer, stopServer } from './http.ts';
import type { GraphWrite } from '../engine/store/store.ts';

const { values: args } = parseArgs({
  options: { facts: { type: 'string', default: '200000' }, 'export-facts': { type: 'string', default: '420000' }, formats: { type: 'string', default: 'json,ndjson' } },
});
const FACTS = Number(args.facts);
const FORMATS = args.formats!.split(',') as ('json' | 'ndjson')[];
const IDLE_MS = 5_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
function report(what: string, latencies: number[] & { errors: number }, extra = ''): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  console.log(`| ${what} | ${sorted.length} | ${f(percentile(sorted, 50))} | ${f(percentile(sorted, 99))} | ${f(sorted[sorted.length - 1])} | ${latencies.errors} | ${extra} |`);
}

/** The interchange records (transfer.ts) of a generated write. */
function interchange(write: GraphWrite) {
  const nodes = write.nodes.map(({ id, labels: [kind, ...labels], properties, confidence }) => ({ kind, id, ...(labels.length ? { labels } : {}), ...properties, confidence }));
  const edges = write.edges.map(({ id, type, from, to, properties, confidence }) => ({ type, ...(id ? { id } : {}), from, to, ...properties, confidence }));
  return { nodes, edges };
}

const generated = generate(FACTS);
const records = interchange(generated.write);
const bodies = {
  json: Buffer.from(JSON.stringify(records)),
  ndjson: Buffer.from([...records.nodes.map((node) => JSON.stringify({ node })), ...records.edges.map((edge) => JSON.stringify({ edge }))].join('\n')),
};

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-writes-'));
const adminKey = 'pk_bench_writes_admin_key_0123456789abcdef';
const server = await startServer({
  PARLEY_DATA_DIR: dir,
  PARLEY_ADMIN_KEY: adminKey,
  PARLEY_RATE_LIMIT_PER_MINUTE: '0',
  PARLEY_NER_MODEL_DIR: 'none',
  PARLEY_IMPORT_LIMIT_BYTES: String(Math.max(64 << 20, 2 * bodies.json.length)),
});
try {
  const { base } = server;
  const key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'write' })).json.api_key as string;
  console.log(`bench:writes — ${generated.facts.toLocaleString('en-US')} facts (${generated.nodes} nodes, ${generated.edges} edges); JSON body ${(bodies.json.length / 1e6).toFixed(1)} MB, JSON Lines ${(bodies.ndjson.length / 1e6).toFixed(1)} MB; load average ${loadavg()[0].toFixed(1)}`);
  console.log('| /v1/health while … | samples | p50 ms | p99 ms | max ms | errors | |');
  console.log('|---|---|---|---|---|---|---|');
  await healthEvery(base, () => false, 10, 500); // warm-up
  report('nothing else runs (baseline)', await healthEvery(base, () => false, 10, IDLE_MS));

  for (const format of FORMATS) {
    const graph = `g-${format}`;
    let done = false;
    const started = performance.now();
    const importing = fetch(`${base}/v1/graphs/${graph}/import`, {
      method: 'POST',
      headers: { 'content-type': format === 'json' ? 'application/json' : 'application/x-ndjson', 'x-api-key': key },
      body: bodies[format],
    })
      .then(async (response) => ({ status: response.status, body: await response.text(), ms: performance.now() - started }))
      .finally(() => (done = true));
    const during = await healthEvery(base, () => done);
    const result = await importing;
    if (result.status !== 200) throw new Error(`import answered ${result.status}: ${result.body.slice(0, 500)}`);
    report(`a ${generated.facts.toLocaleString('en-US')}-fact import (${format}) runs`, during, `import ${(result.ms / 1000).toFixed(1)} s`);
  }

  // the graph to export, imported in parts beforehand
  const exported = 'g-export';
  const big = interchange(generate(Number(args['export-facts'])).write);
  const PART = 50_000;
  const lines = [...big.nodes.map((node) => JSON.stringify({ node })), ...big.edges.map((edge) => JSON.stringify({ edge }))];
  for (let i = 0; i < lines.length; i += PART) {
    const response = await fetch(`${base}/v1/graphs/${exported}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-api-key': key },
      body: lines.slice(i, i + PART).join('\n'),
    });
    if (response.status !== 200) throw new Error(`export graph import answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }

  let done = false;
  let bytes = 0;
  const started = performance.now();
  const exporting = (async () => {
    const response = await fetch(`${base}/v1/graphs/${exported}/export`, { headers: { 'x-api-key': key } });
    if (response.status !== 200) throw new Error(`export answered ${response.status}`);
    for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
    return performance.now() - started;
  })().finally(() => (done = true));
  const during = await healthEvery(base, () => done);
  const exportMs = await exporting;
  report(`a ${(bytes / 1e6).toFixed(1)} MB export runs`, during, `export ${(exportMs / 1000).toFixed(1)} s`);
  report('nothing else runs (baseline, again)', await healthEvery(base, () => false, 10, IDLE_MS));
} finally {
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
}
