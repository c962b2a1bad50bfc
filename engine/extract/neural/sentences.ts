import type { TextSpan } from '../types.ts';

/**
 * Sentence splitting that keeps offsets. The transformer sees one sentence (or a window of
 * one) at a time: its input is cut at 512 tokens, and a sentence is the unit a worker task
 * batches. Rules, not a model: terminal punctuation followed by whitespace ends a sentence,
 * unless the word before the period is an abbreviation; a blank line always ends one
 * (headlines and list items carry no punctuation).
 */

/** Abbreviations that precede a name or a number: a period after them never ends a sentence. */
const TITLE_ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'rev', 'hon', 'sen', 'rep', 'gov', 'pres', 'amb', 'sec', 'gen', 'lt', 'col',
  'maj', 'capt', 'cpt', 'sgt', 'cpl', 'pvt', 'adm', 'brig', 'cmdr', 'cdr', 'insp', 'supt', 'st', 'mt', 'ft', 'no',
  'nos', 'art', 'para', 'vs', 'cf', 'fig', 'messrs', 'mme', 'mlle', 'sr', 'jr', 'lt.-gen', 'maj.-gen',
]);

/**
 * Abbreviations that also end sentences ("... in the U.S. The next day"): a period after them
 * ends a sentence only when the next word is a common sentence opener.
 */
const AMBIGUOUS_ABBREVIATIONS = new Set([
  'etc', 'approx', 'inc', 'ltd', 'co', 'corp', 'est', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep',
  'sept', 'oct', 'nov', 'dec', 'km', 'mi', 'al',
]);

const SENTENCE_OPENERS = new Set([
  'The', 'A', 'An', 'He', 'She', 'It', 'They', 'We', 'I', 'You', 'This', 'That', 'These', 'Those', 'There', 'But',
  'And', 'In', 'On', 'At', 'As', 'After', 'Before', 'However', 'Meanwhile', 'Its', 'His', 'Her', 'Their', 'Our',
  'If', 'When', 'While', 'Since', 'Some', 'Many', 'According',
]);

/** Terminal punctuation, closing quotes/brackets after it, then the whitespace that must follow. */
const CANDIDATE_END = /[.!?…]+["'”’»)\]]*(?=\s)|\n[ \t\r\f\v]*\n/g;
const DOTTED_INITIALISM = /^(?:\p{L}\.)+\p{L}$/u;
const SINGLE_INITIAL = /^\p{Lu}$/u;

function wordBefore(text: string, periodIndex: number): string {
  let start = periodIndex;
  while (start > 0 && !/[\s("'“‘«\[]/.test(text[start - 1]!)) start--;
  return text.slice(start, periodIndex);
}

function wordAfter(text: string, from: number): string {
  const match = /^\s*["'“‘«(\[]*([\p{L}\p{N}]+)/u.exec(text.slice(from, from + 64));
  return match?.[1] ?? '';
}

function endsSentence(text: string, candidate: string, start: number, end: number): boolean {
  if (candidate.startsWith('\n')) return true;
  const next = wordAfter(text, end);
  if (next === '' && end < text.length) {
    // Nothing word-like follows within reach (a dash, a bullet, an emoji): still a boundary.
    return true;
  }
  if (/^\p{Ll}/u.test(next)) return false;
  if (!candidate.startsWith('.') || candidate.startsWith('..')) return true;
  const before = wordBefore(text, start);
  const bare = before.toLowerCase();
  if (TITLE_ABBREVIATIONS.has(bare) || SINGLE_INITIAL.test(before)) return false;
  if (AMBIGUOUS_ABBREVIATIONS.has(bare) || DOTTED_INITIALISM.test(before)) return SENTENCE_OPENERS.has(next);
  return true;
}

function trimmed(text: string, start: number, end: number): TextSpan | null {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return start < end ? { start, end } : null;
}

/** Sentence spans of `text`, in order, without surrounding whitespace; `text.slice(start, end)` is the sentence. */
export function splitSentences(text: string): TextSpan[] {
  const sentences: TextSpan[] = [];
  let sentenceStart = 0;
  for (const match of text.matchAll(CANDIDATE_END)) {
    const start = match.index;
    const end = start + match[0].length;
    if (!endsSentence(text, match[0], start, end)) continue;
    const span = trimmed(text, sentenceStart, end);
    if (span) sentences.push(span);
    sentenceStart = end;
  }
  const last = trimmed(text, sentenceStart, text.length);
  if (last) sentences.push(last);
  return sentences;
}
