import type { ActorMention, TextSpan } from '../types.ts';
import { quotations } from './first-person.ts';
import { documentHeading, FIRST_PERSON_PLURAL, sameSpan, spanContains, spansOverlap, type Token } from './text.ts';

/**
 * Who issues a statement, and the words by which it names itself. An organisation's own
 * statement says "we" and "our" outside any quotation ("We hold the military council
 * responsible", "our forces") and calls itself "The Ministry" or "The Mission"; a news
 * report's "we" is its writer's, so these stand for the issuer only where the document says
 * who issues it: a heading that names a statement's author ("Statement of the Arakan Army on
 * ...", "UNIFIL statement on ...", "Ministry of Defence of Somalia — Press Release",
 * "Spokesperson for the UN Human Rights Office: X"), or the issuer introducing itself ("We,
 * the Oshen People's Front, reject ...").
 */

/** Words that make a heading a statement's own, when bound to the actor that issues it. */
const STATEMENT_WORD = /\b(?:statement|communiqu[eé]|press\s+release|briefing|spokes(?:person|man|woman)|declaration|bulletin)\b/i;
/** Statement words that name a statement only when bound to its author by a preposition ("Information of X", "Operational update of X"). */
const BOUND_ONLY_WORD = /^(?:information|update)$/i;
/** Words that may stand between a statement word and its author, a preposition among them: "Statement by the Spokesperson for the", "Communiqué of the 1234th meeting of the". */
const AUTHOR_LINKS = new Set(['of', 'by', 'from', 'for', 'the', 'to', 'attributable', 'on', 'behalf', 'meeting', 'office']);
const AUTHOR_PREPOSITIONS = new Set(['of', 'by', 'from', 'for', 'to']);
/**
 * Between an author opening the line and its statement word: "'s", the rest of its capitalised
 * name ("of Somalia"), dashes or colons ("X — Press Release", "X — GENERAL COMMAND Statement",
 * "UNIFIL statement"); a lower-case word is a headline's verb ("Sudan army dismisses RSF
 * statement"), and binds nothing.
 */
const AUTHOR_BEFORE_WORD = /^(?:['’]s)?(?:\s*[—–:|-]|\s+(?:of|the|and|\p{Lu}[\p{L}.'’-]*))*\s*$/u;
/** "We, the Oshen People's Front,": the issuer names itself in apposition to "we". */
const SELF_INTRODUCTION = /\bwe\s*,\s*(?:the\s+)?$/i;

/** The actor that introduces itself after "We," ("We, the X,"), else the one a heading line binds to a statement word as its author; undefined when neither. */
export function statementIssuer(text: string, actors: readonly ActorMention[]): ActorMention | undefined {
  const named = actors.filter((actor) => !actor.reference && actor.actor_type !== 'community');
  const introduced = named.find((actor) => SELF_INTRODUCTION.test(text.slice(Math.max(0, actor.start - 12), actor.start)));
  if (introduced) return introduced;
  const heading = documentHeading(text);
  if (!heading) return undefined;
  // A heading line with a statement word and no actor labels the statement ("PRESS RELEASE No. 45", "Press Statement"): its author opens another line.
  const labelled = heading.lines.some((line) => STATEMENT_WORD.test(text.slice(line.start, line.end)) && !named.some((actor) => spansOverlap(line, actor)));
  return named.find((actor) => spanContains(heading, actor) && authorsStatement(text, actor, labelled));
}

/**
 * The actor's heading line binds it to a statement word: "Statement of the X", "Statement by the
 * Spokesperson for X", "X statement on ...", "X — Press Release"; or it opens a heading line where
 * another is only the statement's label (`labelled`: "PRESS RELEASE" above "Ministry of Defence").
 */
function authorsStatement(text: string, actor: ActorMention, labelled: boolean): boolean {
  const lineStart = text.lastIndexOf('\n', actor.start - 1) + 1;
  const lineEnd = text.indexOf('\n', actor.end);
  // What a dash or colon ends before the statement is the line's date or place ("12 March 2024 — Statement of ...").
  const before = text.slice(lineStart, actor.start).replace(/^.*[—–:|]\s*/u, '');
  // "STATEMENT BY THE MINISTRY OF ...": a heading in capitals read as one name, its statement word in it.
  if (statementWordBefore(before) || STATEMENT_WORD.exec(actor.text)?.index === 0) return true;
  if (!/^\s*(?:the\s+)?$/i.test(before)) return false;
  const after = text.slice(actor.end, lineEnd < 0 ? text.length : lineEnd);
  const word = STATEMENT_WORD.exec(after);
  return labelled || (word !== null && AUTHOR_BEFORE_WORD.test(after.slice(0, word.index)));
}

/** "Statement of the", "Joint statement by the Spokesperson for the": a statement word in the line's first three words, then only links to the author, a preposition among them. */
function statementWordBefore(before: string): boolean {
  const words = before.trim().split(/\s+/).filter(Boolean);
  const at = words.findIndex((word, index) => index < 3 && (STATEMENT_WORD.test(word) || (index > 0 && STATEMENT_WORD.test(`${words[index - 1]} ${word}`)) || BOUND_ONLY_WORD.test(word)));
  if (at < 0) return false;
  const links = words.slice(at + 1);
  return links.some((word) => AUTHOR_PREPOSITIONS.has(word.toLowerCase())) &&
    links.every((word) => AUTHOR_LINKS.has(word.toLowerCase()) || STATEMENT_WORD.test(word) || /^[\p{Lu}\d]/u.test(word));
}

/**
 * "We", "our" and "us" outside quotations, as references to the issuer; and the issuer for a
 * capitalised description whose head its name holds ("The Ministry reaffirms" in the Ministry
 * of Defence's statement, though another ministry was named since), with the pronouns that
 * followed that description: those descriptions and pronouns are rewritten in `actors` in place.
 * The first-person words returned are only those no mention already takes (`taken`, `actors`).
 */
export function issuerReferences(text: string, tokens: readonly Token[], actors: ActorMention[], taken: readonly TextSpan[]): ActorMention[] {
  const issuer = statementIssuer(text, actors);
  if (!issuer) return [];
  const standsFor = { reference: 'pronoun' as const, antecedent: { start: issuer.start, end: issuer.end }, canonical: issuer.canonical ?? issuer.text, actor_type: issuer.actor_type, ...(issuer.aliases ? { aliases: issuer.aliases } : {}) };
  const issuerWords = new Set([issuer.canonical, issuer.text, ...(issuer.aliases ?? [])].flatMap((name) => (name ? name.toLowerCase().split(/[\s-]+/) : [])));
  for (const description of actors) {
    const head = /^[Tt]he\s+(\p{Lu}\p{Ll}+)$/u.exec(description.text)?.[1]?.toLowerCase();
    if (!description.reference || !head || !issuerWords.has(head) || sameSpan(description, issuer)) continue;
    const before = description.antecedent;
    Object.assign(description, { ...standsFor, reference: 'nominal' as const });
    if (!before) continue;
    for (const follower of actors) {
      if (follower.reference === 'pronoun' && follower.start > description.start && follower.antecedent && sameSpan(follower.antecedent, description)) Object.assign(follower, standsFor);
    }
  }
  const quoted = quotations(text);
  const free = (token: Token) => !taken.some((span) => spansOverlap(span, token)) && !actors.some((actor) => spansOverlap(actor, token));
  return tokens
    .filter((token) => FIRST_PERSON_PLURAL.has(token.lower) && free(token) && !quoted.some((span) => spanContains(span, token)))
    .map((token) => ({ start: token.start, end: token.end, text: token.text, confidence: Math.min(issuer.confidence, 0.6), source: 'pattern' as const, ...standsFor }));
}
