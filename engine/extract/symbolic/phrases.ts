import { tokenize, type Token } from './text.ts';

/**
 * Longest-match lookup of multi-word phrases over the document's tokens. Phrases
 * are keyed by lower-cased tokens; a phrase written in capitals ("RSF", "US")
 * matches only the same capitals, so acronyms never match ordinary words ("us"),
 * and a phrase that starts with a capital needs a capital in the text too.
 */

interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  entries: { value: T; exact?: string[]; capitalFirst: boolean }[];
}

export interface PhraseMatch<T> {
  value: T;
  firstToken: number;
  endToken: number;
}

export class PhraseIndex<T> {
  private readonly root: TrieNode<T> = { children: new Map(), entries: [] };

  add(phrase: string, value: T): void {
    const tokens = tokenize(phrase);
    if (tokens.length === 0) return;
    let node = this.root;
    for (const token of tokens) {
      let child = node.children.get(token.lower);
      if (!child) {
        child = { children: new Map(), entries: [] };
        node.children.set(token.lower, child);
      }
      node = child;
    }
    const caseSensitive = tokens.some((token) => isAcronym(token.text));
    node.entries.push({ value, exact: caseSensitive ? tokens.map((token) => token.text) : undefined, capitalFirst: tokens[0].capitalised });
  }

  /** Every phrase starting at `first`, longest first. */
  matchesAt(tokens: Token[], first: number, endToken = tokens.length): PhraseMatch<T>[] {
    const found: PhraseMatch<T>[] = [];
    let node: TrieNode<T> | undefined = this.root;
    for (let i = first; i < endToken && node; i++) {
      node = node.children.get(tokens[i].lower);
      if (!node) break;
      for (const entry of node.entries) {
        if (entry.exact && !entry.exact.every((text, k) => sameCasing(text, tokens[first + k].text))) continue;
        if (entry.capitalFirst && !tokens[first].capitalised) continue;
        found.push({ value: entry.value, firstToken: first, endToken: i + 1 });
      }
    }
    return found.reverse();
  }

  /** Non-overlapping longest matches, left to right, over tokens [first, endToken). */
  scan(tokens: Token[], first = 0, endToken = tokens.length): PhraseMatch<T>[] {
    const found: PhraseMatch<T>[] = [];
    for (let i = first; i < endToken; ) {
      const [longest] = this.matchesAt(tokens, i, endToken);
      if (longest) {
        found.push(longest);
        i = longest.endToken;
      } else i++;
    }
    return found;
  }
}

/** Two or more capitals, or a capital and digits ("M23", "G9"): written as in the text or not at all. */
export function isAcronym(text: string): boolean {
  return /^(?=(?:.*\p{Lu}){2}|\p{Lu}.*\d)[\p{Lu}\p{N}.&/-]+$/u.test(text) || /^\p{Lu}[\p{Lu}\p{N}]*\d/u.test(text);
}

function sameCasing(expected: string, actual: string): boolean {
  return !isAcronym(expected) || expected === actual;
}
