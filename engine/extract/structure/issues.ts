import type { TextSpan } from '../types.ts';

/**
 * What a claim is about (Issue nodes, filled from the standard tier up): the negotiable
 * subjects that recur in conflict statements, found by cue words in the claim's text.
 * Deliberately small: an issue is only named when the claim says the word. The label is the
 * Issue's identity, so the same issue in two documents (or two ingests) is one node.
 */
const ISSUE_CUES: readonly [RegExp, string][] = [
  [/\b(cease-?fires?|truce|cessation of hostilities|armistice|halt to (?:the )?fighting)\b/i, 'ceasefire'],
  [/\b(withdraw(?:al|s|n)?|pull(?:ing|ed)? out|pull(?:ing|ed)? back|redeploy(?:ment)?)\b/i, 'withdrawal'],
  [/\b(elections?|vote|referendum|polls)\b/i, 'elections'],
  [/\b(power[- ]sharing|share of power|(?:seats|posts|ministries) in (?:the )?(?:government|cabinet)|unity government|government of national unity)\b/i, 'power sharing'],
  [/\b(transitional government|transition(?:al)? to civilian rule|civilian rule|political transition|constitution(?:al)?)\b/i, 'political transition'],
  [/\b(humanitarian (?:access|corridors?|aid|assistance|workers|convoys?)|aid (?:convoys?|workers|deliveries|agencies)|relief (?:supplies|convoys?)|access for aid)\b/i, 'humanitarian access'],
  [/\b(prisoners?|detainees?|hostages?|captives|abductees)\b/i, 'prisoners and hostages'],
  [/\b(sanctions?|embargo)\b/i, 'sanctions'],
  [/\b(integrat(?:e|ion|ing) (?:of|into|in) (?:the )?(?:national )?(?:army|armed forces|military)|security sector reform|unified army)\b/i, 'security sector integration'],
  [/\b(disarm(?:s|ed|ament|ing)?|demobili[sz](?:e|ation)|lay down (?:their |its )?(?:weapons|arms)|hand over (?:their |its )?(?:weapons|arms)|decommission\w*)\b/i, 'disarmament'],
  [/\b(borders?|territor(?:y|ies|ial)|annex(?:ation|ed)?|occupied|occupation|(?:control|sovereignty) (?:of|over) (?:the )?(?:town|city|region|province|area|land)|hand(?:ed|ing)? back (?:the )?(?:town|city|region|province|area)|buffer zone)\b/i, 'territory'],
  [/\b(oil(?:fields?)?|gold (?:mines?)?|minerals?|mining|water rights|grazing|farmland|revenues?|natural resources)\b/i, 'resources'],
  [/\b(protection of civilians|civilian (?:lives|protection|casualties)|safety of civilians|protect(?:ing)? (?:the )?civilians)\b/i, 'protection of civilians'],
  [/\b(war crimes|accountability|impunity|investigation|tribunal|justice for)\b/i, 'accountability'],
  [/\b(refugees|displaced (?:people|persons|families)|return of (?:the )?displaced|right of return)\b/i, 'displacement and return'],
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
