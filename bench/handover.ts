/**
 * bench:handover — the hand-over of a graph's view to a Prolog engine (engine/prolog/bridge.ts,
 * the g_* facts of lib/graph.pl), as a reasoning worker's preload makes it, on generated conflict
 * graphs (bench/conflict-graph.ts, the graphs bench:frameworks reasons over), one size per child
 * process so that each engine starts empty. Per size:
 *   - the CPU the hand-over took (the process's: the main thread alone runs here), and its CPU by
 *     part: reading the records into lists of facts, the engine's calls taking them (their
 *     conversion into terms and the assertions), the clause indexes; and its wall time;
 *   - the process's RSS growth per fact, after a full collection (the engine's WebAssembly memory,
 *     which is never given back: what a worker holding the view keeps), and V8's heap growth;
 *   - the view's facts per predicate as SWI-Prolog counts them (clauses, bytes with their indexes),
 *     the engine's atoms, and the properties handed over and left out, by key;
 *   - the view's image (bridge.ts viewImage: its facts as quick-load code): the CPU making it took and its
 *     bytes; then, in another child process (an engine that never held the view, as after a restart), the
 *     hand-over from that image (handOverImage), its CPU by part: loading the code, the clause indexes;
 *   - for each hand-over, how many times the engine's WebAssembly memory grew and V8 collected this thread's
 *     whole heap meanwhile (bench/stats.ts memoryEvents): counts, which load does not change.
 * With --writes N (one child per size, no image): the view handed over, its shared sets and the 15 frameworks run,
 * then N ingest-like writes (bench/written.ts, applied as a replica applies a write), each followed by its hand-over
 * (the records added, the kept answers grown or dropped: lib/graph.pl parley_add_view/11) and the shared sets
 * (warm_view_sets): each part's CPU and inferences, the kept answers' cells before and after (their part records included:
 * lib/graph.pl, "answers kept in parts") and the cells of the records the write and its sets stored (and, before it, the
 * kept answers over a list: their key lists' cells against the distinct lists', a digest's cost against a comparison's; the
 * largest kept answer's price, copied out of its record and stored, a million cells); then the 15
 * frameworks again, whose results (less their inferences) are compared with a fresh engine's over the written graph
 * when --check is given (a second child process).
 * Timings are noisy on a shared machine; bytes and counts are not. The load average is printed.
 *
 * --extracted-shape: the graphs with the edges and nodes extraction makes that the default graph lacks (conflict-graph.ts
 * GenerateOptions). --extracted-ingest: each of --writes as extraction makes it, with a Location and a Document
 * (written.ts extractedIngest), not ingest-like.
 *
 * --cpu-split (with --writes): each of the 15 runs after a write sampled (V8's profiler) and its CPU split by where its samples
 * fall (cpuSplit below): the engine, the answers' conversion into JavaScript, the other JavaScript (run.ts's evidence
 * checked against the graph, listed and counted, and bridge.ts's own), V8's collections, V8's samples with no JavaScript
 * frame ((program), (root), (idle)); and the engine's own clock of its collections and stack shifts. Each part is scaled to
 * the process's CPU, so the sampler's thread and V8's background threads are spread over the parts: the sampler costs
 * CPU of its own, and these runs' CPU is not comparable with a run without the flag.
 *
 *   npm run bench:handover [-- --sizes 100000,1000000] [--writes 3 [--check] [--cpu-split]] [--extracted-shape] [--extracted-ingest]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, generatedIndex } from './conflict-graph.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { runFramework, type FrameworkRun } from '../engine/frameworks/run.ts';
import { putLogged } from '../engine/store/graph-changes.ts';
import { handOverImage, propertyKeysHeld, viewImage, wholeHandOvers, type GraphView } from '../engine/prolog/bridge.ts';
import { cpuMsSince, memoryEvents, timedCpu } from './stats.ts';
import { profileTree, type Profile, type ProfileNode } from './long-turns.ts';
import type { RuleRegistry } from '../engine/prolog/registry.ts';
import type { FrameworkManifest } from '../engine/frameworks/manifest.ts';
import { extractedIngest, ingestLike } from './written.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    facts: { type: 'string' },
    image: { type: 'string' },
    'from-image': { type: 'boolean' },
    writes: { type: 'string' },
    check: { type: 'boolean' },
    fresh: { type: 'boolean' },
    'extracted-shape': { type: 'boolean' },
    'extracted-ingest': { type: 'boolean' },
    'cpu-split': { type: 'boolean' },
  },
});
/** Passed on to the child processes, which generate the graph. */
const CHILD_FLAGS = [...(args['extracted-shape'] ? ['--extracted-shape'] : []), ...(args['extracted-ingest'] ? ['--extracted-ingest'] : []), ...(args['cpu-split'] ? ['--cpu-split'] : [])];
/** The write each of --writes makes: ingest-like, or (--extracted-ingest) as extraction makes it, with a place and a Document. */
const ingest = args['extracted-ingest'] ? extractedIngest : ingestLike;
/** How the printed lines name each write, so an --extracted-ingest run does not read as an ingest-like one. */
const writeName = args['extracted-ingest'] ? 'extracted ingest' : 'ingest-like write';

const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** The process's CPU usage at its start (none): cpuMsSince(processStart) is the CPU it has taken so far. */
const processStart = { user: 0, system: 0 };
const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');

/** Microseconds between the profiler's samples (--cpu-split): a run of 20 ms still gets some 80. */
const SAMPLING_US = 250;
/** The columns of --cpu-split's table; splitSamples names each by this object's keys, so a reorder cannot mislabel one. */
const SPLIT_PARTS = {
  engine: 'engine',
  conversion: 'conversion',
  otherJavaScript: 'other JavaScript (run.ts, bridge.ts)',
  collections: 'V8 GC',
  noJavaScriptFrame: 'V8 with no JS frame ((program), (root), (idle))',
} as const;
type SplitPart = keyof typeof SPLIT_PARTS;
const SPLIT_ORDER = Object.keys(SPLIT_PARTS) as SplitPart[];

if (args.facts === undefined && args.writes !== undefined) {
  for (const size of args.sizes!.split(',').map(Number).filter((n) => n > 0)) {
    const child = (...more: string[]) => execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--facts', String(size), '--writes', args.writes!, ...CHILD_FLAGS, ...more], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const grown = child();
    process.stdout.write(grown);
    if (!args.check) continue;
    const fresh = child('--fresh');
    process.stdout.write(fresh);
    const digest = (output: string) => /results digest: (\w+)/.exec(output)?.[1];
    console.log(`   the 15 frameworks after the writes ${digest(grown) === digest(fresh) ? 'equal' : 'DIFFER FROM'} a fresh engine's over the written graph`);
  }
} else if (args.writes !== undefined) {
  await writesAndHandOvers(Number(args.writes), Boolean(args.fresh));
} else if (args.facts === undefined) {
  const folder = mkdtempSync(path.join(tmpdir(), 'parley-handover-'));
  try {
    for (const size of args.sizes!.split(',').map(Number).filter((n) => n > 0)) {
      const image = path.join(folder, `${size}.image`);
      const child = (...more: string[]) => execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--facts', String(size), '--image', image, ...CHILD_FLAGS, ...more], { stdio: 'inherit' });
      child();
      child('--from-image');
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
} else if (args['from-image']) {
  // an engine that never held the view (a restart): the same graph (generate is deterministic), its view from the image
  const { graph } = generatedGraph();
  await loadRuleModules();
  const image = readFileSync(args.image!);
  wholeHandOvers.clock = () => cpuMsSince(processStart);
  const { value: timed, growths, fullCollections } = await memoryEvents(() => timedCpu(() => handOverImage({ graph }, image)));
  if (!timed.value) throw new Error('the image was refused');
  console.log(
    `   hand-over from the image, in an engine that never held the view: ${count(timed.cpuMs)} ms CPU: loading the code ${count(wholeHandOvers.imageMs)} ms, the clause indexes ${count(wholeHandOvers.indexMs)} ms; ` +
      `the engine's memory grown ${growths} times, V8's full collections ${fullCollections}`,
  );
} else {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (npm run bench:handover does)');
  const memory = () => {
    collect();
    collect();
    return process.memoryUsage();
  };
  const { graph, generated } = generatedGraph();
  const facts = generated.facts;
  const catalog = await loadRuleModules();
  const loadBefore = load();
  const before = memory();
  // the hand-over's parts timed in the process's CPU, not the wall clock: the main thread alone runs the hand-over
  // here, but V8's helper threads count too, so the part left over ("the records into lists of facts") also holds
  // the CPU of the collector's concurrent work; the bridge's own clock is put back after
  const wallClock = wholeHandOvers.clock;
  wholeHandOvers.clock = () => cpuMsSince(processStart);
  const { value: timed, growths, fullCollections } = await memoryEvents(() => timedCpu(() => catalog.registry.handOver({ graph })));
  const { cpuMs, ms } = timed;
  wholeHandOvers.clock = wallClock;
  const after = memory();
  const perFact = (bytes: number) => (bytes / facts).toFixed(0);
  console.log(`## ${count(facts)} facts (${count(generated.nodes)} nodes, ${count(generated.edges)} edges, ${count(generated.properties)} properties); load average ${loadBefore} before, ${load()} after`);
  console.log(
    `   hand-over: ${count(ms)} ms wall, ${count(cpuMs)} ms CPU: the last view's facts out ${count(wholeHandOvers.clearMs)} ms, ` +
      `the memory grown ahead ${count(wholeHandOvers.reserveMs)} ms, ` +
      `the records into lists of facts ${count(cpuMs - wholeHandOvers.clearMs - wholeHandOvers.reserveMs - wholeHandOvers.engineMs - wholeHandOvers.indexMs)} ms, ` +
      `the engine taking them (conversion into terms, assertions) ${count(wholeHandOvers.engineMs)} ms, the clause indexes ${count(wholeHandOvers.indexMs)} ms; the engine's memory grown ${growths} times, V8's full collections ${fullCollections}`,
  );
  // the image before the goals below, which read every key (a view of them all would not be this one)
  const made = timedCpu(() => viewImage(graph));
  if (!made.value) throw new Error('no image of the view held');
  writeFileSync(args.image!, made.value);
  console.log(`   its image: ${count(made.cpuMs)} ms CPU to make, ${count(made.value.length)} bytes (${perFact(made.value.length)} per fact)`);
  console.log(`   RSS growth ${perFact(after.rss - before.rss)} bytes per fact, V8 heap growth ${perFact(after.heapUsed - before.heapUsed)} bytes per fact (after a full collection)`);
  // SWI-Prolog's own count of each g_* predicate's clauses and bytes (their indexes included) in the view's slot, the bytes of
  // each clause index built (the arguments it is on: parley_warm's), and the engine's atoms
  const [[sizes, atoms, atomBytes]] = catalog.registry.solveLibrary(
    'active_view(V), findall([PA, C, B, Is], ( view_fact(H), H \\= g_memo(_), functor(H, P, A), format(atom(PA), "~w/~w", [P, A]), ' +
      'predicate_property(V:H, number_of_clauses(C)), predicate_property(V:H, size(B)), ' +
      'findall([Args, S], ( predicate_property(V:H, indexed(L)), member(I, L), get_dict(arguments, I, Args), get_dict(size, I, S) ), Is) ), Sizes), ' +
      'statistics(atoms, Atoms), statistics(atom_space, AtomBytes)',
    ['Sizes', 'Atoms', 'AtomBytes'],
    { graph },
  ) as [[[string, number, number, [number[], number][]][], number, number]];
  console.log('   | facts | clauses | bytes per clause | bytes per fact of the graph | of them clause indexes, by argument |');
  console.log('   |---|---|---|---|---|');
  let [allClauses, allBytes, allIndexes] = [0, 0, 0];
  for (const [predicate, clauses, bytes, indexes] of sizes) {
    [allClauses, allBytes] = [allClauses + clauses, allBytes + bytes];
    allIndexes += indexes.reduce((sum, [, size]) => sum + size, 0);
    const byArgument = indexes.map(([args, size]) => `${args.join('+')}: ${perFact(size)}`).join(', ');
    if (clauses > 0) console.log(`   | ${predicate} | ${count(clauses)} | ${(bytes / clauses).toFixed(0)} | ${perFact(bytes)} | ${byArgument} |`);
  }
  console.log(`   | all g_* facts | ${count(allClauses)} | | ${perFact(allBytes)} | ${perFact(allIndexes)} |`);
  console.log(`   | the engine's atoms (all, the rule modules' included) | ${count(atoms)} | ${(atomBytes / atoms).toFixed(0)} | ${perFact(atomBytes)} |`);
  // counted here, not asked of the engine: a goal reading every key (prop(_, K, _)) would have the view hold them all
  const held = propertyKeysHeld();
  const byKey = new Map<string, number>();
  for (const record of [...graph.nodes.values(), ...graph.edges.values()]) {
    for (const [key, value] of Object.entries(record.properties)) if (value !== null) byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const keyed = (keep: boolean) => [...byKey].filter(([key]) => (held === 'all' || held.includes(key)) === keep).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => `${key} ${count(n)}`);
  console.log(`   properties handed over, by key: ${keyed(true).join(', ')}; left out (no rule reads them): ${keyed(false).join(', ') || 'none'}`);
}

/**
 * --writes: the view handed over, its shared sets and the 15 frameworks, then `writes` ingest-like writes, each handed over
 * and its shared sets kept, by part (CPU, the engine's inferences, the kept answers' cells); then the 15 frameworks again,
 * their results' digest printed. `fresh`: the writes put into the graph first, the view handed over once, written.
 */
async function writesAndHandOvers(writes: number, fresh: boolean) {
  const { graph, generated } = generatedGraph();
  const catalog = await loadRuleModules();
  const { registry } = catalog;
  const frameworks = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
  const limits = { inferenceLimit: 500_000_000, timeLimitMs: 600_000 };
  const view = { graph };
  const written = () => {
    for (let write = 1; write <= writes; write++) putLogged(graph, ...ingest(graph, `bench-ingest-${write}`));
  };
  // the engine's inferences and its kept answers (records: lib/graph.pl view_memo/3, a slot's record and the part records of
  // its answers kept in parts) in cells, and the cells of the records stored since the last count that are still kept (a
  // write's stores, less those it erased again); a goal over the view it holds as it is (no hand-over)
  const engine = (withCells = false) => {
    const [[inferences, cells, stored, after]] = registry.solveLibrary(
      `statistics(inferences, I), ${
        withCells
          ? "findall(R-C, ( current_key(K), atom(K), sub_atom(K, 0, _, _, '$parley_memo_'), recorded(K, T, R), term_size(T, C) ), Kept), " +
            "aggregate_all(sum(C), member(_-C, Kept), S), ( nb_current('$parley_bench_kept', Before) -> true ; Before = [] ), " +
            "aggregate_all(sum(C), ( member(R-C, Kept), \\+ ord_memberchk(R, Before) ), N), pairs_keys(Kept, Rs), sort(Rs, Now), nb_setval('$parley_bench_kept', Now)"
          : 'S = 0, N = 0'
      }, statistics(inferences, J)`,
      ['I', 'S', 'N', 'J'],
      view,
    ) as number[][];
    return { inferences, cells, stored, after };
  };
  // the kept answers over a list (lib/graph.pl keyed_by_list/1: each holds its own copy of the list its key is over), their
  // key lists' cells against the distinct lists', and their answers' cells: what keying them by a shared copy of the list
  // would save; and, over the longest list, what a digest of it (variant_sha1/2) costs against comparing it with an equal
  // copy (==/2, as memo_entry/3 finds an answer now), alternated, each 20 times: a digest on view_memo/3's lookup pays the first
  const overLists = () => {
    const [row] = registry.solveLibrary(
      [
        'findall(L-F, ( user:g_kept(_, R), instance(R, Es), member((_:K)-r(F, _), Es), compound(K), once(( arg(_, K, L), L = [_|_], is_list(L) )) ), Pairs)',
        'length(Pairs, N), aggregate_all(sum(C), ( member(L-_, Pairs), term_size(L, C) ), KeyCells)',
        'aggregate_all(sum(C), ( member(_-F, Pairs), term_size(F, C) ), AnswerCells)',
        'pairs_keys(Pairs, Ls), sort(Ls, Ds), length(Ds, D), aggregate_all(sum(C), ( member(L, Ds), term_size(L, C) ), DistinctCells)',
        '( aggregate_all(max(Len, L), ( member(L, Ds), length(L, Len) ), max(Longest, List)) -> true ; Longest = 0, List = [] )',
        'duplicate_term(List, Copy)',
        'get_time(T0), forall(between(1, 10, _), variant_sha1(List, _)), get_time(T1), forall(between(1, 10, _), List == Copy), get_time(T2)',
        'forall(between(1, 10, _), variant_sha1(List, _)), get_time(T3), forall(between(1, 10, _), List == Copy), get_time(T4)',
        'DigestMs is (T1 - T0 + T3 - T2) / 20 * 1000, CompareMs is (T2 - T1 + T4 - T3) / 20 * 1000',
      ].join(', '),
      ['N', 'KeyCells', 'AnswerCells', 'D', 'DistinctCells', 'Longest', 'DigestMs', 'CompareMs'],
      view,
    ) as number[][];
    const [answers, keyCells, answerCells, distinct, distinctCells, longest, digestMs, compareMs] = row;
    return (
      `kept answers over a list: ${count(answers)}, their key lists ${count(keyCells)} cells (${count(distinct)} distinct lists, ${count(distinctCells)} cells), ` +
      `their answers ${count(answerCells)} cells; the longest list (${count(longest)} ids): a digest (variant_sha1) ${digestMs.toFixed(2)} ms, a comparison with a copy (==) ${compareMs.toFixed(2)} ms`
    );
  };
  // the price of a kept answer's cells, which a write pays for each answer it grows (lib/graph.pl forget_read/4 copies it out
  // of its record, and stores the grown one): the largest kept answer copied out (instance/2) and stored (recordz/3, then
  // erased), each 10 times, in CPU ms a million cells
  const cellPrice = () => {
    const [[cells, outMs, storeMs]] = registry.solveLibrary(
      [
        'aggregate_all(max(C, R), ( user:g_kept(_, R), instance(R, T), term_size(T, C) ), max(Cells, Ref)), instance(Ref, Held)',
        'statistics(cputime, C0), forall(between(1, 10, _), instance(Ref, _)), statistics(cputime, C1)',
        "forall(between(1, 10, _), ( recordz('$parley_bench_price', Held, R), erase(R) )), statistics(cputime, C2)",
        'OutMs is (C1 - C0) / 10 * 1000, StoreMs is (C2 - C1) / 10 * 1000',
      ].join(', '),
      ['Cells', 'OutMs', 'StoreMs'],
      view,
      limits,
    ) as number[][];
    const perMillion = (spent: number) => ((spent * 1e6) / cells).toFixed(1);
    return `the largest kept answer (${count(cells)} cells) copied out ${outMs.toFixed(1)} ms, stored ${storeMs.toFixed(1)} ms CPU (${perMillion(outMs)} and ${perMillion(storeMs)} ms a million cells)`;
  };
  const runAll = () => frameworks.map((manifest) => runFramework(registry, manifest, view, limits));
  if (fresh) written();
  const first = timedCpu(() => registry.handOver(view));
  registry.warmSets(view, limits);
  let runs = timedCpu(runAll);
  console.log(`## ${count(generated.facts)} facts${fresh ? `, ${writes} ${writeName}s put in first (a fresh engine)` : ''}: hand-over ${count(first.cpuMs)} ms CPU; the 15 frameworks ${count(runs.cpuMs)} ms CPU; load average ${load()}`);
  if (!fresh) {
    for (let write = 1; write <= writes; write++) {
      console.log(`   before ${writeName} ${write}: ${overLists()}; ${cellPrice()}`);
      const before = engine(true);
      putLogged(graph, ...ingest(graph, `bench-ingest-${write}`));
      const handOver = timedCpu(() => registry.handOver(view));
      const between = engine();
      const sets = timedCpu(() => registry.warmSets(view, limits));
      const after = engine(true);
      const spent = (from: { after: number }, to: { inferences: number }) => count(to.inferences - from.after);
      console.log(
        `   ${writeName} ${write}: its hand-over ${count(handOver.cpuMs)} ms CPU, ${spent(before, between)} inferences; the shared sets ${count(sets.cpuMs)} ms CPU, ${spent(between, after)} inferences; ` +
          `together ${count(handOver.cpuMs + sets.cpuMs)} ms CPU; kept answers ${count(before.cells)} → ${count(after.cells)} cells, ${count(after.stored)} of them stored by the write and its sets; load average ${load()}`,
      );
      runs = args['cpu-split'] ? await cpuSplit(registry, frameworks, view, limits) : timedCpu(runAll);
      console.log(`   the 15 frameworks after it: ${count(runs.cpuMs)} ms CPU, ${count(runs.value.reduce((sum, run) => sum + run.inferences, 0))} inferences`);
    }
  }
  const results = JSON.stringify(runs.value, (key, value) => (key === 'inferences' ? undefined : value));
  console.log(`   results digest: ${createHash('sha256').update(results).digest('hex')}`);
}

/**
 * --cpu-split: the 15 frameworks run once each under V8's sampling profiler, each run's samples split by their stack: in
 * swipl-wasm's toJSON or bridge.ts toJs, the answers' conversion into JavaScript; else under swipl-wasm's calls, the engine
 * (the rules, and lib/graph.pl's own work on the answers, plain/2 and their copy, which its inference counts leave out);
 * V8's garbage collector; V8's (program), (root) and (idle), with no JavaScript frame; the rest, the other JavaScript
 * (run.ts, and bridge.ts beyond toJs). The engine's clock of its garbage collections and stack shifts (statistics/2) is
 * read around each run. Prints a table; gives the runs and their CPU as timedCpu does.
 */
async function cpuSplit(registry: RuleRegistry, frameworks: FrameworkManifest[], view: GraphView, limits: { inferenceLimit: number; timeLimitMs: number }) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  const engineClock = () => {
    const [[collectionMs, shiftSeconds]] = registry.solveLibrary('statistics(garbage_collection, [_, _, G|_]), statistics(shift_time, S)', ['G', 'S'], view) as number[][];
    return collectionMs + shiftSeconds * 1000;
  };
  const value: FrameworkRun[] = [];
  const rows: number[][] = [];
  let wallMs = 0;
  try {
    for (const manifest of frameworks) {
      const clockBefore = engineClock();
      await session.post('Profiler.start');
      const { value: run, ms, cpuMs } = timedCpu(() => runFramework(registry, manifest, view, limits));
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      const shares = splitSamples(profile);
      const sampled = SPLIT_ORDER.reduce((sum, part) => sum + shares[part], 0) || 1;
      value.push(run);
      wallMs += ms;
      rows.push([cpuMs, run.inferences, ...SPLIT_ORDER.map((part) => (cpuMs * shares[part]) / sampled), engineClock() - clockBefore]);
    }
  } finally {
    session.disconnect();
  }
  const total = rows[0].map((_, column) => rows.reduce((sum, row) => sum + row[column], 0));
  console.log(`   the 15 runs after the write, CPU split by their samples (${SAMPLING_US} µs apart; each part its share of the run's CPU, ms); load average ${load()}`);
  console.log(`   | framework | CPU ms | inferences | ${SPLIT_ORDER.map((part) => SPLIT_PARTS[part]).join(' | ')} | engine's collections and stack shifts (its clock, ms) |`);
  console.log(`   |---|---|---|${SPLIT_ORDER.map(() => '---|').join('')}---|`);
  for (const [i, row] of [...rows, total].entries()) console.log(`   | ${frameworks[i]?.id ?? 'all 15'} | ${row.map(count).join(' | ')} |`);
  return { value, ms: wallMs, cpuMs: total[0] };
}

/** A profile's sampled ms in each of SPLIT_PARTS (cpuSplit), the profiler's own samples left out. */
function splitSamples(profile: Profile): Record<SplitPart, number> {
  const { byId, parent } = profileTree(profile);
  const partOf = new Map<number, SplitPart | null>();
  const part = (leaf: number): SplitPart | null => {
    const known = partOf.get(leaf);
    if (known !== undefined) return known;
    const frames: ProfileNode['callFrame'][] = [];
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) frames.push(byId.get(id)!.callFrame);
    const within = (name: string, file: string) => frames.some((frame) => frame.functionName === name && frame.url.includes(file));
    // the profiler's own start and stop (Session.post) are sampled too, though outside the run's CPU: at 100k they were
    // some 10% of the samples, and would be spread over the run's parts as "other JavaScript"
    const found: SplitPart | null =
      frames.some((frame) => frame.url.startsWith('node:inspector')) ? null :
      frames[0].functionName === '(garbage collector)' ? 'collections' :
      ['(program)', '(root)', '(idle)'].includes(frames[0].functionName) ? 'noJavaScriptFrame' :
      within('toJSON', 'swipl') || within('toJs', 'prolog/bridge.ts') ? 'conversion' :
      frames.some((frame) => frame.url.includes('swipl') || frame.url.startsWith('wasm://')) ? 'engine' :
      'otherJavaScript';
    partOf.set(leaf, found);
    return found;
  };
  const ms = Object.fromEntries(SPLIT_ORDER.map((part) => [part, 0])) as Record<SplitPart, number>;
  profile.samples.forEach((sample, i) => {
    const found = part(sample);
    if (found !== null) ms[found] += (profile.timeDeltas[i + 1] ?? 0) / 1000;
  });
  return ms;
}

/** The generated conflict graph of --facts facts as a GraphIndex, and what generated it (its records let go). */
function generatedGraph() {
  const generated = generate(Number(args.facts), { extracted: args['extracted-shape'] === true });
  const graph = generatedIndex(generated.write, new Date().toISOString());
  generated.write.nodes.length = 0;
  generated.write.edges.length = 0;
  return { graph, generated };
}
