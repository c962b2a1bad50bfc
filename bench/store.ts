/**
 * bench/store: import throughput and cold load of a 100k-fact graph, each beside a
 * baseline measured in the same run (the machines are shared and noisy, so read
 * the ratios). Facts as in measurements.md: N facts = N/5 nodes, 2N/5 properties,
 * 2N/5 edges.
 *
 *   npm run bench:store [-- --facts 100000 --runs 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ClassicLevel } from 'classic-level';
import type { EdgeRecord, NodeRecord } from '../engine/ontology/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore, type GraphWrite } from '../engine/store/store.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' } } });
const FACTS = Number(args.facts);
const RUNS = Number(args.runs);
/** Records per import request: what a client sending a large graph in parts would do. */
const CHUNK = 10_000;

function makeGraph(facts: number): GraphWrite {
  const nodeCount = Math.floor(facts / 5);
  const nodes: GraphWrite['nodes'] = [];
  const edges: GraphWrite['edges'] = [];
  for (let i = 0; i < nodeCount; i++) {
    const claim = i % 3 === 0;
    nodes.push(
      claim
        ? { id: `n${i}`, labels: ['Claim'], properties: { type: i % 9 === 0 ? 'RedLine' : 'Demand', text: `claim ${i}` } }
        : { id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}`, actor_type: 'armed_group' } },
    );
  }
  for (let i = 0; i < 2 * nodeCount; i++) {
    const from = (i * 7919) % nodeCount;
    const to = (i * 104729 + 1) % nodeCount;
    edges.push({ id: `e${i}`, type: 'MENTIONED_WITH', from: `n${from}`, to: `n${to}`, properties: {} });
  }
  return { nodes, edges };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const graph = makeGraph(FACTS);
const records = graph.nodes.length + graph.edges.length;
const now = new Date().toISOString();
const nodeRecords: NodeRecord[] = graph.nodes.map((n) => ({ id: n.id!, labels: n.labels, properties: n.properties, confidence: 1, provenance: [], recorded_at: now }));
const edgeRecords: EdgeRecord[] = graph.edges.map((e, i) => ({ id: `e${i}`, type: e.type, from: e.from, to: e.to, properties: {}, confidence: 1, provenance: [], recorded_at: now }));

const importParley: number[] = [];
const importRaw: number[] = [];
const loadParley: number[] = [];
const loadMaps: number[] = [];

for (let run = 0; run < RUNS; run++) {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-store-'));
  try {
    // parley import: validation, merge, records plus forward/reverse/label index keys, index update
    let store = await ParleyStore.open(path.join(dir, 'parley'));
    let started = performance.now();
    for (let i = 0; i < graph.nodes.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: graph.nodes.slice(i, i + CHUNK), edges: [] });
    for (let i = 0; i < graph.edges.length; i += CHUNK) await store.writeGraph('bench', 'g', { nodes: [], edges: graph.edges.slice(i, i + CHUNK) });
    importParley.push(records / ((performance.now() - started) / 1000));
    await store.close();

    // baseline: the same records as raw classic-level batches of the same size, one key each, no indexes
    const raw = new ClassicLevel<string, string>(path.join(dir, 'raw'), { valueEncoding: 'utf8' });
    await raw.open();
    const all = [...nodeRecords.map((n) => ['n' + n.id, JSON.stringify(n)]), ...edgeRecords.map((e) => ['e' + e.id, JSON.stringify(e)])];
    started = performance.now();
    for (let i = 0; i < all.length; i += CHUNK) await raw.batch(all.slice(i, i + CHUNK).map(([key, value]) => ({ type: 'put' as const, key, value })));
    importRaw.push(records / ((performance.now() - started) / 1000));
    await raw.close();

    // cold load: a fresh process-level open, LevelDB → indexes
    store = await ParleyStore.open(path.join(dir, 'parley'));
    started = performance.now();
    const index = await store.loadGraph('bench', 'g');
    loadParley.push(performance.now() - started);
    if (index.nodeCount !== graph.nodes.length || index.edgeCount !== graph.edges.length) throw new Error('loaded graph is incomplete');
    await store.close();

    // baseline: the same Maps built from arrays already in memory
    started = performance.now();
    GraphIndex.fromRecords(nodeRecords, edgeRecords);
    loadMaps.push(performance.now() - started);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`bench/store: ${FACTS.toLocaleString('en-US')} facts = ${graph.nodes.length} nodes, ${graph.edges.length} edges (${records} records); median of ${RUNS} runs; chunks of ${CHUNK}`);
console.log('| measure | parley | baseline | ratio |');
console.log('|---|---|---|---|');
console.log(`| import, records/s | ${fmt(median(importParley))} | ${fmt(median(importRaw))} (raw classic-level batches) | ${(median(importRaw) / median(importParley)).toFixed(2)}x slower |`);
console.log(`| cold load into indexes, ms | ${fmt(median(loadParley))} | ${fmt(median(loadMaps))} (same Maps from an array) | ${(median(loadParley) / median(loadMaps)).toFixed(2)}x |`);
