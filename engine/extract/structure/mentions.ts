import type { Findings, NeuralEntity } from '../types.ts';
import { combineMentions, DEFAULT_COMBINATION, type CombinationPolicy } from './combine.ts';
import type { EntityMention } from './entity-mention.ts';

/**
 * Stage 1 of structuring: one list of entity mentions from the symbolic findings and
 * the transformer's spans, combined as ./combine.ts says.
 */

/**
 * Symbolic actor and location mentions combined with the transformer's spans under a
 * policy (./combine.ts). Sorted by position; offsets are checked against the text so a
 * buggy upstream stage cannot put a wrong quote into provenance.
 */
export function collectMentions(
  text: string,
  findings: Findings,
  neural: readonly NeuralEntity[] | null,
  policy: CombinationPolicy = DEFAULT_COMBINATION,
): EntityMention[] {
  const mentions: EntityMention[] = [];
  for (const actor of findings.actors) {
    mentions.push({
      kind: 'Actor', start: actor.start, end: actor.end, text: actor.text, actor_type: actor.actor_type,
      canonical: actor.canonical, aliases: actor.aliases, title: actor.title, confidence: actor.confidence, source: actor.source,
      ...(actor.country ? { country: actor.country } : {}),
      ...(actor.type_guessed ? { type_guessed: true } : {}),
      ...(actor.reference ? { reference: actor.reference, ...(actor.antecedent ? { antecedent: actor.antecedent } : {}) } : {}),
    });
  }
  for (const location of findings.locations) {
    mentions.push({
      kind: 'Location', start: location.start, end: location.end, text: location.text,
      location_type: location.location_type, canonical: location.canonical, country_code: location.country_code,
      confidence: location.confidence, source: location.source,
    });
  }
  return combineMentions(mentions, neural ?? [], policy)
    .filter((mention) => mention.end > mention.start && text.slice(mention.start, mention.end) === mention.text)
    .flatMap((mention) => alignToWords(text, mention) ?? [])
    .sort((a, b) => a.start - b.start || b.end - a.end);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A mention that starts inside a word is dropped; one that ends inside a word ("al-Burhan s"
 * cut from "said") is trimmed back to its last whole word, so labels are never word fragments.
 */
function alignToWords(text: string, mention: EntityMention): EntityMention | undefined {
  const { start } = mention;
  if (start > 0 && WORD_CHAR.test(text[start - 1]) && WORD_CHAR.test(text[start])) return undefined;
  let end = mention.end;
  if (end < text.length && WORD_CHAR.test(text[end]) && WORD_CHAR.test(text[end - 1])) {
    while (end > start && !/\s/u.test(text[end - 1])) end--;
    while (end > start && /\s/u.test(text[end - 1])) end--;
    if (end === start) return undefined;
  }
  return end === mention.end ? mention : { ...mention, end, text: text.slice(start, end) };
}
