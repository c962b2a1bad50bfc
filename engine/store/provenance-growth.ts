/**
 * What a commit needs of a long provenance list, kept so that merging onto it and encoding it
 * again cost what the commit appends, not what the list holds (issue 28). A record's stored
 * value holds its whole provenance list as JSON (record-codec.ts): a document naming an actor
 * that N documents named before merged one entry onto N, scanned the N for a duplicate and
 * serialised them again, O(N) on the batch's main thread (26 % of it over 512 documents).
 *
 * Merging only appends (unionProvenance), so the merged list's JSON is the stored list's with
 * the new entries' added before its closing bracket: the same bytes as JSON.stringify of the
 * whole list. And an incoming entry can only equal a held one of its own document, so the set of
 * documents a list names lets a merge skip the scan when none of its documents is held.
 *
 * Lists are keyed by identity: stored records are replaced, never edited, and so are their
 * provenance lists and entries. Short lists are not kept (they are cheap, and most records have
 * them); what is kept, the lists themselves included, is bounded by DEFAULT_KEPT_BYTES for all
 * stores of the process together, least recently encoded first out. A list whose entry is
 * evicted is serialised and scanned whole again, as before.
 */
import type { Provenance } from '../ontology/index.ts';

/** Lists shorter than this are serialised and scanned whole each time, nothing kept of them. */
const MIN_KEPT_ENTRIES = 8;
/**
 * What is kept for all lists together, in bytes of heap (estimated): each list's JSON (one byte
 * a character: JSON of provenance is nearly all ASCII), the list and entries it keeps alive
 * (ENTRY_BYTES an entry beyond its JSON's length; counted whether or not a record still holds
 * them, as the list of a record replaced, deleted or dropped is kept alive by this alone),
 * DOCUMENT_BYTES for each document the list names, APPEND_BYTES for each commit that appended
 * to its JSON (the string pieces that join the appended JSON to what was there), and LIST_BYTES
 * (the entry in `kept`, its record and its set of documents).
 */
export const DEFAULT_KEPT_BYTES = 32 * 1024 * 1024;
/**
 * A decoded provenance list takes its JSON's length in heap and 85 bytes an entry more (Node 20,
 * 160k entries of 200-500 JSON characters, heap after a collection: 1.18-1.41 times the JSON).
 */
const ENTRY_BYTES = 96;
const DOCUMENT_BYTES = 16;
const APPEND_BYTES = 96;
const LIST_BYTES = 512;
let keptBound = DEFAULT_KEPT_BYTES;

type List = readonly Provenance[];
type Documents = Set<string | undefined>;

interface Kept {
  /** The list's JSON without its closing bracket: a string appended to is never sliced (which would copy it whole). */
  open: string;
  /** How many commits appended to `open` since it was serialised whole. */
  appends: number;
  /** The document_id of each entry (possibly more: a merge that is not committed adds its own). */
  documents: Documents;
}

/** A list made by appending to one whose JSON is kept: that JSON, where the appended entries start, and the documents of both. */
interface Grown extends Kept {
  base: List;
  from: number;
}

/** By list, oldest encoded first (a Map keeps insertion order), with the bytes counted for it when kept. */
const kept = new Map<List, Kept & { bytes: number }>();
let keptBytes = 0;
/** Lists merged from a kept one and not encoded yet (weak: a merge that is not committed leaves nothing). */
const grownFrom = new WeakMap<List, Grown>();

/**
 * Notes that `grown` is `base` with entries appended, or a copy of it (`grown.slice(0,
 * base.length)` holds `base`'s entries, in order).
 */
export function noteAppended(grown: List, base: List): void {
  if (base.length === 0) return;
  const baseKept = kept.get(base);
  // several writes of one commit grew it one after the other: the first one's base still holds
  const growth = baseKept ? { open: baseKept.open, appends: baseKept.appends, documents: baseKept.documents, base, from: base.length } : grownFrom.get(base);
  if (!growth) return;
  grownFrom.set(grown, growth);
  for (let i = base.length; i < grown.length; i++) growth.documents.add(grown[i].document_id);
}

/** The document_id of every entry of `list` (and possibly more), when it is kept; undefined when not known. */
export function documentsOf(list: List): ReadonlySet<string | undefined> | undefined {
  return (kept.get(list) ?? grownFrom.get(list))?.documents;
}

/** `JSON.stringify(list)`, from the kept JSON of the list it grew from when there is one. */
export function provenanceJson(list: List): string {
  if (list.length < MIN_KEPT_ENTRIES) return JSON.stringify(list);
  const held = kept.get(list);
  if (held) {
    kept.delete(list);
    kept.set(list, held);
    return held.open + ']';
  }
  let entry: Kept;
  const grown = grownFrom.get(list);
  if (grown) {
    grownFrom.delete(list);
    entry =
      grown.from === list.length
        ? { open: grown.open, appends: grown.appends, documents: grown.documents }
        : { open: grown.open + ',' + JSON.stringify(list.slice(grown.from)).slice(1, -1), appends: grown.appends + 1, documents: grown.documents };
    // the list it grew from is replaced by this one in the record that held it
    forget(grown.base);
  } else {
    entry = { open: JSON.stringify(list).slice(0, -1), appends: 0, documents: new Set(list.map((provenance) => provenance.document_id)) };
  }
  keep(list, entry);
  return entry.open + ']';
}

/**
 * Sets the bound on what is kept, for all stores of the process (tests make it small to
 * exercise eviction; the server keeps DEFAULT_KEPT_BYTES), dropping the least recently encoded
 * lists down to it. Answers the bound it replaces.
 */
export function setProvenanceKeptBytes(bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError('the bound on kept provenance must be a whole number of bytes');
  const previous = keptBound;
  keptBound = bytes;
  evictPastBound();
  return previous;
}

function keep(list: List, entry: Kept): void {
  // counted as kept (a merge that grows it later adds documents uncounted, until it is encoded)
  const bytes = LIST_BYTES + 2 * entry.open.length + ENTRY_BYTES * list.length + APPEND_BYTES * entry.appends + DOCUMENT_BYTES * entry.documents.size;
  kept.set(list, { ...entry, bytes });
  keptBytes += bytes;
  evictPastBound();
}

function evictPastBound(): void {
  for (const [oldest, { bytes }] of kept) {
    if (keptBytes <= keptBound) break;
    kept.delete(oldest);
    keptBytes -= bytes;
  }
}

function forget(list: List): void {
  const entry = kept.get(list);
  if (!entry) return;
  kept.delete(list);
  keptBytes -= entry.bytes;
}
