import { IdTable } from './id-table.ts';

/** Where a record sits in its table, kept on the record itself (not enumerable: invisible to JSON, spread, structured clone and equality). */
const DENSE = Symbol('dense id');
type Placed = { [DENSE]?: number };

/**
 * How a table keeps records it can make again from what its owner holds by dense id (a
 * GraphIndex's edge columns): as a small int instead of an object of their own (88 bytes an
 * edge, issue 28). A record read from such a place is made anew at each read: equal to the
 * one put, not the same object.
 */
export interface RecordPacking<R> {
  /** A small non-negative int that unpack makes the record at `dense` again from, or the record itself when it is to be kept whole. */
  pack(record: R, dense: number): R | number;
  unpack(packed: number, dense: number): R;
  /** The place that held `packed` holds something else now, or nothing. */
  release(packed: number): void;
}

/**
 * Records by external id, each also under a dense integer id (its position in the
 * table), so that the indexes can hold ints in typed arrays instead of strings in Maps.
 * Dense ids are handed out in insertion order and not reused, so iterating them in
 * order is insertion order (a replaced record keeps its place, as in a Map). A node
 * id may hold a place before its record arrives (an edge naming it came first).
 */
export class RecordTable<R extends { id: string }> {
  private ids = new IdTable();
  /** By dense id: the record, what `packing` made of it, or undefined (no record). */
  private slots: (R | number | undefined)[] = [];
  private live = 0;

  constructor(private readonly packing?: RecordPacking<R>) {}

  /**
   * Takes records of distinct ids, none in the table, at the next dense ids, without hashing
   * their ids yet (IdTable.appendUnhashed): that waits for the first lookup by id. Only into a
   * table no id has been looked up or placed in but by adopt (an Error otherwise).
   */
  adopt(records: readonly R[]): void {
    this.ids.appendUnhashed(records.map((record) => record.id));
    // (a restart's one list of edges taken as it is: pushed one by one, the slots were up to half as many again)
    if (this.slots.length === 0) this.slots = records.slice();
    else for (const record of records) this.slots.push(record);
    this.live += records.length;
  }

  get size(): number {
    return this.live;
  }
  /** Dense ids run from 0 to below this. */
  get span(): number {
    return this.slots.length;
  }
  /** Places left by deleted records. */
  get holes(): number {
    return this.slots.length - this.ids.size;
  }

  get(id: string): R | undefined {
    const dense = this.ids.get(id);
    return dense < 0 ? undefined : this.at(dense);
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  at(dense: number): R | undefined {
    const slot = this.slots[dense];
    return typeof slot === 'number' ? this.packing!.unpack(slot, dense) : slot;
  }
  /** The id that has the place `dense` (undefined: none), as the table keeps it. */
  idAt(dense: number): string | undefined {
    return this.ids.keyAt(dense);
  }
  /** The dense id of `id` (-1 when it has no place). */
  denseOf(id: string): number {
    return this.ids.get(id);
  }
  /**
   * The dense id of a record read from this table: found on the record, else by its id
   * (and then kept on the record: records are marked on first such lookup, not when put,
   * so that loading a large graph does not pay for marking records no query reads; one made
   * again from its packing is a new object at each read, never marked: found by its id).
   */
  denseOfRecord(record: R): number {
    const marked = (record as Placed)[DENSE];
    if (marked !== undefined && this.slots[marked] === record) return marked;
    const dense = this.denseOf(record.id);
    if (dense >= 0 && this.slots[dense] === record) mark(record, dense);
    return dense;
  }

  /** A place for `id`, made when it has none. */
  reserve(id: string): number {
    const dense = this.slots.length;
    const known = this.ids.add(id, dense);
    if (known >= 0) return known;
    this.slots.push(undefined);
    return dense;
  }

  /** A new place at the end for an id believed to have none; a RangeError (the table unchanged) if it had one. */
  append(id: string): number {
    const dense = this.slots.length;
    if (this.ids.add(id, dense) >= 0) throw new RangeError(`id '${id}' is in the table twice`);
    this.slots.push(undefined);
    return dense;
  }

  /** Stores a record in its id's place (a new place at the end for a new id). */
  put(record: R, dense = this.reserve(record.id)): void {
    const previous = this.slots[dense];
    if (previous === undefined) this.live++;
    const slot = this.packing ? this.packing.pack(record, dense) : record;
    this.slots[dense] = slot;
    if (typeof previous === 'number') this.packing!.release(previous);
    if (slot === record && (record as Placed)[DENSE] !== undefined) (record as Placed)[DENSE] = dense;
  }

  /** Removes the record and its place; returns its dense id (-1 when absent). */
  remove(id: string): number {
    const dense = this.ids.delete(id);
    if (dense < 0) return -1;
    const previous = this.slots[dense];
    if (previous !== undefined) this.live--;
    this.slots[dense] = undefined;
    if (typeof previous === 'number') this.packing!.release(previous);
    return dense;
  }

  /** Renumbers the places in use (records, and ids named before their record), closing the holes; returns old → new dense id (-1: a hole). */
  compact(): Int32Array {
    const ids = this.ids;
    const mapping = new Int32Array(this.slots.length).fill(-1);
    const slots: (R | number | undefined)[] = [];
    const moved = new IdTable();
    for (let dense = 0; dense < this.slots.length; dense++) {
      const id = ids.keyAt(dense);
      if (id === undefined) continue;
      mapping[dense] = slots.length;
      moved.add(id, slots.length);
      const slot = this.slots[dense];
      if (typeof slot === 'object' && (slot as Placed)[DENSE] !== undefined) (slot as Placed)[DENSE] = slots.length;
      slots.push(slot);
    }
    this.slots = slots;
    this.ids = moved;
    return mapping;
  }

  *values(): IterableIterator<R> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (slot !== undefined) yield typeof slot === 'number' ? this.packing!.unpack(slot, i) : slot;
    }
  }
  /** The records kept whole, in dense order: none of those `packing` made an int (unpacking them would make new objects). */
  *whole(): IterableIterator<R> {
    for (const slot of this.slots) if (typeof slot === 'object') yield slot;
  }
  *keys(): IterableIterator<string> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) if (slots[i] !== undefined) yield this.ids.keyAt(i)!;
  }
  *entries(): IterableIterator<[string, R]> {
    for (const record of this.values()) yield [record.id, record];
  }
  [Symbol.iterator](): IterableIterator<[string, R]> {
    return this.entries();
  }
}

function mark(record: object, dense: number): void {
  if ((record as Placed)[DENSE] !== undefined) (record as Placed)[DENSE] = dense;
  else if (Object.isExtensible(record)) Object.defineProperty(record, DENSE, { value: dense, writable: true, enumerable: false });
}
