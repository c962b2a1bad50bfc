import type { ActorType, LocationType } from '../../ontology/index.ts';
import type { FindingSource, Findings, NeuralEntity, TextSpan } from '../types.ts';
import { combineMentions, DEFAULT_COMBINATION, type CombinationPolicy } from './combine.ts';

/**
 * Stage 1 of structuring: one list of entity mentions from the symbolic findings and
 * the transformer's spans, combined as ./combine.ts says.
 */

export interface EntityMention extends TextSpan {
  kind: 'Actor' | 'Location';
  /** Exactly `document.slice(start, end)`. */
  text: string;
  actor_type?: ActorType;
  location_type?: LocationType;
  canonical?: string;
  aliases?: string[];
  title?: string;
  /** ActorMention.country: the country a government named only by a description governs. */
  country?: string;
  country_code?: string;
  confidence: number;
  source: FindingSource;
  /** Set on definite descriptions ("the army") once resolved to the named actor they refer to. */
  generic?: boolean;
}

/**
 * What an organisation's own name says about its type ("... Armed Forces", "... Party").
 * Order matters: the first matching pattern wins.
 */
const ORGANISATION_TYPE_CUES: readonly [RegExp, ActorType][] = [
  [/\b(armed forces|army|navy|air force|military|defen[cs]e forces)\b/i, 'armed_forces'],
  [/\b(militia|rebels?|brigades?|battalions?|liberation|insurgents?|front|resistance|mujahideen|jihad)\b/i, 'armed_group'],
  [/\b(united nations|african union|european union|league|igad|nato|ecowas|commission|council)\b/i, 'international_org'],
  [/\b(ministry|government|cabinet|presidency|administration)\b/i, 'government'],
  [/\b(party|congress|alliance for)\b/i, 'political_party'],
  [/\b(red cross|red crescent|m[ée]decins|relief|aid|foundation|watch|amnesty)\b/i, 'ngo'],
  [/\b(news|agency|times|post|radio|tv|television)\b/i, 'media'],
];

export function inferOrganisationType(name: string): ActorType {
  return ORGANISATION_TYPE_CUES.find(([pattern]) => pattern.test(name))?.[1] ?? 'unknown';
}

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
 * What a place name's head word says about its type, for places only the model found
 * ("Anbar province", "Al Asad Air Base"); a bare name is most often a town or a city.
 */
const LOCATION_TYPE_CUES: readonly [RegExp, LocationType][] = [
  [/\b(camp|base|airfield|airport|crossing|bridge|dam|hospital|plant|corridor|checkpoint|prison|port)$/i, 'site'],
  [/\b(province|region|state|governorate|district|county|oblast|valley|mountains|desert|strip|plateau|heights)$/i, 'region'],
];

export function inferLocationType(name: string): LocationType {
  return LOCATION_TYPE_CUES.find(([pattern]) => pattern.test(name))?.[1] ?? 'city';
}

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
