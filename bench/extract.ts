/**
 * bench/extract: extraction throughput in sentences per second, every configuration
 * measured in the same run (the machines are shared and noisy, so read the ratios):
 *   - the symbolic layer alone (symbolic conflict layer, calling thread);
 *   - the neural layer alone and the full pipeline (neural + symbolic + structure), run on the
 *     calling thread (no worker) and on pools of 1, 2, 4, 8 and 16 workers up to the machine's
 *     cores (--pools), each NER worker with one ONNX thread and as many symbolic workers; each
 *     pool's rate is also given against workers × the 1-worker rate (1.00 = perfect scaling),
 *     with the NER batches' mean size (sentences per worker task). The full pipeline
 *     runs as a batch runs it: drafted in the workers (symbolic layer and structuring, after the
 *     transformer's spans), then resolved on the calling thread (ExtractionPipeline.draft
 *     and resolve, against no graph).
 * Beside each rate: the CPU time per sentence of the whole process (every thread; the main
 * thread's share in brackets) and the cores it kept busy. A "1 worker" full pipeline is one
 * NER worker and one symbolic worker, which work on different documents at once, so it already
 * keeps more than one core busy; the scaling line gives the ratio the cores allow at the
 * pool's CPU per sentence.
 * The models: the one shipped in engine/extract/neural/model/ (what the service runs by
 * default) and the test suite's tiny generated one, which measures the layer's own overhead
 * (splitting, tokenizing, messaging, grouping); and a third, PARLEY_NER_MODEL_DIR, where it is
 * set (a candidate to compare with the shipped one).
 * By batch size: the neural layer alone on 1 worker with at most 1, 4, 16, 32 and 64 sentences
 * per worker task (--batches), the CPU per sentence of each. A model of 16 cores follows from
 * the CPU figures of the neural layer alone (a model, not a measure: see modelledPool).
 * Sentences come from corpora/ plus generated ones of about 40 words.
 *
 *   npm run bench:extract [-- --sentences 120 --runs 3 --concurrency 4 --pools 0,1,2,4,8,16
 *     --batches 1,4,16,32,64 --neural-only]
 * --neural-only skips the symbolic layer and the full pipeline. --scale-in-flight keeps
 * --concurrency documents in flight per worker (a pool of 16 gets 64), as a loaded server's
 * pool would have, where by default every configuration gets --concurrency: four documents of
 * ten sentences cannot give 16 workers more than 2.5 sentences each (give --sentences enough
 * for the in-flight documents).
 */
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createNerBackend, type PooledNerBackend } from '../engine/extract/neural/backend.ts';
import { PooledSymbolicLayer } from '../engine/extract/symbolic/pool.ts';
import { SHIPPED_NER_MODEL_DIR } from '../engine/extract/neural/model-dir.ts';
import { htmlToText } from '../engine/extract/source.ts';
import { splitSentences } from '../engine/extract/neural/sentences.ts';
import { splitWords } from '../engine/extract/neural/words.ts';
import type { DocumentInput, Findings, NerBackend } from '../engine/extract/types.ts';
import { buildTinyNerModel } from '../test/helpers/tiny-ner-model.ts';
import { threadCpu } from './thread-cpu.ts';
import { median } from './stats.ts';

const { values: args } = parseArgs({
  options: {
    sentences: { type: 'string', default: '120' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    pools: { type: 'string', default: '0,1,2,4,8,16' },
    batches: { type: 'string', default: '1,4,16,32,64' },
    'neural-only': { type: 'boolean', default: false },
    'scale-in-flight': { type: 'boolean', default: false },
  },
});
const SENTENCES = Number(args.sentences);
const RUNS = Number(args.runs);
/** Documents in flight at once, as concurrent extraction requests would be. */
const CONCURRENCY = Number(args.concurrency);
const SENTENCES_PER_DOCUMENT = 10;
const CORES = availableParallelism();
const numbers = (list: string) => list.split(',').filter(Boolean).map(Number);
/** Pool sizes measured: those the machine has the cores for. */
const POOLS = numbers(args.pools).filter((n) => n <= CORES);
const BATCHES = numbers(args.batches);
const NEURAL_ONLY = args['neural-only'];
/** Documents in flight for a configuration of `workers` workers. */
const inFlightFor = (workers: number) => (args['scale-in-flight'] ? CONCURRENCY * Math.max(1, workers) : CONCURRENCY);
/** The pool size the model below speaks of. */
const MODELLED_CORES = 16;
const CORPORA_DIR = path.resolve(import.meta.dirname, '../corpora');

const MODELS: { name: string; open(): Promise<{ dir: string; remove(): Promise<void> }> }[] = [
  { name: 'shipped', open: async () => ({ dir: SHIPPED_NER_MODEL_DIR, remove: async () => undefined }) },
  { name: 'tiny (test model)', open: () => buildTinyNerModel({ noise: 0.5 }) },
  // A candidate model beside the shipped one, so that the two compare in the same run.
  ...(process.env.PARLEY_NER_MODEL_DIR && process.env.PARLEY_NER_MODEL_DIR !== 'none'
    ? [{ name: `PARLEY_NER_MODEL_DIR (${process.env.PARLEY_NER_MODEL_DIR})`, open: async () => ({ dir: path.resolve(process.env.PARLEY_NER_MODEL_DIR!), remove: async () => undefined }) }]
    : []),
];

// ---------------------------------------------------------------------------------------------
// Sentences

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SLOTS = {
  actor: ['The Rapid Support Forces', 'The Sudanese Armed Forces', 'M23 rebels', 'General Abdel Fattah al-Burhan', 'Mohamed Hamdan Dagalo', 'The African Union', 'Government troops'],
  verb: ['attacked', 'shelled', 'besieged', 'withdrew from', 'captured', 'bombed markets in'],
  place: ['El Fasher', 'Khartoum', 'Goma', 'Nyala', 'the Abu Shouk camp', 'Port Sudan', 'North Kivu'],
  date: ['on 3 March 2024', 'last Tuesday', 'in April 2023', 'early on Monday', 'before dawn on 5 March'],
  speaker: ['a spokesman for the army', 'residents', 'the United Nations', 'medical staff at the Saudi Hospital', 'local officials'],
  claim: ['would never accept a ceasefire that leaves fighters in the cities', 'were ready to attend talks in Jeddah', 'demanded the withdrawal of all forces from civilian homes', 'accused the other side of blocking aid convoys'],
};

function generatedSentence(random: () => number): string {
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)]!;
  return (
    `${pick(SLOTS.actor)} ${pick(SLOTS.verb)} ${pick(SLOTS.place)} ${pick(SLOTS.date)}, killing dozens of civilians, ` +
    `and ${pick(SLOTS.speaker)} said that ${pick(SLOTS.actor).replace(/^The /, 'the ')} ${pick(SLOTS.claim)} while the fighting spread to ${pick(SLOTS.place)}.`
  );
}

async function corpusSentences(): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(CORPORA_DIR);
  } catch {
    return [];
  }
  const sentences: string[] = [];
  // The corpus documents, not the folder's README.
  for (const name of names.filter((n) => /\.(txt|md|html?)$/.test(n) && !/^readme\./i.test(n)).sort()) {
    const raw = await readFile(path.join(CORPORA_DIR, name), 'utf8');
    const text = /\.html?$/.test(name) ? htmlToText(raw).text : raw;
    for (const span of splitSentences(text)) sentences.push(text.slice(span.start, span.end).replace(/\s+/g, ' '));
  }
  return sentences;
}

function documentsOf(sentences: string[]): DocumentInput[] {
  const documents: DocumentInput[] = [];
  for (let i = 0; i < sentences.length; i += SENTENCES_PER_DOCUMENT) {
    documents.push({ text: sentences.slice(i, i + SENTENCES_PER_DOCUMENT).join(' '), source: `bench-${i / SENTENCES_PER_DOCUMENT}`, document_date: '2024-03-06' });
  }
  return documents;
}

// ---------------------------------------------------------------------------------------------
// Measuring


/** One pass over the documents with `inFlight` of them in flight, and the CPU it took. */
interface Pass {
  sentences: number;
  seconds: number;
  /** CPU milliseconds of the whole process (every thread) and of its main thread (Linux; null elsewhere). */
  cpuMs: number;
  mainMs: number | null;
  /** CPU milliseconds of the busiest other thread (a worker, in the configurations with workers), or null. */
  busiestMs: number | null;
}

async function pass(work: (d: DocumentInput) => unknown, inFlight: number, over: DocumentInput[] = documents): Promise<Pass> {
  let next = 0;
  const threadsBefore = threadCpu();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < over.length) await work(over[next++]!);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const threadsAfter = threadCpu();
  const spent = threadsBefore && threadsAfter ? [...threadsAfter].map(([tid, ms]) => [tid, ms - (threadsBefore.get(tid) ?? 0)] as const) : null;
  const main = String(process.pid);
  return {
    sentences: over.reduce((sum, d) => sum + splitSentences(d.text).length, 0),
    seconds,
    cpuMs: (used.user + used.system) / 1000,
    mainMs: spent ? (spent.find(([tid]) => tid === main)?.[1] ?? 0) : null,
    busiestMs: spent ? Math.max(0, ...spent.filter(([tid]) => tid !== main).map(([, ms]) => ms)) : null,
  };
}

const rateOf = (measured: Pass) => measured.sentences / measured.seconds;

/** A workload's median rate, with the CPU its measured runs took in all. */
interface Measured {
  rate: number;
  /** CPU milliseconds per sentence: the whole process, and its main thread. */
  cpuPerSentence: number;
  mainPerSentence: number | null;
  /** Batches of sentences per worker task, mean (neural layer alone; null elsewhere). */
  meanBatch?: number | null;
  /** Cores the workload kept busy on average (CPU time / wall time). */
  cores: number;
  /**
   * The least time per sentence (ms) an idle machine allows from these CPU figures: at
   * least the busiest thread's CPU, the main thread's, and the whole process's spread over
   * every core. Null without per-thread figures.
   */
  leastMs: number | null;
}

/**
 * Median rate of each workload after a warm-up pass. The workloads take turns within every
 * run, so that load from other processes on the shared machine falls on all of them alike.
 */
async function interleaved(workloads: ((d: DocumentInput) => unknown)[], inFlight: number[] = workloads.map(() => CONCURRENCY)): Promise<Measured[]> {
  // A whole pass each: the symbolic layer runs about three times slower over its first ten documents (JIT).
  for (const [i, work] of workloads.entries()) await pass(work, inFlight[i]!);
  const passes = workloads.map((): Pass[] => []);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, work] of workloads.entries()) passes[i]!.push(await pass(work, inFlight[i]!));
  }
  return passes.map((runs) => {
    const sum = (value: (p: Pass) => number) => runs.reduce((total, p) => total + value(p), 0);
    const sentenceCount = sum((p) => p.sentences);
    return {
      rate: median(runs.map(rateOf)),
      cpuPerSentence: sum((p) => p.cpuMs) / sentenceCount,
      mainPerSentence: runs.every((p) => p.mainMs !== null) ? sum((p) => p.mainMs!) / sentenceCount : null,
      cores: sum((p) => p.cpuMs) / 1000 / sum((p) => p.seconds),
      leastMs: runs.every((p) => p.mainMs !== null && p.busiestMs !== null)
        ? Math.max(sum((p) => p.busiestMs!), sum((p) => p.mainMs!), sum((p) => p.cpuMs) / CORES) / sentenceCount
        : null,
    };
  });
}

type SymbolicModule = { findConflictEntities(document: DocumentInput): Findings | Promise<Findings> };
type PipelineModule = typeof import('../engine/extract/pipeline.ts');

async function optionalImport<T>(specifier: string): Promise<{ module: T } | { missing: string }> {
  try {
    return { module: (await import(specifier)) as T };
  } catch (error) {
    return { missing: (error as Error).message.split('\n')[0]! };
  }
}

interface Row {
  measure: string;
  model: string;
  threads: string;
  rate: number | null;
  baseline?: number | null;
  cpu?: Measured;
  note?: string;
}

const rows: Row[] = [];

const [loadAtStart] = loadavg();
const corpus = await corpusSentences();
const random = seededRandom(2024);
const sentences = [...corpus];
while (sentences.length < SENTENCES) sentences.push(generatedSentence(random));
sentences.length = SENTENCES;
const documents = documentsOf(sentences);
const meanWords = sentences.reduce((sum, s) => sum + splitWords(s).length, 0) / sentences.length;
console.log(
  `bench:extract — ${SENTENCES} sentences (${Math.min(corpus.length, SENTENCES)} from corpora/, mean ${meanWords.toFixed(1)} words incl. punctuation) ` +
    `in ${documents.length} documents, ${CONCURRENCY} in flight${args['scale-in-flight'] ? ' per worker' : ''}, median of ${RUNS} runs; ${CORES} cores, Node ${process.versions.node}\n`,
);

const symbolic = await optionalImport<SymbolicModule>('../engine/extract/symbolic/index.ts');
if (NEURAL_ONLY) {
  // skipped by the flag
} else if ('module' in symbolic) {
  const [measured] = await interleaved([(d) => (symbolic.module as SymbolicModule).findConflictEntities(d)]);
  rows.push({ measure: 'symbolic layer alone', model: '-', threads: 'calling thread', rate: measured!.rate, cpu: measured! });
} else {
  rows.push({ measure: 'symbolic layer alone', model: '-', threads: '-', rate: null, note: `symbolic layer missing (${symbolic.missing})` });
}
const pipelineModule = NEURAL_ONLY ? { missing: 'skipped (--neural-only)' } : await optionalImport<PipelineModule>('../engine/extract/pipeline.ts');

const CONFIGURATIONS = POOLS.map((workers) => ({ workers, threads: workers === 0 ? 'no worker (calling thread)' : workers === 1 ? '1 worker' : `pool of ${workers} workers` }));

/** Mean sentences per worker task from now on (every pass, the warm-up pass included), from the backend's own count. */
function meanBatchSince(backend: PooledNerBackend): () => number {
  const start = { ...backend.sent };
  return () => (backend.sent.sentences - start.sentences) / Math.max(1, backend.sent.batches - start.batches);
}

/**
 * Sentences per second a pool of `cores` workers would reach on an idle machine, from CPU
 * figures measured here: each worker spends `workerMs` per sentence (what the workers of the
 * largest pool measured spent, all together, per sentence: assumed not to grow with more
 * workers, which the issue's 16-core run contradicts for the old code), and the calling
 * thread `mainMs`, which does not spread (splitting, messages, grouping): the slower of the two.
 */
function modelledPool(cores: number, workerMs: number, mainMs: number): number {
  return 1000 * Math.min(cores / workerMs, 1 / mainMs);
}
const modelLines: string[] = [];
const batchRows: Row[] = [];

const scaling: string[] = [];
for (const { name, open } of MODELS) {
  const model = await open();
  const backends: PooledNerBackend[] = [];
  const symbolicPools: PooledSymbolicLayer[] = [];
  try {
    for (const { workers } of CONFIGURATIONS) backends.push(await createNerBackend({ modelDir: model.dir, workers, maxQueue: inFlightFor(workers) * 4 }));
    const workloads: { measure: string; threads: string; workers: number; work: (d: DocumentInput) => unknown; meanBatch?: () => number }[] = [];
    backends.forEach((backend, i) => {
      const { threads, workers } = CONFIGURATIONS[i]!;
      workloads.push({ measure: 'neural layer alone', threads, workers, work: (d) => backend.recognise([d.text]), meanBatch: meanBatchSince(backend) });
      if ('module' in pipelineModule) {
        // The pipeline would close its backend; these are closed below, so it gets a view without close().
        const ner: NerBackend = { model: backend.model, recognise: (texts) => backend.recognise(texts), close: async () => undefined };
        const pool = workers > 0 ? new PooledSymbolicLayer({ workers, maxQueue: inFlightFor(workers) * 4 }) : undefined;
        if (pool) symbolicPools.push(pool);
        const pipeline = pipelineModule.module.createExtractionPipeline({ ner, ...(pool ? { symbolic: pool } : {}) });
        workloads.push({
          measure: 'full pipeline',
          threads,
          workers,
          work: async (d) => {
            const draft = await pipeline.draft(d, { tier: 'full' });
            if (!pipeline.resolve(draft, d, { tier: 'full' })) throw new Error('a draft against no graph always stands');
          },
        });
      }
    });
    const results = await interleaved(
      workloads.map((w) => w.work),
      workloads.map((w) => inFlightFor(w.workers)),
    );
    for (const measure of ['neural layer alone', 'full pipeline']) {
      const measured = workloads.map((w, i) => ({ ...w, ...results[i]!, meanBatch: w.meanBatch?.() ?? null })).filter((w) => w.measure === measure);
      for (const w of measured) rows.push({ measure, model: name, threads: w.threads, rate: w.rate, baseline: measured[0]!.rate, cpu: w });
      const one = measured.find((w) => w.workers === 1);
      for (const pool of one ? measured.filter((w) => w.workers > 1) : []) {
        const size = pool.workers;
        const ratio = pool.rate / (size * one!.rate);
        // What an idle machine allows from the CPU figures: a 1-worker run that already keeps
        // more than one core busy leaves the pool less to gain.
        const ceiling = one!.leastMs !== null && pool.leastMs !== null ? one!.leastMs / (size * pool.leastMs) : null;
        scaling.push(
          `${measure}, ${name} model: pool of ${size} ${pool.rate.toFixed(1)} / (${size} x 1 worker ${one!.rate.toFixed(1)}) = ${ratio.toFixed(2)} ${ratio >= 0.75 ? '(>= 0.75)' : '(below 0.75)'}; ` +
            `1 worker kept ${one!.cores.toFixed(2)} cores busy (${one!.cpuPerSentence.toFixed(2)} CPU ms/sentence), the pool ${pool.cores.toFixed(2)} (${pool.cpuPerSentence.toFixed(2)}): ` +
            (ceiling === null ? '' : `${size} idle cores allow at most ${ceiling.toFixed(2)} (least ms/sentence: 1 worker ${one!.leastMs!.toFixed(2)}, pool ${pool.leastMs!.toFixed(2)})`),
        );
      }
      const largest = measured.filter((w) => w.workers > 0).at(-1);
      if (measure === 'neural layer alone' && one && largest && largest.mainPerSentence !== null && one.mainPerSentence !== null) {
        const workersOf = (w: Measured) => w.cpuPerSentence - w.mainPerSentence!;
        const oneRate = modelledPool(1, workersOf(one), one.mainPerSentence);
        const manyRate = modelledPool(MODELLED_CORES, workersOf(largest), largest.mainPerSentence);
        modelLines.push(
          `${name} model, MODELLED from the ${largest.threads} run's CPU (workers ${workersOf(largest).toFixed(2)} ms/sentence, calling thread ${largest.mainPerSentence.toFixed(2)}) ` +
            `and 1 worker's (${workersOf(one).toFixed(2)}, ${one.mainPerSentence.toFixed(2)}): 1 worker ${oneRate.toFixed(0)} sentences/s, ${MODELLED_CORES} workers ${manyRate.toFixed(0)} ` +
            `(${MODELLED_CORES / workersOf(largest) <= 1 / largest.mainPerSentence ? 'the workers' : 'the calling thread'} the limit) = ${(manyRate / (MODELLED_CORES * oneRate)).toFixed(2)} of ${MODELLED_CORES} x 1 worker (target >= 0.75)`,
        );
      }
    }
    if (BATCHES.length > 0) {
      const bySize = await Promise.all(BATCHES.map((batchSentences) => createNerBackend({ modelDir: model.dir, workers: 1, maxQueue: CONCURRENCY * 4, batchSentences })));
      backends.push(...bySize);
      const meanBatches = bySize.map(meanBatchSince);
      const measured = await interleaved(bySize.map((backend) => (d) => backend.recognise([d.text])));
      measured.forEach((m, i) =>
        batchRows.push({ measure: `at most ${BATCHES[i]} per task`, model: name, threads: '1 worker', rate: m.rate, baseline: measured[0]!.rate, cpu: { ...m, meanBatch: meanBatches[i]!() } }),
      );
    }
  } finally {
    await Promise.all([...backends.map((b) => b.close()), ...symbolicPools.map((pool) => pool.close())]);
    await model.remove();
  }
}

function printTable(header: string[], rows: Row[]): void {
  const table = rows.map((r) => [
    r.measure,
    r.model,
    r.threads,
    r.rate === null ? '-' : r.rate.toFixed(1),
    r.rate !== null && r.baseline ? `${(r.rate / r.baseline).toFixed(2)}x` : '',
    r.cpu ? `${r.cpu.cpuPerSentence.toFixed(2)}${r.cpu.mainPerSentence === null ? '' : ` (${r.cpu.mainPerSentence.toFixed(2)})`}` : '',
    r.cpu ? r.cpu.cores.toFixed(2) : '',
    r.cpu?.meanBatch ? r.cpu.meanBatch.toFixed(1) : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of table) console.log(line(row));
}
printTable(['measure', 'model', 'threads', 'sentences/s', 'vs no worker', 'CPU ms/sentence (main thread)', 'cores busy', 'NER batch'], rows);
console.log(`\npool scaling (target >= 0.75):\n  ${scaling.join('\n  ')}`);
if (batchRows.length > 0) {
  console.log('\nneural layer alone by batch size (most sentences per worker task; NER batch = mean sentences per task):');
  printTable(['batch size', 'model', 'threads', 'sentences/s', 'vs first', 'CPU ms/sentence (main thread)', 'cores busy', 'NER batch'], batchRows);
}
if (modelLines.length > 0) console.log(`\n${MODELLED_CORES}-core model (not measured; an idle machine assumed):\n  ${modelLines.join('\n  ')}`);
for (const row of rows.filter((r) => r.note)) console.log(`\nnote: ${row.measure}: ${row.note}`);
const [loadAtEnd] = loadavg();
console.log(`\nload average (1 min): ${loadAtStart!.toFixed(1)} at start, ${loadAtEnd!.toFixed(1)} at end on ${CORES} cores`);
if (Math.max(loadAtStart!, loadAtEnd!) > CORES) {
  console.log('note: other processes kept the cores busy: the pool cannot show its speed-up; rerun on an idle machine.');
}
if ('missing' in pipelineModule) console.log(`\nnote: full pipeline not measured: pipeline missing (${pipelineModule.missing})`);
