import type { InterestType } from '../../ontology/index.ts';
import type { TextSpan } from '../types.ts';

/**
 * What a speaker needs beneath its position (Interest nodes, standard tier up), read from the
 * justifications and stated needs in a claim's text: a purpose clause ("in order to protect our
 * people", "to ensure the safety of civilians") or a need ("we need security guarantees"). The
 * interest is the purpose's object, typed by its words; a purpose naming none of them is not read.
 */

const PURPOSE_VERBS = 'ensure|protect|defend|safeguard|secure|guarantee|preserve|restore|regain|recover|keep';
/** Purpose and need openers; the words after them (up to a clause break) say what is wanted. */
const OPENER = new RegExp(String.raw`\b(?:in\s+order\s+to|so\s+as\s+to|for\s+the\s+sake\s+of|(?:we|they|it|he|she)\s+(?:need|needs|needed|require|requires|required|want|wants|seek|seeks|sought)|(?:necessary|essential|vital)\s+(?:to|for)|\bright\s+to|(?:to|and)\s+(?=(?:${PURPOSE_VERBS})\b))\b\s*`, 'gi');
/** Words that end the wanted thing: a new clause, or a preposition that says when, where or against whom. */
const BREAK_WORDS = new Set([
  'and', 'or', 'but', 'while', 'which', 'who', 'that', 'after', 'before', 'until', 'unless', 'if', 'when', 'said', 'says',
  'from', 'against', 'in', 'at', 'on', 'by', 'with', 'during', 'through', 'because', 'as', 'than', 'for', 'to', 'into',
  'is', 'are', 'was', 'were', 'will', 'would', 'must', 'should', 'can', 'could', 'has', 'have', 'had', 'remains', 'not',
]);
const MAX_OBJECT_WORDS = 8;

/** Interest type cues, in priority order: the first type whose words the purpose names wins. */
const TYPE_CUES: readonly [InterestType, RegExp][] = [
  ['autonomy', /\b(autonomy|self-determination|self-rule|independence|self-government|federalism)\b/i],
  ['territory', /\b(territor\w*|land|lands|borders?|region|homeland|soil|control of|sovereignty over)\b/i],
  ['resources', /\b(water|oil|gold|minerals?|resources|grazing|pasture|fuel|food|farmland|rivers?|wells)\b/i],
  ['recognition', /\b(recogni[sz]\w*|dignity|respect|legitimacy|status|acknowledg\w*)\b/i],
  ['identity', /\b(identity|culture|cultural|language|religion|religious|heritage|ethnic\w*|faith|traditions?)\b/i],
  ['participation', /\b(participation|participate|representation|represented|say\s+in|inclusion|included|vote|voting|voice|seat\s+at\s+the\s+table)\b/i],
  ['power', /\b(power|seats?|share\s+of|role\s+in)\b/i],
  ['economic', /\b(economy|economic|jobs|livelihoods?|salaries|wages|trade|revenues?|income|prosperity|investment|development)\b/i],
  ['security', /\b(secur\w*|safe\w*|protect\w*|defen[cs]e|defend\w*|survival|survive|guarantees?|lives|people|population|civilians|citizens|attacks?|threats?|stability|peace|order)\b/i],
];

/** Words dropped from an interest's label: it names the need, not whose it is. */
const LABEL_STOPWORDS = new Set(['the', 'a', 'an', 'our', 'their', 'its', 'his', 'her', 'my', 'your', 'we', 'they', 'them', 'us', 'own', 'all', 'that', 'this', 'these', 'those']);
const MAX_LABEL_WORDS = 6;

export interface InterestCue extends TextSpan {
  label: string;
  interest_type: InterestType;
}

/** Interests a claim's text states, offsets into that text, one per label. */
export function findInterests(claimText: string): InterestCue[] {
  const found: InterestCue[] = [];
  for (const opener of claimText.matchAll(OPENER)) {
    const words = wantedWords(claimText, opener.index + opener[0].length);
    if (words.length === 0) continue;
    const phrase = words.map((word) => word.text).join(' ');
    const interestType = TYPE_CUES.find(([, pattern]) => pattern.test(phrase))?.[0];
    if (!interestType) continue;
    const label = interestLabel(phrase);
    if (!label || found.some((known) => known.label === label)) continue;
    found.push({ label, interest_type: interestType, start: opener.index, end: words[words.length - 1].end });
  }
  return found;
}

/** The words after an opener up to a clause break: "protect our people | from attacks". */
function wantedWords(text: string, from: number): { text: string; end: number }[] {
  const words: { text: string; end: number }[] = [];
  const pattern = /[\w'-]+|[^\s\w'-]/g;
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match && words.length < MAX_OBJECT_WORDS; match = pattern.exec(text)) {
    const word = match[0].toLowerCase();
    if (!/\w/.test(word)) break;
    // "the safety of civilians | trapped in ...": a participle after the head noun starts a new phrase.
    if (words.length > 0 && (BREAK_WORDS.has(word) || (words.length > 1 && /\w{3}(?:ed|ing)$/.test(word) && word !== 'wellbeing'))) break;
    words.push({ text: match[0], end: match.index + match[0].length });
  }
  return words;
}

function interestLabel(phrase: string): string {
  const words = phrase.toLowerCase().replace(/'s\b/g, '').split(/\s+/).filter((word) => word && !LABEL_STOPWORDS.has(word));
  return words.slice(0, MAX_LABEL_WORDS).join(' ');
}
