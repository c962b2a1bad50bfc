/**
 * bench:query — latency of the query engine against the physical floor.
 *
 * For graphs of 10k, 100k and 1M facts (N facts = N/5 nodes, 2N/5 properties,
 * 2N/5 edges, the shape of notes/measurements.md) built here, runs four queries
 * through runQuery and, in the same run, a hand-written TypeScript join over the
 * same GraphIndex; prints p50/p95 of each and the ratio engine/hand-written.
 * Target: the 2-hop (RedLine) query within 3x of the hand-written join at 100k.
 *
 * Then over real HTTP (127.0.0.1, port 0, fetch) on a 100k-fact graph written into a
 * ParleyStore in a temp dir, in the same run:
 *   (a) point-query latency on two paths: the current route, POST /v1/graph/query, which
 *       runs the query in the reasoning pool's workers; and the previous path, runQuery on
 *       the event loop over the main thread's index. The app is built by buildApp, which
 *       readies it (no route can be added after), so the previous path is a second app
 *       built by buildApp in this process whose `reasoning.query` runs runQuery inline
 *       (what the route did before the pool: same validation, auth, shaping and
 *       serialisation, only where the query runs differs). Requests alternate between the
 *       two in rounds. Requirement (the issue's): no point query more than 20% slower.
 *   (b) /v1/health p50/p99 (beside the event loop's own delay, perf_hooks) with nothing
 *       running, and while 4 heavy queries run at once (clients repeating them for a fixed
 *       window), through the real route and, as the baseline, through the previous path.
 *       Target: health p99 under 50 ms.
 * Rate limiting is off in these apps (PARLEY_RATE_LIMIT_PER_MINUTE=0): the bench sends
 * thousands of requests a minute with one key.
 *
 *   npx tsx bench/query.ts [sizes...]     e.g. npx tsx bench/query.ts 10000 100000
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createExtractionPipeline } from '../engine/extract/pipeline.ts';
import { CLAIM_TYPES, type EdgeRecord, type NodeRecord } from '../engine/ontology/index.ts';
import { runQuery } from '../engine/query/index.ts';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { buildApp } from '../server/app.ts';
import { shapeAnswer } from '../server/shape/query-answer.ts';
import { loadConfig, reasoningOptions } from '../server/config.ts';
import { healthUntil as healthSamples, loopDelay, postJson as post } from './http.ts';

const RECORDED_AT = '2024-01-01T00:00:00.000Z';

/** A deterministic pseudo-random sequence, so every run measures the same graph. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function buildGraph(facts: number): GraphIndex {
  const random = lcg(42);
  const nodeCount = Math.floor(facts / 5);
  const actorCount = Math.floor(nodeCount * 0.4);
  const claimCount = nodeCount - actorCount;
  const edgeCount = Math.floor((2 * facts) / 5);
  const nodes: NodeRecord[] = [];
  for (let i = 0; i < actorCount; i++) {
    nodes.push({ id: `a${i}`, labels: ['Actor'], properties: { label: `actor ${i}`, role: 'party' }, confidence: 0.9, provenance: [], recorded_at: RECORDED_AT });
  }
  for (let i = 0; i < claimCount; i++) {
    const type = CLAIM_TYPES[Math.floor(random() * CLAIM_TYPES.length)];
    nodes.push({ id: `c${i}`, labels: ['Claim'], properties: { type, text: `claim ${i}` }, confidence: 0.8, provenance: [], recorded_at: RECORDED_AT });
  }
  const edges: EdgeRecord[] = [];
  for (let i = 0; i < edgeCount; i++) {
    const from = `a${Math.floor(random() * actorCount)}`;
    // three quarters ASSERTS (actor → claim), one quarter ALLIED_WITH (actor → actor)
    const asserts = random() < 0.75;
    const to = asserts ? `c${Math.floor(random() * claimCount)}` : `a${Math.floor(random() * actorCount)}`;
    edges.push({ id: `e${i}`, type: asserts ? 'ASSERTS' : 'ALLIED_WITH', from, to, properties: {}, confidence: 0.7, provenance: [], recorded_at: RECORDED_AT });
  }
  return GraphIndex.fromRecords(nodes, edges);
}

interface Case {
  name: string;
  query: string;
  parameters?: Record<string, unknown>;
  /** The same answer computed by hand over the indexes; returns the row count. */
  handWritten(graph: GraphIndex): number;
}

const CASES: Case[] = [
  {
    name: '1-hop',
    query: 'MATCH (a:Actor {label: $label})-[:ALLIED_WITH]->(b:Actor) RETURN b',
    parameters: { label: 'actor 7' },
    handWritten(graph) {
      const rows: NodeRecord[] = [];
      for (const id of graph.nodesWithProperty('label', 'actor 7')) {
        if (!graph.node(id)!.labels.includes('Actor')) continue;
        for (const edge of graph.edgesOf(id, 'out', ['ALLIED_WITH'])) {
          const b = graph.node(edge.to)!;
          if (b.labels.includes('Actor')) rows.push(b);
        }
      }
      return rows.length;
    },
  },
  {
    name: '2-hop RedLine',
    query: "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) WHERE c.type = 'RedLine' RETURN a, c",
    handWritten(graph) {
      const rows: [NodeRecord, NodeRecord][] = [];
      for (const id of graph.nodesWithProperty('type', 'RedLine')) {
        const claim = graph.node(id)!;
        if (!claim.labels.includes('Claim')) continue;
        for (const edge of graph.edgesOf(id, 'in', ['ASSERTS'])) {
          const actor = graph.node(edge.from)!;
          if (actor.labels.includes('Actor')) rows.push([actor, claim]);
        }
      }
      return rows.length;
    },
  },
  {
    name: 'var-length 1..3',
    query: 'MATCH (a:Actor {label: $label})-[:ALLIED_WITH*1..3]->(b:Actor) RETURN DISTINCT b',
    parameters: { label: 'actor 7' },
    handWritten(graph) {
      const reached = new Set<string>();
      const used: string[] = [];
      const walk = (id: string, depth: number) => {
        if (depth >= 1) reached.add(id);
        if (depth === 3) return;
        for (const edge of graph.edgesOf(id, 'out', ['ALLIED_WITH'])) {
          if (used.includes(edge.id)) continue;
          used.push(edge.id);
          walk(edge.to, depth + 1);
          used.pop();
        }
      };
      for (const id of graph.nodesWithProperty('label', 'actor 7')) walk(id, 0);
      return reached.size;
    },
  },
  {
    name: 'aggregation',
    query: 'MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN c.type AS type, count(*) AS claims',
    handWritten(graph) {
      const counts = new Map<string, number>();
      for (const id of graph.edgesWithType('ASSERTS')) {
        const edge = graph.edge(id)!;
        const actor = graph.node(edge.from)!;
        const claim = graph.node(edge.to)!;
        if (!actor.labels.includes('Actor') || !claim.labels.includes('Claim')) continue;
        const type = claim.properties.type as string;
        counts.set(type, (counts.get(type) ?? 0) + 1);
      }
      return counts.size;
    },
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function measure(runs: number, fn: () => number): { p50: number; p95: number; rows: number } {
  let rows = fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    rows = fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), rows };
}

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000, 1_000_000];
const limits = { rowCap: Number.MAX_SAFE_INTEGER, timeLimitMs: 60_000 };

console.log('| facts | query | rows | engine p50 ms | engine p95 ms | hand p50 ms | hand p95 ms | ratio p50 |');
console.log('|---|---|---|---|---|---|---|---|');
for (const facts of SIZES) {
  const graph = buildGraph(facts);
  const runs = facts >= 1_000_000 ? 7 : facts >= 100_000 ? 25 : 60;
  for (const testCase of CASES) {
    const engine = measure(runs, () => runQuery(graph, testCase.query, { parameters: testCase.parameters, limits }).rows.length);
    const hand = measure(runs, () => testCase.handWritten(graph));
    if (engine.rows !== hand.rows) throw new Error(`${testCase.name} at ${facts}: engine gave ${engine.rows} rows, hand-written ${hand.rows}`);
    const ratio = engine.p50 / Math.max(hand.p50, 0.001);
    console.log(
      `| ${facts.toLocaleString('en')} | ${testCase.name} | ${engine.rows} | ${engine.p50.toFixed(2)} | ${engine.p95.toFixed(2)} | ${hand.p50.toFixed(2)} | ${hand.p95.toFixed(2)} | ${ratio.toFixed(2)}x |`,
    );
  }
}

// ---- over HTTP: the reasoning pool's route against the previous path ---------------------

const HTTP_FACTS = 100_000;
const TENANT = 'bench';
const GRAPH_ID = 'query-bench';
/** Point queries: each starts from one actor found by its label. */
const POINT_CASES = CASES.filter((testCase) => testCase.name === '1-hop' || testCase.name === 'var-length 1..3');
/** Heavy queries: the two that scan a whole index (aggregation: every ASSERTS edge; 2-hop: every RedLine claim, thousands of rows to shape). */
const HEAVY_CASES = CASES.filter((testCase) => testCase.name === 'aggregation' || testCase.name === '2-hop RedLine');
const POINT_ROUNDS = 10;
const POINT_PER_ROUND = 40;
const HEAVY_WINDOW_MS = 8_000;
const HEALTH_MAX_SAMPLES = 50_000;

function listening(app: FastifyInstance): string {
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const fixed = (value: number) => value.toFixed(2);
const p = (values: number[], q: number) => percentile([...values].sort((a, b) => a - b), q);

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-query-'));
const config = loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_CORPORA_DIR: path.join(dir, 'corpora'), PARLEY_RATE_LIMIT_PER_MINUTE: '0' });
const store = await ParleyStore.open(path.join(dir, 'store'));
const pool = new ReasoningPool(store, reasoningOptions(config));
const extraction = createExtractionPipeline();
const apps: FastifyInstance[] = [];
try {
  const source = buildGraph(HTTP_FACTS);
  const nodes = [...source.nodes.values()].map((node) => ({ id: node.id, labels: node.labels, properties: node.properties, confidence: node.confidence }));
  const edges = [...source.edges.values()].map((edge) => ({ id: edge.id, type: edge.type, from: edge.from, to: edge.to, properties: edge.properties, confidence: edge.confidence }));
  for (let i = 0; i < nodes.length; i += 5_000) await store.writeGraph(TENANT, GRAPH_ID, { nodes: nodes.slice(i, i + 5_000), edges: [] });
  for (let i = 0; i < edges.length; i += 5_000) await store.writeGraph(TENANT, GRAPH_ID, { nodes: [], edges: edges.slice(i, i + 5_000) });

  // the previous path: the same service, whose queries run on the event loop (what runTask's 'query' does, here)
  const inline: ReasoningPool = Object.assign(Object.create(pool) as ReasoningPool, {
    async answer(tenant: string, graphId: string, text: string, options: Parameters<ReasoningPool['answer']>[3]) {
      const graph = await store.loadGraph(tenant, graphId);
      const result = runQuery(graph, text, { parameters: options.parameters, as_of: options.asOf, explain: options.explain, limits: options.limits, rules: pool.catalog.registry });
      return shapeAnswer(result, graph, text, options.shape);
    },
  });
  const { secret: adminKey } = await store.bootstrapAdminKey();
  for (const reasoning of [pool, inline]) {
    const app = await buildApp({ store, config, extraction, reasoning });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
  }
  const [poolBase, inlineBase] = apps.map(listening);
  const keyResponse = await post(`${poolBase}/v1/keys`, adminKey!, { tenant: TENANT, scope: 'read' });
  if (keyResponse.status !== 201) throw new Error(`key creation: ${keyResponse.status} ${JSON.stringify(keyResponse.json)}`);
  const key = keyResponse.json.api_key as string;
  const paths = [
    { name: 'pool (POST /v1/graph/query)', base: poolBase },
    { name: 'previous (runQuery on the event loop)', base: inlineBase },
  ];
  const ask = async (base: string, testCase: Case) => {
    const started = performance.now();
    const response = await post(`${base}/v1/graph/query`, key, { graph_id: GRAPH_ID, query: testCase.query, ...(testCase.parameters ? { parameters: testCase.parameters } : {}) });
    if (response.status !== 200) throw new Error(`${testCase.name}: ${response.status} ${JSON.stringify(response.json)}`);
    return { ms: performance.now() - started, rows: (response.json.rows as unknown[]).length };
  };
  // warm-up: the pool's first call starts its workers and snapshots the graph into their replicas
  const warmStarted = performance.now();
  for (const { base } of paths) for (const testCase of [...POINT_CASES, ...HEAVY_CASES]) await ask(base, testCase);
  const warmMs = performance.now() - warmStarted;
  for (let i = 0; i < 20; i++) for (const { base } of paths) for (const testCase of POINT_CASES) await ask(base, testCase);

  console.log(`\nover HTTP, ${HTTP_FACTS.toLocaleString('en')} facts in a ParleyStore (first calls, incl. the pool's worker start and replica snapshot: ${warmMs.toFixed(0)} ms); load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}, ${config.reasonWorkers ?? 'one per core'} reasoning workers`);
  console.log('\n(a) point queries, p50/p99 over', POINT_ROUNDS * POINT_PER_ROUND, 'requests per path, alternating in rounds; requirement: no point query more than 20% slower (ratio <= 1.20)');
  console.log('| query | rows | pool p50 ms | pool p99 ms | previous p50 ms | previous p99 ms | ratio p50 | ratio p99 | within 20% (p50) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const testCase of POINT_CASES) {
    const times = paths.map(() => [] as number[]);
    let rows = 0;
    for (let round = 0; round < POINT_ROUNDS; round++) {
      for (const [i, { base }] of paths.entries()) {
        for (let j = 0; j < POINT_PER_ROUND; j++) {
          const answer = await ask(base, testCase);
          times[i].push(answer.ms);
          rows = answer.rows;
        }
      }
    }
    const [poolTimes, inlineTimes] = times;
    const ratio50 = p(poolTimes, 0.5) / p(inlineTimes, 0.5);
    const ratio99 = p(poolTimes, 0.99) / p(inlineTimes, 0.99);
    console.log(
      `| ${testCase.name} | ${rows} | ${fixed(p(poolTimes, 0.5))} | ${fixed(p(poolTimes, 0.99))} | ${fixed(p(inlineTimes, 0.5))} | ${fixed(p(inlineTimes, 0.99))} | ${ratio50.toFixed(2)}x | ${ratio99.toFixed(2)}x | ${ratio50 <= 1.2 ? 'yes' : 'no'} |`,
    );
  }

  console.log(`\n(b) /v1/health while 4 heavy queries run at once (4 clients, 2 repeating each of ${HEAVY_CASES.map((testCase) => testCase.name).join(' and ')}, for ${HEAVY_WINDOW_MS} ms), sequential health fetches from this process; target: p99 under 50 ms`);
  console.log('| while | health samples | p50 ms | p99 ms | max ms | event-loop delay p99 / max ms | heavy queries done | heavy query p50 ms | p99 under 50 ms |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const { value: nothing, ...idleLoop } = await loopDelay(() => healthSamples(poolBase, () => false, 2_000));
  console.log(`| nothing running | ${nothing.length} | ${fixed(p(nothing, 0.5))} | ${fixed(p(nothing, 0.99))} | ${fixed(Math.max(...nothing))} | ${fixed(idleLoop.p99)} / ${fixed(idleLoop.max)} | | | ${p(nothing, 0.99) < 50 ? 'yes' : 'no'} |`);
  for (const { name, base } of paths) {
    const deadline = Date.now() + HEAVY_WINDOW_MS;
    const heavyTimes: number[] = [];
    let running = 4;
    const clients = [0, 1, 2, 3].map(async (client) => {
      try {
        while (Date.now() < deadline) heavyTimes.push((await ask(base, HEAVY_CASES[client % HEAVY_CASES.length])).ms);
      } finally {
        running--;
      }
    });
    const { value: during, ...loop } = await loopDelay(() => healthSamples(base, () => running === 0, HEALTH_MAX_SAMPLES, 60_000));
    await Promise.all(clients);
    console.log(
      `| 4 heavy queries, ${name} | ${during.length} | ${fixed(p(during, 0.5))} | ${fixed(p(during, 0.99))} | ${fixed(Math.max(...during))} | ${fixed(loop.p99)} / ${fixed(loop.max)} | ${heavyTimes.length} | ${fixed(p(heavyTimes, 0.5))} | ${p(during, 0.99) < 50 ? 'yes' : 'no'} |`,
    );
  }
  console.log(`load average at the end: ${loadavg().map((n) => n.toFixed(1)).join(' ')}; the bench ran ${(performance.now() / 1000).toFixed(0)} s`);
} finally {
  for (const app of apps) await app.close();
  await pool.close();
  await extraction.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
