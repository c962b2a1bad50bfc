import type { ActorMention, RelationMention } from '../types.ts';
import { tokenIndexAt, type Token } from './text.ts';

/**
 * Numbered units ("the 3rd Battalion", "55th Brigade", "7 Division", "Third Division"): a member of the forces the text says it
 * belongs to ("55th Brigade of the Iraqi Army", "the Iraqi Army's 55th Brigade", "the 3rd
 * Battalion, part of the Kivaran Defence Forces"), and `armed_forces` when those are a state's.
 * A unit the text places in no force keeps the type its name gives it.
 */

/** "55th", "7" ("7 Division", as Nigeria's army writes it), "Third". */
const ORDINAL = /^(?:\d+(?:st|nd|rd|th)?|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|twentieth)$/i;
/** The last word of a unit's name that says it is a formation of a force ("9th Armoured Division", "Danab Brigade"). */
const FORMATION_WORDS = new Set(['brigade', 'battalion', 'division', 'regiment', 'corps', 'squadron', 'company', 'fleet']);
const UNIT_WORDS = new Set([...FORMATION_WORDS, 'army', 'group', 'wing', 'battery']);

/** Whether a name ends in a formation's word ("9th Armoured Division", "Danab Brigade"), numbered or not. */
export function namesFormation(name: string): boolean {
  return FORMATION_WORDS.has(/\w+$/.exec(name)?.[0].toLowerCase() ?? '');
}

/** Whether the name from `first` to its head word `head` is a numbered unit ("55th Armoured Brigade"). */
export function isNumberedUnit(tokens: readonly Token[], first: number, head: number): boolean {
  return ORDINAL.test(tokens[first]?.text ?? '') && UNIT_WORDS.has(tokens[head]?.lower ?? '');
}

/** MEMBER_OF from each numbered unit to the forces the text places it in; a unit of a state's forces becomes armed_forces. */
export function unitMemberships(text: string, tokens: readonly Token[], actors: ActorMention[]): RelationMention[] {
  const forces = actors.filter((actor) => (actor.actor_type === 'armed_forces' || actor.actor_type === 'armed_group') && !actor.reference);
  const found: RelationMention[] = [];
  for (const unit of forces) {
    const first = tokenIndexAt(tokens, unit.start);
    const last = tokenIndexAt(tokens, unit.end) - 1;
    if (!isNumberedUnit(tokens, first, last)) continue;
    const after = /^(?:,\s*(?:part|a unit|an element)\s+)?\s*of\s+(?:the\s+)?$/i;
    const owner =
      forces.find((army) => army !== unit && army.start >= unit.end && after.test(text.slice(unit.end, army.start))) ??
      forces.find((army) => army !== unit && army.end <= unit.start && /^['’]s\s+$/.test(text.slice(army.end, unit.start)));
    if (!owner) continue;
    if (owner.actor_type === 'armed_forces') unit.actor_type = 'armed_forces';
    found.push({
      type: 'MEMBER_OF', start: Math.min(unit.start, owner.start), end: Math.max(unit.end, owner.end),
      from: { start: unit.start, end: unit.end }, to: { start: owner.start, end: owner.end }, confidence: 0.8,
    });
  }
  return found;
}
