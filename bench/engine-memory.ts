/**
 * bench:engine-memory — one reasoning engine's memory as it reasons over a generated conflict graph
 * (bench/conflict-graph.ts, bench:frameworks's graphs): the WebAssembly memory the engine has
 * allocated (never given back while it lives), SWI-Prolog's stacks (allocated and used), its atoms,
 * and the kept answers (records, in cells: lib/graph.pl view_memo/3, each slot's record and the part records of its
 * answers kept in parts), after the view's hand-over, after
 * warm_view_sets and after each of the 15 frameworks in turn; with --writes N, then after each of N writes (an
 * ingest-like write, an Issue node, an ingest-like write...: bench/written.ts, applied as a replica applies a
 * write): after its hand-over and after the 15 frameworks run again. The global stack's size allocated is its
 * high-water mark (SWI-Prolog shrinks it only when asked: trim_stacks/0). Bytes repeat to the byte from run to
 * run; the CPU printed beside them does not. docs/operations.md ("The kept sets") quotes it.
 *
 *   npm run bench:engine-memory [-- --facts 100000 --writes 0]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { generate, generatedIndex } from './conflict-graph.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { runTask } from '../engine/reason/tasks.ts';
import { putLogged } from '../engine/store/graph-changes.ts';
import { cpuMsSince, isWasmMemory, mappingsOf } from './stats.ts';
import { ingestLike, writtenNode } from './written.ts';

const { values: args } = parseArgs({ options: { facts: { type: 'string', default: '100000' }, writes: { type: 'string', default: '0' } } });
const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const LIMITS = { inferenceLimit: 200_000_000, timeLimitMs: 600_000 };

/** The bytes the engines' WebAssembly memories have allocated (one engine runs here). */
async function wasmAllocated(): Promise<number> {
  const maps = await mappingsOf();
  return maps.reduce((total, map, i) => total + (isWasmMemory(maps, i) ? map.end - map.start : 0), 0);
}

const generated = generate(Number(args.facts));
const graph = generatedIndex(generated.write, new Date().toISOString());
const catalog = await loadRuleModules();
const registry = catalog.registry;

const STATISTICS = ['global', 'globalused', 'trail', 'trailused', 'atom_space'];
async function row(step: string, cpuMs: number): Promise<void> {
  const [values] = registry.solveLibrary(STATISTICS.map((key, i) => `statistics(${key}, S${i})`).join(', '), STATISTICS.map((_, i) => `S${i}`), { graph }) as number[][];
  const [global, globalUsed, trail, trailUsed, atoms] = values;
  console.log(`| ${step} | ${MB(await wasmAllocated())} | ${MB(global)} / ${MB(globalUsed)} | ${MB(trail)} / ${MB(trailUsed)} | ${MB(atoms)} | ${cpuMs.toFixed(0)} |`);
}

console.log(`bench:engine-memory — one engine, ${graph.nodes.size.toLocaleString('en-US')} nodes and ${graph.edges.size.toLocaleString('en-US')} edges (${Number(args.facts).toLocaleString('en-US')} facts asked)`);
console.log('| after | WebAssembly memory MB | global stack MB (allocated / used) | trail MB (allocated / used) | atoms MB | CPU ms of the step |');
console.log('|---|---|---|---|---|---|');
let started = process.cpuUsage();
registry.handOver({ graph });
await row('the hand-over', cpuMsSince(started));
started = process.cpuUsage();
registry.solveLibrary('warm_view_sets', [], { graph }, LIMITS);
await row('warm_view_sets', cpuMsSince(started));
const frameworks = catalog.frameworks.filter((entry) => entry.status === 'loaded');
/** Runs each framework in turn (a row after each when `rows`), with the CPU of them all. */
async function runFrameworks(rows: boolean): Promise<number> {
  let total = 0;
  for (const entry of frameworks) {
    const started = process.cpuUsage();
    const reply = runTask({ kind: 'frameworks', at: { key: 'bench\0engine-memory', generation: 'g', version: 1 }, frameworkIds: [entry.id], limits: LIMITS }, graph, catalog);
    if (!reply.ok) throw new Error(`${entry.id}: ${JSON.stringify(reply)}`);
    const cpuMs = cpuMsSince(started);
    total += cpuMs;
    if (rows) await row(entry.id, cpuMs);
  }
  return total;
}
await runFrameworks(true);
for (let write = 1; write <= Number(args.writes); write++) {
  // odd writes ingest-like, even ones an Issue node, each with ids of its own
  const [nodes, edges] = write % 2 ? ingestLike(graph, `bench-ingest-${write}`) : [[writtenNode(`bench-written-issue-${write}`, 'Issue', { label: `a written issue ${write}` })], []];
  const what = write % 2 ? 'ingest-like' : 'Issue';
  putLogged(graph, nodes, edges);
  started = process.cpuUsage();
  registry.handOver({ graph });
  await row(`write ${write} (${what}): its hand-over`, cpuMsSince(started));
  await row(`write ${write}: the 15 frameworks again`, await runFrameworks(false));
}
// the kept answers are records under their slots' names (lib/graph.pl memo_store/2: a slot's record, which g_kept/2
// names, and the part records of the answers it keeps in parts, "answers kept in parts", which its summary lists), whose
// bytes SWI-Prolog does not report: their size in cells, each read back once. A record neither names is one a limit cut
// left without its reference, erased at its slot's next store (kept_erase/3): counted apart, not as a part
const [[keptCells, keptRecords, partRecords, unheldRecords]] = registry.solveLibrary(
  "findall(C-P, ( current_key(K), atom(K), sub_atom(K, 0, _, _, '$parley_memo_'), recorded(K, T, R), term_size(T, C), " +
    '( user:g_kept(K, R) -> P = slot ; user:g_kept_summary(K, s(_, _, _, _, Ps)), memberchk(R, Ps) -> P = part ; P = unheld ) ), Records), ' +
    'length(Records, N), aggregate_all(sum(C), member(C-_, Records), S), aggregate_all(count, member(_-part, Records), Parts), ' +
    'aggregate_all(count, member(_-unheld, Records), Unheld)',
  ['S', 'N', 'Parts', 'Unheld'],
  { graph },
) as number[][];
console.log(`kept answers as records: ${keptCells.toLocaleString('en-US')} cells in ${keptRecords} records, ${partRecords} of them parts of answers, ${unheldRecords} held by none; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
