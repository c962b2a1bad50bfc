import type { ActorType, LocationType } from '../../ontology/index.ts';
import type { FindingSource, TextSpan } from '../types.ts';

/**
 * What structuring works on: an actor or location mention, found by the symbolic layer or
 * the transformer, and what a name alone says about its type (for the transformer's spans,
 * which carry no type of their own).
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
  /** ActorMention.reference and .antecedent: a pronoun or nominal mention, and the mention it stands for (none: nobody). */
  reference?: 'pronoun' | 'nominal';
  antecedent?: TextSpan;
  /** ActorMention.type_guessed: the actor type is only an acronym's fallback. */
  type_guessed?: boolean;
}

/**
 * What an organisation's own name says about its type ("... Armed Forces", "... Party").
 * Order matters: the first matching pattern wins.
 */
const ORGANISATION_TYPE_CUES: readonly [RegExp, ActorType][] = [
  [/\b(court|tribunal)\b/i, 'court'],
  [/\b(police|constabulary)\b/i, 'police'],
  [/\b(armed forces|army|navy|air force|military|defen[cs]e forces)\b/i, 'armed_forces'],
  [/\b(militia|rebels?|brigades?|battalions?|liberation|insurgents?|front|resistance|mujahideen|jihad)\b/i, 'armed_group'],
  [/\b(united nations|african union|european union|league|igad|nato|ecowas|commission|council)\b/i, 'international_org'],
  [/\b(ministry|government|cabinet|presidency|administration)\b/i, 'government'],
  [/\b(party|congress|alliance for)\b/i, 'political_party'],
  [/\b(red cross|red crescent|m[ée]decins|relief|aid|foundation|watch|amnesty)\b/i, 'ngo'],
  [/\b(news|agency|times|post|radio|tv|television)\b/i, 'media'],
  [/\b(company|corporation|corp|inc|ltd|limited|plc|llc|holdings)\b/i, 'company'],
];

export function inferOrganisationType(name: string): ActorType {
  return ORGANISATION_TYPE_CUES.find(([pattern]) => pattern.test(name))?.[1] ?? 'unknown';
}

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
