// A country chosen on the map filters the other views: the query's graph and table (and so its
// exports), the timeline and the review queue show only what is tied to a place in it, under a
// chip that names the country and clears the filter.
import { api } from './api.ts';
import { byId, clear, el } from './dom.ts';
import type { QueryAnswer, Shown } from './model.ts';

/** Rows of ties read at most: past them the filter says it is partial. */
export const TIED_ROWS = 20_000;

/**
 * What is tied to a country: its places (by `country_code`), what links to them (the events that
 * occurred there, the actors based there), and what links to those events (their participants).
 */
const TIED_QUERY = `MATCH (l:Location) WHERE toUpper(l.country_code) = $country
OPTIONAL MATCH (l)--(near)
OPTIONAL MATCH (near:Event)--(far)
RETURN DISTINCT id(l) AS place, id(near) AS near, id(far) AS far
LIMIT ${TIED_ROWS + 1}`;

export interface PlaceFilter {
  country: string;
  /** The country's name on the map, when the map has been drawn. */
  name: string;
  ids: ReadonlySet<string>;
  /** More ties than were read: some records tied to the country may be missing. */
  partial: boolean;
}

export async function tiedTo(graphId: string, country: string, name: string, asOf: string | undefined): Promise<PlaceFilter> {
  const answer = await api<QueryAnswer>('POST', '/v1/graph/query', { graph_id: graphId, query: TIED_QUERY, parameters: { country }, ...(asOf ? { as_of: asOf } : {}) });
  const ids = new Set<string>();
  for (const row of answer.rows.slice(0, TIED_ROWS)) for (const cell of row) if (typeof cell === 'string') ids.add(cell);
  return { country, name, ids, partial: answer.rows.length > TIED_ROWS };
}

/** The nodes tied to the place, and the edges between two of them. */
export function filterShown(shown: Shown, filter: PlaceFilter | null): Shown {
  if (!filter) return shown;
  return { nodes: shown.nodes.filter((node) => filter.ids.has(node.id)), edges: shown.edges.filter((edge) => filter.ids.has(edge.from) && filter.ids.has(edge.to)) };
}

/** The rows every node and relationship of which is tied to the place (a row binding none stays). */
export function filterRows(answer: QueryAnswer, filter: PlaceFilter | null): QueryAnswer {
  if (!filter) return answer;
  const tied = (cell: unknown): boolean => {
    if (Array.isArray(cell)) return cell.every(tied);
    if (!cell || typeof cell !== 'object') return true;
    const record = cell as { id?: unknown; labels?: unknown; from?: unknown; to?: unknown };
    if (typeof record.id === 'string' && Array.isArray(record.labels)) return filter.ids.has(record.id);
    if (typeof record.from === 'string' && typeof record.to === 'string') return filter.ids.has(record.from) && filter.ids.has(record.to);
    return true;
  };
  return { ...answer, rows: answer.rows.filter((row) => row.every(tied)) };
}

/** The chip above the views: the country filtering them, and a button that clears it. */
export function renderFilterChip(filter: PlaceFilter | null, clearFilter: () => void): void {
  const chip = byId('place-filter');
  chip.hidden = filter === null;
  if (!filter) return clear(chip);
  const button = el('button', { type: 'button', class: 'chip-clear', 'aria-label': `Clear the filter: ${filter.name} (${filter.country})` }, '×');
  button.addEventListener('click', clearFilter);
  clear(
    chip,
    el('span', {}, `Only what is tied to ${filter.name} (${filter.country})${filter.partial ? `, among the first ${TIED_ROWS.toLocaleString('en')} ties` : ''}: the query's graph and table, the timeline, the review queue`),
    button,
  );
}
