import type { EventType, ParticipationRole } from '../../ontology/index.ts';
import type { ActorMention, ClaimMention, DateMention, EventMention, LocationMention, RelationMention, TextSpan } from '../types.ts';
import { claimUnits } from './claims.ts';
import { PhraseIndex } from './phrases.ts';
import { FORCE_PEOPLE } from './references.ts';
import { clauses, spanContains, tokenIndexAt, type Sentence, type Token } from './text.ts';

/**
 * Events from verbs (and a few nouns) mapped to PLOVER types. Participants come
 * from the syntax around the trigger: the subject before it is the perpetrator,
 * the object after it the target, "by X" after a passive the perpetrator; the
 * location is a place after "in/at/near/on" or the place the verb acts on; the
 * date is the date mention of the sentence nearest the trigger, a later coordinated
 * act's date aside.
 */

/** Base verbs per PLOVER type; inflections are generated, irregular forms listed. */
const EVENT_VERBS: Record<EventType, string[]> = {
  ASSAULT: ['attack', 'shell', 'bomb', 'bombard', 'kill', 'strike|struck|striking|strikes', 'shoot|shot|shooting|shoots',
    'raid', 'ambush', 'massacre', 'storm', 'invade', 'capture', 'seize', 'overrun|overran|overrunning|overruns', 'execute',
    'abduct', 'kidnap|kidnapped|kidnapping|kidnaps', 'loot', 'torch', 'burn', 'target', 'fire on|fired on|firing on',
    'open fire|opened fire|opening fire', 'clash', 'fight|fought|fighting|fights', 'wound', 'injure', 'assault', 'besiege',
    'take control of|took control of|taken control of|taking control of', 'launch attacks|launched attacks|launched an attack|launched a attack|launched strikes|launched airstrikes|launched drone strikes|launched missiles|launched an offensive',
    'carry out strikes|carried out strikes|carried out airstrikes|carried out an attack', 'hit|hit|hitting|hits', 'destroy', 'rape', 'behead'],
  COERCE: ['arrest', 'detain', 'blockade', 'expel', 'deport', 'impose a curfew|imposed a curfew', 'ban|banned|banning|bans',
    'confiscate', 'evict', 'censor', 'cut off|cut off|cutting off|cuts off', 'shut down|shut down|shutting down|shuts down',
    'lay siege to|laid siege to', 'forcibly recruit', 'conscript', 'round up|rounded up', 'jail', 'imprison', 'torture', 'displace'],
  MOBILIZE: ['mobilise', 'mobilize', 'deploy', 'amass', 'reinforce', 'recruit', 'send troops|sent troops|sending troops',
    'mass troops|massed troops', 'call up|called up'],
  THREATEN: ['threaten', 'issue an ultimatum|issued an ultimatum'],
  PROTEST: ['protest', 'demonstrate', 'rally|rallied|rallying|rallies', 'march', 'take to the streets|took to the streets',
    'walk out|walked out', 'go on strike|went on strike'],
  SANCTION: ['sanction', 'impose sanctions|imposed sanctions|imposing sanctions', 'freeze assets|froze assets|froze the assets',
    'embargo', 'suspend aid|suspended aid', 'cut ties|cut ties|cutting ties', 'recall its ambassador|recalled its ambassador',
    'expel diplomats|expelled diplomats', 'suspend membership|suspended membership'],
  AGREE: ['agree|agreed|agreeing|agrees', 'sign', 'ratify|ratified|ratifying|ratifies', 'reach an agreement|reached an agreement|reached a deal|reached a ceasefire',
    'conclude a deal|concluded a deal', 'accept', 'strike a deal|struck a deal|struck an agreement'],
  CONSULT: ['meet|met|meeting|meets', 'hold talks|held talks|holding talks|holds talks', 'negotiate', 'visit', 'host talks|hosted talks',
    'discuss', 'mediate', 'telephone', 'convene'],
  RETREAT: ['withdraw|withdrew|withdrawn|withdrawing|withdraws', 'hand over|handed over|handing over', 'retreat', 'pull out|pulled out|pulling out|pulls out',
    'pull back|pulled back|pulling back', 'release', 'free|freed|freeing|frees', 'disarm', 'demobilise', 'demobilize', 'evacuate'],
  CONCEDE: ['concede', 'surrender', 'yield', 'lift the blockade|lifted the blockade', 'lift the siege|lifted the siege',
    'ease restrictions|eased restrictions', 'declare a ceasefire|declared a ceasefire', 'halt|halted|halting|halts'],
  SUPPORT: ['endorse', 'recognise', 'recognize'],
  COOPERATE: ['cooperate', 'collaborate', 'coordinate', 'join forces|joined forces', 'exchange prisoners|exchanged prisoners'],
  AID: ['deliver aid|delivered aid|delivering aid', 'provide aid|provided aid', 'donate', 'supply|supplied|supplying|supplies', 'airlift',
    'send aid|sent aid', 'provide weapons|provided weapons'],
  // Demands, accusations and refusals said in words are claims (../claims.ts); these are the acts.
  REQUEST: ['apply for|applied for|applying for|applies for', 'file a request|filed a request', 'seek asylum|sought asylum'],
  ACCUSE: ['file a complaint|filed a complaint', 'file charges|filed charges', 'indict', 'sue|sued|suing|sues'],
  REJECT: ['veto|vetoed|vetoing|vetoes', 'walk out of|walked out of', 'suspend negotiations|suspended negotiations|suspended talks|suspend talks',
    'halt talks|halted talks|halted negotiations', 'boycott',
    'withdraw from the agreement|withdrew from the agreement|withdraw from the treaty|withdrew from the treaty|withdraw from the deal|withdrew from the deal|withdrew from talks|withdrew from the talks|withdrew from the negotiations'],
  // A court's decision; "ruled out" is no ruling, so "rule" takes what follows it.
  ADJUDICATE: ['rule that|ruled that|ruling that|rules that', 'rule in favour of|ruled in favour of|ruled in favor of|rules in favour of|rules in favor of',
    'rule against|ruled against|ruling against|rules against', 'issue a ruling|issued a ruling|issued its ruling|issued a verdict|issued its verdict',
    'deliver a verdict|delivered a verdict|delivered its verdict|delivered a ruling|delivered its ruling',
    'hand down a ruling|handed down a ruling|handed down its ruling|handed down a verdict|handed down a sentence|handed down sentences',
    'convict', 'acquit|acquitted|acquitting|acquits', 'sentenced|sentencing', 'overturn',
    'upheld the ruling|upheld the verdict|upheld the conviction|upheld the sentence|upheld the decision|upheld the ban',
    'strike down|struck down|striking down|strikes down', 'annul'],
  LEGISLATE: ['pass a law|passed a law|passing a law|passes a law', 'pass the law|passed the law', 'pass a bill|passed a bill|passed the bill|passes a bill',
    'pass legislation|passed legislation|passing legislation', 'enact', 'adopt a law|adopted a law|adopted the law|adopted legislation|adopted a bill',
    'approve a law|approved a law|approved the law|approved a bill|approved the bill|approved legislation', 'amend the constitution|amended the constitution',
    'promulgate', 'sign into law|signed into law|signed the bill into law|signed the law'],
};

/** Nouns that report an event without a verb ("an airstrike on", "clashes in"): lower confidence. */
const EVENT_NOUNS: [string, EventType][] = [
  ['airstrike', 'ASSAULT'], ['airstrikes', 'ASSAULT'], ['air strike', 'ASSAULT'], ['air strikes', 'ASSAULT'],
  ['drone strike', 'ASSAULT'], ['drone strikes', 'ASSAULT'], ['drone attack', 'ASSAULT'], ['shelling', 'ASSAULT'],
  ['bombardment', 'ASSAULT'], ['clashes', 'ASSAULT'], ['offensive', 'ASSAULT'], ['massacre', 'ASSAULT'],
  ['attack on', 'ASSAULT'], ['attacks on', 'ASSAULT'], ['assault on', 'ASSAULT'], ['siege of', 'COERCE'],
  ['blockade of', 'COERCE'], ['protests', 'PROTEST'], ['peace talks', 'CONSULT'], ['ceasefire talks', 'CONSULT'],
  ['peace deal', 'AGREE'], ['ceasefire agreement', 'AGREE'], ['peace agreement', 'AGREE'], ['sanctions on', 'SANCTION'],
  ['court ruling', 'ADJUDICATE'], ['arbitration award', 'ADJUDICATE'],
];

/** Claims whose content may report real events ("Ankara said the operation targeted terrorists"). */
const UNREALISED_CLAIMS_EXCLUDED = new Set(['Position', 'Justification', 'Grievance']);

/** Types whose subject acts on its object; for the others both sides are participants. */
const DIRECTED: Set<EventType> = new Set(['ASSAULT', 'COERCE', 'THREATEN', 'SANCTION', 'ACCUSE', 'REJECT', 'REQUEST', 'AID', 'SUPPORT', 'PROTEST', 'ADJUDICATE', 'LEGISLATE']);
const PASSIVE_AUXILIARIES = new Set(['was', 'were', 'been', 'being', 'is', 'are', 'be', 'got']);
const LOCATIVE = new Set(['in', 'at', 'near', 'on', 'outside', 'around', 'across', 'into', 'inside', 'towards', 'toward', 'throughout', 'from', 'of', 'to']);
/** Words before a trigger that mean the event did not (yet) happen: a claim, not an event. */
const IRREALIS = new Set(['not', "n't", 'never', 'to', 'would', 'will', 'could', 'might', 'may', 'shall', 'should', 'must', 'denied', 'deny', 'threatened', 'vowed']);

function inflect(base: string): string[] {
  if (base.includes('|')) return base.split('|');
  const [verb, ...rest] = base.split(' ');
  const tail = rest.length ? ' ' + rest.join(' ') : '';
  const forms = new Set([verb]);
  if (verb.endsWith('e')) forms.add(verb + 'd').add(verb.slice(0, -1) + 'ing').add(verb + 's');
  else if (/[^aeiou]y$/.test(verb)) forms.add(verb.slice(0, -1) + 'ied').add(verb + 'ing').add(verb.slice(0, -1) + 'ies');
  else if (/(?:ss|sh|ch|x)$/.test(verb)) forms.add(verb + 'ed').add(verb + 'ing').add(verb + 'es');
  else if (/^(?:ban|bomb|shell|target|kidnap|jail)$/.test(verb) || !/[^aeiou][aeiou][bdgmnprt]$/.test(verb) || verb.length > 6) {
    forms.add(verb + 'ed').add(verb + 'ing').add(verb + 's');
  } else {
    const last = verb[verb.length - 1];
    forms.add(verb + last + 'ed').add(verb + last + 'ing').add(verb + 's');
  }
  return [...forms].map((form) => form + tail);
}

let triggerIndex: PhraseIndex<{ type: EventType; noun: boolean }> | undefined;

function triggers(): PhraseIndex<{ type: EventType; noun: boolean }> {
  if (triggerIndex) return triggerIndex;
  const index = new PhraseIndex<{ type: EventType; noun: boolean }>();
  for (const [type, verbs] of Object.entries(EVENT_VERBS) as [EventType, string[]][]) {
    for (const verb of verbs) for (const form of inflect(verb)) index.add(form, { type, noun: false });
  }
  for (const [noun, type] of EVENT_NOUNS) index.add(noun, { type, noun: true });
  triggerIndex = index;
  return index;
}

export function findEvents(
  text: string,
  tokens: Token[],
  sentences: Sentence[],
  actors: ActorMention[],
  locations: LocationMention[],
  dates: DateMention[],
  relations: RelationMention[],
  claims: ClaimMention[],
): EventMention[] {
  const events: EventMention[] = [];
  // Acts inside accusations, denials, demands, threats, offers and pledges are what someone says, not what happened.
  const insideClaims = claims.filter((claim) => !UNREALISED_CLAIMS_EXCLUDED.has(claim.type)).map((claim) => ({ start: claim.cue.end, end: claim.end }));
  const named = [...actors, ...locations, ...dates].map((mention) => ({ start: mention.start, end: mention.end }));
  for (const sentence of sentences) {
    const sentenceDates = dates.filter((date) => spanContains(sentence, date));
    for (const clause of clauses(tokens, sentence)) {
      const units = claimUnits(tokens, clause);
      for (let i = clause.firstToken; i < clause.endToken; i++) {
        const [match] = triggers().matchesAt(tokens, i, clause.endToken);
        if (!match) continue;
        const trigger = { start: tokens[i].start, end: tokens[match.endToken - 1].end };
        i = match.endToken - 1;
        // A trigger inside a name or date ("March" in "3 March") is no event.
        if (named.some((span) => span.start <= trigger.start && trigger.end <= span.end)) continue;
        if (IRREALIS.has(tokens[match.firstToken - 1]?.lower ?? '') || IRREALIS.has(tokens[match.firstToken - 2]?.lower ?? '') && tokens[match.firstToken - 1]?.lower === 'not') continue;
        if (!match.value.noun && usedOtherwise(tokens, match.firstToken, match.endToken)) continue;
        // A capitalised verb inside a sentence is a name or a month the dates did not resolve ("On 3 March the M23 ..."), not an act.
        if (!match.value.noun && tokens[match.firstToken].capitalised && match.firstToken !== sentence.firstToken) continue;
        const gerund = tokens[match.firstToken].lower.endsWith('ing');
        const previous = tokens[match.firstToken - 1]?.lower ?? '';
        // "accused the RSF of shelling": the act lives inside a claim. ", killing 12": the same episode as the verb before.
        if (gerund && (previous === 'of' || previous === 'for' || (previous === ',' && events.some((e) => spanContains(clause, e.trigger))))) continue;
        if (insideClaims.some((claim) => spanContains(claim, trigger))) continue;
        // What follows the trigger is its own up to the next coordinated act ("met X | and said ...",
        // "attacked A, | and on 25 October attacked B"); its subject may come before, in the clause.
        const unit = units.find((candidate) => candidate.firstToken <= match.firstToken && match.firstToken < candidate.endToken)!;
        const scope = { ...clause, end: unit.end, endToken: unit.endToken };
        const event = buildEvent(
          text, tokens, scope, match.firstToken, match.endToken, match.value, trigger,
          actors.filter((actor) => spanContains(scope, actor)), locations.filter((location) => spanContains(scope, location)),
          sentenceDates.filter((date) => date.start < scope.end), relations,
        );
        if (event) events.push(event);
      }
    }
  }
  return events;
}

/** Determiners before a verb trigger make it a noun ("the next steps for the release of"), not an act. */
const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'our', 'next', 'any', 'this', 'that', 'for', 'of']);
const COPULAS = new Set(['be', 'being', 'been', 'is', 'are', 'was', 'were', 'remain', 'remained', 'feel', 'felt']);

/**
 * A trigger word used as something else: a noun after a determiner ("the release of"),
 * an adjective ("being free from", "free of"). Event nouns are listed on their own.
 */
function usedOtherwise(tokens: Token[], first: number, end: number): boolean {
  if (DETERMINERS.has(tokens[first - 1]?.lower ?? '')) return true;
  if (pluralAfterAttributiveName(tokens, first)) return true;
  return tokens[first].lower === 'free' && end === first + 1 && (COPULAS.has(tokens[first - 1]?.lower ?? '') || ['from', 'of'].includes(tokens[end]?.lower ?? ''));
}

const PREPOSITIONS = new Set(['on', 'against', 'at', 'near', 'in', 'from', 'of', 'with', 'to', 'toward', 'towards']);

/** "strikes on Hezbollah targets", "raids against ISIS positions": after a name that a preposition governs, an -s form is a plural noun. */
function pluralAfterAttributiveName(tokens: Token[], first: number): boolean {
  if (!/[^s]s$/.test(tokens[first].lower)) return false;
  let k = first - 1;
  while (k >= 0 && tokens[k].capitalised) k--;
  return k < first - 1 && PREPOSITIONS.has(tokens[k]?.lower ?? '');
}

function buildEvent(
  text: string,
  tokens: Token[],
  clause: Sentence,
  firstToken: number,
  endToken: number,
  trigger: { type: EventType; noun: boolean },
  triggerSpan: TextSpan,
  clauseActors: ActorMention[],
  clauseLocations: LocationMention[],
  sentenceDates: DateMention[],
  relations: RelationMention[],
): EventMention | undefined {
  const passive = PASSIVE_AUXILIARIES.has(tokens[firstToken - 1]?.lower ?? '') || (tokens[firstToken - 1]?.lower === 'been' && PASSIVE_AUXILIARIES.has(tokens[firstToken - 2]?.lower ?? ''));
  const participants: (TextSpan & { role: ParticipationRole })[] = [];
  const add = (actor: ActorMention | undefined, role: ParticipationRole) => {
    if (actor && !participants.some((p) => p.start === actor.start)) participants.push({ start: actor.start, end: actor.end, role });
  };
  // "talks mediated by X": the mediator's role comes first, whatever else its position suggests.
  for (const actor of clauseActors) {
    if (/\b(?:mediated|brokered|hosted|facilitated|chaired)\s+by\s+(?:the\s+)?$/i.test(text.slice(Math.max(clause.start, actor.start - 40), actor.start))) add(actor, 'mediator');
  }
  const subject = subjectOf(text, clauseActors, relations, triggerSpan.start);
  // "Armenia and Azerbaijan held talks", "Rwanda's army and the M23 attacked": both coordinated subjects take part.
  const subjectIndex = subject ? tokenIndexAt(tokens, subject.start) : -1;
  const and = subjectIndex - (tokens[subjectIndex - 1]?.lower === 'the' ? 2 : 1);
  const coordinated = subject && tokens[and]?.lower === 'and' ? clauseActors.find((actor) => actor.end === tokens[and - 1]?.end) : undefined;
  const agent = passive ? byPhrase(tokens, clauseActors, endToken) : undefined;
  const object = passive ? undefined : objectOf(tokens, clauseActors, clauseLocations, endToken, trigger.noun);
  const directed = DIRECTED.has(trigger.type);
  if (passive) {
    add(agent, directed ? 'perpetrator' : 'participant');
    add(coordinated, directed ? 'target' : 'participant');
    add(subject, directed ? 'target' : 'participant');
  } else {
    add(coordinated, directed ? 'perpetrator' : 'participant');
    add(subject, directed ? 'perpetrator' : 'participant');
    add(object, directed ? 'target' : 'participant');
  }
  // "with X" for meetings and agreements
  for (const actor of clauseActors) {
    const before = text.slice(Math.max(clause.start, actor.start - 40), actor.start);
    if (!directed && actor.start > triggerSpan.end && /\bwith\s+(?:the\s+)?$/i.test(before)) add(actor, 'participant');
  }
  const location = locationOf(tokens, clauseLocations, triggerSpan, endToken);
  const date = nearest(sentenceDates, triggerSpan);
  const pieces = [triggerSpan, ...participants, ...(location ? [location] : []), ...(date && spanContains(clause, date) ? [date] : [])];
  const start = Math.min(...pieces.map((p) => p.start));
  const end = Math.max(...pieces.map((p) => p.end));
  return {
    start,
    end,
    text: text.slice(start, end),
    event_type: trigger.type,
    trigger: triggerSpan,
    participants,
    location: location ? { start: location.start, end: location.end } : undefined,
    date: date ? { start: date.start, end: date.end } : undefined,
    confidence: trigger.noun ? 0.55 : participants.length > 0 ? 0.75 : 0.6,
    ...(SIZED.has(trigger.type) ? sizeOf(text.slice(clause.start, clause.end)) : {}),
  };
}

/** Events whose size is the people taking part: a protest's crowd, a strike's workers, a mobilisation's troops. */
const SIZED: Set<EventType> = new Set(['PROTEST', 'MOBILIZE']);
const PEOPLE = String.raw`(?:people|protesters|protestors|demonstrators|marchers|workers|strikers|students|supporters|residents|women|farmers|teachers|miners|villagers|troops|soldiers|fighters|reservists|members)`;
/** A number the text gives ("5,000 protesters", "a crowd of 5,000", "1.5 million people"). */
const COUNTED = new RegExp(String.raw`\b(?:(?:a\s+)?crowds?\s+of\s+(?:some\s+|about\s+|around\s+|more\s+than\s+|over\s+|at\s+least\s+|nearly\s+|up\s+to\s+)?(\d{1,3}(?:,\d{3})+|\d+)(\s+million)?|(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s+million)?\s+(?:\w+\s+)?${PEOPLE})\b`, 'i');
/** A vague number: the least the words allow ("thousands" is at least two thousand). */
const VAGUE: [RegExp, number][] = [
  [new RegExp(String.raw`\bhundreds\s+of\s+thousands\s+of\s+(?:\w+\s+)?${PEOPLE}\b`, 'i'), 200_000],
  [new RegExp(String.raw`\btens\s+of\s+thousands\s+of\s+(?:\w+\s+)?${PEOPLE}\b`, 'i'), 20_000],
  [new RegExp(String.raw`\bthousands\s+of\s+(?:\w+\s+)?${PEOPLE}\b`, 'i'), 2_000],
  [new RegExp(String.raw`\bhundreds\s+of\s+(?:\w+\s+)?${PEOPLE}\b`, 'i'), 200],
  [new RegExp(String.raw`\bdozens\s+of\s+(?:\w+\s+)?${PEOPLE}\b`, 'i'), 24],
];

/** How many took part, as the clause counts them; nothing when it does not. */
export function sizeOf(clause: string): { size: number } | Record<string, never> {
  const counted = COUNTED.exec(clause);
  if (counted) {
    const [, crowd, crowdMillions, number, millions] = counted;
    const value = Number((crowd ?? number).replace(/,/g, '')) * (crowdMillions ?? millions ? 1_000_000 : 1);
    if (Number.isSafeInteger(Math.round(value)) && value > 0) return { size: Math.round(value) };
  }
  const vague = VAGUE.find(([pattern]) => pattern.test(clause));
  return vague ? { size: vague[1] } : {};
}

/** What stands between an actor and its backer in apposition: ", backed by the". */
const BACKER_APPOSITION = /^,\s*(?:which\s+(?:is|are)\s+|who\s+(?:is|are)\s+)?(?:backed|supported|armed|funded|sponsored|allied|aligned|trained)\s+(?:by|with|to)\s+(?:the\s+)?$/i;

function subjectOf(text: string, clauseActors: ActorMention[], relations: RelationMention[], triggerStart: number): ActorMention | undefined {
  const before = clauseActors.filter((actor) => actor.end <= triggerStart);
  let subject = before[before.length - 1];
  if (!subject) return undefined;
  // "General X of the SAF ordered ...": the person acts, not the organisation he belongs to;
  // "the RSF, backed by the UAE, threatened": nor does the backer named in apposition.
  const member = relations.find((r) => r.to.start === subject.start && r.from.start < subject.start &&
    (r.type === 'MEMBER_OF' || (r.type === 'ALLIED_WITH' && BACKER_APPOSITION.test(text.slice(r.from.end, subject.start)))));
  const holder = member && before.find((actor) => actor.start === member.from.start);
  if (holder) subject = holder;
  return outsideRelativeClause(text, before, subject, triggerStart);
}

/**
 * "The RSF, which the UAE arms, looted the market and attacked the SAF": a name inside a relative clause closed by a comma
 * before the trigger is that clause's; the subject is the name right before the clause, or none.
 */
function outsideRelativeClause(text: string, before: ActorMention[], subject: ActorMention, triggerStart: number): ActorMention | undefined {
  const opening = text.lastIndexOf(',', subject.start);
  if (opening < 0 || !/^,\s*(?:which|who|whom)\b/i.test(text.slice(opening)) || !text.slice(subject.end, triggerStart).includes(',')) return subject;
  return before.find((actor) => actor.end <= opening && text.slice(actor.end, opening).trim() === '');
}

/** The people of a force that do its act: "attacked by fighters of the ADF" is the ADF's attack. */
const FORCE_MEMBERS = new Set([...FORCE_PEOPLE, 'elements']);

function byPhrase(tokens: Token[], clauseActors: ActorMention[], afterToken: number): ActorMention | undefined {
  for (let i = afterToken; i < Math.min(afterToken + 8, tokens.length); i++) {
    if (tokens[i].lower !== 'by') continue;
    let next = tokens[i + 1]?.lower === 'the' ? i + 2 : i + 1;
    if (FORCE_MEMBERS.has(tokens[next]?.lower ?? '') && tokens[next + 1]?.lower === 'of') next += tokens[next + 2]?.lower === 'the' ? 3 : 2;
    return clauseActors.find((actor) => actor.start === tokens[next]?.start);
  }
  return undefined;
}

/** The first actor within a few words after the trigger, unless a place or a preposition other than "on" comes first. */
function objectOf(tokens: Token[], clauseActors: ActorMention[], clauseLocations: LocationMention[], afterToken: number, noun: boolean): ActorMention | undefined {
  for (let i = afterToken; i < Math.min(afterToken + 5, tokens.length); i++) {
    const actor = clauseActors.find((a) => a.start === tokens[i].start);
    if (actor) return actor;
    if (clauseLocations.some((l) => l.start === tokens[i].start)) return undefined;
    if (tokens[i].text === ',' || (LOCATIVE.has(tokens[i].lower) && !(noun && tokens[i].lower === 'on') && tokens[i].lower !== 'on')) return undefined;
  }
  return undefined;
}

function locationOf(tokens: Token[], clauseLocations: LocationMention[], trigger: TextSpan, triggerEnd: number): LocationMention | undefined {
  const governed = clauseLocations.filter((location) => {
    const index = tokenIndexAt(tokens, location.start);
    const before = tokens[index - 1]?.lower === 'the' ? tokens[index - 2] : tokens[index - 1];
    return before !== undefined && (LOCATIVE.has(before.lower) || index === triggerEnd);
  });
  return governed.find((location) => location.start >= trigger.end) ?? governed[governed.length - 1];
}

function nearest<T extends TextSpan>(spans: T[], anchor: TextSpan): T | undefined {
  return [...spans].sort((a, b) => Math.abs(a.start - anchor.start) - Math.abs(b.start - anchor.start))[0];
}
