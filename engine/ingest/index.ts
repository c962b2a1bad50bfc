/** Stage 1, ingest: document references → text → extraction committed to a graph. */
export { MAX_SOURCE_BYTES, SOURCE_FORMATS, SUPPORTED_EXTENSIONS, decodeText, htmlToText, readSource, resolveSource, type ResolvedSource, type SourceDocument, type SourceFormat } from '../extract/source.ts';
export { draftAhead, extractForGraph, type AddedCounts, type CommitContext, type CommittedExtraction, type DocumentToExtract } from './commit.ts';
export { ingest, tierForGraph, type IngestContext, type IngestedDocument } from './ingest.ts';
export { datelineDate } from '../extract/dateline.ts';
