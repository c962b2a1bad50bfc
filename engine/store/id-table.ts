/**
 * String ids → dense ids (small non-negative ints handed out by the caller), for
 * RecordTable. An import looks ids up several times per record in tables of up to a
 * million ids (an edge's two ends, whether its id is taken, then its insertion), and
 * a V8 Map of strings spent a third of a 1M-fact import's CPU there: its entries sit
 * behind a bucket array, and a miss reads the key string of every entry in the chain.
 * Here a lookup probes one flat Int32Array of (hash, dense id) cells, linear probing at
 * most half full, and reads a key only when its full 32-bit hash matches: a miss or an
 * insertion is mostly one cache line. Growing copies the cells from one typed array into
 * another, a new place per cell from its stored hash: no key is read or hashed again (a
 * growth of 800k ids takes about as long as a Map's, 25-75 ms; cells of (hash, key, dense)
 * in one JS array made a hit a line cheaper but that growth 200 ms).
 *
 * The hash is seeded per table (random), as V8 seeds its own, so that ids crafted to
 * collide cannot make a tenant's import quadratic. Keys are also kept by dense id,
 * which is what iteration in dense order and renumbering read. Keys given by
 * `appendUnhashed` are held by dense id only until the first lookup by key: a graph loaded
 * from its snapshot, or a worker's replica made from one, answers queries that walk edges by
 * dense id without them, so it does not wait for millions of edge ids to be hashed.
 */

/** Smallest table, in cells (a power of two). */
const MIN_CELLS = 16;

export class IdTable {
  /** By dense id: its key (undefined: none, or deleted). */
  private keys: (string | undefined)[] = [];
  /** Cell c is cells[2c] (the key's hash) and cells[2c + 1] (its dense id + 1; 0: empty). */
  private cells = new Int32Array(2 * MIN_CELLS);
  private mask = MIN_CELLS - 1;
  private count = 0;
  /** Whether the cells hold every key (appendUnhashed: not until the first lookup by key). */
  private hashed = true;
  private readonly seed = (Math.random() * 0x1_0000_0000) | 0;

  /**
   * Adds `keys` (distinct, none in the table; the list taken, not copied) at the next dense ids, in order, making no cells
   * for them until the first lookup by key (the keys are trusted to be distinct: a snapshot's
   * checksum, or the table a replica's snapshot was read from, stands for them). Only while the
   * table has no cells to keep in step (none made yet, or nothing in it) and no deleted key.
   */
  appendUnhashed(keys: string[]): void {
    if ((this.hashed && this.count > 0) || this.count !== this.keys.length) throw new Error('appendUnhashed() needs a table not hashed yet, with no key deleted');
    // an empty table takes the list itself: a restart's millions of edge ids pushed one by one left a list up to half as long again
    if (this.keys.length === 0) this.keys = keys;
    else for (const key of keys) this.keys.push(key);
    this.count += keys.length;
    this.hashed = this.count === 0;
  }

  get size(): number {
    return this.count;
  }

  /** The dense id of `id` (-1: none). */
  get(id: string): number {
    if (!this.hashed) this.hashKeys();
    const hash = this.hash(id);
    const { cells, mask, keys } = this;
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      const stored = cells[2 * cell + 1];
      if (stored === 0) return -1;
      if (cells[2 * cell] === hash && keys[stored - 1] === id) return stored - 1;
    }
  }

  /**
   * Gives `id` the dense id `dense` when it has none (and returns -1); when it has one,
   * changes nothing and returns it. One probe serves both.
   */
  add(id: string, dense: number): number {
    if (!this.hashed) this.hashKeys();
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const hash = this.hash(id);
    const { cells, mask, keys } = this;
    let cell = hash & mask;
    for (; ; cell = (cell + 1) & mask) {
      const stored = cells[2 * cell + 1];
      if (stored === 0) break;
      if (cells[2 * cell] === hash && keys[stored - 1] === id) return stored - 1;
    }
    cells[2 * cell] = hash;
    cells[2 * cell + 1] = dense + 1;
    while (keys.length < dense) keys.push(undefined);
    keys[dense] = id;
    this.count++;
    return -1;
  }

  /** Removes `id`; returns the dense id it had (-1: none). */
  delete(id: string): number {
    if (!this.hashed) this.hashKeys();
    const hash = this.hash(id);
    const { cells, mask, keys } = this;
    let cell = hash & mask;
    for (; ; cell = (cell + 1) & mask) {
      const stored = cells[2 * cell + 1];
      if (stored === 0) return -1;
      if (cells[2 * cell] === hash && keys[stored - 1] === id) break;
    }
    const dense = cells[2 * cell + 1] - 1;
    keys[dense] = undefined;
    this.count--;
    // backward shift: the cells after the hole that would no longer be found past it move into it
    let hole = cell;
    for (let next = (hole + 1) & mask; cells[2 * next + 1] !== 0; next = (next + 1) & mask) {
      const home = cells[2 * next] & mask;
      // `next` stays when its home lies cyclically in (hole, next]
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      cells[2 * hole] = cells[2 * next];
      cells[2 * hole + 1] = cells[2 * next + 1];
      hole = next;
    }
    cells[2 * hole] = 0;
    cells[2 * hole + 1] = 0;
    return dense;
  }

  /** The key at `dense` (undefined: none). */
  keyAt(dense: number): string | undefined {
    return this.keys[dense];
  }

  /** Makes the cells of an unhashed table: sized for its keys at most half full, each key placed as add() would. */
  private hashKeys(): void {
    this.hashed = true;
    let size = MIN_CELLS;
    while (size < 2 * this.count) size *= 2;
    const cells = new Int32Array(2 * size);
    const mask = size - 1;
    const keys = this.keys;
    for (let dense = 0; dense < keys.length; dense++) {
      const hash = this.hash(keys[dense]!);
      let cell = hash & mask;
      while (cells[2 * cell + 1] !== 0) cell = (cell + 1) & mask;
      cells[2 * cell] = hash;
      cells[2 * cell + 1] = dense + 1;
    }
    this.cells = cells;
    this.mask = mask;
  }

  private grow(): void {
    const old = this.cells;
    const size = 2 * (this.mask + 1);
    const cells = new Int32Array(2 * size);
    const mask = size - 1;
    for (let from = 0; from < old.length; from += 2) {
      if (old[from + 1] === 0) continue;
      let cell = old[from] & mask;
      while (cells[2 * cell + 1] !== 0) cell = (cell + 1) & mask;
      cells[2 * cell] = old[from];
      cells[2 * cell + 1] = old[from + 1];
    }
    this.cells = cells;
    this.mask = mask;
  }

  /** Jenkins' one-at-a-time over the UTF-16 code units, from the table's seed. */
  private hash(id: string): number {
    let hash = this.seed;
    for (let i = 0; i < id.length; i++) {
      hash = (hash + id.charCodeAt(i)) | 0;
      hash = (hash + (hash << 10)) | 0;
      hash ^= hash >>> 6;
    }
    hash = (hash + (hash << 3)) | 0;
    hash ^= hash >>> 11;
    return (hash + (hash << 15)) | 0;
  }
}
