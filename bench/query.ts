/**
 * bench:query — latency of the query engine against the physical floor.
 *
 * For graphs of 10k, 100k and 1M facts (N facts = N/5 nodes, 2N/5 properties,
 * 2N/5 edges, the shape of notes/measurements.md) built here, runs four queries
 * through runQuery and, in the same run, a hand-written TypeScript join over the
 * same GraphIndex; prints p50/p95 of each and the ratio engine/hand-written.
 * Target: the 2-hop (RedLine) query within 3x of the hand-written join at 100k.
 *
 *   npx tsx bench/query.ts [sizes...]     e.g. npx tsx bench/query.ts 10000 100000
 */
import { CLAIM_TYPES, type EdgeRecord, type NodeRecord } from '../engine/ontology/index.ts';
import { runQuery } from '../engine/query/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';

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
