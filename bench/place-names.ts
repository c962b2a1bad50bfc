/**
 * bench:place-names — the hand-over of a graph with many Location nodes. fearon declares
 * `name_keywords('Location')` (and 'Issue'): the bridge indexes every such node's name in the
 * texts (engine/prolog/bridge.ts, text-index.ts), so that its indivisible-stake rule reads a
 * place's mentions from the index. Per count of places it prints the hand-over (ms and CPU ms,
 * in process on the main thread, a fresh copy of the graph handed over whole) and fearon's run
 * (ms, CPU ms, inferences, what it concluded): what a graph of an extraction over many documents
 * naming many places costs, against the same graph without them (0).
 *
 * The graph: bench/conflict-graph.ts at --facts, plus N Location nodes named like real places
 * (one word, or two: "north …", "… district", "al-…", "… governorate", "camp 7"), and for every tenth place two
 * RedLine claims naming it, by the two sides of an OPPOSES edge of the graph.
 *
 *   npm run bench:place-names [-- --facts 100000 --places 0,4000,25000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { writeInChunks } from './cold-start.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { runFramework } from '../engine/frameworks/run.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore, type GraphWrite } from '../engine/store/store.ts';
import { frameworkLimits, loadConfig } from '../server/config.ts';
import { timedCpu } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    facts: { type: 'string', default: '100000' },
    places: { type: 'string', default: '0,4000,25000' },
  },
});
const FACTS = Number(args.facts);
const PLACES = args.places!.split(',').map(Number).filter((n) => n >= 0);
const TENANT = 'bench';

const SYLLABLES = ['al', 'ka', 'fa', 'sher', 'mar', 'tin', 'bu', 'ja', 'ra', 'dan', 'hum', 'zi', 'no', 'qa', 'lem', 'tor', 'gai', 'wen', 'so', 'bak'];
const SHAPES = [
  (w: string) => w,
  (w: string) => w,
  (w: string) => `north ${w}`,
  (w: string) => `${w} district`,
  (w: string) => `al-${w}`,
  (w: string) => `${w} governorate`,
  (w: string, i: number) => `camp ${i}`,
];

/** The i-th place name: a distinct made-up word (two to four syllables), alone or in one of the usual shapes. */
function placeName(i: number): string {
  let word = '';
  for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  const name = SHAPES[i % SHAPES.length](word, i);
  return name[0].toUpperCase() + name.slice(1);
}

function withPlaces(base: GraphWrite, places: number): GraphWrite {
  const nodes = [...base.nodes];
  const edges = [...base.edges];
  const opposed = base.edges.filter((edge) => edge.type === 'OPPOSES');
  for (let i = 0; i < places; i++) {
    const name = placeName(i);
    nodes.push({ id: `loc${i}`, labels: ['Location'], properties: { label: name, location_type: i % 3 === 0 ? 'site' : 'city' } });
    if (i % 10 !== 0 || opposed.length === 0) continue;
    const { from, to } = opposed[(i / 10) % opposed.length];
    for (const [side, speaker] of [from, to].entries()) {
      const id = `rl${i}-${side}`;
      nodes.push({ id, labels: ['Claim'], properties: { type: 'RedLine', text: `We will never give up ${name}`, timestamp: '2024-06-01T10:00:00Z' } });
      edges.push({ id: `e-${id}`, type: 'ASSERTS', from: speaker, to: id });
    }
  }
  return { nodes, edges };
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-places-'));
const store = await ParleyStore.open(path.join(dir, 'store'));
try {
  const config = loadConfig({ ...process.env, PARLEY_DATA_DIR: dir, PARLEY_CORPORA_DIR: path.join(dir, 'corpora') });
  const limits = frameworkLimits(config);
  const catalog = await loadRuleModules(config.frameworkDirs);
  const fearon = catalog.frameworks.find((entry) => entry.id === 'fearon');
  if (fearon?.status !== 'loaded') throw new Error('fearon is not loaded');
  const base = generate(FACTS).write;
  console.log(`hand-over of a ${FACTS.toLocaleString('en')}-fact generated graph plus N Location nodes (every tenth named by two RedLine claims of opposing actors), then fearon:`);
  console.log('| places | hand-over ms | hand-over CPU ms | fearon ms | fearon CPU ms | fearon inferences | fearon |');
  console.log('|---|---|---|---|---|---|---|');
  for (const places of PLACES) {
    const graphId = `places-${places}`;
    await writeInChunks(store, graphId, withPlaces(base, places));
    const graph = await store.loadGraph(TENANT, graphId);
    const view = { graph: GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values()) };
    const handOver = timedCpu(() => catalog.registry.handOver(view));
    const { value: run, ...spent } = timedCpu(() => runFramework(catalog.registry, fearon.manifest, view, limits));
    const state = run.error ? `stopped: ${run.error.code}` : `${run.applies ? 'applies' : 'does not apply'}, score ${run.score}`;
    console.log(`| ${places.toLocaleString('en')} | ${ms(handOver.ms)} | ${ms(handOver.cpuMs)} | ${ms(spent.ms)} | ${ms(spent.cpuMs)} | ${run.inferences.toLocaleString('en')} | ${state} |`);
  }
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
