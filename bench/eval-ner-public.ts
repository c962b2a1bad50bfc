import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseLabel } from '../engine/extract/neural/bio.ts';
import { DEMONYMS } from '../engine/extract/symbolic/gazetteer/places.ts';
import { inspectNerModelDir, SHIPPED_NER_MODEL_DIR } from '../engine/extract/neural/model-dir.ts';
import { TokenClassifier } from '../engine/extract/neural/token-classifier.ts';
import { splitWords } from '../engine/extract/neural/words.ts';

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
const TYPES = ['PER', 'ORG', 'LOC'] as const;
/** WNUT 17's and CrossNER's fine types that map to PER, ORG or LOC; every other type is O. */
const FINE_TYPES: Record<string, string> = {
  person: 'PER', group: 'ORG', corporation: 'ORG', location: 'LOC',
  politician: 'PER', politicalparty: 'ORG', organisation: 'ORG', country: 'LOC',
};
/** Nationality and regional adjectives outside the gazetteer's list ("English", "Kurdish"): train.py's DEMONYM_SHAPE. */
const DEMONYM_SHAPE = /^[A-Z][a-z]+(?:ian|ese|ish)$/;
/** Sentences per model call: the classifier batches by length inside a call. */
const CALL_SENTENCES = 64;

interface Sentence { words: string[]; tags: string[] }

function mapTag(raw: string): string {
  const tag = parseLabel(raw.trim());
  if (!tag) return 'O';
  const type = FINE_TYPES[tag.type] ?? tag.type;
  return (TYPES as readonly string[]).includes(type) ? `${tag.prefix === 'B' ? 'B' : 'I'}-${type}` : 'O';
}

function parseConll(text: string, tokenColumn: number, tagColumn: number): Sentence[] {
  const sentences: Sentence[] = [];
  let current: Sentence = { words: [], tags: [] };
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const columns = line.includes('\t') ? line.split('\t') : line.split(' ');
    if (line.trim() === '' || columns.length < 2) {
      if (current.words.length > 0) sentences.push(current);
      current = { words: [], tags: [] };
      continue;
    }
    const token = columns[tokenColumn]!;
    const tag = mapTag(columns.at(tagColumn)!);
    splitWords(token).forEach((span, i) => {
      current.words.push(token.slice(span.start, span.end));
      current.tags.push(i === 0 || tag === 'O' ? tag : `I-${tag.slice(2)}`);
    });
  }
  if (current.words.length > 0) sentences.push(current);
  return sentences;
}

/** Words and tags of a tokenised sentence with BIO tags per token, each token split into words as the service splits text. */
function toWords(tokens: readonly string[], tags: readonly string[]): Sentence {
  const sentence: Sentence = { words: [], tags: [] };
  tokens.forEach((token, t) => {
    const tag = tags[t]!;
    splitWords(token).forEach((span, i) => {
      sentence.words.push(token.slice(span.start, span.end));
      sentence.tags.push(i === 0 || tag === 'O' ? tag : `I-${tag.slice(2)}`);
    });
  });
  return sentence;
}

interface ReDocredDocument {
  sents: string[][];
  vertexSet: { name: string; pos: [number, number]; sent_id: number; type: string }[][];
}

/** Re-DocRED's mentions as BIO tags; the first of overlapping mentions wins, a nationality adjective claims its tokens as O. */
function parseRedocred(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const document of JSON.parse(text) as ReDocredDocument[]) {
    const mentions = document.vertexSet.flat().map((m) => ({
      sentence: m.sent_id,
      start: m.pos[0],
      end: m.pos[1],
      type: ['PER', 'ORG', 'LOC'].includes(m.type) && !(m.type === 'LOC' && (m.name in DEMONYMS || DEMONYM_SHAPE.test(m.name))) ? m.type : null,
    }));
    mentions.sort((a, b) => a.start - b.start || a.end - b.end || String(a.type).localeCompare(String(b.type)));
    document.sents.forEach((tokens, index) => {
      const tags = tokens.map(() => 'O');
      const claimed = tokens.map(() => false);
      for (const m of mentions) {
        if (m.sentence !== index || m.end <= m.start || claimed.slice(m.start, m.end).some(Boolean)) continue;
        for (let i = m.start; i < m.end; i++) {
          claimed[i] = true;
          if (m.type) tags[i] = `${i === m.start ? 'B' : 'I'}-${m.type}`;
        }
      }
      sentences.push(toWords(tokens, tags));
    });
  }
  return sentences;
}

/** wikigold's held-out documents (index % 5 == 0, as train.py splits it); IO tags become BIO where the type changes. */
function parseWikigold(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  // The file opens with a document before its first -DOCSTART- line.
  let document = 0;
  let tokens: string[] = [];
  let tags: string[] = [];
  const close = () => {
    if (tokens.length > 0 && document % 5 === 0) {
      sentences.push(toWords(tokens, tags.map((tag, i) => (mapTag(tag) === 'O' ? 'O' : `${i > 0 && tags[i - 1] === tag ? 'I' : 'B'}-${mapTag(tag).slice(2)}`))));
    }
    tokens = [];
    tags = [];
  };
  for (const line of text.split('\n')) {
    const columns = line.split(' ');
    if (line.startsWith('-DOCSTART-')) {
      close();
      document++;
    } else if (line.trim() === '' || columns.length < 2) {
      close();
    } else {
      tokens.push(columns[0]!);
      tags.push(columns.at(-1)!);
    }
  }
  close();
  return sentences;
}

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
