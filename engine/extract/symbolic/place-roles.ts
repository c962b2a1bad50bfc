import type { ActorMention, LocationMention } from '../types.ts';
import { documentHeading, spanContains, tokenIndexAt, type Token } from './text.ts';

/**
 * Where the text uses a country or city as a place, whatever words stand before it: in a
 * list or coordination with a place ("in Syria and Iraq", "from Sudan, Chad and South Sudan"),
 * after a place it locates ("Aleppo, Syria", "Mosul (Iraq)"), or as a heading or dateline
 * ("KHARTOUM, 12 March —", a country alone on its line). ./entities.ts keeps the actor reading
 * for the rest, where the text makes the country act.
 */

/** Verbs after a capital or a country that make it speak or act for its government ("Kigali denied", "Washington welcomed"). */
export const ACTING_VERB = /^(?:said|says|denied|denies|accused|accuses|vowed|vows|warned|warns|rejected|rejects|insisted|insists|announced|has|had|have|would|will|did|does|is|was|called|demanded|urged|claimed|stated|threatened|agreed|refused|condemned|blamed|dismissed|sought|wants|hopes|maintains|welcomed|welcomes|retaliated|launched|struck|recalled|expelled|imposed|also|responded|replied|confirmed|sees|views|considers)$/;

/** Tokens that join the members of a list of places. */
const LIST_JOINERS = new Set([',', 'and', 'or', '&', ';']);

/** Lower-case words that may follow the last member of a list of places; any other after ", and X" makes X open a new clause. */
export const AFTER_LIST = new Set([
  'in', 'into', 'on', 'at', 'from', 'to', 'as', 'with', 'where', 'which', 'during', 'after', 'before', 'since', 'until',
  'for', 'over', 'between', 'near', 'through', 'across', 'along', 'alike', 'respectively', 'the', 'of', 'and', 'or',
]);

/**
 * Only list joiners stand between the two, so a member of a list takes the reading of the member
 * before it; not "targets in Ukraine, and Poland sent weapons", where ", and" opens a clause.
 */
export function coordinatedWith(tokens: Token[], location: LocationMention, previous: LocationMention | undefined): boolean {
  if (!previous) return false;
  const from = tokenIndexAt(tokens, previous.end);
  const to = tokenIndexAt(tokens, location.start);
  if (to <= from) return false;
  for (let i = from; i < to; i++) if (!LIST_JOINERS.has(tokens[i].lower)) return false;
  const next = tokens[tokenIndexAt(tokens, location.end)];
  const opensClause = tokens[from].text === ',' && to - from > 1 && next !== undefined && next.word && !next.capitalised && !AFTER_LIST.has(next.lower);
  return !opensClause;
}

/** "Aleppo, Syria", "Mosul (Iraq)": a country or region right after a smaller place it contains. */
export function locatesPlaceBefore(tokens: Token[], location: LocationMention, previous: LocationMention | undefined): boolean {
  if (!previous || previous.location_type === 'country') return false;
  const index = tokenIndexAt(tokens, location.start);
  const separator = tokens[index - 1]?.text;
  if (separator !== ',' && separator !== '(') return false;
  return tokens[index - 2]?.end === previous.end && (separator === ',' || tokens[tokenIndexAt(tokens, location.end)]?.text === ')');
}

/**
 * A heading or dateline: the place opens its line and the line holds nothing else but dates,
 * numbers and punctuation, or the place is written in capitals at the start of a line and a
 * comma or dash follows ("BAGHDAD, Iraq —", "SYRIA"), or it opens a heading line before a colon ("Syria:
 * Recent Developments").
 */
export function isHeadingOrDateline(text: string, location: LocationMention): boolean {
  const lineStart = text.lastIndexOf('\n', location.start - 1) + 1;
  if (text.slice(lineStart, location.start).trim() !== '') return false;
  const lineEnd = text.indexOf('\n', location.end);
  const rest = text.slice(location.end, lineEnd === -1 ? text.length : lineEnd);
  if (lineEnd !== -1 && /^[\s\p{P}\p{N}]*$/u.test(rest)) return true;
  // "Syria: Recent Developments in ...", "ETHIOPIA: Amhara Region – Flash Update": a heading's place before its colon,
  // on the first line or in the heading only: further down, "Russia: We reject the draft" is a transcript's speaker.
  if (/^:\s/u.test(rest)) return lineStart === 0 || spanContains(documentHeading(text) ?? { start: 0, end: 0 }, location);
  return !/\p{Ll}/u.test(location.text) && /^\s*[,—–-]/u.test(rest);
}

/** Nouns of a frontier: the countries it runs along are places. */
const FRONTIERS = new Set(['border', 'borders', 'frontier', 'boundary']);

/**
 * "the Belarus–Ukraine border", "close to the border with Algeria", "the frontier between Chad and Sudan": a
 * country named as one side of a frontier is where it runs, not a party.
 */
export function namesFrontier(tokens: Token[], location: LocationMention): boolean {
  const index = tokenIndexAt(tokens, location.start);
  const after = tokenIndexAt(tokens, location.end);
  const joined = /^\p{Pd}$/u.test(tokens[after]?.text ?? '') && tokens[after + 1]?.capitalised ? after + 2 : after;
  if (FRONTIERS.has(tokens[joined]?.lower ?? '')) return true;
  const before = tokens[index - 1]?.lower === 'the' ? index - 1 : index;
  return ['with', 'between'].includes(tokens[before - 1]?.lower ?? '') && FRONTIERS.has(tokens[before - 2]?.lower ?? '');
}

/** "Sudan's Sovereignty Council": the place named in the possessive before an actor qualifies that actor; it is neither place nor party. */
export function qualifiesActor(tokens: Token[], location: LocationMention, actors: readonly ActorMention[]): boolean {
  const possessed = tokens[tokenIndexAt(tokens, location.end) + 1];
  return possessed !== undefined && actors.some((actor) => actor.start === possessed.start);
}
