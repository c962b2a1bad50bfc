import nlp from 'compromise';
import type { ActorType } from '../../ontology/index.ts';
import type { ActorMention, FindingSource } from '../types.ts';
import { countryForces, countryName, demonyms, fuzzyActors, knownActors, knownPlaces, type KnownActor } from './gazetteer/index.ts';
import { fuzzyPhrases } from './fuzzy.ts';
import { PhraseIndex } from './phrases.ts';
import { breaksLine, type Token } from './text.ts';
import { isNumberedUnit } from './units.ts';

/**
 * Actor candidates from six sources, strongest first: the gazetteer, people
 * introduced by a title or role ("General X", "RSF commander X"), state forces
 * and governments named through a country ("Sudanese army", "government of
 * Mali"), capitalised names ending in an organisation word ("Ngoro Liberation
 * Front"), people compromise recognises, and generic mentions ("the militia").
 * Overlaps are settled afterwards (../entities.ts): longest span, then priority.
 */

export interface ActorCandidate {
  mention: ActorMention;
  /** The characters the candidate claims: a title before a name is claimed but not part of the mention. */
  reserve: { start: number; end: number };
  priority: number;
}

/** `variant`: a gazetteer name's variant spelling, which yields to an exact hand-listed place ("Sinjar" is not Sinwar). */
export const ACTOR_PRIORITY = { gazetteer: 5, titled: 6, state: 4, organisation: 3, person: 2, generic: 1, variant: 4.4 } as const;

/** Titles written before a name, capitalised as in news text. */
const TITLES = [
  'President', 'Vice President', 'Vice-President', 'Prime Minister', 'Deputy Prime Minister', 'Foreign Minister',
  'Defence Minister', 'Defense Minister', 'Interior Minister', 'Information Minister', 'Finance Minister', 'Minister',
  'General', 'Gen.', 'Lieutenant General', 'Lt. Gen.', 'Lt Gen', 'Lt.-Gen.', 'Major General', 'Maj. Gen.', 'Maj Gen',
  'Brigadier General', 'Brig. Gen.', 'Brigadier', 'Colonel', 'Col.', 'Lieutenant Colonel', 'Lt. Col.', 'Major', 'Maj.',
  'Captain', 'Capt.', 'Commander', 'Field Marshal', 'Marshal', 'Admiral', 'Adm.', 'Sergeant', 'Sgt.', 'Lieutenant', 'Lt.',
  'Sheikh', 'Shaikh', 'King', 'Queen', 'Prince', 'Crown Prince', 'Emir', 'Sultan', 'Chancellor', 'Ambassador', 'Envoy',
  'Special Envoy', 'Secretary-General', 'Secretary General', 'Secretary of State', 'Senator', 'Sen.', 'Governor',
  'Gov.', 'Mayor', 'Imam', 'Bishop', 'Archbishop', 'Cardinal', 'Pope', 'Ayatollah', 'Mullah', 'Dr.', 'Dr', 'Mr.',
  'Mr', 'Ms.', 'Ms', 'Mrs.', 'Mrs', 'Spokesman', 'Spokesperson', 'Spokeswoman', 'Chairman', 'Chairperson',
  'Commissioner', 'Judge', 'Speaker', 'Warlord', 'Rev.', 'Pastor', 'Chief of Staff', 'Army Chief', 'Commander-in-Chief',
  'Rear Admiral', 'Rear Adm.', 'Vice Admiral', 'Vice Adm.', 'Air Marshal', 'Air Chief Marshal', 'Admiral Sir', 'General Sir',
  'Sir', 'Dame', 'Lord', 'Lady', 'Lt. Cmdr.', 'Cmdr.', 'Staff Sgt.', 'Sgt. Maj.', 'Cpl.', 'Pvt.',
  'Defence Secretary', 'Defense Secretary', 'Foreign Secretary', 'Home Secretary', 'Secretary', 'Deputy Secretary',
  'Under Secretary', 'Assistant Secretary', 'Foreign Affairs Minister', 'Minister of Defence', 'Minister of Defense',
  'Minister of Foreign Affairs', 'Minister of Interior', 'National Security Adviser', 'National Security Advisor',
  'High Representative', 'High Commissioner', 'Special Representative', 'Deputy Special Envoy', 'Chief of the Defence Staff',
  'Chief of General Staff', 'Chief of the General Staff', 'Chairman of the Joint Chiefs of Staff', 'Ambassador-at-Large', 'Deputy Foreign Minister', 'Deputy Defence Minister', 'Vice Foreign Minister',
];

/** Role nouns that introduce a name after an organisation or nationality ("RSF commander X", "UN envoy X"). */
const ROLE_NOUNS = [
  'commander', 'spokesman', 'spokeswoman', 'spokesperson', 'leader', 'chief', 'envoy', 'special envoy', 'minister',
  'foreign minister', 'defence minister', 'defense minister', 'president', 'general', 'official', 'negotiator',
  'mediator', 'chairman', 'head', 'founder', 'representative', 'ambassador', 'governor', 'commissioner', 'militia leader',
  'rebel leader', 'gang leader', 'opposition leader', 'army chief', 'military spokesman', 'army spokesman', 'prime minister',
  'secretary-general', 'warlord', 'colonel', 'deputy',
];

/** Name particles that may sit between capitalised parts of a name ("bin", "al-", "de"). */
const NAME_PARTICLES = new Set([
  'al', 'el', 'ad', 'ar', 'as', 'ash', 'at', 'az', 'an', 'ul', 'bin', 'ibn', 'bint', 'abu', 'abd', 'de', 'da', 'del',
  'della', 'di', 'dos', 'du', 'van', 'von', 'der', 'le', 'la', 'ould', 'ag', 'wad', 'wa',
]);
const HYPHEN_PARTICLE = /^(?:al|el|ad|ar|as|ash|at|az|an|ul|abu|abd)-\p{Lu}/u;

/** Capitalised words that end a name rather than continue it. */
const NOT_NAME_WORDS = new Set([
  'The', 'A', 'An', 'On', 'In', 'At', 'Of', 'And', 'But', 'While', 'Whereas', 'He', 'She', 'It', 'They', 'We', 'I',
  'His', 'Her', 'Their', 'This', 'That', 'These', 'Those', 'After', 'Before', 'During', 'When', 'Monday', 'Tuesday',
  'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December', 'Said', 'Says', 'Told', 'Also', 'However',
  'Meanwhile', 'According', 'Some', 'Many', 'Government', 'Army', 'Forces', 'Police', 'Minister', 'President', 'General',
  'Our', 'Us',
]);

/** Organisation words that close a capitalised name, with the actor type they imply. */
export const ORGANISATION_HEADS: Record<string, ActorType> = {
  front: 'armed_group', army: 'armed_group', forces: 'armed_group', force: 'armed_group', movement: 'armed_group',
  brigade: 'armed_group', brigades: 'armed_group', militia: 'armed_group', militias: 'armed_group',
  resistance: 'armed_group', battalion: 'armed_group', battalions: 'armed_group', regiment: 'armed_group',
  guard: 'armed_group', guards: 'armed_group', legion: 'armed_group', mujahideen: 'armed_group', jihad: 'armed_group',
  rebels: 'armed_group', fighters: 'armed_group', tigers: 'armed_group', alliance: 'armed_group', coalition: 'armed_group',
  group: 'armed_group', corps: 'armed_group', commandos: 'armed_group', insurgents: 'armed_group', gang: 'armed_group',
  party: 'political_party', congress: 'political_party', league: 'political_party',
  government: 'government', ministry: 'government', council: 'government', junta: 'government', authority: 'government',
  administration: 'government', parliament: 'government', assembly: 'government', cabinet: 'government',
  presidency: 'government',
  organisation: 'international_org', organization: 'international_org', union: 'international_org',
  mission: 'international_org', commission: 'international_org', agency: 'international_org', programme: 'international_org',
  court: 'court', tribunal: 'court', community: 'international_org',
  foundation: 'ngo', watch: 'ngo', committee: 'ngo', initiative: 'ngo', relief: 'ngo', international: 'ngo', institute: 'ngo',
  association: 'civil_society', society: 'civil_society', network: 'civil_society', federation: 'civil_society',
  syndicate: 'civil_society', collective: 'civil_society', platform: 'civil_society',
  news: 'media', times: 'media', post: 'media', tv: 'media', radio: 'media', television: 'media', press: 'media',
  bank: 'international_org', house: 'government', senate: 'government',
  committees: 'armed_group', councils: 'government', units: 'armed_group', groups: 'armed_group', fronts: 'armed_group',
  movements: 'armed_group', organisations: 'ngo', organizations: 'ngo', unions: 'civil_society', associations: 'civil_society',
  networks: 'civil_society',
  // Official bodies of press releases: commands, staffs, services, departments and offices.
  command: 'armed_forces', staff: 'armed_forces', navy: 'armed_forces', division: 'armed_forces', marines: 'armed_forces',
  gendarmerie: 'armed_forces', cell: 'armed_forces', service: 'government', department: 'government', office: 'government',
  directorate: 'government', centre: 'government', center: 'government', secretariat: 'international_org',
  fund: 'international_org', observatory: 'ngo', crescent: 'ngo', cross: 'ngo',
  police: 'police',
  company: 'company', corporation: 'company', corp: 'company', inc: 'company', ltd: 'company', limited: 'company',
  plc: 'company', llc: 'company', holdings: 'company', industries: 'company', enterprises: 'company', petroleum: 'company',
};

const NAME_CONNECTORS = new Set(['of', 'for', 'the', 'and', 'de', 'du', 'la', 'des', 'in']);
const POSSESSIVE_IN_NAMES = new Set(['people', 'women', 'workers', 'peoples', 'children', 'farmers', 'martyrs']);

/** Words in an organisation's name that mark it as non-state even when it names a country ("Sudan Liberation Army"). */
const INSURGENT_WORDS = /\b(?:liberation|revolutionary|resistance|islamic|jihad|rebel|popular|mujahideen|self-defen[cs]e|salvation|patriotic|independence|people's|peoples|democratic forces)\b/i;

/** Nouns after a nationality or country that name its state forces, government or insurgents. */
const STATE_FORCE_NOUNS = [
  'army', 'armed forces', 'forces', 'troops', 'military', 'soldiers', 'navy', 'air force', 'security forces',
  'special forces', 'border guards', 'marines', 'paratroopers', 'defence forces', 'defense forces', 'national army',
  'gendarmerie', 'coast guard', 'military junta',
];
const POLICE_NOUNS = ['police', 'national police', 'federal police', 'police officers', 'riot police', 'police force'];
const GOVERNMENT_NOUNS = [
  'government', 'authorities', 'administration', 'regime', 'junta', 'cabinet', 'foreign ministry', 'ministry of defence',
  'defence ministry', 'defense ministry', 'interior ministry', 'presidency', 'transitional government', 'foreign office',
  'military government', 'federal government', 'foreign affairs ministry', 'ministry of foreign affairs',
  // A country's delegation at talks speaks for its government.
  'delegation',
  'parliament', 'national assembly', 'legislature', 'senate',
];
const INSURGENT_NOUNS = [
  'rebels', 'rebel', 'militants', 'militia', 'militias', 'separatists', 'insurgents', 'jihadists', 'fighters', 'gangs',
  'armed groups', 'paramilitaries', 'guerrillas', 'opposition fighters', 'opposition forces', 'rebel forces',
];

/** Mentions without a name: the structure stage resolves them to a named actor of the same type. */
const GENERIC_MENTIONS: [string, ActorType][] = [
  ['the army', 'armed_forces'], ['the military', 'armed_forces'], ['the armed forces', 'armed_forces'],
  ['government forces', 'armed_forces'], ['government troops', 'armed_forces'], ['the security forces', 'armed_forces'],
  ['security forces', 'armed_forces'], ['state forces', 'armed_forces'], ['regime forces', 'armed_forces'],
  ['the police', 'police'], ['police', 'police'], ['junta forces', 'armed_forces'], ['the troops', 'armed_forces'], ['riot police', 'police'],
  ['the militia', 'armed_group'], ['the militias', 'armed_group'], ['the rebels', 'armed_group'], ['rebel forces', 'armed_group'],
  ['the insurgents', 'armed_group'], ['the jihadists', 'armed_group'], ['the militants', 'armed_group'],
  ['the paramilitaries', 'armed_group'], ['the paramilitary', 'armed_group'], ['paramilitary forces', 'armed_group'],
  ['the paramilitary force', 'armed_group'], ['the gangs', 'armed_group'], ['armed gangs', 'armed_group'],
  ['the group', 'armed_group'], ['the rebel group', 'armed_group'], ['the armed group', 'armed_group'],
  ['the government', 'government'], ['the junta', 'government'], ['the regime', 'government'],
  ['the authorities', 'government'], ['the transitional government', 'government'], ['the military government', 'government'],
  ['the federal government', 'government'], ['the central government', 'government'], ['the interim government', 'government'],
  ['the military junta', 'government'], ['the military regime', 'government'], ['the military authorities', 'government'],
  ['the de facto authorities', 'government'],
  ['the mediators', 'international_org'], ['the peacekeepers', 'international_org'], ['peacekeepers', 'international_org'],
  ['the court', 'court'], ['the tribunal', 'court'], ['the company', 'company'], ['the firm', 'company'],
];

let titleIndex: PhraseIndex<string> | undefined;
let roleIndex: PhraseIndex<string> | undefined;
let stateNounIndex: PhraseIndex<ActorType> | undefined;
let genericIndex: PhraseIndex<ActorType> | undefined;

function titles(): PhraseIndex<string> {
  if (!titleIndex) {
    titleIndex = new PhraseIndex();
    for (const title of TITLES) titleIndex.add(title, title.replace(/\.$/, ''));
  }
  return titleIndex;
}

function roles(): PhraseIndex<string> {
  if (!roleIndex) {
    roleIndex = new PhraseIndex();
    for (const role of ROLE_NOUNS) roleIndex.add(role, role);
  }
  return roleIndex;
}

function stateNouns(): PhraseIndex<ActorType> {
  if (!stateNounIndex) {
    stateNounIndex = new PhraseIndex();
    for (const noun of STATE_FORCE_NOUNS) stateNounIndex.add(noun, 'armed_forces');
    for (const noun of POLICE_NOUNS) stateNounIndex.add(noun, 'police');
    for (const noun of GOVERNMENT_NOUNS) stateNounIndex.add(noun, 'government');
    for (const noun of INSURGENT_NOUNS) stateNounIndex.add(noun, 'armed_group');
  }
  return stateNounIndex;
}

function generics(): PhraseIndex<ActorType> {
  if (!genericIndex) {
    genericIndex = new PhraseIndex();
    for (const [phrase, type] of GENERIC_MENTIONS) genericIndex.add(phrase, type);
  }
  return genericIndex;
}

export interface Context {
  text: string;
  tokens: Token[];
}

export function mention(
  context: Context,
  firstToken: number,
  endToken: number,
  actor_type: ActorType,
  source: FindingSource,
  confidence: number,
  extra: Partial<ActorMention> = {},
): ActorMention {
  const { text, tokens } = context;
  // "Statement of the Ministry of Defence\n\nOn 30 March ...": a name ends with its line.
  let last = firstToken;
  while (last + 1 < endToken && !breaksLine(text, tokens, last + 1)) last++;
  const start = tokens[firstToken].start;
  const end = tokens[last].end;
  return { start, end, text: text.slice(start, end), actor_type, confidence, source, ...extra };
}

function fromKnown(known: KnownActor): Partial<ActorMention> {
  return { canonical: known.canonical, aliases: known.aliases };
}

export function gazetteerCandidates(context: Context): ActorCandidate[] {
  const found: ActorCandidate[] = [];
  const index = knownActors();
  for (let i = 0; i < context.tokens.length; i++) {
    const [match] = index.matchesAt(context.tokens, i);
    if (!match) {
      const variant = fuzzyActorAt(context, i);
      if (variant) found.push(variant);
      continue;
    }
    const actor = mention(context, match.firstToken, match.endToken, match.value.actor_type, 'gazetteer', 0.9, fromKnown(match.value));
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.gazetteer });
  }
  return found;
}

/** A variant spelling of a gazetteer actor ("Muqtada al-Sadr"), less sure than an exact hit. */
function fuzzyActorAt(context: Context, first: number): ActorCandidate | undefined {
  for (const phrase of fuzzyPhrases(context.tokens, first)) {
    const known = fuzzyActors().lookup(phrase.text);
    if (!known) continue;
    const actor = mention(context, first, phrase.endToken, known.value.actor_type, 'gazetteer', 0.7, fromKnown(known.value));
    return { mention: actor, reserve: actor, priority: ACTOR_PRIORITY.variant };
  }
  return undefined;
}

/** How many tokens from `first` form a personal name (0 when none). */
export function nameLength(tokens: Token[], first: number, limit = 5): number {
  let end = first;
  let lastCapital = -1;
  while (end < tokens.length && end - first < limit) {
    const token = tokens[end];
    if (token.capitalised && token.word && !NOT_NAME_WORDS.has(token.text) && (!isKnownCountryWord(tokens, end) || (end === first && countryAsFirstName(tokens, end)))) {
      lastCapital = end;
    } else if (isInitialStop(tokens, end) && lastCapital >= first) {
      // "Scott C. Dayton", "Geir O. Pedersen": the initial's full stop is inside the name.
    } else if (HYPHEN_PARTICLE.test(token.text)) {
      lastCapital = end;
    } else if (!(NAME_PARTICLES.has(token.lower) && lastCapital >= 0 && tokens[end + 1]?.capitalised)) {
      break;
    }
    end++;
  }
  return lastCapital < first ? 0 : lastCapital - first + 1;
}

/** A full stop after a one-letter initial, with the name going on after it. */
function isInitialStop(tokens: Token[], index: number): boolean {
  const initial = tokens[index - 1];
  return tokens[index]?.text === '.' && initial !== undefined && /^\p{Lu}$/u.test(initial.text) && tokens[index + 1]?.capitalised === true && initial.end === tokens[index].start;
}

/**
 * "Defence Minister Israel Katz": a country's name opening a two-word name, the surname a plain capitalised word and
 * nothing capitalised after it, is a first name ("Special Envoy Sudan Tom Perriello" is no such pair).
 */
function countryAsFirstName(tokens: Token[], index: number): boolean {
  const [surname, after] = [tokens[index + 1], tokens[index + 2]];
  return surname !== undefined && surname.capitalised && surname.word && !NOT_NAME_WORDS.has(surname.text) && !isKnownCountryWord(tokens, index + 1) &&
    knownPlaces().matchesAt(tokens, index + 1).length === 0 && tokens[index].end + 1 === surname.start && !(after?.capitalised && after.word);
}

function isKnownCountryWord(tokens: Token[], index: number): boolean {
  const [place] = knownPlaces().matchesAt(tokens, index);
  if (place && place.value.location_type === 'country') return true;
  return demonyms().matchesAt(tokens, index).length > 0;
}

/** A word of three letters or more written in capitals, as headings write them ("GENERAL"), unlike acronyms ("UN") and ranks ("Gen."). */
const HEADING_WORD = /^\p{Lu}{3,}$/u;

/** "General Abdel Fattah al-Burhan", "RSF commander Abdel Rahim Dagalo", "UN envoy Ramtane Lamamra". */
export function titledCandidates(context: Context): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const match = titles().matchesAt(tokens, i)[0] ?? roles().matchesAt(tokens, i)[0];
    if (!match) continue;
    let titleEnd = match.endToken;
    // "Air Chief Marshal Sir John Doe": ranks and honorifics chain.
    for (let more = titles().matchesAt(tokens, titleEnd)[0]; more; more = titles().matchesAt(tokens, titleEnd)[0]) titleEnd = more.endToken;
    // "The Chief of the Defence Staff, Admiral Sir Tony Radakin, said": the title's holder in apposition.
    let nameStart = titleEnd;
    if (tokens[titleEnd]?.text === ',' && tokens[i - 1]?.lower === 'the') {
      nameStart = titleEnd + 1;
      for (let more = titles().matchesAt(tokens, nameStart)[0]; more; more = titles().matchesAt(tokens, nameStart)[0]) nameStart = more.endToken;
    }
    const length = nameLength(tokens, nameStart);
    if (length === 0) continue;
    const nameEnd = nameStart + length;
    // "the General Staff", "General Command": a rank before an organisation's head word names the body, not a person.
    const body = ORGANISATION_HEADS[tokens[nameEnd - 1].lower];
    if (body) {
      if (nameStart !== titleEnd) continue;
      const organisation = mention(context, i, nameEnd, refineOrganisationType(context.text.slice(tokens[i].start, tokens[nameEnd - 1].end), body), 'pattern', 0.75);
      found.push({ mention: organisation, reserve: organisation, priority: ACTOR_PRIORITY.organisation });
      i = nameEnd - 1;
      continue;
    }
    const nameText = context.text.slice(tokens[nameStart].start, tokens[nameEnd - 1].end);
    const [known] = knownActors().matchesAt(tokens, nameStart, nameEnd).filter((m) => m.endToken === nameEnd);
    const titleText = context.text.slice(tokens[i].start, tokens[titleEnd - 1].end);
    // "SYRIAN DEMOCRATIC FORCES — GENERAL COMMAND Statement on ...": a rank in capitals is a heading's word, no one's title.
    if (HEADING_WORD.test(titleText)) continue;
    const actor = mention(context, nameStart, nameEnd, 'individual', 'title', 0.85, {
      title: titleText,
      ...(known && known.value.actor_type === 'individual' ? fromKnown(known.value) : {}),
    });
    if (nameText !== actor.text) continue;
    found.push({ mention: actor, reserve: { start: tokens[i].start, end: actor.end }, priority: ACTOR_PRIORITY.titled });
    i = nameEnd - 1;
  }
  return found;
}

/** "Sudanese army", "Israel's military", "the government of Mali", "Malian authorities", "Somali militants". */
export function stateCandidates(context: Context): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const country = countryAt(tokens, i);
    if (country) {
      let next = country.endToken;
      if (tokens[next]?.lower === "'s" && country.isCountryName) next++;
      const [noun] = stateNouns().matchesAt(tokens, next);
      if (noun) {
        found.push(stateCandidate(context, i, noun.endToken, noun.value, country.code));
        continue;
      }
    }
    // "the government of Mali", "the Government of Sudan"
    if (tokens[i].lower === 'government' && tokens[i + 1]?.lower === 'of') {
      const after = countryAt(tokens, i + 2) ?? (tokens[i + 2]?.lower === 'the' ? countryAt(tokens, i + 3) : undefined);
      if (after?.isCountryName) found.push(stateCandidate(context, i, after.endToken, 'government', after.code));
    }
  }
  return found;
}

/** The country a demonym or a country name at `index` names. */
export function countryAt(tokens: Token[], index: number): { code: string; endToken: number; isCountryName: boolean } | undefined {
  const [demonym] = demonyms().matchesAt(tokens, index);
  if (demonym) return { code: demonym.value, endToken: demonym.endToken, isCountryName: false };
  const [place] = knownPlaces().matchesAt(tokens, index);
  if (place && place.value.location_type === 'country' && place.value.country_code) {
    return { code: place.value.country_code, endToken: place.endToken, isCountryName: true };
  }
  return undefined;
}

function stateCandidate(context: Context, first: number, end: number, type: ActorType, code: string): ActorCandidate {
  let extra: Partial<ActorMention> = {};
  if (type === 'armed_forces') {
    const forces = countryForces(code);
    const isGendarmerie = /gendarmerie/i.test(context.text.slice(context.tokens[first].start, context.tokens[end - 1].end));
    extra = forces && !isGendarmerie ? { canonical: forces.canonical, aliases: forces.aliases } : { canonical: `${countryName(code)} ${isGendarmerie ? 'police' : 'armed forces'}` };
  } else if (type === 'police') {
    extra = { canonical: `${countryName(code)} police` };
  } else if (type === 'government') {
    extra = { canonical: `Government of ${countryName(code)}` };
  }
  const actor = mention(context, first, end, type, 'pattern', type === 'armed_group' ? 0.6 : 0.8, extra);
  return { mention: actor, reserve: actor, priority: ACTOR_PRIORITY.state };
}

/** Capitalised names that end in an organisation word: "Ngoro Liberation Front", "Front for the Liberation of Azawad". */
export function organisationCandidates(context: Context, sentenceStarts: Set<number>): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  for (let head = 0; head < tokens.length; head++) {
    const headType = ORGANISATION_HEADS[tokens[head].lower];
    if (!headType || !tokens[head].capitalised) continue;
    let first = head;
    // "Government of Rwanda\nMinistry of Foreign Affairs": the ministry's name starts on its own line.
    while (first > 0 && isNamePart(tokens, first - 1) && !breaksLine(context.text, tokens, first)) first--;
    if (tokens[first]?.lower === "'s") first++;
    while (first < head && NOT_NAME_WORDS.has(tokens[first].text) && sentenceStarts.has(first)) first++;
    let end = head + 1;
    // "55th Brigade of the Iraqi Army": a numbered unit's name ends at its unit word; the rest says whose it is (units.ts).
    const numberedUnit = isNumberedUnit(tokens, first, head);
    // "Front for the Liberation of Azawad": connectors followed by capitalised words
    for (let probe = end; !numberedUnit && probe < tokens.length && probe - first < 10; ) {
      let connector = probe;
      while ((NAME_CONNECTORS.has(tokens[connector]?.lower ?? '') || namedByItsEnemy(tokens, head, connector)) && connector - probe < 2) connector++;
      // "Front for Justice and Development" continues a name; "Workers and the Valdran Party" starts another.
      if (tokens[probe]?.lower === 'and' && (probe === head + 1 || tokens[probe + 1]?.lower === 'the')) break;
      // "UN Support Mission in Libya": only bodies based somewhere take "in".
      if (tokens[probe]?.lower === 'in' && !/^(?:mission|office|force|court|bank)$/.test(tokens[head].lower)) break;
      if (connector === probe || !tokens[connector]?.capitalised || !tokens[connector].word || breaksLine(context.text, tokens, connector)) break;
      let capitals = connector;
      while (tokens[capitals]?.capitalised && tokens[capitals].word && !breaksLine(context.text, tokens, capitals)) capitals++;
      end = capitals;
      probe = capitals;
    }
    if (end - first < 2) continue;
    const name = context.text.slice(tokens[first].start, tokens[end - 1].end);
    const stateNamed = isKnownCountryWord(tokens, first) && !INSURGENT_WORDS.test(name);
    const type = refineOrganisationType(name, headType === 'armed_group' && stateNamed ? 'armed_forces' : headType);
    const actor = mention(context, first, end, type, 'pattern', 0.75);
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.organisation });
    head = end - 1;
  }
  return found;
}

/** "Global Coalition against Daesh": a coalition's name may say whom it stands against. */
function namedByItsEnemy(tokens: Token[], head: number, connector: number): boolean {
  return connector === head + 1 && tokens[connector].lower === 'against' && /^(?:coalition|alliance)$/.test(tokens[head].lower);
}

/** Words that make a force a state's ("Royal Air Force", "Korinthian Defence Forces", "Northern Shield Task Force"). */
const STATE_FORCE_WORDS = /\b(?:royal|air\s+force|navy|naval|aerospace|coast\s+guard|national\s+guard|task\s+force|marine\s+corps|armed\s+forces|army\s+corps)\b/i;

/** What the rest of the name says about the kind of body ("Syrian Network for Human Rights", "Indigenous Council"). */
export function refineOrganisationType(name: string, byHead: ActorType): ActorType {
  if (byHead === 'armed_group' && STATE_FORCE_WORDS.test(name) && !INSURGENT_WORDS.test(name)) return 'armed_forces';
  if (/\b(?:human\s+rights|humanitarian|relief|watch|aid)\b/i.test(name) && byHead !== 'government') return 'ngo';
  if (/\b(?:indigenous|elders|women|youth|civil|community|traders|students|farmers|breeders|teachers|workers|victims|families|lawyers|journalists)\b/i.test(name)) return 'civil_society';
  if (/\bcentral\s+bank\b/i.test(name)) return 'government';
  if (/^(?:UN|U\.N\.|United Nations)\b/.test(name)) return 'international_org';
  return byHead;
}

function isNamePart(tokens: Token[], index: number): boolean {
  const token = tokens[index];
  // "Tigray People's Liberation Front", but not "Khalifa Haftar's Libyan National Army"
  if (token.lower === "'s") return index > 0 && POSSESSIVE_IN_NAMES.has(tokens[index - 1].lower) && tokens[index - 1].end === token.start;
  return token.word && (token.capitalised || /^\p{N}/u.test(token.text)) && !NOT_NAME_WORDS.has(token.text);
}

/** People compromise's lexicon and patterns recognise ("Volodymyr Zelensky", "Mbarga"). */
export function personCandidates(context: Context): ActorCandidate[] {
  const found: ActorCandidate[] = [];
  const people = nlp(context.text).people().json({ offset: true }) as { text: string; offset: { start: number; length: number } }[];
  for (const person of people) {
    let start = person.offset.start;
    let end = start + person.offset.length;
    let text = context.text.slice(start, end);
    const trimmed = text.replace(/(?:['’]s|[,.;:!?'"’”)]+)+$/u, '');
    end -= text.length - trimmed.length;
    text = trimmed;
    const leading = /^(?:the\s+)/i.exec(text)?.[0].length ?? 0;
    start += leading;
    text = text.slice(leading);
    const words = text.split(/\s+/);
    if (!/^\p{Lu}/u.test(text) || words.every((word) => NOT_NAME_WORDS.has(word) || TITLES.includes(word))) continue;
    // A name ends on a capitalised word ("KIA spokesman" is a role, not a person).
    if (!/^\p{Lu}/u.test(words[words.length - 1])) continue;
    if (/^['’]s\s+\p{Lu}/u.test(context.text.slice(end, end + 4))) continue;
    // "SOMALIA — Al-Shabaab": a dateline's dash separates the place from the sentence, never two parts of a name.
    if (/\s[—–-]\s/u.test(text)) continue;
    if (/\b(?:in|at|near|outside|of|town|village|city|to)\s+$/i.test(context.text.slice(Math.max(0, start - 12), start))) continue;
    // "Near Abu Kamal, one strike engaged": a sentence-initial place preposition is no first name.
    if (/^(?:near|in|at|outside|around|from|across|inside|along|north|south|east|west)\s/i.test(text)) continue;
    const actor: ActorMention = { start, end, text, actor_type: 'individual', confidence: 0.6, source: 'pattern' };
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.person });
  }
  return found;
}

/** Lower-case nouns after a capitalised name that make the name an armed group ("Mai-Mai militia", "Gran Grif gang"). */
const ARMED_GROUP_BEARERS = new Set(['militia', 'militias', 'militiamen', 'gang', 'gangs', 'rebels', 'rebel', 'fighters', 'insurgents', 'guerrillas', 'jihadists']);
/** Nouns after a capitalised name that make it an identity group; "clan" and "tribe" stay outside the name. */
const COMMUNITY_BEARERS: Record<string, boolean> = { clan: false, clans: false, tribe: false, tribes: false, people: true, community: true, communities: true, herders: true, villagers: true };
/** "UN migration agency", "U.N. human rights office": a UN body described rather than named. */
const UN_BODY_NOUNS = new Set(['agency', 'office', 'mission', 'envoy', 'body', 'force', 'team', 'panel', 'experts', 'investigators', 'peacekeepers', 'chief', 'commission', 'committee', 'council']);

export function describedCandidates(context: Context, sentenceStarts: Set<number>): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  const push = (first: number, end: number, type: ActorType, confidence: number, extra: Partial<ActorMention> = {}) => {
    const actor = mention(context, first, end, type, 'pattern', confidence, extra);
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.organisation });
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (/^(?:UN|U\.N)$/.test(token.text) || (token.text === 'United' && tokens[i + 1]?.text === 'Nations')) {
      let k = token.text === 'United' ? i + 2 : i + 1;
      if (tokens[k]?.text === '.') k++;
      for (let n = k; n < Math.min(k + 4, tokens.length); n++) {
        if (tokens[n].capitalised || !tokens[n].word) break;
        if (UN_BODY_NOUNS.has(tokens[n].lower)) {
          push(i, n + 1, 'international_org', 0.75, { canonical: context.text.slice(tokens[i].start, tokens[n].end) });
          break;
        }
      }
      continue;
    }
    if (!token.capitalised || !token.word || (sentenceStarts.has(i) && NOT_NAME_WORDS.has(token.text))) continue;
    let end = i;
    while (end < tokens.length && end - i < 4 && isNamePart(tokens, end) && tokens[end].lower !== "'s") end++;
    if (end === i || isKnownCountryWord(tokens, i)) continue;
    const bearer = tokens[end]?.lower ?? '';
    if (ARMED_GROUP_BEARERS.has(bearer) && !tokens[end].capitalised) push(i, end, 'armed_group', 0.65);
    else if (bearer in COMMUNITY_BEARERS && !tokens[end].capitalised) push(i, COMMUNITY_BEARERS[bearer] ? end + 1 : end, 'community', 0.6);
    i = end - 1;
  }
  // "Taliban administration", "Houthi authorities": an armed group's government.
  for (const match of knownActorsFollowedByGovernment(context)) found.push(match);
  return found;
}

function knownActorsFollowedByGovernment(context: Context): ActorCandidate[] {
  const found: ActorCandidate[] = [];
  for (let i = 0; i < context.tokens.length; i++) {
    const [known] = knownActors().matchesAt(context.tokens, i);
    if (!known || known.value.actor_type !== 'armed_group') continue;
    const next = context.tokens[known.endToken]?.lower ?? '';
    if (!['government', 'administration', 'authorities', 'regime', 'cabinet'].includes(next)) continue;
    const actor = mention(context, i, known.endToken + 1, 'government', 'pattern', 0.75, { canonical: `${known.value.canonical} government` });
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.state });
  }
  return found;
}

export function genericCandidates(context: Context): ActorCandidate[] {
  const found: ActorCandidate[] = [];
  for (const match of generics().scan(context.tokens)) {
    const actor = mention(context, match.firstToken, match.endToken, match.value, 'pattern', 0.5);
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.generic });
  }
  return found;
}

let genericPhrases: Set<string> | undefined;

/** Whether a mention is one of the descriptions without a name ("the army", "the police"). */
export function isGenericMention(text: string): boolean {
  genericPhrases ??= new Set(GENERIC_MENTIONS.map(([phrase]) => phrase));
  return genericPhrases.has(text.toLowerCase().replace(/\s+/g, ' '));
}
