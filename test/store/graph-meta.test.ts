import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LevelBackend } from '../../engine/store/level-backend.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';

const actor = (id: string, label = id) => ({ id, labels: ['Actor'], properties: { label } });

describe('a graph\'s meta, kept with the graph in memory (GET /v1/graphs/{id} asks on every call)', () => {
  let temp: TempStore;
  let store: ParleyStore;
  beforeEach(async () => {
    temp = await openTempStore('parley-graph-meta-');
    store = temp.store;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await temp.close();
  });

  /** The meta as LevelDB holds it, read by the store's backend. */
  const stored = () => (store as unknown as { backend: LevelBackend }).backend.getGraphMeta('t', 'g');

  it('is read from LevelDB only until the graph is loaded, and is the stored one after every write, correction and deletion', async () => {
    const reads = vi.spyOn(LevelBackend.prototype, 'getGraphMeta');
    await store.writeGraph('t', 'g', { nodes: [actor('a'), actor('b')], edges: [] });
    await store.loadGraph('t', 'g');
    reads.mockClear();
    const first = await store.getGraphMeta('t', 'g');
    await store.getGraphMeta('t', 'g');
    expect(reads).not.toHaveBeenCalled();
    expect(first).toEqual(await stored());

    await new Promise((resolve) => setTimeout(resolve, 5)); // a later updated_at
    await store.writeGraph('t', 'g', { nodes: [actor('a', 'renamed')], edges: [] });
    const written = await store.getGraphMeta('t', 'g');
    expect(written).toEqual(await stored());
    expect(written.revision).toBe((first.revision ?? 0) + 1);
    expect(written.updated_at > first.updated_at).toBe(true);

    // a write that changes nothing leaves the meta as it was
    await store.writeGraph('t', 'g', { nodes: [actor('a', 'renamed')], edges: [] });
    expect(await store.getGraphMeta('t', 'g')).toEqual(written);

    await store.correct('t', 'g', { op: 'retract', target: 'b', reason: 'not an actor' }, 'key');
    const corrected = await store.getGraphMeta('t', 'g');
    expect(corrected).toEqual(await stored());
    expect(corrected.revision).toBe((written.revision ?? 0) + 1);

    reads.mockClear();
    await store.getGraphMeta('t', 'g');
    expect(reads).not.toHaveBeenCalled();

    await store.deleteGraph('t', 'g');
    await expect(store.getGraphMeta('t', 'g')).rejects.toMatchObject({ code: 'graph_not_found' });
    await store.createGraph('t', 'g');
    expect(await store.getGraphMeta('t', 'g')).toEqual(await stored());
  });
});
