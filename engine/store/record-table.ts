import { IdTable } from './id-table.ts';

/** Where a record sits in its table, kept on the record itself (not enumerable: invisible to JSON, spread, structured clone and equality). */
const DENSE = Symbol('dense id');
type Placed = { [DENSE]?: number };

/**
 * Records by external id, each also under a dense integer id (its position in the
 * table), so that the indexes can hold ints in typed arrays instead of strings in Maps.
 * Dense ids are handed out in insertion order and not reused, so iterating them in
 * order is insertion order (a replaced record keeps its place, as in a Map). A node
 * id may hold a place before its record arrives (an edge naming it came first).
 */
export class RecordTable<R extends { id: string }> {
  /** id → dense id; undefined while records taken by adopt() have not been looked up by id yet. */
  private idTable: IdTable | undefined = new IdTable();
  private slots: (R | undefined)[] = [];
  private live = 0;

  private get ids(): IdTable {
    if (this.idTable) return this.idTable;
    const ids = new IdTable();
    for (let dense = 0; dense < this.slots.length; dense++) ids.add(this.slots[dense]!.id, dense);
    return (this.idTable = ids);
  }

  /**
   * Takes records of distinct ids, the first at dense id 0, into an empty table, without
   * mapping their ids yet: the map is built on the first lookup by id. A graph loaded
   * from its snapshot answers queries that walk edges by dense id without it, so its
   * first answer does not wait for hundreds of thousands of edge ids to be mapped.
   */
  adopt(records: readonly R[]): void {
    if (this.slots.length > 0) throw new Error('adopt() needs an empty table');
    this.slots = records.slice();
    this.live = records.length;
    this.idTable = undefined;
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
    // adopted records fill every place
    return this.idTable ? this.slots.length - this.idTable.size : 0;
  }

  get(id: string): R | undefined {
    const dense = this.ids.get(id);
    return dense < 0 ? undefined : this.slots[dense];
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  at(dense: number): R | undefined {
    return this.slots[dense];
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
   * so that loading a large graph does not pay for marking records no query reads).
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

  /** Stores a record in its id's place (a new place at the end for a new id); returns the record it replaced. */
  put(record: R, dense = this.reserve(record.id)): R | undefined {
    const previous = this.slots[dense];
    if (!previous) this.live++;
    this.slots[dense] = record;
    if ((record as Placed)[DENSE] !== undefined) (record as Placed)[DENSE] = dense;
    return previous;
  }

  /** Removes the record and its place; returns its dense id (-1 when absent). */
  remove(id: string): number {
    const dense = this.ids.delete(id);
    if (dense < 0) return -1;
    if (this.slots[dense]) this.live--;
    this.slots[dense] = undefined;
    return dense;
  }

  /** Renumbers the places in use (records, and ids named before their record), closing the holes; returns old → new dense id (-1: a hole). */
  compact(): Int32Array {
    const ids = this.ids;
    const mapping = new Int32Array(this.slots.length).fill(-1);
    const slots: (R | undefined)[] = [];
    const moved = new IdTable();
    for (let dense = 0; dense < this.slots.length; dense++) {
      const id = ids.keyAt(dense);
      if (id === undefined) continue;
      mapping[dense] = slots.length;
      moved.add(id, slots.length);
      const record = this.slots[dense];
      if (record && (record as Placed)[DENSE] !== undefined) (record as Placed)[DENSE] = slots.length;
      slots.push(record);
    }
    this.slots = slots;
    this.idTable = moved;
    return mapping;
  }

  *values(): IterableIterator<R> {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const record = slots[i];
      if (record) yield record;
    }
  }
  *keys(): IterableIterator<string> {
    for (const record of this.values()) yield record.id;
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
