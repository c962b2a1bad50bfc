import type { WorkspaceTier } from '../ontology/index.ts';
import { checkText, documentIdOf, type CheckedText } from './checked-text.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { openNerBackend } from './neural/backend.ts';
import { openClaimTyper, withClaimTyping } from './neural/claim-typer.ts';
import { draftDocument, readingStats, findInChunks, graphAnswers, resolveDraft, SYMBOLIC_CHUNK_CHARS, type DocumentDraft, type FileDraft, type GraphAnswers, type KnownDocuments } from './draft.ts';
import type { KnownNamesRef } from './known-names.ts';
import { structureDocument, type CombinationPolicy, type StructuredDocument } from './structure/index.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './symbolic/version.ts';
import { PooledSymbolicLayer } from './symbolic/pool.ts';
import type { SymbolicLayer } from './symbolic/layer.ts';
import type { DocumentInput, Findings, NerBackend, NeuralEntity } from './types.ts';

/**
 * The extraction pipeline: text → neural spans (when a model is configured) and
 * symbolic findings → structured nodes and edges with provenance. It writes nothing;
 * engine/ingest/commit.ts commits it to a graph, and server/shape turns it into a response.
 */

export { checkText, checkedInWorker, documentIdOf, MAX_DOCUMENT_CHARS, sha256Of, type CheckedText } from './checked-text.ts';
export { chunkBounds, graphAnswers, memberOf, SYMBOLIC_CHUNK_CHARS, type DocumentDraft, type GraphAnswers } from './draft.ts';
export const NO_MODEL_NOTE = 'no transformer model configured: symbolic layer only';

/** The symbolic layer in this thread, loaded on first use (lexicons and gazetteers cost ~50 MB resident; with symbolic workers the server never loads them). */
export const DEFAULT_SYMBOLIC_LAYER: SymbolicLayer = {
  version: SYMBOLIC_EXTRACTOR_VERSION,
  find: async (document) => (await import('./symbolic/index.ts')).findConflictEntities(document),
};

export interface ExtractOptions {
  tier: WorkspaceTier;
  /** The graph the result is meant for, or what it answers (graphAnswers): its actors' labels and aliases resolve names across documents. */
  graph?: GraphIndex | GraphAnswers;
  /** The document's text as checkText passed it where the document came in; checked here when absent. */
  checked?: CheckedText;
  /** Timestamp of facts the document does not date (default: now). Reused on re-ingest so nothing changes. */
  ingestedAt?: string;
  title?: string;
}

export interface ResolveOptions {
  tier: WorkspaceTier;
  /** What the graph the document goes into knows (graphAnswers); none: an empty or new graph. */
  graph?: GraphAnswers;
  /** As in ExtractOptions: a draft made with another ingestion time does not fit. */
  ingestedAt?: string;
  title?: string;
  /** As in ExtractOptions. */
  checked?: CheckedText;
}

/** What the text alone yields: the symbolic layer's findings and the transformer's spans. */
interface DocumentReading {
  findings: Findings;
  neural: NeuralEntity[] | null;
}

export interface DraftOptions {
  tier: WorkspaceTier;
  title?: string;
  /** As in ExtractOptions. */
  checked?: CheckedText;
  /** Dates a document the input does not date by its dateline, where it is drafted (DraftTask.dateline). */
  dateline?: boolean;
}

export interface ExtractorInfo {
  /** The symbolic layer's name and version; `rules` is the HTTP answer's field name (api.md "Extraction"), kept. */
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
  /**
   * Reads and structures a document as if its graph knew nothing, in the symbolic workers when
   * there are any (the costly, graph-independent part of extract()).
   */
  draft(input: DocumentInput, options: DraftOptions): Promise<DocumentDraft>;
  /**
   * A batch's file `source` under `dir` read, checked, hashed and drafted (dated by its dateline)
   * in a symbolic worker, unless `known` may hold it (FileDraft). Only where the workers can do
   * all of it: with symbolic workers and no transformer model (whose spans a draft needs first).
   * With `names`, drafted against the actor names the batch knows so far (known-names.ts).
   */
  draftFile?(dir: string, source: string, options: { tier: WorkspaceTier; known: KnownDocuments; names?: KnownNamesRef }): Promise<FileDraft>;
  /**
   * The graph-dependent part, at commit time: the extraction `draft` stands for when it was
   * made from this document with these options and the graph does not change it
   * (resolveDraft); undefined otherwise, and extract() must structure it against the graph.
   */
  resolve(draft: DocumentDraft, input: DocumentInput, options: ResolveOptions): ExtractionResult | undefined;
  close(): Promise<void>;
}

export interface PipelineOptions {
  /** The transformer NER pool; null or absent runs the symbolic layer alone. */
  ner?: NerBackend | null;
  symbolic?: SymbolicLayer;
  /** Why there is no model (e.g. openNerBackend's status), reported in every result instead of the default note. */
  modelStatus?: string;
  /** How symbolic mentions and transformer spans combine (default DEFAULT_COMBINATION, the policy that measured best). */
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
    const neuralPromise: Promise<NeuralEntity[] | null> = ner ? ner.recognise([input.text]).then((all) => all[0] ?? []) : Promise.resolve(null);
    // The transformer runs in worker threads while the symbolic layer runs here.
    const [findings, neural] = await Promise.all([findInChunks((document) => symbolic.find(document), input), neuralPromise]);
    return { findings, neural };
  };

  const draft = async (input: DocumentInput, draftOptions: DraftOptions): Promise<DocumentDraft> => {
    const started = performance.now();
    const { sha256 } = checkText(input.text, draftOptions.checked);
    const neural = ner ? ((await ner.recognise([input.text]))[0] ?? []) : null;
    const task = {
      input, neural, tier: draftOptions.tier, extractor: provenanceExtractor, ingestedAt: new Date().toISOString(), sha256, documentId: documentIdOf(sha256),
      ...(draftOptions.title ? { title: draftOptions.title } : {}),
      ...(options.combination ? { combination: options.combination } : {}),
      ...(draftOptions.dateline ? { dateline: true } : {}),
    };
    // a longer document is read chunk by chunk (one symbolic-layer call each) and structured here
    const made = symbolic.draft && input.text.length <= SYMBOLIC_CHUNK_CHARS ? await symbolic.draft(task) : await draftDocument(task, (chunk) => symbolic.find(chunk));
    return { ...made, ms: performance.now() - started };
  };

  const draftFile = symbolic.draftFile && !ner ? symbolic.draftFile.bind(symbolic) : undefined;

  return {
    extractor,
    draft,
    ...(draftFile && {
      draftFile: async (dir: string, source: string, { tier, known, names }: { tier: WorkspaceTier; known: KnownDocuments; names?: KnownNamesRef }) => {
        const started = performance.now();
        const file = await draftFile({ dir, source, known, ...(names ? { names } : {}), tier, extractor: provenanceExtractor, ingestedAt: new Date().toISOString(), ...(options.combination ? { combination: options.combination } : {}) });
        // timed here, as draft() times its call (the queue and the hand-over counted), not in the worker
        return file.kind === 'read' && file.draft ? { ...file, draft: { ...file.draft, ms: performance.now() - started } } : file;
      },
    }),
    resolve(made, input, resolveOptions) {
      const started = performance.now();
      const { sha256 } = checkText(input.text, resolveOptions.checked);
      if (!draftFits(made, sha256, input, resolveOptions)) return undefined;
      const graph = resolveDraft(made, input.text, resolveOptions.graph);
      if (!graph) return undefined;
      return {
        document: documentOf(documentIdOf(sha256), sha256, input, made.made.title),
        graph,
        stats: { characters: input.text.length, ...made.stats, nodes: graph.nodes.length, edges: graph.edges.length, ms: Math.round(performance.now() - started + made.ms) },
        extractor,
      };
    },
    async extract(input, extractOptions) {
      const started = performance.now();
      const { sha256 } = checkText(input.text, extractOptions.checked);
      const documentId = documentIdOf(sha256);
      const { findings, neural } = await read(input);
      const { graph: known } = extractOptions;
      const answers = known && ('isMemberOf' in known ? known : graphAnswers(known));
      const graph = structureDocument({
        document: input, documentId, sha256, findings, neural, ...(options.combination ? { combination: options.combination } : {}), tier: extractOptions.tier, extractor: provenanceExtractor,
        ingestedAt: extractOptions.ingestedAt ?? new Date().toISOString(),
        ...(extractOptions.title ? { title: extractOptions.title } : {}),
        ...(answers ? { directory: answers.directory, isMemberOf: answers.isMemberOf } : {}),
      });
      return {
        document: documentOf(documentId, sha256, input, extractOptions.title),
        graph,
        stats: {
          characters: input.text.length,
          ...readingStats(input.text, findings, neural),
          nodes: graph.nodes.length,
          edges: graph.edges.length,
          ms: Math.round(performance.now() - started),
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
  /** A text-classification or zero-shot model that re-types claims the symbolic layer found. */
  claimModelDir?: string;
  /** Symbolic-layer worker threads (default one per core); 0 runs the symbolic layer on the calling thread. */
  symbolicWorkers?: number;
  /** Symbolic-layer calls admitted at once (default DEFAULT_SYMBOLIC_MAX_QUEUE); more are refused with 503. */
  symbolicMaxQueue?: number;
}): Promise<{ pipeline: ExtractionPipeline; status: string }> {
  const { claimModelDir, symbolicWorkers, symbolicMaxQueue, ...nerOptions } = options;
  const { backend, status } = await openNerBackend(nerOptions);
  const { typer, status: claimStatus } = await openClaimTyper(claimModelDir ? { modelDir: claimModelDir } : {});
  // A configured model that failed to load is worth naming in every result; no model at all gets the standard note.
  const modelStatus = !backend && options.modelDir ? { modelStatus: status } : {};
  const pool = symbolicWorkers === 0 ? undefined : new PooledSymbolicLayer({
    ...(symbolicWorkers === undefined ? {} : { workers: symbolicWorkers }),
    ...(symbolicMaxQueue === undefined ? {} : { maxQueue: symbolicMaxQueue }),
  });
  const symbolic: SymbolicLayer = pool ?? DEFAULT_SYMBOLIC_LAYER;
  const pipeline = createExtractionPipeline({ ner: backend, ...modelStatus, symbolic: typer ? withClaimTyping(symbolic, typer) : symbolic });
  const close = async () => {
    await pipeline.close();
    await typer?.close();
    await pool?.close();
  };
  return { pipeline: { ...pipeline, close }, status: `${status}; ${claimStatus}` };
}

function documentOf(id: string, sha256: string, input: DocumentInput, title: string | undefined): ExtractedDocument {
  return {
    id, source: input.source, sha256, length: input.text.length,
    ...(title ? { title } : {}),
    ...(input.document_date ? { published_at: input.document_date } : {}),
  };
}

/** Whether `draft` was made from this document with these settings (a draft made with another ingestion time is not). */
function draftFits(draft: DocumentDraft, sha256: string, input: DocumentInput, options: ResolveOptions): boolean {
  const { made } = draft;
  return made.sha256 === sha256 && made.source === input.source && made.document_date === input.document_date && made.title === options.title &&
    made.tier === options.tier && (options.ingestedAt === undefined || options.ingestedAt === made.ingestedAt);
}
