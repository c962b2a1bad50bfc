/**
 * Which entries of a long provenance list are durable under keys of their own (issue 28). A
 * record whose list is long keeps it in chunks beside its value (LevelDB: keys right after the
 * record's, level-backend.ts and keys.ts; PostgreSQL: rows of provenance_chunks, pg-backend.ts):
 * a commit that appends to the list writes the appended entries as one more chunk,
 * not the whole list again, so the bytes a commit writes follow what it brings, not what the
 * graph holds (keys and values of its LevelDB batch, as docs/batch.md counts them: a commit had
 * written 579-624 KB over 512 documents against 166-194 KB over 128; 89-102 KB over either since).
 *
 * The writer must know how many of a list's entries its record's chunks hold. Merging only
 * appends (unionProvenance), so a merged list holds the stored one's entries first, in order;
 * the stored list is the one the graph's index holds, durable since its commit. This module
 * keeps, by list identity (stored lists and entries are replaced, never edited):
 * - for each list that is durable in chunks, its length then and the documents it names
 *   (noted when it is written, or when a merge first needs them for a list read back: a
 *   merge skips the duplicate scan when none of its documents is held: an incoming entry can
 *   only equal a held entry of its own document);
 * - for each long list merged and not yet committed, the stored list it grew from.
 * A list read back some other way (a graph loaded from its snapshot) is not known: its next
 * commit writes it whole again, after deleting the chunks its record had.
 */
import type { Provenance } from '../ontology/index.ts';
import { provenanceText, type ProvenanceJson } from './provenance-json.ts';

/** A list this long or longer is written in chunks; shorter ones stay inline in the record's value, as most records' do (no key more). */
export const CHUNKED_FROM = 8;

type List = readonly Provenance[];

interface Durable {
  /** How many of the list's entries its record's chunks hold: all of them when it was written or read. */
  length: number;
  /** The document_id of each entry (possibly more: a merge that is not committed adds its own); undefined until a merge needs them. */
  documents?: Set<string | undefined>;
}

const durable = new WeakMap<List, Durable>();
/** Long lists merged and not committed yet, each with the list first merged onto: the stored one (weak: a merge that is not committed leaves nothing). */
const grownFrom = new WeakMap<List, List>();

/**
 * What a commit writes of a long list: its entries from `from` on, as one chunk's JSON (none
 * when the record's chunks hold them all already), after deleting the record's chunks when
 * `clearOld` (they are not known).
 */
export interface ChunkWrite {
  from: number;
  json: string | undefined;
  clearOld: boolean;
}

/** Notes that `list` was read from, or written in, its record's chunks, whole. */
export function noteDurableInChunks(list: List, documents?: Set<string | undefined>): void {
  durable.set(list, { length: list.length, documents });
}

/**
 * Notes that `grown` is `base` with entries appended, or a copy of it, when it is long enough to be written in chunks;
 * `from`: where the entries not noted yet start (a list a commit made and appends to in place was noted up to there).
 */
export function noteGrown(grown: List, base: List, from = base.length): void {
  if (grown.length < CHUNKED_FROM) return;
  const stored = grownFrom.get(base) ?? base;
  grownFrom.set(grown, stored);
  const documents = documentsOfDurable(stored);
  if (documents) for (let i = from; i < grown.length; i++) documents.add(grown[i].document_id);
}

/** The document_id of every entry of `list` (and possibly more), when it is durable in chunks or grew from a list that is; undefined when not known. */
export function chunkedDocuments(list: List): ReadonlySet<string | undefined> | undefined {
  return documentsOfDurable(grownFrom.get(list) ?? list);
}

function documentsOfDurable(list: List): Set<string | undefined> | undefined {
  const entry = durable.get(list);
  if (entry && !entry.documents) entry.documents = documentsNamed(list);
  return entry?.documents;
}

function documentsNamed(list: List): Set<string | undefined> {
  return new Set(list.map((provenance) => provenance.document_id));
}

/** How to write `list` (CHUNKED_FROM entries or more) to its record's chunks; `known`: the commit's texts of lists (provenance-json.ts). */
export function chunkWrite(list: List, known?: ProvenanceJson): ChunkWrite {
  const stored = grownFrom.get(list) ?? list;
  const written = durable.get(stored);
  // a list too short for chunks was inline: the record has none (a new record's is empty)
  const { from, clearOld } = written ? { from: written.length, clearOld: false } : { from: 0, clearOld: stored.length >= CHUNKED_FROM };
  return { from, clearOld, json: from === list.length ? undefined : provenanceText(list, from, known) };
}

/** Notes, once its commit is durable, that `list` is durable in its record's chunks (written whole, its documents are noted now). */
export function noteCommitted(list: List): void {
  const stored = grownFrom.get(list) ?? list;
  noteDurableInChunks(list, durable.get(stored)?.documents ?? documentsNamed(list));
  grownFrom.delete(list);
}
