/**
 * The JSON of long provenance lists, kept so that a commit encodes only what it appends (issue
 * 28). A record's stored value holds its whole provenance list as JSON (record-codec.ts); a
 * document naming an actor that N documents named before merged one entry onto N, and
 * encoding the record again cost O(N) of JSON.stringify on the batch's main thread (26 % of it
 * over 512 documents). Merging only appends (unionProvenance), so the merged list's JSON is the
 * stored list's, its closing bracket replaced by the new entries': the same bytes, byte for byte,
 * as JSON.stringify of the whole list.
 *
 * Lists are keyed by identity: stored records are replaced, never edited, and so are their
 * provenance lists and entries. Short lists are encoded whole (cheap, and most records have
 * them); the JSON kept is bounded by PROVENANCE_JSON_CHARS, least recently encoded first out.
 */
import type { Provenance } from '../ontology/index.ts';

/** Lists shorter than this are encoded whole each time, their JSON not kept. */
const MIN_KEPT_ENTRIES = 8;
/** The JSON kept for all lists together, in characters (about bytes: JSON of provenance is nearly all ASCII). */
export const PROVENANCE_JSON_CHARS = 32 * 1024 * 1024;

type List = readonly Provenance[];

/** A list made by appending to one whose JSON is kept: that JSON, and where the appended entries start. */
interface Grown {
  base: List;
  baseJson: string;
  from: number;
}

/** JSON by list, oldest encoded first (a Map keeps insertion order). */
const kept = new Map<List, string>();
let keptChars = 0;
/** Lists merged from a kept one and not encoded yet (weak: a merge that is not committed leaves nothing). */
const grownFrom = new WeakMap<List, Grown>();

/** Notes that `grown` is `base` with entries appended, or a copy of it (`grown.slice(0, base.length)` holds `base`'s entries, in order). */
export function noteAppended(grown: List, base: List): void {
  if (base.length === 0) return;
  const baseJson = kept.get(base);
  if (baseJson !== undefined) grownFrom.set(grown, { base, baseJson, from: base.length });
  else {
    // several writes of one commit grew it one after the other: the first one's base still holds
    const earlier = grownFrom.get(base);
    if (earlier) grownFrom.set(grown, earlier);
  }
}

/** `JSON.stringify(list)`, from the kept JSON of the list it grew from when there is one. */
export function provenanceJson(list: List): string {
  if (list.length < MIN_KEPT_ENTRIES) return JSON.stringify(list);
  let json = kept.get(list);
  if (json !== undefined) {
    kept.delete(list);
    kept.set(list, json);
    return json;
  }
  const grown = grownFrom.get(list);
  if (grown) {
    grownFrom.delete(list);
    json = grown.from === list.length ? grown.baseJson : grown.baseJson.slice(0, -1) + ',' + JSON.stringify(list.slice(grown.from)).slice(1);
    // the list it grew from is replaced by this one in the record that held it
    forget(grown.base);
  } else {
    json = JSON.stringify(list);
  }
  keep(list, json);
  return json;
}

function keep(list: List, json: string): void {
  kept.set(list, json);
  keptChars += json.length;
  for (const [oldest, oldestJson] of kept) {
    if (keptChars <= PROVENANCE_JSON_CHARS) break;
    kept.delete(oldest);
    keptChars -= oldestJson.length;
  }
}

function forget(list: List): void {
  const json = kept.get(list);
  if (json === undefined) return;
  kept.delete(list);
  keptChars -= json.length;
}
