/**
 * The scope a question names: "between the RSF and the army since March" is about two actors
 * (a dyad) from the first of March on. Actors and places are found by their labels and aliases
 * (the longest name first, whole words only), "the army", "the military" or "the government" as the
 * actor of that kind in the conflict of the other actors named, months and years as a period: a month
 * without a year is its latest occurrence by the graph's last dated record, so the same graph and
 * question give the same scope whatever the day. Analyze reasons over that scope when the request
 * gives none.
 */
import { detectConflicts } from '../conflicts/detect.ts';
import { namesOf, normaliseName, type ResolvedScope } from '../conflicts/scope.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { daysInMonth } from '../store/validate.ts';
import { validTime } from '../store/view.ts';

/** Names shorter than this are left out: a two-letter alias ("AU", "UN") would be met inside ordinary questions too often. */
const MIN_NAME_LENGTH = 3;
/** Common words a label may be ("Related") that do not name an actor in a question. */
const NOT_NAMES = new Set(['related', 'government', 'army', 'military', 'council', 'committee']);
/** Words that stand for the actor of a kind in the conflict of the actors named beside them. */
const GENERIC_ACTORS: Record<string, string> = { army: 'armed_forces', military: 'armed_forces', 'armed forces': 'armed_forces', government: 'government' };
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const PLACE_WORDS = new Set(['in', 'at', 'near', 'around', 'across']);

interface Named {
  start: number;
  end: number;
  ids: string[];
  kind: 'Actor' | 'Location';
}

/** The scope the question names (source "question"), or undefined when it names none. */
export function questionScope(graph: GraphIndex, question: string): (ResolvedScope & { source: 'question' }) | undefined {
  const words = normaliseName(question).split(' ').filter(Boolean);
  const text = ` ${words.join(' ')} `;
  const found = namesIn(graph, text);
  const actors = new Set<string>();
  const places = new Set<string>();
  for (const name of found) for (const id of name.ids) (name.kind === 'Actor' ? actors : places).add(id);
  // "the army" outside the names found: "the DRC government" names the government already
  let rest = text;
  for (const name of found) rest = rest.slice(0, name.start) + ' '.repeat(name.end - name.start) + rest.slice(name.end);
  for (const id of genericActors(graph, rest.replace(/ +/g, ' '), actors)) actors.add(id);
  const period = periodIn(words, latestDay(graph));
  if (actors.size === 0 && places.size === 0 && !period) return undefined;
  const dyad = actors.size === 2 && /\bbetween\b/.test(text);
  return { actors: [...actors].sort(), dyad, places: [...places].sort(), ...period, source: 'question' };
}

/** The actors and places the text names: the longest names first, none overlapping; a name after "in", "at" or "near" is a place when one has it. */
function namesIn(graph: GraphIndex, text: string): Named[] {
  const candidates: Named[] = [];
  for (const kind of ['Actor', 'Location'] as const) {
    const idsByName = new Map<string, string[]>();
    for (const id of graph.nodesWithLabel(kind)) {
      for (const name of namesOf(graph.node(id)!).slice(1)) {
        const normal = normaliseName(name);
        if (normal.length < MIN_NAME_LENGTH || NOT_NAMES.has(normal)) continue;
        if (!idsByName.get(normal)?.includes(id)) idsByName.set(normal, [...(idsByName.get(normal) ?? []), id]);
      }
    }
    for (const [name, ids] of idsByName) {
      for (let at = text.indexOf(` ${name} `); at >= 0; at = text.indexOf(` ${name} `, at + 1)) candidates.push({ start: at + 1, end: at + 1 + name.length, ids: ids.sort(), kind });
    }
  }
  // of an actor and a place of the same name, the place after "in", "at" or "near", else the actor
  const preference = (named: Named) => ((named.kind === 'Location') === PLACE_WORDS.has(text.slice(0, named.start - 1).split(' ').pop() ?? '') ? 0 : 1);
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || preference(a) - preference(b));
  const taken: Named[] = [];
  for (const candidate of candidates) if (!taken.some((other) => candidate.start < other.end && other.start < candidate.end)) taken.push(candidate);
  return taken;
}

/** "the army" and its like: the actor of that kind in the conflict of the actors named, when one stands out (its names hold the word, or it is the only one). */
function genericActors(graph: GraphIndex, text: string, named: Set<string>): string[] {
  if (named.size === 0) return [];
  const conflict = detectConflicts(graph).find((candidate) => [...named].some((id) => candidate.actors.includes(id)));
  if (!conflict) return [];
  const found: string[] = [];
  for (const [word, type] of Object.entries(GENERIC_ACTORS)) {
    if (!text.includes(` ${word} `)) continue;
    const ofType = conflict.actors.filter((id) => !named.has(id) && graph.node(id)?.properties.actor_type === type);
    const holdingWord = ofType.filter((id) => namesOf(graph.node(id)!).some((name) => ` ${normaliseName(name)} `.includes(` ${word} `)));
    const chosen = holdingWord.length === 1 ? holdingWord : ofType.length === 1 ? ofType : [];
    found.push(...chosen);
  }
  return found;
}

/** The last day a record of the graph is dated: what "March" without a year is counted back from. */
function latestDay(graph: GraphIndex): string | undefined {
  let latest: string | undefined;
  for (const node of graph.nodes.values()) {
    const day = validTime(node);
    if (day !== undefined && (latest === undefined || day > latest)) latest = day;
  }
  return latest;
}

/**
 * The period the words name: "since|after|from <month> [year]" a first day, "until|till|to|before <month> [year]"
 * a last day ("before" the day before the month), "in|during <month> year" or "in <year>" both; a year alone after
 * since or until counts as its first or last day.
 */
function periodIn(words: string[], reference: string | undefined): { from?: string; to?: string } | undefined {
  const period: { from?: string; to?: string } = {};
  for (let i = 0; i < words.length - 1; i++) {
    const cue = words[i];
    const when = dateAt(words, i + 1, reference);
    if (!when) continue;
    if (cue === 'since' || cue === 'after' || cue === 'from') period.from = cue === 'after' ? nextDay(when.last) : when.first;
    else if (cue === 'until' || cue === 'till' || cue === 'to' || cue === 'through' || (cue === 'and' && period.from !== undefined)) period.to = when.last;
    else if (cue === 'before') period.to = previousDay(when.first);
    else if (cue === 'in' || cue === 'during') {
      period.from = when.first;
      period.to = when.last;
    } else if (cue === 'between') period.from = when.first;
  }
  return period.from !== undefined || period.to !== undefined ? period : undefined;
}

/** The month (with or without a year) or year at words[i], as its first and last day. */
function dateAt(words: string[], i: number, reference: string | undefined): { first: string; last: string } | undefined {
  const month = MONTHS.indexOf(words[i]) + 1;
  const yearAt = (word: string | undefined) => (word !== undefined && /^(19|20)\d\d$/.test(word) ? Number(word) : undefined);
  if (month > 0) {
    // "may" is also a verb: a month it is only with a year after it, or after a cue word that leaves no doubt
    const year = yearAt(words[i + 1]) ?? (month === 5 ? undefined : latestYearOf(month, reference));
    if (year === undefined) return undefined;
    const mm = String(month).padStart(2, '0');
    return { first: `${year}-${mm}-01`, last: `${year}-${mm}-${String(daysInMonth(year, month)).padStart(2, '0')}` };
  }
  const year = yearAt(words[i]);
  return year === undefined ? undefined : { first: `${year}-01-01`, last: `${year}-12-31` };
}

/** The year of the latest `month` that began by the reference day (the reference's year when there is none). */
function latestYearOf(month: number, reference: string | undefined): number | undefined {
  if (reference === undefined) return undefined;
  const year = Number(reference.slice(0, 4));
  return month <= Number(reference.slice(5, 7)) ? year : year - 1;
}

function nextDay(day: string): string {
  return new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
}

function previousDay(day: string): string {
  return new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
}
