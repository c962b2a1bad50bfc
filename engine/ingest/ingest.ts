import { WORKSPACE_TIERS, type WorkspaceTier } from '../ontology/index.ts';
import type { GraphCounts, GraphIndex } from '../store/graph-index.ts';
import { SerialQueue } from '../store/serial-queue.ts';
import type { ParleyStore, WriteSummary } from '../store/store.ts';
import { checkDocumentText, documentIdOf, sha256Of, type ExtractionPipeline, type ExtractionResult } from '../extract/pipeline.ts';
import type { StructuredDocument } from '../extract/structure/index.ts';
import { datelineDate } from './dateline.ts';
import { readSource, type SourceFormat } from './source.ts';

/**
 * Extraction committed to a graph. Re-ingesting a document the graph already holds
 * reuses that document's source name and ingestion time, so the extraction comes out
 * identical and the store's merge writes nothing; a new document about the same
 * actors lands on the same nodes (ids from canonical labels, names resolved against
 * the graph's existing actors).
 */

export interface IngestContext {
  store: ParleyStore;
  pipeline: ExtractionPipeline;
  corporaDir: string;
}

export interface IngestDocument {
  text: string;
  source: string;
  title?: string;
  document_date?: string;
}

export type AddedCounts = Omit<WriteSummary, 'node_ids' | 'edge_ids'>;


export interface CommittedExtraction {
  extraction: ExtractionResult;
  /** True when the graph held this document (same text) before. */
  already_ingested: boolean;
  added: AddedCounts | null;
}

export interface IngestResult {
  graph_id: string;
  document: ExtractionResult['document'] & { format: SourceFormat | 'inline'; already_ingested: boolean };
  added: AddedCounts;
  summary: GraphCounts;
  found: { actors: number; claims: number; events: number; locations: number; issues: number; edges: number };
  extractor: ExtractionResult['extractor'];
  stats: ExtractionResult['stats'];
}

/** Pages of workspaces read to find the tier of a graph (bounds the lookup for tenants with many workspaces). */
const MAX_WORKSPACE_PAGES = 20;

/** Values that say "not known": one document's ignorance never overwrites another's knowledge. */
const UNKNOWN_VALUES: Record<string, string> = { role: 'unknown', actor_type: 'unknown', location_type: 'other' };

/**
 * The store merges incoming properties over stored ones; keep a stored role, actor
 * type or location type where this document only says "unknown".
 */
export function keepKnownValues(write: StructuredDocument, index: GraphIndex | undefined): StructuredDocument {
  if (!index) return write;
  const nodes = write.nodes.map((node) => {
    const stored = index.node(node.id);
    if (!stored) return node;
    let properties = node.properties;
    for (const [key, unknown] of Object.entries(UNKNOWN_VALUES)) {
      const storedValue = stored.properties[key];
      if (properties[key] === unknown && typeof storedValue === 'string' && storedValue !== unknown) {
        properties = { ...properties, [key]: storedValue };
      }
    }
    return properties === node.properties ? node : { ...node, properties };
  });
  return { nodes, edges: write.edges };
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
  context: Pick<IngestContext, 'store' | 'pipeline'>,
  tenant: string,
  graphId: string,
  document: IngestDocument,
  options: { tier: WorkspaceTier; commit: boolean },
): Promise<CommittedExtraction> {
  checkDocumentText(document.text);
  if (!options.commit) return extractAgainstGraph(context, tenant, graphId, document, options);
  return oneAtATime(tenant, graphId, () => extractAgainstGraph(context, tenant, graphId, document, options));
}

async function extractAgainstGraph(
  context: Pick<IngestContext, 'store' | 'pipeline'>,
  tenant: string,
  graphId: string,
  document: IngestDocument,
  options: { tier: WorkspaceTier; commit: boolean },
): Promise<CommittedExtraction> {
  const index = (await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined;
  const stored = index?.node(documentIdOf(sha256Of(document.text)));
  const storedSource = stored?.properties.source;
  const storedIngestedAt = stored?.properties.ingested_at;
  const documentDate = document.document_date ?? datelineDate(document.text);
  const extraction = await context.pipeline.extract(
    {
      text: document.text,
      source: typeof storedSource === 'string' ? storedSource : document.source,
      ...(documentDate ? { document_date: documentDate } : {}),
    },
    {
      tier: options.tier,
      ...(index ? { graph: index } : {}),
      ...(typeof storedIngestedAt === 'string' ? { ingestedAt: storedIngestedAt } : {}),
      ...(document.title ? { title: document.title } : {}),
    },
  );
  if (!options.commit) return { extraction, already_ingested: stored !== undefined, added: null };
  const { node_ids: _nodeIds, edge_ids: _edgeIds, ...added } = await context.store.writeGraph(tenant, graphId, keepKnownValues(extraction.graph, index));
  return { extraction, already_ingested: stored !== undefined, added };
}

/**
 * The tier extraction fills for a graph: the richest tier among the tenant's
 * workspaces that write into it; a graph no workspace names gets the full ontology.
 */
export async function tierForGraph(store: ParleyStore, tenant: string, graphId: string): Promise<WorkspaceTier> {
  let best: WorkspaceTier | undefined;
  let token: string | undefined;
  for (let page = 0; page < MAX_WORKSPACE_PAGES; page++) {
    const { items, next_page_token } = await store.listWorkspaces(tenant, undefined, token);
    for (const workspace of items) {
      if (workspace.graph_id !== graphId) continue;
      if (best === undefined || WORKSPACE_TIERS.indexOf(workspace.tier) > WORKSPACE_TIERS.indexOf(best)) best = workspace.tier;
    }
    if (!next_page_token) break;
    token = next_page_token;
  }
  return best ?? 'full';
}

/**
 * `POST /v1/graphs/{graph_id}/ingest`: a file under the corpora root, or text given
 * inline under any source name, extracted and merged into the graph.
 */
export async function ingest(context: IngestContext, tenant: string, graphId: string, request: { source: string; text?: string }): Promise<IngestResult> {
  let document: IngestDocument;
  let format: SourceFormat | 'inline';
  if (request.text !== undefined) {
    document = { text: request.text, source: request.source };
    format = 'inline';
  } else {
    const read = await readSource(context.corporaDir, request.source);
    document = { text: read.text, source: read.source, ...(read.title ? { title: read.title } : {}) };
    format = read.format;
  }
  checkDocumentText(document.text);
  const tier = await tierForGraph(context.store, tenant, graphId);
  const { extraction, already_ingested, added } = await extractForGraph(context, tenant, graphId, document, { tier, commit: true });
  return {
    graph_id: graphId,
    document: { ...extraction.document, format, already_ingested },
    added: added!,
    summary: (await context.store.loadGraph(tenant, graphId)).counts(),
    found: {
      actors: extraction.actors.length, claims: extraction.claims.length, events: extraction.events.length,
      locations: extraction.locations.length, issues: extraction.issues.length, edges: extraction.edges.length,
    },
    extractor: extraction.extractor,
    stats: extraction.stats,
  };
}
