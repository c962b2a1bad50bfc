import type { WorkspaceTier } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { noteProvenanceJson } from '../store/provenance-json.ts';
import { yieldToLoop } from '../turns.ts';
import { datelineDate } from './dateline.ts';
import { graphNames } from './graph-resolution.ts';
import { readKnownNames, type KnownNamesPosition, type KnownNamesRef } from './known-names.ts';
import { actorDirectory, collectMentions, structureDocument, type ActorDirectory, type CombinationPolicy, type StructuredDocument } from './structure/index.ts';
import type { EntityMention } from './structure/entity-mention.ts';
import type { DocumentInput, Findings, FindingsReader, NeuralEntity } from './types.ts';

/**
 * A document structured without its graph, where the text was read (a symbolic worker), and
 * the graph-dependent step that decides at commit time whether the graph would have
 * changed it. Structuring asks the graph three things: which actor a name denotes
 * (ActorDirectory.lookup), where the text names known actors that no extractor found
 * (ActorDirectory.occurrences), and who is a member of whom (MEMBER_OF edges). A draft
 * is made with every answer "nothing known", or (a batch's) with the answers of the names the
 * batch knew when it sent the document (known-names.ts), and records the questions with their
 * answers; at commit, resolveDraft asks the graph the same questions. Structuring is pure, so when the graph
 * gives the answers the draft was made with, the draft is exactly what structuring
 * against the graph gives; otherwise the caller structures again against the graph.
 * A batch thus moves structuring into the worker pool and keeps the commit-order
 * resolution on one thread.
 */

/**
 * Characters the symbolic layer reads at once. Its cost grows faster than linearly
 * with document length (measured: 100k characters 5 s, 1M characters 178 s in one
 * call), so longer documents are cut at paragraph breaks into chunks of at most this
 * size, and the event loop runs between chunks. Its document-level passes (acronyms,
 * surnames) then work within a chunk; the structure stage resolves names across the
 * whole document.
 */
export const SYMBOLIC_CHUNK_CHARS = 50_000;

const CHUNK_SEPARATORS = ['\n\n', '\n', '. ', ' '];

/** Chunk boundaries: each chunk ends at a paragraph break, else a line break, else a sentence end, else a space. */
export function chunkBounds(text: string, size: number): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  while (text.length - start > size) {
    const window = text.slice(start, start + size);
    const cut = CHUNK_SEPARATORS.map((separator) => ({ at: window.lastIndexOf(separator), separator })).find(({ at }) => at > size / 2);
    const end = cut ? start + cut.at + cut.separator.length : start + size;
    bounds.push([start, end]);
    start = end;
  }
  bounds.push([start, text.length]);
  return bounds;
}

/** Moves every {start, end} span inside a finding by `offset` (findings of a chunk → offsets into the document). */
function shifted<T>(value: T, offset: number): T {
  if (Array.isArray(value)) return value.map((item) => shifted(item, offset)) as T;
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) result[key] = shifted(member, offset);
  if (typeof result.start === 'number' && typeof result.end === 'number') {
    result.start = (result.start as number) + offset;
    result.end = (result.end as number) + offset;
  }
  return result as T;
}

export async function findInChunks(find: FindingsReader, input: DocumentInput): Promise<Findings> {
  if (input.text.length <= SYMBOLIC_CHUNK_CHARS) return find(input);
  const all: Findings = { actors: [], locations: [], dates: [], claims: [], events: [], relations: [] };
  for (const [start, end] of chunkBounds(input.text, SYMBOLIC_CHUNK_CHARS)) {
    await yieldToLoop();
    const found = shifted(await find({ ...input, text: input.text.slice(start, end) }), start);
    for (const key of Object.keys(all) as (keyof Findings)[]) (all[key] as unknown[]).push(...found[key]);
  }
  return all;
}

function countSentences(text: string): number {
  return text.split(/(?<=[.!?])\s+|\n\s*\n/).filter((part) => /\p{L}/u.test(part)).length;
}

/** What reading a document found, as extraction's stats report it. */
export function readingStats(text: string, findings: Findings, neural: NeuralEntity[] | null): { sentences: number; neural_entities: number | null; symbolic_mentions: number } {
  return {
    sentences: countSentences(text),
    neural_entities: neural ? neural.length : null,
    symbolic_mentions: findings.actors.length + findings.locations.length + findings.claims.length + findings.events.length,
  };
}

/** What a worker needs to draft a document: everything structuring reads but the graph. */
export interface DraftTask {
  input: DocumentInput;
  /** Transformer spans, or null when no model is configured. */
  neural: NeuralEntity[] | null;
  tier: WorkspaceTier;
  /** Symbolic layer and model with versions, as every provenance record names them. */
  extractor: string;
  ingestedAt: string;
  title?: string;
  combination?: CombinationPolicy;
  /**
   * When the input gives no date, the document is dated by its dateline (datelineDate), read
   * here: in a worker, not on the thread that commits.
   */
  dateline?: boolean;
  /**
   * The graph's actor names as the batch knew them when it sent the task (known-names.ts): the
   * draft is made against them rather than against none. Absent: nothing known.
   */
  names?: KnownNamesRef;
}

/** The questions structuring asked of the graph while drafting, with what the names the draft was made against (if any) answered. */
export interface GraphQuestions {
  /** Names looked up in the actor directory and answered "nothing known"; each would have become its own label. */
  names: string[];
  /** Names the directory answered with a known actor's label: [name, looked up as a person, label]. */
  answered: [string, boolean, string][];
  /** The document's own mention spans, when known names were searched for: an occurrence outside them would have been added. */
  mentions: [number, number][] | null;
  /** The occurrences of known names outside those spans that the directory answered, which structuring added (none without names). */
  known: EntityMention[];
  /** [member, organisation] pairs asked about and answered "not a member". */
  memberships: [string, string][];
  /** Pairs asked about and answered "a member". */
  members: [string, string][];
  /** How far into the batch's log of names the draft was made (absent: against nothing known). */
  against?: KnownNamesPosition;
}

/** A document structured without its graph (draftDocument), for resolveDraft at commit time. */
export interface DocumentDraft {
  /** What it was made from, so a draft is only used for the same document and settings. */
  made: { sha256: string; source: string; document_date?: string; title?: string; tier: WorkspaceTier; ingestedAt: string };
  graph: StructuredDocument;
  questions: GraphQuestions;
  stats: { sentences: number; neural_entities: number | null; symbolic_mentions: number };
  /** Time spent reading and structuring; a pipeline's draft() and draftFile() set it as the calling thread measured it (a worker's queue and hand-over included). */
  ms: number;
}

/** Structures `task`'s document as if its graph knew only `task.names` (else nothing), recording what it asked and was answered; `find` is the symbolic layer. */
export async function draftDocument(
  task: DraftTask & { sha256: string; documentId: string },
  find: FindingsReader,
): Promise<DocumentDraft> {
  const started = performance.now();
  const documentDate = task.input.document_date ?? (task.dateline ? datelineDate(task.input.text) : undefined);
  const input = documentDate === task.input.document_date ? task.input : { ...task.input, document_date: documentDate };
  const findings = await findInChunks(find, input);
  const questions: GraphQuestions = { names: [], answered: [], mentions: null, known: [], memberships: [], members: [] };
  const known = task.names && readKnownNames(task.names);
  if (known) questions.against = known.position;
  const names = known?.directory;
  let occurrences: EntityMention[] = [];
  const directory: ActorDirectory = {
    lookup(surface, person = false) {
      const label = names?.lookup(surface, person);
      if (label === undefined) questions.names.push(surface);
      else questions.answered.push([surface, person, label]);
      return label;
    },
    occurrences(text) {
      questions.mentions = [];
      occurrences = names?.occurrences(text) ?? [];
      return occurrences;
    },
  };
  const graph = structureDocument({
    document: input, documentId: task.documentId, sha256: task.sha256, findings, neural: task.neural,
    ...(task.combination ? { combination: task.combination } : {}), tier: task.tier, extractor: task.extractor, ingestedAt: task.ingestedAt,
    ...(task.title ? { title: task.title } : {}),
    directory,
    isMemberOf: (member, organisation) => {
      const answer = known?.isMemberOf(member, organisation) ?? false;
      (answer ? questions.members : questions.memberships).push([member, organisation]);
      return answer;
    },
  });
  if (questions.mentions) {
    const mentions: [number, number][] = collectMentions(input.text, findings, task.neural, task.combination).map((mention) => [mention.start, mention.end]);
    questions.mentions = mentions;
    questions.known = occurrences.filter((occurrence) => !overlapsAny(mentions, occurrence));
  }
  return {
    made: {
      sha256: task.sha256, source: input.source, tier: task.tier, ingestedAt: task.ingestedAt,
      ...(input.document_date ? { document_date: input.document_date } : {}),
      ...(task.title ? { title: task.title } : {}),
    },
    graph,
    questions,
    stats: readingStats(input.text, findings, task.neural),
    ms: performance.now() - started,
  };
}

/**
 * A batch's document to be read from its file, checked, hashed and drafted where the symbolic layer
 * runs (a worker), so that the thread that commits only receives it: what a DraftTask holds, but
 * the file instead of its text, and the documents the graph holds (mayHold) instead of the hash.
 */
export interface FileDraftTask extends Omit<DraftTask, 'input' | 'neural' | 'title' | 'dateline'> {
  /** The folder read and the file's path under it. */
  dir: string;
  source: string;
  known: KnownDocuments;
}

/**
 * What became of a FileDraftTask: its text with its hash, and its draft unless the graph may hold
 * it already or it is longer than one call reads (SYMBOLIC_CHUNK_CHARS: such a text is drafted
 * chunk by chunk, a call each); or why it failed.
 */
export type FileDraft =
  | { kind: 'read'; source: string; text: string; title?: string; sha256: string; draft?: DocumentDraft }
  | { kind: 'failed'; code: string; reason: string };

/**
 * The documents a graph holds, for threads that cannot read the graph: the first 64 bits of each
 * document id's hash (documentIdOf), sorted, in memory those threads share (a task carries it
 * without a copy). A hash found here may still be another document's, so the thread that holds
 * the graph checks it (mayHold answers "perhaps").
 */
export type KnownDocuments = BigUint64Array;

const DOCUMENT_ID = /^document_([0-9a-f]{16})[0-9a-f]{8}$/;

/** KnownDocuments of the graph's Document nodes (ids of other shapes, imported by users, are no text's hash). */
export function knownDocuments(documentIds: Iterable<string>): KnownDocuments {
  // gathered in a typed array that doubles as it fills (no bigint object per document), then
  // copied into shared memory: at most 24 bytes per document while it is made, 8 after
  let prefixes = new BigUint64Array(1024);
  let count = 0;
  for (const id of documentIds) {
    const hex = DOCUMENT_ID.exec(id)?.[1];
    if (!hex) continue;
    if (count === prefixes.length) {
      const larger = new BigUint64Array(2 * count);
      larger.set(prefixes);
      prefixes = larger;
    }
    prefixes[count++] = BigInt(`0x${hex}`);
  }
  const known = new BigUint64Array(new SharedArrayBuffer(8 * count));
  known.set(prefixes.subarray(0, count));
  return known.sort();
}

/** Whether the text with this hash may be a document of `known` (false: it is none of them). */
export function mayHold(known: KnownDocuments, sha256: string): boolean {
  const prefix = BigInt(`0x${sha256.slice(0, 16)}`);
  let low = 0;
  let high = known.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (known[middle] < prefix) low = middle + 1;
    else high = middle;
  }
  return low < known.length && known[low] === prefix;
}

/** Separates a draft message's parts: JSON escapes every control character, so none occurs inside a part. */
const MESSAGE_PART = '\u0000';

/**
 * `value` (holding `draft`, or being it) as one string for the thread that commits: its JSON with
 * every record's provenance list left empty, then each list's JSON, the draft's nodes' then its
 * edges', apart. That thread parses each list and keeps its text (readDraftMessage), which the
 * commit writes rather than serialising the list again (engine/store/provenance-json.ts): the
 * serialising is done here, in the worker, where the JSON is made anyway.
 */
export function draftMessage<T>(value: T, draft: DocumentDraft | undefined, withDraft: (bare: DocumentDraft) => T): string {
  if (!draft) return JSON.stringify(value);
  const { nodes, edges } = draft.graph;
  const lists = [...nodes, ...edges].map((record) => JSON.stringify(record.provenance));
  const bare = { ...draft, graph: { nodes: nodes.map((node) => ({ ...node, provenance: [] })), edges: edges.map((edge) => ({ ...edge, provenance: [] })) } };
  return [JSON.stringify(withDraft(bare)), ...lists].join(MESSAGE_PART);
}

/** The value of a draftMessage, its draft's provenance lists parsed and their texts noted (noteProvenanceJson). */
export function readDraftMessage<T>(message: string, draftOf: (value: T) => DocumentDraft | undefined): T {
  const parts = message.split(MESSAGE_PART);
  const value = JSON.parse(parts[0]) as T;
  const draft = draftOf(value);
  if (!draft) return value;
  let part = 1;
  for (const records of [draft.graph.nodes, draft.graph.edges]) {
    for (const record of records) {
      const json = parts[part++];
      record.provenance = JSON.parse(json);
      noteProvenanceJson(record.provenance, json);
    }
  }
  return value;
}

/** A file's draftMessage (its draft's lists apart when it was read and drafted, else its plain JSON). */
export function fileDraftMessage(file: FileDraft): string {
  return file.kind === 'read' ? draftMessage(file, file.draft, (bare) => ({ ...file, draft: bare })) : JSON.stringify(file);
}

/** The FileDraft of a fileDraftMessage (readDraftMessage). */
export function readFileDraftMessage(message: string): FileDraft {
  return readDraftMessage<FileDraft>(message, (value) => (value.kind === 'read' ? value.draft : undefined));
}

/** What the graph answers structuring with: its actors' names and its memberships. */
export interface GraphAnswers {
  directory: ActorDirectory;
  isMemberOf(member: string, organisation: string): boolean;
  /**
   * Whether `directory` answers as one built from the batch's log of names up to `position`
   * (known-names.ts) does: a draft made there was answered as the directory would answer it.
   */
  directoryIsLogAt?(position: KnownNamesPosition): boolean;
}

/** Whether `span` overlaps one of `spans`. */
function overlapsAny(spans: readonly [number, number][], span: { start: number; end: number }): boolean {
  return spans.some(([start, end]) => start < span.end && span.start < end);
}

/**
 * The graph-dependent step of structuring a drafted document, at commit time: the draft
 * when the graph answers every question the draft asked as the draft was answered (a name
 * answered "nothing known" that denotes an actor of that very label is nothing new: the draft
 * labelled it so), else undefined, and the document must be structured against the graph.
 * No graph: the draft, unless it was answered with a known name.
 */
export function resolveDraft(draft: DocumentDraft, text: string, graph: GraphAnswers | undefined): StructuredDocument | undefined {
  const { memberships, members, against } = draft.questions;
  if (!graph) return draft.questions.answered.length === 0 && draft.questions.known.length === 0 && members.length === 0 ? draft.graph : undefined;
  // the directory the draft was made against, the same names asked again answer the same: only the memberships are asked
  if (!(against && graph.directoryIsLogAt?.(against)) && !sameDirectoryAnswers(draft.questions, text, graph.directory)) return undefined;
  if (memberships.some(([member, organisation]) => graph.isMemberOf(member, organisation))) return undefined;
  if (!members.every(([member, organisation]) => graph.isMemberOf(member, organisation))) return undefined;
  return draft.graph;
}

/** Whether `directory` answers the names a draft asked about as the draft was answered (a name it answered "nothing known" may name an actor of that very label). */
function sameDirectoryAnswers({ names, answered, mentions, known }: GraphQuestions, text: string, directory: ActorDirectory): boolean {
  for (const name of names) {
    const label = directory.lookup(name);
    if (label !== undefined && label !== name) return false;
  }
  for (const [name, person, label] of answered) if (directory.lookup(name, person) !== label) return false;
  if (!mentions) return true;
  // the occurrences structuring added, outside the document's own mentions, one for one
  let next = 0;
  for (const occurrence of directory.occurrences(text)) {
    if (overlapsAny(mentions, occurrence)) continue;
    if (next === known.length || JSON.stringify(occurrence) !== JSON.stringify(known[next])) return false;
    next++;
  }
  return next === known.length;
}

/**
 * What `index` answers structuring with: `directory` (built from its actors when not given, once,
 * so take new answers after the graph changes) and its memberships.
 */
export function graphAnswers(index: GraphIndex, directory: ActorDirectory = actorDirectory(graphNames(index).actors.values())): GraphAnswers {
  return { directory, isMemberOf: memberOf(index) };
}

/** Whether the graph holds `member` MEMBER_OF `organisation`. */
export function memberOf(index: GraphIndex): GraphAnswers['isMemberOf'] {
  return (member, organisation) => index.edgesOf(member, 'out', ['MEMBER_OF']).some((edge) => edge.to === organisation);
}
