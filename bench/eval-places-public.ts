import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { findConflictEntities } from '../engine/extract/symbolic/index.ts';

/**
 * `npm run eval:places-public`
 *
 * The symbolic layer's places on public data it was never tuned on (evaluation only): the
 * location spans of Universal NER English-PUD (test, CC BY-SA 3.0) and CrossNER politics (test,
 * MIT; country and location → LOC) in ../shared/data/ner. Each sentence is its tokens joined by
 * spaces. Predicted LOC: the layer's Location mentions, and (second row) also the countries and
 * capitals it read as acting states, since both sets tag a country as LOC whatever it does.
 * Exact spans as CoNLL scoring counts them, and overlapping spans (one-to-one) beside them,
 * since the sets differ on articles and descriptors ("the Gaza Strip", "Anbar province").
 */

const DATA = fileURLToPath(new URL('../../shared/data/ner/', import.meta.url));
const SETS = [
  { name: 'uner en_pud test', file: 'uner_en_pud/en_pud-ud-test.iob2', token: 1, tag: 2, loc: new Set(['LOC']) },
  { name: 'crossner politics test', file: 'crossner_politics/test.txt', token: 0, tag: -1, loc: new Set(['country', 'location']) },
] as const;

interface Sentence { text: string; gold: Span[] }
interface Span { start: number; end: number }
interface Counts { tp: number; fp: number; fn: number }

function parse(text: string, tokenColumn: number, tagColumn: number, locationTypes: ReadonlySet<string>): Sentence[] {
  const sentences: Sentence[] = [];
  let words: string[] = [];
  let tags: string[] = [];
  const close = () => {
    if (words.length > 0) sentences.push(toSentence(words, tags, locationTypes));
    words = [];
    tags = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const columns = line.includes('\t') ? line.split('\t') : line.split(' ');
    if (line.trim() === '' || columns.length < 2) {
      close();
      continue;
    }
    words.push(columns[tokenColumn]!);
    tags.push(columns.at(tagColumn)!.trim());
  }
  close();
  return sentences;
}

function toSentence(words: string[], tags: string[], locationTypes: ReadonlySet<string>): Sentence {
  const gold: Span[] = [];
  let offset = 0;
  let open: Span | undefined;
  words.forEach((word, i) => {
    const [prefix, type] = tags[i].split('-', 2) as [string, string | undefined];
    const isLocation = type !== undefined && locationTypes.has(type);
    if (open && (!isLocation || prefix === 'B')) open = undefined;
    if (isLocation) {
      if (!open) gold.push((open = { start: offset, end: offset + word.length }));
      else open.end = offset + word.length;
    }
    offset += word.length + 1;
  });
  return { text: words.join(' '), gold };
}

function score(gold: Span[], predicted: Span[], matches: (a: Span, b: Span) => boolean): Counts {
  const unused = [...gold];
  let tp = 0;
  for (const span of predicted) {
    const index = unused.findIndex((other) => matches(other, span));
    if (index >= 0) {
      unused.splice(index, 1);
      tp++;
    }
  }
  return { tp, fp: predicted.length - tp, fn: unused.length };
}

const exact = (a: Span, b: Span) => a.start === b.start && a.end === b.end;
const overlapping = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const add = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });
const figure = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : '    –');

function row(label: string, counts: Counts): string {
  const precision = counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp / (counts.tp + counts.fn);
  const f1 = (2 * precision * recall) / (precision + recall);
  return `${label.padEnd(40)}${String(counts.tp + counts.fn).padStart(6)}${String(counts.tp + counts.fp).padStart(6)}${String(counts.tp).padStart(6)}${figure(precision).padStart(8)}${figure(recall).padStart(8)}${figure(f1).padStart(8)}`;
}

async function main(): Promise<void> {
  console.log(`${'set / prediction (match)'.padEnd(40)}${'gold'.padStart(6)}${'pred'.padStart(6)}${'tp'.padStart(6)}${'P'.padStart(8)}${'R'.padStart(8)}${'F1'.padStart(8)}`);
  for (const set of SETS) {
    const sentences = parse(await readFile(DATA + set.file, 'utf8'), set.token, set.tag, set.loc);
    const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
    const totals = { places: { exact: zero(), overlap: zero() }, withStates: { exact: zero(), overlap: zero() } };
    const started = performance.now();
    for (const sentence of sentences) {
      const findings = await findConflictEntities({ text: sentence.text, source: 'public' });
      const places: Span[] = findings.locations;
      const withStates = [...places, ...findings.actors.filter((actor) => actor.actor_type === 'state' && actor.source === 'gazetteer')];
      totals.places.exact = add(totals.places.exact, score(sentence.gold, places, exact));
      totals.places.overlap = add(totals.places.overlap, score(sentence.gold, places, overlapping));
      totals.withStates.exact = add(totals.withStates.exact, score(sentence.gold, withStates, exact));
      totals.withStates.overlap = add(totals.withStates.overlap, score(sentence.gold, withStates, overlapping));
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(row(`${set.name}: places (exact)`, totals.places.exact));
    console.log(row('  places (overlap)', totals.places.overlap));
    console.log(row('  places + acting states (exact)', totals.withStates.exact));
    console.log(row('  places + acting states (overlap)', totals.withStates.overlap));
    console.log(`  ${sentences.length} sentences, ${Math.round((seconds * 1000) / sentences.length)} ms/sentence\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
