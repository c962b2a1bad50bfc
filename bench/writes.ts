/**
 * bench:writes — does a large write stall everyone else? The server runs as `npm start`
 * runs it, in a child process listening on 127.0.0.1. A third process (bench/health-probe.ts)
 * sends GET /v1/health every 10 ms (open loop: a stall delays every request due during it),
 * so that this process's own work (sending the body, reading the export) does not count as
 * the server's. It prints p50/p99/max:
 *   - with nothing else running (the baseline, same run),
 *   - while a generated conflict graph of --facts facts (200k by default) is imported in
 *     one request, once as JSON and once as JSON Lines (each into a graph of its own),
 *   - while a graph of --export-facts facts (420k by default: about 34 MB of JSON Lines, the
 *     issue's export), imported beforehand in parts, is exported (GET …/export, the body
 *     read as it streams; its size printed).
 * Beside each row, the server's own turns of the event loop longer than 20 ms meanwhile
 * (bench/loop-watch.ts, loaded into the server) and the CPU the longest took: a long turn
 * with little CPU is the server waiting for a core, not its own work. With --cpu-prof-dir
 * the server writes a CPU profile there, and each long turn is listed with what ran in it
 * (bench/long-turns.ts).
 *
 * Target (issue 12, a note, not a test): health p99 under 50 ms during a 200k-fact import and a 34 MB export.
 *
 *   npm run bench:writes [-- --facts 200000 --export-facts 420000 --formats json,ndjson --cpu-prof-dir DIR]
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate, interchange } from './conflict-graph.ts';
import { healthEvery, postJson, probeHealth, startServer, stopServer } from './http.ts';
import { explainTurns } from './long-turns.ts';

const { values: args } = parseArgs({
  options: { facts: { type: 'string', default: '200000' }, 'export-facts': { type: 'string', default: '420000' }, formats: { type: 'string', default: 'json,ndjson' }, 'cpu-prof-dir': { type: 'string' } },
});
const FACTS = Number(args.facts);
const FORMATS = args.formats!.split(',') as ('json' | 'ndjson')[];
const IDLE_MS = 5_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
function report(what: string, latencies: number[] & { errors: number }, extra: string): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  console.log(`| ${what} | ${sorted.length} | ${f(percentile(sorted, 50))} | ${f(percentile(sorted, 99))} | ${f(sorted[sorted.length - 1])} | ${latencies.errors} | ${extra} |`);
}

const generated = generate(FACTS);
const records = interchange(generated.write);
const bodies = {
  json: Buffer.from(JSON.stringify(records)),
  ndjson: Buffer.from([...records.nodes.map((node) => JSON.stringify({ node })), ...records.edges.map((edge) => JSON.stringify({ edge }))].join('\n')),
};

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-writes-'));
const profileDir = args['cpu-prof-dir'];
const watchFile = path.join(dir, 'loop-watch.json');
const adminKey = 'pk_bench_writes_admin_key_0123456789abcdef';
const server = await startServer(
  {
    PARLEY_DATA_DIR: path.join(dir, 'data'),
    PARLEY_ADMIN_KEY: adminKey,
    PARLEY_RATE_LIMIT_PER_MINUTE: '0',
    PARLEY_NER_MODEL_DIR: 'none',
    PARLEY_IMPORT_LIMIT_BYTES: String(Math.max(64 << 20, 2 * bodies.json.length)),
    PARLEY_BENCH_LOOP_WATCH: watchFile,
  },
  ['--import', 'tsx', '--import', './bench/loop-watch.ts', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
);
/** What each row measured: its name, its time window (µs, monotonic clock: the server's long turns are matched to it), its latencies. */
const phases: { what: string; startUs: number; endUs: number; latencies: number[] & { errors: number }; extra: string }[] = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
/** Probes health from its own process while `work` runs (or for `idleMs`). */
async function phase(what: string, work: () => Promise<string>): Promise<void> {
  const probe = await probeHealth(server.base);
  const startUs = nowUs();
  const extra = await work().catch(async (error) => {
    await probe.stop();
    throw error;
  });
  const endUs = nowUs();
  phases.push({ what, startUs, endUs, latencies: await probe.stop(), extra });
}
const idle = () => new Promise<string>((resolve) => setTimeout(() => resolve(''), IDLE_MS));
try {
  const { base } = server;
  const key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'write' })).json.api_key as string;
  console.log(`bench:writes — ${generated.facts.toLocaleString('en-US')} facts (${generated.nodes} nodes, ${generated.edges} edges); JSON body ${(bodies.json.length / 1e6).toFixed(1)} MB, JSON Lines ${(bodies.ndjson.length / 1e6).toFixed(1)} MB; load average ${loadavg()[0].toFixed(1)}`);
  await healthEvery(base, () => false, 10, 500); // warm-up
  await phase('nothing else runs (baseline)', idle);

  for (const format of FORMATS) {
    await phase(`a ${generated.facts.toLocaleString('en-US')}-fact import (${format}) runs`, async () => {
      const started = performance.now();
      const response = await fetch(`${base}/v1/graphs/g-${format}/import`, {
        method: 'POST',
        headers: { 'content-type': format === 'json' ? 'application/json' : 'application/x-ndjson', 'x-api-key': key },
        body: bodies[format],
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`import answered ${response.status}: ${body.slice(0, 500)}`);
      return `import ${((performance.now() - started) / 1000).toFixed(1)} s`;
    });
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
  let bytes = 0;
  await phase('an export runs', async () => {
    const started = performance.now();
    const response = await fetch(`${base}/v1/graphs/${exported}/export`, { headers: { 'x-api-key': key } });
    if (response.status !== 200) throw new Error(`export answered ${response.status}`);
    for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
    return `export ${((performance.now() - started) / 1000).toFixed(1)} s`;
  });
  phases.at(-1)!.what = `a ${(bytes / 1e6).toFixed(1)} MB export runs`;
  await phase('nothing else runs (baseline, again)', idle);
} finally {
  await stopServer(server);
}

const watch = JSON.parse(await readFile(watchFile, 'utf8')) as { delayP99Ms: number; delayMaxMs: number; turns: { startUs: number; endUs: number; cpuMs: number }[] };
await rm(dir, { recursive: true, force: true });
console.log('| /v1/health while … | samples | p50 ms | p99 ms | max ms | errors | server turns > 20 ms | longest (its CPU ms) | |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const { what, startUs, endUs, latencies, extra } of phases) {
  const turns = watch.turns.filter((turn) => turn.endUs > startUs && turn.startUs < endUs);
  const longest = turns.reduce((a, b) => (b.endUs - b.startUs > a.endUs - a.startUs ? b : a), { startUs: 0, endUs: 0, cpuMs: 0 });
  report(what, latencies, `${turns.length} | ${((longest.endUs - longest.startUs) / 1000).toFixed(0)} (${longest.cpuMs.toFixed(0)}) | ${extra}`);
}
console.log(`server loop delay over the run (perf_hooks): p99 ${watch.delayP99Ms.toFixed(1)} ms, max ${watch.delayMaxMs.toFixed(1)} ms`);
if (profileDir) {
  // the main thread's profile: thread id 0 in the file name CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile
  const main = (await readdir(profileDir)).filter((name) => name.split('.')[4] === '0').map((name) => path.join(profileDir, name)).sort().at(-1)!;
  console.log(`long turns of the server (profile ${main}):`);
  const list = (entries: [string, number][]) => entries.slice(0, 4).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join('; ');
  for (const turn of explainTurns(JSON.parse(await readFile(main, 'utf8')), watch.turns)) {
    console.log(`  at ${turn.startMs.toFixed(0)} ms, ${turn.ms.toFixed(0)} ms (CPU ${turn.cpuMs.toFixed(0)}) — steps: ${list(turn.steps)} — self: ${list(turn.self)}`);
  }
}
