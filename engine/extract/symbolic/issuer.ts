import type { ActorMention, TextSpan } from '../types.ts';
import { quotations } from './first-person.ts';
import { FIRST_PERSON_PLURAL, spanContains, spansOverlap, type Token } from './text.ts';

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

/** A heading line is one of the document's first lines, short and ending with no full stop. */
const HEADING_LINE = /^[^\n]{1,200}$/;
/** At most this many lines make a heading (a title, an author's line, a date). */
const HEADING_LINES = 4;
/** Words that make a heading a statement's own, naming who issues it. */
const STATEMENT_WORDS = /\b(?:statement|communiqu[eé]|press\s+release|briefing|information\s+of|update\s+of|spokes(?:person|man|woman)|declaration|bulletin)\b/i;
/** "We, the Oshen People's Front,": the issuer names itself in apposition to "we". */
const SELF_INTRODUCTION = /\bwe\s*,\s*(?:the\s+)?$/i;

/** The actor that introduces itself after "We," ("We, the X,"), else the one the document's heading names as a statement's author; undefined when neither. */
export function statementIssuer(text: string, actors: readonly ActorMention[]): ActorMention | undefined {
  const named = actors.filter((actor) => !actor.reference && actor.actor_type !== 'community');
  const introduced = named.find((actor) => SELF_INTRODUCTION.test(text.slice(Math.max(0, actor.start - 12), actor.start)));
  if (introduced) return introduced;
  const heading = headingOf(text);
  if (!heading || !STATEMENT_WORDS.test(text.slice(heading.start, heading.end))) return undefined;
  return named.find((actor) => spanContains(heading, actor));
}

/** The lines before the first paragraph, blank lines between them: at most HEADING_LINES, each short, none ending a sentence. */
function headingOf(text: string): TextSpan | undefined {
  let end = 0;
  let lines = 0;
  for (const line of text.split('\n', 40)) {
    if (line.trim() === '') {
      end += line.length + 1;
      continue;
    }
    if (++lines > HEADING_LINES || !HEADING_LINE.test(line) || /[.!?;]["”]?\s*$/.test(line)) break;
    end += line.length + 1;
  }
  return end > 0 ? { start: 0, end } : undefined;
}

/**
 * "We", "our" and "us" outside quotations, as references to the issuer; and the issuer for a
 * capitalised description whose head its name holds ("The Ministry reaffirms" in the Ministry
 * of Defence's statement, though another ministry was named since), with the pronouns that
 * followed that description. Mentions already taken (`taken`, `actors`) are left alone.
 */
export function issuerReferences(text: string, tokens: readonly Token[], actors: ActorMention[], taken: readonly TextSpan[]): ActorMention[] {
  const issuer = statementIssuer(text, actors);
  if (!issuer) return [];
  const standsFor = { reference: 'pronoun' as const, antecedent: { start: issuer.start, end: issuer.end }, canonical: issuer.canonical ?? issuer.text, actor_type: issuer.actor_type, ...(issuer.aliases ? { aliases: issuer.aliases } : {}) };
  const issuerWords = new Set([issuer.canonical, issuer.text, ...(issuer.aliases ?? [])].flatMap((name) => (name ? name.toLowerCase().split(/[\s-]+/) : [])));
  for (const description of actors) {
    const head = /^The\s+(\p{Lu}\p{Ll}+)$/u.exec(description.text)?.[1]?.toLowerCase();
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

const sameSpan = (a: TextSpan, b: TextSpan) => a.start === b.start && a.end === b.end;
