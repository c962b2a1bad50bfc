/** Extraction: the pipeline (neural + symbolic → structure) and its stages' public types. */
export {
  DEFAULT_SYMBOLIC_LAYER,
  MAX_DOCUMENT_CHARS,
  NO_MODEL_NOTE,
  SYMBOLIC_CHUNK_CHARS,
  chunkBounds,
  checkText,
  createExtractionPipeline,
  openExtractionPipeline,
  documentIdOf,
  sha256Of,
  type CheckedText,
  type ExtractOptions,
  type DocumentDraft,
  type ExtractedDocument,
  type ExtractionPipeline,
  type ExtractionResult,
  type ExtractorInfo,
  type PipelineOptions,
} from './pipeline.ts';
export { structureDocument, type StructuredDocument, type StructuredEdge, type StructuredNode } from './structure/index.ts';
export type { SymbolicLayer } from './symbolic/layer.ts';
export type * from './types.ts';
