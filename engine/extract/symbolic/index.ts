import type { ActorMention, DocumentInput, EventMention, Findings, RelationMention, TextSpan } from '../types.ts';
import { findClaims } from './claims.ts';
import { findDates } from './dates.ts';
import { findEntities } from './entities.ts';
import { findEvents } from './events.ts';
import { deniedOrHypothetical, doerInReach, fightsWith, findRelations, leadsOnly, quoteReportedRelations, referenceUnsure, speakerOfPronoun, startsAllianceCue } from './relations.ts';
import { matchingText, remapSpans } from './normalise.ts';
import { pairsOf, spanAt, splitSentences, tokenIndexAt, tokenize, type Sentence, type Token } from './text.ts';
import { unitMemberships } from './units.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './version.ts';

export { SYMBOLIC_EXTRACTOR_VERSION };

/**
 * The symbolic conflict layer: gazetteer, patterns and lexicons only, so it
 * stands on its own when no transformer model is configured. Synchronous and
 * pure (the gazetteers are built once per process on first use).
 */

export function findConflictEntities(doc: DocumentInput): Findings {
  const matching = matchingText(doc.text);
  const { text } = matching;
  const tokens = tokenize(text);
  const sentences = splitSentences(text, tokens);
  const dates = findDates(text, doc.document_date);
  const { actors, locations } = findEntities(text, tokens, sentences, dates);
  const relations = findRelations(tokens, sentences, actors);
  relations.push(...unitMemberships(text, tokens, actors));
  const claims = findClaims(text, tokens, sentences, actors, relations);
  const events = findEvents(text, tokens, sentences, actors, locations, dates, relations, claims);
  relations.push(...oppositionsFromAssaults(text, events, relations, tokens, sentences, actors));
  quoteReportedRelations(text, sentences, relations);
  // The target only: a subject pronoun follows the subject before it, an object reference is the guess.
  const sentenceAt = (position: number) => spanAt(sentences, position);
  const stated = relations.filter((relation) => relation.type !== 'OPPOSES' ||
    !(referenceUnsure(actors, sentenceAt, relation.to, relation.from) || standsForLeader(tokens, actors, relation.from) || standsForLeader(tokens, actors, relation.to)));
  return remapSpans({ actors, locations, dates, claims, events, relations: stated }, matching, doc.text);
}

/** Words between a name and an act that make the name its reporter ("said", "according to"; not "claimed", which a perpetrator does). */
const REPORTED_BY = /\b(?:said|says|say|stated|states|told|reported|reports|announced|according\s+to|in\s+a\s+statement)\b/i;

/**
 * An actor that attacks or sanctions another opposes it; actors that attack together are allies
 * ("Rwandan troops and M23 fighters attacked FARDC positions"). An attack between parties
 * the text calls allies is not read as enmity ("fighting beside the army"), nor is one the text denies or only
 * threatens or calls for ("called on the RSF to stop attacks on the Masalit"). Whoever reports the act is no
 * party to it ("UNICEF said children had been killed by the RSF").
 */
function oppositionsFromAssaults(text: string, events: EventMention[], relations: RelationMention[], tokens: Token[], sentences: Sentence[], actors: ActorMention[]): RelationMention[] {
  const found: RelationMention[] = [];
  const known = (type: RelationMention['type'], a: TextSpan, b: TextSpan) =>
    [...relations, ...found].some((r) => r.type === type && ((r.from.start === a.start && r.to.start === b.start) || (type === 'ALLIED_WITH' && r.from.start === b.start && r.to.start === a.start)));
  const relate = (type: RelationMention['type'], from: TextSpan, to: TextSpan) => {
    if (known(type, from, to) || (type === 'OPPOSES' && known('ALLIED_WITH', from, to))) return;
    found.push({
      type,
      start: Math.min(from.start, to.start),
      end: Math.max(from.end, to.end),
      from: { start: from.start, end: from.end },
      to: { start: to.start, end: to.end },
      confidence: 0.6,
    });
  };
  for (const event of events) {
    if (event.event_type !== 'ASSAULT' && event.event_type !== 'SANCTION') continue;
    const trigger = tokenIndexAt(tokens, event.trigger.start);
    const sentence = sentences.find((candidate) => candidate.firstToken <= trigger && trigger < candidate.endToken);
    if (sentence && (deniedOrHypothetical(tokens, sentence, trigger) || startsAllianceCue(tokens, trigger, sentence.endToken))) continue;
    if (fightsWith(tokens, trigger)) continue;
    const reportsIt = (party: TextSpan) => REPORTED_BY.test(text.slice(Math.min(party.end, event.trigger.end), Math.max(party.start, event.trigger.start)));
    const party = (p: TextSpan) => !reportsIt(p) && !leadsOnly(tokens, tokenIndexAt(tokens, p.end));
    // "Kataib Hezbollah, an Iran-backed militia, said it carried out the strike": the pronoun is the speaker.
    // "condemned the attack on Y", "terrorists who were preparing an attack on Y": a name before the act is its doer only within reach.
    const inReach = (p: TextSpan) => p.start > event.trigger.start || doerInReach(tokens, tokenIndexAt(tokens, p.end), trigger);
    const perpetrators = event.participants.filter((p) => p.role === 'perpetrator' && party(p) && inReach(p)).map((p) => speakerOfPronoun(tokens, sentences, actors, p) ?? p);
    const targets = event.participants.filter((p) => p.role === 'target' && party(p));
    // "alarmed by air strikes by the Syrian Government": whoever follows "by" did it, whatever the roles say.
    if (targets.some((t) => /^\s*by\s+(?:the\s+)?$/i.test(text.slice(event.trigger.end, t.start)))) continue;
    // The clause's reading of the act stands: the event's nearest-name subject ("the RSF, which the UAE arms, attacked the SAF") or
    // nearest-name object ("The YPG, the main component of the SDF, were attacked by Turkish forces") does not add to it.
    const readByClause = (r: RelationMention) => r.type === 'OPPOSES' && r.start <= event.trigger.start && event.trigger.end <= r.end &&
      (targets.some((t) => t.start === r.to.start) || perpetrators.some((p) => p.start === r.from.start));
    if (targets.length === 0 || relations.some(readByClause)) continue;
    for (const perpetrator of perpetrators) for (const target of targets) relate('OPPOSES', perpetrator, target);
    for (const [a, b] of pairsOf(perpetrators)) relate('ALLIED_WITH', a, b);
  }
  return found;
}

/**
 * "The US-led coalition said its aircraft hit ISIS": a name that only says who leads a coalition, or a pronoun
 * standing for one, is no party to what the coalition does.
 */
function standsForLeader(tokens: Token[], actors: ActorMention[], end: TextSpan): boolean {
  let mention = actors.find((actor) => actor.start === end.start);
  for (let hops = 0; mention && hops <= actors.length; hops++) {
    if (leadsOnly(tokens, tokenIndexAt(tokens, mention.end))) return true;
    const antecedent = mention.reference ? mention.antecedent : undefined;
    mention = antecedent && actors.find((actor) => actor.start === antecedent.start);
  }
  return false;
}
