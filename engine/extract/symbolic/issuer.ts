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
/**
 * A heading line opening with the statement word bound to its author by a preposition:
 * "Statement of the X", "Spokesperson for X", "Information of X" ("information" and "update"
 * name a statement only so).
 */
const WORD_BEFORE_AUTHOR = /^\s*(?:the\s+)?(?:statement|communiqu[eé]|press\s+release|briefing|spokes(?:person|man|woman)|declaration|bulletin|information|update)\s+(?:of|by|from|for)\s+(?:the\s+)?$/i;
/**
 * Between an author opening the line and its statement word: "'s", the rest of its capitalised
 * name ("of Somalia"), a dash or colon ("X — Press Release", "UNIFIL statement"); a lower-case
 * word is a headline's verb ("Sudan army dismisses RSF statement"), and binds nothing.
 */
const AUTHOR_BEFORE_WORD = /^(?:['’]s)?(?:\s+(?:of|the|and|\p{Lu}[\p{L}.'’-]*))*\s*[—–:|-]?\s*$/u;
/** "We, the Oshen People's Front,": the issuer names itself in apposition to "we". */
const SELF_INTRODUCTION = /\bwe\s*,\s*(?:the\s+)?$/i;

/** The actor that introduces itself after "We," ("We, the X,"), else the one a heading line binds to a statement word as its author; undefined when neither. */
export function statementIssuer(text: string, actors: readonly ActorMention[]): ActorMention | undefined {
  const named = actors.filter((actor) => !actor.reference && actor.actor_type !== 'community');
  const introduced = named.find((actor) => SELF_INTRODUCTION.test(text.slice(Math.max(0, actor.start - 12), actor.start)));
  if (introduced) return introduced;
  const heading = documentHeading(text);
  return heading && named.find((actor) => spanContains(heading, actor) && authorsStatement(text, actor));
}

/** The actor's heading line binds it to a statement word: "Statement of the X", "X statement on ...", "X — Press Release". */
function authorsStatement(text: string, actor: ActorMention): boolean {
  const lineStart = text.lastIndexOf('\n', actor.start - 1) + 1;
  const lineEnd = text.indexOf('\n', actor.end);
  const before = text.slice(lineStart, actor.start);
  if (WORD_BEFORE_AUTHOR.test(before)) return true;
  const after = text.slice(actor.end, lineEnd < 0 ? text.length : lineEnd);
  const word = STATEMENT_WORD.exec(after);
  return /^\s*(?:the\s+)?$/i.test(before) && word !== null && AUTHOR_BEFORE_WORD.test(after.slice(0, word.index));
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
