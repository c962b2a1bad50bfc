import type { ActorMention, TextSpan } from '../types.ts';

/**
 * "We", "our" and "us" inside a quotation stand for the organisation that speaks there:
 * the one the quotation is attributed to ('"We will respond," the ministry said'), or the
 * one its speaker speaks for ("OCHA spokesman X", "Its spokesman, X", "X, a senior official
 * of the TPLF,"). When neither says, references.ts treats them as it treats "they": the
 * organisation that was the subject of the sentences before, when only one fits.
 */

/** Verbs that attribute a quotation, before or after its speaker. */
export const QUOTE_VERBS = String.raw`(?:said|says|added|adds|stated|states|told\s+\S+(?:\s+\S+)?|declared|wrote|warned|insisted|stressed|noted|explained|tweeted|posted)`;
/** What may stand between a verb of speech and the quotation it introduces ('said on Monday:', 'told reporters,'). */
const INTRODUCTION_TAIL = String.raw`[^.;"“”]{0,40}?[:,]?\s*`;
/** A verb of speech that introduces a quotation after it: 'X said: "', 'X told reporters on Monday, "'. */
export const QUOTE_INTRODUCTION = new RegExp(String.raw`\b${QUOTE_VERBS}${INTRODUCTION_TAIL}$`, 'i');

/** Quotations of the text, between straight or curly double quotes, within one paragraph. */
export function quotations(text: string): TextSpan[] {
  return [...text.matchAll(/[“"]([^“”"\n]{1,2000})[”"]/g)].map((match) => ({ start: match.index + 1, end: match.index + 1 + match[1].length }));
}

/** An actor that is neither a person nor a people: what "it" and "we" in a statement can stand for. */
export const isOrganisation = (actor: ActorMention) => actor.actor_type !== 'individual' && actor.actor_type !== 'community';

/** After a quotation: its verb of speech first ('," said General X') or after its speaker ('," the ministry said'). */
const ATTRIBUTION_AFTER = new RegExp(String.raw`^[\s,.!?]*[”"]?[\s,]*(?:${QUOTE_VERBS}\s+(?<after>[^.;"“”\n]{1,80})|(?<before>[^.;"“”\n]{1,80}?)\s+${QUOTE_VERBS}\b)`, 'i');
/** Before a quotation: its speaker and verb of speech ('X said: "', 'X told reporters, "'). */
const ATTRIBUTION_BEFORE = new RegExp(String.raw`(?<before>[^.;"“”\n]{1,120}?)\s+${QUOTE_VERBS}${INTRODUCTION_TAIL}[“"]$`, 'i');

/** The organisation a quotation's speaker is, or speaks for; undefined when the text does not say. */
export function quotedOrganisation(text: string, quotation: TextSpan, actors: readonly ActorMention[]): ActorMention | undefined {
  const speaker = quotationSpeaker(text, quotation, actors);
  if (!speaker) return undefined;
  if (isOrganisation(speaker)) return speaker;
  if (speaker.actor_type !== 'individual') return undefined;
  const identity = speaker.canonical ?? speaker.text;
  const introduction = actors.find((actor) => actor.actor_type === 'individual' && (actor.canonical ?? actor.text) === identity);
  return introduction && organisationOf(text, introduction, actors);
}

function quotationSpeaker(text: string, quotation: TextSpan, actors: readonly ActorMention[]): ActorMention | undefined {
  const tailStart = quotation.end;
  // '"... a day." Fighting went on, residents said': a quotation that ends its sentence has no attribution after it.
  const endsSentence = /[.!?]\s*$/.test(text.slice(quotation.start, quotation.end));
  const after = endsSentence ? null : ATTRIBUTION_AFTER.exec(text.slice(tailStart, tailStart + 160));
  if (after?.groups) {
    const named = after.groups.after ?? after.groups.before;
    const namedStart = tailStart + after.index + after[0].indexOf(named);
    const inNamed = actors.filter((actor) => actor.start >= namedStart && actor.end <= namedStart + named.length);
    return after.groups.after ? inNamed[0] : inNamed[inNamed.length - 1];
  }
  const headStart = Math.max(0, quotation.start - 200);
  const before = ATTRIBUTION_BEFORE.exec(text.slice(headStart, quotation.start));
  if (!before?.groups) return undefined;
  const namedStart = headStart + before.index;
  const inNamed = actors.filter((actor) => actor.start >= namedStart && actor.end <= namedStart + before.groups!.before.length);
  return inNamed[inNamed.length - 1];
}

/** Between an organisation and the person it introduces: a role ("OCHA spokesman X", "Its spokesman, X", "the movement's military spokesman, X"). */
const ROLE_BETWEEN = /^(?:['’]s)?\s+(?:[\p{Ll}-]+\s+){1,3}(?:\p{Lu}[\p{L}.]*\s+){0,2},?\s*$|^(?:['’]s)?\s+(?:[\p{Ll}-]+\s+){0,2}[\p{Ll}-]+,\s*$/u;
/** After a person, an apposition that places them in an organisation ("X, a spokesman for the", "X, commander of the"). */
const ROLE_OF = /^,\s+(?:(?:the|a|an)\s+)?[\p{Ll}\s-]{1,60}?\b(?:of|for|at|in|with)\s+(?:the\s+)?$/u;

/** The organisation a person is introduced as speaking for, right before or in apposition after their name. */
function organisationOf(text: string, person: ActorMention, actors: readonly ActorMention[]): ActorMention | undefined {
  const before = actors.filter((actor) => actor.end <= person.start && person.start - actor.end <= 40 && isOrganisation(actor)).pop();
  if (before && ROLE_BETWEEN.test(text.slice(before.end, person.start))) return before;
  const after = actors.find((actor) => actor.start >= person.end && actor.start - person.end <= 70 && isOrganisation(actor));
  return after && ROLE_OF.test(text.slice(person.end, after.start)) ? after : undefined;
}
