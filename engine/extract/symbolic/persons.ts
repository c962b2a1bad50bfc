import { ACTOR_PRIORITY, ORGANISATION_HEADS, mention, nameLength, type ActorCandidate, type Context } from './actors.ts';
import { knownActors, knownPlaces } from './gazetteer/index.ts';
import { ROLE_HEADS } from './names.ts';
import type { TextSpan } from '../types.ts';
import type { Token } from './text.ts';

/**
 * Persons no list knows, recognised by how a text introduces them: an office or a
 * description in apposition after the name ("Tobin Hale, a commander of the militia,
 * said"; "Mazloum Abdi, commander of the SDF, denied"), a relative clause only a person
 * takes ("Lise Kerra, who wrote the report, said"), or an office in apposition before it
 * ("The interim president, Aregash Tesfay, spoke"; "A spokesman for the army, X, said"; "The UN Humanitarian
 * Coordinator, X, said"), or a role noun
 * right before it ("opposition candidate Venâncio Mondlane"). Names of two to four capitalised
 * words only, none of them an organisation word, and never a name the gazetteer knows as
 * a place or an actor: those keep their own reading.
 */

/** Lower-case nouns that make an apposition an office or a description of a person: the offices names.ts follows, and descriptions. */
const PERSON_ROLES = new Set([
  ...ROLE_HEADS, 'head', 'official', 'officer', 'chairman', 'chairwoman', 'chairperson', 'advisor', 'delegate', 'executive', 'founder',
  'deputy', 'member', 'lawmaker', 'senator', 'mayor', 'analyst', 'investigator', 'activist', 'journalist', 'correspondent', 'doctor',
  'lawyer', 'editor', 'cleric', 'emir', 'general-secretary', 'candidate', 'politician', 'counterpart', 'kingpin', 'wali',
]);
/** Words that open a description of a person in apposition ("X, the ...", "X, a ...", "X, its ..."). */
const APPOSITION_OPENERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her']);
/** Prepositions that close the head of an apposition: its role noun stands before them ("a commander of the militia"). */
const HEAD_CLOSERS = new Set(['of', 'for', 'at', 'in', 'to', 'with', 'from', 'on', 'who', 'which', 'and']);
/** Words that join an office written in capitals to what it is the office of ("Minister of Petroleum", "Envoy for Yemen"). */
const OFFICE_OF = new Set(['of', 'for']);
/** Longest apposition, in tokens, read for its role noun. */
const APPOSITION_TOKENS = 10;
/** Name length bounds, in tokens: one word is too often a place or an organisation. */
const NAME_TOKENS = { min: 2, max: 4 };

export function contextPersonCandidates(context: Context, sentenceStarts: Set<number>): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!tokens[i].capitalised || !tokens[i].word || (tokens[i - 1]?.capitalised && tokens[i - 1].word)) continue;
    const length = nameLength(tokens, i, NAME_TOKENS.max + 1);
    if (length < NAME_TOKENS.min || length > NAME_TOKENS.max) continue;
    const end = i + length;
    if (!nameShaped(tokens, i, end)) continue;
    // The office before the name is the person's title, which a later "the president" finds (names.ts).
    const office = officeBefore(tokens, i, sentenceStarts);
    if (!office && !describedAfter(tokens, end) && !roleRightBefore(tokens, i)) continue;
    const title = office ? context.text.slice(office.start, office.end) : roleRightBefore(tokens, i) ? tokens[i - 1].text : undefined;
    const person = mention(context, i, end, 'individual', 'pattern', 0.6, title ? { title } : {});
    found.push({ mention: person, reserve: person, priority: ACTOR_PRIORITY.person });
    i = end - 1;
  }
  return found;
}

/** Words of a name: capitalised, no acronym, no organisation word, and not a place or an actor the gazetteer knows. */
function nameShaped(tokens: Token[], first: number, end: number): boolean {
  for (let k = first; k < end; k++) {
    const token = tokens[k];
    if (!token.word) continue;
    if (token.text.length > 1 && token.text === token.text.toUpperCase()) return false;
    if (Object.hasOwn(ORGANISATION_HEADS, token.lower)) return false;
  }
  const known = [...knownPlaces().matchesAt(tokens, first), ...knownActors().matchesAt(tokens, first)];
  return !known.some((match) => match.endToken >= end && !('actor_type' in match.value && match.value.actor_type === 'individual'));
}

/** ", who leads ...", ", a commander of ...", ", the group's chief executive,": a person described after the name. */
function describedAfter(tokens: Token[], end: number): boolean {
  if (tokens[end]?.text !== ',') return false;
  const next = tokens[end + 1];
  if (next?.lower === 'who') return tokens[end + 2]?.word === true && !tokens[end + 2].capitalised;
  const opens = next !== undefined && (APPOSITION_OPENERS.has(next.lower) || PERSON_ROLES.has(next.lower));
  return opens && roleBeforeHeadEnds(tokens, end + 1);
}

/**
 * "The interim president, X,", "A spokesman for the army, X,": an office in apposition before the name, wherever it
 * stands in its clause ("In a televised address, the group's military spokesman, X,"; "X and his Turkish counterpart,
 * Y,"; "killed a bandit leader, X,"); its words after the article.
 */
function officeBefore(tokens: Token[], first: number, sentenceStarts: Set<number>): TextSpan | undefined {
  if (tokens[first - 1]?.text !== ',') return undefined;
  for (let k = first - 2; k >= 0 && first - k <= APPOSITION_TOKENS + 2; k--) {
    if (/^[.;:!?"“”]$/.test(tokens[k].text) || tokens[k].text === ',') return undefined;
    // "killed a notorious bandit leader, X,", "among them the Minister of Petroleum, X,": wherever the office stands.
    if (APPOSITION_OPENERS.has(tokens[k].lower) && (roleBeforeHeadEnds(tokens, k) || isCapitalisedOffice(tokens, k + 1, first - 1))) {
      return { start: tokens[k + 1].start, end: tokens[first - 2].end };
    }
    if (sentenceStarts.has(k)) return undefined;
  }
  return undefined;
}

/**
 * "The United Nations Humanitarian Coordinator, X,", "the Minister of Foreign Affairs of the Republic of Armenia, X,": an office
 * written in capitals, its role noun last or followed only by what it is the office of.
 */
function isCapitalisedOffice(tokens: Token[], start: number, end: number): boolean {
  let k = start;
  while (k < end && tokens[k].capitalised && tokens[k].word && !PERSON_ROLES.has(tokens[k].lower)) k++;
  if (k === end || !PERSON_ROLES.has(tokens[k].lower) || !tokens[k].capitalised) return false;
  if (k + 1 === end) return true;
  if (!OFFICE_OF.has(tokens[k + 1].lower)) return false;
  return tokens.slice(k + 2, end).every((token) => (token.capitalised && token.word) || OFFICE_OF.has(token.lower) || token.lower === 'the' || token.lower === 'and');
}

/** "opposition candidate X", "peace commissioner X": a lower-case role noun right before the name. */
function roleRightBefore(tokens: Token[], first: number): boolean {
  const before = tokens[first - 1];
  return before !== undefined && !before.capitalised && PERSON_ROLES.has(before.lower);
}

/** A lower-case role noun in the head of the phrase from `start`: before its first preposition, comma or full stop. */
function roleBeforeHeadEnds(tokens: Token[], start: number): boolean {
  for (let k = start; k < tokens.length && k - start < APPOSITION_TOKENS; k++) {
    const token = tokens[k];
    if (!token.word && token.lower !== "'s") return false;
    if (k > start && HEAD_CLOSERS.has(token.lower)) return false;
    if (PERSON_ROLES.has(token.lower) && !token.capitalised) return true;
  }
  return false;
}
