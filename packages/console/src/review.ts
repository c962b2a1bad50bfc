// The review queue: the claims and events the weighed evidence leaves disputed or rejected,
// and the records extraction was least sure of, each a click from the inspector.
import type { Dispute } from '@parley/client';
import { api } from './api.ts';
import { byId, clear, el } from './dom.ts';
import { shownOf, type QueryAnswer } from './model.ts';

/** Below this confidence a record is queued for review. */
export const LOW_CONFIDENCE = 0.6;
const REVIEW_SCAN = 'MATCH (a)-[r]->(b) RETURN a, r, b LIMIT 2000';

export async function renderReview(graphId: string, asOf: string | undefined, open: (selection: { node: string } | { edge: string }) => void): Promise<void> {
  const view = byId('view-review');
  clear(view, el('p', { class: 'muted' }, 'Loading…'));
  const [disputes, scanned] = await Promise.all([
    api<{ disputes: Dispute[] }>('GET', `/v1/graphs/${encodeURIComponent(graphId)}/disputes?page_size=200${asOf ? `&as_of=${encodeURIComponent(asOf)}` : ''}`),
    api<QueryAnswer>('POST', '/v1/graph/query', { graph_id: graphId, query: REVIEW_SCAN, ...(asOf ? { as_of: asOf } : {}) }),
  ]);
  const shown = shownOf(scanned);
  const unsure = [
    ...shown.edges.filter((edge) => edge.confidence < LOW_CONFIDENCE).map((edge) => ({ selection: { edge: edge.id }, what: `${edge.type} ${edge.from} → ${edge.to}`, confidence: edge.confidence })),
    ...shown.nodes.filter((node) => node.confidence < LOW_CONFIDENCE).map((node) => ({ selection: { node: node.id }, what: `${node.kind} ${node.label}`, confidence: node.confidence })),
  ].sort((a, b) => a.confidence - b.confidence);
  const link = (label: string, selection: { node: string } | { edge: string }) => {
    const button = el('button', { type: 'button', class: 'link' }, label);
    button.addEventListener('click', () => open(selection));
    return button;
  };
  clear(
    view,
    el('h2', {}, 'Review queue'),
    el('h3', {}, `Disputed and rejected accounts (${disputes.disputes.length})`),
    disputes.disputes.length === 0 ? el('p', { class: 'muted' }, 'None.') : el('ul', {}, ...disputes.disputes.map((dispute) => el('li', {}, el('strong', {}, `${dispute.status} `), link(`${dispute.kind} ${dispute.id}`, { node: dispute.id }), el('p', {}, dispute.summary)))),
    el('h3', {}, `Least sure extractions (confidence below ${LOW_CONFIDENCE}, ${unsure.length})`),
    el('p', { class: 'muted' }, `Among the first 2,000 relationships; the least sure first.`),
    unsure.length === 0 ? el('p', { class: 'muted' }, 'None.') : el('ul', {}, ...unsure.slice(0, 200).map((item) => el('li', {}, link(item.what, item.selection), ` (${item.confidence.toFixed(2)})`))),
  );
}
