/**
 * The intents `analyze` routes by: the kinds of question a plain-language question
 * asks, by the words in it. Each framework's manifest lists the kinds it answers
 * (`answers`, checked against this list), so a third-party framework is routed the
 * same way as the built-ins, and a new kind of question is one entry here.
 * A question that names no kind but asks about the conflict as a whole goes to
 * every framework; one that is about neither gets an answer saying which
 * questions are understood. Matching is on lower-cased words, deterministic; the
 * intents come in the order the question asks them (where their words first occur),
 * so "Why do the negotiations keep failing?" is first about bargaining failure.
 *
 * `finds` names the findings (framework id and finding key, frameworks/<id>/rules.pl)
 * that answer the kind of question, most telling first: the answer writer
 * (engine/reason/answer.ts) reads their values for the answer's first sentences. A
 * framework that answers an intent but is not named here contributes its readings.
 */

interface IntentWords {
  intent: string;
  /** What such a question asks, for the "questions understood" answer and the docs. */
  asks: string;
  words: RegExp;
  finds: readonly `${string}.${string}`[];
}

export const INTENT_RULES = [
  { intent: 'escalation', asks: 'What stage of escalation is the conflict in?', words: /\bescalat\w*|\bstage\b|\bintensif\w*|\bworsen\w*|\bhow (bad|serious)\b/, finds: ['glasl.stage', 'glasl.level', 'glasl.intervention', 'kriesberg.phase', 'jervis.spiral'] },
  { intent: 'ripeness', asks: 'Is the conflict ripe for mediation or settlement?', words: /\bripe\w*|\bmediat\w*|\bstalemate\b|\bway out\b|\bready to (talk|negotiate|settle)\b|\btiming\b/, finds: ['zartman.ripe', 'zartman.hurting_stalemate', 'zartman.way_out'] },
  { intent: 'negotiation', asks: 'How are the parties negotiating, and where could agreement lie?', words: /\bnegotiat\w*|\btalks?\b|\bcompromis\w*|\binterests?\b|\bpositions?\b|\bbatna\b|\bwhere could .*agree\w*/, finds: ['fisher_ury.positional_bargaining', 'fisher_ury.shared_interest', 'zartman.way_out', 'thomas_kilmann.mode'] },
  { intent: 'violence', asks: 'What kinds of violence are present: direct, structural, cultural?', words: /\bviolen\w*|\battacks?\b|\bkilling\w*|\bstructural\b|\bcultural\b|\bharm\w*/, finds: ['galtung.dominant_violence', 'galtung.violence', 'fearon.rational_explanation'] },
  { intent: 'phase', asks: 'Which phase of its life cycle is the conflict in?', words: /\bphase\w*|\blife ?cycle\b|\bde-?escalat\w*|\bsettlement\b|\bpost-?conflict\b|\blatent\b|\btrajector\w*/, finds: ['kriesberg.phase', 'kriesberg.trend', 'glasl.stage'] },
  { intent: 'leadership', asks: 'Which levels of leadership are engaged in the process?', words: /\bleaders?(hip)?\b|\bgrassroots?\b|\bcivil society\b|\bmiddle[- ]range\b|\btrack (one|two|1|2)\b|\bwho is (involved|engaged)\b|\blevels?\b/, finds: ['lederach.single_level_process', 'lederach.level_engaged', 'lederach.missing_level'] },
  { intent: 'cooperation', asks: 'Is the interaction cooperative or competitive, and which way is it trending?', words: /\bcooperat\w*|\bcompetit\w*|\brelationship\w*|\btrust\b/, finds: ['deutsch.interaction', 'deutsch.trend'] },
  { intent: 'conflict_style', asks: 'How does each party handle the conflict: competing, collaborating, compromising, avoiding, accommodating?', words: /\bstyles?\b|\bmodes?\b|\bapproach\w*|\bhandl\w*|\bavoid\w*|\baccommodat\w*|\bcollaborat\w*/, finds: ['thomas_kilmann.mode'] },
  { intent: 'power', asks: 'Which bases of power does each actor use?', words: /\bpower\b|\bleverage\b|\binfluence\w*|\bcoerc\w*|\bstronge?r?\b/, finds: ['french_raven.power_base', 'french_raven.dominant_base', 'fisher_ury.batna'] },
  { intent: 'needs', asks: 'Which basic human needs are threatened?', words: /\bneeds?\b|\bnon-?negotiable\b|\bgrievances?\b|\brecognition\b|\bsecurity of\b|\bdignity\b/, finds: ['burton.threatened_need', 'burton.bargainable', 'azar.precondition'] },
  { intent: 'identity', asks: 'Is this a protracted social conflict over communal identity?', words: /\bidentit\w*|\bethnic\w*|\bcommunal\b|\breligio\w*|\bprotracted\b/, finds: ['azar.protracted_social_conflict', 'azar.precondition'] },
  { intent: 'bargaining', asks: 'Why do talks keep failing, and why do the parties fight rather than settle: information, commitment, indivisibility?', words: /\bwhy (do|does|did|are|is|have|has) .*\b(fail\w*|collaps\w*|stall\w*|break(s|ing)? down|broke(n)? down)|\bwhy (can'?t|cannot|won'?t|don'?t|doesn'?t) .*\b(agree|settle|make peace|reach)\w*|\bwhy (do|does|are|is) .*\b(fight|war)\w*|\bcommitment problem\w*|\bcredib\w*|\bindivisib\w*|\bbargain\w*|\brational\w*/, finds: ['fearon.commitment_problem', 'fearon.information_problem', 'fearon.indivisibility', 'stedman.spoiler', 'stedman.spoiler_position', 'fisher_ury.positional_bargaining'] },
  { intent: 'spoilers', asks: 'Who could spoil an agreement?', words: /\bspoil\w*|\bundermin\w*|\bsabotag\w*|\bderail\w*|\bwreck\w*|\bveto\w*/, finds: ['stedman.spoiler', 'stedman.spoiler_position', 'stedman.peace_process'] },
  { intent: 'dispute_system', asks: 'Is the dispute handled by interests, rights or power?', words: /\bhow (is|are|do|does) .*\b(handl|manag|settl|resolv|deal)\w*|\brights?\b|\bcourts?\b|\blegal\w*|\blaw\b|\bdispute system\b|\barbitrat\w*/, finds: ['ury_brett_goldberg.dominant', 'ury_brett_goldberg.recommendation'] },
  { intent: 'security_dilemma', asks: 'Are defensive moves read as threats, feeding a spiral?', words: /\bsecurity dilemma\b|\bspiral\w*|\barms race\b|\bmobili[sz]\w*|\bdefensive\b|\bdeterr\w*|\btit[- ]for[- ]tat\b/, finds: ['jervis.spiral', 'jervis.spiral_pair'] },
  { intent: 'commitment', asks: 'Can the parties be trusted to keep what they commit to?', words: /\bcommit\w*|\bpledg\w*|\bkeep (their|its|to) (word|promises?|commitments?|agreements?)|\bhonou?r\w*|\bviolat\w*|\btrust (them|each other|the other)/, finds: ['fearon.commitment_problem', 'stedman.spoiler', 'stedman.strategy'] },
  { intent: 'root_causes', asks: 'What are the root causes of the conflict?', words: /\broot\b|\bcauses?\b|\bcaused\b|\bunderlying\b|\bdrivers?\b|\bwhat (drives|is driving)\b|\bwhy did .*\b(start|begin|began|break out|broke out)\b/, finds: ['galtung.dominant_violence', 'galtung.violence', 'azar.protracted_social_conflict', 'azar.precondition', 'burton.threatened_need', 'fearon.rational_explanation'] },
  { intent: 'heading', asks: 'Where is the conflict heading?', words: /\bheading\b|\bheaded\b|\bwhere .*\bgoing\b|\bwhat (comes|happens|will happen) next\b|\boutlook\b|\bforecast\w*|\bfuture\b|\bprospects?\b|\bwill it (get|become)\b/, finds: ['kriesberg.phase', 'kriesberg.trend', 'glasl.stage', 'deutsch.trend', 'jervis.spiral'] },
  { intent: 'relationship', asks: 'Is the relationship between the parties improving or getting worse?', words: /\b(is|are|has|have) (the )?relations\w*|\bimprov\w*|\bgetting (better|worse)\b|\breconcil\w*|\brapprochement\b|\bthaw\w*|\brelations\b/, finds: ['deutsch.trend', 'deutsch.interaction', 'deutsch.pair_interaction', 'kriesberg.trend'] },
  { intent: 'mediation', asks: 'Who could mediate, and through which channel?', words: /\bwho (can|could|should|might|would) (mediate|broker|facilitate|help)\b|\bmediators?\b|\bthird[- ]part(y|ies)\b|\bbroker\w*|\bgood offices\b|\bintermediar\w*/, finds: ['zartman.way_out', 'lederach.missing_level', 'lederach.level_engaged', 'glasl.intervention'] },
] as const satisfies readonly IntentWords[];

export type Intent = (typeof INTENT_RULES)[number]['intent'];

/** The kinds of question, in the order above: what a manifest's `answers` may name. */
export const INTENTS: readonly Intent[] = INTENT_RULES.map((rule) => rule.intent);

/** Words of a question about the conflict as a whole: every framework answers it. */
const GENERAL = /\bconflict\b|\bsituation\b|\banaly[sz]\w*|\boverview\b|\bsummar\w*|\bassess\w*|\bwhat is (happening|going on)\b|\bexplain\b|\bwar\b|\bcrisis\b/;

export type Routing = { kind: 'intents'; intents: Intent[] } | { kind: 'general' } | { kind: 'unrelated' };

export function routeQuestion(question: string): Routing {
  const text = question.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  const intents = INTENT_RULES.flatMap((rule, order) => {
    const at = text.search(rule.words);
    return at < 0 ? [] : [{ intent: rule.intent, at, order }];
  })
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map(({ intent }) => intent);
  if (intents.length > 0) return { kind: 'intents', intents };
  if (GENERAL.test(text)) return { kind: 'general' };
  return { kind: 'unrelated' };
}
