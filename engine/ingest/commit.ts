import type { WorkspaceTier } from '../ontology/index.ts';
import { SerialQueue } from '../store/serial-queue.ts';
import type { ParleyStore, WriteSummary } from '../store/store.ts';
import { checkDocumentText, documentIdOf, graphAnswers, sha256Of, type DocumentDraft, type ExtractionPipeline, type ExtractionResult, type GraphAnswers } from '../extract/pipeline.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import type { DocumentInput } from '../extract/types.ts';
import { datelineDate } from './dateline.ts';

/**
 * Extraction committed to a graph. Re-extracting a document the graph already holds
 * reuses that document's source name and ingestion time, so the extraction comes out
 * identical and the store's merge writes nothing; a new document about the same
 * actors lands on the same nodes (ids from canonical labels, names resolved against
 * the graph's existing actors, known values kept by the store's merge).
 */

export interface CommitContext {
  store: ParleyStore;
  pipeline: ExtractionPipeline;
}

export interface DocumentToExtract {
  text: string;
  source: string;
  title?: string;
  document_date?: string;
  /** The document drafted ahead (draftAhead); extraction reads it again when absent or when the graph changes it. */
  draft?: DocumentDraft;
}

export interface CommitOptions {
  tier: WorkspaceTier;
  commit: boolean;
  /** What the graph answers structuring with, for a caller that keeps them across commits (graphAnswers of the graph otherwise). */
  answers?: (index: GraphIndex) => GraphAnswers;
}

export type AddedCounts = Omit<WriteSummary, 'node_ids' | 'edge_ids'>;

export interface CommittedExtraction {
  extraction: ExtractionResult;
  /** True when the graph held this document (same text) before. */
  already_ingested: boolean;
  /** What the commit changed; null when nothing was committed. */
  added: AddedCounts | null;
}

/** Commits in progress per tenant and graph: each waits for the one before it. */
const graphCommits = new SerialQueue();

/**
 * Runs `task` after every earlier task for the same graph. A commit reads the graph
 * (is this document known? which actors exist?) before it writes; two at once could
 * both see the document as new and record it twice under different ingestion times.
 */
function oneAtATime<T>(tenant: string, graphId: string, task: () => Promise<T>): Promise<T> {
  return graphCommits.run(`${tenant}\u0000${graphId}`, task);
}

/**
 * Extracts one document for a graph and, when `commit`, merges it in (one atomic
 * batch: nothing is written when anything fails). Commits to one graph run one at a time.
 */
export async function extractForGraph(
  context: CommitContext,
  tenant: string,
  graphId: string,
  document: DocumentToExtract,
  options: CommitOptions,
): Promise<CommittedExtraction> {
  checkDocumentText(document.text);
  if (!options.commit) return extractAgainstGraph(context, tenant, graphId, document, options);
  return oneAtATime(tenant, graphId, () => extractAgainstGraph(context, tenant, graphId, document, options));
}

/** What extraction reads of a document: its text, name and date (given, else from its dateline). */
function extractionInput(document: DocumentToExtract, source = document.source): DocumentInput {
  const documentDate = document.document_date ?? datelineDate(document.text);
  return { text: document.text, source, ...(documentDate ? { document_date: documentDate } : {}) };
}

/**
 * The graph-independent part of extracting `document` (reading and structuring it),
 * run ahead of its commit in the pipeline's worker pools, so that a batch keeps every
 * worker busy while commits to one graph run one at a time.
 */
export function draftAhead(context: CommitContext, document: DocumentToExtract, tier: WorkspaceTier): Promise<DocumentDraft> {
  checkDocumentText(document.text);
  return context.pipeline.draft(extractionInput(document), { tier, ...(document.title ? { title: document.title } : {}) });
}

async function extractAgainstGraph(
  context: CommitContext,
  tenant: string,
  graphId: string,
  document: DocumentToExtract,
  options: CommitOptions,
): Promise<CommittedExtraction> {
  const index = (await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined;
  const stored = index?.node(documentIdOf(sha256Of(document.text)));
  const storedSource = stored?.properties.source;
  const storedIngestedAt = stored?.properties.ingested_at;
  const input = extractionInput(document, typeof storedSource === 'string' ? storedSource : document.source);
  const settings = {
    tier: options.tier,
    ...(typeof storedIngestedAt === 'string' ? { ingestedAt: storedIngestedAt } : {}),
    ...(document.title ? { title: document.title } : {}),
  };
  // a draft needs only the graph-dependent step; one the graph changes is read and structured again here
  const drafted = document.draft && context.pipeline.resolve(document.draft, input, { ...settings, ...(index ? { graph: (options.answers ?? graphAnswers)(index) } : {}) });
  const extraction = drafted || (await context.pipeline.extract(input, { ...settings, ...(index ? { graph: index } : {}) }));
  if (!options.commit) return { extraction, already_ingested: stored !== undefined, added: null };
  const { node_ids: _nodeIds, edge_ids: _edgeIds, ...added } = await context.store.writeGraph(tenant, graphId, extraction.graph);
  return { extraction, already_ingested: stored !== undefined, added };
}
