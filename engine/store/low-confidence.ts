/**
 * The records extraction was least sure of, for a review queue (the console's): the nodes and
 * edges a view shows whose confidence is below a bound, the newest recorded first, a page at a
 * time. One pass over the graph's records per page.
 */
import { newestFirstPage, pageRequest, type Page } from './backend.ts';
import { inView, type GraphView } from './view.ts';

/** Below this confidence a record is queued for review unless the request says otherwise. */
export const DEFAULT_REVIEW_BELOW = 0.6;

export interface UnsureRecord {
  record: 'node' | 'edge';
  id: string;
  /** A node's kind (labels[0]), an edge's type. */
  kind: string;
  /** A node's label, else its text, else its id; an edge's ends by label, `from → to`. */
  what: string;
  /** An edge's ends, by id. */
  from?: string;
  to?: string;
  confidence: number;
  /** When the graph first learned it (ISO 8601). */
  recorded_at: string;
}

/**
 * The view's nodes and edges with a confidence below `below` (at most 1, as the route checks): the latest `recorded_at` first,
 * ties by node before edge, then id (backend.ts newestFirstPage).
 */
export function lowConfidenceRecords(view: GraphView, below: number, options: { pageSize?: number; pageToken?: string } = {}): Page<UnsureRecord> {
  const { size, after } = pageRequest(options.pageSize, options.pageToken);
  const { graph } = view;
  const found: UnsureRecord[] = [];
  for (const node of graph.nodes.values()) {
    const kind = node.labels[0];
    if (kind === undefined || node.confidence >= below || !inView(node, view)) continue;
    const { label: name, text } = node.properties;
    found.push({ record: 'node', id: node.id, kind, what: typeof name === 'string' && name !== '' ? name : typeof text === 'string' && text !== '' ? text : node.id, confidence: node.confidence, recorded_at: node.recorded_at });
  }
  // an edge the table packs has full confidence, never below a bound of at most 1: only those kept whole are read
  for (const edge of graph.edges.whole()) {
    if (edge.confidence >= below || !inView(edge, view)) continue;
    found.push({ record: 'edge', id: edge.id, kind: edge.type, what: `${graph.labelOf(edge.from)} → ${graph.labelOf(edge.to)}`, from: edge.from, to: edge.to, confidence: edge.confidence, recorded_at: edge.recorded_at });
  }
  return newestFirstPage(found, (item) => item.recorded_at, (item) => `${item.record === 'node' ? 0 : 1}|${item.id}`, size, after);
}
