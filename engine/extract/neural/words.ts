import type { TextSpan } from '../types.ts';

/**
 * Words as a BERT tokenizer's pre-tokenizer sees them, with their character spans: runs of
 * characters between whitespace, with every punctuation mark and every CJK ideograph a word
 * of its own. Each word is then tokenized on its own, so every sub-word token maps back to
 * exactly one word and therefore to characters of the text; this is how offsets survive
 * transformers.js, which returns none.
 *
 * Punctuation is BERT's definition: Unicode category P plus the ASCII symbols
 * (`$`, `+`, `<`, `^`, `` ` ``, `|`, `~`, ...), which BERT splits off too.
 */
const SEPARATE_CHARACTER =
  '\\p{P}!-\\/:-@\\[-`{-~\\u{3400}-\\u{4DBF}\\u{4E00}-\\u{9FFF}\\u{F900}-\\u{FAFF}\\u{20000}-\\u{2FA1F}';
const WORD = new RegExp(`[${SEPARATE_CHARACTER}]|[^\\s${SEPARATE_CHARACTER}]+`, 'gu');

/** Word spans within `text.slice(from, to)`, as offsets into the whole `text`. */
export function splitWords(text: string, from = 0, to = text.length): TextSpan[] {
  const words: TextSpan[] = [];
  const region = text.slice(from, to);
  for (const match of region.matchAll(WORD)) {
    words.push({ start: from + match.index, end: from + match.index + match[0].length });
  }
  return words;
}
