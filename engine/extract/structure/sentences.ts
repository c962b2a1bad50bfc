import type { TextSpan } from '../types.ts';

/**
 * Sentence bounds around a position, for the structure stage's sentence-level checks (an
 * event's date, a description's antecedent). The symbolic layer's sentences are not
 * passed down; a full stop after an initial or a rank abbreviation ("Lt. Gen.") ends none.
 */

const ABBREVIATION_BEFORE = /\b(?:[A-Z]|Gen|Lt|Col|Dr|Mr|Mrs|Ms|St|No)\.$/;

function endsSentence(text: string, i: number): boolean {
  const char = text[i];
  if (char === '\n' && text[i - 1] === '\n') return true;
  return (char === ' ' || char === '\n') && /[.!?]/.test(text[i - 1]) && !ABBREVIATION_BEFORE.test(text.slice(Math.max(0, i - 4), i));
}

export function sentenceStartBefore(text: string, position: number): number {
  for (let i = position - 1; i > 0; i--) if (endsSentence(text, i)) return i + 1;
  return 0;
}

export function sentenceAround(text: string, span: TextSpan): TextSpan {
  let end = span.end;
  while (end < text.length && !endsSentence(text, end)) end++;
  return { start: sentenceStartBefore(text, span.start), end };
}
