/**
 * bench/extract: extraction throughput in sentences per second, every configuration
 * measured in the same run (the machines are shared and noisy, so read the ratios):
 *   - the rule layer alone (symbolic conflict layer, calling thread);
 *   - the neural layer alone and the full pipeline (rules + neural + structure) with a
 *     generated model, run on the calling thread (no worker), on 1 worker, and on the pool
 *     (one worker per core), each worker with one ONNX thread.
 * Two generated models: the test suite's tiny one (measures the layer's own overhead:
 * splitting, tokenizing, messaging, grouping) and one with the arithmetic of a
 * distilBERT-sized encoder (768 wide, 6 feed-forward blocks of 4608: about 42M
 * multiply-adds per token, fp32), which stands in for a real model on machines that
 * cannot download one. Sentences come from corpora/ plus generated ones of about 40 words.
 *
 *   npm run bench:extract [-- --sentences 120 --runs 3 --concurrency 4]
 */
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createNerBackend, type PooledNerBackend } from '../engine/extract/neural/backend.ts';
import { splitSentences } from '../engine/extract/neural/sentences.ts';
import { splitWords } from '../engine/extract/neural/words.ts';
import type { DocumentInput, Findings, NerBackend } from '../engine/extract/types.ts';
import { buildTinyNerModel, type TinyNerModelOptions } from '../test/helpers/tiny-ner-model.ts';

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

const MODELS: { name: string; options: TinyNerModelOptions }[] = [
  { name: 'tiny (test model)', options: { noise: 0.5 } },
  { name: 'encoder-sized', options: { noise: 0.1, hiddenSize: 768, feedForward: { blocks: 6, innerSize: 4608 } } },
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
  for (const name of names.filter((n) => /\.(txt|md)$/.test(n)).sort()) {
    const text = await readFile(path.join(CORPORA_DIR, name), 'utf8');
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs `work` over every document with CONCURRENCY in flight; returns sentences per second (median of RUNS after a warm-up). */
async function throughput(documents: DocumentInput[], sentenceCount: number, work: (d: DocumentInput) => unknown): Promise<number> {
  const once = async () => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < documents.length) await work(documents[next++]!);
      }),
    );
    return sentenceCount / ((performance.now() - started) / 1000);
  };
  await once();
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run++) rates.push(await once());
  return median(rates);
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
  note?: string;
}

const rows: Row[] = [];

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
  rows.push({ measure: 'rule layer alone', model: '-', threads: 'calling thread', rate: await throughput(documents, SENTENCES, (d) => (symbolic.module as SymbolicModule).findConflictEntities(d)) });
} else {
  rows.push({ measure: 'rule layer alone', model: '-', threads: '-', rate: null, note: `symbolic layer missing (${symbolic.missing})` });
}
const pipelineModule = await optionalImport<PipelineModule>('../engine/extract/pipeline.ts');

for (const { name, options } of MODELS) {
  const model = await buildTinyNerModel(options);
  try {
    const configurations = [
      { threads: 'no worker (calling thread)', workers: 0 },
      { threads: '1 worker', workers: 1 },
      { threads: `pool of ${CORES} workers`, workers: CORES },
    ];
    let nerBaseline: number | null = null;
    let pipelineBaseline: number | null = null;
    for (const { threads, workers } of configurations) {
      const backend: PooledNerBackend = await createNerBackend({ modelDir: model.dir, workers, maxQueue: CONCURRENCY * 4 });
      try {
        const nerRate = await throughput(documents, SENTENCES, (d) => backend.recognise([d.text]));
        nerBaseline ??= nerRate;
        rows.push({ measure: 'neural layer alone', model: name, threads, rate: nerRate, baseline: nerBaseline });
        if ('module' in pipelineModule) {
          // The pipeline closes its backend; this one is closed below, so hand it a view without close().
          const ner: NerBackend = { model: backend.model, recognise: (texts) => backend.recognise(texts), close: async () => undefined };
          const pipeline = pipelineModule.module.createExtractionPipeline({ ner });
          const rate = await throughput(documents, SENTENCES, (d) => pipeline.extract(d, { tier: 'full', ingestedAt: '2024-03-06T00:00:00Z' }));
          pipelineBaseline ??= rate;
          rows.push({ measure: 'full pipeline', model: name, threads, rate, baseline: pipelineBaseline });
        }
      } finally {
        await backend.close();
      }
    }
  } finally {
    await model.remove();
  }
}

const header = ['measure', 'model', 'threads', 'sentences/s', 'vs no worker'];
const table = rows.map((r) => [
  r.measure,
  r.model,
  r.threads,
  r.rate === null ? '-' : r.rate.toFixed(1),
  r.rate !== null && r.baseline ? `${(r.rate / r.baseline).toFixed(2)}x` : '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
for (const row of rows.filter((r) => r.note)) console.log(`\nnote: ${row.measure}: ${row.note}`);
if ('missing' in pipelineModule) console.log(`\nnote: full pipeline not measured: pipeline missing (${pipelineModule.missing})`);
