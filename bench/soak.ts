/**
 * bench:soak — the server under a mixed load for a long while (issue 28): does it keep
 * answering, at what latency, and does its memory stay put? The server runs as `npm start`
 * runs it (child process, 127.0.0.1) over a generated conflict graph of --facts facts and a
 * workspace on it; --clients concurrent clients (node:http, keep-alive) each send, one after
 * another, a mix drawn from a seeded sequence. --analysts of them (default 8) ask for reasoning:
 *
 *   assess of the workspace                       60 %   analyze a question                    40 %
 *
 * the others query and write:
 *
 *   point query (one actor's red lines)           55 %   whole-graph query (claims per actor) 23 %
 *   import of 20 nodes (the same ids, new values) 11 %   ingest of a document (the same ones)  11 %
 *
 * A client waits for each answer, so a client that asks for assessments in turn holds one
 * reasoning call at all times: drawn from one mix, 50 clients ended up nearly all waiting on
 * assessments (some 40 calls at once, each at a new graph version, since every import makes
 * one), past the reasoning queue (PARLEY_REASON_MAX_QUEUE, 32: 503 reasoning_queue_full) or,
 * with the queue raised to 50, past the call's time limit on 2 cores (503 reasoning_timeout at
 * 120 s). The analysts keep the reasoning calls within the documented queue, and every other
 * client keeps writing, so each assess meets a graph changed since the last.
 *
 * Imports and ingests rewrite the same records, so the graph's size stays put and its memory
 * should too: the server's RSS (all its threads, from /proc) is sampled every 10 s and printed
 * per minute. After --warm-up minutes (default 5) RSS must stay within 10 % of its value at
 * the end of the warm-up and no request may fail; the last lines say whether it did, and how the
 * median RSS of the second half after the warm-up compares with the first half's (growth, not
 * the target).
 *
 * What moves RSS: each minute also gives its parts, from the server's smaps (WebAssembly memories,
 * the Prolog engines; glibc's heap and arenas; other anonymous memory: V8's pages, stacks) and from
 * a probe loaded into the server (bench/soak-probe.cjs, node --require): the main thread's V8 heap
 * used / committed and its external memory, each isolate's young generation (V8 grows it while the
 * thread allocates fast and gives it back once it allocates slowly), each reasoning worker's heap, the extraction workers
 * alive, and the workers started and ended so far. The last table gives each part's range after
 * the warm-up, so the part that swings with RSS stands out.
 *
 * --samples FILE writes every sample (RSS and its parts, every 10 s) to FILE as JSON.
 *
 *   npm run bench:soak [-- --minutes 30 --warm-up 5 --clients 50 --analysts 8 --facts 10000 --samples FILE]
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate, interchange } from './conflict-graph.ts';
import { keepAliveClient, startServer, stopServer } from './http.ts';
import { partsOf, probeArgs, type ProbeLine, type WorkerCounts } from './server-probe.ts';
import { median, memoryOf, percentile, type ResidentParts } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    'warm-up': { type: 'string', default: '5' },
    clients: { type: 'string', default: '50' },
    analysts: { type: 'string', default: '8' },
    facts: { type: 'string', default: '10000' },
    samples: { type: 'string' },
  },
});
const MINUTES = Number(args.minutes);
const WARM_UP_MINUTES = Number(args['warm-up']);
const CLIENTS = Number(args.clients);
const ANALYSTS = Number(args.analysts);
if (!(MINUTES > 0) || !(WARM_UP_MINUTES >= 0) || WARM_UP_MINUTES >= MINUTES || !(CLIENTS >= 1) || !(ANALYSTS >= 0 && ANALYSTS < CLIENTS)) {
  throw new Error('--minutes must exceed --warm-up, --clients be at least 1 and --analysts fewer than the clients');
}
const RSS_SAMPLE_MS = 10_000;
const RSS_TOLERANCE = 0.1;

const generated = generate(Number(args.facts));
const { nodes, edges } = interchange(generated.write);
const actors = nodes.filter((node) => node.kind === 'Actor').map((node) => node.id);
const corpus = path.resolve(import.meta.dirname, '../corpora');
const documents = await Promise.all(
  ['sudan-el-fasher.txt', 'sudan-rsf-statement.txt', 'sudan-jeddah-talks.md'].map(async (name) => ({ source: name, text: await readFile(path.join(corpus, name), 'utf8') })),
);
const QUESTIONS = ['Who could spoil an agreement?', 'Is the conflict escalating?', 'Is the conflict ripe for resolution?'];

/** The parts of the server's memory each minute's line gives (MB unless a count), in its order. */
const PART_NAMES = [
  'wasm (engines)',
  'malloc heap + arenas',
  'other anonymous',
  'main heap used / committed',
  'young generations committed (main; workers)',
  'main external (of it ArrayBuffers)',
  'reasoning heaps used / committed',
  'extraction heaps used / committed',
  'reasoning workers live (started / ended)',
  'extraction workers live (started / ended)',
] as const;
type Parts = Record<(typeof PART_NAMES)[number], string>;

/** A sample's parts as the report prints them: the first number of each is what the range table compares. */
function partsFrom(resident: ResidentParts, probe: ProbeLine): Parts {
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const heaps = (kind: keyof WorkerCounts) => {
    const heard = probe.workers.filter((worker) => worker.kind === kind && worker.heapCommitted !== undefined);
    const sum = (key: 'heapUsed' | 'heapCommitted') => heard.reduce((total, worker) => total + worker[key]!, 0);
    return `${mb(sum('heapUsed'))} / ${mb(sum('heapCommitted'))} (${heard.map((worker) => mb(worker.heapCommitted!)).join(', ')})`;
  };
  const youngGenerations = () => {
    const heard = probe.workers.filter((worker) => worker.young !== undefined);
    return `${mb(heard.reduce((total, worker) => total + worker.young!, probe.main.young))} (${mb(probe.main.young)}; ${heard.map((worker) => mb(worker.young!)).join(', ')})`;
  };
  return {
    'wasm (engines)': `${mb(resident.wasm)} (${resident.wasmMaps})`,
    'malloc heap + arenas': mb(resident.mallocHeap + resident.mallocArenas),
    'other anonymous': mb(resident.anonymous),
    'main heap used / committed': `${mb(probe.main.heapUsed)} / ${mb(probe.main.heapCommitted)}`,
    'young generations committed (main; workers)': youngGenerations(),
    'main external (of it ArrayBuffers)': `${mb(probe.main.external)} (${mb(probe.main.arrayBuffers)})`,
    'reasoning heaps used / committed': heaps('reasoning'),
    'extraction heaps used / committed': heaps('extraction'),
    'reasoning workers live (started / ended)': `${probe.live.reasoning} (${probe.started.reasoning} / ${probe.ended.reasoning})`,
    'extraction workers live (started / ended)': `${probe.live.extraction} (${probe.started.extraction} / ${probe.ended.extraction})`,
  };
}

let client: ReturnType<typeof keepAliveClient>;
const request = (method: string, url: string, key: string, body?: unknown) => client.send(method, url, key, body === undefined ? undefined : JSON.stringify(body));

/** The operations of the mix, with their weights (the analysts' and the other clients' apart); `send` gets the client's own random draw. */
function operations(key: string, workspace: string): { name: string; analysts: boolean; weight: number; send: (draw: number) => Promise<{ status: number; body: string }> }[] {
  return [
    {
      name: 'point query',
      analysts: false,
      weight: 55,
      send: (draw) => request('POST', '/v1/graph/query', key, {
        graph_id: 'g',
        query: "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE id(a) = $actor AND c.type = 'RedLine' RETURN id(c) AS c",
        parameters: { actor: actors[Math.floor(draw * actors.length)] },
      }),
    },
    {
      name: 'whole-graph query',
      analysts: false,
      weight: 23,
      send: () => request('POST', '/v1/graph/query', key, {
        graph_id: 'g',
        query: 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a.label AS actor, count(c) AS claims ORDER BY claims DESC, actor LIMIT 10',
      }),
    },
    {
      name: 'import (20 nodes)',
      analysts: false,
      weight: 11,
      send: (draw) => {
        // the same records with a new confidence: a real write that leaves the graph's size as it was
        const from = Math.floor(draw * (nodes.length - 20));
        const confidence = Math.round((0.5 + draw / 2) * 1_000) / 1_000;
        return request('POST', '/v1/graphs/g/import', key, { nodes: nodes.slice(from, from + 20).map((node) => ({ ...node, confidence })), edges: [] });
      },
    },
    { name: 'ingest', analysts: false, weight: 11, send: (draw) => request('POST', '/v1/graphs/documents/ingest', key, documents[Math.floor(draw * documents.length)]) },
    { name: 'assess', analysts: true, weight: 60, send: () => request('POST', `/v1/workspaces/${workspace}/assess`, key, {}) },
    { name: 'analyze', analysts: true, weight: 40, send: (draw) => request('POST', `/v1/workspaces/${workspace}/analyze`, key, { query: QUESTIONS[Math.floor(draw * QUESTIONS.length)] }) },
  ];
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-soak-'));
const probeFile = path.join(dir, 'probe.jsonl');
const adminKey = 'pk_bench_soak_admin_key_0123456789abcdef';
const server = await startServer(
  { PARLEY_DATA_DIR: path.join(dir, 'data'), PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_NER_MODEL_DIR: 'none', PARLEY_SOAK_PROBE: probeFile },
  probeArgs,
);
client = keepAliveClient(server.port, CLIENTS);
const pid = server.process.pid!;
try {
  const created = await request('POST', '/v1/keys', adminKey, { tenant: 'soak', scope: 'write' });
  const key = JSON.parse(created.body).api_key as string;
  const imported = await request('POST', '/v1/graphs/g/import', key, { nodes, edges });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${imported.body.slice(0, 300)}`);
  const workspace = await request('POST', '/v1/workspaces', key, { name: 'soak', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' });
  if (workspace.status !== 201) throw new Error(`workspace: ${workspace.status} ${workspace.body.slice(0, 300)}`);
  const mix = operations(key, JSON.parse(workspace.body).id as string);
  const mixOf = (analyst: boolean) => {
    const operations = mix.filter((operation) => operation.analysts === analyst);
    return { operations, totalWeight: operations.reduce((sum, operation) => sum + operation.weight, 0) };
  };

  console.log(`bench:soak — ${generated.facts.toLocaleString('en-US')} facts, ${CLIENTS} clients (${ANALYSTS} of them analysts), ${MINUTES} min (warm-up ${WARM_UP_MINUTES}), MALLOC_ARENA_MAX ${process.env.MALLOC_ARENA_MAX || '2 (the server sets it)'}, PARLEY_HEAP_GROWING_PERCENT ${process.env.PARLEY_HEAP_GROWING_PERCENT || '50 (the default)'}; load average ${loadavg()[0].toFixed(1)}`);
  const started = performance.now();
  const deadline = started + MINUTES * 60_000;
  const warmUpEnd = started + WARM_UP_MINUTES * 60_000;
  const latencies = new Map(mix.map((operation) => [operation.name, [] as number[]]));
  const errors = new Map(mix.map((operation) => [operation.name, [] as string[]]));
  let requestsThisMinute = 0;

  const rss: ({ at: number; parts: Parts | undefined; resident: ResidentParts; probe: ProbeLine | undefined } & Awaited<ReturnType<typeof memoryOf>>)[] = [];
  const sampler = setInterval(async () => {
    const [memory, { resident, probe }] = await Promise.all([memoryOf(pid), partsOf(pid, probeFile)]);
    rss.push({ at: performance.now() - started, ...memory, parts: probe && partsFrom(resident, probe), resident, probe });
  }, RSS_SAMPLE_MS);
  console.log(`| minute | requests | requests/s | server RSS MB | of it anonymous / file MB | threads | ${PART_NAMES.join(' | ')} | load average |\n|---|---|---|---|---|---|${PART_NAMES.map(() => '---|').join('')}---|`);
  let minute = 0;
  const reporter = setInterval(() => {
    minute++;
    const last = rss.at(-1);
    const memory = last ? `| ${last.megabytes.toFixed(0)} | ${last.anonymous.toFixed(0)} / ${last.files.toFixed(0)} | ${last.threads}` : '| – | – | –';
    const parts = PART_NAMES.map((name) => last?.parts?.[name] ?? '–').join(' | ');
    console.log(`| ${minute} | ${requestsThisMinute} | ${(requestsThisMinute / 60).toFixed(1)} ${memory} | ${parts} | ${loadavg()[0].toFixed(1)} |`);
    requestsThisMinute = 0;
  }, 60_000);

  await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
    // a seeded sequence per client: the same mix in every run
    let seed = 1_000 + client;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const { operations, totalWeight } = mixOf(client < ANALYSTS);
    while (performance.now() < deadline) {
      let choice = random() * totalWeight;
      const operation = operations.find((candidate) => (choice -= candidate.weight) < 0) ?? operations[operations.length - 1];
      const sent = performance.now();
      try {
        const answer = await operation.send(random());
        if (answer.status >= 300) errors.get(operation.name)!.push(`${answer.status} ${answer.body.slice(0, 200)}`);
      } catch (error) {
        errors.get(operation.name)!.push(String(error));
      }
      if (sent >= warmUpEnd) latencies.get(operation.name)!.push(performance.now() - sent);
      requestsThisMinute++;
    }
  }));
  clearInterval(sampler);
  clearInterval(reporter);
  const seconds = (performance.now() - warmUpEnd) / 1000;
  if (args.samples) await writeFile(args.samples, JSON.stringify(rss, null, 1));

  console.log(`\nafter the warm-up (${seconds.toFixed(0)} s):\n| operation | requests | requests/s | p50 ms | p99 ms | errors (whole run) |\n|---|---|---|---|---|---|`);
  for (const { name } of mix) {
    const sorted = [...latencies.get(name)!].sort((a, b) => a - b);
    const failed = errors.get(name)!;
    console.log(`| ${name} | ${sorted.length} | ${(sorted.length / seconds).toFixed(1)} | ${sorted.length ? percentile(sorted, 50).toFixed(1) : '–'} | ${sorted.length ? percentile(sorted, 99).toFixed(1) : '–'} | ${failed.length}${failed.length ? ` (first: ${failed[0]})` : ''} |`);
  }
  const afterWarmUp = rss.filter((sample) => sample.at >= WARM_UP_MINUTES * 60_000);
  const baseline = afterWarmUp[0]?.megabytes ?? rss.at(-1)!.megabytes;
  const highest = Math.max(...afterWarmUp.map((sample) => sample.megabytes));
  const lowest = Math.min(...afterWarmUp.map((sample) => sample.megabytes));
  const drift = Math.max(highest - baseline, baseline - lowest) / baseline;
  const failures = [...errors.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(`\nserver RSS after the warm-up: ${baseline.toFixed(0)} MB at its end, then ${lowest.toFixed(0)}–${highest.toFixed(0)} MB (${(drift * 100).toFixed(1)} % off; target within ${RSS_TOLERANCE * 100} %): ${drift <= RSS_TOLERANCE ? 'met' : 'NOT met'}`);
  console.log(`errors: ${failures} (target 0): ${failures === 0 ? 'met' : 'NOT met'}`);
  // each part's range after the warm-up beside RSS's: the one that swings as RSS does is what moves it
  console.log(`\nparts after the warm-up (MB, or a count), lowest–highest over ${afterWarmUp.length} samples:\n| part | lowest | highest | range |\n|---|---|---|---|`);
  for (const name of PART_NAMES) {
    const values = afterWarmUp.map((sample) => Number(sample.parts?.[name].split(' ')[0])).filter(Number.isFinite);
    if (values.length) console.log(`| ${name} | ${Math.min(...values)} | ${Math.max(...values)} | ${Math.max(...values) - Math.min(...values)} |`);
  }
  // beside the target, which one reading at the warm-up's end anchors (a transient peak there reads as a fall): the trend
  const half = Math.floor(afterWarmUp.length / 2);
  const medianOf = (samples: typeof rss) => median(samples.map((sample) => sample.megabytes));
  if (half > 0) {
    const [earlier, later] = [medianOf(afterWarmUp.slice(0, half)), medianOf(afterWarmUp.slice(half))];
    console.log(`server RSS trend after the warm-up: median ${earlier.toFixed(0)} MB over its first half, ${later.toFixed(0)} MB over its second (${(((later - earlier) / earlier) * 100).toFixed(1)} %)`);
  }
} finally {
  client.close();
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
}
