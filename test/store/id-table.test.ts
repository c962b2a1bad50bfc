import { describe, expect, it } from 'vitest';
import { IdTable } from '../../engine/store/id-table.ts';

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('IdTable', () => {
  it('answers as a Map does through additions, repeats and deletions, across growth and long probe runs', () => {
    const random = lcg(11);
    const table = new IdTable();
    const model = new Map<string, number>();
    let next = 0;
    // few distinct ids against many operations: the table fills, deletions shift runs back, ids come again
    for (let step = 0; step < 60_000; step++) {
      const size = step < 30_000 ? 5_000 : 300;
      // ids as a parsed body gives them: fresh strings, equal in content to the stored ones
      const id = JSON.parse(JSON.stringify(`n${Math.floor(random() * size)}`)) as string;
      const draw = random();
      if (draw < 0.55) {
        const had = model.get(id) ?? -1;
        expect(table.add(id, next)).toBe(had);
        if (had < 0) model.set(id, next++);
      } else if (draw < 0.8) {
        expect(table.delete(id)).toBe(model.get(id) ?? -1);
        model.delete(id);
      } else {
        expect(table.get(id)).toBe(model.get(id) ?? -1);
      }
      expect(table.size).toBe(model.size);
    }
    for (let i = 0; i < 5_000; i++) expect(table.get(`n${i}`)).toBe(model.get(`n${i}`) ?? -1);
    for (let dense = 0; dense < next; dense++) {
      const id = table.keyAt(dense);
      if (id === undefined) expect([...model.values()]).not.toContain(dense);
      else expect(model.get(id)).toBe(dense);
    }
  });

  it('tells apart ids that differ in any code unit, the empty id and long ones included', () => {
    const table = new IdTable();
    const ids = ['', 'a', 'b', 'ab', 'ba', 'é', 'e\u0301', '😀', 'x'.repeat(256), 'x'.repeat(255) + 'y', 'n1', 'n10', 'n01'];
    ids.forEach((id, dense) => expect(table.add(id, dense)).toBe(-1));
    ids.forEach((id, dense) => expect(table.get(id)).toBe(dense));
    expect(table.get('x'.repeat(254))).toBe(-1);
    expect(table.add('ab', 99)).toBe(3);
    expect(table.size).toBe(ids.length);
  });

  it('given keys unhashed, in parts, answers as one filled by add does once first looked up, and keeps growing', () => {
    const keys = Array.from({ length: 3_000 }, (_, i) => `e${i}`);
    const table = new IdTable();
    table.appendUnhashed([]);
    table.appendUnhashed(keys.slice(0, 1_000));
    table.appendUnhashed(keys.slice(1_000));
    expect(table.size).toBe(3_000);
    expect(table.keyAt(2_999)).toBe('e2999');
    keys.forEach((key, dense) => expect(table.get(key)).toBe(dense));
    expect(table.get('e3000')).toBe(-1);
    expect(table.add('e5', 7)).toBe(5);
    // past the size it was made for: the cells grow as an added table's do
    for (let dense = 3_000; dense < 5_000; dense++) expect(table.add(`e${dense}`, dense)).toBe(-1);
    expect(table.delete('e0')).toBe(0);
    for (let dense = 1; dense < 5_000; dense++) expect(table.get(`e${dense}`)).toBe(dense);
    expect(table.get('e0')).toBe(-1);
    // hashed now (a lookup made its cells): more keys unhashed would not be found
    expect(() => table.appendUnhashed(['f'])).toThrow();
    const empty = new IdTable();
    empty.appendUnhashed([]);
    expect(empty.get('a')).toBe(-1);
  });
});
