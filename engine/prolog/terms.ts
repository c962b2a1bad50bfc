/** Writing Prolog terms as text, apart from bridge.ts so that code which only writes goals never loads the engine's module. */

/** Quotes text as a Prolog atom. */
export function quoteAtom(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
