import type { Token } from './text.ts';

/**
 * Acronyms that name weapons, vehicles, munitions and technical means, not actors: "an IED
 * attack", "HIMARS strikes", "a UAV struck". Known types are a stop-list; an unknown acronym is
 * one by its context: after "a"/"an" heading its own noun phrase ("planted an IED on the road")
 * or before "attack"/"strike" ("a UAV strike"), or before a word for a system or a munition
 * ("MLRS batteries"). "ISWAP attacks" and "RSF drones" stay an actor's.
 */

const MATERIEL_ACRONYMS = new Set([
  // explosive devices
  'IED', 'VBIED', 'SVBIED', 'PBIED', 'RCIED', 'EFP', 'UXO', 'ERW',
  // vehicles and aircraft
  'MRAP', 'APC', 'IFV', 'MBT', 'AFV', 'HMMWV', 'LAV', 'BMP', 'BTR', 'UAV', 'UAS', 'UCAV', 'RPA', 'RPAS', 'FPV', 'USV', 'UGV',
  // weapons and munitions
  'HIMARS', 'MLRS', 'GMLRS', 'ATACMS', 'ATGM', 'ATGMS', 'RPG', 'MANPADS', 'SAM', 'TOW', 'NLAW', 'JDAM', 'SDB', 'MRL', 'SPG', 'AAA',
  'ICBM', 'IRBM', 'SRBM', 'MRBM', 'SLBM', 'RCWS', 'WMD', 'CBRN',
  // technical means
  'GPS', 'ISR', 'EW', 'SIGINT', 'HUMINT', 'IMINT', 'OSINT', 'C2', 'C4ISR', 'AIS', 'ADS-B',
]);

/** Words after an acronym that make it a weapon's or a vehicle's type ("MLRS batteries", "ATGM rounds"). */
const MATERIEL_NOUNS = /^(?:launchers?|systems?|rounds?|battery|batteries|munitions?|devices?|variants?|platforms?|interceptors?|warheads?|ammunition)$/;
/** What may follow an acronym after an article when it names a thing ("an IED on the road", "a UAV struck", "an IED attack"). */
const PHRASE_END = /^(?:[.,;:!?)"”']|on|in|at|near|along|under|into|was|were|is|struck|hit|exploded|detonated|killed|wounded|that|which|and|or|targeting|against|from|to|with|by|attack|strike|\p{Ll}+ed)$/u;

/** A type designation: letters and a number joined by a hyphen ("A-18", "MQ-9", "Su-24", "T-72"), never an actor's name ("G-20" is one). */
const DESIGNATION = /^(?!G-)\p{Lu}[\p{L}]{0,2}-\d+\p{Lu}?$/u;

/** Whether the acronym at `index` names a type of weapon, vehicle, munition or technical means. */
export function isMaterielAcronym(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index];
  if (MATERIEL_ACRONYMS.has(token.text.toUpperCase()) || DESIGNATION.test(token.text)) return true;
  const next = tokens[index + 1];
  if (next && MATERIEL_NOUNS.test(next.lower)) return true;
  const article = tokens[index - 1]?.lower;
  return (article === 'a' || article === 'an') && (next === undefined || PHRASE_END.test(next.lower));
}
