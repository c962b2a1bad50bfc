import { INVISIBLE_MARKS } from '../../store/ids.ts';

/**
 * Text as the symbolic layer matches it: NFKC, curly quotes and apostrophes straightened,
 * Unicode hyphens made ASCII, and invisible marks (bidi controls, zero-width
 * characters, soft hyphens, byte-order marks) dropped, so that "Kata’ib", "Kata'ib"
 * and "Kata\u200f'ib" are the same word to the gazetteer. The symbolic layer runs on the matching
 * text; `toOriginal` maps every span they find back onto the text the user gave, so
 * provenance quotes stay exact.
 */

const INVISIBLE = new RegExp(INVISIBLE_MARKS.source, 'u');
const FOLDED: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u02bc': "'", '\u2032': "'", '\u00b4': "'", '`': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2212': '-',
};
/** Anything the matching text would change: a quick test so that plain text costs one scan. */
const NEEDS_WORK = /[^\u0000-\u007f]|`/u;

export interface MatchingText {
  /** The text the symbolic layer reads. */
  text: string;
  /** Maps a span of `text` onto the original; the identity when nothing changed. */
  toOriginal(start: number, end: number): { start: number; end: number };
}

const IDENTITY = (start: number, end: number) => ({ start, end });

export function matchingText(original: string): MatchingText {
  if (!NEEDS_WORK.test(original)) return { text: original, toOriginal: IDENTITY };
  const pieces: string[] = [];
  // For each character of the matching text: where its cluster starts and ends in the original.
  const starts: number[] = [];
  const ends: number[] = [];
  // A base character and its combining marks normalise together (NFKC composes across them).
  for (const match of original.matchAll(/\P{M}\p{M}*|\p{M}+/gsu)) {
    const cluster = match[0];
    if (INVISIBLE.test(cluster) && cluster.length === 1) continue;
    const folded = (FOLDED[cluster] ?? cluster.normalize('NFKC')).replace(INVISIBLE_MARKS, '');
    for (let k = 0; k < folded.length; k++) {
      starts.push(match.index);
      ends.push(match.index + cluster.length);
    }
    pieces.push(folded);
  }
  const text = pieces.join('');
  if (text === original) return { text: original, toOriginal: IDENTITY };
  return {
    text,
    toOriginal: (start, end) => ({
      start: start < starts.length ? starts[start] : original.length,
      end: end === 0 ? (starts[0] ?? 0) : ends[Math.min(end, ends.length) - 1],
    }),
  };
}

/**
 * Rewrites, in place, every span in a findings-shaped value (anything with numeric
 * `start` and `end`) onto the original text, and re-slices the `text` beside it.
 */
export function remapSpans<T>(value: T, matching: MatchingText, original: string): T {
  if (matching.text === original) return value;
  // Findings share span objects (a relation's end is an actor's span): each is moved once.
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const record = node as Record<string, unknown>;
    for (const child of Object.values(record)) visit(child);
    if (typeof record.start === 'number' && typeof record.end === 'number') {
      const span = matching.toOriginal(record.start, record.end);
      record.start = span.start;
      record.end = span.end;
      if (typeof record.text === 'string') record.text = original.slice(span.start, span.end);
    }
  };
  visit(value);
  return value;
}
