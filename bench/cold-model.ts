/**
 * bench/cold-model: the first assess of a graph never assessed, as a model (issue 28: cold at 1M facts). In process,
 * on one engine (the main thread's), per round on a fresh copy of the graph: the whole hand-over of its view from the
 * records (facts and clause indexes), the shared sets a reasoning worker makes right after it (warm_view_sets, as
 * RuleRegistry.prepareInParts does), then each framework once in the catalog's order, each with its CPU ms and
 * inferences. From those, the assess's wall time on n engines that each make the hand-over and the shared sets at
 * once, the runs then spread as ReasoningPool.frameworks hands them out: one task per framework, the costliest first
 * by the inferences of their last runs, in the catalog's order when none ran yet (a graph never assessed since the
 * start), each taken by the engine free first. A model, not a measure: an engine's runs here read the sets the runs
 * before them made on the same engine, as they do in a worker.
 *
 * With --imaged-ms, one more row: the first assess after a restart whose engines hand the view over from its image
 * (engine/reason/view-images.ts), each paying that many ms of a core before its runs in place of this process's
 * hand-over and shared sets (the image holds them): the replica and the hand-over from the image as the server's
 * trace measures them (bench:frameworks --cold-imaged-only, one worker's CPU to the health counts' image hand-over;
 * 4,300-4,900 at 1M on 2 loaded cores), or as bench/cold-image.ts measures their parts on one engine (at 1M, load
 * 12-16: the replica from the snapshot's chunks some 1.5 s, the hand-over from the image 2.2-3.0 s, its shared sets
 * 0.2-0.3 s: some 4,000-4,800 in all; docs/operations.md), the runs then spread as above.
 *
 *   PARLEY_QUERY_TIMEOUT_MS=600000 npx tsx bench/cold-model.ts [--size 1000000] [--rounds 3] [--imaged-ms 4600]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { writeInChunks } from './cold-start.ts';
import { listScheduled, timedCpu } from './stats.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { runFramework } from '../engine/frameworks/run.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { frameworkLimits, loadConfig } from '../server/config.ts';

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '3' }, 'imaged-ms': { type: 'string' } } });
const ENGINES = [1, 2, 4, 8, 16];
const config = loadConfig({ ...process.env, PARLEY_DATA_DIR: tmpdir() });
const limits = frameworkLimits(config);
const catalog = await loadRuleModules(config.frameworkDirs);
const manifests = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

const dir = await mkdtemp(path.join(process.env.TMPDIR ?? tmpdir(), 'parley-cold-model-'));
const rounds: { handOverMs: number; setsMs: number; runs: { id: string; cpuMs: number; inferences: number; stopped: boolean }[] }[] = [];
try {
  const store = await ParleyStore.open(path.join(dir, 'store'));
  const generated = generate(Number(args.size));
  await writeInChunks(store, 'g', generated.write);
  const graph = await store.loadGraph('bench', 'g');
  console.log(`cold model: ${generated.facts.toLocaleString('en')} facts, ${manifests.length} frameworks, time limit ${limits.timeLimitMs} ms, load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  for (let round = 1; round <= Number(args.rounds); round++) {
    // a fresh copy: the engine holds no view of it, and no run of it is kept (engine/frameworks/run.ts)
    const view = { graph: GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values()) };
    const handOverMs = timedCpu(() => catalog.registry.handOver(view)).cpuMs;
    const setsMs = timedCpu(() => catalog.registry.solveLibrary('warm_view_sets', [], view, limits)).cpuMs;
    const runs = manifests.map((manifest) => {
      const { value: run, cpuMs } = timedCpu(() => runFramework(catalog.registry, manifest, view, limits));
      return { id: manifest.id, cpuMs, inferences: run.inferences, stopped: run.error !== undefined };
    });
    rounds.push({ handOverMs, setsMs, runs });
    console.log(`round ${round} (load ${loadavg()[0].toFixed(1)}): hand-over ${ms(handOverMs)} ms CPU, shared sets ${ms(setsMs)} ms, runs ${ms(runs.reduce((sum, run) => sum + run.cpuMs, 0))} ms`);
  }
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}

const spread = (values: number[]) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;
console.log('\n| framework | CPU ms, rounds (min–max) | inferences |');
console.log('|---|---|---|');
for (const [i, manifest] of manifests.entries()) {
  const runs = rounds.map((round) => round.runs[i]);
  console.log(`| ${manifest.id} | ${spread(runs.map((run) => run.cpuMs))}${runs.some((run) => run.stopped) ? ' (stopped by a limit)' : ''} | ${runs[0].inferences.toLocaleString('en')} |`);
}
console.log(`| hand-over from the records | ${spread(rounds.map((round) => round.handOverMs))} | |`);
console.log(`| shared sets (warm_view_sets) | ${spread(rounds.map((round) => round.setsMs))} | |`);

// per round: the runs as the first assess hands them out (catalog order) and as a later one does (costliest first)
// `before`: what each engine pays before its runs (the shared sets, or --imaged-ms)
type Runs = (typeof rounds)[number]['runs'];
const model = (order: (runs: Runs) => number[], before = (round: (typeof rounds)[number]) => round.setsMs) =>
  ENGINES.map((engines) => spread(rounds.map((round) => before(round) + listScheduled(order(round.runs), engines))));
const costliestFirst = (runs: Runs) => [...runs].sort((a, b) => b.inferences - a.inferences).map((run) => run.cpuMs);
console.log('\nmodel (not measured): each engine makes the hand-over, then the shared sets, then takes the next run when free; ms after the hand-over:');
console.log(`| order | ${ENGINES.map((n) => `${n} engine${n > 1 ? 's' : ''}`).join(' | ')} |`);
console.log(`|---|${ENGINES.map(() => '---').join('|')}|`);
console.log(`| catalog order (a graph never assessed since the start) | ${model((runs) => runs.map((run) => run.cpuMs)).join(' | ')} |`);
console.log(`| costliest first (by inferences) | ${model(costliestFirst).join(' | ')} |`);
if (args['imaged-ms'] !== undefined) {
  const imagedMs = Number(args['imaged-ms']);
  const imaged = model(costliestFirst, () => imagedMs);
  console.log(`| after a restart, from the image (${ms(imagedMs)} ms per engine before its runs, --imaged-ms), costliest first; ms from the call | ${imaged.join(' | ')} |`);
}
console.log(`| floor: the costliest run alone | ${spread(rounds.map((round) => round.setsMs + Math.max(...round.runs.map((run) => run.cpuMs))))} | (${rounds[0].runs.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a)).id}) |`);
