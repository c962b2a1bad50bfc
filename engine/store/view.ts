import { TIMESTAMP_OF_INGESTION, type EdgeRecord, type NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';
import { isCalendarDay } from './validate.ts';

/**
 * A graph as one reader sees it. Two time axes (ontology.md "Provenance and time"):
 * `asOf` cuts on transaction time (what the graph had recorded by then), `validUntil`
 * on valid time (what had happened or been said by then in the world). Queries use
 * `asOf`; the frameworks' trajectory uses both, one period at a time.
 */
export interface GraphView {
  graph: GraphIndex;
  /** ISO 8601 instant: records with a later `recorded_at` are invisible. */
  asOf?: string;
  /** ISO 8601 date or instant: records whose valid time is later are invisible; records without one stay visible. */
  validUntil?: string;
}

/** The one `as_of` rule: a record is visible when the graph had recorded it by `asOf`. */
export function recordedBy(record: { recorded_at: string }, asOf: string | undefined): boolean {
  return asOf === undefined || record.recorded_at <= asOf;
}

/**
 * When a node held or was said in the world, as an ISO date (YYYY-MM-DD): an event's
 * `date`, else `valid_from`, else the earliest provenance timestamp that is not the
 * ingest time (a document's own date; an undated document's facts are stamped when they
 * were ingested, and say so). Undefined when the record carries none.
 */
export function validTime(record: Pick<NodeRecord | EdgeRecord, 'properties' | 'provenance'>): string | undefined {
  const properties = record.properties;
  for (const key of ['date', 'valid_from', 'timestamp']) {
    const day = dayOf(properties[key]);
    if (day !== undefined) return day;
  }
  let earliest: string | undefined;
  for (const provenance of record.provenance) {
    if (provenance.timestamp_of === TIMESTAMP_OF_INGESTION) continue;
    const day = dayOf(provenance.timestamp);
    if (day !== undefined && (earliest === undefined || day < earliest)) earliest = day;
  }
  return earliest;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * The day (YYYY-MM-DD) a value starts with, when that is a real calendar day. The
 * ontology's typed properties are checked on write, but a `timestamp` (or a `date` of
 * a kind that does not type it) may hold anything: "2020-00-15" names no day, and cut
 * into periods it made a quarter "2020-Q0".
 */
function dayOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  // read for every record at every valid-time cut (each trajectory period): the digits at their places, no Date
  return isCalendarDay(digitsAt(value, 0, 4), digitsAt(value, 5, 7), digitsAt(value, 8, 10)) ? value.slice(0, 10) : undefined;
}

function digitsAt(text: string, from: number, to: number): number {
  let number = 0;
  for (let i = from; i < to; i++) number = number * 10 + text.charCodeAt(i) - 48;
  return number;
}

/** Whether a record is part of the view: recorded by `asOf`, and (when it has a valid time) valid by `validUntil`. */
export function inView(record: NodeRecord | EdgeRecord, view: GraphView): boolean {
  if (!recordedBy(record, view.asOf)) return false;
  if (view.validUntil === undefined) return true;
  const time = validTime(record);
  return time === undefined || time <= view.validUntil.slice(0, 10);
}
