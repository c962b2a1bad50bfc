import { parseLabel } from '../../engine/extract/neural/bio.ts';
import { splitWords } from '../../engine/extract/neural/words.ts';
import { DEMONYMS } from '../../engine/extract/symbolic/gazetteer/places.ts';

/**
 * The public NER sets of ../shared/data/ner as words and BIO tags over PER, ORG and LOC, read the
 * way bench/train-ner/train.py reads them for training, so that evaluation and training agree on
 * what a span is. Tokens are split into words as the service splits text
 * (engine/extract/neural/words.ts), the first word keeping the token's tag.
 */

export const TYPES = ['PER', 'ORG', 'LOC'] as const;
/** WNUT 17's and CrossNER's fine types that map to PER, ORG or LOC; every other type is O. */
const FINE_TYPES: Record<string, string> = {
  person: 'PER', group: 'ORG', corporation: 'ORG', location: 'LOC',
  politician: 'PER', politicalparty: 'ORG', organisation: 'ORG', country: 'LOC',
};
/** Nationality and regional adjectives outside the gazetteer's list ("English", "Kurdish"): train.py's DEMONYM_SHAPE. */
const DEMONYM_SHAPE = /^[A-Z][a-z]+(?:ian|ese|ish)$/;
export interface Sentence { words: string[]; tags: string[] }

/** A tag of any of the sets as B-/I-PER, ORG or LOC, or O. */
export function mapTag(raw: string): string {
  const tag = parseLabel(raw.trim());
  if (!tag) return 'O';
  const type = FINE_TYPES[tag.type] ?? tag.type;
  return (TYPES as readonly string[]).includes(type) ? `${tag.prefix === 'B' ? 'B' : 'I'}-${type}` : 'O';
}

/** Token-per-line files; the token and the tag are the columns given (UNER numbers its lines). */
export function parseConll(text: string, tokenColumn: number, tagColumn: number): Sentence[] {
  const sentences: Sentence[] = [];
  let tokens: string[] = [];
  let tags: string[] = [];
  for (const line of [...text.split('\n'), '']) {
    if (line.startsWith('#')) continue;
    const columns = line.includes('\t') ? line.split('\t') : line.split(' ');
    if (line.trim() === '' || columns.length < 2) {
      if (tokens.length > 0) sentences.push(toWords(tokens, tags));
      tokens = [];
      tags = [];
      continue;
    }
    tokens.push(columns[tokenColumn]!);
    tags.push(mapTag(columns.at(tagColumn)!));
  }
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

/**
 * Re-DocRED's mentions as BIO tags. Of overlapping mentions the one starting first wins, the shorter of two starting
 * together (train.py's order); a nationality adjective, a date, a number or a MISC mention claims its tokens as O.
 */
export function parseRedocred(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const document of JSON.parse(text) as ReDocredDocument[]) {
    const mentions = document.vertexSet.flat().map((m) => ({
      sentence: m.sent_id,
      start: m.pos[0],
      end: m.pos[1],
      type: ['PER', 'ORG', 'LOC'].includes(m.type) && !(m.type === 'LOC' && (m.name in DEMONYMS || DEMONYM_SHAPE.test(m.name))) ? m.type : null,
    }));
    // train.py's order: by start, end, then a mention without a type first.
    mentions.sort((a, b) => a.start - b.start || a.end - b.end || (a.type ?? '').localeCompare(b.type ?? ''));
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
export function parseWikigold(text: string): Sentence[] {
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

