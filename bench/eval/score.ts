import { ACTOR_TYPES, CLAIM_TYPES, EVENT_TYPES, LOCATION_TYPES } from '../../engine/ontology/index.ts';

/**
 * Scoring of extraction against the labelled development set (corpora/gold/dev.jsonl,
 * guidelines in corpora/gold/README.md): gold records, predictions in one layer-neutral
 * shape, name matching, one-to-one matching per sentence, and micro-averaged
 * precision/recall/F1 per kind. Pure functions; the eval script adapts each extraction
 * layer's output to `Prediction`.
 */

export interface GoldActor { text: string; type: string; aliases?: string[] }
/** `speaker`: one name, several (a joint statement: any one is accepted), or null (no named speaker). */
export interface GoldClaim { type: string; speaker: string | string[] | null; cue: string }
export interface GoldEvent { type: string; trigger: string; location: string | string[] | null; date: string | null }
export interface GoldLocation { text: string; type: string }
export interface GoldDate { text: string; iso: string }
/** An edge between two annotated actors (README: only where the sentence states it). */
export interface GoldRelation { type: 'OPPOSES' | 'ALLIED_WITH'; from: string; to: string }

export interface GoldSentence {
  id: string;
  conflict: string;
  document_date: string;
  text: string;
  actors: GoldActor[];
  claims: GoldClaim[];
  events: GoldEvent[];
  locations: GoldLocation[];
  dates: GoldDate[];
  /** Absent on sets not annotated for relations: such sentences are not scored for them. */
  relations?: GoldRelation[];
}

/** Every name an extracted entity goes by (surface text, canonical label, aliases); the first is shown in reports. */
export interface PredictedEntity { names: string[]; type: string }
/** `speaker`: the names of the speaker's entity, empty when the extractor found no speaker. */
export interface PredictedClaim { type: string; speaker: string[] }
export interface PredictedEvent { type: string; location: string[]; date: string | null }
export interface PredictedDate { text: string; iso: string }

export interface Prediction {
  actors: PredictedEntity[];
  claims: PredictedClaim[];
  events: PredictedEvent[];
  locations: PredictedEntity[];
  dates: PredictedDate[];
}

// ---------------------------------------------------------------- gold file

const ISO_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function asList(value: string | string[] | null): string[] {
  if (value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Parses the JSONL gold file and checks each record against the ontology's vocabularies
 * and against its own text (every annotated surface form occurs verbatim), so a typo in
 * the set fails loudly instead of silently lowering a score.
 */
export function parseGold(jsonl: string): GoldSentence[] {
  return parseRecords(jsonl, goldProblems);
}

/** One JSON record per line, each checked by `problemsOf` and for a unique id; the first bad line throws, naming itself. */
export function parseRecords<T extends { id: string }>(jsonl: string, problemsOf: (record: T) => string[]): T[] {
  const records: T[] = [];
  const ids = new Set<string>();
  jsonl.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    let record: T;
    try {
      record = JSON.parse(line) as T;
    } catch (error) {
      throw new Error(`${where}: not JSON (${(error as Error).message})`);
    }
    const problems = problemsOf(record);
    if (ids.has(record.id)) problems.push(`duplicate id ${record.id}`);
    if (problems.length > 0) throw new Error(`${where} (${record.id ?? 'no id'}): ${problems.join('; ')}`);
    ids.add(record.id);
    records.push(record);
  });
  return records;
}

/** What is wrong with one gold record (empty when it is well formed). */
export function goldProblems(record: GoldSentence): string[] {
  const problems: string[] = [];
  const inText = (what: string, value: string) => {
    if (!record.text.includes(value)) problems.push(`${what} "${value}" does not occur in the text`);
  };
  const inVocabulary = (what: string, value: string, vocabulary: readonly string[]) => {
    if (!vocabulary.includes(value)) problems.push(`${what} type "${value}" is not in the ontology`);
  };
  if (typeof record.id !== 'string' || typeof record.text !== 'string' || typeof record.conflict !== 'string') {
    return ['id, conflict and text must be strings'];
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(record.document_date ?? '')) problems.push('document_date must be YYYY-MM-DD');
  for (const key of ['actors', 'claims', 'events', 'locations', 'dates'] as const) {
    if (!Array.isArray(record[key])) return [...problems, `${key} must be a list`];
  }
  for (const actor of record.actors) {
    inText('actor', actor.text);
    inVocabulary('actor', actor.type, ACTOR_TYPES);
    for (const alias of actor.aliases ?? []) inText('alias', alias);
  }
  for (const claim of record.claims) {
    inVocabulary('claim', claim.type, CLAIM_TYPES);
    inText('cue', claim.cue);
    for (const speaker of asList(claim.speaker)) inText('speaker', speaker);
  }
  const locationTexts = new Set(record.locations.map((location) => location.text));
  const dateValues = new Set(record.dates.map((date) => date.iso));
  for (const event of record.events) {
    inVocabulary('event', event.type, EVENT_TYPES);
    inText('trigger', event.trigger);
    for (const location of asList(event.location)) {
      if (!locationTexts.has(location)) problems.push(`event location "${location}" is not one of the sentence's locations`);
    }
    if (event.date !== null && !dateValues.has(event.date)) problems.push(`event date ${event.date} is not one of the sentence's dates`);
  }
  for (const location of record.locations) {
    inText('location', location.text);
    inVocabulary('location', location.type, LOCATION_TYPES);
  }
  for (const relation of record.relations ?? []) {
    if (relation.type !== 'OPPOSES' && relation.type !== 'ALLIED_WITH') problems.push(`relation type "${relation.type}" is not OPPOSES or ALLIED_WITH`);
    for (const end of [relation.from, relation.to]) {
      if (!record.actors.some((actor) => actor.text === end)) problems.push(`relation end "${end}" is not one of the sentence's actors`);
    }
  }
  for (const date of record.dates) {
    inText('date', date.text);
    if (!ISO_DATE.test(date.iso)) problems.push(`date ${date.iso} is not YYYY, YYYY-MM or YYYY-MM-DD`);
  }
  return problems;
}

// ---------------------------------------------------------------- names

/** Words that do not distinguish one actor or place from another. */
const STOP_WORDS = new Set(['the', 'of', 'a', 'an', 'and', 'in', 'for', 'al', 'el', 'de', 'du', 'des', 'la', 'le']);
/** Titles and ranks: "President Zelensky" names the same person as "Volodymyr Zelensky". */
const TITLE_WORDS = new Set([
  'president', 'prime', 'minister', 'general', 'gen', 'commander', 'governor', 'spokesman', 'spokeswoman', 'spokesperson',
  'mr', 'mrs', 'ms', 'dr', 'sheikh', 'colonel', 'col', 'lieutenant', 'major', 'captain', 'king', 'leader', 'chief',
  'interim', 'caretaker', 'vice', 'first',
]);

/** Lower-case, accent-free, punctuation-free content words of a name; possessive 's, apostrophes and plural s dropped. */
export function nameTokens(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`]s\b/g, '')
    .replace(/['’‘`]/g, '');
  // A plural "s" is dropped so that "Houthis" and "Houthi" compare equal.
  const words = folded
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
  const content = words.filter((word) => !STOP_WORDS.has(word) && !TITLE_WORDS.has(word));
  // A name made only of titles ("the President") still has to compare as something.
  return content.length > 0 ? content : words.filter((word) => !STOP_WORDS.has(word));
}

function initials(tokens: readonly string[]): string {
  return tokens.map((token) => token[0]).join('');
}

/**
 * Whether two names denote the same entity in one sentence: the same content words; an
 * acronym of the other ("RSF" / "Rapid Support Forces"); a subset that keeps the longer
 * name's last word ("al-Burhan" / "Abdel Fattah al-Burhan", but not "Sudanese" / "Sudanese
 * Armed Forces"); or more than half of the words shared (Dice > 0.5).
 */
export function namesMatch(a: string, b: string): boolean {
  const left = nameTokens(a);
  const right = nameTokens(b);
  if (left.length === 0 || right.length === 0) return false;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  if (shorter.length === 1 && longer.length > 1 && shorter[0].length >= 2 && shorter[0] === initials(longer)) return true;
  const longerSet = new Set(longer);
  const shorterSet = new Set(shorter);
  const shared = [...shorterSet].filter((token) => longerSet.has(token)).length;
  if (shared === shorterSet.size && shorterSet.has(longer[longer.length - 1])) return true;
  return (2 * shared) / (shorterSet.size + longerSet.size) > 0.5;
}

export function anyNamesMatch(left: readonly string[], right: readonly string[]): boolean {
  return left.some((a) => right.some((b) => namesMatch(a, b)));
}

// ---------------------------------------------------------------- matching

/**
 * Maximum one-to-one matching between gold items and predictions (Kuhn's augmenting
 * paths; sentences hold a handful of items, so the cubic worst case does not matter).
 * Returns, for each gold index, the matched prediction index or -1.
 */
export function maximumMatching(goldCount: number, predictedCount: number, compatible: (gold: number, predicted: number) => boolean): number[] {
  const goldFor = new Array<number>(predictedCount).fill(-1);
  const edges = Array.from({ length: goldCount }, (_, gold) =>
    Array.from({ length: predictedCount }, (_, predicted) => predicted).filter((predicted) => compatible(gold, predicted)),
  );
  const tryAssign = (gold: number, seen: boolean[]): boolean => {
    for (const predicted of edges[gold]) {
      if (seen[predicted]) continue;
      seen[predicted] = true;
      if (goldFor[predicted] === -1 || tryAssign(goldFor[predicted], seen)) {
        goldFor[predicted] = gold;
        return true;
      }
    }
    return false;
  };
  for (let gold = 0; gold < goldCount; gold++) tryAssign(gold, new Array<boolean>(predictedCount).fill(false));
  const predictedFor = new Array<number>(goldCount).fill(-1);
  goldFor.forEach((gold, predicted) => {
    if (gold !== -1) predictedFor[gold] = predicted;
  });
  return predictedFor;
}

export interface Counts { tp: number; fp: number; fn: number }

/** One kind's outcome on one sentence: counts plus what was missed and what was wrongly found, for --verbose. */
export interface KindOutcome extends Counts { missed: string[]; spurious: string[] }

/**
 * Matches one sentence's gold items to predictions one-to-one. A prediction left over that
 * would have matched an already-matched gold item under `duplicateOf` is a second mention
 * of a found entity and counts neither way (the symbolic layer reports every mention,
 * the gold set each entity once); any other leftover is a false positive.
 */
export function scoreItems<G, P>(
  gold: readonly G[],
  predicted: readonly P[],
  compatible: (gold: G, predicted: P) => boolean,
  describe: { gold: (item: G) => string; predicted: (item: P) => string },
  duplicateOf?: (gold: G, predicted: P) => boolean,
): KindOutcome {
  const assignment = maximumMatching(gold.length, predicted.length, (g, p) => compatible(gold[g], predicted[p]));
  const used = new Set(assignment.filter((p) => p !== -1));
  const matchedGold = gold.filter((_, g) => assignment[g] !== -1);
  const missed = gold.filter((_, g) => assignment[g] === -1).map(describe.gold);
  const spurious = predicted
    .filter((item, p) => !used.has(p) && !(duplicateOf && matchedGold.some((g) => duplicateOf(g, item))))
    .map(describe.predicted);
  return { tp: used.size, fp: spurious.length, fn: missed.length, missed, spurious };
}

// ---------------------------------------------------------------- kinds

export const SCORE_KINDS = [
  'actors (text+type)', 'actors (span only)', 'persons (text+class)', 'organisations (text+class)', 'claims (type+speaker)', 'claims (type only)', 'events (type)',
  'events (type+location)', 'events (type+date)', 'locations (text+type)', 'locations (span only)', 'dates (iso)',
] as const;
export type ScoreKind = (typeof SCORE_KINDS)[number];

/**
 * The coarse classes of external NER sets (person, organisation): persons are individuals;
 * organisations every actor type but states (countries, scored as actors or places) and
 * communities (identity groups). A prediction counts for a class when its type is in it,
 * whatever its finer type.
 */
const ORGANISATION_TYPES = new Set(['government', 'armed_forces', 'armed_group', 'political_party', 'international_org', 'ngo', 'civil_society', 'media']);
const isPerson = (type: string) => type === 'individual';
const isOrganisation = (type: string) => ORGANISATION_TYPES.has(type);

function goldActorNames(actor: GoldActor): string[] {
  return [actor.text, ...(actor.aliases ?? [])];
}

/** A gold speaker's names: the written names plus, when one names an annotated actor, that actor's other forms. */
function goldSpeakerNames(claim: GoldClaim, actors: readonly GoldActor[]): string[] {
  const written = asList(claim.speaker);
  const names = new Set(written);
  for (const actor of actors) {
    if (anyNamesMatch(written, goldActorNames(actor))) for (const name of goldActorNames(actor)) names.add(name);
  }
  return [...names];
}

function speakerMatches(claim: GoldClaim, speakerNames: readonly string[], predicted: PredictedClaim): boolean {
  if (claim.speaker === null) return true;
  return anyNamesMatch(speakerNames, predicted.speaker);
}

function locationMatches(event: GoldEvent, predicted: PredictedEvent): boolean {
  const gold = asList(event.location);
  if (gold.length === 0) return predicted.location.length === 0;
  return anyNamesMatch(gold, predicted.location);
}

const showEntity = (entity: PredictedEntity) => `${entity.names[0] ?? '?'} (${entity.type})`;
const showClaim = (claim: PredictedClaim) => `${claim.type} by ${claim.speaker[0] ?? 'no speaker'}`;
const showEvent = (event: PredictedEvent) => `${event.type} at ${event.location[0] ?? '-'} on ${event.date ?? '-'}`;

/** A relation end's names: the actor's text and its aliases. */
export function relationNames(text: string, actors: readonly GoldActor[]): string[] {
  const actor = actors.find((candidate) => candidate.text === text);
  return actor ? goldActorNames(actor) : [text];
}

/**
 * Whether a predicted relation's ends are a gold relation's, given how one end is matched (by
 * gold entity in ./documents.ts, the one relation scorer; by shared surface form when
 * relations.ts checks that a trap repeats no relation). Alliances and oppositions match in
 * either direction (who struck whom is the event's business); memberships only from member
 * to organisation. The one direction rule of every relation score.
 */
export function relationEndsMatch<G, P>(type: string, gold: { from: G; to: G }, predicted: { from: P; to: P }, sameEnd: (gold: G, predicted: P) => boolean): boolean {
  if (sameEnd(gold.from, predicted.from) && sameEnd(gold.to, predicted.to)) return true;
  return type !== 'MEMBER_OF' && sameEnd(gold.from, predicted.to) && sameEnd(gold.to, predicted.from);
}

/** Actors of one coarse class, matched by name among the predictions of that class. */
function scoreClass(
  gold: readonly GoldActor[],
  predicted: readonly PredictedEntity[],
  inClass: (type: string) => boolean,
  sameName: (gold: GoldActor, predicted: PredictedEntity) => boolean,
  showGold: (actor: GoldActor) => string,
): KindOutcome {
  return scoreItems(
    gold.filter((actor) => inClass(actor.type)), predicted.filter((entity) => inClass(entity.type)),
    sameName, { gold: showGold, predicted: showEntity }, sameName,
  );
}

/** Scores one sentence on every kind. */
export function scoreSentence(gold: GoldSentence, predicted: Prediction): Record<ScoreKind, KindOutcome> {
  const actorName = (g: GoldActor, p: PredictedEntity) => anyNamesMatch(goldActorNames(g), p.names);
  const actorTyped = (g: GoldActor, p: PredictedEntity) => actorName(g, p) && g.type === p.type;
  const showGoldActor = (actor: GoldActor) => `${actor.text} (${actor.type})`;
  const locationName = (g: GoldLocation, p: PredictedEntity) => anyNamesMatch([g.text], p.names);
  const showGoldLocation = (location: GoldLocation) => `${location.text} (${location.type})`;
  const speakers = gold.claims.map((claim) => goldSpeakerNames(claim, gold.actors));
  const claimIndex = new Map(gold.claims.map((claim, index) => [claim, index]));
  const showGoldClaim = (claim: GoldClaim) => `${claim.type} by ${asList(claim.speaker).join('/') || 'no named speaker'} ("${claim.cue}")`;
  const showGoldEvent = (event: GoldEvent) => `${event.type} "${event.trigger}" at ${asList(event.location).join('/') || '-'} on ${event.date ?? '-'}`;

  return {
    'actors (text+type)': scoreItems(gold.actors, predicted.actors, actorTyped, { gold: showGoldActor, predicted: showEntity }, actorTyped),
    'actors (span only)': scoreItems(gold.actors, predicted.actors, actorName, { gold: showGoldActor, predicted: showEntity }, actorName),
    'persons (text+class)': scoreClass(gold.actors, predicted.actors, isPerson, actorName, showGoldActor),
    'organisations (text+class)': scoreClass(gold.actors, predicted.actors, isOrganisation, actorName, showGoldActor),
    'claims (type+speaker)': scoreItems(
      gold.claims, predicted.claims,
      (g, p) => g.type === p.type && speakerMatches(g, speakers[claimIndex.get(g)!], p),
      { gold: showGoldClaim, predicted: showClaim },
    ),
    'claims (type only)': scoreItems(gold.claims, predicted.claims, (g, p) => g.type === p.type, { gold: showGoldClaim, predicted: showClaim }),
    'events (type)': scoreItems(gold.events, predicted.events, (g, p) => g.type === p.type, { gold: showGoldEvent, predicted: showEvent }),
    'events (type+location)': scoreItems(
      gold.events, predicted.events, (g, p) => g.type === p.type && locationMatches(g, p), { gold: showGoldEvent, predicted: showEvent },
    ),
    'events (type+date)': scoreItems(
      gold.events, predicted.events, (g, p) => g.type === p.type && g.date === p.date, { gold: showGoldEvent, predicted: showEvent },
    ),
    'locations (text+type)': scoreItems(
      gold.locations, predicted.locations, (g, p) => locationName(g, p) && g.type === p.type,
      { gold: showGoldLocation, predicted: showEntity }, (g, p) => locationName(g, p) && g.type === p.type,
    ),
    'locations (span only)': scoreItems(
      gold.locations, predicted.locations, locationName, { gold: showGoldLocation, predicted: showEntity }, locationName,
    ),
    'dates (iso)': scoreItems(
      gold.dates, predicted.dates, (g, p) => g.iso === p.iso,
      { gold: (date) => `${date.text} = ${date.iso}`, predicted: (date) => `${date.text} = ${date.iso}` },
    ),
  };
}

// ---------------------------------------------------------------- aggregation

export interface Metrics extends Counts {
  /** null when there is nothing to divide by (no predictions, or no gold items). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function metricsOf(counts: Counts): Metrics {
  const precision = counts.tp + counts.fp === 0 ? null : counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp + counts.fn === 0 ? null : counts.tp / (counts.tp + counts.fn);
  const f1 = precision === null || recall === null ? null : precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...counts, precision, recall, f1 };
}

export function addCounts(total: Counts, more: Counts): Counts {
  return { tp: total.tp + more.tp, fp: total.fp + more.fp, fn: total.fn + more.fn };
}

export const ZERO_COUNTS: Counts = { tp: 0, fp: 0, fn: 0 };

/** Micro-averaged metrics per kind over scored sentences. */
export function microAverage(outcomes: readonly Record<ScoreKind, Counts>[]): Record<ScoreKind, Metrics> {
  const totals = Object.fromEntries(SCORE_KINDS.map((kind) => [kind, ZERO_COUNTS])) as Record<ScoreKind, Counts>;
  for (const outcome of outcomes) for (const kind of SCORE_KINDS) totals[kind] = addCounts(totals[kind], outcome[kind]);
  return Object.fromEntries(SCORE_KINDS.map((kind) => [kind, metricsOf(totals[kind])])) as Record<ScoreKind, Metrics>;
}
