import nlp from 'compromise';
import { isAcronym } from './phrases.ts';
import type { Token } from './text.ts';

/**
 * Spelling variants of gazetteer names: transliterations one vowel or one consonant
 * apart ("Muqtada" / "Moqtada", "Shaykhun" / "Sheikhoun", "Hizballah" / "Hezbollah").
 * A name is reduced to a consonant skeleton; a capitalised phrase whose skeleton is a
 * known name's, and whose spelling is within a small edit distance of it, is that name.
 *
 * Precision guard (measured in the issue-9 report): skeletons shared by two different
 * names are dropped, names shorter than MIN_LENGTH and ordinary English words never
 * match, the first letters must agree, and the edit distance is at most one per
 * CHARACTERS_PER_EDIT characters.
 */

export const FUZZY_MIN_LENGTH = 6;
const CHARACTERS_PER_EDIT = 4;

export interface FuzzyEntry<T> { name: string; value: T }

function fold(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\b(?:al|el|ad|as|ash|at|az|an|ar)[- ]/g, '')
    .replace(/[^a-z]/g, '');
}

/** Consonants only (after the first letter), common transliteration pairs merged, doubles collapsed. */
export function skeleton(name: string): string {
  const folded = fold(name).replace(/ph/g, 'f').replace(/q/g, 'k').replace(/kh/g, 'k').replace(/gh/g, 'g').replace(/w/g, 'u').replace(/j/g, 'y');
  if (folded === '') return '';
  return (folded[0] + folded.slice(1).replace(/[aeiouy]/g, '')).replace(/(.)\1+/g, '$1');
}

export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let k = 1; k <= b.length; k++) {
      const above = previous[k];
      previous[k] = Math.min(previous[k] + 1, previous[k - 1] + 1, diagonal + (a[i - 1] === b[k - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

export class FuzzyIndex<T> {
  private readonly byKey = new Map<string, FuzzyEntry<T>[] | null>();

  constructor(entries: readonly FuzzyEntry<T>[], private readonly same: (a: T, b: T) => boolean) {
    for (const entry of entries) {
      if (fold(entry.name).length < FUZZY_MIN_LENGTH || isAcronym(entry.name)) continue;
      const key = skeleton(entry.name);
      const known = this.byKey.get(key);
      if (known === null) continue;
      if (known && !known.every((other) => this.same(other.value, entry.value))) this.byKey.set(key, null);
      else this.byKey.set(key, [...(known ?? []), entry]);
    }
  }

  /** The known entry this spelling is a variant of, if exactly one fits. */
  lookup(phrase: string): FuzzyEntry<T> | undefined {
    const folded = fold(phrase);
    if (folded.length < FUZZY_MIN_LENGTH) return undefined;
    const entries = this.byKey.get(skeleton(phrase));
    if (!entries) return undefined;
    const allowed = Math.max(1, Math.floor(folded.length / CHARACTERS_PER_EDIT));
    return entries.find((entry) => {
      const other = fold(entry.name);
      return other[0] === folded[0] && other !== folded && editDistance(other, folded) <= allowed;
    });
  }
}

/**
 * Capitalised phrases of one to four words starting at `first`, longest first, that
 * could be a variant spelling: every word capitalised or a name particle, and a single
 * word not an ordinary English word.
 */
export function fuzzyPhrases(tokens: Token[], first: number): { endToken: number; text: string }[] {
  const phrases: { endToken: number; text: string }[] = [];
  if (!tokens[first]?.capitalised || !tokens[first].word) return phrases;
  let end = first;
  while (end < tokens.length && end - first < 4 && tokens[end].word && (tokens[end].capitalised || /^(?:al|el|bin|ibn|abu)(?:-|$)/.test(tokens[end].lower))) end++;
  for (let stop = end; stop > first; stop--) {
    if (!tokens[stop - 1].capitalised && !/^\p{Ll}{1,3}-\p{Lu}/u.test(tokens[stop - 1].text)) continue;
    if (stop - first === 1 && isOrdinaryWord(tokens[first].lower)) continue;
    phrases.push({ endToken: stop, text: tokens.slice(first, stop).map((token) => token.text).join(' ') });
  }
  return phrases;
}

function isOrdinaryWord(lower: string): boolean {
  const world = nlp.world() as { model: { one: { lexicon: Record<string, unknown> } } };
  return world.model.one.lexicon[lower] !== undefined;
}
