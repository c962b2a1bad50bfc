import type { ActorType } from '../../ontology/index.ts';
import type { ActorMention, TextSpan } from '../types.ts';
import { ACTOR_PRIORITY, ORGANISATION_HEADS, mention, nameLength, refineOrganisationType, type ActorCandidate, type Context } from './actors.ts';
import { isMaterielAcronym } from './materiel.ts';
import { PhraseIndex, isAcronym } from './phrases.ts';
import { spansOverlap, tokenIndexAt, type Sentence, type Token } from './text.ts';

/**
 * Names the gazetteer cannot know, as official statements write them: organisations
 * defined by their acronym ("Islamic State of Iraq and the Levant (ISIL)"), acronyms
 * never defined ("UNAMI"), office titles standing for their holder ("the Foreign
 * Secretary met ..."), and ships' names, which are neither people nor places.
 */

/** Lower-case words allowed inside a name an acronym spells ("Office for the Coordination of ..."). */
const ACRONYM_CONNECTORS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'to', 'de', 'du', 'des', 'la', 'le', '&', '–', '—', '-']);
/** Longest name (in tokens) an acronym definition is looked for in. */
const ACRONYM_NAME_TOKENS = 14;
/** Words that mark an unknown name as an insurgent or jihadist body. */
const NON_STATE_NAME = /\b(?:islamic|liberation|revolutionary|resistance|jihad|mujahideen|rebel|popular|front|brigades?|militia)\b/i;

/** The capital letters an acronym spells, hyphens, dots and ampersands dropped ("CJTF-OIR" → CJTFOIR). */
function acronymLetters(acronym: string): string {
  return acronym.replace(/[^\p{Lu}\p{N}]/gu, '');
}

/**
 * "Islamic State of Iraq and the Levant (ISIL)": the capitalised words before a
 * bracketed acronym whose initials spell it form one organisation's name, whatever
 * places or countries it contains. Returns the name's first token, or -1.
 */
function definitionStart(tokens: Token[], open: number, letters: string): number {
  let remaining = letters.length;
  let first = -1;
  for (let i = open - 1; i >= 0 && open - i <= ACRONYM_NAME_TOKENS && remaining > 0; i--) {
    const token = tokens[i];
    if (token.capitalised && token.word) {
      // "Counter-Terrorism" may give one letter or one per part.
      const parts = token.text.split('-').filter((part) => /^\p{Lu}/u.test(part));
      const spelled = parts.map((part) => part[0]).join('');
      if (remaining >= spelled.length && letters.slice(remaining - spelled.length, remaining) === spelled) remaining -= spelled.length;
      else if (letters[remaining - 1] === token.text[0]) remaining -= 1;
      else return -1;
      first = i;
    } else if (!ACRONYM_CONNECTORS.has(token.lower)) {
      return -1;
    }
  }
  return remaining === 0 && first >= 0 && open - first >= 2 ? first : -1;
}

/** The type a name's words imply: its last organisation word, else non-state words, else an international body. */
function typeOfName(words: readonly Token[], name: string): ActorType {
  for (let k = words.length - 1; k >= 0; k--) {
    const head = ORGANISATION_HEADS[words[k].lower];
    if (head && words[k].capitalised) return refineOrganisationType(name, head);
  }
  return NON_STATE_NAME.test(name) ? 'armed_group' : refineOrganisationType(name, 'international_org');
}

/** Acronyms that are not organisations. */
const NOT_ORGANISATION_ACRONYMS = new Set([
  'AM', 'PM', 'TV', 'HQ', 'ID', 'OK', 'GMT', 'UTC', 'CEO', 'GDP', 'COVID', 'PDF', 'URL', 'IED', 'IEDS', 'RPG', 'UAV', 'UAVS',
  'SAM', 'MP', 'MPS', 'NB', 'PS', 'FAQ', 'USD', 'EUR', 'GBP', 'KM', 'MM', 'KG', 'PKK/YPG', 'ISR', 'SITREP', 'DM', 'AI', 'AK',
  'II', 'III', 'IV', 'VI', 'VII', 'VIII', 'IX', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XX',
]);
/** Words after an acronym that say what kind of body it is ("SNA fighters", "UNAMI mission"). */
const ACRONYM_BEARERS: Record<string, ActorType> = {
  fighters: 'armed_group', militants: 'armed_group', militia: 'armed_group', rebels: 'armed_group', forces: 'armed_group',
  troops: 'armed_forces', soldiers: 'armed_forces', units: 'armed_forces', mission: 'international_org', officials: 'government',
  party: 'political_party', members: 'armed_group', leader: 'armed_group', commander: 'armed_group',
};

function isShouting(token: Token | undefined): boolean {
  return token !== undefined && token.word && token.text.length > 1 && token.text === token.text.toUpperCase() && /\p{Lu}/u.test(token.text);
}

/** Organisations defined by an acronym in brackets, and acronym-shaped names never defined. */
export function acronymCandidates(context: Context): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  // Acronyms the document defines are aliases of their definition (entities.ts), wherever they recur.
  const defined = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.text === '(' && tokens[i + 2]?.text === ')' && isAcronym(tokens[i + 1].text)) {
      defined.add(tokens[i + 1].text);
      const first = definitionStart(tokens, i, acronymLetters(tokens[i + 1].text));
      if (first >= 0) {
        const name = context.text.slice(tokens[first].start, tokens[i - 1].end);
        const actor = mention(context, first, i, typeOfName(tokens.slice(first, i), name), 'pattern', 0.8, { aliases: [tokens[i + 1].text] });
        found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.organisation });
        // The bracketed acronym becomes the name's alias (entities.ts), not a second organisation.
        i += 2;
      }
      continue;
    }
    if (!isAcronym(token.text) || NOT_ORGANISATION_ACRONYMS.has(token.text) || defined.has(token.text) || /^\d/.test(token.text)) continue;
    if (isMaterielAcronym(tokens, i)) continue;
    // A headline or a dateline in capitals is not a row of acronyms ("MEKELLE, 4 March").
    if (isShouting(tokens[i - 1]) || isShouting(tokens[i + 1]) || (tokens[i + 1]?.text === ',' && /^\d/.test(tokens[i + 2]?.text ?? ''))) continue;
    if (acronymLetters(token.text).length < 2 || acronymLetters(token.text).length > 7) continue;
    const typed = /^G\d+$/.test(token.text) || /^UN/.test(token.text) ? 'international_org' : ACRONYM_BEARERS[tokens[i + 1]?.lower ?? ''];
    const actor = mention(context, i, i + 1, typed ?? 'armed_group', 'pattern', 0.5, typed ? {} : { type_guessed: true });
    found.push({ mention: actor, reserve: actor, priority: ACRONYM_PRIORITY });
  }
  return found;
}

/** Below places and every other actor source: an acronym the gazetteer knows as a place or actor is that. */
const ACRONYM_PRIORITY = 1.5;

/** Offices whose holder a statement names by the title alone ("the Foreign Secretary said"). */
const OFFICES = [
  'Foreign Secretary', 'Defence Secretary', 'Defense Secretary', 'Home Secretary', 'Secretary of State', 'Secretary of Defense',
  'Prime Minister', 'President', 'Vice President', 'Foreign Minister', 'Defence Minister', 'Defense Minister',
  'Secretary-General', 'Secretary General', 'High Representative', 'High Commissioner', 'Special Envoy',
  'Chief of the Defence Staff', 'Chief of the General Staff', 'Chief of Staff', 'National Security Adviser',
  'Minister of Defence', 'Minister of Foreign Affairs', 'Chancellor', 'Supreme Leader', 'Crown Prince',
];
let officeIndex: PhraseIndex<string> | undefined;

function officeIndexOnce(): PhraseIndex<string> {
  if (!officeIndex) {
    officeIndex = new PhraseIndex();
    for (const office of OFFICES) officeIndex.add(office, office);
  }
  return officeIndex;
}

/**
 * "The Foreign Secretary met ...": a capitalised office after "the" with no name
 * after it stands for its holder. When a name follows, in apposition or not, the
 * title belongs to that name and the titled pattern takes it.
 */
export function officeCandidates(context: Context): ActorCandidate[] {
  const offices = officeIndexOnce();
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i - 1].lower !== 'the' || !tokens[i].capitalised) continue;
    const [office] = offices.matchesAt(tokens, i);
    if (!office) continue;
    const next = office.endToken;
    const apposition = tokens[next]?.text === ',' ? next + 1 : next;
    // "the President of Ukraine" names a polity's office; a name after it takes the title.
    if (tokens[next]?.lower === 'of' || nameLength(tokens, apposition) > 0 || nameAfterTitle(tokens, apposition)) continue;
    const held = context.text.slice(tokens[i].start, tokens[next - 1].end);
    const actor = mention(context, i, next, 'individual', 'title', 0.55, { canonical: held, title: held });
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.titled });
    i = next - 1;
  }
  return found;
}

/** "..., Admiral Sir Tony Radakin": a rank and a name after the comma. */
function nameAfterTitle(tokens: Token[], index: number): boolean {
  let k = index;
  while (k < tokens.length && k - index < 4 && tokens[k].capitalised) k++;
  return k > index + 1;
}

/** Ship prefixes: what follows is a vessel's name, not a person's or a place's. */
const SHIP_PREFIXES = new Set(['HMS', 'USS', 'USNS', 'HMAS', 'HMCS', 'HMNZS', 'INS', 'KNS', 'FS', 'ITS', 'TCG', 'RFS', 'ROKS', 'JS', 'MV', 'SS', 'RV', 'HNLMS', 'FGS', 'SPS', 'HDMS']);

/** Spans of ships' names ("HMS Diamond", "USS Carney"), which no pattern may read as a person or a place. */
export function vesselSpans(tokens: Token[]): TextSpan[] {
  const spans: TextSpan[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    if (!SHIP_PREFIXES.has(tokens[i].text)) continue;
    let end = i + 1;
    while (end < tokens.length && end - i <= 3 && tokens[end].capitalised && tokens[end].word) end++;
    if (end > i + 1) spans.push({ start: tokens[i].start, end: tokens[end - 1].end });
    i = end - 1;
  }
  return spans;
}

/** The office an apposition gives the person before it: ", the Kivaran defence minister," → "Kivaran defence minister". */
function appositiveRole(text: string, person: TextSpan): string | undefined {
  const apposition = /^,\s+(?:the|a|an|its|their)\s+([^,;.()"“”]{1,60}?)\s*(?:,|\bof\b|\bfor\b|\bat\b)/u.exec(text.slice(person.end, person.end + 90));
  const words = apposition?.[1].split(/\s+/);
  return words && ROLE_HEADS.has(words[words.length - 1].toLowerCase()) ? apposition![1] : undefined;
}

/**
 * The office an apposition before the person gives them: "The United Nations Special Envoy for Yemen,
 * Hans Grundberg," → "United Nations Special Envoy", "Its speaker, Tomas Hrell," → "speaker". The
 * phrase opens its sentence, follows a dateline's dash, a comma or "and" ("... and his Turkish counterpart, X,").
 */
function officeInAppositionBefore(text: string, person: TextSpan): string | undefined {
  const before = person.start > 90 ? text.slice(person.start - 90, person.start) : `. ${text.slice(0, person.start)}`;
  const apposition = /(?:[.!?]["”]?\s+|\s[—–-]\s+|,\s+|\band\s+)(?:the|a|an|its|their|his|her)\s+([^,;.()"“”—–]{1,60}?),\s*$/iu.exec(before);
  const head = apposition?.[1].split(/\s+(?:of|for|to|at|in)\s+/)[0];
  const words = head?.split(/\s+/);
  return words && ROLE_HEADS.has(words[words.length - 1].toLowerCase()) ? head : undefined;
}

/** "his Turkish counterpart, X," and "X, her Rwandan counterpart,": a person holding the same office as the one named before. */
const COUNTERPART_BEFORE = /\b(?:his|her|their)\s+(?:[\p{L}-]+\s+)?counterpart,\s*$/iu;
const COUNTERPART_AFTER = /^,\s+(?:his|her|their)\s+(?:[\p{L}-]+\s+)?counterpart\b/iu;

/** Rank abbreviations as a role names them ("Lt. Gen. X ... the general said"). */
const RANK_WORDS: Record<string, string> = {
  gen: 'general', lt: 'lieutenant', maj: 'major', col: 'colonel', brig: 'brigadier', adm: 'admiral', capt: 'captain', cdr: 'commander', sgt: 'sergeant',
};
/** Lower-case role nouns that can stand for a titled person named earlier ("the secretary said"). */
export const ROLE_HEADS = new Set([
  'secretary', 'minister', 'general', 'president', 'ambassador', 'envoy', 'commander', 'admiral', 'colonel', 'brigadier', 'governor',
  'chancellor', 'secretary-general', 'spokesman', 'spokeswoman', 'spokesperson', 'adviser', 'representative', 'commissioner', 'marshal',
  'leader', 'chief', 'director', 'researcher', 'mediator', 'negotiator', 'prosecutor', 'coordinator', 'rapporteur', 'premier',
  'speaker',
]);
/** Words after a lower-case role that show it is a noun phrase of its own ("the general election", "the minister of"), not a person. */
const ROLE_FOLLOWERS = /^(?:[.,;:!?)"”']|'s|said|says|wrote|writes|later|in|on|then|again|told|added|adds|stressed|warned|insisted|noted|declared|announced|met|visited|arrived|left|spoke|called|urged|replied|responded|also|has|had|is|was|will|would|did|who|\p{L}+ed|holds|calls|urges|insists|warns|accuses|denies|demands|stresses|rejects|reiterates|welcomes|condemns|notes|asks)$/u;

/** A title's words as roles compare them: lower case, ranks spelled out, no dots. */
function roleWords(title: string): string[] {
  return title
    .toLowerCase()
    .replace(/\.-/g, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/\.$/, ''))
    .map((word) => RANK_WORDS[word] ?? word)
    .filter(Boolean);
}

/** A title's words up to its head noun: "Secretary of State" is a secretary, "Minister of Defence" a minister. */
function titleHead(words: readonly string[]): readonly string[] {
  const of = words.indexOf('of');
  return of > 0 ? words.slice(0, of) : words;
}

function endsWith(words: readonly string[], suffix: readonly string[]): boolean {
  return suffix.length > 0 && suffix.length <= words.length && suffix.every((word, k) => words[words.length - suffix.length + k] === word);
}

/**
 * How far back a title looks for its holder: the holder must be mentioned (by any of their
 * names) in the title's sentence or one of this many sentences before it. On the sample
 * documents (corpora/) a person introduced with a title is named again at most 4 sentences
 * later (5 such back-references; the gold sets are single sentences and hold none).
 */
export const ROLE_LOOKBACK_SENTENCES = 5;

/**
 * Titles standing for the person named with that title earlier in the document: "The
 * Foreign Secretary met ..." after "Foreign Secretary David Lammy", and a lower-case
 * "the secretary said" after "Defence Secretary John Healey". A title in apposition counts
 * ("Ana Velt, the Kivaran defence minister, ..."). The holder is the one person with that
 * title mentioned within ROLE_LOOKBACK_SENTENCES; with none, or with two different persons
 * holding it there ("President Tshisekedi met President Kagame. The President said ..."), a
 * capitalised office stays its own actor and a lower-case role is nobody. A lower-case role
 * no one before holds by title ("the envoy") is the one person the window names, when it
 * names only one and gives them no title.
 */
export function roleReferences(context: Context, sentences: readonly Sentence[], actors: ActorMention[], taken: readonly TextSpan[]): ActorMention[] {
  const persons = actors.filter((actor) => actor.actor_type === 'individual' && actor.title !== actor.text);
  if (persons.length === 0) return [];
  // "Ana Velt, the Kivaran defence minister, said": the office in apposition is hers as a title before her name would be;
  // "Major General Yahya Rasool, the military spokesman," holds both ("the general", "the spokesman").
  const rolesOf = new Map(persons.map((person) => [person, [person.title, appositiveRole(context.text, person), officeInAppositionBefore(context.text, person)].filter((role): role is string => role !== undefined)]));
  // "Foreign Minister Fuad Hussein and his Turkish counterpart, Hakan Fidan,": a counterpart holds the office of the person before him.
  for (const person of persons) {
    const counterpart = COUNTERPART_BEFORE.test(context.text.slice(Math.max(0, person.start - 40), person.start)) || COUNTERPART_AFTER.test(context.text.slice(person.end, person.end + 40));
    const other = counterpart ? persons.filter((before) => before.end <= person.start && rolesOf.get(before)!.length > 0).pop() : undefined;
    if (other) rolesOf.get(person)!.push(...rolesOf.get(other)!);
  }
  const titled = persons.filter((actor) => rolesOf.get(actor)!.length > 0);
  const personOf = (actor: ActorMention) => actor.canonical ?? actor.text;
  const holderBefore = (position: number, role: readonly string[], untitledHolder: boolean) => {
    const windowStart = sentences[Math.max(0, tokenIndexAt(sentences, position + 1) - 1 - ROLE_LOOKBACK_SENTENCES)].start;
    const inWindow = actors.filter((actor) => actor.actor_type === 'individual' && actor.start >= windowStart && actor.end <= position);
    const recent = inWindow.map(personOf);
    // By any of their names: "Lammy" is David Lammy.
    const mentioned = (person: ActorMention) => recent.some((name) => name === personOf(person) || personOf(person).endsWith(` ${name}`));
    const holding = titled.filter((person) => person.end <= position && rolesOf.get(person)!.some((office) => {
      const title = roleWords(office);
      return endsWith(title, role) || endsWith(titleHead(title), role);
    }));
    const holders = holding.filter(mentioned);
    // A holder named with the office only beyond the window is too far back to follow ("the secretary said" is nobody then).
    if (holding.length > 0 || !untitledHolder) return new Set(holders.map(personOf)).size === 1 ? holders[holders.length - 1] : undefined;
    // No one holds the role by title ("the envoy" after "The head of BINUH, María Salvador"): the one person named without a title, if only one is.
    const untitled = inWindow.filter((person) => persons.includes(person) && !titled.includes(person) && !titled.some((other) => personOf(other).endsWith(personOf(person))));
    return new Set(untitled.map(personOf)).size === 1 && new Set(recent).size === new Set(untitled.map(personOf)).size ? untitled[untitled.length - 1] : undefined;
  };
  const asHolder = (person: ActorMention): Partial<ActorMention> => ({
    canonical: person.canonical ?? person.text, ...(person.aliases ? { aliases: person.aliases } : {}),
  });
  for (const office of actors) {
    if (office.source !== 'title' || office.title !== office.text) continue;
    const holder = holderBefore(office.start, roleWords(office.text), false);
    if (holder) Object.assign(office, asHolder(holder));
  }
  const { tokens } = context;
  const found: ActorMention[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i].lower !== 'the') continue;
    for (let end = Math.min(i + 4, tokens.length); end > i + 1; end--) {
      const words = tokens.slice(i + 1, end);
      if (!ROLE_HEADS.has(words[words.length - 1].lower) || words.some((word) => word.capitalised || !word.word)) continue;
      if (tokens[end] && !ROLE_FOLLOWERS.test(tokens[end].lower)) continue;
      // "The interim president, Aregash Tesfay, spoke": a role in apposition before a name is that person's, not someone's earlier.
      if (tokens[end]?.text === ',' && actors.some((actor) => actor.actor_type === 'individual' && actor.start === tokens[end + 1]?.start)) break;
      const span = { start: words[0].start, end: words[words.length - 1].end };
      if (taken.some((other) => spansOverlap(other, span))) break;
      const holder = holderBefore(span.start, words.map((word) => word.lower), true);
      if (!holder) continue;
      found.push({
        ...span, text: context.text.slice(span.start, span.end), actor_type: 'individual', title: context.text.slice(span.start, span.end),
        confidence: Math.min(holder.confidence, 0.6), source: 'title', ...asHolder(holder),
      });
      i = end - 1;
      break;
    }
  }
  return found;
}
