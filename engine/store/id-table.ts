/**
 * String ids → dense ids (small non-negative ints handed out by the caller), for
 * RecordTable. An import looks ids up several times per record in tables of up to a
 * million ids (an edge's two ends, whether its id is taken, then its insertion), and
 * a V8 Map of strings spent a third of a 1M-fact import's CPU there: its entries sit
 * behind a bucket array, and a miss reads the key string of every entry in the chain.
 * Here a lookup probes one flat array of (hash, key, dense id) cells, linear probing at
 * most three quarters full, and reads a key string only when its hash matches: a hit
 * reads a cache line and the key, a miss or an insertion mostly the one line.
 *
 * The hash is seeded per table (random), as V8 seeds its own, so that ids crafted to
 * collide cannot make a tenant's import quadratic.
 */

/** Smallest table, in cells (a power of two). */
const MIN_CELLS = 16;
/** A cell is three elements of `cells`: the key's hash, the key, its dense id. */
const CELL = 3;
/** The key of an empty cell (keys are strings). */
const EMPTY = 0;

export class IdTable {
  /**
   * The open-addressing table, (hash, key, dense id) per cell, in one array so that a hit
   * reads one cache line and the key string, a miss usually the one line.
   */
  private cells: (number | string)[] = emptyCells(MIN_CELLS);
  private mask = MIN_CELLS - 1;
  private count = 0;
  private readonly seed = (Math.random() * 0x1_0000_0000) | 0;

  get size(): number {
    return this.count;
  }

  /** The dense id of `id` (-1: none). */
  get(id: string): number {
    const hash = this.hash(id);
    const { cells, mask } = this;
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      const at = CELL * cell;
      const key = cells[at + 1];
      if (key === EMPTY) return -1;
      if (cells[at] === hash && key === id) return cells[at + 2] as number;
    }
  }

  /**
   * Gives `id` the dense id `dense` when it has none (and returns -1); when it has one,
   * changes nothing and returns it. One probe serves both.
   */
  add(id: string, dense: number): number {
    if (4 * (this.count + 1) > 3 * (this.mask + 1)) this.grow();
    const hash = this.hash(id);
    const { cells, mask } = this;
    let at = CELL * (hash & mask);
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      at = CELL * cell;
      const key = cells[at + 1];
      if (key === EMPTY) break;
      if (cells[at] === hash && key === id) return cells[at + 2] as number;
    }
    cells[at] = hash;
    cells[at + 1] = id;
    cells[at + 2] = dense;
    this.count++;
    return -1;
  }

  /** Removes `id`; returns the dense id it had (-1: none). */
  delete(id: string): number {
    const hash = this.hash(id);
    const { cells, mask } = this;
    let hole = hash & mask;
    for (; ; hole = (hole + 1) & mask) {
      const key = cells[CELL * hole + 1];
      if (key === EMPTY) return -1;
      if (cells[CELL * hole] === hash && key === id) break;
    }
    const dense = cells[CELL * hole + 2] as number;
    this.count--;
    // backward shift: a cell after the hole that would no longer be found past it moves into it
    for (let next = (hole + 1) & mask; cells[CELL * next + 1] !== EMPTY; next = (next + 1) & mask) {
      const home = (cells[CELL * next] as number) & mask;
      // `next` stays when its home lies cyclically in (hole, next]
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      for (let i = 0; i < CELL; i++) cells[CELL * hole + i] = cells[CELL * next + i];
      hole = next;
    }
    cells[CELL * hole] = 0;
    cells[CELL * hole + 1] = EMPTY;
    cells[CELL * hole + 2] = 0;
    return dense;
  }

  /** The keys by dense id, of dense ids below `span` (undefined: none). */
  keysByDense(span: number): (string | undefined)[] {
    const keys = new Array<string | undefined>(span).fill(undefined);
    const cells = this.cells;
    for (let at = 0; at < cells.length; at += CELL) {
      const key = cells[at + 1];
      if (key !== EMPTY) keys[cells[at + 2] as number] = key as string;
    }
    return keys;
  }

  private grow(): void {
    const old = this.cells;
    const size = 2 * (this.mask + 1);
    const cells = emptyCells(size);
    const mask = size - 1;
    for (let from = 0; from < old.length; from += CELL) {
      if (old[from + 1] === EMPTY) continue;
      let cell = (old[from] as number) & mask;
      while (cells[CELL * cell + 1] !== EMPTY) cell = (cell + 1) & mask;
      for (let i = 0; i < CELL; i++) cells[CELL * cell + i] = old[from + i];
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
    // 30 bits: a small integer in every V8 build, never a boxed number
    return (hash + (hash << 15)) & 0x3fff_ffff;
  }
}

/** `size` empty cells (filled in one call: a push per element took 6% of a 1M-fact import). */
function emptyCells(size: number): (number | string)[] {
  return new Array<number | string>(CELL * size).fill(EMPTY);
}
