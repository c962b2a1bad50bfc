import type { ActorType } from '../../ontology/index.ts';
import type { ActorMention, LocationMention, TextSpan } from '../types.ts';
import { normaliseForIdentity } from '../../store/ids.ts';
import { isGenericMention, type Context } from './actors.ts';
import { isOrganisation, quotedOrganisation, quotations } from './first-person.ts';
import { DEMONYMS } from './gazetteer/places.ts';
import { ROLE_LOOKBACK_SENTENCES } from './names.ts';
import { HOSTILE_ACT_WORDS } from './relations.ts';
import { FIRST_PERSON_PLURAL, spanContains, spansOverlap, tokenIndexAt, type Sentence, type Token } from './text.ts';

/**
 * Within-document coreference for actors: pronouns ("he said", "its fighters", "they
 * withdrew"), nominal mentions ("the ministry", "the group", "the movement") and collective
 * references ("the Coalition", "coalition forces") stand for the actor named before them when
 * exactly one candidate fits, and for nobody when two do. A candidate fits by agreement (a
 * person for "he", an organisation for "it", a group for "they"), by the noun's type ("the
 * ministry" is a government body, and one whose name holds "Ministry" is preferred), and by
 * recency: the latest sentence within PRONOUN_ or NOMINAL_LOOKBACK_SENTENCES that names a fitting actor
 * decides, its subject preferred when it names several. "it" and "they" take only subjects
 * from earlier sentences ("Reporters asked the ministry. It said" is too loose to follow).
 * Offices ("the Foreign Secretary", "the minister") are names.ts's roleReferences.
 */

/**
 * Sentences before a pronoun searched for its antecedent. Official statements name the actor
 * again at least once a paragraph; three sentences back keeps a pronoun from reaching past one.
 */
export const PRONOUN_LOOKBACK_SENTENCES = 3;
/** The same for a nominal mention, which says more of what it stands for: as far as a title looks. */
export const NOMINAL_LOOKBACK_SENTENCES = ROLE_LOOKBACK_SENTENCES;

type Fits = (actor: ActorMention) => boolean;

const isPerson: Fits = (actor) => actor.actor_type === 'individual';
const isGroup: Fits = (actor) => actor.actor_type !== 'individual';

const PRONOUNS: Record<string, Fits> = {
  he: isPerson, him: isPerson, his: isPerson, himself: isPerson, she: isPerson, her: isPerson, hers: isPerson, herself: isPerson,
  it: isOrganisation, its: isOrganisation, itself: isOrganisation,
  they: isGroup, them: isGroup, their: isGroup, themselves: isGroup,
};
/** Pronouns that say their antecedent's gender: a person another pronoun or a title gave the other one does not fit. */
const PRONOUN_GENDER: Record<string, Gender> = {
  he: 'male', him: 'male', his: 'male', himself: 'male', she: 'female', her: 'female', hers: 'female', herself: 'female',
};
const TITLE_GENDER: Record<string, Gender> = { mr: 'male', sir: 'male', mrs: 'female', ms: 'female', miss: 'female', madam: 'female', dame: 'female' };
type Gender = 'male' | 'female';
/** Object pronouns: never the subject of their own clause ("Velt met him" is not Velt). */
const OBJECT_PRONOUNS = new Set(['him', 'them']);
/** Pronouns that also point at things and places, not only at actors: they follow subjects only. */
const THING_PRONOUNS = new Set(['it', 'its', 'itself', 'they', 'them', 'their', 'themselves']);

const ofTypes = (...types: ActorType[]): Fits => (actor) => types.includes(actor.actor_type);

/** Head nouns of nominal mentions, with the actor types they can stand for. */
const NOMINAL_HEADS: Record<string, Fits> = {
  ministry: ofTypes('government'),
  department: ofTypes('government'),
  movement: ofTypes('armed_group', 'political_party'),
  group: ofTypes('armed_group', 'political_party', 'ngo', 'civil_society'),
  militia: ofTypes('armed_group'),
  militias: ofTypes('armed_group'),
  organisation: ofTypes('armed_group', 'political_party', 'international_org', 'ngo', 'civil_society'),
  organization: ofTypes('armed_group', 'political_party', 'international_org', 'ngo', 'civil_society'),
  agency: ofTypes('international_org', 'government', 'media'),
  mission: ofTypes('international_org'),
  coalition: ofTypes('armed_forces', 'armed_group', 'international_org', 'political_party', 'government'),
  alliance: ofTypes('armed_forces', 'armed_group', 'international_org', 'political_party'),
  party: ofTypes('political_party'),
  council: ofTypes('government', 'international_org', 'civil_society'),
  commission: ofTypes('international_org', 'government', 'ngo', 'civil_society'),
  committee: ofTypes('international_org', 'government', 'ngo', 'civil_society'),
  brigade: ofTypes('armed_forces', 'armed_group'),
  battalion: ofTypes('armed_forces', 'armed_group'),
  regiment: ofTypes('armed_forces', 'armed_group'),
  division: ofTypes('armed_forces', 'armed_group'),
  navy: ofTypes('armed_forces'),
  command: ofTypes('armed_forces'),
  guerrillas: ofTypes('armed_group'),
  charity: ofTypes('ngo'),
  bloc: ofTypes('international_org', 'political_party'),
  administration: ofTypes('government'),
  faction: ofTypes('armed_group', 'political_party'),
  // "The force" after a peacekeeping mission or a state's task force, as after an armed group.
  force: ofTypes('armed_group', 'armed_forces', 'international_org'),
  // An occupying force named by what it does (issue 25, the implicit-opponent ruling: a definite nominal that refers to one party).
  occupiers: ofTypes('armed_group', 'armed_forces'),
};
/** Heads that stand only for an actor whose own name holds them ("the administration" after "Tigray Interim Administration", not any government). */
const HEADS_OF_NAMES = new Set(['administration']);
/** Words that may stand between "the" and a nominal head ("the armed group", "the defence ministry"). */
const NOMINAL_MODIFIERS = new Set([
  'armed', 'rebel', 'militant', 'jihadist', 'insurgent', 'extremist', 'terrorist', 'paramilitary', 'separatist', 'political',
  'defence', 'defense', 'foreign', 'interior', 'information', 'military', 'ruling', 'opposition', 'international', 'humanitarian',
  'guerrilla', 'guerilla', 'medical', 'aid',
]);
/** What an actor issues and a text then quotes as speaking ("The statement accused ...", '"...," the report said'). */
const RECORD_NOUNS = new Set(['statement', 'communique', 'communiqué', 'report', 'declaration', 'letter', 'bulletin', 'release']);
/** Words between "the" and a record noun ("the joint statement", "the press release"). */
const RECORD_MODIFIERS = new Set(['joint', 'final', 'written', 'official', 'press', 'short', 'brief', 'latest', 'new', 'annual']);
const isIssuer: Fits = (actor) => actor.actor_type !== 'community';

/** Collective nouns a document writes capitalised for the coalition it names ("the Coalition", "Coalition forces"). */
const COLLECTIVES = new Set(['coalition', 'alliance']);
/** Words after a collective noun that make it the coalition's people or means ("Coalition forces", "coalition partners"). */
const COLLECTIVE_BEARERS = new Set(['forces', 'partners', 'troops', 'aircraft', 'members', 'officials', 'strikes', 'strike', 'jets', 'warplanes', 'nations', 'countries', 'allies']);

/** Descriptions the actor patterns already find ("the army", "the militia") that this module decides too, by their last word. */
const DESCRIPTION_FITS: Record<string, Fits> = {
  army: ofTypes('armed_forces'), military: ofTypes('armed_forces'), forces: ofTypes('armed_forces'), troops: ofTypes('armed_forces'),
  rebels: ofTypes('armed_group'), insurgents: ofTypes('armed_group'), jihadists: ofTypes('armed_group'), militants: ofTypes('armed_group'),
  paramilitaries: ofTypes('armed_group'), paramilitary: ofTypes('armed_group'), gangs: ofTypes('armed_group'),
  government: ofTypes('government'), authorities: ofTypes('government'),
  ...NOMINAL_HEADS,
};

/** Plural nouns for people who are no actor: "they" after them is theirs ("Residents said they fled"). */
const PEOPLE_NOUNS = new Set([
  'residents', 'civilians', 'people', 'witnesses', 'villagers', 'families', 'children', 'women', 'men', 'protesters', 'demonstrators',
  'refugees', 'voters', 'students', 'journalists', 'reporters', 'analysts', 'diplomats', 'officials', 'sources', 'doctors', 'workers',
  'patients', 'detainees', 'prisoners', 'hostages', 'victims', 'survivors', 'farmers', 'herders', 'traders', 'displaced', 'observers',
]);
/** "it seems", "it takes time": verbs after which "it" refers to nothing. */
const EXPLETIVE_FOLLOWERS = new Set(['seems', 'seemed', 'appears', 'appeared', 'means', 'meant', 'takes', 'took']);
/** Copulas: "it is unclear", "it remained to be seen" refer to nothing, "it remained committed", "it is ready" to an actor. */
const COPULAS = new Set(['is', 'was', "'s", 'remains', 'remained', 'becomes', 'became']);
/** What follows a copula when "it" is a placeholder for a clause to come ("it is unclear whether", "it was reported that"). */
const EXPLETIVE_PREDICATE = /^(?:not|also|now|still|too|very|highly|equally|increasingly)?\s*(?:unclear|clear|possible|impossible|likely|unlikely|difficult|hard|easy|important|necessary|essential|vital|crucial|urgent|time|true|false|known|unknown|reported|said|believed|thought|expected|feared|understood|estimated|hoped|alleged|claimed|announced|confirmed|evident|obvious|apparent|uncertain|early|late|a\s|an\s|the\s|to\s+be\s+seen|that\b|whether\b|why\b|how\b)/;
/** Tokens before an "it" that make it a subject (a clause opener) rather than an object ("about it"). */
const SUBJECT_OPENERS = new Set([',', ';', ':', '"', '“', 'that', 'and', 'but', 'said', 'says', 'as', 'because', 'when', 'while', 'after', 'before', 'if', 'since', 'although', 'where', 'which', 'until', 'once', 'so']);
/** Finite verbs and auxiliaries: a clause's subject stands before the first one. */
const FINITE_VERB = /^(?:\p{Ll}+ed|said|says|told|tells|met|meets|is|was|are|were|has|had|have|will|would|could|can|may|might|must|should|shall|did|does|do|took|gave|sent|struck|fought|held|made|led|began|won|lost|left|came|went|saw|spoke|kept|brought|sought|withdrew|stood|ran|set|put|hit|shot|seized|killed|vowed|warned|urged)$/u;
/** Past participles used as adjectives before a name ("armed groups", "displaced families"): no verb of the clause. */
const ADJECTIVAL_PARTICIPLES = new Set(['armed', 'united', 'displaced', 'detained', 'alleged', 'so-called', 'based', 'backed', 'led', 'named', 'unnamed', 'unidentified', 'suspected', 'combined', 'allied', 'organised', 'organized']);
const PREPOSITIONS = new Set(['of', 'from', 'with', 'by', 'to', 'for', 'against', 'in', 'at', 'near', 'on', 'about', 'between', 'among', 'toward', 'towards', 'into', 'over', 'under']);

interface Expression extends TextSpan {
  kind: 'pronoun' | 'nominal';
  fits: Fits;
  /** A word the antecedent's name is preferred to hold ("ministry" for "the ministry"). */
  head?: string;
  /** Follows subjects only when they are in an earlier sentence. */
  subjectsOnly: boolean;
  /**
   * Resolved only to an actor whose name holds the head ("the government" after "the Government of
   * National Unity"); otherwise left to the structure stage, which knows whose government it is.
   */
  needsHead?: boolean;
  /** An object pronoun, or a description that is a hostile act's object: its own sentence's subject cannot be what it stands for. */
  object?: boolean;
  /** Looks back through the whole document (a coalition is named once, at the top). */
  wholeDocument: boolean;
  /** A description the actor patterns found, decided here instead of becoming a new mention. */
  existing?: ActorMention;
  /** The quotation a first-person plural pronoun stands in: it is the organisation speaking there. */
  quotation?: TextSpan;
}

/**
 * Pronouns, nominal mentions and collective references resolved to the actors before them.
 * Returns the new mentions; descriptions already among `actors` ("the group") are decided in
 * place: given the actor they stand for, or marked as standing for nobody.
 */
export function resolveReferences(
  context: Context, sentences: readonly Sentence[], actors: ActorMention[], locations: readonly LocationMention[], taken: readonly TextSpan[],
): ActorMention[] {
  const { tokens } = context;
  const quoted = quotations(context.text);
  const expressions = findExpressions(context, actors, taken, quoted);
  if (expressions.length === 0) return [];
  const resolved: ActorMention[] = [];
  const named = actors.filter((actor) => !isDescription(actor));
  /** Each sentence's subjects by segment, as of how many references were resolved when they were read. */
  const subjects = new Map<string, { resolvedCount: number; segments: ActorMention[][] }>();
  const subjectsIn = (sentenceIndex: number, reportedClauses: boolean): ActorMention[][] => {
    const key = `${sentenceIndex}:${reportedClauses}`;
    let known = subjects.get(key);
    if (!known || known.resolvedCount !== resolved.length) {
      known = { resolvedCount: resolved.length, segments: subjectsOf(context.text, tokens, sentences[sentenceIndex], [...named, ...resolved], reportedClauses) };
      subjects.set(key, known);
    }
    return known.segments;
  };
  const attributed = (sentenceIndex: number) => TRAILING_ATTRIBUTION.test(context.text.slice(sentences[sentenceIndex].start, sentences[sentenceIndex].end));
  const found: ActorMention[] = [];
  /** Each person's gender as far as the document has said it (a title, a pronoun resolved to them). */
  const genders = new Map<string, Gender>();
  const identity = (actor: ActorMention) => normaliseForIdentity(actor.canonical ?? actor.text);
  for (const actor of named) {
    const gender = actor.title ? TITLE_GENDER[actor.title.toLowerCase().replace(/\.$/, '')] : undefined;
    if (gender && actor.actor_type === 'individual') genders.set(identity(actor), gender);
  }
  // '"We will strike them," he said': "we" is decided last, once the pronoun naming its quotation's speaker is.
  const inOrder = [...expressions.filter((expression) => !expression.quotation), ...expressions.filter((expression) => expression.quotation)];
  /** Keeps `resolved` in text order, which the windows' binary search needs. */
  const addResolved = (mention: ActorMention) => resolved.splice(tokenIndexAt(resolved, mention.start), 0, mention);
  for (const expression of inOrder) {
    const sentenceIndex = Math.max(0, tokenIndexAt(sentences, expression.start + 1) - 1);
    // Both lists are in text order: a window is found by binary search, so long documents cost no scan per reference.
    const from = (start: number) => (list: readonly ActorMention[]) => list.slice(tokenIndexAt(list, start), tokenIndexAt(list, expression.start));
    if (expression.kind === 'pronoun' && THING_PRONOUNS.has(context.text.slice(expression.start, expression.end).toLowerCase())) {
      const sentence = sentences[sentenceIndex];
      const sentenceActors = [named, resolved].flatMap(from(sentence.start));
      if (thingBefore(context, sentence, expression, sentenceActors, locations)) continue;
    }
    const lookback = expression.kind === 'pronoun' ? PRONOUN_LOOKBACK_SENTENCES : NOMINAL_LOOKBACK_SENTENCES;
    const earliest = expression.wholeDocument ? 0 : sentences[Math.max(0, sentenceIndex - lookback)].start;
    const within = from(earliest);
    const gender = expression.kind === 'pronoun' ? PRONOUN_GENDER[context.text.slice(expression.start, expression.end).toLowerCase()] : undefined;
    const agrees = (actor: ActorMention) => !gender || (genders.get(identity(actor)) ?? gender) === gender;
    // '"We call on ASEAN ...," the statement said': whom a quotation names does not speak it.
    const quotedJustBefore = quoted.find((span) => span.end <= expression.start && span.end >= sentences[sentenceIndex].start && !spanContains(span, expression));
    const before = [...within(named), ...within(resolved)]
      .filter((actor) => actor.end <= expression.start && !(quotedJustBefore && spanContains(quotedJustBefore, actor)))
      .sort((a, b) => a.start - b.start);
    let pool = before.filter((actor) => expression.fits(actor) && agrees(actor));
    // "the army" after "the Libyan National Army", no state army in reach: the organisation its head names.
    if (pool.length === 0 && expression.head) pool = before.filter((actor) => isOrganisation(actor) && nameWords(actor).includes(expression.head!));
    // A description whose only fitting actors are out of reach stands for nobody; with none at all, the structure stage looks after it.
    const outOfReach = () => named.slice(0, tokenIndexAt(named, earliest)).some(expression.fits);
    const voice = expression.quotation && quotedOrganisation(context.text, expression.quotation, [...named, ...resolved]);
    const chosen = voice || (chooseAntecedent(expression, pool, sentences, sentenceIndex, subjectsIn, attributed) ?? (expression.existing && !expression.needsHead && outOfReach() ? AMBIGUOUS : undefined));
    // "AFRICOM's assessment ... retook the town from the group": a noun fitting only by an acronym's guessed type stands for nobody.
    const antecedent = chosen && chosen !== AMBIGUOUS && fitsByGuess(expression, chosen) ? AMBIGUOUS : chosen;
    if (antecedent === undefined) continue;
    const target = antecedent === AMBIGUOUS ? undefined : antecedent;
    const decided: Partial<ActorMention> = {
      reference: expression.kind,
      ...(target ? {
        antecedent: { start: target.start, end: target.end }, canonical: target.canonical ?? target.text,
        actor_type: target.actor_type, ...(target.aliases ? { aliases: target.aliases } : {}), ...(target.type_guessed ? { type_guessed: true } : {}),
      } : {}),
    };
    if (target && gender) genders.set(identity(target), gender);
    if (expression.existing) {
      Object.assign(expression.existing, decided);
      if (target) addResolved(expression.existing);
      continue;
    }
    if (!target) continue;
    const mention: ActorMention = {
      start: expression.start, end: expression.end, text: context.text.slice(expression.start, expression.end),
      actor_type: target.actor_type, confidence: Math.min(target.confidence, expression.kind === 'pronoun' ? 0.6 : 0.65), source: 'pattern', ...decided,
    };
    found.push(mention);
    addResolved(mention);
  }
  return found;
}

const AMBIGUOUS = Symbol('ambiguous');

/**
 * The one actor that fits: the latest sentence naming a fitting actor decides; when it names
 * several, their subjects do: in an earlier sentence its first segment's subject ("Lammy met
 * Rubio. He said" is Lammy), in the reference's own sentence the nearest segment's subject
 * ("The ministry said Iran must stop its attacks" is Iran). AMBIGUOUS when two distinct
 * actors fit there ("Lammy and Rubio met. He said"); undefined when none does.
 */
function chooseAntecedent(
  expression: Expression, pool: ActorMention[], sentences: readonly Sentence[], sentenceIndex: number,
  subjectsIn: (sentenceIndex: number, reportedClauses: boolean) => ActorMention[][], attributed: (sentenceIndex: number) => boolean,
): ActorMention | typeof AMBIGUOUS | undefined {
  let candidates = pool;
  if (expression.head) {
    // A government must be named so in the text ("Government of National Unity"), not only by the canonical name a delegation got.
    const headed = expression.needsHead
      ? candidates.filter((actor) => !actor.reference && wordsOf(actor.text).includes(expression.head!))
      : candidates.filter((actor) => nameHolds(actor, expression.head!));
    if (headed.length > 0 || expression.needsHead) candidates = headed;
  }
  const sentenceOf = (actor: ActorMention) => Math.max(0, tokenIndexAt(sentences, actor.start + 1) - 1);
  // A reported clause's subject is one for a pronoun in its own sentence ("The ministry said Iran must stop its attacks"), not after it.
  const segmentsOf = (index: number) => subjectsIn(index, index === sentenceIndex);
  const isSubject = (actor: ActorMention) => segmentsOf(sentenceOf(actor)).some((segment) => segment.includes(actor));
  if (expression.subjectsOnly) candidates = candidates.filter((actor) => sentenceOf(actor) === sentenceIndex || isSubject(actor));
  if (expression.object) candidates = candidates.filter((actor) => sentenceOf(actor) !== sentenceIndex || !isSubject(actor));
  if (candidates.length === 0) return undefined;
  const latest = sentenceOf(candidates[candidates.length - 1]);
  const recent = candidates.filter((actor) => sentenceOf(actor) === latest);
  const distinct = latestByIdentity(recent);
  if (distinct.length === 1) return distinct[0];
  const segments = segmentsOf(latest).map((segment) => segment.filter((actor) => recent.includes(actor))).filter((segment) => segment.length > 0);
  // "Fighters of the SDF and Coalition advisers raided ..., the SDF said. The group said": an earlier sentence's source speaks on.
  const deciding = latest === sentenceIndex || attributed(latest) ? segments[segments.length - 1] : segments[0];
  const subjects = latestByIdentity(deciding ?? []);
  return subjects.length === 1 ? subjects[0] : AMBIGUOUS;
}

/** Whether a noun ("the group") fits an actor only by the type an acronym was given for want of any other (ActorMention.type_guessed). */
function fitsByGuess(expression: Expression, actor: ActorMention): boolean {
  return expression.head !== undefined && actor.type_guessed === true && !nameHolds(actor, expression.head);
}

/** One mention per actor (its last), by the name it resolves to. */
function latestByIdentity(mentions: readonly ActorMention[]): ActorMention[] {
  const byName = new Map<string, ActorMention>();
  for (const mention of mentions) byName.set(normaliseForIdentity(mention.canonical ?? mention.text), mention);
  return [...byName.values()];
}

function nameWords(actor: ActorMention): string[] {
  return [actor.canonical, actor.text, ...(actor.aliases ?? [])].flatMap((name) => (name ? wordsOf(name) : []));
}

/**
 * Whether an actor's name holds a nominal's head: any of its names ("the coalition" after "Viv Ansanm", whose alias is
 * "Viv Ansanm coalition"), except an alias that only puts "group" after another name: the news writes every armed
 * group so ("Islamic State group"), which makes IS no likelier "the group" than any other group.
 */
function nameHolds(actor: ActorMention, head: string): boolean {
  if ([actor.canonical, actor.text].some((name) => name !== undefined && wordsOf(name).includes(head))) return true;
  return (actor.aliases ?? []).some((alias) => (head === 'group' ? wordsOf(alias).slice(0, -1) : wordsOf(alias)).includes(head));
}

function wordsOf(name: string): string[] {
  return name.toLowerCase().split(/[\s-]+/).map(singular);
}

/** A description the actor patterns found ("the army", "the police") and left unnamed: never an antecedent. */
function isDescription(actor: ActorMention): boolean {
  return !actor.canonical && actor.source === 'pattern' && isGenericMention(actor.text);
}

function lastWordFits(text: string): Fits | undefined {
  const words = text.toLowerCase().split(/\s+/);
  return DESCRIPTION_FITS[words[words.length - 1]];
}

/** A sentence that ends by naming its source: "..., the SDF said on Tuesday." */
const TRAILING_ATTRIBUTION = /,\s*["”]?\s*(?:the\s+)?[^,"“”]{1,60}?\s(?:said|says|added|stated|reported|announced)\b[^,"“”]{0,30}$/i;

/** Tokens that open a segment of a sentence: its subject stands before the segment's first verb. */
const SEGMENT_OPENERS = new Set([',', ';', ':', '(', 'that', 'but', 'while', 'whereas', 'after', 'before', 'when', 'because', 'which', 'who', 'although', 'though', 'since', 'until', 'as']);

/**
 * Per segment of a sentence (split at commas, "that", subordinating words), the actors before
 * its first finite verb and not governed by a preposition: "Lammy met Rubio" has Lammy;
 * "Lammy and Rubio met" both; "The ministry said that Iran must stop" the ministry, then Iran. With
 * `reportedClauses`, a reporting verb opens a segment as "that" does ("The ministry said Iran must stop").
 */
function subjectsOf(text: string, tokens: Token[], sentence: Sentence, mentions: readonly ActorMention[], reportedClauses: boolean): ActorMention[][] {
  const inSentence = mentions.filter((mention) => spanContains(sentence, mention));
  const inMention = (token: Token) => inSentence.some((mention) => spanContains(mention, token));
  const segments: ActorMention[][] = [];
  let segmentStart = sentence.start;
  let verbSeen = false;
  let relative = false;
  let current: ActorMention[] = [];
  for (let i = sentence.firstToken; i < sentence.endToken; i++) {
    const token = tokens[i];
    if (inMention(token)) {
      const mention = inSentence.find((candidate) => candidate.start === token.start);
      // "two tanks of the Israeli army": the article does not stop a preposition governing the name;
      // "a spokesman for the SDF said" has the SDF speak, through its spokesman, "Members of the Assembly voted" the Assembly act.
      const governor = tokens[i - 1]?.lower === 'the' ? i - 2 : i - 1;
      const before = tokens[governor];
      const governed = before !== undefined && before.start >= segmentStart && PREPOSITIONS.has(before.lower) && !ACTING_FOR.has(tokens[governor - 1]?.lower ?? '');
      // The subject is the segment's first actor and those coordinated with it ("Lammy and Rubio met"), not one inside its phrase.
      const previous = current[current.length - 1];
      const coordinated = previous === undefined || /^(?:\s*(?:,|and|or)\s*)+(?:the\s+)?$/i.test(text.slice(previous.end, token.start));
      // "The army's Chinar Corps said": the possessor only says whose the subject is.
      const possessed = previous !== undefined && POSSESSOR_GAP.test(text.slice(previous.end, token.start));
      if (mention && possessed && !verbSeen) current.pop();
      if (mention && !verbSeen && !governed && !relative && (coordinated || possessed) && !current.includes(mention)) current.push(mention);
      continue;
    }
    // "The ministry said Algeria had respected ...": a reporting verb opens the clause it reports, "that" or not.
    const reports = reportedClauses && REPORTING_VERBS.has(token.lower);
    if (SEGMENT_OPENERS.has(token.lower) || reports) {
      if (current.length > 0) segments.push(current);
      current = [];
      verbSeen = false;
      segmentStart = token.end;
      // "Turkey, which regards the group as terrorists, denied that its ...": a relative clause describes, its actors are no subjects.
      relative = RELATIVE_OPENERS.has(token.lower);
    } else if (FINITE_VERB.test(token.text) && !ADJECTIVAL_PARTICIPLES.has(token.lower)) {
      verbSeen = true;
    }
  }
  if (current.length > 0) segments.push(current);
  return segments;
}

/** Between a possessor and what it has ("'s", "'s political chief"): the thing had is the one that acts. */
const POSSESSOR_GAP = /^['’]s\s+(?:[\p{Ll}-]+\s+)*$/u;

/** The people of a force who act for it: "fighters of the ADF" attack for the ADF. */
export const FORCE_PEOPLE = ['fighters', 'militants', 'militiamen', 'gunmen', 'members', 'troops', 'soldiers', 'forces', 'units'];
/** Who speak or act for the actor a preposition after them names ("a spokesman for the SDF", "fighters of the SDF"). */
const ACTING_FOR = new Set([
  'spokesman', 'spokeswoman', 'spokesperson', 'spokesmen', 'spokespeople', 'officials', 'leaders', 'commanders', ...FORCE_PEOPLE,
  // "Warplanes of the Russian Aerospace Forces took off. They struck ...": the force acts through its men and machines.
  'warplanes', 'aircraft', 'jets', 'helicopters', 'drones',
]);
/** Words that open a relative clause, which describes the actor before it. */
const RELATIVE_OPENERS = new Set(['which', 'who']);
/** What only an actor has, after a possessive pronoun ("their fighters", "its spokesman"). */
const ACTOR_BELONGINGS = new Set([
  'fighters', 'troops', 'forces', 'soldiers', 'militants', 'members', 'leaders', 'leader', 'commander', 'commanders', 'spokesman',
  'spokeswoman', 'spokesperson', 'officials', 'units', 'negotiators', 'delegation', 'envoy',
]);

/** Verbs of speech: a place does not say, accuse or deny ("... entered Bora, and it accused the army"). */
const SPEECH_VERBS = new Set([
  'said', 'says', 'accused', 'accuses', 'denied', 'denies', 'warned', 'warns', 'urged', 'urges', 'called', 'calls', 'vowed', 'vows',
  'insisted', 'insists', 'demanded', 'demands', 'rejected', 'rejects', 'added', 'adds', 'stated', 'claimed', 'threatened', 'pledged', 'condemned', 'announced',
]);

/**
 * "it", "its" or "they" closer to a place or to people than to any actor in its own sentence
 * ("Goma and its surroundings", "Residents said they fled"): not a reference to an actor.
 */
function thingBefore(context: Context, sentence: Sentence, at: TextSpan, actors: readonly ActorMention[], locations: readonly LocationMention[]): boolean {
  const lastActor = Math.max(sentence.start, ...actors.filter((actor) => actor.end <= at.start && actor.start >= sentence.start).map((actor) => actor.end));
  const { tokens } = context;
  const speaks = SPEECH_VERBS.has(tokens[tokenIndexAt(tokens, at.end)]?.lower ?? '');
  // "... in Bukavu, a week after their fighters drove ...": a place has no fighters.
  const owns = ACTOR_BELONGINGS.has(tokens[tokenIndexAt(tokens, at.end)]?.lower ?? '');
  // "The Government of Yemen, based in Aden, denied that it ...": a place does not deny, so one before the verb is no antecedent.
  const spoken = tokens.slice(tokenIndexAt(tokens, lastActor), tokenIndexAt(tokens, at.start)).filter((token) => SPEECH_VERBS.has(token.lower)).pop();
  const after = Math.max(lastActor, spoken?.end ?? 0);
  if (!speaks && !owns && locations.some((place) => place.start >= after && place.end <= at.start)) return true;
  for (let i = tokenIndexAt(tokens, lastActor); i < tokens.length && tokens[i].end <= at.start; i++) {
    // "RSF fighters said they": a bearer right after the actor is the actor's own.
    if (PEOPLE_NOUNS.has(tokens[i].lower) && !(tokens[i - 1] && tokens[i - 1].end === lastActor)) return true;
  }
  return false;
}

function findExpressions(context: Context, actors: ActorMention[], taken: readonly TextSpan[], quoted: readonly TextSpan[]): Expression[] {
  const { tokens } = context;
  const found: Expression[] = [];
  const free = (span: TextSpan) => !taken.some((other) => spansOverlap(other, span)) && !actors.some((actor) => spansOverlap(actor, span));
  // "where the SDF is fighting the group", "carried out an air strike against the group": the object of a hostile act is not
  // its own clause's subject, as "him" is not
  const objectOfAct = (start: number) => HOSTILE_ACT_WORDS.has(tokens[tokenIndexAt(tokens, start) - 1]?.lower ?? '');
  for (const actor of actors) {
    if (!isDescription(actor) || !/^the\s/i.test(actor.text) || !lastWordFits(actor.text)) continue;
    const words = actor.text.toLowerCase().split(/\s+/);
    const head = words[words.length - 1];
    const needsHead = actor.actor_type === 'government';
    found.push({ start: actor.start, end: actor.end, kind: 'nominal', fits: lastWordFits(actor.text)!, head: singular(head), subjectsOnly: false, object: objectOfAct(actor.start), wholeDocument: false, existing: actor, needsHead });
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    // "We will respond," the ministry said: the organisation speaking in the quotation.
    if (FIRST_PERSON_PLURAL.has(token.lower) && free(token)) {
      const quotation = quoted.find((span) => spanContains(span, token));
      if (quotation) found.push({ start: token.start, end: token.end, kind: 'pronoun', fits: isOrganisation, subjectsOnly: true, wholeDocument: false, quotation });
      continue;
    }
    const pronoun = PRONOUNS[token.lower];
    if (pronoun && free(token)) {
      if (token.lower === 'it' && !isReferringIt(tokens, i)) continue;
      found.push({
        start: token.start, end: token.end, kind: 'pronoun', fits: pronoun, subjectsOnly: THING_PRONOUNS.has(token.lower),
        object: OBJECT_PRONOUNS.has(token.lower), wholeDocument: false,
      });
      continue;
    }
    // "the Coalition", "Coalition forces", "coalition partners": the coalition the document named.
    if (COLLECTIVES.has(token.lower) && (tokens[i - 1]?.lower === 'the' || COLLECTIVE_BEARERS.has(tokens[i + 1]?.lower ?? ''))) {
      if (tokens[i + 1]?.capitalised || !free(token)) continue;
      const collective = (actor: ActorMention) => isOrganisation(actor) && nameWords(actor).includes(token.lower);
      found.push({ start: token.start, end: token.end, kind: 'nominal', fits: collective, subjectsOnly: false, wholeDocument: true });
      continue;
    }
    if (token.lower !== 'the') continue;
    // "The statement accused ...": the record speaks for whoever issued it, the subject that issued or published it before.
    const recordAt = RECORD_MODIFIERS.has(tokens[i + 1]?.lower ?? '') ? i + 2 : i + 1;
    if (RECORD_NOUNS.has(tokens[recordAt]?.lower ?? '') && SPEECH_VERBS.has(tokens[recordAt + 1]?.lower ?? '')) {
      const span = { start: token.start, end: tokens[recordAt].end };
      if (free(span)) found.push({ ...span, kind: 'nominal', fits: isIssuer, subjectsOnly: true, wholeDocument: false });
      i = recordAt;
      continue;
    }
    let k = i + 1;
    // "the armed group", "the Yemeni group": a modifier or a nationality between the article and the head.
    const modifier = tokens[k] && (NOMINAL_MODIFIERS.has(tokens[k].lower) || Object.hasOwn(DEMONYMS, tokens[k].text));
    if (modifier && NOMINAL_HEADS[tokens[k + 1]?.lower ?? '']) k++;
    const headToken = tokens[k];
    const fits = headToken ? NOMINAL_HEADS[headToken.lower] : undefined;
    // "the ministry of Defence" is a name written in lower case, not a reference; "the Ministry of Defence" a name.
    if (!fits || (tokens[k + 1]?.lower === 'of' && tokens[k + 2]?.capitalised)) continue;
    // "The Ministry calls on ...": a statement's own capitalised head stands for the body whose name holds it, never a
    // name's first word ("the Group Seven"); "the Coalition" is a collective, below.
    if (headToken.capitalised && ((tokens[k + 1]?.capitalised && tokens[k + 1].word) || COLLECTIVES.has(headToken.lower))) continue;
    const span = { start: tokens[i].start, end: headToken.end };
    if (!free(span)) continue;
    found.push({ ...span, kind: 'nominal', fits, head: singular(headToken.lower), subjectsOnly: false, object: objectOfAct(span.start), wholeDocument: false, needsHead: headToken.capitalised || HEADS_OF_NAMES.has(headToken.lower) });
    i = k;
  }
  return found.sort((a, b) => a.start - b.start);
}

function singular(noun: string): string {
  return noun.replace(/ies$/, 'y').replace(/(?<=[^s])s$/, '');
}

/** Words that may stand between a reporting verb and the "it" it introduces ("said on Monday it", "said in a statement it"). */
const REPORTING_ADJUNCT = /^(?:on|in|at|late|early|last|this|a|the|statement|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|yesterday|earlier|later|again|also|week|night|morning|afternoon|evening|,)$/;
const REPORTING_VERBS = new Set(['said', 'says', 'stated', 'announced', 'added', 'declared', 'insisted', 'warned']);

/** "it said", "that it would", "said on Monday it would": a subject "it" that is no expletive ("it is unclear", "it was reported"). */
function isReferringIt(tokens: Token[], index: number): boolean {
  const before = tokens[index - 1];
  if (before && !SUBJECT_OPENERS.has(before.lower) && !/^[.!?]$/.test(before.text) && !afterReporting(tokens, index)) return false;
  const next = tokens[index + 1]?.lower ?? '';
  if (EXPLETIVE_FOLLOWERS.has(next)) return false;
  if (COPULAS.has(next)) {
    return index + 2 < tokens.length && !EXPLETIVE_PREDICATE.test(tokens.slice(index + 2, index + 6).map((token) => token.lower).join(' '));
  }
  return !(['has', 'had', 'will', 'would', 'could', 'may', 'might'].includes(next) && ['been', 'be'].includes(tokens[index + 2]?.lower ?? ''));
}

function afterReporting(tokens: Token[], index: number): boolean {
  for (let k = index - 1; k >= Math.max(0, index - 5); k--) {
    if (REPORTING_VERBS.has(tokens[k].lower)) return true;
    if (!REPORTING_ADJUNCT.test(tokens[k].lower)) return false;
  }
  return false;
}
