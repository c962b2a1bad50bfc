/**
 * bench:warm-parts — the parts of the warm-up after a restart (engine/reason/warm.ts), each measured
 * alone in this process at one size (default 100k facts, the generated conflict graph bench:frameworks
 * reasons over), as CPU of the one thread that does it: what the warm-up costs by part, so that the
 * largest is the one cut, and how long a call waits behind the background hand-over:
 *   - a worker's start: its Prolog engine and the rule modules (once per worker);
 *   - the store's load of a graph written and closed (the main thread; once per graph);
 *   - the replica snapshot: the records copied as the chunks' messages copy them (structured clone, the
 *     main thread's and the worker's side together) and put into a worker's replica (once per graph and worker);
 *   - the hand-over of the view to the engine (once per graph and engine), made in parts
 *     (RuleRegistry.prepareInParts, as a worker makes it between tasks): its CPU, its parts, and the
 *     longest and median part (CPU), and what a task on another graph that comes meanwhile waits for, on
 *     average and at most, in parts and made at once.
 * CPU is load-independent to a first order; the load average is printed.
 *
 *   npx tsx bench/warm-parts.ts [--size 100000]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { writeInChunks } from './cold-start.ts';
import { startProlog } from '../engine/prolog/bridge.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import { putLogged } from '../engine/store/graph-changes.ts';
import { WARM_CHUNK } from '../engine/reason/replicas.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { cpuMsSince, median } from './stats.ts';

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '100000' } } });

const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const row = (what: string, value: string) => console.log(`| ${what} | ${value} |`);
const timed = async <T>(fn: () => T | Promise<T>) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started, cpuMs: cpuMsSince(cpu) };
};

const generated = generate(Number(args.size));
const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-warm-parts-'));
try {
  const setup = await ParleyStore.open(path.join(dir, 'store'));
  await writeInChunks(setup, 'g', generated.write);
  await setup.close();
  console.log(`\nthe warm-up by part, one ${generated.facts.toLocaleString('en')}-fact graph, each part alone on this thread (load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}):`);
  console.log('| part | wall ms, CPU ms |');
  console.log('|---|---|');
  const start = await timed(async () => {
    await startProlog();
    return loadRuleModules();
  });
  row('a worker\'s start: its engine and the rule modules (per worker)', `${fmt(start.ms)}, ${fmt(start.cpuMs)}`);
  const store = await ParleyStore.open(path.join(dir, 'store'));
  const load = await timed(() => store.loadGraph('bench', 'g'));
  row('the store\'s load of the graph (main thread, per graph)', `${fmt(load.ms)}, ${fmt(load.cpuMs)}`);
  const graph = load.value;
  const snapshot = await timed(() => {
    const replica = new GraphIndex();
    const nodes = [...graph.nodes.values()];
    const edges = [...graph.edges.values()];
    for (let i = 0; i < nodes.length; i += WARM_CHUNK) putLogged(replica, structuredClone(nodes.slice(i, i + WARM_CHUNK)), []);
    for (let i = 0; i < edges.length; i += WARM_CHUNK) putLogged(replica, [], structuredClone(edges.slice(i, i + WARM_CHUNK)));
    return replica;
  });
  row('the replica snapshot: copied in messages and put into a replica (main thread and worker, per graph and worker)', `${fmt(snapshot.ms)}, ${fmt(snapshot.cpuMs)}`);
  const partCpuMs: number[] = [];
  const handOver = await timed(() => {
    const parts = start.value.registry.prepareInParts({ graph: snapshot.value });
    for (;;) {
      const cpu = process.cpuUsage();
      const step = parts.next();
      partCpuMs.push(cpuMsSince(cpu));
      if (step.done) return step.value;
    }
  });
  row('the hand-over of the view to an engine, in parts, the shared sets the last (per graph and engine)', `${fmt(handOver.ms)}, ${fmt(handOver.cpuMs)}`);
  const longest = partCpuMs.indexOf(Math.max(...partCpuMs));
  row(
    'its parts: how many; the longest (which, from 1) and the median, CPU ms (what a task on another graph waits at most); the first and last three',
    `${partCpuMs.length}; ${fmt(partCpuMs[longest])} (${longest + 1}), ${fmt(median(partCpuMs))}; ${partCpuMs.slice(0, 3).map(fmt).join(', ')} … ${partCpuMs.slice(-3).map(fmt).join(', ')}`,
  );
  // a task on another graph that comes at a moment of the hand-over taken at random waits for the rest of the part under
  // way: on average the sum of the parts' squares over twice their sum; made at once (e873fd4), for the rest of the whole
  const total = partCpuMs.reduce((sum, part) => sum + part, 0);
  const residual = partCpuMs.reduce((sum, part) => sum + part * part, 0) / (2 * total);
  row(
    'what a task on another graph waits, coming at a random moment of the hand-over: on average, at most, CPU ms (in parts; made at once)',
    `${fmt(residual)}, ${fmt(partCpuMs[longest])}; ${fmt(total / 2)}, ${fmt(total)}`,
  );
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
