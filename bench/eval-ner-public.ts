import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseLabel } from '../engine/extract/neural/bio.ts';
import { inspectNerModelDir, SHIPPED_NER_MODEL_DIR } from '../engine/extract/neural/model-dir.ts';
import { TokenClassifier } from '../engine/extract/neural/token-classifier.ts';
import { mapTag, parseConll, parseRedocred, parseWikigold, TYPES } from './eval/ner-sets.ts';

/**
 * `npm run eval:ner-public [-- <model dir>]`
 *
 * The entity recogniser (the shipped one, PARLEY_NER_MODEL_DIR, or the folder given) on the
 * test splits of the public sets in ../shared/data/ner, none of which it was trained on:
 * exact-span precision, recall and F1 per type (PER, ORG, LOC) and micro-averaged, as
 * CoNLL scoring counts them. WNUT 17's person / group + corporation / location are mapped
 * to PER / ORG / LOC, as for training. Tokens are split into words the way the service
 * splits text (engine/extract/neural/words.ts), the first word keeping the token's tag.
 *
 * The news and encyclopedic sets are read as bench/train-ner/train.py reads them, on the parts it
 * never trains on: all of UNER English-PUD, Re-DocRED test (TIME, NUM, MISC and nationality
 * adjectives such as "German", which Re-DocRED types LOC, are O), wikigold's every fifth document
 * (IO tags; MISC is O) and CrossNER politics test (politician/person, politicalparty/organisation,
 * country/location mapped to PER, ORG, LOC; the rest O).
 * Credits: Broad Twitter Corpus, WNUT 17 and wikigold (CC BY 4.0), Universal NER English-EWT
 * (CC BY-SA 4.0) and English-PUD (CC BY-SA 3.0), Re-DocRED and CrossNER (MIT).
 */

const DATA = fileURLToPath(new URL('../../shared/data/ner/', import.meta.url));
const SETS = [
  { name: 'btc test', file: 'btc/btc.test', format: 'conll', token: 0, tag: -1 },
  { name: 'wnut17 test', file: 'wnut17/emerging.test.annotated', format: 'conll', token: 0, tag: -1 },
  { name: 'uner en_ewt test', file: 'uner_en_ewt/en_ewt-ud-test.iob2', format: 'conll', token: 1, tag: 2 },
  { name: 'uner en_pud', file: 'uner_en_pud/en_pud-ud-test.iob2', format: 'conll', token: 1, tag: 2 },
  { name: 'redocred test', file: 'redocred/test_revised.json', format: 'redocred', token: 0, tag: 0 },
  { name: 'wikigold held-out', file: 'wikigold/wikigold.conll.txt', format: 'wikigold', token: 0, tag: -1 },
  { name: 'crossner pol test', file: 'crossner_politics/test.txt', format: 'conll', token: 0, tag: -1 },
] as const;
/** Sentences per model call: the classifier batches by length inside a call. */
const CALL_SENTENCES = 64;

/** Entity spans "start:end:type" of a tag sequence; an I- tag without an open entity of its type starts one. */
function spansOf(tags: readonly string[]): Set<string> {
  const spans = new Set<string>();
  let open: { start: number; type: string } | null = null;
  tags.forEach((raw, i) => {
    const tag = parseLabel(raw);
    if (open && (!tag || tag.prefix === 'B' || tag.type !== open.type)) {
      spans.add(`${open.start}:${i}:${open.type}`);
      open = null;
    }
    if (tag && !open) open = { start: i, type: tag.type };
  });
  if (open) spans.add(`${(open as { start: number }).start}:${tags.length}:${(open as { type: string }).type}`);
  return spans;
}

const f = (n: number | null) => (n === null ? '    –' : n.toFixed(3));

async function main(): Promise<void> {
  const dir = process.argv[2] ?? process.env.PARLEY_NER_MODEL_DIR ?? SHIPPED_NER_MODEL_DIR;
  const files = await inspectNerModelDir(dir);
  const classifier = await TokenClassifier.load(files);
  console.log(`model ${files.model} (${files.dtype}) from ${files.dir}\n`);
  console.log(`${'set'.padEnd(18)}${'type'.padEnd(6)}${'gold'.padStart(6)}${'pred'.padStart(6)}${'tp'.padStart(6)}${'P'.padStart(8)}${'R'.padStart(8)}${'F1'.padStart(8)}`);
  try {
    for (const set of SETS) {
      const text = await readFile(DATA + set.file, 'utf8');
      const sentences =
        set.format === 'redocred' ? parseRedocred(text) : set.format === 'wikigold' ? parseWikigold(text) : parseConll(text, set.token, set.tag);
      const counts = Object.fromEntries(TYPES.map((t) => [t, { tp: 0, fp: 0, fn: 0 }])) as Record<string, { tp: number; fp: number; fn: number }>;
      const started = performance.now();
      for (let i = 0; i < sentences.length; i += CALL_SENTENCES) {
        const batch = sentences.slice(i, i + CALL_SENTENCES);
        const labelled = await classifier.classify(batch.map((s) => s.words));
        batch.forEach((sentence, j) => {
          const gold = spansOf(sentence.tags);
          const predicted = spansOf(labelled[j]!.labels.map((label) => mapTag(label)));
          for (const span of predicted) counts[span.split(':')[2]!]![gold.has(span) ? 'tp' : 'fp']++;
          for (const span of gold) if (!predicted.has(span)) counts[span.split(':')[2]!]!.fn++;
        });
      }
      const seconds = (performance.now() - started) / 1000;
      const rows = [...TYPES.map((t) => [t, counts[t]!] as const), ['all', TYPES.reduce((a, t) => ({ tp: a.tp + counts[t]!.tp, fp: a.fp + counts[t]!.fp, fn: a.fn + counts[t]!.fn }), { tp: 0, fp: 0, fn: 0 })] as const];
      for (const [type, c] of rows) {
        const p = c.tp + c.fp ? c.tp / (c.tp + c.fp) : null;
        const r = c.tp + c.fn ? c.tp / (c.tp + c.fn) : null;
        const f1 = p !== null && r !== null && p + r > 0 ? (2 * p * r) / (p + r) : null;
        console.log(`${(type === 'PER' ? set.name : '').padEnd(18)}${type.padEnd(6)}${String(c.tp + c.fn).padStart(6)}${String(c.tp + c.fp).padStart(6)}${String(c.tp).padStart(6)}${f(p).padStart(8)}${f(r).padStart(8)}${f(f1).padStart(8)}`);
      }
      console.log(`${''.padEnd(18)}${sentences.length} sentences, ${Math.round(sentences.length / seconds)} sentences/s on the calling thread\n`);
    }
  } finally {
    await classifier.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exitCode = 1;
});
