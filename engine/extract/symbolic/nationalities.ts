import { ACTOR_PRIORITY, mention, type ActorCandidate, type Context } from './actors.ts';
import { DEMONYMS } from './gazetteer/places.ts';
import type { Token } from './text.ts';

/**
 * A nation's people as an identity group, not its state: "the Iraqi people", "Syrians",
 * "the Sudanese", "Sudanese civilians" are `community` actors. The people ("the Iraqi
 * people", "Iraqis") are one actor, "<Demonym> people"; a part of them named by a noun
 * ("Sudanese civilians", "Syrian refugees") is an actor of its own under that name.
 */

/** Nouns after a demonym that name part of a nation's people. */
const PEOPLE_PARTS = new Set(['civilians', 'refugees', 'citizens', 'nationals', 'migrants', 'communities', 'villagers', 'farmers', 'herders', 'muslims', 'christians', 'families']);

let pluralIndex: Map<string, string> | undefined;

/** "Syrians" → "Syrian": the plural of each one-word demonym that takes an -s. */
function plurals(): Map<string, string> {
  if (!pluralIndex) {
    pluralIndex = new Map();
    // Demonyms in -an and -i take an -s ("Syrians", "Iraqis"); "Sudanese" and "British" do not.
    for (const demonym of Object.keys(DEMONYMS)) if (/^\p{L}+[in]$/u.test(demonym)) pluralIndex.set(`${demonym}s`, demonym);
  }
  return pluralIndex;
}

function demonymAt(tokens: readonly Token[], index: number): string | undefined {
  const token = tokens[index];
  if (!token?.capitalised) return undefined;
  const two = tokens[index + 1]?.capitalised ? `${token.text} ${tokens[index + 1].text}` : undefined;
  if (two && two in DEMONYMS) return two;
  return token.text in DEMONYMS ? token.text : undefined;
}

export function nationalityCandidates(context: Context): ActorCandidate[] {
  const { tokens } = context;
  const found: ActorCandidate[] = [];
  const push = (first: number, end: number, canonical: string) => {
    const actor = mention(context, first, end, 'community', 'pattern', 0.7, { canonical });
    found.push({ mention: actor, reserve: actor, priority: ACTOR_PRIORITY.organisation });
  };
  for (let i = 0; i < tokens.length; i++) {
    const plural = plurals().get(tokens[i].text);
    if (plural) {
      push(i, i + 1, `${plural} people`);
      continue;
    }
    const demonym = demonymAt(tokens, i);
    if (!demonym) continue;
    const after = i + demonym.split(' ').length;
    const noun = tokens[after]?.lower ?? '';
    if (noun === 'people' || noun === 'population') push(i, after + 1, `${demonym} people`);
    else if (PEOPLE_PARTS.has(noun)) push(i, after + 1, context.text.slice(tokens[i].start, tokens[after].end));
    // "the Sudanese", "the Congolese": a demonym that is its own plural, used as a noun.
    else if (tokens[i - 1]?.lower === 'the' && /(?:ese|ish|ch)$/.test(demonym) && !tokens[after]?.word) push(i, after, `${demonym} people`);
    i = after - 1;
  }
  return found;
}
