import type { DocumentDraft, DraftTask, FileDraft, FileDraftTask } from '../draft.ts';
import type { DocumentInput, Findings } from '../types.ts';

/**
 * The symbolic conflict layer as the pipeline sees it: on the calling thread, in a worker
 * pool, or wrapped (claim typing re-types what it finds). Also the seam for evaluation and
 * tests. It sits above the drafts it can make, so it is not among the shared types below them.
 */
export interface SymbolicLayer {
  /** Extractor name and version, e.g. 'parley-rules/1.0.0'. */
  readonly version: string;
  find(document: DocumentInput): Findings | Promise<Findings>;
  /** Reads and structures one document (at most SYMBOLIC_CHUNK_CHARS long) where the layer runs: a layer in worker threads offers it. */
  draft?(task: DraftTask & { sha256: string; documentId: string }): Promise<DocumentDraft>;
  /** Reads a batch's file and drafts it where the layer runs (engine/extract/read-file.ts): a layer in worker threads offers it. */
  draftFile?(task: FileDraftTask): Promise<FileDraft>;
}
