import type { Static } from '@sinclair/typebox';
import type { ExtractionResult } from '../../engine/extract/pipeline.ts';
import type { StructuredEdge, StructuredNode } from '../../engine/extract/structure/index.ts';
import type { CommittedExtraction } from '../../engine/ingest/commit.ts';
import type { IngestedDocument } from '../../engine/ingest/ingest.ts';
import { summariseProvenance } from '../../engine/ontology/index.ts';
import type { Workspace } from '../../engine/store/store.ts';
import type { ExtractedEdgeSchema, ExtractedNodeSchema, ExtractionSchema, IngestionSchema } from '../schemas.ts';

/**
 * The HTTP shape of an extraction (api.md "Extraction"): the nodes found, listed by
 * kind with their properties flattened beside id, confidence and provenance, and the
 * edges between them; and of an ingestion, which reports how many of each it found.
 */

type ExtractedNode = Static<typeof ExtractedNodeSchema>;
type ExtractedEdge = Static<typeof ExtractedEdgeSchema>;

/** The node kinds a response lists, under these keys. */
const LISTED_KINDS = { actors: 'Actor', claims: 'Claim', events: 'Event', locations: 'Location', issues: 'Issue' } as const;
type ListedKey = keyof typeof LISTED_KINDS;

function nodeView(node: StructuredNode): ExtractedNode {
  return { id: node.id, ...node.properties, confidence: node.confidence, provenance: summariseProvenance(node.provenance) };
}

function edgeView(edge: StructuredEdge): ExtractedEdge {
  return { id: edge.id, type: edge.type, from: edge.from, to: edge.to, ...edge.properties, confidence: edge.confidence, provenance: summariseProvenance(edge.provenance) };
}

function nodesOfKind(result: ExtractionResult, key: ListedKey): StructuredNode[] {
  return result.graph.nodes.filter((node) => node.labels[0] === LISTED_KINDS[key]);
}

/** MENTIONED_IN edges are bookkeeping (every node has one): committed, never listed. */
function listedEdges(result: ExtractionResult): StructuredEdge[] {
  return result.graph.edges.filter((edge) => edge.type !== 'MENTIONED_IN');
}

/** `POST /v1/workspaces/{id}/extract`. */
export function extractionBody(workspace: Workspace, { extraction, added, graph_created }: CommittedExtraction): Static<typeof ExtractionSchema> {
  return {
    workspace_id: workspace.id,
    graph_id: workspace.graph_id,
    tier: workspace.tier,
    document: extraction.document,
    actors: nodesOfKind(extraction, 'actors').map(nodeView),
    claims: nodesOfKind(extraction, 'claims').map(nodeView),
    events: nodesOfKind(extraction, 'events').map(nodeView),
    locations: nodesOfKind(extraction, 'locations').map(nodeView),
    issues: nodesOfKind(extraction, 'issues').map(nodeView),
    edges: listedEdges(extraction).map(edgeView),
    committed: added !== null,
    added,
    graph_created,
    stats: extraction.stats,
    extractor: extraction.extractor,
  };
}

/** `POST /v1/graphs/{graph_id}/ingest`. */
export function ingestionBody(graphId: string, ingested: IngestedDocument): Static<typeof IngestionSchema> {
  const { extraction } = ingested;
  const count = (key: ListedKey) => nodesOfKind(extraction, key).length;
  return {
    graph_id: graphId,
    document: { ...extraction.document, format: ingested.format, already_ingested: ingested.already_ingested },
    added: ingested.added,
    graph_created: ingested.graph_created,
    summary: ingested.summary,
    found: {
      actors: count('actors'), claims: count('claims'), events: count('events'),
      locations: count('locations'), issues: count('issues'), edges: listedEdges(extraction).length,
    },
    extractor: extraction.extractor,
    stats: extraction.stats,
  };
}
