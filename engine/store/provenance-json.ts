/**
 * The JSON text of provenance lists, known without serialising them again on the thread that
 * commits (issue 28: a batch's speed-up on many cores is bounded by that thread's time per
 * document, and serialising provenance was the largest part of encoding a commit's records).
 *
 * A batch's drafts come from its workers as JSON, each record's provenance list as a text of its
 * own (engine/extract/draft.ts draftMessage); the thread that commits parses each list and notes
 * its text here. A commit's merge appends an input's entries to the list before it
 * (merge.ts unionProvenance) and notes so in the commit's ProvenanceJson; the commit then writes
 * a new record's list, a short list's grown text, or the chunk of a long list's new entries
 * (provenance-chunks.ts) from those texts. The bytes written are those JSON.stringify gives: it
 * writes an array as its items' texts joined with commas in brackets, and a list parsed from a
 * text it wrote serialises back to that text.
 */
import type { Provenance } from '../ontology/index.ts';

type List = readonly Provenance[];

/**
 * The text a list was parsed from (a draft's), kept on the list itself, under a property no
 * enumeration, JSON or comparison sees: a commit's inputs, gone with their draft. Not a WeakMap:
 * a draft notes about 60 lists, and the WeakMap's sets took 30% of receiving a draft on the
 * thread that commits (0.17 against 0.12 ms a document of the sample corpus, without notes).
 */
const GIVEN = Symbol('provenance JSON');

type Noted = List & { [GIVEN]?: string };

/**
 * Notes that `list` was parsed from `json`, and has not been changed since (records' lists are replaced, never edited).
 * Fresh lists only (a draft's, parsed just now): a frozen or non-extensible one cannot take the note, and throws.
 */
export function noteProvenanceJson(list: List, json: string): void {
  Object.defineProperty(list, GIVEN, { value: json, writable: true });
}

function given(list: List): string | undefined {
  return (list as Noted)[GIVEN];
}

/**
 * Characters of list texts that commits wrote whole in their records' values (short lists: shorter than
 * provenance-chunks.ts's CHUNKED_FROM) kept for the commits after them, about 8 MB of text at most, and
 * the lists they are kept by, live while their records are (up to about 3x the text, 12.7 MB measured
 * for 20k records of 2 entries, when a graph is dropped: hence forgetWrittenTexts): a batch's
 * documents name the same records again and again, and a record's next commit then writes the entries
 * it held from this text rather than serialising them again (6-11% of a batch's main thread, sampled
 * by bench/batch-profile --replay). Written, not read: a graph loaded from disk or its snapshot has none.
 */
export const WRITTEN_TEXT_CHARS = 4 * 1024 * 1024;

/**
 * The texts of the short lists the last commits wrote, by list (records' lists are replaced, never
 * edited, so a list's text stays its text), oldest first: past WRITTEN_TEXT_CHARS the oldest are
 * dropped. A text is taken out when a commit reads it: the list it grew into is written, and noted, then.
 */
export class WrittenTexts {
  private readonly texts = new Map<List, Kept>();
  /**
   * The kept texts in the order noted, a taken one left in place until the oldest reach it: dropping the
   * oldest from the Map's own order read past every entry deleted at its front, about capacity/2 of them
   * at each note once the bound was reached (0.43 ms a document, 16% of the main thread, over a batch of
   * 5,120 documents, sampled by bench/batch-profile --replay).
   */
  private order: Kept[] = [];
  private oldest = 0;
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  note(list: List, text: string): void {
    if (text.length > this.maxChars || this.texts.has(list)) return;
    const kept: Kept = { list, text: ownCopy(text), taken: false };
    this.texts.set(list, kept);
    this.order.push(kept);
    this.chars += text.length;
    while (this.chars > this.maxChars) {
      const dropped = this.order[this.oldest++];
      if (dropped.taken) continue;
      this.texts.delete(dropped.list);
      this.chars -= dropped.text.length;
      dropped.text = ''; // (its entry stays in the order until compact: its text is let go now, as a taken one's is)
    }
    this.compact();
  }

  /** The order without what was dropped or taken, once that is half of it: each entry moved once on average (their texts were let go already). */
  private compact(): void {
    const gone = this.order.length - this.texts.size;
    if (gone <= 1024 || gone * 2 <= this.order.length) return;
    this.order = this.order.slice(this.oldest).filter((kept) => !kept.taken);
    this.oldest = 0;
  }

  clear(): void {
    this.texts.clear();
    this.order = [];
    this.oldest = 0;
    this.chars = 0;
  }

  take(list: List): string | undefined {
    const kept = this.texts.get(list);
    if (kept === undefined) return undefined;
    this.texts.delete(list);
    kept.taken = true;
    this.chars -= kept.text.length;
    const { text } = kept;
    kept.text = '';
    this.compact();
    return text;
  }
}

/** A text WrittenTexts keeps, for its list; `taken` once a commit took it. */
interface Kept {
  list: List;
  text: string;
  taken: boolean;
}

const written = new WrittenTexts(WRITTEN_TEXT_CHARS);

/**
 * Drops every kept text, with the lists they are kept by: a graph was deleted or left the graph cache, and
 * the lists of its records would otherwise stay until later batch commits pushed them out (for ever, when
 * none comes). Every graph's: a drop is rare, and a list whose text is gone is serialised at its next commit.
 */
export function forgetWrittenTexts(): void {
  written.clear();
}

/**
 * `text` in characters of its own. A list's text is most often a piece of the draft message it came in,
 * or joined from such pieces (joinArrays), and V8 keeps a piece's whole message alive: kept as they are,
 * 2,000 texts of 100 characters held 216 MB of messages, copied 9 MB. Its two halves joined make a
 * concatenation, which V8 copies into one flat string at the first read of a character, dropping the pieces.
 */
function ownCopy(text: string): string {
  const copy = text.slice(0, 1) + text.slice(1);
  copy.charCodeAt(0);
  return copy;
}

/** What one commit's merge appended to which list, for the texts of the lists it writes; dropped with the commit. */
export class ProvenanceJson {
  private readonly appended = new Map<List, { base: List; json: string }>();

  /** Notes that `result` is `base` followed by every entry of `incoming`, when the text of `incoming` is known. */
  noteAppended(result: List, base: List, incoming: List): void {
    const json = given(incoming);
    if (json !== undefined) this.appended.set(result, { base, json });
  }

  /**
   * Notes that `list`, which the commit made, had `incoming` appended in place (merge.ts CommitLists); undefined:
   * entries whose text is not known. Its text stays known only when it was and theirs is.
   */
  noteAppendedInPlace(list: List, incoming: List | undefined): void {
    const grown = this.appended.get(list);
    if (!grown) return;
    const json = incoming && given(incoming);
    if (json === undefined) this.appended.delete(list);
    else grown.json = joinArrays(grown.json, json);
  }

  /** Whether the text of `list` is one given, or made from one given (noteAppended). */
  madeFromTexts(list: List): boolean {
    return given(list) !== undefined || this.appended.has(list);
  }

  /** JSON.stringify(list.slice(from)), from the texts known where it can. */
  textFrom(list: List, from: number): string {
    if (from === 0) {
      const known = given(list) ?? written.take(list);
      if (known !== undefined) return known;
    }
    const grown = this.appended.get(list);
    if (grown && from <= grown.base.length) return joinArrays(from === grown.base.length ? '[]' : this.textFrom(grown.base, from), grown.json);
    return serialised(list, from);
  }
}

/** The JSON of `list`'s entries from `from` on: from the commit's texts when it has them, else serialised. */
export function provenanceText(list: List, from: number, known: ProvenanceJson | undefined): string {
  return known ? known.textFrom(list, from) : serialised(list, from);
}

/**
 * The JSON of a list a commit writes whole in its record's value, kept for the commits after it
 * (WrittenTexts) when made from texts the commit was given (a batch's drafts): an import whose lists
 * are serialised keeps none, and pays nothing for it.
 */
export function inlineProvenanceText(list: List, known: ProvenanceJson | undefined): string {
  const text = provenanceText(list, 0, known);
  if (known?.madeFromTexts(list)) written.note(list, text);
  return text;
}

/** JSON.stringify(list.slice(from)), without the copy when `from` is 0. */
function serialised(list: List, from: number): string {
  return JSON.stringify(from === 0 ? list : list.slice(from));
}

/** The JSON of two arrays' items, in order, as one array, from theirs. */
function joinArrays(first: string, second: string): string {
  if (first === '[]') return second;
  if (second === '[]') return first;
  return first.slice(0, -1) + ',' + second.slice(1);
}
