// The review queue: the claims and events the weighed evidence leaves disputed or rejected,
// and the records extraction was least sure of, each newest recorded first and a click from
// the inspector.
import type { Dispute, LowConfidenceList } from '@parley/client';
import { api } from './api.ts';
import { byId, clear, el } from './dom.ts';
import type { PlaceFilter } from './place-filter.ts';

/** Below this confidence a record is queued for review (the server's default too). */
export const LOW_CONFIDENCE = 0.6;
/** Records of each list read: one page of the API's largest. */
const QUEUED = 200;

/** When a record was recorded, as the list shows it: the date and the minute, in UTC. */
const recordedOn = (instant: string) => `${instant.slice(0, 10)} ${instant.slice(11, 16)}`;

export async function renderReview(graphId: string, asOf: string | undefined, place: PlaceFilter | null, open: (selection: { node: string } | { edge: string }) => void): Promise<void> {
  const view = byId('view-review');
  clear(view, el('p', { class: 'muted' }, 'Loading…'));
  const graph = encodeURIComponent(graphId);
  const at = asOf ? `&as_of=${encodeURIComponent(asOf)}` : '';
  const [read, unsure] = await Promise.all([
    api<{ disputes: Dispute[]; next_page_token?: string }>('GET', `/v1/graphs/${graph}/disputes?order=newest&page_size=${QUEUED}${at}`),
    api<LowConfidenceList>('GET', `/v1/graphs/${graph}/low-confidence?below=${LOW_CONFIDENCE}&page_size=${QUEUED}${at}`),
  ]);
  // a place chosen on the map: its disputes, and the unsure records tied to it (an edge by both ends)
  const disputes = place ? { ...read, disputes: read.disputes.filter((dispute) => place.ids.has(dispute.id)) } : read;
  const records = place ? unsure.records.filter((item) => (item.record === 'node' ? place.ids.has(item.id) : place.ids.has(item.from ?? '') && place.ids.has(item.to ?? ''))) : unsure.records;
  const link = (label: string, selection: { node: string } | { edge: string }) => {
    const button = el('button', { type: 'button', class: 'link' }, label);
    button.addEventListener('click', () => open(selection));
    return button;
  };
  const more = (next: string | undefined) => (next ? [el('p', { class: 'muted' }, `The ${QUEUED} newest are listed; there are more.`)] : []);
  clear(
    view,
    el('h2', {}, 'Review queue'),
    el('p', { class: 'muted' }, `Newest recorded first${place ? `; only what is tied to ${place.name} (${place.country})` : ''}.`),
    el('h3', {}, `Disputed and rejected accounts (${disputes.disputes.length}${disputes.next_page_token ? '+' : ''})`),
    disputes.disputes.length === 0
      ? el('p', { class: 'muted' }, 'None.')
      : el('ul', { class: 'review-disputes' }, ...disputes.disputes.map((dispute) => el('li', {}, el('time', { datetime: dispute.recorded_at }, recordedOn(dispute.recorded_at)), ' ', el('strong', {}, `${dispute.status} `), link(`${dispute.kind} ${dispute.id}`, { node: dispute.id }), el('p', {}, dispute.summary)))),
    ...more(disputes.next_page_token),
    el('h3', {}, `Least sure extractions (confidence below ${LOW_CONFIDENCE}, ${records.length}${unsure.next_page_token ? '+' : ''})`),
    records.length === 0
      ? el('p', { class: 'muted' }, 'None.')
      : el('ul', { class: 'review-unsure' }, ...records.map((item) => el('li', {}, el('time', { datetime: item.recorded_at }, recordedOn(item.recorded_at)), ' ', link(`${item.kind} ${item.what}`, item.record === 'node' ? { node: item.id } : { edge: item.id }), ` (${item.confidence.toFixed(2)})`))),
    ...more(unsure.next_page_token),
  );
}
