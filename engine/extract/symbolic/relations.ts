import type { ActorMention, RelationMention } from '../types.ts';
import { PhraseIndex } from './phrases.ts';
import { tokenIndexAt, tokenize, type Sentence, type Token } from './text.ts';

/**
 * Relations between actor mentions of one sentence, from the words between them:
 * MEMBER_OF ("X of the Y", "X, a commander of Y", "Y commander X", "Y's leader X"),
 * ALLIED_WITH ("Iran-backed Houthis", "X, backed by Y", "allied with", "a coalition of X, Y and Z",
 * "X and Y formed an alliance"), OPPOSES
 * ("clashes between X and Y", "X fighting Y", "against").
 */

/** Words that make the person before "of/for" a member of the organisation after it. */
const MEMBERSHIP_ROLES = new Set([
  'commander', 'commanders', 'leader', 'leaders', 'head', 'chief', 'spokesman', 'spokeswoman', 'spokesperson', 'member',
  'members', 'founder', 'chairman', 'chairperson', 'president', 'deputy', 'official', 'officials', 'officer', 'minister',
  'envoy', 'representative', 'general', 'colonel', 'fighter', 'fighters', 'faction', 'wing', 'unit', 'affiliate',
  'part', 'branch', 'negotiator', 'negotiators', 'secretary-general', 'chief-of-staff', 'emir', 'boss', 'ally',
]);
const MODIFIERS = new Set([
  'a', 'an', 'the', 'senior', 'top', 'deputy', 'military', 'political', 'local', 'regional', 'field', 'former', 'chief',
  'its', 'their', 'his', 'her', 'armed', 'special', 'foreign', 'defence', 'defense', 'de', 'facto', 'supreme', 'overall',
]);

const ALLIANCE_BEFORE_CUES = ['allied with', 'allied to', 'aligned with', 'backed by', 'supported by', 'armed by',
  'funded by', 'sponsored by', 'in alliance with', 'an ally of', 'allies of', 'joined forces with', 'fighting alongside',
  'fought alongside', 'alongside', 'and its allies', 'and its ally', 'together with', 'in coalition with', 'a proxy of',
  'proxies of', 'an alliance with', 'alliance with', 'a coalition with', 'which is backed by', 'which are backed by', 'which is supported by'];
const ALLIANCE_HYPHEN_WORDS = new Set(['backed', 'aligned', 'allied', 'supported', 'sponsored', 'funded', 'armed', 'trained', 'led', 'installed']);
const OPPOSITION_CUES = ['fighting', 'fought', 'fights', 'clashed with', 'clashing with', 'clashes with', 'battled',
  'battling', 'against', 'at war with', 'fighting against', 'opposed to', 'opposes', 'opposing', 'resisting', 'resisted',
  'in conflict with', 'hostile to'];
const BETWEEN_NOUNS = new Set(['clashes', 'fighting', 'war', 'battle', 'battles', 'conflict', 'hostilities', 'confrontation',
  'confrontations', 'skirmishes', 'tensions', 'fight', 'combat']);

/** Nouns of a coalition: its members, listed after "of" or before a forming verb, are allies. */
const COALITION_NOUNS = new Set(['coalition', 'alliance', 'pact', 'bloc', 'joint command', 'joint force', 'joint forces']);
const FORMING_VERBS = new Set(['formed', 'form', 'forming', 'forms', 'created', 'create', 'announced', 'signed', 'established', 'launched', 'set up', 'joined in']);

let allianceIndex: PhraseIndex<true> | undefined;
let oppositionIndex: PhraseIndex<true> | undefined;

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
  const add = (type: RelationMention['type'], from: ActorMention, to: ActorMention, confidence: number) => {
    if (from.start === to.start || sameActor(from, to)) return;
    if (relations.some((r) => r.type === type && r.from.start === from.start && r.to.start === to.start)) return;
    const start = Math.min(from.start, to.start);
    const end = Math.max(from.end, to.end);
    relations.push({ type, start, end, from: span(from), to: span(to), confidence });
  };
  for (const sentence of sentences) {
    const inSentence = located.filter((l) => l.firstToken >= sentence.firstToken && l.endToken <= sentence.endToken);
    const startingAt = (index: number) => inSentence.find((l) => l.firstToken === index);
    const endingAt = (index: number) => inSentence.find((l) => l.endToken === index);
    for (const member of inSentence) {
      // "X of the Y", "X, a senior commander of Y", "X, the head of Y"
      let k = member.endToken;
      if (tokens[k]?.text === ',') k++;
      let sawRole = false;
      while (k < sentence.endToken && (MODIFIERS.has(tokens[k].lower) || MEMBERSHIP_ROLES.has(tokens[k].lower)) && k - member.endToken < 6) {
        sawRole ||= MEMBERSHIP_ROLES.has(tokens[k].lower);
        k++;
      }
      const direct = k === member.endToken;
      if (['of', 'for', 'in', 'with'].includes(tokens[k]?.lower ?? '') && (sawRole || (direct && tokens[k].lower === 'of'))) {
        let g = k + 1;
        if (tokens[g]?.lower === 'the') g++;
        const group = startingAt(g);
        if (group && ORGANISATION_TYPES.has(group.actor.actor_type) && (member.actor.actor_type === 'individual' || sawRole)) {
          add('MEMBER_OF', member.actor, group.actor, direct ? 0.8 : 0.75);
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
      // "Iran-backed Houthis": Houthis ALLIED_WITH Iran
      m = member.endToken;
      if (tokens[m]?.text === '-' && ALLIANCE_HYPHEN_WORDS.has(tokens[m + 1]?.lower ?? '')) {
        for (let g = m + 2; g < Math.min(m + 5, sentence.endToken); g++) {
          const ally = startingAt(g);
          if (ally) {
            add('ALLIED_WITH', ally.actor, member.actor, 0.75);
            break;
          }
        }
      }
    }
    for (let i = sentence.firstToken; i < sentence.endToken; i++) {
      for (const [index, type] of [[allianceIndex, 'ALLIED_WITH'], [oppositionIndex, 'OPPOSES']] as const) {
        const [cue] = index.matchesAt(tokens, i, sentence.endToken);
        if (!cue) continue;
        const left = nearestBefore(inSentence, tokens, cue.firstToken, 3);
        const right = nearestAfter(inSentence, tokens, cue.endToken, 3);
        if (left && right) add(type, left.actor, right.actor, 0.65);
      }
      // "a coalition of X, Y and Z", "X and Y formed an alliance": every pair of members.
      const coalitionEnd = phraseAt(tokens, i, COALITION_NOUNS);
      if (coalitionEnd !== undefined) {
        const members = tokens[coalitionEnd]?.lower === 'of' ? listAfter(inSentence, tokens, coalitionEnd + 1) : listBefore(inSentence, tokens, formingVerbBefore(tokens, i));
        for (let a = 0; a < members.length; a++) for (let b = a + 1; b < members.length; b++) add('ALLIED_WITH', members[a].actor, members[b].actor, 0.7);
      }
      // "clashes between X and Y"
      if (BETWEEN_NOUNS.has(tokens[i].lower) && tokens[i + 1]?.lower === 'between') {
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

/** The actor mention ending closest before `index`, with at most `gap` tokens (commas, "which is") between. */
function nearestBefore(located: Located[], tokens: Token[], index: number, gap: number): Located | undefined {
  return located.filter((l) => l.endToken <= index && index - l.endToken <= gap && !crossesClause(tokens, l.endToken, index)).sort((a, b) => b.endToken - a.endToken)[0];
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
