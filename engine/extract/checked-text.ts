/**
 * The door every document's text passes: refused when empty or over-long, else hashed, and the
 * document's id made from the hash. Its own module, with nothing heavier than node:crypto, because
 * a symbolic worker checks a batch's files with it (read-file.ts) and loads no pipeline.
 */
import { createHash } from 'node:crypto';
import { TooLargeError, ValidationError } from '../errors.ts';
import type { FileDraft } from './draft.ts';

/**
 * Longest document extracted in one request, in characters (TooLargeError beyond).
 * About 150 pages of prose; the symbolic layer runs at ~250 sentences/s, so this bounds
 * one extraction to well under a minute and a few tens of MB. Split longer sources.
 */
export const MAX_DOCUMENT_CHARS = 1_000_000;

export function sha256Of(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A document's id depends on its text alone: the same text is the same document under any name. */
export function documentIdOf(sha256: string): string {
  return `document_${sha256.slice(0, 24)}`;
}

/** Empty, whitespace-only and over-long texts are refused before any work is done. */
function checkDocumentText(text: unknown): asserts text is string {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ValidationError('empty_text', 'text is empty: there is nothing to extract', { field: 'text' });
  }
  if (text.length > MAX_DOCUMENT_CHARS) {
    throw new TooLargeError('document_too_large', `the document has ${text.length} characters; the limit is ${MAX_DOCUMENT_CHARS}: split it into parts`, {
      limit: MAX_DOCUMENT_CHARS,
      characters: text.length,
    });
  }
}

/**
 * A document's text that checkText accepted, with its hash: made once where the document
 * comes in and handed on, so that the steps after that door (drafting, extraction, the
 * commit) neither check nor hash the text again.
 */
export interface CheckedText {
  readonly text: string;
  readonly sha256: string;
}

/** The CheckedText records checkText made: no other object passes for one. */
const madeByCheckText = new WeakSet<CheckedText>();

/** `text` refused (empty, whitespace-only, over-long) or accepted and hashed, unless `checked` is checkText's own record of this very text. */
export function checkText(text: unknown, checked?: CheckedText): CheckedText {
  if (checked && madeByCheckText.has(checked) && checked.text === text) return checked;
  checkDocumentText(text);
  const made = Object.freeze({ text, sha256: sha256Of(text) });
  madeByCheckText.add(made);
  return made;
}

/**
 * The CheckedText of a file a symbolic worker read, where draftFile (read-file.ts) ran checkText on
 * its text: this thread cannot know that worker's records, and does not hash the text again. Only a
 * FileDraft that was read vouches for a hash: no other object passes for one.
 */
export function checkedInWorker(file: Extract<FileDraft, { kind: 'read' }>): CheckedText {
  const made = Object.freeze({ text: file.text, sha256: file.sha256 });
  madeByCheckText.add(made);
  return made;
}
