import { createHash } from 'node:crypto';
import { TooLargeError, ValidationError } from '../errors.ts';
import type { WorkspaceTier } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { openNerBackend } from './neural/backend.ts';
import { openClaimTyper, withClaimTyping } from './neural/claim-typer.ts';
import { graphActors } from './graph-resolution.ts';
import { actorDirectory, structureDocument, type CombinationPolicy, type StructuredDocument } from './structure/index.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './symbolic/version.ts';
import { PooledRuleLayer } from './symbolic/pool.ts';
import type { DocumentInput, Findings, NerBackend, NeuralEntity, SymbolicLayer } from './types.ts';

/**
 * The extraction pipeline: text → neural spans (when a model is configured) and
 * symbolic findings → structured nodes and edges with provenance. It writes nothing;
 * engine/ingest/commit.ts commits it to a graph, and server/shape turns it into a response.
 */

/**
 * Longest document extracted in one request, in characters (TooLargeError beyond).
 * About 150 pages of prose; the symbolic layer runs at ~250 sentences/s, so this bounds
 * one extraction to well under a minute and a few tens of MB. Split longer sources.
 */
export const MAX_DOCUMENT_CHARS = 1_000_000;
/**
 * Characters the symbolic layer reads at once. Its cost grows faster than linearly
 * with document length (measured: 100k characters 5 s, 1M characters 178 s in one
 * call), so longer documents are cut at paragraph breaks into chunks of at most this
 * size, and the event loop runs between chunks. Its document-level passes (acronyms,
 * surnames) then work within a chunk; the structure stage resolves names across the
 * whole document.
 */
export const SYMBOLIC_CHUNK_CHARS = 50_000;
export const NO_MODEL_NOTE = 'no transformer model configured: symbolic layer only';

/** The rules in this thread, loaded on first use (lexicons and gazetteers cost ~50 MB resident; with rule workers the server never loads them). */
export const DEFAULT_SYMBOLIC_LAYER: SymbolicLayer = {
  version: SYMBOLIC_EXTRACTOR_VERSION,
  find: async (document) => (await import('./symbolic/index.ts')).findConflictEntities(document),
};

export interface ExtractOptions {
  tier: WorkspaceTier;
  /** The graph the result is meant for: its actors' labels and aliases resolve names across documents. */
  graph?: GraphIndex;
  /** Timestamp of facts the document does not date (default: now). Reused on re-ingest so nothing changes. */
  ingestedAt?: string;
  title?: string;
  /** The document read ahead (ExtractionPipeline.read); used when it was made from the same text and date. */
  reading?: DocumentReading;
}

/**
 * What the text alone yields: the rules' findings and the transformer's spans. It is
 * most of an extraction's cost and needs no graph, so a batch reads documents ahead
 * in the worker pools while earlier ones are committed one at a time.
 */
export interface DocumentReading {
  input: DocumentInput;
  findings: Findings;
  neural: NeuralEntity[] | null;
  ms: number;
}

export interface ExtractorInfo {
  rules: string;
  model: string | null;
  transformer: boolean;
  /** Present when no transformer model ran. */
  note?: string;
}

/** The document an extraction read. */
export interface ExtractedDocument {
  /** From the text alone (documentIdOf). */
  id: string;
  source: string;
  sha256: string;
  /** In characters. */
  length: number;
  title?: string;
  /** The date the document gives itself (DocumentInput.document_date). */
  published_at?: string;
}

export interface ExtractionResult {
  document: ExtractedDocument;
  /** The nodes and edges found, with provenance: what committing the result writes (the store's GraphWrite shape). */
  graph: StructuredDocument;
  stats: {
    characters: number;
    sentences: number;
    neural_entities: number | null;
    symbolic_mentions: number;
    nodes: number;
    edges: number;
    ms: number;
  };
  extractor: ExtractorInfo;
}

export interface ExtractionPipeline {
  readonly extractor: ExtractorInfo;
  extract(input: DocumentInput, options: ExtractOptions): Promise<ExtractionResult>;
  read(input: DocumentInput): Promise<DocumentReading>;
  close(): Promise<void>;
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A document's id depends on its text alone: the same text is the same document under any name. */
export function documentIdOf(sha256: string): string {
  return `document_${sha256.slice(0, 24)}`;
}

/** Empty, whitespace-only and over-long texts are refused before any work is done. */
export function checkDocumentText(text: unknown): asserts text is string {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ValidationError('empty_text', 'text is empty: there is nothing to extract', { field: 'text' });
  }
  if (text.length > MAX_DOCUMENT_CHARS) {
    throw new TooLargeError('document_too_large', `the document has ${text.length} characters; the limit is ${MAX_DOCUMENT_CHARS}: split it into parts`, {
      limit: MAX_DOCUMENT_CHARS,
      characters: text.length,
    });
  }
}

function countSentences(text: string): number {
  return text.split(/(?<=[.!?])\s+|\n\s*\n/).filter((part) => /\p{L}/u.test(part)).length;
}

export interface PipelineOptions {
  /** The transformer NER pool; null or absent runs the symbolic layer alone. */
  ner?: NerBackend | null;
  symbolic?: SymbolicLayer;
  /** Why there is no model (e.g. openNerBackend's status), reported in every result instead of the default note. */
  modelStatus?: string;
  /** How rule mentions and transformer spans combine (default DEFAULT_COMBINATION, the policy that measured best). */
  combination?: CombinationPolicy;
}

export function createExtractionPipeline(options: PipelineOptions = {}): ExtractionPipeline {
  const ner = options.ner ?? null;
  const symbolic = options.symbolic ?? DEFAULT_SYMBOLIC_LAYER;
  const extractor: ExtractorInfo = {
    rules: symbolic.version,
    model: ner?.model ?? null,
    transformer: ner !== null,
    ...(ner ? {} : { note: options.modelStatus ?? NO_MODEL_NOTE }),
  };
  const provenanceExtractor = `${extractor.rules} + ${extractor.model ?? 'none'}`;

  const read = async (input: DocumentInput): Promise<DocumentReading> => {
    checkDocumentText(input.text);
    const started = performance.now();
    const neuralPromise: Promise<NeuralEntity[] | null> = ner ? ner.recognise([input.text]).then((all) => all[0] ?? []) : Promise.resolve(null);
    // The transformer runs in worker threads while the rules run here.
    const [findings, neural] = await Promise.all([findInChunks(symbolic, input), neuralPromise]);
    return { input, findings, neural, ms: performance.now() - started };
  };

  return {
    extractor,
    read,
    async extract(input, extractOptions) {
      checkDocumentText(input.text);
      const started = performance.now();
      const sha256 = sha256Of(input.text);
      const documentId = documentIdOf(sha256);
      const ahead = extractOptions.reading;
      const readAhead = ahead !== undefined && ahead.input.text === input.text && ahead.input.document_date === input.document_date;
      const { findings, neural, ms: readMs } = readAhead ? ahead : await read(input);
      const directory = extractOptions.graph ? actorDirectory(graphActors(extractOptions.graph)) : undefined;
      const graph = structureDocument({
        document: input, documentId, sha256, findings, neural, ...(options.combination ? { combination: options.combination } : {}), tier: extractOptions.tier, extractor: provenanceExtractor,
        ingestedAt: extractOptions.ingestedAt ?? new Date().toISOString(),
        ...(extractOptions.title ? { title: extractOptions.title } : {}),
        ...(directory ? { directory } : {}),
        ...(extractOptions.graph ? { isMemberOf: knownMembership(extractOptions.graph) } : {}),
      });
      return {
        document: {
          id: documentId, source: input.source, sha256, length: input.text.length,
          ...(extractOptions.title ? { title: extractOptions.title } : {}),
          ...(input.document_date ? { published_at: input.document_date } : {}),
        },
        graph,
        stats: {
          characters: input.text.length,
          sentences: countSentences(input.text),
          neural_entities: neural ? neural.length : null,
          symbolic_mentions: findings.actors.length + findings.locations.length + findings.claims.length + findings.events.length,
          nodes: graph.nodes.length,
          edges: graph.edges.length,
          // a reading made ahead took its time before this call
          ms: Math.round(performance.now() - started + (readAhead ? readMs : 0)),
        },
        extractor,
      };
    },
    async close() {
      await ner?.close();
    },
  };
}

/**
 * The pipeline the server runs: with the NER model in `modelDir` when one is configured
 * and loads, else the symbolic layer alone; `status` says which, for the startup log.
 */
export async function openExtractionPipeline(options: {
  modelDir?: string;
  workers?: number;
  maxQueue?: number;
  /** A text-classification or zero-shot model that re-types claims the rules found. */
  claimModelDir?: string;
  /** Rule-layer worker threads (default one per core); 0 runs the rules on the calling thread. */
  ruleWorkers?: number;
  /** Rule-layer calls admitted at once (default DEFAULT_RULE_MAX_QUEUE); more are refused with 503. */
  ruleMaxQueue?: number;
}): Promise<{ pipeline: ExtractionPipeline; status: string }> {
  const { claimModelDir, ruleWorkers, ruleMaxQueue, ...nerOptions } = options;
  const { backend, status } = await openNerBackend(nerOptions);
  const { typer, status: claimStatus } = await openClaimTyper(claimModelDir ? { modelDir: claimModelDir } : {});
  // A configured model that failed to load is worth naming in every result; no model at all gets the standard note.
  const modelStatus = !backend && options.modelDir ? { modelStatus: status } : {};
  const rules = ruleWorkers === 0 ? undefined : new PooledRuleLayer({
    ...(ruleWorkers === undefined ? {} : { workers: ruleWorkers }),
    ...(ruleMaxQueue === undefined ? {} : { maxQueue: ruleMaxQueue }),
  });
  const ruleLayer: SymbolicLayer = rules ?? DEFAULT_SYMBOLIC_LAYER;
  const pipeline = createExtractionPipeline({ ner: backend, ...modelStatus, symbolic: typer ? withClaimTyping(ruleLayer, typer) : ruleLayer });
  const close = async () => {
    await pipeline.close();
    await typer?.close();
    await rules?.close();
  };
  return { pipeline: { ...pipeline, close }, status: `${status}; ${claimStatus}` };
}

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

async function findInChunks(symbolic: SymbolicLayer, input: DocumentInput): Promise<Findings> {
  if (input.text.length <= SYMBOLIC_CHUNK_CHARS) return symbolic.find(input);
  const all: Findings = { actors: [], locations: [], dates: [], claims: [], events: [], relations: [] };
  for (const [start, end] of chunkBounds(input.text, SYMBOLIC_CHUNK_CHARS)) {
    await new Promise((resolve) => setImmediate(resolve));
    const found = shifted(await symbolic.find({ ...input, text: input.text.slice(start, end) }), start);
    for (const key of Object.keys(all) as (keyof Findings)[]) (all[key] as unknown[]).push(...found[key]);
  }
  return all;
}

function knownMembership(index: GraphIndex): (member: string, organisation: string) => boolean {
  return (member, organisation) => index.edgesOf(member, 'out', ['MEMBER_OF']).some((edge) => edge.to === organisation);
}
