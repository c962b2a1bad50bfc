import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Provenance } from '../../engine/ontology/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { LevelBackend } from '../../engine/store/level-backend.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';
import { openStoreAt, storeBackends } from '../helpers/store-backends.ts';
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

const mention = (n: number): Provenance => ({ source: `doc-${n}.txt`, timestamp: '2024-03-03', document_id: `doc-${n}`, span: { start: n, end: n + 3 }, quote: `RSF "${n}"` });
/** Document `n` naming the actor. */
const naming = (n: number): GraphWrite => ({ nodes: [{ id: 'rsf', labels: ['Actor'], properties: { label: 'RSF' }, provenance: [mention(n)] }], edges: [] });

describe.each(storeBackends)('a write whose apply to the graph in memory fails after it is durable ($kind)', (backend) => {
  let dir: string;
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves the next write merging onto the stored records, at the next revision: none is lost', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-apply-fails-'));
    const at = await backend.newLocation(dir);
    let store = await openStoreAt(at);
    try {
      await store.writeGraph('t', 'g', naming(1));
      await store.loadGraph('t', 'g');
      const putNode = vi.spyOn(GraphIndex.prototype, 'putNode').mockImplementationOnce(() => {
        throw new Error('out of memory while applying');
      });
      await expect(store.writeGraph('t', 'g', naming(2))).rejects.toThrow('out of memory while applying');
      putNode.mockRestore();
      await store.writeGraph('t', 'g', naming(3));
    } finally {
      await store.close();
    }
    // the graph read back from its records, not from the snapshot the close wrote
    await rm(at.snapshotDir ?? path.join(at.location, 'snapshots'), { recursive: true, force: true });
    store = await openStoreAt(at);
    try {
      const index = await store.loadGraph('t', 'g');
      expect(index.node('rsf')?.provenance.map((entry) => entry.document_id)).toEqual(['doc-1', 'doc-2', 'doc-3']);
      expect((await store.getGraphMeta('t', 'g')).revision).toBe(2);
    } finally {
      await store.close();
    }
  });
});
