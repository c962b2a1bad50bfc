/**
 * bench/batch: `analyze-corpus`'s ingest (engine/ingest/batch.ts) over the sample
 * corpus, in documents/s and sentences/s, with the symbolic layer on 1 worker and on the
 * pool, measured in the same run and alternated round by round (the machines are
 * shared and noisy: read the ratio). Each run gets a fresh LevelDB store and a pool
 * whose workers have loaded their gazetteers before the clock starts. Target: the pool
 * at >= 0.9 x workers x the 1-worker rate.
 *
 * The process's CPU time (all threads) beside the wall time says how many cores the run
 * actually got: with the kernel's autogroup scheduling a session's threads share one
 * slice of a busy machine, so extra workers only add speed when cores are idle. CPU
 * per document says whether the pool itself adds work. On Linux it is split by thread
 * (/proc/self/task): the main thread (resolving drafts against the graph, committing),
 * the symbolic workers (reading and structuring), and the other threads (V8's compiler and
 * garbage-collector helpers, I/O). Everything but the workers' share competes with them
 * for the cores, so the line "ceiling" gives the pool / 1-worker ratio an idle machine
 * with these cores allows from those figures alone: a run takes at least its busiest
 * worker's CPU time, its main thread's, and its total CPU time spread on every core.
 *
 * Each line also says what the batch's commits wrote to LevelDB (keys and values, bench/written-bytes.ts):
 * per commit, per document, and the largest commit.
 *
 * With --warm N the workers draft the whole corpus N times before the clock starts, so
 * the figures are those of a long batch, whose compiled code is warm (a 32-document run
 * from fresh workers spends about as much CPU compiling as extracting).
 *
 * With --read-ahead N (documents per worker) and --gather N (drafts each commit waits for) the
 * commits gather as on many cores, where the drafts wait for the main thread and each commit takes
 * all that are ready: on two cores, --read-ahead 16 --gather 16 gives commits of 16 documents, as
 * sixteen workers ahead of one main thread would (ingestFolder's readAhead and gather).
 *
 * The process tiers up as `parley analyze-corpus` does (tierUpForBatch); with
 * --v8-default-tier-up it keeps V8's default, to compare.
 *
 * With --copies N the batch reads the corpus N times over (in a temporary folder), each copy's
 * documents with one line of their own added, so each is a new document about the same actors:
 * a longer batch, whose figures per document leave out what a batch does once (reading the
 * graph's actors and names, building their directory) and show what grows as the graph's actors
 * gather provenance.
 *
 * With --into-facts N the batch goes into a graph that holds a generated conflict graph of N
 * facts already (bench/conflict-graph.ts, written before the clock starts): a monitoring
 * project's busy graph, whose actors every document is resolved against. What the main thread
 * spends per document should not grow with it. With --contested-name the graph also holds two
 * actors that claim one name (an alias both carry), as a graph where users imported overlapping
 * lists does: what the main thread spends per document should not grow with that either.
 *
 *   npm run bench:batch [-- --workers 2 --rounds 2 --warm 0 --corpus corpora/sudan-drc-2024 --copies 1 --into-facts 0 --contested-name --v8-default-tier-up --read-ahead 4 --gather 1]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { BATCH_INTERRUPT_BUDGET, ingestFolder, listCorpus, READ_AHEAD_PER_WORKER, tierUpForBatch } from '../engine/ingest/batch.ts';
import { copiedCorpus } from './batch-corpus.ts';
import { readSource } from '../engine/extract/source.ts';
import { ParleyStore, type GraphWrite } from '../engine/store/store.ts';
import { writeInChunks } from './cold-start.ts';
import { generate } from './conflict-graph.ts';
import { threadCpu } from './thread-cpu.ts';
import { countWrittenBytes, type WrittenBytes } from './written-bytes.ts';

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: String(availableParallelism()) },
    rounds: { type: 'string', default: '2' },
    warm: { type: 'string', default: '0' },
    corpus: { type: 'string', default: 'corpora/sudan-drc-2024' },
    copies: { type: 'string', default: '1' },
    'into-facts': { type: 'string', default: '0' },
    'contested-name': { type: 'boolean', default: false },
    'v8-default-tier-up': { type: 'boolean', default: false },
    'read-ahead': { type: 'string', default: String(READ_AHEAD_PER_WORKER) },
    gather: { type: 'string', default: '1' },
  },
});
const WORKERS = Number(args.workers);
const ROUNDS = Number(args.rounds);
const WARM = Number(args.warm);
const COPIES = Number(args.copies);
/** The corpus as given: what the workers draft to warm up (its copies would overflow the pool's queue). */
const ORIGINAL = path.resolve(args.corpus!);
const CORPUS = COPIES > 1 ? await copiedCorpus(ORIGINAL, COPIES) : ORIGINAL;
const INTO_FACTS = Number(args['into-facts']);
const existingGraph = INTO_FACTS > 0 ? generate(INTO_FACTS).write : undefined;
const CONTESTED_NAME: GraphWrite = {
  nodes: ['North', 'South'].map((wing) => ({ id: `front-${wing.toLowerCase()}`, labels: ['Actor'], properties: { label: `Lakeside Front ${wing}`, actor_type: 'armed_group', aliases: ['Lakeside Front'] } })),
  edges: [],
};
// as `parley analyze-corpus` runs a batch, unless asked for V8's default (to compare)
if (!args['v8-default-tier-up']) tierUpForBatch();

interface Measure {
  documents: number;
  sentences: number;
  seconds: number;
  /** CPU seconds of the whole process (every thread) during the batch. */
  cpuSeconds: number;
  /** CPU milliseconds by thread kind during the batch (Linux), or null. */
  threads: { main: number; workers: number; other: number } | null;
  /** What the batch's commits wrote to LevelDB. */
  written: WrittenBytes;
}

async function measure(workers: number): Promise<Measure> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-batch-'));
  const store = await ParleyStore.open(path.join(dir, 'store'));
  if (existingGraph) await writeInChunks(store, 'batch', existingGraph);
  if (args['contested-name']) await store.writeGraph('bench', 'batch', CONTESTED_NAME);
  const { pipeline } = await openExtractionPipeline({ symbolicWorkers: workers });
  try {
    // every worker loads its gazetteers before the clock starts
    const warm = await readSource(CORPUS, (await listCorpus(CORPUS))[0]);
    const beforeWorkers = threadCpu();
    await Promise.all(Array.from({ length: workers * 2 }, () => pipeline.draft({ text: warm.text, source: warm.source }, { tier: 'full' })));
    const corpus = await Promise.all((await listCorpus(ORIGINAL)).map((source) => readSource(ORIGINAL, source)));
    for (let pass = 0; pass < WARM; pass++) await Promise.all(corpus.map((document) => pipeline.draft({ text: document.text, source: document.source }, { tier: 'full' })));
    // before the clock: the first call opens a throwaway LevelDB to find the batch's class (bench/written-bytes.ts)
    const writing = await countWrittenBytes();
    const before = threadCpu();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const summary = await ingestFolder({ store, pipeline }, CORPUS, { tenant: 'bench', graphId: 'batch', workers, readAhead: Number(args['read-ahead']), gather: Number(args.gather) });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const after = threadCpu();
    const written = writing.stop();
    if (summary.failures.length > 0) throw new Error(`failures: ${JSON.stringify(summary.failures)}`);
    if (summary.skipped > 0) throw new Error(`${summary.skipped} documents skipped: the corpus holds the same text twice`);
    let threads: Measure['threads'] = null;
    if (beforeWorkers && before && after) {
      threads = { main: 0, workers: 0, other: 0 };
      for (const [tid, ms] of after) {
        const spent = ms - (before.get(tid) ?? 0);
        // the threads that appeared while the pool warmed up are its workers
        const kind = tid === String(process.pid) ? 'main' : before.has(tid) && !beforeWorkers.has(tid) ? 'workers' : 'other';
        threads[kind] += spent;
      }
    }
    return { documents: summary.ingested, sentences: summary.sentences, seconds, cpuSeconds: (used.user + used.system) / 1e6, threads, written };
  } finally {
    await pipeline.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const best = (runs: Measure[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const line = (name: string, m: Measure) =>
  `${name.padEnd(22)} ${(m.documents / m.seconds).toFixed(2).padStart(8)} documents/s ${(m.sentences / m.seconds).toFixed(1).padStart(9)} sentences/s  (${m.documents} documents, ${m.sentences} sentences, ${m.seconds.toFixed(2)} s; CPU ${m.cpuSeconds.toFixed(2)} s = ${(m.cpuSeconds / m.seconds).toFixed(2)} cores, ${((1000 * m.cpuSeconds) / m.documents).toFixed(0)} CPU ms/document` +
  (m.threads ? `: main thread ${(m.threads.main / m.documents).toFixed(1)}, symbolic workers ${(m.threads.workers / m.documents).toFixed(1)}, other threads ${(m.threads.other / m.documents).toFixed(1)})` : ')') +
  `; written ${m.written.batches} commits, ${Math.round(m.written.characters / Math.max(1, m.written.batches))} bytes per commit, ${Math.round(m.written.characters / m.documents)} per document, largest ${m.written.largest}`;

console.log(`bench:batch  corpus ${args.corpus}${COPIES > 1 ? ` ${COPIES} times over` : ''}${INTO_FACTS > 0 ? ` into a graph of ${INTO_FACTS} facts` : ''}${args['contested-name'] ? ' with a contested name' : ''}, pool of ${WORKERS} workers, ${args['read-ahead']} read ahead per worker, commits waiting for ${args.gather}, ${ROUNDS} rounds, best of each, ${WARM} warm-up passes, V8 tier-up budget ${args['v8-default-tier-up'] ? "V8's default" : `${BATCH_INTERRUPT_BUDGET} (the batch's)`}; cores ${availableParallelism()}, load ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
const single: Measure[] = [];
const pooled: Measure[] = [];
for (let round = 0; round < ROUNDS; round++) {
  single.push(await measure(1));
  pooled.push(await measure(WORKERS));
}
const one = best(single);
const pool = best(pooled);
console.log(line('1 worker', one));
console.log(line(`pool (${WORKERS} workers)`, pool));
const ratio = one.seconds / pool.seconds;
console.log(`pool / 1 worker: ${ratio.toFixed(2)}x; target >= ${(0.9 * WORKERS).toFixed(2)}x (0.9 x ${WORKERS} workers): ${ratio >= 0.9 * WORKERS ? 'met' : 'NOT met'}; load after ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
if (one.threads && pool.threads) {
  const cores = availableParallelism();
  const least = (m: Measure, workers: number) => Math.max(m.threads!.workers / workers, m.threads!.main, (1000 * m.cpuSeconds) / cores) / m.documents;
  console.log(
    `ceiling on ${cores} idle cores from the CPU figures: ${(least(one, 1) / least(pool, WORKERS)).toFixed(2)}x ` +
      `(a run takes at least max(symbolic workers / workers, main thread, all threads / cores) per document: 1 worker ${least(one, 1).toFixed(1)} ms, pool ${least(pool, WORKERS).toFixed(1)} ms)`,
  );
}
if (COPIES > 1) await rm(CORPUS, { recursive: true, force: true });
