/**
 * A restart on an untouched graph, in process: a store holding one generated conflict graph, a reasoning pool
 * that assesses it once and, when it keeps view images (engine/reason/view-images.ts), waits for the image;
 * then the store and a new pool opened afresh, warmed up as a server does once it listens (ReasoningPool.warmUp),
 * and timed until every worker's engine holds the graph's view (the hand-over, from the image or from the
 * records), then the first assess (every framework, the service's limits). Each row gives wall ms and this
 * process's CPU ms (every thread), and the whole hand-overs made, of them from an image, and the runs the first
 * assess took from the runs stored beside the snapshot (engine/reason/stored-runs.ts) and that file's bytes.
 * --at-once asks the first assess as the warm-up starts (a client at the door when the server listens), not once
 * the views are held: its row then gives the warm-up's time up to the assess's answer. --without-stored-runs removes
 * the stored runs before the restart (as when a run of the assess before it met its time limit, or a deploy changed
 * engine/reason), so that the first assess runs every framework on the views handed over.
 *
 * Written to run unchanged on a commit without images or stored runs (a baseline: they are then n/a), alternated
 * with one with.
 *
 *   npx tsx bench/restart-views.ts [--size 100000] [--rounds 2] [--workers 2] [--wait-image-ms 120000] [--at-once] [--without-stored-runs] [--warm-facts N]
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { writeInChunks } from './cold-start.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { ReasoningPool, type ReasoningOptions } from '../engine/reason/pool.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { frameworkLimits, loadConfig } from '../server/config.ts';
import { cpuMsSince } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    'wait-image-ms': { type: 'string', default: '120000' },
    'at-once': { type: 'boolean', default: false },
    'without-stored-runs': { type: 'boolean', default: false },
    'warm-facts': { type: 'string' },
  },
});
const TENANT = 'bench';
const workers = Number(args.workers);
const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

const config = loadConfig({ ...process.env, PARLEY_DATA_DIR: tmpdir() });
const limits = frameworkLimits(config);
const catalog = await loadRuleModules(config.frameworkDirs);
const ids = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
// (an option a commit without images does not read)
// (a fresh assess at 1M facts on a loaded machine takes longer than the default call timeout of 120 s)
// (--warm-facts 0: no graph warmed after the restart, as a graph above the warm-up's budget, 500,000 facts by default)
const options = { workers, frameworkDirs: config.frameworkDirs, viewImageIdleMs: 1_000, callTimeoutMs: 900_000, ...(args['warm-facts'] ? { warmFacts: Number(args['warm-facts']) } : {}) } as ReasoningOptions;
const generated = generate(Number(args.size));
console.log(`restart on an untouched ${generated.facts.toLocaleString('en')}-fact graph, ${workers} workers, in process`);
console.log(`| round | image on disk, bytes | stored runs, bytes | warm-up ${args['at-once'] ? 'to the first assess answered' : 'to views held'}: ms, CPU ms | whole hand-overs, of them from an image | first assess: ms, CPU ms | its runs read from those |`);
console.log('|---|---|---|---|---|---|---|');

// (the pool's waits keep no process alive)
const keepAlive = setInterval(() => {}, 1_000);
for (let round = 1; round <= Number(args.rounds); round++) {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-restart-'));
  const location = path.join(dir, 'store');
  try {
    const setup = await ParleyStore.open(location);
    await writeInChunks(setup, 'g', generated.write);
    const first = await ReasoningPool.open(setup, options);
    await first.frameworks(TENANT, 'g', ids, { limits });
    const snapshots = path.join(location, 'snapshots');
    const image = async () => (await readdir(snapshots).catch(() => [] as string[])).find((name) => name.endsWith('.view'));
    for (const deadline = Date.now() + Number(args['wait-image-ms']); Date.now() < deadline && !(await image()); ) await new Promise((resolve) => setTimeout(resolve, 200));
    await first.close();
    await setup.close();
    const imageName = await image();
    const bytes = imageName ? (await stat(path.join(snapshots, imageName))).size : 0;
    const runsName = (await readdir(snapshots)).find((name) => name.endsWith('.runs'));
    const runsBytes = runsName ? (await stat(path.join(snapshots, runsName))).size.toLocaleString('en') : 'n/a';
    if (runsName && args['without-stored-runs']) await rm(path.join(snapshots, runsName));

    const store = await ParleyStore.open(location);
    const pool = await ReasoningPool.open(store, options);
    try {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const warming = pool.warmUp();
      if (!args['at-once']) {
        await warming;
        if (!(await pool.viewsPrepared(TENANT, 'g', 600_000))) throw new Error('the views were not handed over within 10 minutes');
      }
      // the warm-up's wall and CPU ms so far: to the views held, or (--at-once) to the first assess answered
      const warmedSoFar = () => `${fmt(performance.now() - started)}, ${fmt(cpuMsSince(cpu))}`;
      const viewsHeld = args['at-once'] ? undefined : warmedSoFar();
      const assessCpu = process.cpuUsage();
      const assessStarted = performance.now();
      const { runs } = await pool.frameworks(TENANT, 'g', ids, { limits });
      const assessMs = performance.now() - assessStarted;
      const views = [...pool.heldViews().values()];
      const handOvers = views.reduce((sum, view) => sum + view.handOvers, 0);
      const images = views.every((view) => 'images' in view) ? String(views.reduce((sum, view) => sum + (view as { images: number }).images, 0)) : 'n/a';
      const stored = 'storedRunsRead' in pool ? String(pool.storedRunsRead) : 'n/a';
      const stopped = runs.filter((run) => run.error).map((run) => run.framework_id);
      const warmed = viewsHeld ?? warmedSoFar();
      console.log(`| ${round} | ${bytes.toLocaleString('en')} | ${runsBytes} | ${warmed} | ${handOvers}, ${images} | ${fmt(assessMs)}, ${fmt(cpuMsSince(assessCpu))}${stopped.length ? `; stopped: ${stopped.join(', ')}` : ''} | ${stored} |`);
      await warming;
    } finally {
      await pool.close();
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
clearInterval(keepAlive);
