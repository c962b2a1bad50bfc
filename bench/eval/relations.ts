import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spansOverlap } from '../../engine/extract/symbolic/text.ts';
import type { TextSpan } from '../../engine/extract/types.ts';
import { NOTHING_READ, scoreDocumentRelations, type DocumentPrediction, type EntityRelations } from './documents.ts';
import { occurrencesOf } from './gold-source.ts';
import {
  ZERO_COUNTS,
  addCounts,
  metricsOf,
  parseGold,
  parseRecords,
  relationEndsMatch,
  relationNames,
  type Counts,
  type GoldSentence,
  type KindOutcome,
  type Metrics,
} from './score.ts';

/**
 * Scoring of the relations extraction writes between actors (OPPOSES, ALLIED_WITH,
 * MEMBER_OF) against corpora/gold/relations.jsonl (guideline in corpora/gold/README.md,
 * "Relation set"), and against the `relations` of the entity sets (heldout-official.jsonl).
 * Each end is the gold entity its node maps to by span, as in the documents (documents.ts
 * `scoreDocumentRelations`): the records name their ends by surface forms that occur verbatim,
 * so every word-bounded occurrence of a form is a span of its entity. Pure functions, except
 * the reading of the open records' text from ../shared and the run that
 * `npm run eval:extract -- --set relations` starts.
 */

export const RELATION_TYPES = ['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];
/** Why a `not` entry is a trap (README: "Relation set"). */
export const TRAP_KINDS = ['negated', 'reporter', 'allies', 'own_side', 'hypothetical', 'ended', 'mediator', 'accuser', 'target_only', 'other'] as const;
export type TrapKind = (typeof TRAP_KINDS)[number];

/** One actor's surface forms in the text (the first is shown). */
type RelationEnd = string | string[];

export interface AnnotatedRelation { type: RelationType; from: RelationEnd; to: RelationEnd; reported_by?: string }
export interface TrapRelation { type: RelationType; from: RelationEnd; to: RelationEnd; why: TrapKind }

/** A Re-DocRED document's sentences, read from ../shared at evaluation time (the text is not copied here). */
export interface OpenSource { set: 'redocred'; file: string; document: number; title: string; sentences: number[] }

export interface RelationRecord {
  id: string;
  conflict: string;
  document_date: string;
  /** Present on written records; open records carry `source` instead. */
  text?: string;
  source?: OpenSource;
  relations: AnnotatedRelation[];
  not: TrapRelation[];
}

/** A record whose text is known (written, or open and read from ../shared). */
export interface ResolvedRecord extends RelationRecord { text: string }

// ---------------------------------------------------------------- the set

const formsOf = (end: RelationEnd): string[] => (Array.isArray(end) ? end : [end]);
const isEnd = (end: unknown): end is RelationEnd =>
  (typeof end === 'string' && end !== '') || (Array.isArray(end) && end.length > 0 && end.every((form) => typeof form === 'string' && form !== ''));
const isRelationType = (type: unknown): type is RelationType => RELATION_TYPES.includes(type as RelationType);

/**
 * Parses relations.jsonl and checks what can be checked without the text: types, trap
 * kinds, ends, sources, unique ids, and no trap that repeats one of the record's relations.
 */
export function parseRelationSet(jsonl: string): RelationRecord[] {
  return parseRecords(jsonl, recordShapeProblems);
}

function recordShapeProblems(record: RelationRecord): string[] {
  if (typeof record.id !== 'string' || typeof record.conflict !== 'string') return ['id and conflict must be strings'];
  const problems: string[] = [];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(record.document_date ?? '')) problems.push('document_date must be YYYY-MM-DD');
  const hasText = typeof record.text === 'string' && record.text !== '';
  const { source } = record;
  const hasSource = source !== undefined
    && source.set === 'redocred' && typeof source.file === 'string' && /^[\w.-]+\.json$/.test(source.file)
    && Number.isInteger(source.document) && Array.isArray(source.sentences) && source.sentences.length > 0 && source.sentences.every(Number.isInteger);
  if (hasText === hasSource) problems.push('a record has either a text or a redocred source (file, document, sentences)');
  if (!Array.isArray(record.relations) || !Array.isArray(record.not)) return [...problems, 'relations and not must be lists'];
  for (const relation of [...record.relations, ...record.not]) {
    if (!isRelationType(relation.type)) problems.push(`relation type "${relation.type}" is not one of ${RELATION_TYPES.join(', ')}`);
    if (!isEnd(relation.from) || !isEnd(relation.to)) problems.push('relation ends must be a name or a list of names');
  }
  for (const trap of record.not) {
    if (!TRAP_KINDS.includes(trap.why)) problems.push(`trap kind "${trap.why}" is not one of ${TRAP_KINDS.join(', ')}`);
  }
  if (problems.length > 0) return problems;
  for (const trap of record.not) {
    if (record.relations.some((relation) => sameRelation(relation, trap))) problems.push(`"${showRelation(trap)}" is both a relation and a trap`);
  }
  return problems;
}

/** What is wrong with a record against its text: every end form and reporter occurs verbatim. */
export function relationTextProblems(record: ResolvedRecord): string[] {
  const problems: string[] = [];
  for (const relation of [...record.relations, ...record.not]) {
    for (const form of [...formsOf(relation.from), ...formsOf(relation.to)]) {
      if (!record.text.includes(form)) problems.push(`"${form}" does not occur in the text`);
    }
  }
  for (const relation of record.relations) {
    if (relation.reported_by !== undefined && !record.text.includes(relation.reported_by)) problems.push(`reporter "${relation.reported_by}" does not occur in the text`);
  }
  return problems;
}

/**
 * Re-DocRED's tokens as running text: spaces before closing punctuation, after opening
 * brackets, around hyphens and before a possessive 's removed, so that the extractors read
 * prose rather than tokens. The annotations are written against this text.
 */
export function detokenise(tokens: readonly string[]): string {
  return tokens
    .join(' ')
    .replaceAll(' - ', '-')
    .replace(/ ([,.;:!?)\]%])/g, '$1')
    .replace(/([([]) /g, '$1')
    .replace(/ ('s|’s)\b/g, '$1');
}

interface RedocredDocument { title: string; sents: string[][] }

/**
 * Gives each open record its text from the Re-DocRED files in `redocredDir`; when the
 * directory is absent the open records are skipped (the caller says so). A title that no
 * longer matches the document means the files changed: that fails loudly.
 */
export async function resolveRecords(records: readonly RelationRecord[], redocredDir: string): Promise<{ resolved: ResolvedRecord[]; skipped: number }> {
  const files = new Map<string, RedocredDocument[] | null>();
  const load = async (file: string) => {
    if (!files.has(file)) {
      try {
        files.set(file, JSON.parse(await readFile(join(redocredDir, file), 'utf8')) as RedocredDocument[]);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        files.set(file, null);
      }
    }
    return files.get(file)!;
  };
  const resolved: ResolvedRecord[] = [];
  let skipped = 0;
  for (const record of records) {
    let text = record.text;
    if (text === undefined) {
      const { file, document, title, sentences } = record.source!;
      const documents = await load(file);
      if (documents === null) {
        skipped++;
        continue;
      }
      const found = documents[document];
      if (!found || found.title !== title) throw new Error(`${record.id}: document ${document} of ${file} is not "${title}"`);
      text = sentences.map((index) => {
        if (!found.sents[index]) throw new Error(`${record.id}: "${title}" has no sentence ${index}`);
        return detokenise(found.sents[index]);
      }).join(' ');
    }
    const withText = { ...record, text };
    const problems = relationTextProblems(withText);
    if (problems.length > 0) throw new Error(`${record.id}: ${problems.join('; ')}`);
    resolved.push(withText);
  }
  return { resolved, skipped };
}

/**
 * The relations of an entity set's records (heldout-official.jsonl), in this module's shape:
 * only records that carry `relations`, each end with its actor's aliases.
 */
export function relationRecordsOf(sentences: readonly GoldSentence[]): ResolvedRecord[] {
  return sentences.filter((sentence) => sentence.relations !== undefined).map((sentence) => ({
    id: sentence.id,
    conflict: sentence.conflict,
    document_date: sentence.document_date,
    text: sentence.text,
    relations: sentence.relations!.map((relation) => ({
      type: relation.type, from: relationNames(relation.from, sentence.actors), to: relationNames(relation.to, sentence.actors),
    })),
    not: [],
  }));
}

// ---------------------------------------------------------------- scoring

type AnnotatedEnds = { type: RelationType; from: RelationEnd; to: RelationEnd };
const sharesForm = (a: RelationEnd, b: RelationEnd) => formsOf(a).some((form) => formsOf(b).includes(form));

/** Whether a trap repeats a relation: the same type and ends that share a surface form, in the scorer's directions. */
function sameRelation(a: AnnotatedEnds, b: AnnotatedEnds): boolean {
  return a.type === b.type && relationEndsMatch(a.type, a, b, sharesForm);
}

const showRelation = (relation: { type: string; from: RelationEnd; to: RelationEnd }) =>
  `${formsOf(relation.from)[0]} ${relation.type} ${formsOf(relation.to)[0]}`;

/**
 * A record's relations and traps over entities with spans, for the one relation scorer: ends
 * that share a surface form are one entity (named by its first form), and each word-bounded
 * occurrence of a form in the text is a mention of it; where occurrences of two entities
 * overlap ("Sudan" in "Sudan's army") the longer is the mention, as marks do not nest in the
 * documents.
 */
export function entityRelationsOf(record: ResolvedRecord): EntityRelations {
  const groups: string[][] = [];
  for (const entry of [...record.relations, ...record.not]) {
    for (const forms of [formsOf(entry.from), formsOf(entry.to)]) {
      const [first, ...others] = groups.filter((group) => forms.some((form) => group.includes(form)));
      if (!first) groups.push([...forms]);
      else for (const form of [...others.flat(), ...forms]) if (!first.includes(form)) first.push(form);
      for (const other of others) groups.splice(groups.indexOf(other), 1);
    }
  }
  const idOf = (end: RelationEnd) => `e${groups.findIndex((group) => group.includes(formsOf(end)[0]))}`;
  const occurrences = groups
    .flatMap((group, index) => group.flatMap((form) => occurrencesOf(record.text, form).map((start) => ({ index, start, end: start + form.length }))))
    .sort((a, b) => (b.end - b.start) - (a.end - a.start) || a.start - b.start);
  const mentions = groups.map((): TextSpan[] => []);
  const taken: TextSpan[] = [];
  for (const occurrence of occurrences) {
    if (taken.some((span) => spansOverlap(span, occurrence))) continue;
    const span = { start: occurrence.start, end: occurrence.end };
    taken.push(span);
    mentions[occurrence.index].push(span);
  }
  return {
    entities: groups.map((group, index) => ({ id: `e${index}`, name: group[0], mentions: mentions[index] })),
    relations: record.relations.map((relation) => ({
      type: relation.type, from: idOf(relation.from), to: idOf(relation.to), ...(relation.reported_by === undefined ? {} : { reported_by: relation.reported_by }),
    })),
    not: record.not.map((trap) => ({ type: trap.type, from: idOf(trap.from), to: idOf(trap.to), why: trap.why })),
  };
}

/** One record's outcome: per relation type, the traps fallen into, and the reported relations found. */
export interface RelationOutcome {
  types: Record<RelationType, KindOutcome>;
  /** Trap kind of every predicted relation that matches a `not` entry. */
  trapViolations: TrapKind[];
  reported: { gold: number; found: number };
}

/**
 * Scores one record by gold entity (documents.ts `scoreDocumentRelations`), one to one per
 * relation type, only the `types` given (the others count nothing). A leftover prediction
 * that would have matched an already-matched relation (the other direction of an alliance, a
 * second pair of nodes) counts neither way, as a second mention of a found actor does in score.ts.
 */
export function scoreRelationRecord(record: ResolvedRecord, prediction: DocumentPrediction, types: readonly RelationType[] = RELATION_TYPES): RelationOutcome {
  const scored = (type: RelationType) => types.includes(type);
  const gold = entityRelationsOf({
    ...record,
    relations: record.relations.filter((relation) => scored(relation.type)),
    not: record.not.filter((trap) => scored(trap.type)),
  });
  return scoreDocumentRelations(gold, { ...prediction, relations: (prediction.relations ?? []).filter((relation) => scored(relation.type as RelationType)) });
}

export interface RelationSummary {
  records: number;
  types: Record<RelationType | 'all', Metrics>;
  reported: { gold: number; found: number; recall: number | null };
  traps: { entries: number; violations: number; byKind: Partial<Record<TrapKind, number>> };
}

/** Micro-averaged figures over records, per type and over the types scored (`records`: for their count and trap entries). */
export function summariseRelations(records: readonly Pick<RelationRecord, 'not'>[], outcomes: readonly RelationOutcome[], types: readonly RelationType[] = RELATION_TYPES): RelationSummary {
  const totals = Object.fromEntries(RELATION_TYPES.map((type) => [type, ZERO_COUNTS])) as Record<RelationType, Counts>;
  let all = ZERO_COUNTS;
  const byKind: Partial<Record<TrapKind, number>> = {};
  const reported = { gold: 0, found: 0 };
  for (const outcome of outcomes) {
    for (const type of types) {
      totals[type] = addCounts(totals[type], outcome.types[type]);
      all = addCounts(all, outcome.types[type]);
    }
    for (const kind of outcome.trapViolations) byKind[kind] = (byKind[kind] ?? 0) + 1;
    reported.gold += outcome.reported.gold;
    reported.found += outcome.reported.found;
  }
  return {
    records: records.length,
    types: { ...(Object.fromEntries(types.map((type) => [type, metricsOf(totals[type])])) as Record<RelationType, Metrics>), all: metricsOf(all) },
    reported: { ...reported, recall: reported.gold === 0 ? null : reported.found / reported.gold },
    traps: {
      entries: records.reduce((sum, record) => sum + record.not.length, 0),
      violations: outcomes.reduce((sum, outcome) => sum + outcome.trapViolations.length, 0),
      byKind: Object.fromEntries(TRAP_KINDS.filter((kind) => byKind[kind]).map((kind) => [kind, byKind[kind]!])),
    },
  };
}

// ---------------------------------------------------------------- the run

/** What the eval script lends: one way of extracting a sentence into the relation scorer's shape (nodes with spans, edges between them). */
export interface RelationExtractor {
  description: string;
  predict(sentence: GoldSentence): Promise<DocumentPrediction>;
  close(): Promise<void>;
}

/** A record as the extractors take it: a sentence with its date and no entity annotation. */
const asSentence = (record: ResolvedRecord): GoldSentence => ({
  id: record.id, conflict: record.conflict, document_date: record.document_date, text: record.text,
  actors: [], claims: [], events: [], locations: [], dates: [],
});

/** Runs one extractor over the records and scores its relations; a record whose extraction fails scores as empty and is counted. */
export async function evaluateRelations(
  extractor: RelationExtractor,
  records: readonly ResolvedRecord[],
  types: readonly RelationType[] = RELATION_TYPES,
): Promise<RelationSummary & { extractor: string; errors: number; ms_per_record: number; sources: Record<'written' | 'open', Metrics>; outcomes: RelationOutcome[] }> {
  const outcomes: RelationOutcome[] = [];
  let errors = 0;
  const started = performance.now();
  for (const record of records) {
    let predicted = NOTHING_READ;
    try {
      predicted = await extractor.predict(asSentence(record));
    } catch {
      errors++;
    }
    outcomes.push(scoreRelationRecord(record, predicted, types));
  }
  const elapsed = performance.now() - started;
  // Written records and Re-DocRED's encyclopedic ones differ in style: all types, apart.
  const ofSource = (open: boolean) => {
    const chosen = records.flatMap((record, index) => ((record.source !== undefined) === open ? [index] : []));
    return summariseRelations(chosen.map((index) => records[index]), chosen.map((index) => outcomes[index]), types).types.all;
  };
  return {
    extractor: extractor.description,
    errors,
    ms_per_record: Math.round((elapsed / Math.max(records.length, 1)) * 10) / 10,
    ...summariseRelations(records, outcomes, types),
    sources: { written: ofSource(false), open: ofSource(true) },
    outcomes,
  };
}

const figure = (value: number | null) => (value === null ? '    –' : value.toFixed(3));
const row = (label: string, m: Metrics) =>
  `${label.padEnd(14)}${String(m.tp + m.fn).padStart(6)}${String(m.tp + m.fp).padStart(6)}${String(m.tp).padStart(6)}${figure(m.precision).padStart(8)}${figure(m.recall).padStart(8)}${figure(m.f1).padStart(8)}`;

/** The table for one run: per type, all types, reported relations and traps. */
export function formatRelationSummary(title: string, summary: Awaited<ReturnType<typeof evaluateRelations>>): string {
  const lines = [
    `== ${title}`,
    `   ${summary.extractor}`,
    `   ${summary.records} records, ${summary.ms_per_record} ms/record${summary.errors ? `, ${summary.errors} FAILED (scored as empty)` : ''}`,
    '',
    `${'relation'.padEnd(14)}${'gold'.padStart(6)}${'pred'.padStart(6)}${'tp'.padStart(6)}${'P'.padStart(8)}${'R'.padStart(8)}${'F1'.padStart(8)}`,
  ];
  for (const [type, m] of Object.entries(summary.types)) lines.push(row(type, m));
  if (summary.sources.open.tp + summary.sources.open.fn > 0) {
    lines.push('', ...Object.entries(summary.sources).map(([source, m]) => row(`all, ${source}`, m)));
  }
  if (summary.reported.gold > 0) {
    lines.push('', `reported relations found: ${summary.reported.found} of ${summary.reported.gold} (recall ${figure(summary.reported.recall).trim()})`);
  }
  if (summary.traps.entries > 0) {
    const kinds = Object.entries(summary.traps.byKind).map(([kind, count]) => `${kind} ${count}`).join(', ');
    lines.push(`trap violations: ${summary.traps.violations} predicted relations match one of ${summary.traps.entries} not entries${kinds ? ` (${kinds})` : ''}`);
  }
  return lines.join('\n');
}

const GOLD_DIR = fileURLToPath(new URL('../../corpora/gold/', import.meta.url));
/** The open sets sit beside the checkout (README of ../shared/data/ner); the eval may read them, tests may not. */
const REDOCRED_DIR = fileURLToPath(new URL('../../../shared/data/ner/redocred/', import.meta.url));
/** The entity sets, scored on the relations their records carry (aggregate only). */
const ENTITY_SETS = ['dev.jsonl', 'heldout.jsonl', 'heldout-official.jsonl'] as const;
const LAYERS = [['symbolic', "symbolic layer's raw findings"], ['pipeline', "pipeline's result (no model)"]] as const;

/** Each record's misses, false positives and traps fallen into: only ever printed for the development set. */
export function formatRelationDetails(records: readonly ResolvedRecord[], outcomes: readonly RelationOutcome[]): string {
  const lines: string[] = [];
  records.forEach((record, index) => {
    const outcome = outcomes[index];
    const problems = RELATION_TYPES.flatMap((type) => [
      ...outcome.types[type].missed.map((item) => `   - missed   ${item}`),
      ...outcome.types[type].spurious.map((item) => `   + spurious ${item}`),
    ]);
    if (outcome.trapViolations.length > 0) problems.push(`   ! traps: ${outcome.trapViolations.join(', ')}`);
    if (problems.length > 0) lines.push(`${record.id}: ${record.text}`, ...problems);
  });
  return lines.join('\n');
}

/**
 * `npm run eval:extract -- --set relations`: relations.jsonl scored per relation type for the
 * symbolic layer's findings and the pipeline's result, then the entity sets' relations in
 * aggregate. Per-record misses are never printed: every set scored here is held out.
 * `--set relations-dev` scores the development set (relations-dev.jsonl) alone, and with
 * `--verbose` prints each record's errors: that set is the one to tune on.
 */
export async function runRelationEval(options: {
  open: (layer: 'symbolic' | 'pipeline') => Promise<RelationExtractor>;
  json: boolean;
  log: (line: string) => void;
  development?: { verbose: boolean };
}): Promise<void> {
  const { open, json, log, development } = options;
  const file = development ? 'relations-dev.jsonl' : 'relations.jsonl';
  const parsed = parseRelationSet(await readFile(join(GOLD_DIR, file), 'utf8'));
  const { resolved, skipped } = await resolveRecords(parsed, REDOCRED_DIR);
  log(`gold set: corpora/gold/${file}, ${resolved.length} records${skipped ? `; ${skipped} Re-DocRED records skipped (${REDOCRED_DIR} is absent)` : ''}`);
  const runs: { set: string; layer: string; summary: Awaited<ReturnType<typeof evaluateRelations>> }[] = [];
  const run = async (set: string, records: readonly ResolvedRecord[], types: readonly RelationType[]) => {
    for (const [layer, title] of LAYERS) {
      const extractor = await open(layer);
      try {
        runs.push({ set, layer, summary: await evaluateRelations(extractor, records, types) });
      } finally {
        await extractor.close();
      }
      if (!json) log(`${formatRelationSummary(`${set}: ${title}`, runs[runs.length - 1].summary)}\n`);
      if (!json && development?.verbose) log(`${formatRelationDetails(records, runs[runs.length - 1].summary.outcomes)}\n`);
    }
  };
  await run(file, resolved, RELATION_TYPES);
  for (const file of development ? [] : ENTITY_SETS) {
    const records = relationRecordsOf(parseGold(await readFile(join(GOLD_DIR, file), 'utf8')));
    const types = RELATION_TYPES.filter((type) => records.some((record) => record.relations.some((relation) => relation.type === type)));
    if (records.length === 0) log(`${file}: no record carries relations\n`);
    else await run(file, records, types);
  }
  if (json) console.log(JSON.stringify(runs.map(({ set, layer, summary: { outcomes, ...summary } }) => ({ set, layer, ...summary })), null, 2));
}
