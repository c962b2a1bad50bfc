import type { ActorMention, RelationMention, TextSpan } from '../types.ts';
import { REPORTING } from './claims.ts';
import { PhraseIndex } from './phrases.ts';
import { pairsOf, tokenIndexAt, tokenize, type Sentence, type Token } from './text.ts';

/**
 * Relations between actor mentions of one sentence, from the words between them:
 * MEMBER_OF ("X of the Y", "X, a commander of Y", "Y commander X", "Y's leader X"),
 * ALLIED_WITH ("Iran-backed Houthis", "X, backed by Y", "allied with", "X backed Y", "fought alongside",
 * "a coalition of X, Y and Z", "X and Y formed an alliance", "X and Y continue joint patrols"), OPPOSES
 * ("clashes between X and Y", "X fighting Y", "against", "X retook the town from Y").
 * A cue's parties are its clause's subject and object, coordinated ones included ("X and Y fought Z":
 * both oppose Z and are allies); a negated or denied cue ("never backed", "denies supporting") or a
 * hypothetical one ("threatened to attack", "called on X to stop attacking") states no relation, while an
 * allegation ("accused X of arming Y") states the relation it alleges, as the accuser reports it. Where the
 * alliance and the opposition readings overlap ("fighting alongside") the alliance wins; an alliance "against
 * Z" ("backed the army against the M23") sets both allies against Z.
 */

/** Words that make the person before "of/for" a member of the organisation after it. */
const MEMBERSHIP_ROLES = new Set([
  'commander', 'commanders', 'leader', 'leaders', 'head', 'chief', 'spokesman', 'spokeswoman', 'spokesperson', 'member',
  'members', 'founder', 'chairman', 'chairperson', 'president', 'deputy', 'official', 'officials', 'officer', 'minister',
  'envoy', 'representative', 'general', 'colonel', 'fighter', 'fighters', 'faction', 'wing', 'unit', 'affiliate',
  'part', 'branch', 'negotiator', 'negotiators', 'secretary-general', 'chief-of-staff', 'emir', 'boss', 'ally',
  'commander-in-chief',
]);
const MODIFIERS = new Set([
  'a', 'an', 'the', 'senior', 'top', 'deputy', 'military', 'political', 'local', 'regional', 'field', 'former', 'chief',
  'its', 'their', 'his', 'her', 'armed', 'special', 'foreign', 'defence', 'defense', 'de', 'facto', 'supreme', 'overall',
]);

const ALLIANCE_BEFORE_CUES = ['allied with', 'allied to', 'aligned with', 'backed by', 'supported by', 'armed by',
  'funded by', 'sponsored by', 'in alliance with', 'an ally of', 'allies of', 'joined forces with', 'fighting alongside',
  'fought alongside', 'alongside', 'and its allies', 'and its ally', 'together with', 'in coalition with', 'a proxy of',
  'proxies of', 'an alliance with', 'alliance with', 'a coalition with', 'which is backed by', 'which are backed by', 'which is supported by',
  'fighting beside', 'fought beside', 'fights alongside', 'fight alongside', 'fights beside', 'fight beside', 'sided with', 'siding with', 'sides with', 'in coordination with', 'coordinating with',
  'coordinated with', 'in cooperation with', 'backed', 'backs', 'backing', 'supported', 'supports', 'supporting', 'armed', 'arming',
  'allied', 'joined forces', 'teamed up with', 'reinforced', 'came to the aid of', 'a joint operation with', 'joint operations with',
  'a joint offensive with', 'joint patrols with', 'conducted a joint operation', 'conducted joint operations', 'launched a joint operation',
  'launched a joint offensive', 'supplied', 'supplies', 'supplying', 'delivered weapons to', 'delivered arms to', 'transferred weapons to',
  'sent weapons to', 'provided weapons to', 'provided military support to', 'fought for', 'fighting for', 'fights for'];
/** Alliance cues that are one only with an actor after them ("fought for Haftar's forces", not "fighting for control"). */
const ALLIANCE_NEEDS_OBJECT = new Set(['fought for', 'fighting for', 'fights for']);
/** "Iran-backed": the first is the second's backer ("Tuareg-led", "US-led" name a leader or a member, no ally). */
const ALLIANCE_HYPHEN_WORDS = new Set(['backed', 'aligned', 'allied', 'supported', 'sponsored', 'funded', 'armed', 'trained', 'installed']);
const OPPOSITION_CUES = ['fighting', 'fought', 'fights', 'clashed with', 'clashing with', 'clashes with', 'battled',
  'battling', 'against', 'at war with', 'fighting against', 'opposed to', 'opposes', 'opposing', 'resisting', 'resisted',
  'in conflict with', 'hostile to', 'launched an offensive against', 'launched a counteroffensive against', 'an offensive against',
  'a counteroffensive against', 'waging war on', 'waged war on', 'declared war on', 'at war', 'clashed', 'clashing', 'clash',
  'attacked', 'shelled', 'bombed', 'ambushed', 'raided', 'stormed', 'overran', 'fired on', 'opened fire on',
  'fired missiles at', 'fired rockets at', 'fired drones at', 'launched missiles at', 'launched drones at', 'launched rockets at',
  'repelled', 'repulsed', 'struck', 'targeted'];
/** The one-word hostile acts among the cues, and "against" ("fighting the group", "a strike against the group"): what follows one is its object. */
export const HOSTILE_ACT_WORDS = new Set(OPPOSITION_CUES.filter((cue) => !cue.includes(' ') && cue !== 'clash'));
/** Before an opposition cue, words that make it a noun ("the attacked positions", "condemned the clash"), not the act of a subject. */
const NOUN_MARKERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'of', 'this', 'that']);
/** Words before "against" that make it a lawsuit, a protest, a vote or a warning, not hostility ("filed a case against", "voted against"). */
const NOT_HOSTILE_AGAINST = new Set(['case', 'cases', 'complaint', 'complaints', 'lawsuit', 'suit', 'charges', 'proceedings', 'ruling', 'ruled',
  'protest', 'protests', 'protested', 'protesting', 'demonstrated', 'demonstrating', 'demonstration', 'demonstrations', 'rallied', 'rally', 'rallies',
  'petition', 'appeal', 'motion', 'resolution', 'vote', 'voted', 'votes', 'voting', 'warned', 'warns', 'warning', 'cautioned', 'spoke', 'speak', 'speaks', 'testified']);
/** "US-led coalition", "Saudi-headed force": the name before one of these only qualifies the party that acts. */
const LEADER_HYPHEN_WORDS = new Set(['led', 'headed', 'commanded']);
/** Opposition cues whose coordinated subjects are the two sides ("X and Y fought", "X and Y are at war"). */
const RECIPROCAL = new Set(['fighting', 'fought', 'fights', 'clashed', 'clashing', 'clash', 'battled', 'battling', 'at war', 'in conflict with']);
/** Words before a cue that deny it ("has never backed", "did not attack", "denies supporting"). */
const NEGATORS = new Set(['not', "n't", 'never', 'no', 'nor', 'without', 'deny', 'denies', 'denied', 'denying', 'refused', 'refuses', 'stopped', 'ceased']);
/** Words of a clause that deny what follows ("rejected claims that it armed the M23"); an accusation states what it alleges. */
const DENYING = /^(?:den(?:y|ies|ied|ying)|reject|dismiss|refut)/;
/** Words of a clause that make what follows a possibility, not a fact ("threatened to strike", "would attack if", "urged X to stop attacking"). */
const HYPOTHETICAL = new Set(['threatened', 'threatens', 'threaten', 'threatening', 'vowed', 'vows', 'would', 'could', 'might', 'will', 'if', 'unless',
  'urged', 'urges', 'urging', 'called', 'calls', 'calling', 'plans', 'planned', 'planning', 'intends', 'ready', 'prepared', 'asked',
  'preparing', 'prepare', 'prepares', 'plotting', 'plotted', 'plots']);
/** Words that may stand between a cue and its object ("shelled positions of the SAF", "fired on the convoy of"); a place preposition may not ("fighting in Sudan"). */
const OBJECT_GAP = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'both', 'rival', 'on', 'at', 'of', 'with', 'into', 'upon',
  'positions', 'position', 'targets', 'bases', 'base', 'forces', 'troops', 'fighters', 'units', 'camps', 'convoy', 'convoys', 'members', 'sites', 'outposts',
  'weapons', 'arms', 'drones', 'rockets', 'missiles', 'artillery', 'shells', 'ammunition', 'money', 'support', 'to']);
/** Capitalised words that are no name ("the RSF on Monday attacked"). */
const CALENDAR_WORDS = /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$|^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/;
/** Verbs of speech and accusation: whoever stands before one is the speaker, not the subject of the cue after it. */
const SPEECH_VERBS = /^(?:accus|blam|urg|call|said$|says$|told$|ask)/;
/** Phrases that mark a tie as over ("split from", "no longer"): a sentence holding one states no alliance or membership ("former" is read where it stands). */
const ENDED_TIES = ['split from', 'broke with', 'broke away from', 'broken with', 'no longer', 'ended its support', 'ended their support',
  'withdrew from', 'withdrew its', 'defected from', 'quit', 'left the', 'cut ties with', 'severed ties with'];
/** A name after one of these is where something happens, not who does it ("In Sudan, fighting spread"). */
const LOCATIVE = new Set(['in', 'near', 'across', 'from', 'at', 'outside', 'around', 'inside', 'throughout', 'within', 'over']);
/** What may stand between a subject and its verb ("has long backed", "were reportedly fighting"). */
const AUXILIARIES = new Set(['has', 'have', 'had', 'is', 'are', 'was', 'were', 'been', 'be', 'also', 'long', 'openly', 'reportedly',
  'allegedly', 'repeatedly', 'jointly', 'then', 'later', 'still', 'now', 'again', 'continue', 'continued', 'to', 'already', 'once']);
const RELATIVE_PRONOUNS = new Set(['which', 'who', 'whom']);
const PASSIVE = new Set(['is', 'are', 'was', 'were', 'been', 'being']);
/** Fighting "between X and Y" ("tensions between" are no fight). */
const BETWEEN_NOUNS = new Set(['clashes', 'fighting', 'war', 'battle', 'battles', 'conflict', 'hostilities', 'confrontation',
  'confrontations', 'skirmishes', 'fight', 'combat']);

/** Nouns of a coalition: its members, listed after "of" or before a forming verb, are allies. */
const COALITION_NOUNS = new Set(['coalition', 'alliance', 'pact', 'bloc', 'joint command', 'joint force', 'joint forces']);
const FORMING_VERBS = new Set(['formed', 'form', 'forming', 'forms', 'created', 'create', 'announced', 'signed', 'established', 'launched', 'set up', 'joined in']);

let allianceIndex: PhraseIndex<true> | undefined;
let oppositionIndex: PhraseIndex<true> | undefined;

/** Whether the name ending before token `endToken` only qualifies another ("the US-led coalition"): no party itself. */
export function leadsOnly(tokens: Token[], endToken: number): boolean {
  return tokens[endToken]?.text === '-' && LEADER_HYPHEN_WORDS.has(tokens[endToken + 1]?.lower ?? '');
}

/** Verbs whose object names the act the subject does ("launched an attack on", "conducted 22 strikes against"). */
const LIGHT_VERBS = new Set(['launched', 'launch', 'launches', 'launching', 'conducted', 'conduct', 'conducts', 'conducting', 'carried', 'carry', 'carries',
  'carrying', 'out', 'mounted', 'mount', 'staged', 'stage', 'began', 'begun', 'started', 'made', 'make', 'executed', 'undertook', 'fired', 'used',
  'continue', 'continues', 'continued', 'continuing', 'led', 'leads', 'leading', 'waged', 'wages', 'waging', 'intensified', 'stepped', 'up',
  'claimed', 'claims', 'claim', 'responsibility', 'for']);
/** Nouns and modifiers between an actor and its act that keep the actor the doer ("Daesh fighters attacked", "RAF aircraft struck", "a Daesh mortar team firing on"). */
const DOER_WORDS = new Set(['fighters', 'forces', 'troops', 'militants', 'soldiers', 'units', 'unit', 'members', 'gunmen', 'militiamen', 'rebels', 'aircraft',
  'jets', 'warplanes', 'planes', 'drones', 'drone', 'helicopters', 'artillery', 'team', 'teams', 'cells', 'cell', 'column', 'convoy', 'military', 'air',
  'naval', 'ground', 'special', 'and', 'of', 'loyal', 'to', 'faction', 'factions', 'coalition', 'force', 'army', 'navy', 'guard', 'guards',
  'brigade', 'brigades', 'battalion', 'division', 'regiment', 'commandos', 'operatives', 'personnel', 'squad', 'patrol', 'patrols', 'warships',
  'ships', 'boats', 'vessels', 'gunboats', 'batteries', 'shells', 'rockets', 'missiles', 'fighter', 'allies', 'ally', 'partners', 'operations',
  'infantry', 'armoured', 'armored', 'mechanised', 'mechanized', 'elite', 'group', 'groups', 'gang', 'gangs', 'militia', 'militias', 'mortar', 'rocket', 'missile', 'suicide', 'car', 'bomb', 'bombers', 'tanks', 'snipers', 'elements', 'positions',
  'a', 'an', 'the', 'its', 'their', 'his', 'her', 'one', 'two', 'three', 'four', 'five', 'six', 'several', 'multiple', 'more', 'than', 'new', 'fresh',
  'further', 'heavy', 'joint', 'coordinated', 'simultaneous', 'deadly', 'renewed', 'overnight', 'yesterday', 'today', 'early', 'late', 'last', 'on',
  'in', 'near', 'at', 'around', 'also', 'then', 'again', 'later', 'still', 'jointly', 'reportedly', 'allegedly', 'repeatedly', 'has', 'have', 'had',
  'is', 'are', 'was', 'were', 'been', 'be', "'s", '’s', '-', "'", '’']);

/** Counts written out ("conducted fourteen operations against"): like digits, they keep the actor the doer. */
const NUMBER_WORDS = /^(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-\w+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|hundreds?|dozens?|scores?)$/;
/** A count: digits or a number word ("14", "twelve", "dozens"). */
function isCount(token: Token): boolean {
  return /^\p{N}/u.test(token.text) || NUMBER_WORDS.test(token.lower);
}

/** Words that open a clause of their own: a verb after one has another subject. */
const OTHER_SUBJECT_OPENERS = new Set(['who', 'whom', 'which', 'that', 'whose', 'where', 'when', 'while', 'after', 'before', 'as', 'because', 'since', 'until',
  'if', 'unless', 'said', 'says', 'told', ';']);

/** The tokens less any relative clause between commas (", which the UAE arms,"): its verb and subject are its own. */
function withoutRelativeClauses(tokens: readonly Token[]): Token[] {
  const kept: Token[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const closing = tokens[k].text === ',' && RELATIVE_PRONOUNS.has(tokens[k + 1]?.lower ?? '') ? tokens.findIndex((token, c) => c > k && token.text === ',') : -1;
    if (closing > k) k = closing;
    else kept.push(tokens[k]);
  }
  return kept;
}

/**
 * Whether the actor ending at token `actorEnd` is the doer of the act starting at token `actFirst`: only
 * its own nouns, a light verb ("launched an attack"), auxiliaries, times and places, and a closed
 * apposition (", backed by Y,") stand between. A verb of its own ("condemned the attack on", "called for"),
 * a relative or subordinate clause ("terrorists who were preparing an attack", "after militants fired
 * on") or an open apposition (", backed by Coalition air strikes") make the act another's.
 */
export function doerInReach(tokens: Token[], actorEnd: number, actFirst: number): boolean {
  // "the RSF had received support from Chad and had attacked": a verb coordinated with the subject's first verb is the subject's too,
  // and not that of the name ending the first verb's object ("Chad", "had cleared the camp of SAF fighters and had clashed with").
  let coordinated = actFirst;
  while (coordinated > actorEnd && DOER_WORDS.has(tokens[coordinated - 1].lower) && tokens[coordinated - 1].lower !== 'and') coordinated--;
  if (coordinated > actorEnd && tokens[coordinated - 1].lower === 'and') {
    const between = withoutRelativeClauses(tokens.slice(actorEnd, coordinated - 1));
    return between.some((token) => token.word) && !between.some((token) => OTHER_SUBJECT_OPENERS.has(token.lower));
  }
  const commas: number[] = [];
  for (let k = actorEnd; k < actFirst; k++) if (tokens[k].text === ',') commas.push(k);
  if (commas.length % 2 === 1) return false;
  const outside = (k: number) => commas.length === 0 || k < commas[0] || k > commas[commas.length - 1];
  for (let k = actorEnd; k < actFirst; k++) {
    if (!outside(k)) continue;
    const token = tokens[k];
    if (token.capitalised || isCount(token) || DOER_WORDS.has(token.lower) || LIGHT_VERBS.has(token.lower) || /ly$/.test(token.lower)) continue;
    return false;
  }
  return true;
}

/** Whether an alliance cue starts at token `index` ("fought beside the army" is no fight with it). */
export function startsAllianceCue(tokens: Token[], index: number, endToken: number): boolean {
  allianceIndex ??= cueIndex(ALLIANCE_BEFORE_CUES);
  return allianceIndex.matchesAt(tokens, index, endToken).length > 0;
}

function cueIndex(phrases: string[]): PhraseIndex<true> {
  const index = new PhraseIndex<true>();
  for (const phrase of phrases) index.add(phrase, true);
  return index;
}

const ORGANISATION_TYPES = new Set(['state', 'government', 'armed_forces', 'armed_group', 'political_party', 'international_org', 'ngo', 'civil_society', 'media']);

interface Located {
  actor: ActorMention;
  firstToken: number;
  endToken: number;
}

export function findRelations(tokens: Token[], sentences: Sentence[], actors: ActorMention[]): RelationMention[] {
  allianceIndex ??= cueIndex(ALLIANCE_BEFORE_CUES);
  oppositionIndex ??= cueIndex(OPPOSITION_CUES);
  const located: Located[] = actors.map((actor) => ({ actor, firstToken: tokenIndexAt(tokens, actor.start), endToken: tokenIndexAt(tokens, actor.end) }));
  const relations: RelationMention[] = [];
  /** Whether the sentence read now says a tie is over ("split from", "former ally"): its alliances and memberships are past. */
  let tiesEnded = false;
  const add = (type: RelationMention['type'], from: ActorMention, to: ActorMention, confidence: number) => {
    if (from.start === to.start || sameActor(from, to) || (type !== 'OPPOSES' && tiesEnded)) return;
    // "his Special Envoy for Syria", "President of Sudan": an office of a state or for it is no membership.
    if (type === 'MEMBER_OF' && to.actor_type === 'state') return;
    const known = (a: ActorMention, b: ActorMention) => relations.some((r) => r.type === type && r.from.start === a.start && r.to.start === b.start);
    if (known(from, to) || (type === 'ALLIED_WITH' && known(to, from))) return;
    const start = Math.min(from.start, to.start);
    const end = Math.max(from.end, to.end);
    relations.push({ type, start, end, from: span(from), to: span(to), confidence });
  };
  for (const sentence of sentences) {
    tiesEnded = endsTies(tokens, sentence);
    const inSentence = located.filter((l) => l.firstToken >= sentence.firstToken && l.endToken <= sentence.endToken && !leadsOnly(tokens, l.endToken));
    const startingAt = (index: number) => inSentence.find((l) => l.firstToken === index);
    const endingAt = (index: number) => inSentence.find((l) => l.endToken === index);
    for (const member of inSentence) {
      // "X of the Y", "X, a senior commander of Y", "X, the head of Y"
      let k = member.endToken;
      if (tokens[k]?.text === ',') k++;
      let sawRole = false;
      // "X, a former commander of Y" is no member now; "X, an ally of Y" is an ally, not a member.
      let former = false;
      let ally = false;
      while (k < sentence.endToken && (MODIFIERS.has(tokens[k].lower) || MEMBERSHIP_ROLES.has(tokens[k].lower)) && k - member.endToken < 6) {
        sawRole ||= MEMBERSHIP_ROLES.has(tokens[k].lower);
        former ||= tokens[k].lower === 'former';
        ally ||= tokens[k].lower === 'ally';
        k++;
      }
      const direct = k === member.endToken;
      if (['of', 'for', 'in', 'with'].includes(tokens[k]?.lower ?? '') && (sawRole || (direct && tokens[k].lower === 'of'))) {
        let g = k + 1;
        if (tokens[g]?.lower === 'the') g++;
        const group = startingAt(g);
        if (group && !former && ORGANISATION_TYPES.has(group.actor.actor_type) && (member.actor.actor_type === 'individual' || sawRole)) {
          add(ally ? 'ALLIED_WITH' : 'MEMBER_OF', member.actor, group.actor, direct ? 0.8 : 0.75);
        }
      }
      // "X, the Hezbollah leader", "X, an RSF commander"
      let m = member.endToken;
      if (member.actor.actor_type === 'individual' && tokens[m]?.text === ',' && ['a', 'an', 'the'].includes(tokens[m + 1]?.lower ?? '')) {
        const group = startingAt(m + 2);
        if (group && MEMBERSHIP_ROLES.has(tokens[group.endToken]?.lower ?? '')) add('MEMBER_OF', member.actor, group.actor, 0.75);
      }
      // "RSF commander X", "Hamas's political chief X": the title sits between the group and the person.
      if (member.actor.actor_type === 'individual' && member.actor.title) {
        let before = member.firstToken - tokenize(member.actor.title).length;
        if (tokens[before - 1]?.lower === "'s") before--;
        const group = endingAt(before);
        if (group && group !== member && ORGANISATION_TYPES.has(group.actor.actor_type) && /[a-z]/.test(member.actor.title[0])) {
          add('MEMBER_OF', member.actor, group.actor, 0.8);
        }
      }
      // "The army's commander-in-chief, General X": X belongs to the army.
      m = member.endToken;
      if (ORGANISATION_TYPES.has(member.actor.actor_type) && tokens[m]?.lower === "'s") {
        let r = m + 1;
        let role = false;
        for (; r < sentence.endToken && (MODIFIERS.has(tokens[r].lower) || MEMBERSHIP_ROLES.has(tokens[r].lower)) && r - m < 5; r++) {
          if (MEMBERSHIP_ROLES.has(tokens[r].lower)) role = true;
        }
        const person = role && tokens[r]?.text === ',' ? inSentence.find((l) => l.firstToken > r && l.firstToken <= r + 3 && l.actor.actor_type === 'individual') : undefined;
        if (person) add('MEMBER_OF', person.actor, member.actor, 0.75);
      }
      // "The head of MONUSCO, Bintou Keita, told": the office named in apposition before the person.
      if (member.actor.actor_type === 'individual' && tokens[member.firstToken - 1]?.text === ',') {
        const group = endingAt(member.firstToken - 1);
        let r = group ? group.firstToken - 1 : -1;
        if (tokens[r]?.lower === 'the') r--;
        if (group && ORGANISATION_TYPES.has(group.actor.actor_type) && ['of', 'for'].includes(tokens[r]?.lower ?? '') && MEMBERSHIP_ROLES.has(tokens[r - 1]?.lower ?? '')) {
          add('MEMBER_OF', member.actor, group.actor, 0.75);
        }
      }
      // "Iran-backed Houthis": Houthis ALLIED_WITH Iran
      m = member.endToken;
      if (tokens[m]?.text === '-' && ALLIANCE_HYPHEN_WORDS.has(tokens[m + 1]?.lower ?? '')) {
        // The backed name follows, past plain words only ("Iran-backed Houthi rebels"; not past "militias and" to the next name).
        for (let g = m + 2; g < Math.min(m + 5, sentence.endToken) && tokens[g].word && tokens[g].lower !== 'and'; g++) {
          const ally = startingAt(g);
          if (ally) {
            add('ALLIED_WITH', ally.actor, member.actor, 0.75);
            break;
          }
        }
      }
    }
    /** Where the last alliance cue ends: an opposition cue inside it ("fighting" in "fighting alongside") is none. */
    let allianceEnd = -1;
    /** Where the last opposition cue ends: a shorter cue inside it ("an offensive against" in "launched an offensive against") was read with it. */
    let oppositionEnd = -1;
    /** The last alliance cue's parties: "Wazalendo militias fighting beside the army repelled the M23" is the Wazalendo's act, not the army's. */
    let lastAlliance: { agents: Located[]; patients: Located[] } = { agents: [], patients: [] };
    /** The subjects of the last act read in the sentence: a verb coordinated with it ("and had clashed with") shares them. */
    let lastSubjects: Located[] = [];
    const subjectsOf = (verb: number) => {
      const subjects = coordinatedVerb(inSentence, tokens, sentence, verb, lastSubjects);
      if (subjects.length > 0) lastSubjects = subjects;
      return subjects;
    };
    for (let i = sentence.firstToken; i < sentence.endToken; i++) {
      for (const [index, type] of [[allianceIndex, 'ALLIED_WITH'], [oppositionIndex, 'OPPOSES']] as const) {
        const [cue] = index.matchesAt(tokens, i, sentence.endToken);
        if (!cue || (type === 'OPPOSES' && (i < allianceEnd || i < oppositionEnd))) continue;
        if (type === 'OPPOSES') oppositionEnd = cue.endToken;
        const passive = PASSIVE.has(tokens[i - 1]?.lower ?? '') && tokens[cue.endToken]?.lower === 'by';
        const objects = objectsAfter(inSentence, tokens, passive ? cue.endToken + 1 : cue.endToken);
        if (type === 'ALLIED_WITH' && ALLIANCE_NEEDS_OBJECT.has(cueText(tokens, cue)) && objects.length === 0) continue;
        if (type === 'ALLIED_WITH') allianceEnd = Math.max(allianceEnd, cue.endToken);
        // A cue inside a name ("Sudanese Armed Forces"), after a hyphen ("Iran-backed", read above), negated, denied or hypothetical states nothing.
        if (inSentence.some((l) => l.firstToken <= i && i < l.endToken) || tokens[i - 1]?.text === '-' || deniedOrHypothetical(tokens, sentence, i)) continue;
        if (type === 'OPPOSES' && NOUN_MARKERS.has(tokens[i - 1]?.lower ?? '')) continue;
        if (cueText(tokens, cue) === 'against' && NOT_HOSTILE_AGAINST.has(tokens[i - 1]?.lower ?? '')) continue;
        if (type === 'OPPOSES' && cue.endToken === i + 1 && fightsWith(tokens, i)) continue;
        let subjects = subjectsOf(i);
        // "discussed the campaign against Daesh": "against" after a noun is the noun's; the subject opposes only if it wages it ("conducted strikes against").
        if (cueText(tokens, cue) === 'against' && tokens[i - 1]?.word && !tokens[i - 1].capitalised && !oppositionIndex.matchesAt(tokens, i - 1, i).length) {
          subjects = subjects.filter((subject) => doerInReach(tokens, subject.endToken, i - 1));
        }
        if (type === 'OPPOSES' && subjects.length > 0 && lastAlliance.agents.length > 0 && subjects.every((subject) => lastAlliance.patients.includes(subject))) subjects = lastAlliance.agents;
        const [agents, patients] = passive ? [objects, subjects] : [subjects, objects];
        if (type === 'ALLIED_WITH') lastAlliance = { agents, patients };
        for (const agent of agents) for (const patient of patients) if (!supportsPopulation(type, patient.actor)) add(type, agent.actor, patient.actor, agents.length > 1 || patients.length > 1 ? 0.6 : 0.65);
        if (type === 'OPPOSES' && !passive) for (const partner of jointPartners(inSentence, tokens, sentence, i, subjects)) for (const patient of patients) add(type, partner.actor, patient.actor, 0.6);
        // "Burundian troops are supporting the Congolese army against the M23": both allies oppose the M23.
        if (type === 'ALLIED_WITH' && !passive) {
          const enemies = enemiesAfter(inSentence, tokens, patients.length > 0 ? patients[patients.length - 1].endToken : cue.endToken);
          for (const side of [...agents, ...patients]) for (const enemy of enemies) add('OPPOSES', side.actor, enemy.actor, 0.6);
        }
        // "X and Y fought Z", "X and Y joined forces": co-agents are allies; "X and Y fought", "X and Y are at war": enemies.
        // Three or more who "fought" with no object are one side's members, or a list, not two enemies.
        const between = patients.length > 0 || type === 'ALLIED_WITH' ? 'ALLIED_WITH' : RECIPROCAL.has(cueText(tokens, cue)) && agents.length === 2 ? 'OPPOSES' : undefined;
        if (between) for (const [a, b] of pairsOf(agents)) add(between, a.actor, b.actor, 0.6);
      }
      // "a coalition of X, Y and Z", "X and Y formed an alliance": every pair of members.
      const coalitionEnd = phraseAt(tokens, i, COALITION_NOUNS);
      if (coalitionEnd !== undefined) {
        const members = tokens[coalitionEnd]?.lower === 'of' ? listAfter(inSentence, tokens, coalitionEnd + 1) : listBefore(inSentence, tokens, formingVerbBefore(tokens, i));
        for (const [a, b] of pairsOf(members)) add('ALLIED_WITH', a.actor, b.actor, 0.7);
      }
      // "The mission and the LAF continue joint patrols", "In a joint operation with the Tessin Guard, the brigade cleared":
      // the parties of a joint action are allies.
      if (tokens[i].lower === 'joint' && JOINT_ACTIONS.has(tokens[i + 1]?.lower ?? '')) {
        for (const [a, b] of jointParties(inSentence, tokens, sentence, i)) add('ALLIED_WITH', a.actor, b.actor, 0.6);
      }
      // "retook the village of Badush, north-west of Mosul, from Daesh": whoever takes ground from a party fights it.
      // "had cleared the camp of fighters of the SAF", "killed five Islamic State fighters": whoever clears ground of a party's men, or kills them, fights it.
      const holder = TAKING_VERBS.has(tokens[i].lower) ? takenFrom(tokens, sentence, i) : undefined;
      const losers = holder !== undefined ? objectsAfter(inSentence, tokens, holder)
        : CLEARING_VERBS.has(tokens[i].lower) ? clearedOf(inSentence, tokens, sentence, i)
        : KILLING_VERBS.has(tokens[i].lower) ? combatantsKilled(inSentence, tokens, sentence, i) : [];
      if (losers.length > 0 && !deniedOrHypothetical(tokens, sentence, i)) {
        const takers = subjectsOf(i);
        for (const taker of [...takers, ...jointPartners(inSentence, tokens, sentence, i, takers)]) for (const loser of losers) add('OPPOSES', taker.actor, loser.actor, 0.65);
      }
      // "clashes between X and Y"; not "the cessation of hostilities between X and Y"
      if (BETWEEN_NOUNS.has(tokens[i].lower) && tokens[i + 1]?.lower === 'between' && !endsFighting(tokens, i)) {
        const first = nearestAfter(inSentence, tokens, i + 2, 2);
        if (!first) continue;
        const and = first.endToken;
        if (tokens[and]?.lower !== 'and') continue;
        const second = nearestAfter(inSentence, tokens, and + 1, 2);
        if (second) add('OPPOSES', first.actor, second.actor, 0.75);
      }
    }
  }
  return relations;
}

/** What parties do jointly ("a joint patrol", "joint operations"). */
const JOINT_ACTIONS = new Set(['operation', 'operations', 'patrol', 'patrols', 'offensive', 'raid', 'raids', 'assault']);
/**
 * Words between coordinated parties and their joint action ("continue joint patrols", "on a joint patrol", "launched a joint operation"),
 * the parties' men included ("Malian soldiers and Wagner fighters on a joint patrol").
 */
const BEFORE_JOINT = new Set(['a', 'an', 'their', 'on', 'new', 'continue', 'continued', 'continues', 'conducted', 'conduct', 'launched', 'began', 'carried', 'out', 'held', 'mounted',
  'fighters', 'troops', 'soldiers', 'forces', 'units', 'members', 'personnel']);

/**
 * The allied pairs of the joint action whose "joint" is token `joint`: the parties coordinated right before it
 * ("the mission and the LAF continue joint patrols"), or, when no party comes before it, the party it is
 * "with" and the subject after it ("Last week, in a joint operation with the Tessin Guard, a local militia, the brigade cleared").
 * A single party before it is no pair: "Daesh attacked a joint patrol of the army" names the patrol's enemy.
 */
function jointParties(located: Located[], tokens: Token[], sentence: Sentence, joint: number): [Located, Located][] {
  let k = joint;
  // Lower-case words only: "Forces" ends a name ("the Lebanese Armed Forces continue joint patrols").
  while (k > sentence.firstToken && !tokens[k - 1].capitalised && (BEFORE_JOINT.has(tokens[k - 1].lower) || AUXILIARIES.has(tokens[k - 1].lower))) k--;
  if (tokens[k - 1]?.lower === 'in' && tokens[joint + 2]?.lower === 'with' && !located.some((l) => l.endToken < k)) {
    const [partner] = objectsAfter(located, tokens, joint + 3);
    if (!partner) return [];
    // The subject: the first party after a comma, past an apposition of plain words.
    for (let c = partner.endToken; c < Math.min(sentence.endToken, partner.endToken + 10); c++) {
      if (tokens[c].text !== ',') continue;
      const subject = located.find((l) => l.firstToken === c + 1 || (l.firstToken === c + 2 && tokens[c + 1].lower === 'the'));
      if (subject) return [[subject, partner]];
      if (located.some((l) => l.firstToken > c && l.firstToken < c + 4)) return [];
    }
    return [];
  }
  return pairsOf(located.find((l) => l.endToken === k) ? subjectsBefore(located, tokens, sentence, k) : []);
}

/**
 * The partners of the subject's joint action in the act at `cueFirst`: "In a joint operation with ATMIS troops, the SNA retook ...", "forces of
 * the CTS, in a joint operation with the Federal Police, cleared ...": the partner does the act with the subject. The phrase ("in a joint
 * <action> with") stands before the act, fronted or in apposition to the subject, with no other act or clause between.
 */
function jointPartners(located: Located[], tokens: Token[], sentence: Sentence, cueFirst: number, subjects: Located[]): Located[] {
  if (subjects.length === 0) return [];
  for (let k = cueFirst - 1; k > sentence.firstToken; k--) {
    if (HOSTILE_ACT_WORDS.has(tokens[k].lower) || OTHER_SUBJECT_OPENERS.has(tokens[k].lower)) return [];
    if (tokens[k].lower !== 'joint' || !JOINT_ACTIONS.has(tokens[k + 1]?.lower ?? '') || tokens[k + 2]?.lower !== 'with') continue;
    // "in a joint operation with": a phrase of the act; "which held a joint operation with" is a clause of its own.
    if (tokens[k - (['a', 'an'].includes(tokens[k - 1]?.lower ?? '') ? 2 : 1)]?.lower !== 'in') return [];
    return objectsAfter(located, tokens, k + 3).filter((partner) => partner.endToken <= cueFirst && !subjects.includes(partner));
  }
  return [];
}

/** Verbs of taking ground: what they take "from" a party, they take by fighting it. */
const TAKING_VERBS = new Set(['retook', 'retaken', 'retake', 'recaptured', 'recapture', 'captured', 'seized', 'regained', 'wrested', 'liberated']);
/** Words that end the taken thing's description before any "from": a clause, a subject or a purpose of its own. */
const TAKEN_ENDS = new Set([...OTHER_SUBJECT_OPENERS, 'and', 'but', 'to', 'by']);

/** Verbs of clearing ground: the party whose men they clear it "of", they fight. */
const CLEARING_VERBS = new Set(['cleared', 'clears', 'clearing']);

/**
 * The parties after "of" in "cleared <place> of X" ("cleared the camp of fighters of the SAF", "cleared Bora of RVM fighters"): the
 * first "of" after the cleared thing that a party follows, within the clause (at most 14 words on); none after a passive
 * ("was cleared of all charges") or straight after the verb. The bare "clear" is left out: it is mostly the adjective ("made it
 * clear that members of Hamas ...").
 */
function clearedOf(located: Located[], tokens: Token[], sentence: Sentence, verb: number): Located[] {
  if (PASSIVE.has(tokens[verb - 1]?.lower ?? '')) return [];
  const of = firstInClause(tokens, sentence, verb, (k) => tokens[k].lower === 'of' && k > verb + 1 && objectsAfter(located, tokens, k + 1).length > 0);
  return of === undefined ? [] : objectsAfter(located, tokens, of + 1);
}

/** How far after its verb a clause's object is looked for. */
const CLAUSE_REACH = 14;

/** The first token after `verb` that `wanted` takes, within CLAUSE_REACH words, or undefined when a TAKEN_ENDS word or the sentence comes first. */
function firstInClause(tokens: Token[], sentence: Sentence, verb: number, wanted: (k: number) => boolean): number | undefined {
  for (let k = verb + 1; k <= Math.min(sentence.endToken - 1, verb + CLAUSE_REACH); k++) {
    if (wanted(k)) return k;
    if (TAKEN_ENDS.has(tokens[k].lower)) return undefined;
  }
  return undefined;
}

/** Verbs of killing: the party whose fighters or commanders they kill, they fight. */
const KILLING_VERBS = new Set(['killed', 'kills', 'killing']);
/** A party's people whose killing is a fight with it ("five Islamic State fighters", "a senior commander of Hamas"); civilians are not. */
const COMBATANTS = new Set(['fighters', 'fighter', 'militants', 'militant', 'soldiers', 'soldier', 'troops', 'members', 'member', 'commanders', 'commander',
  'rebels', 'insurgents', 'operatives', 'gunmen', 'militiamen', 'jihadists', 'officers', 'officer', 'leader', 'leaders', 'personnel', 'emir']);
/** Words between "killed" and the people killed: counts and their qualifiers ("at least 14", "more than a dozen", "a senior"). */
const KILL_COUNT = new Set(['a', 'an', 'the', 'at', 'least', 'more', 'than', 'about', 'some', 'several', 'dozens', 'of', 'senior', 'top', 'local', 'suspected', 'alleged', 'and', 'wounded', 'captured']);

/**
 * The parties whose people the killing at `verb` hits: "killed five Islamic State fighters", "killed three Israeli soldiers",
 * "killed a senior commander of Hamas". None after a passive ("were killed"), nor when what is killed is no party's ("killed 40 civilians").
 */
function combatantsKilled(located: Located[], tokens: Token[], sentence: Sentence, verb: number): Located[] {
  if (PASSIVE.has(tokens[verb - 1]?.lower ?? '')) return [];
  // "condemned the killing of Hamas members": the noun names a killing, not the subject's act
  if (tokens[verb + 1]?.lower === 'of') return [];
  let k = verb + 1;
  while (k < sentence.endToken && k - verb <= 6 && (KILL_COUNT.has(tokens[k].lower) || isCount(tokens[k]))) k++;
  if (COMBATANTS.has(tokens[k]?.lower ?? '') && tokens[k + 1]?.lower === 'of') return objectsAfter(located, tokens, k + 2);
  const party = located.find((l) => l.firstToken === k);
  return party && (COMBATANTS.has(tokens[party.endToken]?.lower ?? '') || COMBATANTS.has(tokens[party.endToken - 1].lower)) ? [party] : [];
}

/**
 * The subjects of the verb at `verb`. A verb coordinated with an earlier one ("its forces had cleared the camp of SAF fighters
 * and had clashed with the Joint Forces") shares that verb's subjects (`earlier`, the last act read in the sentence), never
 * the name just before its "and", which ends the earlier verb's object; with no earlier act read, only a name an
 * intransitive verb stands between keeps it ("the RSF regrouped and attacked").
 */
function coordinatedVerb(located: Located[], tokens: Token[], sentence: Sentence, verb: number, earlier: Located[]): Located[] {
  let k = verb;
  while (k > sentence.firstToken && AUXILIARIES.has(tokens[k - 1].lower)) k--;
  const coordinated = tokens[k - 1]?.lower === 'and';
  if (coordinated && earlier.length > 0) return earlier;
  const subjects = subjectsBefore(located, tokens, sentence, verb);
  if (!coordinated) return subjects;
  const last = subjects[subjects.length - 1];
  return last && tokens.slice(last.endToken, k - 1).every((token) => !token.word) ? [] : subjects;
}

/** Where the party starts after "from" in "retook <place> from X", or none when the clause ends first (at most 14 words on). */
function takenFrom(tokens: Token[], sentence: Sentence, verb: number): number | undefined {
  const from = firstInClause(tokens, sentence, verb, (k) => tokens[k].lower === 'from');
  return from === undefined ? undefined : from + 1;
}

/** Nouns that end or suspend a fight: "the cessation of hostilities between X and Y" states a truce, not a fight. */
const FIGHT_ENDS = new Set(['cessation', 'end', 'ending', 'halt', 'pause', 'suspension', 'stop']);

/** Verbs that end or suspend a fight: "sought to stop the fighting between X and Y". */
const ENDING_VERBS = new Set(['stop', 'stops', 'stopped', 'stopping', 'halt', 'halts', 'halted', 'halting', 'end', 'ends', 'ended', 'ending',
  'cease', 'ceased', 'suspend', 'suspended', 'suspending']);
/** Words between a truce's word and the fighting noun: "a cessation of all hostilities", "an end to any further fighting". */
const BEFORE_FIGHTING_NOUN = new Set(['the', 'all', 'further', 'any', 'this', 'these']);

/** Whether the fighting noun at `noun` is what a truce ends ("cessation of all hostilities", "an end to the fighting", "stop the fighting"). */
function endsFighting(tokens: Token[], noun: number): boolean {
  let before = noun - 1;
  while (before > noun - 3 && BEFORE_FIGHTING_NOUN.has(tokens[before]?.lower ?? '')) before--;
  const word = tokens[before]?.lower ?? '';
  return ENDING_VERBS.has(word) || (['of', 'to', 'in'].includes(word) && FIGHT_ENDS.has(tokens[before - 1]?.lower ?? ''));
}

const FIGHT_WORDS = new Set(['fight', 'fights', 'fought', 'fighting']);

/** "fought with the army" is as often beside it as against it: a fight "with" someone states no side. */
export function fightsWith(tokens: Token[], i: number): boolean {
  return FIGHT_WORDS.has(tokens[i].lower) && tokens[i + 1]?.lower === 'with';
}

/** "committed to supporting the Sudanese people": a people is supported with aid or sympathy, and takes no side by it. */
function supportsPopulation(type: RelationMention['type'], supported: ActorMention): boolean {
  return type === 'ALLIED_WITH' && supported.actor_type === 'community';
}

function endsTies(tokens: Token[], sentence: Sentence): boolean {
  const words = ` ${tokens.slice(sentence.firstToken, sentence.endToken).map((token) => token.lower).join(' ')} `;
  return ENDED_TIES.some((phrase) => words.includes(` ${phrase} `));
}

function cueText(tokens: Token[], cue: { firstToken: number; endToken: number }): string {
  return tokens.slice(cue.firstToken, cue.endToken).map((token) => token.lower).join(' ');
}

/** "has never backed", "denies supporting", "threatened to strike": the words before the cue, in its clause, deny it or make it a possibility. */
export function deniedOrHypothetical(tokens: Token[], sentence: Sentence, cueFirst: number): boolean {
  for (let k = cueFirst - 1; k >= Math.max(sentence.firstToken, cueFirst - 12); k--) {
    const word = tokens[k].lower;
    if (word === ';' || word === 'said' || word === 'but') return false;
    if (cueFirst - k <= 3 && NEGATORS.has(word)) return true;
    if (DENYING.test(word) || HYPOTHETICAL.has(word)) return true;
  }
  return false;
}

/** The actors after "against" following an alliance's last party (within a few words, in the clause): the allies' common enemy. */
function enemiesAfter(located: Located[], tokens: Token[], index: number): Located[] {
  for (let k = index; k < Math.min(index + 4, tokens.length); k++) {
    if (tokens[k].lower === 'against') return objectsAfter(located, tokens, k + 1);
    if (!tokens[k].word || crossesClause(tokens, k, k + 1)) return [];
  }
  return [];
}

/**
 * The subjects of the verb at `cueFirst`: the actor before it (past auxiliaries and adverbs, and past an
 * apposition: "the M23, backed by Rwanda, attacked" is the M23's act) with those coordinated with it.
 */
function subjectsBefore(located: Located[], tokens: Token[], sentence: Sentence, cueFirst: number): Located[] {
  let k = cueFirst;
  while (k > sentence.firstToken && AUXILIARIES.has(tokens[k - 1].lower)) k--;
  let subject: Located | undefined;
  if (tokens[k - 1]?.text === ',') {
    for (let c = k - 2; c > Math.max(sentence.firstToken, k - 20); c--) {
      if (tokens[c].text !== ',') continue;
      // "People's Defence Force units, loyal to the NUG, fought": the name before the apposition, a plain noun after it allowed.
      subject = located.find((l) => l.endToken === c || (l.endToken === c - 1 && tokens[c - 1].word && !tokens[c - 1].capitalised));
      if (!subject && located.some((l) => l.firstToken > c && l.endToken < k)) return [];
      break;
    }
  }
  // "The ministry accused Dunmaria of supplying": past an unknown name or a verb of speech, the actor before is not the cue's subject.
  subject ??= nearestBefore(located, tokens, k, 3, (token) => (!token.capitalised || CALENDAR_WORDS.test(token.lower)) && !SPEECH_VERBS.test(token.lower));
  // "Kataib Hezbollah, an Iran-backed militia, said it had launched": a pronoun subject of a speaker's report is the speaker.
  if (subject?.actor.reference === 'pronoun') subject = reportingSpeaker(located, tokens, sentence, subject.firstToken) ?? subject;
  // "In Sudan, fighting spread": a name after a place preposition is no subject.
  if (!subject || LOCATIVE.has(tokens[subject.firstToken - (tokens[subject.firstToken - 1]?.lower === 'the' ? 2 : 1)]?.lower ?? '')) return [];
  const subjects = [subject];
  // "the regime and Hezbollah, which fights": a relative clause is the last name's alone.
  if (tokens.slice(subject.endToken, k).some((token) => RELATIVE_PRONOUNS.has(token.lower))) return subjects;
  // "Rwandan troops and M23 fighters", "X, Y and the Z": back along the list while it is one.
  let link = subject.firstToken - (tokens[subject.firstToken - 1]?.lower === 'the' ? 1 : 0);
  let first = true;
  for (;;) {
    const joiner = tokens[link - 1]?.lower;
    if (joiner !== 'and' && !(joiner === ',' && !first)) break;
    const previous = located.find((l) => l.endToken <= link - 1 && link - 1 - l.endToken <= 2 && tokens.slice(l.endToken, link - 1).every((t) => t.word && !t.capitalised && !AUXILIARIES.has(t.lower)));
    if (!previous) break;
    subjects.unshift(previous);
    link = previous.firstToken - (tokens[previous.firstToken - 1]?.lower === 'the' ? 1 : 0);
    first = false;
  }
  return subjects;
}

/** Verbs by which a speaker reports its own act ("X said it had struck Y"). */
const OWN_REPORT_VERBS = new Set(['said', 'says', 'stated', 'states', 'announced', 'announces', 'claimed', 'claims', 'confirmed', 'confirms', 'added', 'reported']);

/** The named speaker of the report a pronoun at `pronounFirst` opens ("X said (that) it"), or none. */
function reportingSpeaker(located: Located[], tokens: Token[], sentence: Sentence, pronounFirst: number): Located | undefined {
  let verb = pronounFirst - 1;
  if (tokens[verb]?.lower === 'that') verb--;
  if (!OWN_REPORT_VERBS.has(tokens[verb]?.lower ?? '')) return undefined;
  const speakers = subjectsBefore(located, tokens, sentence, verb);
  return speakers.length === 1 && !speakers[0].actor.reference ? speakers[0] : undefined;
}

/** The named speaker a pronoun mention stands for when it opens that speaker's report of its own act ("X said it had struck"), or none. */
export function speakerOfPronoun(tokens: Token[], sentences: Sentence[], actors: ActorMention[], pronoun: TextSpan): ActorMention | undefined {
  if (actors.find((actor) => actor.start === pronoun.start)?.reference !== 'pronoun') return undefined;
  const first = tokenIndexAt(tokens, pronoun.start);
  const sentence = sentences.find((candidate) => candidate.firstToken <= first && first < candidate.endToken);
  if (!sentence) return undefined;
  const located = actors.map((actor) => ({ actor, firstToken: tokenIndexAt(tokens, actor.start), endToken: tokenIndexAt(tokens, actor.end) }))
    .filter((l) => l.firstToken >= sentence.firstToken && l.endToken <= sentence.endToken);
  return reportingSpeaker(located, tokens, sentence, first)?.actor;
}

/** The objects of a cue ending before `index`: the actor after it, and those coordinated with it unless they start a clause of their own. */
function objectsAfter(located: Located[], tokens: Token[], index: number): Located[] {
  const object = nearestAfter(located, tokens, index, 3);
  if (!object || tokens.slice(index, object.firstToken).some((token) => !OBJECT_GAP.has(token.lower))) return [];
  const objects = [object];
  for (;;) {
    let k = objects[objects.length - 1].endToken;
    while (tokens[k]?.word && !tokens[k].capitalised && tokens[k].lower !== 'and' && k - objects[objects.length - 1].endToken < 2) k++;
    if (tokens[k]?.lower !== 'and' && tokens[k]?.text !== ',') break;
    // "attacked by Daesh, and the UK stands with Turkey": after one name, ", and" opens a clause (a list's comma comes before its second name).
    if (objects.length === 1 && tokens[k].text === ',' && tokens[k + 1]?.lower === 'and') break;
    let next = k + 1;
    if (tokens[next]?.lower === 'and') next++;
    if (tokens[next]?.lower === 'the') next++;
    const further = located.find((l) => l.firstToken === next);
    if (!further || opensClause(tokens[further.endToken])) break;
    objects.push(further);
  }
  return objects;
}

/** A finite verb after a coordinated name makes it a new clause's subject ("attacked the SAF and the UN condemned it"). */
function opensClause(token: Token | undefined): boolean {
  return token !== undefined && !token.capitalised && (/ed$/.test(token.lower) || ['said', 'says', 'is', 'was', 'has', 'had', 'have', 'will', 'would', 'are', 'were'].includes(token.lower));
}

/**
 * "The UN said the RSF attacked the SAF": the RSF opposes the SAF as the UN reports it, and the UN is no
 * party. Such a relation's span is its whole sentence, so that its provenance quote names who reports it.
 */
export function quoteReportedRelations(text: string, sentences: Sentence[], relations: RelationMention[]): void {
  for (const relation of relations) {
    if (relation.type === 'MEMBER_OF') continue;
    const sentence = sentences.find((candidate) => candidate.start <= relation.start && relation.end <= candidate.end);
    if (!sentence) continue;
    const reported = [...text.slice(sentence.start, sentence.end).matchAll(REPORTING)].some((match) => {
      const at = sentence.start + match.index;
      return at + match[0].length <= relation.start || at >= relation.end;
    });
    if (reported) Object.assign(relation, { start: sentence.start, end: sentence.end });
  }
}

/** The end of a one- or two-word phrase of `phrases` starting at token `i`. */
function phraseAt(tokens: Token[], i: number, phrases: Set<string>): number | undefined {
  if (phrases.has(`${tokens[i].lower} ${tokens[i + 1]?.lower}`)) return i + 2;
  return phrases.has(tokens[i].lower) ? i + 1 : undefined;
}

/** Where the subject of "X and Y formed a coalition" ends: before the forming verb, or -1 when there is none. */
function formingVerbBefore(tokens: Token[], noun: number): number {
  let k = noun - 1;
  while (k >= 0 && ['a', 'an', 'the', 'new', 'joint', 'military', 'political', 'their', 'an'].includes(tokens[k].lower)) k--;
  if (k >= 0 && FORMING_VERBS.has(tokens[k].lower)) return k;
  if (k >= 1 && FORMING_VERBS.has(`${tokens[k - 1].lower} ${tokens[k].lower}`)) return k - 1;
  return -1;
}

/** "X, Y and the Z" starting at token `index`: the actors of a list, in order (fewer than two is no list). */
function listAfter(located: Located[], tokens: Token[], index: number): Located[] {
  const members: Located[] = [];
  let k = index;
  for (;;) {
    if (tokens[k]?.lower === 'the') k++;
    const member = located.find((l) => l.firstToken === k);
    if (!member) break;
    members.push(member);
    k = member.endToken;
    if (tokens[k]?.text === ',') k++;
    if (tokens[k]?.lower === 'and') k++;
    else if (tokens[k - 1]?.text !== ',') break;
  }
  return members.length > 1 ? members : [];
}

/** The actors of a list ending just before token `index` ("X, Y and Z | formed"). */
function listBefore(located: Located[], tokens: Token[], index: number): Located[] {
  if (index < 0) return [];
  const members: Located[] = [];
  let k = index;
  for (;;) {
    const member = located.find((l) => l.endToken === k);
    if (!member) break;
    members.unshift(member);
    k = member.firstToken;
    if (tokens[k - 1]?.lower === 'the') k--;
    if (tokens[k - 1]?.lower === 'and') k--;
    else if (tokens[k - 1]?.text !== ',') break;
    if (tokens[k - 1]?.text === ',') k--;
  }
  return members.length > 1 ? members : [];
}

/** The actor mention ending closest before `index`, with at most `gap` tokens (commas, "which is") between, each of them `passable`. */
function nearestBefore(located: Located[], tokens: Token[], index: number, gap: number, passable: (token: Token) => boolean = () => true): Located | undefined {
  return located
    .filter((l) => l.endToken <= index && index - l.endToken <= gap && !crossesClause(tokens, l.endToken, index) && tokens.slice(l.endToken, index).every(passable))
    .sort((a, b) => b.endToken - a.endToken)[0];
}

function nearestAfter(located: Located[], tokens: Token[], index: number, gap: number): Located | undefined {
  return located.filter((l) => l.firstToken >= index && l.firstToken - index <= gap && !crossesClause(tokens, index, l.firstToken)).sort((a, b) => a.firstToken - b.firstToken)[0];
}

function crossesClause(tokens: Token[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (tokens[i].text === ';' || tokens[i].lower === 'said' || tokens[i].lower === 'while') return true;
  return false;
}

function sameActor(a: ActorMention, b: ActorMention): boolean {
  return a.canonical !== undefined && a.canonical === b.canonical;
}

function span(actor: ActorMention) {
  return { start: actor.start, end: actor.end };
}

/**
 * Whether the mention at `end` is a pronoun or a description (an object: "fought the group") whose antecedent's sentence also names,
 * before it, another actor of the antecedent's type ("Hezbollah killed five members of Jabhat al-Nusra. The army, which has also
 * fought the group, ..."): coreference takes the subject there, but an enmity read through such a
 * reference is a guess between two parties, and a false OPPOSES misleads more than a missing one. Only the reference's own
 * choice is that guess: where its antecedent is itself a reference, that one was settled by its own sentence.
 */
export function referenceUnsure(actors: readonly ActorMention[], sentenceAt: (position: number) => TextSpan | undefined, end: TextSpan, otherEnd?: TextSpan): boolean {
  const identity = (actor: ActorMention) => actor.canonical ?? actor.text;
  // The relation's other party is no candidate: nothing fights itself.
  const other = actors.find((actor) => actor.start === otherEnd?.start);
  const mention = actors.find((actor) => actor.start === end.start && actor.reference);
  const antecedent = mention?.antecedent && actors.find((actor) => actor.start === mention.antecedent!.start);
  const sentence = antecedent && sentenceAt(antecedent.start);
  if (!mention || !antecedent || !sentence) return false;
  return actors.some((actor) => !actor.reference && actor.start >= sentence.start && actor.end <= mention.start && actor.actor_type === antecedent.actor_type &&
    identity(actor) !== identity(antecedent) && !(other && identity(actor) === identity(other)));
}

