/**
 * The intents `analyze` routes by: the kinds of question a plain-language question
 * asks, by the words in it. Each framework's manifest lists the kinds it answers
 * (`answers`, checked against this list), so a third-party framework is routed the
 * same way as the built-ins, and a new kind of question is one entry here.
 * A question that names no kind but asks about the conflict as a whole goes to
 * every framework; one that is about neither gets an answer saying which
 * questions are understood. Matching is on lower-cased words, deterministic.
 */

interface IntentWords {
  intent: string;
  /** What such a question asks, for the "questions understood" answer and the docs. */
  asks: string;
  words: RegExp;
}

export const INTENT_RULES = [
  { intent: 'escalation', asks: 'What stage of escalation is the conflict in?', words: /\bescalat\w*|\bstage\b|\bintensif\w*|\bworsen\w*|\bhow (bad|serious)\b/ },
  { intent: 'ripeness', asks: 'Is the conflict ripe for mediation or settlement?', words: /\bripe\w*|\bmediat\w*|\bstalemate\b|\bway out\b|\bready to (talk|negotiate|settle)\b|\btiming\b/ },
  { intent: 'negotiation', asks: 'How are the parties negotiating, and where could agreement lie?', words: /\bnegotiat\w*|\btalks?\b|\bcompromis\w*|\binterests?\b|\bpositions?\b|\bbatna\b|\bwhere could .*agree\w*/ },
  { intent: 'violence', asks: 'What kinds of violence are present: direct, structural, cultural?', words: /\bviolen\w*|\battacks?\b|\bkilling\w*|\bstructural\b|\bcultural\b|\bharm\w*/ },
  { intent: 'phase', asks: 'Which phase of its life cycle is the conflict in?', words: /\bphase\w*|\blife ?cycle\b|\bde-?escalat\w*|\bsettlement\b|\bpost-?conflict\b|\blatent\b|\btrajector\w*/ },
  { intent: 'leadership', asks: 'Which levels of leadership are engaged in the process?', words: /\bleaders?(hip)?\b|\bgrassroots?\b|\bcivil society\b|\bmiddle[- ]range\b|\btrack (one|two|1|2)\b|\bwho is (involved|engaged)\b|\blevels?\b/ },
  { intent: 'cooperation', asks: 'Is the interaction cooperative or competitive, and which way is it trending?', words: /\bcooperat\w*|\bcompetit\w*|\brelationship\w*|\btrust\b/ },
  { intent: 'conflict_style', asks: 'How does each party handle the conflict: competing, collaborating, compromising, avoiding, accommodating?', words: /\bstyles?\b|\bmodes?\b|\bapproach\w*|\bhandl\w*|\bavoid\w*|\baccommodat\w*|\bcollaborat\w*/ },
  { intent: 'power', asks: 'Which bases of power does each actor use?', words: /\bpower\b|\bleverage\b|\binfluence\w*|\bcoerc\w*|\bstronge?r?\b/ },
  { intent: 'needs', asks: 'Which basic human needs are threatened?', words: /\bneeds?\b|\bnon-?negotiable\b|\bgrievances?\b|\brecognition\b|\bsecurity of\b|\bdignity\b/ },
  { intent: 'identity', asks: 'Is this a protracted social conflict over communal identity?', words: /\bidentit\w*|\bethnic\w*|\bcommunal\b|\breligio\w*|\bprotracted\b/ },
  { intent: 'bargaining', asks: 'Why do the parties fight rather than bargain: information, commitment, indivisibility?', words: /\bwhy (do|does|are|is) .*\b(fight|war)\w*|\bcommitment problem\w*|\bcredib\w*|\bindivisib\w*|\bbargain\w*|\brational\w*/ },
  { intent: 'spoilers', asks: 'Who could spoil an agreement?', words: /\bspoil\w*|\bundermin\w*|\bsabotag\w*|\bderail\w*|\bwreck\w*|\bveto\w*/ },
  { intent: 'dispute_system', asks: 'Is the dispute handled by interests, rights or power?', words: /\brights?\b|\bcourts?\b|\blegal\w*|\blaw\b|\bdispute system\b|\barbitrat\w*/ },
  { intent: 'security_dilemma', asks: 'Are defensive moves read as threats, feeding a spiral?', words: /\bsecurity dilemma\b|\bspiral\w*|\barms race\b|\bmobili[sz]\w*|\bdefensive\b|\bdeterr\w*|\btit[- ]for[- ]tat\b/ },
] as const satisfies readonly IntentWords[];

export type Intent = (typeof INTENT_RULES)[number]['intent'];

/** The kinds of question, in the order above: what a manifest's `answers` may name. */
export const INTENTS: readonly Intent[] = INTENT_RULES.map((rule) => rule.intent);

/** Words of a question about the conflict as a whole: every framework answers it. */
const GENERAL = /\bconflict\b|\bsituation\b|\banaly[sz]\w*|\boverview\b|\bsummar\w*|\bassess\w*|\bwhat is (happening|going on)\b|\bexplain\b|\bwar\b|\bcrisis\b/;

export type Routing = { kind: 'intents'; intents: Intent[] } | { kind: 'general' } | { kind: 'unrelated' };

export function routeQuestion(question: string): Routing {
  const text = question.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  const intents = INTENT_RULES.filter((rule) => rule.words.test(text)).map((rule) => rule.intent);
  if (intents.length > 0) return { kind: 'intents', intents };
  if (GENERAL.test(text)) return { kind: 'general' };
  return { kind: 'unrelated' };
}
