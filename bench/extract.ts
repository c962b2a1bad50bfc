/**
 * bench/extract: extraction throughput in sentences per second, every configuration
 * measured in the same run (the machines are shared and noisy, so read the ratios):
 *   - the symbolic layer alone (symbolic conflict layer, calling thread);
 *   - the neural layer alone and the full pipeline (neural + symbolic + structure), run on the
 *     calling thread (no worker), on 1 worker, and on the pool (one worker per core), each
 *     NER worker with one ONNX thread and as many symbolic workers; the pool's rate is also
 *     given against workers × the 1-worker rate (1.00 = perfect scaling). The full pipeline
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
 * Sentences come from corpora/ plus generated ones of about 40 words.
 *
 *   npm run bench:extract [-- --sentences 120 --runs 3 --concurrency 4]
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
  },
});
const SENTENCES = Number(args.sentences);
const RUNS = Number(args.runs);
/** Documents in flight at once, as concurrent extraction requests would be. */
const CONCURRENCY = Number(args.concurrency);
const SENTENCES_PER_DOCUMENT = 10;
const CORES = availableParallelism();
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


/** One pass over the documents with CONCURRENCY in flight, and the CPU it took. */
interface Pass {
  sentences: number;
  seconds: number;
  /** CPU milliseconds of the whole process (every thread) and of its main thread (Linux; null elsewhere). */
  cpuMs: number;
  mainMs: number | null;
  /** CPU milliseconds of the busiest other thread (a worker, in the configurations with workers), or null. */
  busiestMs: number | null;
}

async function pass(work: (d: DocumentInput) => unknown, over: DocumentInput[] = documents): Promise<Pass> {
  let next = 0;
  const threadsBefore = threadCpu();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
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
async function interleaved(workloads: ((d: DocumentInput) => unknown)[]): Promise<Measured[]> {
  // A whole pass each: the symbolic layer runs about three times slower over its first ten documents (JIT).
  for (const work of workloads) await pass(work);
  const passes = workloads.map((): Pass[] => []);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, work] of workloads.entries()) passes[i]!.push(await pass(work));
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
    `in ${documents.length} documents, ${CONCURRENCY} in flight, median of ${RUNS} runs; ${CORES} cores, Node ${process.versions.node}\n`,
);

const symbolic = await optionalImport<SymbolicModule>('../engine/extract/symbolic/index.ts');
if ('module' in symbolic) {
  const [measured] = await interleaved([(d) => (symbolic.module as SymbolicModule).findConflictEntities(d)]);
  rows.push({ measure: 'symbolic layer alone', model: '-', threads: 'calling thread', rate: measured!.rate, cpu: measured! });
} else {
  rows.push({ measure: 'symbolic layer alone', model: '-', threads: '-', rate: null, note: `symbolic layer missing (${symbolic.missing})` });
}
const pipelineModule = await optionalImport<PipelineModule>('../engine/extract/pipeline.ts');

const CONFIGURATIONS = [
  { threads: 'no worker (calling thread)', workers: 0 },
  { threads: '1 worker', workers: 1 },
  { threads: `pool of ${CORES} workers`, workers: CORES },
];

const scaling: string[] = [];
for (const { name, open } of MODELS) {
  const model = await open();
  const backends: PooledNerBackend[] = [];
  const symbolicPools: PooledSymbolicLayer[] = [];
  try {
    for (const { workers } of CONFIGURATIONS) backends.push(await createNerBackend({ modelDir: model.dir, workers, maxQueue: CONCURRENCY * 4 }));
    const workloads: { measure: string; threads: string; work: (d: DocumentInput) => unknown }[] = [];
    backends.forEach((backend, i) => {
      const threads = CONFIGURATIONS[i]!.threads;
      workloads.push({ measure: 'neural layer alone', threads, work: (d) => backend.recognise([d.text]) });
      if ('module' in pipelineModule) {
        // The pipeline would close its backend; these are closed below, so it gets a view without close().
        const ner: NerBackend = { model: backend.model, recognise: (texts) => backend.recognise(texts), close: async () => undefined };
        const workers = CONFIGURATIONS[i]!.workers;
        const pool = workers > 0 ? new PooledSymbolicLayer({ workers, maxQueue: CONCURRENCY * 4 }) : undefined;
        if (pool) symbolicPools.push(pool);
        const pipeline = pipelineModule.module.createExtractionPipeline({ ner, ...(pool ? { symbolic: pool } : {}) });
        workloads.push({
          measure: 'full pipeline',
          threads,
          work: async (d) => {
            const draft = await pipeline.draft(d, { tier: 'full' });
            if (!pipeline.resolve(draft, d, { tier: 'full' })) throw new Error('a draft against no graph always stands');
          },
        });
      }
    });
    const results = await interleaved(workloads.map((w) => w.work));
    for (const measure of ['neural layer alone', 'full pipeline']) {
      const measured = workloads.map((w, i) => ({ ...w, ...results[i]! })).filter((w) => w.measure === measure);
      for (const w of measured) rows.push({ measure, model: name, threads: w.threads, rate: w.rate, baseline: measured[0]!.rate, cpu: w });
      const [, one, pool] = measured;
      if (one && pool) {
        const ratio = pool.rate / (CORES * one.rate);
        // What an idle machine allows from the CPU figures: a 1-worker run that already keeps
        // more than one core busy leaves the pool less to gain.
        const ceiling = one.leastMs !== null && pool.leastMs !== null ? one.leastMs / (CORES * pool.leastMs) : null;
        scaling.push(
          `${measure}, ${name} model: pool ${pool.rate.toFixed(1)} / (${CORES} x 1 worker ${one.rate.toFixed(1)}) = ${ratio.toFixed(2)} ${ratio >= 0.9 ? '(>= 0.9)' : '(below 0.9)'}; ` +
            `1 worker kept ${one.cores.toFixed(2)} cores busy (${one.cpuPerSentence.toFixed(1)} CPU ms/sentence), the pool ${pool.cores.toFixed(2)} (${pool.cpuPerSentence.toFixed(1)}): ` +
            (ceiling === null ? '' : `${CORES} idle cores allow at most ${ceiling.toFixed(2)} (least ms/sentence: 1 worker ${one.leastMs!.toFixed(2)}, pool ${pool.leastMs!.toFixed(2)})`),
        );
      }
    }
  } finally {
    await Promise.all([...backends.map((b) => b.close()), ...symbolicPools.map((pool) => pool.close())]);
    await model.remove();
  }
}

const header = ['measure', 'model', 'threads', 'sentences/s', 'vs no worker', 'CPU ms/sentence (main thread)', 'cores busy'];
const table = rows.map((r) => [
  r.measure,
  r.model,
  r.threads,
  r.rate === null ? '-' : r.rate.toFixed(1),
  r.rate !== null && r.baseline ? `${(r.rate / r.baseline).toFixed(2)}x` : '',
  r.cpu ? `${r.cpu.cpuPerSentence.toFixed(2)}${r.cpu.mainPerSentence === null ? '' : ` (${r.cpu.mainPerSentence.toFixed(2)})`}` : '',
  r.cpu ? r.cpu.cores.toFixed(2) : '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
console.log(`\npool scaling (target >= 0.9):\n  ${scaling.join('\n  ')}`);
for (const row of rows.filter((r) => r.note)) console.log(`\nnote: ${row.measure}: ${row.note}`);
const [loadAtEnd] = loadavg();
console.log(`\nload average (1 min): ${loadAtStart!.toFixed(1)} at start, ${loadAtEnd!.toFixed(1)} at end on ${CORES} cores`);
if (Math.max(loadAtStart!, loadAtEnd!) > CORES) {
  console.log('note: other processes kept the cores busy: the pool cannot show its speed-up; rerun on an idle machine.');
}
if ('missing' in pipelineModule) console.log(`\nnote: full pipeline not measured: pipeline missing (${pipelineModule.missing})`);
