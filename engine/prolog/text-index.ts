/**
 * The keyword index of node texts: which of the keywords the rule modules declare
 * (`keywords(Name, Words)` facts, frameworks/README.md) each node's text contains, as
 * plain substrings, exactly as `sub_atom(Text, _, _, _, Word)` would find them. The bridge
 * builds it when it hands a graph view over, so that the 14 frameworks that test claims
 * against their word lists read one index (g_mention facts, lib/graph.pl) instead of each
 * scanning every text against each of its words.
 *
 * A text is cut into tokens at separators (white space and ASCII punctuation). A word
 * without a separator can only occur inside one token, so its hits are found per distinct
 * token, by looking the token's substrings up (cached per token: the generated and real
 * corpora repeat their vocabulary). A word with separators (' deal', 'no talks') is tested
 * with `includes` on the texts that hold its rarest separator-free run (the one the fewest
 * such words share: with thousands of place names, "… district" is tested where its own
 * word occurs, not wherever "district" does), or on every text when it has none.
 */

const SEPARATORS = /[\s!-/:-@[-`{-~]+/u;
const HAS_SEPARATOR = /[\s!-/:-@[-`{-~]/u;

/** Distinct tokens remembered with their needles; past this the cache starts over (memory stays bounded). */
const MAX_CACHED_TOKENS = 200_000;

export class TextIndex {
  /** Every declared word, in the order it was declared. */
  private readonly terms = new Set<string>();
  /** Separator-free strings looked for inside tokens: the plain words and the runs of the others. */
  private needles = new Set<string>();
  private longestNeedle = 0;
  /** Words with separators, by the separator-free run of theirs the fewest of them share (the longest of those; '' when none). */
  private composite = new Map<string, string[]>();
  private readonly tokenNeedles = new Map<string, string[]>();

  /** Adds declared words; true when one of them is new (the texts must be indexed again). */
  add(words: Iterable<string>): boolean {
    let added = false;
    for (const word of words) {
      if (word.length === 0 || this.terms.has(word)) continue;
      this.terms.add(word);
      added = true;
    }
    if (added) this.rebuild();
    return added;
  }

  has(word: string): boolean {
    return this.terms.has(word);
  }

  /** Every word, in the order it was added. */
  words(): string[] {
    return [...this.terms];
  }

  get size(): number {
    return this.terms.size;
  }

  private rebuild(): void {
    this.needles = new Set();
    this.composite = new Map();
    this.tokenNeedles.clear();
    const runsOf = new Map<string, string[]>();
    /** How many words with separators hold each run: a word is tested in the texts holding its rarest run. */
    const shared = new Map<string, number>();
    for (const term of this.terms) {
      if (!HAS_SEPARATOR.test(term)) {
        this.needles.add(term);
        continue;
      }
      const runs = [...new Set(term.split(SEPARATORS).filter((run) => run !== ''))];
      runsOf.set(term, runs);
      for (const run of runs) shared.set(run, (shared.get(run) ?? 0) + 1);
    }
    for (const [term, runs] of runsOf) {
      const run = runs.reduce((best, part) => {
        if (best === '') return part;
        const [a, b] = [shared.get(part)!, shared.get(best)!];
        return a < b || (a === b && part.length > best.length) ? part : best;
      }, '');
      if (run !== '') this.needles.add(run);
      const terms = this.composite.get(run);
      if (terms) terms.push(term);
      else this.composite.set(run, [term]);
    }
    let longest = 0;
    for (const needle of this.needles) longest = Math.max(longest, needle.length);
    this.longestNeedle = longest;
  }

  /** The declared words `text` (already lower-cased) contains, each once. */
  matches(text: string): string[] {
    if (this.terms.size === 0) return [];
    const found = new Set<string>();
    for (const token of text.split(SEPARATORS)) {
      if (token === '') continue;
      for (const needle of this.needlesOf(token)) found.add(needle);
    }
    const hits: string[] = [];
    for (const needle of found) {
      if (this.terms.has(needle)) hits.push(needle);
      for (const term of this.composite.get(needle) ?? []) if (text.includes(term)) hits.push(term);
    }
    for (const term of this.composite.get('') ?? []) if (text.includes(term)) hits.push(term);
    return hits;
  }

  private needlesOf(token: string): string[] {
    const cached = this.tokenNeedles.get(token);
    if (cached) return cached;
    const inside: string[] = [];
    for (let start = 0; start < token.length; start++) {
      const end = Math.min(token.length, start + this.longestNeedle);
      for (let stop = start + 1; stop <= end; stop++) {
        const part = token.slice(start, stop);
        if (this.needles.has(part) && !inside.includes(part)) inside.push(part);
      }
    }
    if (this.tokenNeedles.size >= MAX_CACHED_TOKENS) this.tokenNeedles.clear();
    this.tokenNeedles.set(token, inside);
    return inside;
  }
}
