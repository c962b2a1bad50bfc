import type { TextSpan } from '../types.ts';
import { sentenceAround } from './sentences.ts';

/**
 * One event per occurrence: which event mentions of one document tell the same thing
 * happening ("A drone strike hit the market in Alamata ... The strike killed five").
 *
 * A mention joins an earlier occurrence when all of these hold:
 * - the same event type;
 * - dates agree: the same date, or either has none;
 * - places agree: the same resolved place, or either has none;
 * - actors agree: when both name perpetrators they share one, when both name targets they
 *   share one, and no actor is a perpetrator on one side and a target on the other;
 * - the mention refers to it: it is in the sentence of one of its mentions with another
 *   trigger word (several words for one episode, "a drone strike hit"; the same verb twice,
 *   "attacked Tambul, and ... attacked Al-Sireha", is two acts), or it is, or follows, a
 *   definite event noun ("the strike killed", "the attack", "these raids").
 * Among the occurrences it could join, the one mentioned last before it wins. Everything
 * else is a new occurrence: two attacks on one town in one document, neither referring back
 * to the other, stay two events.
 */

export interface EventOccurrenceMention {
  event_type: string;
  span: TextSpan;
  trigger: TextSpan;
  date?: string;
  /** Resolved location id. */
  place?: string;
  /** Resolved actor ids by role. */
  perpetrators: readonly string[];
  targets: readonly string[];
}

/** Nouns that name an event when a determiner points back to it. */
const EVENT_NOUNS = String.raw`(?:strikes?|airstrikes?|attacks?|raids?|bombings?|bombardments?|shelling|assaults?|offensives?|ambush(?:es)?|explosions?|blasts?|clash(?:es)?|fighting|massacres?|killings?|incidents?|operations?|incursions?|shootings?|abductions?|kidnappings?|arrests?|protests?|demonstrations?|talks|meetings?|agreements?|deal|withdrawal|attempt)`;
/** "the strike killed", "the attack, which began at dawn, destroyed": a definite event noun as the subject before the trigger. */
const DEFINITE_SUBJECT = new RegExp(String.raw`\b(?:the|this|that|these|those)\s+(?:[\p{L}-]+\s+){0,2}?${EVENT_NOUNS}(?:\s*,[^,]{0,80},)?\s+(?:[\p{L}-]+\s+){0,2}$`, 'iu');
/** "claimed the attack", "the latest drone strike": the trigger itself is a definite noun. */
const DEFINITE_TRIGGER = /\b(?:the|this|that|these|those)\s+(?:(?:drone|air|missile|rocket|artillery|suicide|car|deadly|latest|same|recent|reported)\s+){0,2}$/iu;

interface Occurrence {
  members: number[];
  event_type: string;
  date?: string;
  place?: string;
  perpetrators: Set<string>;
  targets: Set<string>;
  /** Sentence start → the trigger words mentioned in it, lower case. */
  sentences: Map<number, Set<string>>;
}

const shares = (a: ReadonlySet<string>, b: readonly string[]) => a.size === 0 || b.length === 0 || b.some((id) => a.has(id));

function agrees(occurrence: Occurrence, mention: EventOccurrenceMention): boolean {
  if (occurrence.event_type !== mention.event_type) return false;
  if (occurrence.date && mention.date && occurrence.date !== mention.date) return false;
  if (occurrence.place && mention.place && occurrence.place !== mention.place) return false;
  if (!shares(occurrence.perpetrators, mention.perpetrators) || !shares(occurrence.targets, mention.targets)) return false;
  return !mention.perpetrators.some((id) => occurrence.targets.has(id)) && !mention.targets.some((id) => occurrence.perpetrators.has(id));
}

/** Groups of indices into `mentions` (each in text order), one group per occurrence, in order of first mention. */
export function sameOccurrences(text: string, mentions: readonly EventOccurrenceMention[]): number[][] {
  const order = mentions.map((_, index) => index).sort((a, b) => mentions[a].span.start - mentions[b].span.start || a - b);
  const occurrences: Occurrence[] = [];
  const lastMentioned = new Map<Occurrence, number>();
  for (const index of order) {
    const mention = mentions[index];
    const sentence = sentenceAround(text, mention.trigger);
    const before = text.slice(sentence.start, mention.trigger.start);
    const definite = DEFINITE_SUBJECT.test(before) || DEFINITE_TRIGGER.test(before);
    const word = text.slice(mention.trigger.start, mention.trigger.end).toLowerCase();
    const sharesSentence = (occurrence: Occurrence) => {
      const words = occurrence.sentences.get(sentence.start);
      return words !== undefined && !words.has(word);
    };
    let chosen: Occurrence | undefined;
    for (const occurrence of occurrences) {
      if (!agrees(occurrence, mention) || !(definite || sharesSentence(occurrence))) continue;
      if (!chosen || lastMentioned.get(occurrence)! > lastMentioned.get(chosen)!) chosen = occurrence;
    }
    if (!chosen) {
      chosen = { members: [], event_type: mention.event_type, perpetrators: new Set(), targets: new Set(), sentences: new Map() };
      occurrences.push(chosen);
    }
    chosen.members.push(index);
    chosen.date ??= mention.date;
    chosen.place ??= mention.place;
    for (const id of mention.perpetrators) chosen.perpetrators.add(id);
    for (const id of mention.targets) chosen.targets.add(id);
    if (!chosen.sentences.has(sentence.start)) chosen.sentences.set(sentence.start, new Set());
    chosen.sentences.get(sentence.start)!.add(word);
    lastMentioned.set(chosen, mention.span.start);
  }
  return occurrences.map((occurrence) => occurrence.members);
}
