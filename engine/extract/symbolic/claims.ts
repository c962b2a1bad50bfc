import type { ClaimType } from '../../ontology/index.ts';
import type { ActorMention, ClaimMention, RelationMention, TextSpan } from '../types.ts';
import { QUOTE_INTRODUCTION, QUOTE_VERBS, quotations } from './first-person.ts';
import { FIRST_PERSON_PLURAL, clauses, spanAt, spanContains, type Sentence, type Token } from './text.ts';

/**
 * Claims: one per clause, typed by the strongest cue it holds (red lines before
 * denials before threats ... before plain positions), with the speaker taken
 * from the reporting construction ("X said", "according to X", "..., X said")
 * and the targets from the other actors the claim's words name.
 */

/** Cue patterns per claim type, in priority order: the first type with an unnegated cue in a unit wins. */
const NEVER_VERBS = String.raw`(?:accept\w*|agree\w*|allow\w*|tolerat\w*|negotiat\w*|surrender\w*|give\s+up|cede|compromis\w*|recogni[sz]\w*|permit\w*|back\s+down|bow|abandon\w*|sign\w*|disarm\w*|lay\s+down|talk\w*|engage\w*|hand\s+over|hand\s+back|give\s+back|return\w*|withdraw\w*|retreat\w*|pull\s+out|relinquish\w*)`;
export const CLAIM_CUES: [ClaimType, RegExp][] = [
  ['RedLine', new RegExp(String.raw`\b(?:(?:will|would|shall|could|can|must)\s+never\s+(?:be\s+)?${NEVER_VERBS}|(?:will|would|shall|could|can)\s*(?:not|n't)\s+(?:\w+ly\s+)?${NEVER_VERBS}|(?:won't|wouldn't|cannot)\s+(?:\w+ly\s+)?${NEVER_VERBS}|never\s+${NEVER_VERBS}|non-negotiable|not\s+negotiable|not\s+up\s+for\s+(?:negotiation|discussion|debate)|not\s+open\s+to\s+negotiation|under\s+no\s+circumstances?|red\s+lines?|no\s+room\s+for\s+compromise|no\s+compromise|out\s+of\s+the\s+question|not\s+one\s+inch|cannot\s+be\s+negotiated|(?:there\s+(?:would|will)\s+be\s+)?no\s+(?:dialogue|negotiations?|talks|peace|ceasefire|deal)\s+(?:with|until|unless|as\s+long\s+as)|refus\w*\s+to\s+(?:accept|recogni[sz]e|cede|surrender|negotiate|give\s+up|disarm|lay\s+down))\b`, 'gi')],
  ['Denial', /\b(?:den(?:y|ies|ied|ying)|reject\w*\s+(?:the\s+|these\s+|those\s+|all\s+)?(?:accusations?|allegations?|claims?|charges?|reports?)|dismiss\w*\s+(?:the\s+|these\s+|all\s+)?(?:accusations?|allegations?|claims?|charges?|reports?)|refut\w+|had\s+nothing\s+to\s+do\s+with|(?:was|were|is|are)\s+not\s+(?:involved|responsible)|baseless|fabricat\w+|false\s+(?:claims?|allegations?|accusations?)|(?:posed?|poses|posing)\s+no\s+threat|not\s+a\s+threat)\b/gi],
  ['Threat', /\b(?:threaten\w*|threatened|warn(?:ed|s|ing)?\b(?!\s+(?:of\s+)?(?:a\s+)?(?:famine|humanitarian|shortages?|catastrophe))|ultimatum|(?:will|would|shall)\s+(?:keep|continue)\s+(?:to\s+)?(?:strik|attack|hit|target|bomb|shell|pound)\w*|(?:will|would|shall)\s+(?:retaliate|respond|strike|attack|crush|destroy|punish|hit|target|escalate|invade|annihilate|wipe\s+out|resume\s+(?:fighting|attacks|hostilities)|be\s+met\s+with)|face\s+(?:the\s+)?(?:severe\s+|serious\s+|dire\s+)?(?:consequences|retaliation|a\s+response)|vow\w*\s+to\s+(?:retaliate|avenge|crush|destroy|punish|fight|eliminate|wipe|defeat|respond|retake|take\s+back|continue\s+fighting|strike|hit)|pay\s+a\s+heavy\s+price|all\s+options\s+(?:are|remain)\s+on\s+the\s+table|or\s+else)\b/gi],
  // What a speaker calls a group: "they are cockroaches", "these vermin", "not human"; "treated like animals" is a grievance, not this.
  ['Dehumanization', /\b(?:(?:are|were|is|was|as|these|those|them|nothing\s+but|no\s+better\s+than|mere|filthy|dirty|exterminate|exterminating|crush|wipe\s+out)\s+(?:(?:the|all|such|those|these)\s+)?(?:(?!(?:like|as|not|no|never)\b)\w+\s+)?(?:cockroach(?:es)?|vermin|parasites|lice|rats|snakes|beasts|savages|subhumans?|sub-humans?|insects|germs|human\s+animals|animals|a\s+cancer|a\s+plague|an\s+infestation)|subhuman|sub-human|not\s+(?:even\s+)?(?:fully\s+)?human|untermensch\w*)\b/gi],
  ['Accusation', /\b(?:accus\w+|blam(?:e|ed|es|ing)\b|alleg(?!ianc)\w+|charg\w+\s+that|(?:held|holds?|holding)\s+\S+(?:\s+\S+)?\s+responsible|condemn\w*|denounc\w+|decr(?:y|ied|ies)|committ\w*\s+(?:war\s+crimes|genocide|atrocities|massacres|abuses)|war\s+crimes|ethnic\s+cleansing|rigged|complicit|collaborat\w+\s+with|sponsor\w*\s+terrorism)\b/gi],
  ['Demand', /\b(?:demand\w*|call\w*\s+(?:on|upon)|call\w*\s+for|urg(?:e|es|ed|ing)|insist\w*\s+on|(?:must|should|would\s+have\s+to|will\s+have\s+to|has\s+to|have\s+to)\s+(?:\w+ly\s+)?(?!be\s+(?:ready|prepared|able))\w+|requir\w+\s+that|request\w*|appeal\w*\s+(?:to|for)|(?<!\b(?:was|were|been|being|be|is|are)\s)ask(?:ed|s)\s+(?:\w+\s+){1,6}?to\s+(?!be\b)\w+|press\w*\s+for|order(?:ed|s)\b)\b/gi],
  ['Concession', /\b(?:conced\w+|concessions?|acknowledg\w+|admit\w*|agre\w+\s+to\s+\w+|accept\w*\s+(?:the\s+|a\s+)?(?:proposal|plan|terms|demands?|deal|offer|mediation|roadmap)|back\w*\s+down|dropp\w+\s+(?:its|their|his|her)\s+(?:demands?|conditions?|objections?|preconditions?)|relent\w*|softened\s+(?:its|their|his|her)\s+(?:stance|position)|lifted\s+the\s+(?:blockade|siege|ban|curfew)|goodwill\s+gesture|(?:would|will)\s+suspend)\b/gi],
  ['Offer', /\b(?:offer(?:ed|s|ing)|(?:to|will|would|could)\s+offer|propos(?:ed|es|ing)|(?:to|will|would|could)\s+propose|(?:ready|willing|prepared)\s+to\s+\w+|open\s+to\s+(?:talks|dialogue|negotiations?|discussions?)|invit\w+\s+\S+(?:\s+\S+)?\s+to\s+(?:talks|negotiations|dialogue)|express\w*\s+(?:its|his|her|their|the)\s+(?:readiness|willingness)|in\s+exchange\s+for|only\s+if|on\s+condition\s+that|provided\s+that)\b/gi],
  ['Commitment', /\b(?:pledg\w+|promis\w+|commit\w*\s+(?:to|itself|themselves|himself|herself)|vow\w*\s+to|undert(?:ook|ake|akes)\s+to|guarantee\w*|reaffirm\w*\s+(?:its|his|her|their)\s+commitment|continue\s+to|(?:will|would|shall)\s+(?:withdraw|hold|respect|abide|implement|observe|honou?r|release|return|protect|ensure|open|cooperate|support|continue|comply|halt|cease|stop|end|investigate|provide|deliver|facilitate|hand\s+over|integrate|resume|participate|attend|join|allow))\b/gi],
  ['Grievance', /\b(?:complain\w*|grievances?|marginali[sz]\w+|discriminat\w+|neglect\w*|excluded|exclusion|oppress\w+|persecut\w+|injustices?|deprived\s+of|lament\w*|betray\w*|humiliat\w+|stolen\s+land|unfair\w*|forgotten|abandoned|ignored)\b/gi],
  ['Justification', /\b(?:self-defen[cs]e|in\s+response\s+to|in\s+retaliation\s+for|justif\w+|necessary\s+to\s+(?:protect|defend|restore|prevent|stop)|to\s+protect\s+(?:civilians|the\s+population|citizens|our|its|their)|right\s+to\s+(?:defend|self-defen[cs]e)|legitimate\s+(?:targets?|defen[cs]e|response)|forced\s+to|had\s+no\s+choice\s+but|military\s+necessity|to\s+restore\s+order|internal\s+matter|matter\s+of\s+(?:survival|national\s+security|sovereignty)|target\w*\s+['‘"]?(?:terrorists|militants|military\s+targets)|non-escalatory)\b/gi],
  ['Position', /\b(?:oppos(?:ed|es|ing)|insist\w*|maintain(?:ed|s)|argu(?:ed|es)|reject\w*|welcom\w+|prais(?:ed|es|ing)|support(?:ed|s)\b|endors\w+|null\s+and\s+void|stress(?:es|ed)\s+that|illegal|illegitimate|unacceptable|(?:had|has|have)\s+failed|no\s+plans\s+to|described\s+\S+(?:\s+\S+){0,3}\s+as)\b/gi],
];

/** Reporting verbs: they introduce the claim's words and mark their subject as the speaker. */
export const REPORTING = /\b(?:said|says|say|stated|states|told|tells|announced|announces|declared|declares|insisted|insists|maintained|maintains|argued|argues|believes|believe|stressed|stresses|asserted|asserts|reiterated|reiterates|affirmed|affirms|noted|notes|added|adds|claimed|claims|wrote|writes|posted|tweeted|explained|explains|confirmed|confirms|rejected|rejects|opposed|opposes|welcomed|welcomes|according\s+to|in\s+a\s+statement)\b/gi;

/** Words that turn a cue off when they precede it closely ("did not threaten", "never denied"). */
const NEGATION_BEFORE = /\b(?:not|n't|never|no\s+longer|refused\s+to|declined\s+to|without)\s+(?:\w+\s+){0,1}$/i;

const CONFIDENCE: Partial<Record<ClaimType, number>> = { RedLine: 0.85, Position: 0.5 };

/** Participles after a comma that open a further claim by the same speaker (", insisting that ..."). */
const PARTICIPLE_OPENERS = new Set([
  'insisting', 'saying', 'warning', 'adding', 'accusing', 'rejecting', 'calling', 'urging', 'demanding', 'vowing',
  'threatening', 'denying', 'arguing', 'claiming', 'noting', 'stressing', 'pledging', 'promising', 'offering',
]);
const RESPONSE_OPENERS = /^(?:a (?:charge|claim|claims|accusation|allegation|report|statement)|an (?:accusation|allegation))$/;
const IRREGULAR_PAST = new Set(['said', 'told', 'held', 'made', 'took', 'gave', 'sought', 'withdrew', 'met', 'sent', 'put', 'set', 'fought', 'struck', 'brought', 'kept', 'was', 'is', 'has', 'had', 'would', 'will']);
/** A passive auxiliary right before a cue, at most an adverb between ("were accused", "had been unfairly blamed"). */
const PASSIVE_BEFORE = /\b(?:been|was|were|is|are|be|being)\s+(?:\w+ly\s+)?$/i;
/** "we" right before a cue, at most an adverb between ("We strongly condemn"). */
const FIRST_PERSON_SUBJECT = /\bwe\s+(?:\w+ly\s+)?$/i;
/** A cue that is itself the speech act's verb ("denied", "called on"): its subject is the speaker. */
const SPEECH_ACT_CUE = /^(?:den|accus|demand|threat|warn|urg|call|offer|pledg|promis|vow|blam|condemn|denounc|reject|dismiss|refut|insist|complain|lament|acknowledg|admit|conced|propos|order|agre|commit|undert|guarantee|request|appeal|press|oppos|welcom|support|endors|maintain|argu|ask|prais|hold|express)\w*(?:ed|s)\b/i;
/** "said the RSF had committed war crimes": the crimes are the accusation's content, not a speech act of the RSF ("commit" is there for commitments). */
function isSpeechActCue(type: string, cueText: string): boolean {
  return SPEECH_ACT_CUE.test(cueText) && !(type === 'Accusation' && /^committ/i.test(cueText));
}

/** One stance-bearing stretch of a clause: "X accused Y of Z | and said W" are two. */
interface Unit extends Sentence {
  /** Shares the subject of the unit before it ("... and urged", ", insisting that"). */
  continuation: boolean;
}

function isFiniteVerb(token: Token | undefined): boolean {
  return token !== undefined && (/^\p{Ll}+ed$/u.test(token.text) || IRREGULAR_PAST.has(token.lower));
}

/** Present-tense verbs of a statement ("The Ministry thanks its partners and calls on ..."): after "and" they share the clause's subject. */
const PRESENT_STATEMENT_VERB = /^(?:calls|urges|demands|reaffirms|reiterates|stresses|underlines|emphasi[sz]es|notes|recalls|welcomes|condemns|rejects|denies|accuses|expresses|commits|remains|thanks|appeals|insists|warns|affirms|requests|encourages|invites|stands|reserves|pledges|vows)$/;

/** A past-tense verb, or a statement's present-tense one: after "and" it continues its clause's subject ("... and urged", "..., and calls on"). */
function isClauseVerb(token: Token | undefined): boolean {
  return isFiniteVerb(token) || (token !== undefined && PRESENT_STATEMENT_VERB.test(token.text));
}

export function claimUnits(tokens: Token[], clause: Sentence): Unit[] {
  const units: Unit[] = [];
  let first = clause.firstToken;
  let continuation = false;
  const close = (end: number, next: number, nextContinues: boolean) => {
    if (end > first) units.push({ start: tokens[first].start, end: tokens[end - 1].end, firstToken: first, endToken: end, continuation });
    first = next;
    continuation = nextContinues;
  };
  for (let i = clause.firstToken + 1; i < clause.endToken - 1; i++) {
    const token = tokens[i];
    if (token.lower === 'and' && (tokens[i - 1].text === ',' || isClauseVerb(tokens[i + 1]))) {
      close(tokens[i - 1].text === ',' ? i - 1 : i, i + 1, isClauseVerb(tokens[i + 1]));
    } else if (token.text === ',' && PARTICIPLE_OPENERS.has(tokens[i + 1].lower)) {
      close(i, i + 1, true);
    } else if (
      token.text === ',' &&
      (RESPONSE_OPENERS.test(`${tokens[i + 1].lower} ${tokens[i + 2]?.lower ?? ''}`) ||
        // "..., which Asmara dismissed" answers; "..., which backs the M23, denied" describes the subject.
        (tokens[i + 1].lower === 'which' && (tokens[i + 2]?.capitalised || tokens[i + 2]?.lower === 'the')))
    ) {
      // "..., a charge Asmara dismissed": another speaker answers.
      close(i, i + 1, false);
    }
  }
  close(clause.endToken, clause.endToken, false);
  return units;
}

export function findClaims(
  text: string,
  tokens: Token[],
  sentences: Sentence[],
  actors: ActorMention[],
  relations: RelationMention[],
): ClaimMention[] {
  const claims: ClaimMention[] = [];
  const longQuotations = quotationsAcrossSentences(text, sentences, actors, relations);
  /** The speaker of the quotation the sentence before opened with, whom a quotation right after it with no attribution of its own continues. */
  let quotedBefore: ActorMention | undefined;
  sentences.forEach((sentence, sentenceIndex) => {
    const sentenceActors = actors.filter((actor) => spanContains(sentence, actor));
    const attribution = trailingAttribution(text, sentence, sentenceActors);
    const quote = quotedSpeech(text, sentence, sentenceActors, quotedBefore);
    quotedBefore = quote?.speaker;
    let previousSpeaker: ActorMention | undefined;
    for (const clause of clauses(tokens, sentence)) {
      for (const unit of claimUnits(tokens, clause)) {
        const unitText = text.slice(unit.start, unit.end);
        const cue = strongestCue(unitText, unit.start);
        const reporting = innermostReporting(unitText, unit.start, cue?.span);
        const unitActors = sentenceActors.filter((actor) => spanContains(unit, actor));
        // "We demand ...", "we call on ...": an organisation's own words in the present tense are its speech act too.
        const beforeCue = cue ? text.slice(unit.start, cue.span.start) : '';
        // "... had been unfairly blamed": a passive speech act is not its subject's.
        const cueIsVerb = cue !== undefined && ((isSpeechActCue(cue.type, text.slice(cue.span.start, cue.span.end)) && !PASSIVE_BEFORE.test(beforeCue)) || FIRST_PERSON_SUBJECT.test(beforeCue));
        const verb = cueIsVerb ? cue.span : reporting && (!cue || reporting.start <= cue.span.start) ? reporting : cue?.span;
        // "Displaced people must be allowed to return": the subject of a demand no verb of speech reports is whom it is made of, not who makes it.
        const unreportedDemand = cue?.type === 'Demand' && !cueIsVerb && verb === cue.span;
        let speaker = verb && !unreportedDemand ? subjectBefore(text, unitActors, relations, verb.start, unit.start) : undefined;
        if (reporting && /^according/i.test(text.slice(reporting.start, reporting.end)) && !cueIsVerb) speaker = actorAfter(unitActors, reporting.end) ?? speaker;
        // "The UN will keep helping, the Secretary-General said": what comes before a trailing attribution is its speaker's, unless the cue is a speech act of its own.
        if (attribution && cue && !cueIsVerb && attribution.start >= cue.span.end && !(reporting && reporting.end <= cue.span.start)) speaker = attribution.speaker;
        if (!speaker && unit.continuation) speaker = previousSpeaker;
        speaker ??= attribution?.speaker;
        // "The UN said the RSF would never accept ...": a red line or a threat is its subject's; the reporter only relays it.
        const holder = cue && SUBJECT_STANCES.has(cue.type) ? cueSubject(text, unitActors, cue.span) : undefined;
        const relayed = speaker !== undefined && holder !== undefined && holder !== speaker && RELAYING_TYPES.has(speaker.actor_type) && !RELAYING_TYPES.has(holder.actor_type);
        if (relayed) speaker = holder;
        // Words inside a quotation are the quoted speaker's, whoever they name ("the secretary said": nobody named).
        const quoted = quote && cue && spanContains(quote.words, cue.span);
        // ... unless it names nobody and the words say "we": then the organisation "we" stands for.
        const firstPerson = speaker && FIRST_PERSON_PLURAL.has(text.slice(speaker.start, speaker.end).toLowerCase()) ? speaker : undefined;
        if (quoted) speaker = quote.speaker ?? firstPerson;
        // A quotation of several sentences is its speaker's throughout, wherever the verb of speech stands.
        const longQuote = !quoted && cue ? longQuotations.find((quotation) => spanContains(quotation.words, cue.span)) : undefined;
        if (longQuote) speaker = longQuote.speaker ?? firstPerson;
        // "The Foreign Secretary met X and said ...": a unit with no speech act still gives the next one its subject.
        previousSpeaker = speaker ?? actingSubject(text, tokens, unit, unitActors, relations) ?? previousSpeaker;
        if (!cue) continue;
        // "The UN said the RSF denied ...", "According to the UN, the RSF would never ...": the RSF's claim, its words from the RSF on.
        const relayedFrom = speaker && reporting && reporting.end <= speaker.start && (relayed || (cueIsVerb && reporting.start < cue.span.start))
          ? speaker.start - (/\bthe\s+$/i.exec(text.slice(unit.start, speaker.start))?.[0].length ?? 0) : undefined;
        const reportingBeforeCue = reporting && reporting.start < cue.span.start && !cueIsVerb && relayedFrom === undefined ? reporting : undefined;
        const claimSpan = quoted ? quote.words : longQuote ? wordsWithin(text, longQuote.words, unit) : claimExtent(text, { ...unit, start: relayedFrom ?? unit.start }, reportingBeforeCue, speaker, attribution?.start);
        if (claimSpan.end <= claimSpan.start) continue;
        const targets = chooseTargets(unitActors, claimSpan, speaker, relations, actors)
          // "the DRC would respond": who threatens is no target of the threat.
          .filter((target) => !(cue.type === 'Threat' && target === holder));
        claims.push({
          start: claimSpan.start,
          end: claimSpan.end,
          text: text.slice(claimSpan.start, claimSpan.end),
          type: cue.type,
          cue: cue.span,
          speaker: speaker ? { start: speaker.start, end: speaker.end } : undefined,
          targets: targets.map((target) => ({ start: target.start, end: target.end })),
          confidence: (CONFIDENCE[cue.type] ?? 0.7) * (speaker ? 1 : 0.8),
        });
      }
    }
  });
  return claims;
}

function strongestCue(clauseText: string, offset: number): { type: ClaimType; span: TextSpan } | undefined {
  for (const [type, pattern] of CLAIM_CUES) {
    for (const match of clauseText.matchAll(pattern)) {
      if (type !== 'RedLine' && NEGATION_BEFORE.test(clauseText.slice(Math.max(0, match.index - 30), match.index))) continue;
      if (type === 'Denial' && isPurposeDenial(clauseText, match.index, match.index + match[0].length)) continue;
      return { type, span: { start: offset + match.index, end: offset + match.index + match[0].length } };
    }
  }
  return undefined;
}

/** "to deny ISIS a safe haven": denying someone something is no rejection of a charge. */
function isPurposeDenial(clauseText: string, start: number, end: number): boolean {
  if (!/^den(?:y|ies|ied|ying)$/i.test(clauseText.slice(start, end))) return false;
  return /\bto\s+$/i.test(clauseText.slice(Math.max(0, start - 4), start)) || /^\s+(?:\S+\s+){1,4}?(?:a\s+)?(?:safe\s+havens?|sanctuary|access|the\s+(?:ability|opportunity|right|chance|means)|freedom\s+of)\b/i.test(clauseText.slice(end, end + 60));
}

/**
 * The reporting verb that introduces the cue: the last one before it ("the UN reported that the RSF
 * declared it would never ..." is the RSF's declaration), or the first one when none comes before.
 */
function innermostReporting(unitText: string, offset: number, cue: TextSpan | undefined): TextSpan | undefined {
  const spans = [...unitText.matchAll(REPORTING)].map((match) => ({ start: offset + match.index, end: offset + match.index + match[0].length }));
  return (cue && spans.filter((span) => span.end <= cue.start).pop()) || spans[0];
}

/** Claim types that are a stance of the subject of their cue ("the RSF would never accept", "the DRC would respond"). */
const SUBJECT_STANCES = new Set<ClaimType>(['RedLine', 'Threat']);
/** Actor types that relay what others say as often as they speak for themselves. */
const RELAYING_TYPES = new Set(['international_org', 'media', 'ngo']);

/** The actor right before a cue, with at most an auxiliary or an adverb between: the cue's subject. */
function cueSubject(text: string, unitActors: ActorMention[], cue: TextSpan): ActorMention | undefined {
  const subject = unitActors.filter((actor) => actor.end <= cue.start).pop();
  return subject && /^\s*(?:(?:has|have|had|also|still)\s+)?(?:\w+ly\s+)?$/.test(text.slice(subject.end, cue.start)) ? subject : undefined;
}

const GOVERNED = /\b(?:to|at|before|towards|in|against|on|with)\s+(?:the\s+)?$/i;
const SUBJECT_PRONOUN = /\b(he|she|it|they)\s+(?:\w+\s+)?$/i;

/** What stands between a subject and its verb when an apposition describes it: ", the African Union's mediator, ". */
const APPOSITION = /^\s*,[^,;:"“”]{1,80},\s*(?:also\s+|has\s+|had\s+|have\s+)?$/;
/** Between a comma and a name: at most a title ("Major General "). */
const TITLE_ONLY = /^\s*,\s*(?:\p{Lu}[\p{L}.-]*\s+){0,4}$/u;

/**
 * The subject of a reporting or cue verb: the closest actor before it in the
 * clause, except that "X of the Y said", "X, head of Y, said" and "X, the Y's
 * mediator, proposed" speak for X.
 */
function subjectBefore(text: string, clauseActors: ActorMention[], relations: RelationMention[], verbStart: number, clauseStart: number): ActorMention | undefined {
  // "The army's envoy to the UN said": a name a preposition governs is not the verb's subject.
  const before = clauseActors.filter((actor) => actor.end <= verbStart && actor.start >= clauseStart && !GOVERNED.test(text.slice(Math.max(clauseStart, actor.start - 16), actor.start)));
  let subject = before[before.length - 1];
  if (!subject) return undefined;
  // "... addressed the UN General Assembly, where he said": the pronoun is the subject, not the name before it.
  // Coreference (references.ts) makes a pronoun it resolves an actor mention of its own (then it is `subject`);
  // one it left alone (two candidates fit, or none) speaks for nobody.
  if (SUBJECT_PRONOUN.test(text.slice(subject.end, verbStart))) return undefined;
  // "A spokesman for the junta, Major General X, denied": an apposition that is only a person's name names the phrase's head, who speaks.
  const namedInApposition = subject.actor_type === 'individual' && /^\s*,\s*$/.test(text.slice(subject.end, verbStart));
  const described = before.filter((actor) => actor.end <= subject.start && APPOSITION.test(text.slice(actor.end, verbStart)) && !(namedInApposition && TITLE_ONLY.test(text.slice(actor.end, subject.start))));
  if (described.length > 0) subject = described[described.length - 1];
  for (;;) {
    const current: ActorMention = subject;
    const member = relations.find((r) => r.type === 'MEMBER_OF' && r.to.start === current.start && r.from.start < current.start);
    const holder = member && before.find((actor) => actor.start === member.from.start);
    if (!holder) break;
    subject = holder;
  }
  // "X, backed by Y, said": the speaker is X, the head of the noun phrase.
  const alliance = relations.find((r) => r.type === 'ALLIED_WITH' && r.to.start === subject.start && r.from.start < subject.start);
  return (alliance && before.find((actor) => actor.start === alliance.from.start)) || subject;
}

/**
 * The subject of a unit's first finite verb ("The Foreign Secretary met ..."), else of its first present-tense statement verb
 * ("The Ministry thanks ..."): "The Ministry recalls that the Government accepted the ceasefire and remains open" goes on with the Government.
 */
function actingSubject(text: string, tokens: Token[], unit: Unit, unitActors: ActorMention[], relations: RelationMention[]): ActorMention | undefined {
  const words = tokens.slice(unit.firstToken + 1, unit.endToken);
  const verb = words.find(isFiniteVerb) ?? words.find(isClauseVerb);
  return verb && subjectBefore(text, unitActors, relations, verb.start, unit.start);
}

function actorAfter(clauseActors: ActorMention[], offset: number): ActorMention | undefined {
  return clauseActors.find((actor) => actor.start >= offset && actor.start - offset <= 6);
}

/** '..., the RSF said.' / '..., said General X.' / '..., according to Y.' at the end of a sentence. */
function trailingAttribution(
  text: string,
  sentence: Sentence,
  sentenceActors: ActorMention[],
): { speaker: ActorMention; start: number } | undefined {
  const sentenceText = text.slice(sentence.start, sentence.end);
  const comma = sentenceText.lastIndexOf(',');
  if (comma < 0) return undefined;
  const tail = sentenceText.slice(comma);
  if (!/^,\s*["”]?\s*(?:(?:according\s+to|said|says|added)\b|[^,]{2,100}\b(?:said|says|added|claimed|stated|warned|insisted|told\s+\S+)\b[^,]*$)/i.test(tail)) return undefined;
  const start = sentence.start + comma;
  const speaker = sentenceActors.find((actor) => actor.start >= start);
  if (!speaker) return undefined;
  return { speaker, start };
}

/** After a quotation: its verb of speech first ('", said the minister') or after its speaker ('," the minister said'). */
const QUOTE_VERB_FIRST = new RegExp(String.raw`^\s*,?\s*${QUOTE_VERBS}\b`, 'i');
const QUOTE_VERB_AFTER_SPEAKER = new RegExp(String.raw`^\s*,?\s*([^.;]{0,120}?)\b${QUOTE_VERBS}\b`, 'i');

/**
 * A sentence that opens with a quotation and names its speaker after it:
 * '“...,” said General X, the commander' or '“...,” the ministry said in a statement'.
 * The speaker is the actor after the verb in the first shape, the last actor before it
 * in the second; a speaker no actor names ("the secretary said") is none. A quotation that
 * is the whole sentence is `continued`'s, the speaker of the quotation the sentence before
 * opened with, when there is one.
 */
function quotedSpeech(text: string, sentence: Sentence, sentenceActors: ActorMention[], continued?: ActorMention): { words: TextSpan; speaker: ActorMention | undefined } | undefined {
  const sentenceText = text.slice(sentence.start, sentence.end);
  const opened = /^\s*["“]/.exec(sentenceText);
  if (!opened) return undefined;
  const close = sentenceText.slice(opened[0].length).search(/["”]/);
  if (close < 0) return undefined;
  const wordsStart = sentence.start + opened[0].length;
  const wordsEnd = wordsStart + close;
  const words = { start: wordsStart, end: wordsEnd - (/[,.]$/.test(text.slice(wordsStart, wordsEnd)) ? 1 : 0) };
  const tail = text.slice(wordsEnd + 1, sentence.end);
  const tailStart = wordsEnd + 1;
  const after = sentenceActors.filter((actor) => actor.start >= tailStart);
  const inverted = QUOTE_VERB_FIRST.exec(tail);
  if (inverted) return { words, speaker: after[0] };
  const direct = QUOTE_VERB_AFTER_SPEAKER.exec(tail);
  // '"...," said X, the ICRC's director. "We call on ..."': a quotation that ends its sentence unattributed goes on with the one before.
  if (!direct) return continued && /^[\s.!?"”]*$/.test(tail) ? { words, speaker: continued } : undefined;
  const verbAt = tailStart + direct.index + direct[0].length;
  const before = after.filter((actor) => actor.end <= verbAt);
  return { words, speaker: before[before.length - 1] };
}

/**
 * Quotations that run over more than one sentence, with their speaker: named after the
 * quotation ('"... . ...," the minister said') or before it ('X said: "... . ..."'); none
 * when neither names an actor.
 */
function quotationsAcrossSentences(text: string, sentences: readonly Sentence[], actors: ActorMention[], relations: RelationMention[]): { words: TextSpan; speaker: ActorMention | undefined }[] {
  const found: { words: TextSpan; speaker: ActorMention | undefined }[] = [];
  const sentenceAt = (offset: number) => spanAt(sentences, offset);
  for (const words of quotations(text)) {
    if (words.end - words.start < 2) continue;
    const quoteMark = words.start - 1;
    const opening = sentenceAt(quoteMark);
    const closing = sentenceAt(words.end);
    if (!opening || !closing || opening === closing) continue;
    const closingActors = actors.filter((actor) => spanContains(closing, actor));
    let speaker = quotedSpeech(text, { ...closing, start: quoteMark }, closingActors)?.speaker;
    const before = text.slice(opening.start, quoteMark);
    const introduction = speaker ? null : QUOTE_INTRODUCTION.exec(before);
    if (introduction) {
      const openingActors = actors.filter((actor) => spanContains(opening, actor));
      speaker = subjectBefore(text, openingActors, relations, opening.start + introduction.index, opening.start);
    }
    found.push({ words, speaker });
  }
  return found;
}

/** The part of a quotation's words that lies in one unit, without the quotation's closing punctuation. */
function wordsWithin(text: string, words: TextSpan, unit: TextSpan): TextSpan {
  const start = Math.max(words.start, unit.start);
  const trimmed = text.slice(start, Math.min(words.end, unit.end)).replace(/[\s.,;:!?"”]+$/u, '');
  return { start, end: start + trimmed.length };
}

/** The claim's words: after the reporting verb ("said [that] ..."), before a trailing attribution. */
function claimExtent(text: string, clause: Sentence, reporting: TextSpan | undefined, speaker: ActorMention | undefined, attributionStart: number | undefined): TextSpan {
  let start = clause.start;
  let end = clause.end;
  if (reporting && (!speaker || speaker.end <= reporting.start)) {
    start = reporting.end;
    const afterVerb = /^(?:\s+(?:reporters|journalists|the\s+press|the\s+media|a\s+news\s+conference))?(?:\s+(?:on|in)\s+\p{Lu}[\p{L}-]*)?[\s,:]*(?:that\s+)?["“]?/u.exec(text.slice(start, end));
    start += afterVerb?.[0].length ?? 0;
  }
  if (attributionStart !== undefined && attributionStart > start && attributionStart < end) end = attributionStart;
  // "ADDIS ABABA, 2 February 2025 - " and "- " before a list item are no part of what anyone claims.
  start += DATELINE.exec(text.slice(start, end))?.[0].length ?? 0;
  start += LIST_MARKER.exec(text.slice(start, end))?.[0].length ?? 0;
  const body = text.slice(start, end);
  const leading = /^(?:while|whereas|but|and|however,?)\s+/i.exec(body)?.[0].length ?? 0;
  start += leading;
  const trimmed = text.slice(start, end).replace(/[\s.,;:!?"”]+$/u, '');
  return { start, end: start + trimmed.length };
}

const DATELINE = /^[\p{Lu}][\p{Lu}\s.'’()-]{1,40},\s*(?:[\p{L}\d ,.]{0,30}?\d{4})?\s*[-–—:]+\s*|^(?:by\s+[\p{L}.' -]{2,40}\n)/u;

const LIST_MARKER = /^(?:[-*+•>#]+|\d{1,3}[.)])\s+/u;

function chooseTargets(
  clauseActors: ActorMention[],
  claim: TextSpan,
  speaker: ActorMention | undefined,
  relations: RelationMention[],
  actors: ActorMention[],
): ActorMention[] {
  const speakerGroups = speaker
    ? relations.filter((r) => r.type === 'MEMBER_OF' && r.from.start === speaker.start).map((r) => actors.find((a) => a.start === r.to.start)).filter((a): a is ActorMention => a !== undefined)
    : [];
  const own = new Set([speaker, ...speakerGroups].filter(Boolean).map((a) => a!.canonical ?? a!.text));
  const ownTypes = new Set([speaker, ...speakerGroups].filter(Boolean).map((a) => a!.actor_type));
  return clauseActors.filter((actor) => {
    if (!spanContains(claim, actor) || actor === speaker) return false;
    if (own.has(actor.canonical ?? actor.text)) return false;
    // "the army" in a general's statement is his own side.
    if (!actor.canonical && ownTypes.has(actor.actor_type)) return false;
    return true;
  });
}
