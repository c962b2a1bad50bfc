import type { TextSpan } from '../types.ts';

/**
 * Tokens and sentences with character offsets into the whole document: every
 * later stage works on these, so every span it emits indexes the text exactly.
 */

export interface Token extends TextSpan {
  text: string;
  lower: string;
  /** Letters or digits (not punctuation). */
  word: boolean;
  /** Starts with an upper-case letter. */
  capitalised: boolean;
}

export interface Sentence extends TextSpan {
  /** Index of the sentence's first token in the document's token list. */
  firstToken: number;
  /** One past the sentence's last token. */
  endToken: number;
}

/**
 * Hyphenated words stay one token ("al-Burhan", "Port-au-Prince"), except when
 * the part after the hyphen is a bearer word of an alliance or control pattern
 * ("Iran-backed", "Saudi-led"): those split so the actor name matches alone.
 */
const HYPHEN_SPLIT_SUFFIXES = new Set([
  'backed', 'led', 'aligned', 'allied', 'linked', 'affiliated', 'supported', 'sponsored', 'controlled', 'held',
  'based', 'occupied', 'run', 'friendly', 'funded', 'armed', 'trained', 'installed', 'brokered', 'mediated',
]);

const TOKEN_PATTERN = /[\p{L}\p{M}\p{N}]+(?:(?:[-‐‑][\p{L}\p{M}\p{N}]+)|(?:['’](?![sS]\b)[\p{L}\p{M}]+)|(?:\.(?=[\p{Lu}]\.)[\p{Lu}]))*|['’][sS]\b|\S/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const start = match.index;
    for (const piece of splitBearerHyphens(match[0])) {
      pushToken(tokens, piece.text, start + piece.offset);
    }
  }
  return tokens;
}

function splitBearerHyphens(word: string): { text: string; offset: number }[] {
  const hyphen = word.search(/[-‐‑][\p{Ll}]+$/u);
  if (hyphen <= 0 || !HYPHEN_SPLIT_SUFFIXES.has(word.slice(hyphen + 1).toLowerCase())) return [{ text: word, offset: 0 }];
  return [
    { text: word.slice(0, hyphen), offset: 0 },
    { text: word[hyphen], offset: hyphen },
    { text: word.slice(hyphen + 1), offset: hyphen + 1 },
  ];
}

function pushToken(tokens: Token[], text: string, start: number): void {
  const word = /[\p{L}\p{N}]/u.test(text[0]);
  tokens.push({
    text,
    lower: text.toLowerCase(),
    start,
    end: start + text.length,
    word,
    capitalised: /^\p{Lu}/u.test(text),
  });
}

/** Abbreviations whose full stop does not end a sentence (titles, months, initialisms). */
const NON_TERMINAL_ABBREVIATIONS = new Set([
  'gen', 'lt', 'col', 'maj', 'capt', 'cpt', 'sgt', 'cmdr', 'adm', 'brig', 'mr', 'mrs', 'ms', 'dr', 'prof', 'st',
  'jr', 'sr', 'gov', 'sen', 'rep', 'rev', 'pres', 'no', 'vs', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug',
  'sep', 'sept', 'oct', 'nov', 'dec', 'mt', 'ft', 'e.g', 'i.e', 'u.s', 'u.n', 'u.k', 'e.u', 'a.m', 'p.m',
]);

/** Splits at . ! ? followed by space and a capital, digit or quote, and at blank lines. */
export function splitSentences(text: string, tokens: Token[]): Sentence[] {
  const sentences: Sentence[] = [];
  let first = 0;
  const close = (endToken: number) => {
    if (endToken <= first) return;
    sentences.push({ start: tokens[first].start, end: tokens[endToken - 1].end, firstToken: first, endToken });
    first = endToken;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const next = tokens[i + 1];
    // A blank line, or a new Markdown list item or heading, ends a sentence.
    if (next && (/\n\s*\n/.test(text.slice(token.end, next.start)) || startsListItem(text, token, next, tokens[i + 2]))) {
      close(i + 1);
      continue;
    }
    if (token.text !== '.' && token.text !== '!' && token.text !== '?') continue;
    // Closing quotes and brackets belong to the sentence they end.
    let last = i;
    while (tokens[last + 1] && /^["”’')\]]$/.test(tokens[last + 1].text) && tokens[last + 1].start === tokens[last].end) last++;
    const after = tokens[last + 1];
    if (!after) continue;
    if (after.start === tokens[last].end) continue;
    if (!/^[\p{Lu}\p{N}"“'‘(\[]/u.test(after.text)) continue;
    if (token.text === '.' && isAbbreviation(tokens, i)) continue;
    close(last + 1);
    i = last;
  }
  close(tokens.length);
  return sentences;
}

function startsListItem(text: string, token: Token, next: Token, after: Token | undefined): boolean {
  if (!text.slice(token.end, next.start).includes('\n')) return false;
  if (next.text === '#' || next.text === '>') return true;
  if (['-', '*', '+', '•'].includes(next.text)) return true;
  return /^\d{1,3}$/.test(next.text) && (after?.text === '.' || after?.text === ')') && after.start === next.end;
}

function isAbbreviation(tokens: Token[], periodIndex: number): boolean {
  const previous = tokens[periodIndex - 1];
  if (!previous || previous.end !== tokens[periodIndex].start) return false;
  if (NON_TERMINAL_ABBREVIATIONS.has(previous.lower)) return true;
  // A single capital letter before a full stop is an initial ("John F. Kennedy").
  return /^\p{Lu}$/u.test(previous.text);
}

/** Every unordered pair of `items`, in their order: [a, b] with a before b. */
export function pairsOf<T>(items: readonly T[]): [T, T][] {
  const pairs: [T, T][] = [];
  for (let a = 0; a < items.length; a++) for (let b = a + 1; b < items.length; b++) pairs.push([items[a], items[b]]);
  return pairs;
}

export function spansOverlap(a: TextSpan, b: TextSpan): boolean {
  return a.start < b.end && b.start < a.end;
}

export function sameSpan(a: TextSpan, b: TextSpan): boolean {
  return a.start === b.start && a.end === b.end;
}

export function spanContains(outer: TextSpan, inner: TextSpan): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** A heading line is one of the document's first lines, at most this long and ending with no full stop. */
const HEADING_LINE_MAX = 200;
/** At most this many lines make a heading (a title, an author's line, a date). */
const HEADING_LINES = 4;

/** The lines before the first paragraph, blank lines between them: at most HEADING_LINES, each short, none ending a sentence; `lines` the spans of those not blank. */
export function documentHeading(text: string): (TextSpan & { lines: TextSpan[] }) | undefined {
  let end = 0;
  const lines: TextSpan[] = [];
  for (const line of text.split('\n', 40)) {
    if (line.trim() !== '') {
      if (lines.length === HEADING_LINES || line.length > HEADING_LINE_MAX || /[.!?;]["”]?\s*$/.test(line)) break;
      lines.push({ start: end, end: end + line.length });
    }
    end += line.length + 1;
  }
  return end > 0 ? { start: 0, end, lines } : undefined;
}

/** A line ends between token `index` and the one before it: a name never runs over it. */
export function breaksLine(text: string, tokens: readonly Token[], index: number): boolean {
  return index > 0 && text.slice(tokens[index - 1].end, tokens[index].start).includes('\n');
}

/** Index of the first token (or sentence) starting at or after `offset` (binary search). */
export function tokenIndexAt(tokens: readonly TextSpan[], offset: number): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (tokens[middle].start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The sentence (or token) holding character `offset`, or none (binary search over spans in text order). */
export function spanAt<T extends TextSpan>(spans: readonly T[], offset: number): T | undefined {
  const span = spans[tokenIndexAt(spans, offset + 1) - 1];
  return span && offset < span.end ? span : undefined;
}

/** Clause boundaries inside a sentence: semicolons, and commas or dashes before a contrasting conjunction. */
const CLAUSE_OPENERS = new Set(['while', 'whereas', 'but', 'although', 'though', 'however', 'meanwhile']);

export function clauses(tokens: Token[], sentence: Sentence): Sentence[] {
  const result: Sentence[] = [];
  let first = sentence.firstToken;
  const close = (endToken: number, nextFirst: number) => {
    if (endToken > first) result.push({ start: tokens[first].start, end: tokens[endToken - 1].end, firstToken: first, endToken });
    first = nextFirst;
  };
  for (let i = sentence.firstToken; i < sentence.endToken; i++) {
    const token = tokens[i];
    if (token.text === ';') close(i, i + 1);
    else if ((token.text === ',' || token.text === '—' || token.text === '–') && CLAUSE_OPENERS.has(tokens[i + 1]?.lower ?? '') && i + 1 < sentence.endToken) {
      close(i, i + 1);
    }
  }
  close(sentence.endToken, sentence.endToken);
  return result;
}

/** First-person plural pronouns: an organisation speaking of itself in a quotation ("We will respond"). */
export const FIRST_PERSON_PLURAL = new Set(['we', 'our', 'us', 'ours', 'ourselves']);
