/**
 * The records extraction was least sure of, for a review queue (the console's): the nodes and
 * edges a view shows whose confidence is below a bound, the newest recorded first, a page at a
 * time. One pass over the graph's records per page (nodes by kind, edges by type).
 */
import { ValidationError } from '../errors.ts';
import { pageOf, pageRequest, type Page } from './backend.ts';
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

/** The key records sort by, newest first: ties by node before edge, then id. */
const keyOf = (item: UnsureRecord) => `${item.recorded_at}|${item.record}|${item.id}`;

/**
 * The view's nodes and edges with a confidence below `below`: the latest `recorded_at` first,
 * ties by node before edge, then id; a page token carries the last one's key.
 */
export function lowConfidenceRecords(view: GraphView, below: number, options: { pageSize?: number; pageToken?: string } = {}): Page<UnsureRecord> {
  const { size, after } = pageRequest(options.pageSize, options.pageToken);
  const cursor = after === undefined ? undefined : cursorOf(after);
  const { graph } = view;
  const found: UnsureRecord[] = [];
  for (const label of graph.labels()) {
    for (const id of graph.nodesWithLabel(label)) {
      const node = graph.node(id);
      if (!node || node.labels[0] !== label || node.confidence >= below || !inView(node, view)) continue;
      const { label: name, text } = node.properties;
      found.push({ record: 'node', id, kind: label, what: typeof name === 'string' && name !== '' ? name : typeof text === 'string' && text !== '' ? text : id, confidence: node.confidence, recorded_at: node.recorded_at });
    }
  }
  for (const type of graph.edgeTypes()) {
    for (const id of graph.edgesWithType(type)) {
      const edge = graph.edge(id);
      if (!edge || edge.confidence >= below || !inView(edge, view)) continue;
      found.push({ record: 'edge', id, kind: type, what: `${graph.labelOf(edge.from)} → ${graph.labelOf(edge.to)}`, from: edge.from, to: edge.to, confidence: edge.confidence, recorded_at: edge.recorded_at });
    }
  }
  const newestFirst = (a: UnsureRecord, b: UnsureRecord) => (a.recorded_at !== b.recorded_at ? (a.recorded_at > b.recorded_at ? -1 : 1) : a.record !== b.record ? (a.record === 'node' ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  found.sort(newestFirst);
  const start = cursor === undefined ? 0 : found.findIndex((item) => newestFirst(item, cursor) > 0);
  return pageOf(start < 0 ? [] : found.slice(start, start + size + 1), size, keyOf);
}

function cursorOf(after: string): UnsureRecord {
  const [recorded_at, record, ...rest] = after.split('|');
  if ((record !== 'node' && record !== 'edge') || rest.length === 0) throw new ValidationError('invalid_page_token', 'page_token is not one this server issued', { field: 'page_token' });
  return { record, id: rest.join('|'), kind: '', what: '', confidence: 0, recorded_at };
}
