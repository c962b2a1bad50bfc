/** Stage 1, ingest: document references → text → extraction committed to a graph. */
export { MAX_SOURCE_BYTES, SUPPORTED_EXTENSIONS, decodeText, htmlToText, readSource, resolveSource, type ResolvedSource, type SourceDocument, type SourceFormat } from './source.ts';
export {
  extractForGraph,
  ingest,
  keepKnownValues,
  tierForGraph,
  type AddedCounts,
  type CommittedExtraction,
  type IngestContext,
  type IngestDocument,
  type IngestResult,
} from './ingest.ts';
export { datelineDate } from './dateline.ts';
