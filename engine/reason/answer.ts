/**
 * The answer first: from the runs `analyze` made, a short direct answer to the question and
 * one reading per framework. For each of the question's intents, the findings that answer it
 * (intents.ts `finds`) are read from their values, in the order of the assess ranking, and said
 * in a sentence naming who and what, how sure (the run's score), and the ids it rests on. The
 * words of a finding's own sentence are never parsed: actors and issues come from the value's
 * ids and from the records the finding cites. A pure stage: the same runs, intents and graph
 * give the same text.
 */
import { INTENT_RULES, type Intent } from '../frameworks/intents.ts';
import type { Finding, FrameworkRun } from '../frameworks/run.ts';
import type { PrologValue } from '../prolog/bridge.ts';
import type { GraphIndex } from '../store/graph-index.ts';

/** Words the answer stays within (ids included); a reading that does not fit is left to `readings`. */
export const ANSWER_WORDS = 120;
/** Frameworks one intent's answer draws on at most. */
const FRAMEWORKS_PER_INTENT = 4;
/** Intents of one question the answer speaks to; the rest are in the readings. */
const INTENTS_ANSWERED = 2;
/** Ids cited per sentence of the answer; `readings` list more. */
const IDS_PER_SENTENCE = 3;
/** Ids a reading lists. */
const IDS_PER_READING = 8;
/** Names listed before "and N more". */
const NAMES_LISTED = 3;
/** Finding groups one reading summarises. */
const GROUPS_PER_READING = 3;

export interface Reading {
  framework_id: string;
  name: string;
  applies: boolean;
  score: number;
  /** The framework's contribution in one or two sentences. */
  summary: string;
  /** The ids the summary rests on (the first IDS_PER_READING). */
  evidence: string[];
}

interface WrittenAnswer {
  answer: string;
  readings: Reading[];
  /** Every id the answer and the readings cite. */
  cited: string[];
}

/** Runs in the order assess ranks them: frameworks that apply first, then by score, then by id. */
export function byRank(a: FrameworkRun, b: FrameworkRun): number {
  return Number(b.applies) - Number(a.applies) || b.score - a.score || (a.framework_id < b.framework_id ? -1 : 1);
}

/** How sure a reading is, in words, from the run's score (0..1). */
function strength(score: number): 'strong' | 'moderate' | 'weak' {
  return score >= 0.75 ? 'strong' : score >= 0.5 ? 'moderate' : 'weak';
}

/** Label words kept of a record other than an actor named inside a phrase (a claim's text can run to a paragraph). */
const LABEL_WORDS = 8;

type Answering = FrameworkRun & { error?: undefined };
const answering = (run: FrameworkRun): run is Answering => run.applies && !run.error && run.findings.length > 0;

const findsOf = (intent: Intent): readonly string[] => INTENT_RULES.find((candidate) => candidate.intent === intent)?.finds ?? [];

/** The findings of a run that answer an intent, in the intent's order of keys. */
function focusKeys(intent: Intent, frameworkId: string): string[] {
  return findsOf(intent).filter((name) => name.startsWith(`${frameworkId}.`)).map((name) => name.slice(frameworkId.length + 1));
}

/**
 * The frameworks that answer an intent, in the order the answer draws on them: weak readings
 * last; then the theory made for that kind of question first (the order of `finds`), since a
 * moderate reading of the phase answers "where is it heading?" better than a strong one of
 * cooperation; then as assess ranks them.
 */
function answerers(intent: Intent, ranked: FrameworkRun[]): FrameworkRun[] {
  const preference = (run: FrameworkRun) => findsOf(intent).findIndex((name) => name.startsWith(`${run.framework_id}.`));
  const weak = (run: FrameworkRun) => Number(strength(run.score) === 'weak');
  return ranked
    .filter((run) => answering(run) && run.findings.some((finding) => focusKeys(intent, run.framework_id).includes(finding.key)))
    .sort((a, b) => weak(a) - weak(b) || preference(a) - preference(b) || byRank(a, b));
}

const opening = (run: FrameworkRun) => `${run.name} (${strength(run.score)} reading, score ${run.score.toFixed(2)})`;

export function writeAnswer(intents: readonly Intent[], runs: FrameworkRun[], graph: GraphIndex): WrittenAnswer {
  const ranked = [...runs].sort(byRank);
  const words = new Words(graph);
  const sentences: string[] = [];
  const cited = new Set<string>();
  let used = 0;
  const fits = (text: string) => sentences.length === 0 || used + wordCount(text) <= ANSWER_WORDS;
  const say = (sentence: string, ids: string[]): boolean => {
    const text = ids.length > 0 ? `${sentence} [${ids.join(', ')}]` : sentence;
    if (!fits(text)) return false;
    sentences.push(text);
    used += wordCount(text);
    ids.forEach((id) => cited.add(id));
    return true;
  };
  /** One sentence of a run's groups, as many of them as fit, and the unknowns of those said. */
  const sayGroups = (run: FrameworkRun, groups: Group[]): boolean => {
    for (let n = groups.length; n > 0; n--) {
      const said = groups.slice(0, n);
      if (!say(`${opening(run)}: ${said.map((group) => group.phrase).join('; ')}.`, spread(said.map((group) => group.evidence), IDS_PER_SENTENCE))) continue;
      const unknown = said.flatMap((group) => (group.unknown ? [group.unknown] : []));
      if (unknown.length > 0) say(`${capitalise(unknown.join('; '))}.`, []);
      return true;
    }
    return false;
  };

  // the answer: per intent asked, the frameworks whose findings answer it, each saying only those findings
  const relevant: FrameworkRun[] = [];
  for (const intent of intents.slice(0, INTENTS_ANSWERED)) {
    for (const run of answerers(intent, ranked).slice(0, FRAMEWORKS_PER_INTENT)) {
      if (relevant.includes(run)) continue;
      const keys = focusKeys(intent, run.framework_id);
      if (sayGroups(run, words.groups(run, keys).filter((group) => keys.includes(group.key)))) relevant.push(run);
    }
  }
  // a general question, or one no finding answers directly: the best ranked readings, their first finding each
  if (relevant.length === 0) {
    for (const run of ranked.filter(answering).slice(0, FRAMEWORKS_PER_INTENT)) {
      if (sayGroups(run, words.groups(run, []).slice(0, 1))) relevant.push(run);
    }
  }
  const silent = ranked.filter((run) => !answering(run));
  if (relevant.length === 0) {
    say(`None of the ${runs.length} frameworks asked can answer yet: the graph does not hold the evidence they need (see readings).`, []);
  } else if (silent.length > 0) {
    say(`${silent.length} of the ${runs.length} frameworks asked cannot say for lack of evidence (see readings).`, []);
  }

  // the readings: the frameworks the answer rests on first, then the others as ranked
  const readings = [...relevant, ...ranked.filter((run) => !relevant.includes(run))].map((run) => {
    const reading = words.reading(run, intents);
    reading.evidence.forEach((id) => cited.add(id));
    return reading;
  });
  return { answer: sentences.join(' '), readings, cited: [...cited].sort() };
}

interface Group {
  key: string;
  phrase: string;
  /** The aggregated unknowns of a per-actor key ("BATNA unknown for 12 of 19 parties"). */
  unknown?: string;
  evidence: string[];
}

/** Value atoms as words; those not listed read with their underscores as spaces. */
const VALUE_WORDS: Record<string, string> = {
  de_escalating: 'de-escalating',
  post_conflict: 'post-conflict',
  lose_lose: 'lose-lose',
  win_lose: 'win-lose',
  win_win: 'win-win',
  loop_back_to_rights_and_interests: 'loop back from power to rights and interests',
};
/** How a finding key reads: for a yes/no value, the thing that holds ("{v}" marks where any other value goes). */
const KEY_WORDS: Record<string, { yes?: string; no?: string; value?: string; plural?: string }> = {
  'fearon.commitment_problem': { yes: 'a commitment problem', no: 'no commitment problem' },
  'fearon.information_problem': { yes: 'an information problem', no: 'no information problem' },
  'fearon.indivisibility': { yes: 'an indivisible stake', no: 'no indivisible stake' },
  'fearon.rational_explanation': { value: 'bargaining fails by {v}' },
  'stedman.spoiler': { plural: 'spoilers' },
  'stedman.spoiler_position': { plural: 'spoilers' },
  'stedman.strategy': { plural: 'strategies towards spoilers' },
  'stedman.peace_process': { yes: 'a peace process is under way', no: 'no peace process under way' },
  'zartman.ripe': { yes: 'ripe for resolution', no: 'not ripe' },
  'zartman.hurting_stalemate': { yes: 'a mutually hurting stalemate', no: 'no hurting stalemate' },
  'zartman.way_out': { yes: 'a way out in sight', no: 'no way out in sight' },
  'glasl.stage': { value: 'stage {v} of 9' },
  'glasl.level': { value: '{v}' },
  'glasl.intervention': { value: 'fitting intervention: {v}' },
  'kriesberg.phase': { value: 'phase: {v}' },
  'kriesberg.trend': { value: 'violence {v}' },
  'deutsch.interaction': { value: '{v} interaction' },
  'deutsch.trend': { value: 'cooperation {v}' },
  'deutsch.pair_interaction': { plural: 'pairs' },
  'jervis.spiral': { yes: 'a security spiral', no: 'no security spiral' },
  'jervis.spiral_pair': { plural: 'spiralling pairs' },
  'galtung.violence': { value: 'violence: {v}' },
  'galtung.dominant_violence': { value: '{v} violence dominates' },
  'galtung.abc': { value: 'triangle corners visible: {v}' },
  'azar.protracted_social_conflict': { yes: 'a protracted social conflict', no: 'not a protracted social conflict' },
  'azar.precondition': { value: 'preconditions held: {v}' },
  'burton.threatened_need': { plural: 'needs at stake' },
  'burton.bargainable': { yes: 'the needs at stake are bargainable', no: 'basic needs at stake, not bargainable' },
  'fisher_ury.positional_bargaining': { yes: 'positional bargaining', no: 'bargaining on interests' },
  'fisher_ury.batna': { plural: 'BATNA' },
  'fisher_ury.shared_interest': { plural: 'shared interests' },
  'fisher_ury.interests': { plural: 'interests held' },
  'french_raven.dominant_base': { plural: 'dominant power' },
  'french_raven.power_base': { plural: 'power bases' },
  'thomas_kilmann.mode': { plural: 'styles' },
  'ury_brett_goldberg.dominant': { value: 'handled mostly by {v}' },
  'ury_brett_goldberg.mix': { value: 'moves on interests, rights, power: {v}' },
  'ury_brett_goldberg.recommendation': { value: 'advice: {v}' },
  'lederach.level_engaged': { value: 'levels engaged: {v}' },
  'lederach.single_level_process': { yes: 'the process rests on one level', no: 'the process spans levels' },
  'lederach.missing_level': { value: 'levels left out: {v}' },
};

export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const humanise = (value: string) => VALUE_WORDS[value] ?? value.replace(/_/g, ' ');

/** "a, b and c"; past `limit` names, "and N more". */
export function listNames(names: string[], limit = NAMES_LISTED): string {
  const shown = names.slice(0, limit);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Up to `limit` ids, taken in turn from each list so that every group cites at least one. */
function spread(lists: string[][], limit: number): string[] {
  const ids: string[] = [];
  for (let i = 0; ids.length < limit && lists.some((list) => i < list.length); i++) {
    for (const list of lists) if (i < list.length && !ids.includes(list[i]) && ids.length < limit) ids.push(list[i]);
  }
  return ids;
}

/** Turns findings into phrases from their values and the records they cite. */
class Words {
  constructor(private readonly graph: GraphIndex) {}

  private label(id: string): string | undefined {
    const node = this.graph.node(id);
    if (!node) return undefined;
    const words = String(node.properties.label ?? node.properties.text ?? id).split(/\s+/);
    return words.length > LABEL_WORDS && !node.labels.includes('Actor') ? `${words.slice(0, LABEL_WORDS).join(' ')}…` : words.join(' ');
  }

  private isActor(id: string): boolean {
    return this.graph.node(id)?.labels.includes('Actor') ?? false;
  }

  /**
   * The parties behind the records a finding cites: the actors it cites itself (a mediator, a
   * party to talks) first, then who asserted or denied a claim, who acted in an event; most often first.
   */
  private partiesOf(evidence: string[]): string[] {
    const counts = new Map<string, number>();
    const count = (id: string, weight = 1) => counts.set(id, (counts.get(id) ?? 0) + weight);
    for (const id of evidence) {
      if (this.isActor(id)) count(id, evidence.length + 1);
      else if (this.graph.node(id)) {
        for (const edge of this.graph.edgesOf(id, 'in', ['ASSERTS', 'DENIES', 'PARTICIPATES_IN'])) {
          if (edge.type === 'PARTICIPATES_IN' && edge.properties.role === 'target') continue;
          if (this.isActor(edge.from)) count(edge.from);
        }
      } else {
        const edge = this.graph.edge(id);
        for (const end of edge ? [edge.from, edge.to] : []) if (this.isActor(end)) count(end);
      }
    }
    return this.ordered(counts);
  }

  private issuesOf(evidence: string[]): string[] {
    const counts = new Map<string, number>();
    for (const id of evidence) if (this.graph.node(id)?.labels.includes('Issue')) counts.set(id, (counts.get(id) ?? 0) + 1);
    return this.ordered(counts);
  }

  private ordered(counts: Map<string, number>): string[] {
    return [...counts]
      .map(([id, n]) => ({ name: this.label(id) ?? id, n }))
      .sort((a, b) => b.n - a.n || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(({ name }) => name);
  }

  /** A value in words: ids by their labels, atoms humanised, lists joined. */
  private valueWords(value: PrologValue): string {
    if (Array.isArray(value)) return listNames(value.map((item) => this.valueWords(item)), Infinity);
    if (typeof value === 'string') return this.label(value) ?? humanise(value);
    return String(value);
  }

  /** The findings of a run grouped by key, the keys named first in their order, then the others as the run gives them. */
  groups(run: FrameworkRun, keys: string[]): Group[] {
    const byKey = new Map<string, Finding[]>();
    for (const key of keys) byKey.set(key, []);
    for (const finding of run.findings) {
      if (!byKey.has(finding.key)) byKey.set(finding.key, []);
      byKey.get(finding.key)!.push(finding);
    }
    const groups: Group[] = [];
    const merged = new Set<string>();
    for (const [key, findings] of byKey) {
      if (findings.length === 0 || merged.has(key)) continue;
      if (this.perActor(findings)) {
        // the per-actor keys asked for together read as one list: each actor with what each key says of it
        const together = keys.includes(key) ? keys.filter((other) => (byKey.get(other)?.length ?? 0) > 0 && this.perActor(byKey.get(other)!)) : [key];
        together.forEach((other) => merged.add(other));
        groups.push(this.actorGroup(run.framework_id, key, together.flatMap((other) => byKey.get(other)!)));
      } else {
        merged.add(key);
        // an empty list (no mechanism, no corner) says nothing the other findings do not
        if (findings.some((finding) => !Array.isArray(finding.value) || finding.value.length > 0)) groups.push(this.plainGroup(run.framework_id, key, findings));
      }
    }
    return groups;
  }

  /** Findings whose values name actors first ([Actor, ...]): one per actor or pair. */
  private perActor(findings: Finding[]): boolean {
    return findings.every((finding) => Array.isArray(finding.value) && typeof finding.value[0] === 'string' && this.isActor(finding.value[0]));
  }

  private plainGroup(frameworkId: string, key: string, findings: Finding[]): Group {
    const words = KEY_WORDS[`${frameworkId}.${key}`] ?? {};
    const evidence = [...new Set(findings.flatMap((finding) => finding.evidence))];
    const values = findings.map((finding) => finding.value);
    let phrase: string;
    if (values.length === 1 && (values[0] === 'yes' || values[0] === 'no')) {
      phrase = (values[0] === 'yes' ? words.yes : words.no) ?? `${humanise(key)}: ${values[0]}`;
      if (values[0] === 'yes') {
        // who and what it rests on, from the records cited
        const about = [
          ...this.issuesOf(evidence).slice(0, 1).map((issue) => `over "${issue}"`),
          ...(this.partiesOf(evidence).length > 0 ? [listNames(this.partiesOf(evidence))] : []),
        ];
        if (about.length > 0) phrase += ` (${about.join('; ')})`;
      }
    } else {
      const value = this.valueWords(values.length === 1 ? values[0] : values);
      phrase = words.value ? words.value.replace('{v}', value) : `${humanise(key)}: ${value}`;
    }
    return { key, phrase, evidence };
  }

  private actorGroup(frameworkId: string, key: string, findings: Finding[]): Group {
    const words = KEY_WORDS[`${frameworkId}.${key}`] ?? {};
    const plural = words.plural ?? humanise(key);
    // per actor (or pair), in the order the run ranks them, what each finding says of it
    const entries = new Map<string, { names: string[]; says: string[]; evidence: string[] }>();
    for (const finding of findings) {
      const value = finding.value as PrologValue[];
      const actors = value.filter((item): item is string => typeof item === 'string' && this.isActor(item));
      const rest = value.filter((item) => !(typeof item === 'string' && actors.includes(item)));
      const entryKey = actors.join(' ');
      if (!entries.has(entryKey)) entries.set(entryKey, { names: actors.map((id) => this.label(id) ?? id), says: [], evidence: [] });
      const entry = entries.get(entryKey)!;
      for (const item of rest) {
        const said = this.valueWords(item);
        if (!entry.says.includes(said)) entry.says.push(said);
      }
      entry.evidence.push(...finding.evidence.filter((id) => !entry.evidence.includes(id)));
    }
    const all = [...entries.values()];
    const known = all.filter((entry) => !entry.says.includes('unknown'));
    const unknown = all.length - known.length;
    const phrase = known.length === 0
      ? `${plural}: none known`
      : `${plural}: ${listNames(known.map((entry) => `${entry.names.join(' and ')}${entry.says.length ? ` (${entry.says.join(', ')})` : ''}`))}`;
    return {
      key,
      phrase,
      ...(unknown > 0 ? { unknown: `${plural} unknown for ${unknown} of ${all.length} ${all.length === 1 ? 'party' : 'parties'}` } : {}),
      evidence: spread(known.map((entry) => entry.evidence), Infinity),
    };
  }

  /** A framework's contribution in one or two sentences: its telling findings, then its unknowns, said once. */
  reading(run: FrameworkRun, intents: readonly Intent[]): Reading {
    const base = { framework_id: run.framework_id, name: run.name, applies: run.applies, score: run.score };
    if (run.error) return { ...base, summary: `${run.name} could not finish: ${run.error.message}.`, evidence: [] };
    if (!answering(run)) {
      return { ...base, summary: `${run.name} cannot say: not enough evidence: ${run.missing.join('; ') || 'no finding rests on evidence in the graph'}.`, evidence: [] };
    }
    const keys = [...new Set(intents.flatMap((intent) => focusKeys(intent, run.framework_id)))];
    const groups = this.groups(run, keys).slice(0, GROUPS_PER_READING);
    const unknown = groups.flatMap((group) => (group.unknown ? [group.unknown] : []));
    const omitted = run.findings_omitted > 0 ? [`${run.findings_omitted} more per-actor findings not listed`] : [];
    return {
      ...base,
      summary: [
        `${opening(run)}: ${groups.map((group) => group.phrase).join('; ')}.`,
        ...(unknown.length + omitted.length > 0 ? [`${capitalise([...unknown, ...omitted].join('; '))}.`] : []),
      ].join(' '),
      evidence: spread(groups.map((group) => group.evidence), IDS_PER_READING),
    };
  }
}
