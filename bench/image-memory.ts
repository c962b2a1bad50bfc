/**
 * bench/image-memory: the memory the making of a view image takes (engine/reason/view-images.ts), on one engine in
 * process, as a reasoning worker makes it: the whole hand-over of a generated conflict graph's view, the shared sets
 * (parley_warm_sets(warm_view_sets), as RuleRegistry.prepare; left out with --without-sets, so that the image carries
 * none, as a format 3 image did), then the image (bridge.ts viewImage). After each step: the engine's WebAssembly
 * memory (never given back while it lives: after the image, its peak), this process's resident set and its peak
 * (VmHWM), and the step's CPU ms; then the image's bytes. Run each way in a process of its own: the WebAssembly memory
 * of one run would hide the other's.
 *
 *   npx tsx bench/image-memory.ts [--facts 1000000] [--without-sets]
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { generate, generatedIndex } from './conflict-graph.ts';
import { cpuMsSince, isWasmMemory, mappingsOf } from './stats.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { viewImage } from '../engine/prolog/bridge.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '1000000' }, 'without-sets': { type: 'boolean', default: false } } });
const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const LIMITS = { inferenceLimit: 200_000_000, timeLimitMs: 600_000 };

async function row(step: string, cpuMs: number): Promise<void> {
  const maps = await mappingsOf();
  const wasm = maps.reduce((total, map, i) => total + (isWasmMemory(maps, i) ? map.end - map.start : 0), 0);
  const status = await readFile('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) * 1024;
  console.log(`| ${step} | ${MB(wasm)} | ${MB(kb('VmRSS'))} | ${MB(kb('VmHWM'))} | ${cpuMs.toFixed(0)} |`);
}

const generated = generate(Number(args.facts));
const graph = generatedIndex(generated.write, new Date().toISOString());
const { registry } = await loadRuleModules();
console.log(`bench/image-memory: one engine, ${generated.facts.toLocaleString('en-US')} facts, the image ${args['without-sets'] ? 'without' : 'with'} the shared sets, load ${loadavg()[0].toFixed(1)}`);
console.log('| after | WebAssembly memory MB | resident MB | resident peak MB | CPU ms of the step |');
console.log('|---|---|---|---|---|');
await row('the graph built', 0);
let started = process.cpuUsage();
registry.handOver({ graph });
await row('the hand-over', cpuMsSince(started));
if (!args['without-sets']) {
  started = process.cpuUsage();
  registry.solveLibrary('parley_warm_sets(warm_view_sets)', [], { graph }, LIMITS);
  await row('the shared sets', cpuMsSince(started));
}
started = process.cpuUsage();
const image = viewImage(graph);
await row('the image made', cpuMsSince(started));
console.log(`image: ${image ? `${image.length.toLocaleString('en-US')} bytes` : 'none (the engine does not hold the whole view)'}; load ${loadavg()[0].toFixed(1)}`);
