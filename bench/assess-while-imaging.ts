/**
 * bench/assess-while-imaging: the first assess of a graph asked while a worker makes its view image (issue 28; h-cold8's
 * report: piscina counted that worker free, and the assess's tasks given to it waited behind the image). In process, on
 * a fresh store: the graph is preloaded on `--workers` engines, and the first to hold its view is asked for its image at
 * once (no task has run: the idle wait is over); as soon as every engine holds the view, one assess of all frameworks.
 * Prints, per round, the assess's wall and CPU ms (the process's: the image's CPU in it), whether the image was on disk
 * when the assess began and when it ended, when it reached the disk, and a hash of the conclusions (inferences and times
 * left out), which must not differ between commits.
 *
 *   npx tsx bench/assess-while-imaging.ts [--size 200000] [--workers 2] [--rounds 3]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './conflict-graph.ts';
import { writeInChunks } from './cold-start.ts';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { frameworkLimits, loadConfig } from '../server/config.ts';
import { cpuMsSince } from './stats.ts';

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '200000' }, workers: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' } } });
const TENANT = 'bench';
const config = loadConfig({ ...process.env, PARLEY_DATA_DIR: tmpdir() });
const limits = frameworkLimits(config);
const catalog = await loadRuleModules(config.frameworkDirs);
const ids = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.id] : []));
const generated = generate(Number(args.size));
const workers = Number(args.workers);
console.log(`the first assess while a worker makes the view image, ${generated.facts.toLocaleString('en')} facts, ${workers} workers, in process`);
console.log('| round | views held: ms | assess: ms, CPU ms | image on disk at its start, at its end | conclusions (md5) |');
console.log('|---|---|---|---|---|');

const keepAlive = setInterval(() => {}, 1_000); // (the pool's waits keep no process alive)
for (let round = 1; round <= Number(args.rounds); round++) {
  const dir = await mkdtemp(path.join(process.env.TMPDIR ?? tmpdir(), 'parley-bench-imaging-'));
  const store = await ParleyStore.open(path.join(dir, 'store'));
  const pool = await ReasoningPool.open(store, { workers, frameworkDirs: config.frameworkDirs, viewImageIdleMs: 0, callTimeoutMs: 900_000 });
  const imageOnDisk = async () => (await readdir(path.join(dir, 'store', 'snapshots')).catch(() => [] as string[])).some((name) => name.endsWith('.view'));
  try {
    await writeInChunks(store, 'g', generated.write);
    const started = performance.now();
    pool.preload(TENANT, 'g');
    if (!(await pool.viewsPrepared(TENANT, 'g', 600_000))) throw new Error('the views were not handed over within 10 minutes');
    const held = performance.now() - started;
    const before = await imageOnDisk();
    const cpu = process.cpuUsage();
    const assessStarted = performance.now();
    const { runs } = await pool.frameworks(TENANT, 'g', ids, { limits });
    const assessMs = performance.now() - assessStarted;
    const assessCpu = cpuMsSince(cpu);
    const after = await imageOnDisk();
    // when the image reached the disk, from the assess's start (it was being made during the assess when after it)
    while (!(await imageOnDisk()) && performance.now() - assessStarted < 300_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const imageAt = performance.now() - assessStarted;
    const conclusions = JSON.stringify(runs, (name, value) => (/^(inferences|duration_ms|elapsed_ms|run_ms)$/.test(name) ? undefined : value));
    console.log(`| ${round} | ${held.toFixed(0)} | ${assessMs.toFixed(0)}, ${assessCpu.toFixed(0)} | ${before}, ${after}; on disk ${imageAt.toFixed(0)} ms after the assess began | ${createHash('md5').update(conclusions).digest('hex').slice(0, 12)} |`);
  } finally {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
clearInterval(keepAlive);
