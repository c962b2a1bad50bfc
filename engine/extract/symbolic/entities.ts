import type { ActorMention, DateMention, LocationMention, TextSpan } from '../types.ts';
import {
  countryAt, describedCandidates, gazetteerCandidates, genericCandidates, organisationCandidates, personCandidates, stateCandidates, titledCandidates,
  type ActorCandidate,
} from './actors.ts';
import { findDescribedPlaces, findPlaceCandidates } from './locations.ts';
import { ACTING_VERB, coordinatedWith, isHeadingOrDateline, locatesPlaceBefore, namesFrontier, qualifiesActor } from './place-roles.ts';
import { capitalOf, countryName } from './gazetteer/index.ts';
import { acronymCandidates, officeCandidates, roleReferences, vesselSpans } from './names.ts';
import { nationalityCandidates } from './nationalities.ts';
import { contextPersonCandidates } from './persons.ts';
import { isAcronym } from './phrases.ts';
import { issuerReferences } from './issuer.ts';
import { resolveReferences } from './references.ts';
import { clauses, spanContains, spansOverlap, tokenIndexAt, type Sentence, type Token } from './text.ts';

/**
 * Settles the actor and place candidates into one non-overlapping set of
 * mentions (longest claimed span first, then source priority), then adds what
 * needs the whole document: state actors for countries that act, acronyms
 * defined in parentheses, and surnames of people named in full earlier.
 */

export interface Entities {
  actors: ActorMention[];
  locations: LocationMention[];
}

/** Places rank between state patterns and capitalised organisation names. */
const PLACE_PRIORITY = { curated: 4.5, city: 2.5, described: 2.6 };

/** Words before a country that make it a place, not an acting state ("fighting in Sudan"). */
const LOCATIVE_WORDS = new Set([
  'in', 'at', 'near', 'inside', 'within', 'across', 'throughout', 'into', 'from', 'toward', 'towards', 'around',
  'outside', 'over', 'through', 'of', 'on', 'entered', 'visited', 'left', 'fled', 'north', 'south', 'east', 'west',
  'northern', 'southern', 'eastern', 'western', 'central', 'northwestern', 'northeastern', 'southwestern', 'southeastern',
  'north-western', 'north-eastern', 'south-western', 'south-eastern', 'region', 'parts', 'borders', 'bordering', 'border', 'via',
]);
/** "to <country>" is a place after a motion verb ("travelled to Ukraine"), a recipient otherwise ("weapons to Ukraine"). */
const MOTION_VERBS = /^(?:travel\w*|went|go|goes|going|return\w*|fled|flee\w*|flew|moved?|deployed|sent|access|route|routes|road|way|trip|visit\w*|arrived?|back|came|come)$/;
/** "Lebanon's caretaker Prime Minister", "Russia's defence ministry": the country is part of that mention, not an actor. */
const POSSESSED_INSTITUTION = /^(?:president|prime|foreign|defence|defense|interior|army|military|armed|government|ministry|health|finance|justice|information|education|interim|caretaker|ruling|regional|federal|transitional|new|former|top|chief|envoy|ambassador|minister|parliament|security|sovereignty|presidential|national|leader|king|emir|opposition|junta|police|navy|air|intelligence|central|supreme)/;
/** Verbs before a capital that make it a government addressed or accused ("accused Kigali of"). */
const ADDRESSING_VERB = /^(?:accused|accuses|blamed|blames|urged|urges|warned|warns|told|condemned|criticised|criticized|pressed|sanctioned|and)$/;

interface Choice {
  reserve: TextSpan;
  priority: number;
  actor?: ActorMention;
  location?: LocationMention;
}

export function findEntities(text: string, tokens: Token[], sentences: Sentence[], dates: DateMention[]): Entities {
  const context = { text, tokens };
  const sentenceStarts = new Set(sentences.map((sentence) => sentence.firstToken));
  const gazetteer = gazetteerCandidates(context);
  const candidates: Choice[] = [
    ...gazetteer,
    ...titledCandidates(context),
    ...stateCandidates(context),
    ...organisationCandidates(context, sentenceStarts),
    ...describedCandidates(context, sentenceStarts),
    ...personCandidates(context),
    ...genericCandidates(context),
    ...acronymCandidates(context),
    ...officeCandidates(context),
    ...nationalityCandidates(context),
    ...contextPersonCandidates(context, sentenceStarts),
  ].map((candidate: ActorCandidate) => ({ reserve: candidate.reserve, priority: candidate.priority, actor: candidate.mention }));
  const described = findDescribedPlaces(text, tokens, sentenceStarts);
  for (const place of described) {
    candidates.push({ reserve: place.mention, priority: PLACE_PRIORITY.described, location: place.mention });
  }
  for (const place of findPlaceCandidates(text, tokens, sentenceStarts, described)) {
    candidates.push({ reserve: place.mention, priority: place.curated ? PLACE_PRIORITY.curated : PLACE_PRIORITY.city, location: place.mention });
  }
  // A date blocks names inside it ("March"), unless a gazetteer name contains it ("March 23 Movement");
  // a ship's name blocks the person or place it would otherwise be read as.
  const blocking = [
    ...dates.filter((date) => !gazetteer.some((candidate) => candidate.reserve.start <= date.start && date.end <= candidate.reserve.end)),
    ...vesselSpans(tokens),
  ];
  const chosen = choose(candidates, blocking);
  const actors = chosen.flatMap((choice) => (choice.actor ? [choice.actor] : []));
  const { states, places: locations } = actingStates(text, tokens, chosen.flatMap((choice) => (choice.location ? [choice.location] : [])), actors);
  actors.push(...states);
  nameDescribedGovernments(tokens, sentences, actors, locations);
  const taken = [...chosen.map((choice) => choice.reserve), ...blocking];
  actors.push(...documentAliases(tokens, actors, taken));
  actors.push(...roleReferences(context, sentences, actors, [...taken, ...actors]));
  actors.sort((a, b) => a.start - b.start || a.end - b.end);
  actors.push(...resolveReferences(context, sentences, actors, locations, taken));
  actors.sort((a, b) => a.start - b.start || a.end - b.end);
  actors.push(...issuerReferences(text, tokens, actors, taken));
  actors.sort((a, b) => a.start - b.start || a.end - b.end);
  locations.sort((a, b) => a.start - b.start);
  return { actors, locations };
}

/**
 * The country a government the document names only by a description ("the junta", "the
 * federal government") governs, which the structure stage names it after when no named
 * actor stands for it:
 * 1. the nationality its own clause gives, else its sentence's ("The Congolese delegation
 *    said the government ..."): demonyms, and country names inside another actor's name
 *    ("the DRC delegation"); a country that is itself a party or a place there ("China said
 *    the military government ...", "fighting in Sudan") says nothing of whose government it is;
 * 2. else the country most of the document's places lie in, when one has more than any
 *    other (datelines aside).
 * Where the deciding clause or sentence names several nationalities, the document's country
 * is kept if it is one of them; otherwise the description has none.
 */
function nameDescribedGovernments(tokens: Token[], sentences: Sentence[], actors: ActorMention[], places: LocationMention[]): void {
  const described = actors.filter((actor) => actor.actor_type === 'government' && !actor.canonical && actor.source === 'pattern');
  if (described.length === 0) return;
  const majority = documentCountry(places);
  for (const actor of described) {
    const sentence = sentences.find((candidate) => spanContains(candidate, actor));
    const clause = sentence && clauses(tokens, sentence).find((candidate) => spanContains(candidate, actor));
    const named = [clause, sentence].map((span) => (span ? nationalitiesIn(tokens, span, actors) : new Set<string>())).find((codes) => codes.size > 0);
    const code = !named ? majority : named.size === 1 ? [...named][0] : majority && named.has(majority) ? majority : undefined;
    if (code) actor.country = countryName(code);
  }
}

/** The country most of the document's places lie in, when one has strictly more than any other. */
function documentCountry(places: LocationMention[]): string | undefined {
  const counts = new Map<string, number>();
  for (const place of places) {
    // A dateline's place, written in capitals ("LUANDA, 4 August"), is where the report was filed, not where things happen.
    if (!place.country_code || !/\p{Ll}/u.test(place.text)) continue;
    counts.set(place.country_code, (counts.get(place.country_code) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return ranked.length === 0 || ranked[1]?.[1] === ranked[0][1] ? undefined : ranked[0][0];
}

/** Country codes of the nationalities a span states: demonyms, and country names inside an actor's name that is not the state itself. */
function nationalitiesIn(tokens: Token[], span: Sentence, actors: ActorMention[]): Set<string> {
  const codes = new Set<string>();
  for (let i = span.firstToken; i < span.endToken; i++) {
    const country = countryAt(tokens, i);
    if (!country) continue;
    const named = { start: tokens[i].start, end: tokens[country.endToken - 1].end };
    if (!country.isCountryName || actors.some((actor) => actor.actor_type !== 'state' && spanContains(actor, named))) codes.add(country.code);
    i = country.endToken - 1;
  }
  return codes;
}

function choose(candidates: Choice[], blocking: TextSpan[]): Choice[] {
  const ordered = [...candidates].sort(
    (a, b) => b.reserve.end - b.reserve.start - (a.reserve.end - a.reserve.start) || b.priority - a.priority || a.reserve.start - b.reserve.start,
  );
  const chosen: Choice[] = [];
  for (const candidate of ordered) {
    if (blocking.some((span) => spansOverlap(span, candidate.reserve))) continue;
    if (chosen.some((other) => spansOverlap(other.reserve, candidate.reserve))) continue;
    chosen.push(candidate);
  }
  return chosen.sort((a, b) => a.reserve.start - b.reserve.start);
}

/**
 * A country that is not governed by a place word acts as a state ("Russia
 * launched", "accused Rwanda", "weapons to Ukraine"); a capital followed by a
 * verb speaks for its government ("Kyiv said", "Islamabad vowed"). Such a
 * mention is an actor instead of a place.
 */
function actingStates(text: string, tokens: Token[], locations: LocationMention[], actors: ActorMention[]): { states: ActorMention[]; places: LocationMention[] } {
  const states: ActorMention[] = [];
  const places: LocationMention[] = [];
  for (const [position, location] of locations.entries()) {
    const previous = locations[position - 1];
    const index = tokenIndexAt(tokens, location.start);
    const after = tokenIndexAt(tokens, location.end);
    const possessed = tokens[after + 1];
    const possessor = tokens[after]?.lower === "'s" && possessed !== undefined && (possessed.capitalised || POSSESSED_INSTITUTION.test(possessed.lower));
    if (possessor && (POSSESSED_INSTITUTION.test(possessed.lower) || qualifiesActor(tokens, location, actors))) continue;
    const speaks = ACTING_VERB.test(tokens[after]?.lower ?? '');
    const listedWithPlace = previous !== undefined && places.includes(previous) && coordinatedWith(tokens, location, previous);
    if (!speaks && (listedWithPlace || locatesPlaceBefore(tokens, location, previous) || isHeadingOrDateline(text, location) || namesFrontier(tokens, location))) {
      places.push(location);
      continue;
    }
    const before = tokens[index - 1]?.lower === 'the' ? tokens[index - 2] : tokens[index - 1];
    const governed = before !== undefined && (LOCATIVE_WORDS.has(before.lower) || (before.lower === 'to' && MOTION_VERBS.test(tokens[index - 2]?.lower ?? '')));
    const capitalCountry = capitalOf(location.text);
    const acting =
      !governed && !possessor && !actors.some((actor) => spansOverlap(actor, location)) &&
      (location.location_type === 'country' ||
        (capitalCountry !== undefined && (speaks || ADDRESSING_VERB.test(tokens[index - 1]?.lower ?? ''))));
    if (!acting) {
      places.push(location);
      continue;
    }
    const isCountry = location.location_type === 'country';
    states.push({
      start: location.start,
      end: location.end,
      text: location.text,
      actor_type: isCountry ? 'state' : 'government',
      canonical: isCountry ? location.canonical : `Government of ${countryName(capitalCountry!)}`,
      confidence: isCountry ? 0.7 : 0.6,
      source: 'gazetteer',
    });
  }
  return { states, places };
}

/**
 * Names introduced once and then shortened: "Ngoro Liberation Front (NLF)" then
 * "NLF"; "Colonel Jean Mbarga" then "Mbarga". Only capitalised text not already
 * claimed by another mention, place or date.
 */
function documentAliases(tokens: Token[], actors: ActorMention[], taken: TextSpan[]): ActorMention[] {
  const aliases = new Map<string, ActorMention>();
  for (const actor of actors) {
    const index = tokenIndexAt(tokens, actor.end);
    const [open, acronym, close] = [tokens[index], tokens[index + 1], tokens[index + 2]];
    if (open?.text === '(' && close?.text === ')' && acronym && isAcronym(acronym.text)) aliases.set(acronym.text, actor);
    if (actor.actor_type === 'individual') {
      const parts = actor.text.split(/\s+/);
      const surname = parts[parts.length - 1].replace(/^(?:al|el|ad|as|ash|at|az|an|ar)-/i, '');
      if (parts.length > 1 && surname.length > 2 && /^\p{Lu}/u.test(surname)) aliases.set(surname, actor);
      if (parts.length > 1) aliases.set(parts[parts.length - 1], actor);
    }
  }
  if (aliases.size === 0) return [];
  const found: ActorMention[] = [];
  const occupied = [...taken];
  for (const token of tokens) {
    const named = aliases.get(token.text);
    if (!named || occupied.some((span) => spansOverlap(span, token))) continue;
    if (token.start < named.start) continue;
    found.push({
      start: token.start,
      end: token.end,
      text: token.text,
      actor_type: named.actor_type,
      canonical: named.canonical ?? named.text,
      aliases: named.aliases,
      title: named.title,
      confidence: Math.min(named.confidence, 0.75),
      source: named.source,
    });
    occupied.push(token);
  }
  return found;
}
