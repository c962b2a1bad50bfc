import type { WorkspaceTier } from '../ontology/index.ts';
import { SerialQueue } from '../store/serial-queue.ts';
import type { ParleyStore, WriteSummary } from '../store/store.ts';
import { checkDocumentText, documentIdOf, sha256Of, type DocumentReading, type ExtractionPipeline, type ExtractionResult } from '../extract/pipeline.ts';
import type { DocumentInput } from '../extract/types.ts';
import { resolveAgainstGraph } from '../extract/graph-resolution.ts';
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
  /** The document read ahead (readAhead); extraction reads it again when absent. */
  reading?: DocumentReading;
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
  options: { tier: WorkspaceTier; commit: boolean },
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
 * The graph-independent part of extracting `document`, run ahead of its commit (in the
 * pipeline's worker pools) so that a batch keeps every worker busy while commits to
 * one graph run one at a time.
 */
export function readAhead(context: CommitContext, document: DocumentToExtract): Promise<DocumentReading> {
  checkDocumentText(document.text);
  return context.pipeline.read(extractionInput(document));
}

async function extractAgainstGraph(
  context: CommitContext,
  tenant: string,
  graphId: string,
  document: DocumentToExtract,
  options: { tier: WorkspaceTier; commit: boolean },
): Promise<CommittedExtraction> {
  const index = (await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined;
  const stored = index?.node(documentIdOf(sha256Of(document.text)));
  const storedSource = stored?.properties.source;
  const storedIngestedAt = stored?.properties.ingested_at;
  const extracted = await context.pipeline.extract(
    extractionInput(document, typeof storedSource === 'string' ? storedSource : document.source),
    {
      tier: options.tier,
      ...(document.reading ? { reading: document.reading } : {}),
      ...(index ? { graph: index } : {}),
      ...(typeof storedIngestedAt === 'string' ? { ingestedAt: storedIngestedAt } : {}),
      ...(document.title ? { title: document.title } : {}),
    },
  );
  // Extracted actors that are actors the graph holds (imported ones too) become those nodes.
  const graph = index ? resolveAgainstGraph(extracted.graph, index) : extracted.graph;
  const extraction = graph === extracted.graph ? extracted : { ...extracted, graph, stats: { ...extracted.stats, nodes: graph.nodes.length, edges: graph.edges.length } };
  if (!options.commit) return { extraction, already_ingested: stored !== undefined, added: null };
  const { node_ids: _nodeIds, edge_ids: _edgeIds, ...added } = await context.store.writeGraph(tenant, graphId, extraction.graph);
  return { extraction, already_ingested: stored !== undefined, added };
}
