// Search-first exploration: a name, an alias or words of a claim become a query in the pattern
// language, written into the editor (to read and refine) and run like any other. No DOM here:
// test/console/export.test.ts runs it under Node.

/** How many records a search shows at most. */
export const SEARCH_LIMIT = 50;

/** What a search looks among: one kind, or all three ('') */
export type SearchKind = '' | 'Actor' | 'Location' | 'Claim';

/** A string literal of the pattern language. */
export const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The query that finds the records whose label, alias or (a claim's) text holds `words`, in any case. */
export function searchQuery(kind: SearchKind, words: string): string {
  const sought = literal(words.trim().toLowerCase());
  const named = `toLower(n.label) CONTAINS ${sought} OR any(alias IN n.aliases WHERE toLower(alias) CONTAINS ${sought})`;
  const said = `toLower(n.text) CONTAINS ${sought}`;
  const [pattern, where, order] = {
    '': ['(n)', `(n:Actor OR n:Location OR n:Claim) AND (${named} OR ${said})`, 'coalesce(n.label, n.text)'],
    Actor: ['(n:Actor)', named, 'n.label'],
    Location: ['(n:Location)', named, 'n.label'],
    Claim: ['(n:Claim)', said, 'n.text'],
  }[kind];
  return `MATCH ${pattern}\nWHERE ${where}\nRETURN n\nORDER BY ${order}, id(n)\nLIMIT ${SEARCH_LIMIT}`;
}
