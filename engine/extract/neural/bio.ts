import type { NeuralEntity, TextSpan } from '../types.ts';

/** A word with the label the model gave its first sub-word token, and that label's probability. */
export interface WordPrediction extends TextSpan {
  label: string;
  score: number;
}

export type TagPrefix = 'B' | 'I' | 'E' | 'S';

/**
 * Splits an id2label entry into its tagging prefix and entity type. IOB2/IOB1 ("B-PER",
 * "I-PER"), BIOES ("E-PER", "S-PER") and plain labels ("PER", read as inside) are all in use
 * on the hub; "O" is outside.
 */
export function parseLabel(label: string): { prefix: TagPrefix; type: string } | null {
  if (label === 'O' || label === '') return null;
  const match = /^([BIES])[-_](.+)$/.exec(label);
  if (match) return { prefix: match[1] as TagPrefix, type: match[2]! };
  return { prefix: 'I', type: label };
}

/**
 * Groups labelled words into entities. A B- or S- tag always starts an entity; an I- or E-
 * tag continues the open entity of the same type and otherwise starts one (models do emit
 * I- without B-); E- and S- close it. An entity's score is the mean of its words' scores.
 */
export function groupEntities(text: string, words: readonly WordPrediction[]): NeuralEntity[] {
  const entities: NeuralEntity[] = [];
  let open: { type: string; start: number; end: number; scores: number[] } | null = null;
  const close = () => {
    if (!open) return;
    const score = open.scores.reduce((sum, s) => sum + s, 0) / open.scores.length;
    entities.push({ label: open.type, start: open.start, end: open.end, text: text.slice(open.start, open.end), score });
    open = null;
  };
  for (const word of words) {
    const tag = parseLabel(word.label);
    if (!tag) {
      close();
      continue;
    }
    const continues = open !== null && open.type === tag.type && (tag.prefix === 'I' || tag.prefix === 'E');
    if (continues) {
      open!.end = word.end;
      open!.scores.push(word.score);
    } else {
      close();
      open = { type: tag.type, start: word.start, end: word.end, scores: [word.score] };
    }
    if (tag.prefix === 'E' || tag.prefix === 'S') close();
  }
  close();
  return entities;
}
