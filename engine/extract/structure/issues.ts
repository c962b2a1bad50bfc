import type { TextSpan } from '../types.ts';

/**
 * What a claim is about (Issue nodes, filled from the standard tier up): the negotiable
 * subjects that recur in conflict statements, found by cue words in the claim's text.
 * Deliberately small: an issue is only named when the claim says the word.
 */
const ISSUE_CUES: readonly [RegExp, string][] = [
  [/\b(cease-?fire|truce|cessation of hostilities)\b/i, 'ceasefire'],
  [/\b(withdraw(?:al|s|n)?|pull(?:ing)? out)\b/i, 'withdrawal'],
  [/\b(elections?|vote|referendum)\b/i, 'elections'],
  [/\b(power[- ]sharing|transitional government|transition(?:al)? to civilian rule|civilian rule)\b/i, 'political transition'],
  [/\b(humanitarian (?:access|corridors?|aid)|aid convoys?)\b/i, 'humanitarian access'],
  [/\b(prisoners?|detainees?|hostages?)\b/i, 'prisoners and hostages'],
  [/\b(sanctions?)\b/i, 'sanctions'],
  [/\b(integrat(?:e|ion) (?:of|into) (?:the )?(?:army|armed forces|military))\b/i, 'security sector integration'],
  [/\b(border|territor(?:y|ies|ial)|annex(?:ation|ed)?|occupied)\b/i, 'territory'],
  [/\b(disarm(?:ament|ing)?|demobili[sz]ation)\b/i, 'disarmament'],
];

export interface IssueCue extends TextSpan {
  label: string;
}

/** Issues a claim's text names, offsets into that text, one per issue. */
export function findIssues(claimText: string): IssueCue[] {
  const found: IssueCue[] = [];
  for (const [pattern, label] of ISSUE_CUES) {
    const match = pattern.exec(claimText);
    if (match) found.push({ label, start: match.index, end: match.index + match[0].length });
  }
  return found.sort((a, b) => a.start - b.start);
}
