// The events and places the timeline and the map draw, read through the query API (so as_of
// replays them as the graph was).
import type { QueryAnswer } from './model.ts';

export interface EventRow {
  id: string;
  type: string;
  date: string | null;
  fatalities: number | null;
  label: string | null;
  place: string | null;
  country: string | null;
}

export interface PlaceRow {
  id: string;
  label: string;
  country: string | null;
  type: string | null;
}

/** At most this many events and places are drawn (the timeline says when more exist). */
export const MAX_ROWS = 5000;

export const EVENTS_QUERY = `MATCH (e:Event)
OPTIONAL MATCH (e)-[:OCCURRED_AT]->(l:Location)
RETURN id(e) AS id, e.event_type AS type, e.date AS date, e.fatalities AS fatalities, e.label AS label, l.label AS place, l.country_code AS country
ORDER BY date, id LIMIT ${MAX_ROWS + 1}`;

export const PLACES_QUERY = `MATCH (l:Location)
RETURN id(l) AS id, l.label AS label, l.country_code AS country, l.location_type AS type
ORDER BY label, id LIMIT ${MAX_ROWS + 1}`;

export function rowsOf<T>(answer: Pick<QueryAnswer, 'columns' | 'rows'>): T[] {
  return answer.rows.map((row) => Object.fromEntries(answer.columns.map((column, i) => [column, row[i] ?? null])) as T);
}

/** An event's type as the timeline groups it. */
export const typeOf = (event: EventRow): string => event.type || 'untyped';

/** The fatalities an event reports (none without a number). */
const fatalitiesOf = (event: EventRow): number => (typeof event.fatalities === 'number' ? event.fatalities : 0);

/** The fatalities the events report. */
export const killedIn = (events: readonly EventRow[]): number => events.reduce((sum, event) => sum + fatalitiesOf(event), 0);

/** Events by month (YYYY-MM), months without events included between the first and the last. */
export function byMonth(events: EventRow[]): { month: string; events: EventRow[]; fatalities: number }[] {
  const dated = events.filter((event) => typeof event.date === 'string' && /^\d{4}-\d{2}/.test(event.date));
  if (dated.length === 0) return [];
  const months = new Map<string, EventRow[]>();
  for (const event of dated) {
    const month = event.date!.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), event]);
  }
  const sorted = [...months.keys()].sort();
  const out: { month: string; events: EventRow[]; fatalities: number }[] = [];
  let [year, month] = sorted[0].split('-').map(Number);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    const list = months.get(key) ?? [];
    out.push({ month: key, events: list, fatalities: killedIn(list) });
    if (key >= sorted[sorted.length - 1]) break;
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
  return out;
}

export interface TypeCount {
  type: string;
  events: number;
  fatalities: number;
}

/** Events and fatalities per event type, the most frequent type first (then by name: the same order each time). */
export function byType(events: EventRow[]): TypeCount[] {
  const types = new Map<string, TypeCount>();
  for (const event of events) {
    const type = typeOf(event);
    const count = types.get(type) ?? (types.set(type, { type, events: 0, fatalities: 0 }).get(type)!);
    count.events += 1;
    count.fatalities += fatalitiesOf(event);
  }
  return [...types.values()].sort((a, b) => b.events - a.events || (a.type < b.type ? -1 : 1));
}
