import { ACTOR_TYPES, CLAIM_TYPES, LOCATION_TYPES } from '../../engine/ontology/index.ts';

/**
 * The held-out documents' source format (corpora/gold/documents-src/*.txt, described in
 * corpora/gold/README.md): documents with their mentions marked inline, turned into records
 * whose every span is given both as surface + occurrence and as character offsets, and checked.
 */

export const ENTITY_TYPES = ['PER', 'ORG', 'LOC'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const REFERENCE_KINDS = ['pronoun', 'office', 'nominal'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];
export const RELATION_TYPES = ['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** A span of the document text: its surface, which word-bounded occurrence of it, and its offsets. */
export interface GoldSpan { surface: string; occurrence: number; start: number; end: number }
export interface GoldEntity { id: string; type: EntityType; subtype: string; name: string; mentions: GoldSpan[] }
export interface GoldReference extends GoldSpan { entity: string; kind: ReferenceKind }
export interface GoldClaim { id: string; type: string; speaker: string | null; cue: GoldSpan }
export interface GoldRelation { id: string; type: RelationType; from: string; to: string; trigger: GoldSpan; sentence: string }
export interface GoldDocument {
  id: string;
  conflict: string;
  genre: string;
  document_date: string;
  text: string;
  entities: GoldEntity[];
  references: GoldReference[];
  claims: GoldClaim[];
  relations: GoldRelation[];
}

/** Words and paragraphs a document must have (the issue's "real-style multi-paragraph documents"). */
export const DOCUMENT_WORDS = { min: 120, max: 400 } as const;
export const DOCUMENT_PARAGRAPHS = { min: 2, max: 6 } as const;

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/** Start offsets of `surface` in `text` that are not inside a longer word (case-sensitive). */
export function occurrencesOf(text: string, surface: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(surface); at !== -1; at = text.indexOf(surface, at + 1)) {
    const end = at + surface.length;
    const cutsBefore = isWordChar(surface[0]) && isWordChar(text[at - 1]);
    const cutsAfter = isWordChar(surface[surface.length - 1]) && isWordChar(text[end]);
    if (!cutsBefore && !cutsAfter) starts.push(at);
  }
  return starts;
}

const ABBREVIATIONS = new Set(['Mr', 'Mrs', 'Ms', 'Dr', 'Gen', 'Lt', 'Col', 'Maj', 'Capt', 'Sgt', 'St', 'No', 'Brig', 'Adm', 'Prof', 'Rev']);

/** The sentence of `text` holding offset `at`: split at . ! ? before a capital, not after abbreviations or initials. */
export function sentenceAt(text: string, at: number): string {
  const boundaries = [0];
  for (const match of text.matchAll(/[.!?]["”’)]?(\s+)(?=["“‘(]?[A-Z0-9])|\n\s*\n/g)) {
    const index = match.index;
    if (match[0].startsWith('\n')) { boundaries.push(index + match[0].length); continue; }
    if (text[index] === '.') {
      const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, index - 20), index))?.[1] ?? '';
      if (ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(word) || word.includes('.')) continue;
    }
    boundaries.push(index + match[0].length);
  }
  boundaries.push(text.length);
  for (let i = 0; i < boundaries.length - 1; i++) {
    if (at >= boundaries[i] && at < boundaries[i + 1]) return text.slice(boundaries[i], boundaries[i + 1]).trim();
  }
  return text.trim();
}

const MARK = /\[([^[\]|]+)\|([^[\]|]+)\]/g;

function fail(id: string, message: string): never {
  throw new Error(`gold document ${id}: ${message}`);
}

function spanAt(id: string, text: string, surface: string, start: number): GoldSpan {
  const occurrence = occurrencesOf(text, surface).indexOf(start) + 1;
  if (occurrence === 0) fail(id, `"${surface}" at ${start} is inside a longer word`);
  return { surface, occurrence, start, end: start + surface.length };
}

/** One source block (`=== id`, header lines, `---`, the marked text) as a record. */
function parseBlock(block: string): GoldDocument {
  const [head, ...bodyParts] = block.split(/^---$/m);
  if (bodyParts.length !== 1) fail(block.slice(0, 40), 'needs exactly one --- line between header and text');
  const headLines = head.split('\n').map((line) => line.trim()).filter(Boolean);
  const id = headLines.shift()!;
  const field = (name: string) => headLines.find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? fail(id, `no ${name}:`);
  const entities: GoldEntity[] = [];
  const claimHeads: { id: string; type: string; speaker: string | null }[] = [];
  const relationHeads: { id: string; type: RelationType; from: string; to: string }[] = [];
  for (const line of headLines) {
    const [keyword, ...words] = line.split(/\s+/);
    if (keyword === 'entity') {
      const [entityId, type, subtype, ...name] = words;
      entities.push({ id: entityId, type: type as EntityType, subtype, name: name.join(' '), mentions: [] });
    } else if (keyword === 'claim') {
      claimHeads.push({ id: words[0], type: words[1], speaker: words[2] === '-' ? null : words[2] });
    } else if (keyword === 'relation') {
      relationHeads.push({ id: words[0], type: words[1] as RelationType, from: words[2], to: words[3] });
    } else if (!/^(conflict|genre|date):/.test(line)) {
      fail(id, `unknown header line "${line}"`);
    }
  }

  const marked = bodyParts[0].trim().split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim()).join('\n\n');
  const text = marked.replace(MARK, (_, surface: string) => surface);
  if (/[[\]]/.test(text)) fail(id, 'an unclosed or nested mark');
  const references: GoldReference[] = [];
  const cues = new Map<string, GoldSpan>();
  const triggers = new Map<string, GoldSpan>();
  let removed = 0;
  for (const match of marked.matchAll(MARK)) {
    const [whole, surface, target] = match;
    const start = match.index - removed;
    removed += whole.length - surface.length;
    const span = spanAt(id, text, surface, start);
    const [name, kind] = target.split(':');
    if (name === 'c') cues.set(kind, span);
    else if (name === 'r') triggers.set(kind, span);
    else if (kind === undefined) (entities.find((entity) => entity.id === name) ?? fail(id, `mark of unknown entity "${name}"`)).mentions.push(span);
    else references.push({ entity: name, kind: kind as ReferenceKind, ...span });
  }
  const claims = claimHeads.map((claim) => ({ ...claim, cue: cues.get(claim.id) ?? fail(id, `claim ${claim.id} has no cue`) }));
  const relations = relationHeads.map((relation) => {
    const trigger = triggers.get(relation.id) ?? fail(id, `relation ${relation.id} has no trigger`);
    return { ...relation, trigger, sentence: sentenceAt(text, trigger.start) };
  });
  const document: GoldDocument = { id, conflict: field('conflict'), genre: field('genre'), document_date: field('date'), text, entities, references, claims, relations };
  const problems = checkDocument(document);
  if (problems.length > 0) fail(id, problems.join('; '));
  return document;
}

/** Every `=== id` block of a source file, in order. */
export function parseSource(source: string): GoldDocument[] {
  return source.split(/^=== /m).slice(1).map((block) => parseBlock(block));
}

const wordsOf = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** What is wrong with one record: spans that do not slice to their surface, dangling ids, unknown types, wrong size. */
export function checkDocument(document: GoldDocument): string[] {
  const problems: string[] = [];
  const { text } = document;
  const checkSpan = (what: string, span: GoldSpan) => {
    if (text.slice(span.start, span.end) !== span.surface) problems.push(`${what} "${span.surface}" does not slice to its surface at ${span.start}`);
    else if (occurrencesOf(text, span.surface)[span.occurrence - 1] !== span.start) problems.push(`${what} "${span.surface}" is not occurrence ${span.occurrence}`);
  };
  const ids = new Set<string>();
  for (const entity of document.entities) {
    if (ids.has(entity.id)) problems.push(`entity ${entity.id} twice`);
    ids.add(entity.id);
    if (!ENTITY_TYPES.includes(entity.type)) problems.push(`entity ${entity.id}: type ${entity.type}`);
    const subtypes: readonly string[] = entity.type === 'LOC' ? LOCATION_TYPES : ACTOR_TYPES;
    if (!subtypes.includes(entity.subtype)) problems.push(`entity ${entity.id}: subtype ${entity.subtype}`);
    if ((entity.type === 'PER') !== (entity.subtype === 'individual')) problems.push(`entity ${entity.id}: PER is exactly actor type individual`);
    if (entity.mentions.length === 0) problems.push(`entity ${entity.id} has no named mention`);
    for (const mention of entity.mentions) checkSpan(`mention of ${entity.id}`, mention);
  }
  for (const reference of document.references) {
    if (!ids.has(reference.entity)) problems.push(`reference "${reference.surface}" to unknown entity ${reference.entity}`);
    if (!REFERENCE_KINDS.includes(reference.kind)) problems.push(`reference "${reference.surface}": kind ${reference.kind}`);
    checkSpan('reference', reference);
  }
  for (const claim of document.claims) {
    if (!(CLAIM_TYPES as readonly string[]).includes(claim.type)) problems.push(`claim ${claim.id}: type ${claim.type}`);
    if (claim.speaker !== null && !ids.has(claim.speaker)) problems.push(`claim ${claim.id}: unknown speaker ${claim.speaker}`);
    checkSpan(`cue of ${claim.id}`, claim.cue);
  }
  for (const relation of document.relations) {
    if (!RELATION_TYPES.includes(relation.type)) problems.push(`relation ${relation.id}: type ${relation.type}`);
    for (const end of [relation.from, relation.to]) if (!ids.has(end)) problems.push(`relation ${relation.id}: unknown entity ${end}`);
    checkSpan(`trigger of ${relation.id}`, relation.trigger);
    if (!text.includes(relation.sentence) || !relation.sentence.includes(relation.trigger.surface)) problems.push(`relation ${relation.id}: sentence does not hold its trigger`);
  }
  const words = wordsOf(text);
  if (words < DOCUMENT_WORDS.min || words > DOCUMENT_WORDS.max) problems.push(`${words} words`);
  const paragraphs = text.split('\n\n').length;
  if (paragraphs < DOCUMENT_PARAGRAPHS.min || paragraphs > DOCUMENT_PARAGRAPHS.max) problems.push(`${paragraphs} paragraphs`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(document.document_date)) problems.push(`date ${document.document_date}`);
  return problems;
}

/** The committed documents.jsonl, each record checked (a hand edit that breaks a span fails loudly). */
export function parseGoldDocuments(jsonl: string): GoldDocument[] {
  return jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => {
    const document = JSON.parse(line) as GoldDocument;
    const problems = checkDocument(document);
    if (problems.length > 0) fail(document.id, problems.join('; '));
    return document;
  });
}
