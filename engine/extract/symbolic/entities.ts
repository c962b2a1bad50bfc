import type { ActorMention, DateMention, LocationMention, TextSpan } from '../types.ts';
import {
  gazetteerCandidates, genericCandidates, organisationCandidates, personCandidates, stateCandidates, titledCandidates,
  type ActorCandidate,
} from './actors.ts';
import { findPlaceCandidates } from './locations.ts';
import { isAcronym } from './phrases.ts';
import { spansOverlap, tokenIndexAt, type Sentence, type Token } from './text.ts';

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
const PLACE_PRIORITY = { curated: 4.5, city: 2.5 };

/** Words before a country that make it a place, not an acting state ("fighting in Sudan"). */
const LOCATIVE_WORDS = new Set([
  'in', 'at', 'near', 'inside', 'within', 'across', 'throughout', 'into', 'from', 'to', 'toward', 'towards', 'around',
  'outside', 'over', 'through', 'of', 'across', 'for', 'on', 'entered', 'visited', 'left', 'fled', 'north', 'south',
  'east', 'west', 'northern', 'southern', 'eastern', 'western', 'central', 'region', 'parts',
]);

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
    ...personCandidates(context),
    ...genericCandidates(context),
  ].map((candidate: ActorCandidate) => ({ reserve: candidate.reserve, priority: candidate.priority, actor: candidate.mention }));
  for (const place of findPlaceCandidates(text, tokens, sentenceStarts)) {
    candidates.push({ reserve: place.mention, priority: place.curated ? PLACE_PRIORITY.curated : PLACE_PRIORITY.city, location: place.mention });
  }
  // A date blocks names inside it ("March"), unless a gazetteer name contains it ("March 23 Movement").
  const blocking = dates.filter((date) => !gazetteer.some((candidate) => candidate.reserve.start <= date.start && date.end <= candidate.reserve.end));
  const chosen = choose(candidates, blocking);
  const actors = chosen.flatMap((choice) => (choice.actor ? [choice.actor] : []));
  const locations = chosen.flatMap((choice) => (choice.location ? [choice.location] : []));
  actors.push(...actingStates(tokens, locations, actors));
  const taken = [...chosen.map((choice) => choice.reserve), ...blocking];
  actors.push(...documentAliases(text, tokens, actors, taken));
  actors.sort((a, b) => a.start - b.start || a.end - b.end);
  locations.sort((a, b) => a.start - b.start);
  return { actors, locations };
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

/** A country that is not governed by a place word acts as a state: "Russia launched", "clashes between Armenia and Azerbaijan". */
function actingStates(tokens: Token[], locations: LocationMention[], actors: ActorMention[]): ActorMention[] {
  const found: ActorMention[] = [];
  for (const location of locations) {
    if (location.location_type !== 'country') continue;
    const index = tokenIndexAt(tokens, location.start);
    const before = tokens[index - 1];
    if (before && (LOCATIVE_WORDS.has(before.lower) || (before.lower === 'the' && LOCATIVE_WORDS.has(tokens[index - 2]?.lower ?? '')))) continue;
    if (actors.some((actor) => spansOverlap(actor, location))) continue;
    found.push({
      start: location.start,
      end: location.end,
      text: location.text,
      actor_type: 'state',
      canonical: location.canonical,
      confidence: 0.7,
      source: 'gazetteer',
    });
  }
  return found;
}

/**
 * Names introduced once and then shortened: "Ngoro Liberation Front (NLF)" then
 * "NLF"; "Colonel Jean Mbarga" then "Mbarga". Only capitalised text not already
 * claimed by another mention, place or date.
 */
function documentAliases(text: string, tokens: Token[], actors: ActorMention[], taken: TextSpan[]): ActorMention[] {
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
