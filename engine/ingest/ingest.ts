import { WORKSPACE_TIERS, type WorkspaceTier } from '../ontology/index.ts';
import type { GraphCounts } from '../store/graph-index.ts';
import type { ParleyStore } from '../store/store.ts';
import { checkText } from '../extract/pipeline.ts';
import { extractForGraph, type AddedCounts, type CommitContext, type CommittedExtraction, type DocumentToExtract } from './commit.ts';
import { readSource, type SourceFormat } from '../extract/source.ts';

export interface IngestContext extends CommitContext {
  corporaDir: string;
}

export interface IngestedDocument extends CommittedExtraction {
  format: SourceFormat | 'inline';
  added: AddedCounts;
  /** The graph's node and edge counts after the commit. */
  summary: GraphCounts;
}

/**
 * The tier extraction fills for a graph: the richest tier among the tenant's
 * workspaces that write into it; a graph no workspace names gets the full ontology.
 */
export async function tierForGraph(store: ParleyStore, tenant: string, graphId: string): Promise<WorkspaceTier> {
  const tiers = (await store.workspacesOfGraph(tenant, graphId)).map((workspace) => workspace.tier);
  if (tiers.length === 0) return 'full';
  return tiers.reduce((best, tier) => (WORKSPACE_TIERS.indexOf(tier) > WORKSPACE_TIERS.indexOf(best) ? tier : best));
}

/**
 * A file under the corpora root, or text given inline under any source name,
 * extracted at the graph's tier and merged into the graph.
 */
export async function ingest(context: IngestContext, tenant: string, graphId: string, request: { source: string; text?: string }): Promise<IngestedDocument> {
  let document: DocumentToExtract;
  let format: SourceFormat | 'inline';
  if (request.text !== undefined) {
    document = { text: request.text, source: request.source };
    format = 'inline';
  } else {
    const read = await readSource(context.corporaDir, request.source);
    document = { text: read.text, source: read.source, ...(read.title ? { title: read.title } : {}) };
    format = read.format;
  }
  const checked = checkText(document.text);
  const tier = await tierForGraph(context.store, tenant, graphId);
  const committed = await extractForGraph(context, tenant, graphId, { ...document, checked }, { tier, commit: true });
  return { ...committed, format, added: committed.added!, summary: (await context.store.loadGraph(tenant, graphId)).counts() };
}
