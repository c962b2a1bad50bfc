import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../engine/errors.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';
import { deriveNodeId } from '../../engine/store/ids.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { exportJsonLines, graphWriteFromJsonLines } from '../../engine/store/transfer.ts';
import { levelBackend, storeBackends, type StoreBackendCase, type StoreOpener } from '../helpers/store-backends.ts';

let dir: string;
let store: ParleyStore;
/** Opens the store of the test again, on its backend. */
let reopen: StoreOpener;

/** Each test of the describe block a new store on `backend`. */
function storeEach(backend: StoreBackendCase): void {
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-store-'));
    reopen = await backend.newStore(dir);
    store = await reopen();
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
}

/** Another new store on `backend`, its local files in `sub` of the test's folder. */
async function openAnother(backend: StoreBackendCase, sub: string, options: { cacheFacts: number }): Promise<ParleyStore> {
  return (await backend.newStore(path.join(dir, sub)))(options);
}

const provenance = (start: number) => [{ source: 'doc.txt', timestamp: '2024-03-03', span: { start, end: start + 3 }, quote: 'RSF' }];

const sudan: GraphWrite = {
  nodes: [
    { id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces', actor_type: 'armed_group', role: 'party', aliases: ['RSF'] }, provenance: provenance(0) },
    { id: 'saf', labels: ['Actor'], properties: { label: 'Sudanese Armed Forces', actor_type: 'armed_forces', role: 'party' } },
    { id: 'c1', labels: ['Claim'], properties: { type: 'RedLine', text: 'never accept a ceasefire', speaker: 'saf' } },
  ],
  edges: [
    { type: 'ASSERTS', from: 'saf', to: 'c1', confidence: 0.9 },
    { type: 'TARGETS', from: 'c1', to: 'rsf' },
  ],
};

describe.each(storeBackends)('ParleyStore graphs ($kind)', (backend) => {
  storeEach(backend);
  it('writes atomically into indexes and restores them after reopening', async () => {
    const summary = await store.writeGraph('t1', 'sudan', sudan);
    expect(summary).toMatchObject({ nodes_created: 3, edges_created: 2, nodes_updated: 0 });
    const index = await store.loadGraph('t1', 'sudan');
    expect([...index.nodesWithLabel('Actor')].sort()).toEqual(['rsf', 'saf']);
    expect([...index.nodesWithProperty('type', 'RedLine')]).toEqual(['c1']);
    expect(index.edgesOf('saf', 'out', ['ASSERTS']).map((e) => e.to)).toEqual(['c1']);
    expect(index.edgesOf('rsf', 'in').map((e) => e.type)).toEqual(['TARGETS']);

    await store.close();
    store = await reopen();
    const reloaded = await store.loadGraph('t1', 'sudan');
    expect(reloaded.nodeCount).toBe(3);
    expect(reloaded.edgeCount).toBe(2);
    expect(reloaded.node('rsf')).toEqual(index.node('rsf'));
    expect(reloaded.edgesOf('c1', 'out')[0].to).toBe('rsf');
  });

  it('several writes in one batch leave what they leave written one by one: records, counts per write, iteration order', async () => {
    const later: GraphWrite = {
      nodes: [
        { id: 'saf', labels: ['Actor'], properties: { label: 'Sudanese Armed Forces', actor_type: 'unknown', aliases: ['SAF'] }, provenance: provenance(20) },
        { id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces', aliases: ['Janjaweed successor'] }, provenance: provenance(30) },
        { id: 'c2', labels: ['Claim'], properties: { type: 'Demand', text: 'withdraw', speaker: 'rsf' } },
      ],
      edges: [{ type: 'ASSERTS', from: 'rsf', to: 'c2' }, { type: 'TARGETS', from: 'c1', to: 'rsf', provenance: provenance(40) }],
    };
    // the same content again changes nothing, in a batch as alone
    const writes = [sudan, later, sudan];
    const oneByOne = [];
    for (const write of writes) oneByOne.push(await store.writeGraph('t1', 'one', write));
    const together = await store.writeGraphs('t1', 'together', writes);
    const counts = ({ node_ids: _n, edge_ids: _e, ...rest }: { node_ids: string[]; edge_ids: string[] }) => rest;
    expect(together.map(counts)).toEqual(oneByOne.map(counts));
    expect(together.map((summary) => summary.node_ids)).toEqual(oneByOne.map((summary) => summary.node_ids));
    expect(together[1]).toMatchObject({ nodes_created: 1, nodes_updated: 2, edges_created: 1, edges_updated: 1 });
    expect(together[2]).toMatchObject({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });

    const one = await store.loadGraph('t1', 'one');
    const batched = await store.loadGraph('t1', 'together');
    const records = (index: typeof one) => [...index.nodes.values()].map(({ recorded_at: _r, ...node }) => node);
    expect(records(batched)).toEqual(records(one));
    // an updated record keeps its place in the index (as it does after a restart), as a write of its own leaves it
    expect([...batched.nodesWithLabel('Actor')]).toEqual(['rsf', 'saf']);
    expect([...batched.nodesWithLabel('Actor')]).toEqual([...one.nodesWithLabel('Actor')]);
    expect(batched.node('saf')!.properties).toMatchObject({ actor_type: 'armed_forces', aliases: ['SAF'] });

    await store.close();
    store = await reopen();
    const byId = (index: typeof one) => records(index).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(await store.loadGraph('t1', 'together'))).toEqual(byId(await store.loadGraph('t1', 'one')));
  });

  it('puts new edges into the index at the ends they were checked against: nodes of the graph, of the write, updated by it, or created by an earlier write of the batch', async () => {
    const actor = (id: string, label = id) => ({ id, labels: ['Actor'], properties: { label } });
    const opposes = (id: string, from: string, to: string) => ({ id, type: 'OPPOSES', from, to });
    await store.writeGraph('t1', 'g', { nodes: ['a1', 'a2', 'a3', 'a4'].map((id) => actor(id)), edges: [opposes('e1', 'a1', 'a2')] });
    const summaries = await store.writeGraphs('t1', 'g', [
      {
        nodes: [actor('a5'), actor('a1', 'renamed')],
        // to a node of the write, from one it updates, between nodes of the graph, and one id twice
        edges: [opposes('e2', 'a2', 'a5'), opposes('e3', 'a1', 'a3'), opposes('e4', 'a4', 'a3'), opposes('e4', 'a4', 'a3'), opposes('e1', 'a1', 'a2')],
      },
      { nodes: [actor('a6')], edges: [opposes('e5', 'a5', 'a6'), opposes('e6', 'a3', 'a5'), opposes('e7', 'a6', 'a4')] },
    ]);
    expect(summaries.map(({ edges_created, edges_updated }) => [edges_created, edges_updated])).toEqual([[3, 0], [3, 0]]);
    const index = await store.loadGraph('t1', 'g');
    const fromRecords = GraphIndex.fromRecords([...index.nodes.values()], [...index.edges.values()]);
    const adjacency = (graph: GraphIndex) => [...graph.nodes.keys()].map((id) => [id, graph.edgesOf(id, 'out').map((e) => e.id), graph.edgesOf(id, 'in').map((e) => e.id)]);
    expect(adjacency(index)).toEqual(adjacency(fromRecords));
    expect(index.edgesOf('a5', 'in').map((e) => e.id)).toEqual(['e2', 'e6']);
    expect(index.edgesOf('a3', 'in').map((e) => e.id)).toEqual(['e3', 'e4']);
    expect(index.edgesOf('a6', 'both').map((e) => e.id)).toEqual(['e7', 'e5']);
    expect(index.node('a1')!.properties.label).toBe('renamed');
  });

  it('writing the same content twice changes nothing; new provenance merges into the same node', async () => {
    await store.writeGraph('t1', 'g', sudan);
    expect(await store.writeGraph('t1', 'g', sudan)).toMatchObject({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
    const again = await store.writeGraph('t1', 'g', {
      nodes: [{ id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces', aliases: ['Janjaweed successor'] }, provenance: provenance(10) }],
      edges: [],
    });
    expect(again).toMatchObject({ nodes_created: 0, nodes_updated: 1 });
    const rsf = (await store.loadGraph('t1', 'g')).node('rsf')!;
    expect(rsf.provenance.map((p) => p.span?.start)).toEqual([0, 10]);
    expect(rsf.properties.aliases).toEqual(['RSF', 'Janjaweed successor']);
    expect(rsf.properties.actor_type).toBe('armed_group');
  });

  it('never lets a value saying "not known" replace a known one, in a later write or the same one', async () => {
    await store.writeGraph('t1', 'g', {
      nodes: [
        { id: 'a1', labels: ['Actor'], properties: { label: 'X', role: 'mediator', actor_type: 'state' } },
        { id: 'l1', labels: ['Location'], properties: { label: 'Kosti', location_type: 'city' } },
      ],
      edges: [],
    });
    const unknowns = await store.writeGraph('t1', 'g', {
      nodes: [
        { id: 'a1', labels: ['Actor'], properties: { label: 'X', role: 'unknown', actor_type: 'unknown' } },
        { id: 'l1', labels: ['Location'], properties: { label: 'Kosti', location_type: 'other' } },
      ],
      edges: [],
    });
    expect(unknowns).toMatchObject({ nodes_created: 0, nodes_updated: 0 });
    const index = await store.loadGraph('t1', 'g');
    expect(index.node('a1')!.properties).toEqual({ label: 'X', role: 'mediator', actor_type: 'state' });
    expect(index.node('l1')!.properties.location_type).toBe('city');

    // A known value still replaces another known value; "unknown" still fills a node that had nothing.
    await store.writeGraph('t1', 'g', { nodes: [{ id: 'a1', labels: ['Actor'], properties: { label: 'X', role: 'party', actor_type: 'unknown' } }], edges: [] });
    expect(index.node('a1')!.properties).toMatchObject({ role: 'party', actor_type: 'state' });
    await store.writeGraph('t1', 'g', {
      nodes: [
        { id: 'a2', labels: ['Actor'], properties: { label: 'Y', role: 'spoiler' } },
        { id: 'a2', labels: ['Actor'], properties: { label: 'Y', role: 'unknown', actor_type: 'unknown' } },
      ],
      edges: [],
    });
    expect(index.node('a2')!.properties).toEqual({ label: 'Y', role: 'spoiler', actor_type: 'unknown' });
  });

  it('derives the same id from the same content, and keeps parallel edges distinct', async () => {
    const write: GraphWrite = {
      nodes: [
        { labels: ['Actor'], properties: { label: 'M23' } },
        { labels: ['Event'], properties: { event_type: 'ASSAULT', date: '2024-02-01', label: 'attack on Sake' } },
      ],
      edges: [],
    };
    const summary = await store.writeGraph('t1', 'g', write);
    const [actor, event] = summary.node_ids;
    expect(actor).toBe(deriveNodeId('Actor', { label: 'm23' }));
    const edges = await store.writeGraph('t1', 'g', {
      nodes: [],
      edges: [
        { type: 'PARTICIPATES_IN', from: actor, to: event, properties: { role: 'perpetrator' } },
        { type: 'PARTICIPATES_IN', from: actor, to: event, properties: { role: 'participant' } },
      ],
    });
    expect(new Set(edges.edge_ids).size).toBe(2);
    expect((await store.loadGraph('t1', 'g')).edgesOf(actor, 'out')).toHaveLength(2);
  });

  it('rejects a batch with one bad record and leaves the graph unchanged', async () => {
    await store.writeGraph('t1', 'g', sudan);
    const bad: GraphWrite = {
      nodes: [
        { id: 'new1', labels: ['Actor'], properties: { label: 'New Actor', actor_type: 'armed_group' } },
        { id: 'new2', labels: ['Actor'], properties: { label: 'Bad', actor_type: 'warlord' } },
      ],
      edges: [],
    };
    await expect(store.writeGraph('t1', 'g', bad)).rejects.toThrow(/actor_type must be one of state, government/);
    const badEdge: GraphWrite = { nodes: [], edges: [{ type: 'ASSERTS', from: 'c1', to: 'rsf' }] };
    await expect(store.writeGraph('t1', 'g', badEdge)).rejects.toThrow(/ASSERTS goes from Actor to Claim/);
    const dangling: GraphWrite = { nodes: [], edges: [{ type: 'OPPOSES', from: 'rsf', to: 'nobody' }] };
    await expect(store.writeGraph('t1', 'g', dangling)).rejects.toBeInstanceOf(ValidationError);
    const index = await store.loadGraph('t1', 'g');
    expect(index.nodeCount).toBe(3);
    expect(index.edgeCount).toBe(2);
    await store.close();
    store = await reopen();
    expect((await store.loadGraph('t1', 'g')).nodeCount).toBe(3);
  });

  it('takes lists and maps nested up to the depth limit and refuses one level more, in properties and in provenance', async () => {
    // `depth` levels of maps (in lists where `inList`) around a scalar
    const nest = (depth: number, inList = false): unknown => (depth === 0 ? 1 : inList ? [nest(depth - 1, inList)] : { x: nest(depth - 1, inList) });
    const node = (id: string, extra: unknown, note?: unknown) => ({
      id, labels: ['Actor'], properties: { label: id, actor_type: 'armed_group', extra } as GraphWrite['nodes'][number]['properties'],
      provenance: [{ source: 's', timestamp: '2024-01-01', span: { start: 0, end: 1 }, ...(note === undefined ? {} : { note }) }] as never,
    });
    for (const inList of [false, true]) {
      // a property's value counts from 1; a provenance entry's value from 3 (the list, the entry)
      await store.writeGraph('t1', 'g', { nodes: [node('deep', nest(16, inList), nest(14, inList)), node('flat', [1, 2], 'x')], edges: [] });
      await expect(store.writeGraph('t1', 'g', { nodes: [node('deeper', nest(17, inList))], edges: [] })).rejects.toMatchObject({ code: 'property_depth', details: { field: 'extra' } });
      await expect(store.writeGraph('t1', 'g', { nodes: [node('deeper', 1, nest(15, inList))], edges: [] })).rejects.toMatchObject({ code: 'property_depth', details: { field: 'provenance' } });
    }
    expect((await store.loadGraph('t1', 'g')).node('deeper')).toBeUndefined();
  });

  it('keeps tenants apart: same graph id, separate data', async () => {
    await store.writeGraph('t1', 'sudan', sudan);
    await store.writeGraph('t2', 'sudan', { nodes: [{ id: 'x', labels: ['Issue'], properties: { label: 'Darfur' } }], edges: [] });
    expect((await store.loadGraph('t1', 'sudan')).nodeCount).toBe(3);
    expect((await store.loadGraph('t2', 'sudan')).nodeCount).toBe(1);
    expect((await store.listGraphs('t2')).items.map((g) => g.graph_id)).toEqual(['sudan']);
    await expect(store.loadGraph('t3', 'sudan')).rejects.toThrow(/does not exist/);
  });

  it('deletes a graph so that a new graph of the same name starts empty', async () => {
    await store.writeGraph('t1', 'g', sudan);
    await store.deleteGraph('t1', 'g');
    expect(await store.graphExists('t1', 'g')).toBe(false);
    await store.writeGraph('t1', 'g', { nodes: [{ id: 'only', labels: ['Issue'], properties: { label: 'water' } }], edges: [] });
    expect((await store.loadGraph('t1', 'g')).nodeCount).toBe(1);
  });

  it('export then import gives an identical graph', async () => {
    await store.writeGraph('t1', 'a', sudan);
    const exportOf = async (graph: string) => {
      let text = '';
      for await (const chunk of exportJsonLines(await store.loadGraph('t1', graph))) text += chunk;
      return text;
    };
    const exported = await exportOf('a');
    await store.writeGraph('t1', 'b', await graphWriteFromJsonLines(exported));
    const reexported = await exportOf('b');
    expect(reexported).toBe(exported);
  });
});

describe.each(storeBackends)('ParleyStore graph cache ($kind)', (backend) => {
  storeEach(backend);
  it('keeps the loaded graphs within their facts bound, dropping the least recently used, and loads a dropped graph again whole', async () => {
    // sudan is 3 nodes + 10 properties + 2 edges = 15 facts: two fit in 40, three do not
    const bounded = await openAnother(backend, 'bounded', { cacheFacts: 40 });
    try {
      for (const graph of ['a', 'b', 'c']) await bounded.writeGraph('t1', graph, sudan);
      expect(bounded.loadedGeneration('t1', 'a')).toBeUndefined();
      expect(bounded.loadedGeneration('t1', 'b')).toBeDefined();
      expect((await bounded.loadGraph('t1', 'b')).factCount).toBe(15);
      // b was used after c: loading a drops c, the least recently used
      const a = await bounded.loadGraph('t1', 'a');
      expect([a.nodeCount, a.edgeCount, a.node('c1')?.properties.type]).toEqual([3, 2, 'RedLine']);
      expect(bounded.loadedGeneration('t1', 'c')).toBeUndefined();
      expect(bounded.loadedGeneration('t1', 'b')).toBeDefined();
      // a graph larger than the bound stays loaded alone while in use
      const single = await openAnother(backend, 'single', { cacheFacts: 10 });
      try {
        await single.writeGraph('t1', 'big', sudan);
        expect((await single.loadGraph('t1', 'big')).nodeCount).toBe(3);
        expect(single.loadedGeneration('t1', 'big')).toBeDefined();
      } finally {
        await single.close();
      }
    } finally {
      await bounded.close();
    }
  });
});

describe.each(storeBackends)('ParleyStore graph cache during a write ($kind)', (backend) => {
  storeEach(backend);
  it('a write whose graph another load evicted while the write took turns still commits, and the graph loads whole', async () => {
    const bounded = await openAnother(backend, 'evicted-mid-write', { cacheFacts: 20 });
    try {
      await bounded.writeGraph('t1', 'a', sudan);
      await bounded.writeGraph('t1', 'b', sudan); // a is dropped: 30 facts do not fit in 20
      const big: GraphWrite = { nodes: Array.from({ length: 20_000 }, (_, i) => ({ id: `actor${i}`, labels: ['Actor'], properties: { label: `Actor ${i}`, actor_type: 'armed_group' } })), edges: [] };
      const writing = bounded.writeGraph('t1', 'b', big);
      // loading a while b's write takes its turns drops b, the least recently used
      await bounded.loadGraph('t1', 'a');
      expect(bounded.loadedGeneration('t1', 'b')).toBeUndefined();
      expect((await writing).nodes_created).toBe(20_000);
      expect((await bounded.loadGraph('t1', 'b')).nodeCount).toBe(20_003);
    } finally {
      await bounded.close();
    }
  });
});

describe.each(storeBackends)('ParleyStore keys and workspaces ($kind)', (backend) => {
  storeEach(backend);
  it('authenticates live keys only, comparing hashes', async () => {
    const { record, secret } = await store.createKey({ tenant: 'acme', scope: 'read' });
    expect((await store.authenticate(secret))?.tenant).toBe('acme');
    expect(await store.authenticate(secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a'))).toBeUndefined();
    expect(JSON.stringify(await store.listKeys())).not.toContain(secret);
    await store.revokeKey(record.key_id);
    expect(await store.authenticate(secret)).toBeUndefined();
  });

  it('once a secret has matched, refuses any other presented with its key id, longer, shorter or of the same length', async () => {
    const { secret } = await store.createKey({ tenant: 'acme', scope: 'read' });
    const operators = 'an-operators-own-secret-0123456789';
    await store.createKey({ tenant: 'acme', scope: 'write', secret: operators });
    for (const right of [secret, operators]) {
      expect((await store.authenticate(right))?.tenant).toBe('acme');
      expect((await store.authenticate(right))?.tenant).toBe('acme');
      const lastChanged = right.slice(0, -1) + (right.endsWith('a') ? 'b' : 'a');
      for (const wrong of [lastChanged, right + 'a', right.slice(0, -1)]) expect(await store.authenticate(wrong)).toBeUndefined();
      expect((await store.authenticate(right))?.tenant).toBe('acme');
    }
  });

  it('bootstraps one admin key, or takes the one from the environment', async () => {
    const first = await store.bootstrapAdminKey();
    expect(first.created).toBe(true);
    expect((await store.authenticate(first.secret!))?.admin).toBe(true);
    expect((await store.bootstrapAdminKey()).created).toBe(false);
    const fromEnv = await store.bootstrapAdminKey('my-own-admin-secret-0123456789');
    expect(fromEnv.created).toBe(true);
    expect((await store.authenticate('my-own-admin-secret-0123456789'))?.admin).toBe(true);
  });

  it('finds the workspaces naming a graph directly, and forgets a deleted one', async () => {
    const lean = await store.createWorkspace('acme', { name: 'lean', domain: 'armed', scale: 'macro', tier: 'essential', graph_id: 'sudan' });
    const rich = await store.createWorkspace('acme', { name: 'rich', domain: 'armed', scale: 'macro', tier: 'standard', graph_id: 'sudan' });
    await store.createWorkspace('acme', { name: 'other graph', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'drc' });
    await store.createWorkspace('other', { name: 'other tenant', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' });
    const ids = async () => (await store.workspacesOfGraph('acme', 'sudan')).map((w) => w.id).sort();
    expect(await ids()).toEqual([lean.id, rich.id].sort());
    expect(await store.workspacesOfGraph('acme', 'sudan')).toContainEqual(rich);
    expect(await store.workspacesOfGraph('acme', 'nothing')).toEqual([]);
    await store.deleteWorkspace('acme', lean.id);
    expect(await ids()).toEqual([rich.id]);
  });
});

// LevelDB's own key layout, brought up to date on open
describe('ParleyStore keys and workspaces on LevelDB, from earlier layouts', () => {
  storeEach(levelBackend);

  it('indexes by graph the workspaces of a store written before the index existed', async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
    // The earlier layout: workspace records only, no layout version.
    const old = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await old.open();
    const workspace = { id: 'ws_old', name: 'old', domain: 'armed', scale: 'macro', tier: 'essential', graph_id: 'sudan', created_at: '2024-01-01T00:00:00.000Z' };
    await old.batch([
      { type: 'put', key: ['m', 'ws', 'acme', 'ws_old'].join('\u0000'), value: JSON.stringify(workspace) },
      { type: 'put', key: ['m', 'graph', 'acme', 'sudan'].join('\u0000'), value: JSON.stringify({ graph_id: 'sudan', created_at: workspace.created_at, updated_at: workspace.created_at, generation: 'abc' }) },
    ]);
    await old.close();

    store = await reopen();
    expect(await store.workspacesOfGraph('acme', 'sudan')).toEqual([workspace]);
    expect(await store.getWorkspace('acme', 'ws_old')).toEqual(workspace);
    await store.deleteWorkspace('acme', 'ws_old');
    await store.close();
    store = await reopen();
    expect(await store.workspacesOfGraph('acme', 'sudan')).toEqual([]);
  });

  it('writes one key per record, and clears the index keys of a layout-2 store on open', async () => {
    await store.writeGraph('acme', 'sudan', sudan);
    await store.close();
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    const meta = JSON.parse((await db.get(['m', 'graph', 'acme', 'sudan'].join('\u0000')))!) as { generation: string };
    const prefix = ['g', 'acme', 'sudan', meta.generation, ''].join('\u0000');
    const dataKeys = async () => (await db.keys({ gte: prefix, lt: prefix.slice(0, -1) + '\u0001' }).all()).map((key) => key.slice(prefix.length).split('\u0000')[0]);
    expect((await dataKeys()).sort()).toEqual([...sudan.nodes.map(() => 'n'), ...sudan.edges.map(() => 'e')].sort());
    // what layout 2 also wrote with every record
    await db.batch([
      { type: 'put', key: prefix + ['o', 'rsf', 'ASSERTS', 'e1'].join('\u0000'), value: '' },
      { type: 'put', key: prefix + ['i', 'c1', 'ASSERTS', 'e1'].join('\u0000'), value: '' },
      { type: 'put', key: prefix + ['l', 'Actor', 'rsf'].join('\u0000'), value: '' },
      { type: 'put', key: ['m', 'layout'].join('\u0000'), value: '2' },
    ]);
    await db.close();

    store = await reopen();
    const graph = await store.loadGraph('acme', 'sudan');
    expect(graph.nodeCount).toBe(sudan.nodes.length);
    expect(graph.edgeCount).toBe(sudan.edges.length);
    await store.close();
    await db.open();
    expect(await dataKeys()).not.toContain('o');
    expect(await dataKeys()).not.toContain('i');
    expect(await dataKeys()).not.toContain('l');
    expect(await db.get(['m', 'layout'].join('\u0000'))).toBe('4');
    await db.close();
    store = await reopen();
  });

  it('re-encodes the JSON records of a layout-3 store on open, a crash part way through included, and answers the same', async () => {
    await store.writeGraph('acme', 'sudan', sudan);
    await store.writeGraph('acme', 'sudan', { nodes: [{ id: 'extra', labels: ['Actor', 'Second'], properties: { label: 'Extra', actor_type: 'armed_group' }, confidence: 0.4 }], edges: [] });
    const exportOf = async () => {
      let text = '';
      for await (const chunk of exportJsonLines(await store.loadGraph('acme', 'sudan'))) text += chunk;
      return text;
    };
    const before = await exportOf();
    const index = await store.loadGraph('acme', 'sudan');
    const records = [...[...index.nodes.values()].map((node) => ['n', node] as const), ...[...index.edges.values()].map((edge) => ['e', edge] as const)];
    await store.close();
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    const meta = JSON.parse((await db.get(['m', 'graph', 'acme', 'sudan'].join('\u0000')))!) as { generation: string };
    const prefix = ['g', 'acme', 'sudan', meta.generation, ''].join('\u0000');
    const recordKeys = records.map(([kind, record]) => prefix + kind + '\u0000' + record.id);
    // layout 3 kept each record as its JSON; the last one is left as layout 4 wrote it (a re-encoding cut short by a crash)
    await db.batch([
      ...records.slice(0, -1).map(([, record], i) => ({ type: 'put' as const, key: recordKeys[i], value: JSON.stringify(record) })),
      { type: 'put', key: ['m', 'layout'].join('\u0000'), value: '3' },
    ]);
    await db.close();
    // without the snapshot, the graph is built from its records
    await rm(path.join(dir, 'snapshots'), { recursive: true, force: true });

    store = await reopen();
    expect(await exportOf()).toBe(before);
    const reloaded = await store.loadGraph('acme', 'sudan');
    for (const [kind, record] of records) expect(kind === 'n' ? reloaded.node(record.id) : reloaded.edge(record.id)).toStrictEqual(record);
    await store.close();
    await db.open();
    expect(await db.get(['m', 'layout'].join('\u0000'))).toBe('4');
    for (const value of await db.getMany(recordKeys)) expect(value?.startsWith('{')).toBe(false);
    await db.close();
    store = await reopen();
    expect(await exportOf()).toBe(before);
  });

  it('refuses a store of a later layout (a downgrade), leaving it as it was and the directory free', async () => {
    await store.writeGraph('acme', 'sudan', sudan);
    await store.close();
    const layoutKey = ['m', 'layout'].join('\u0000');
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.put(layoutKey, '5');
    await db.close();
    await expect(reopen()).rejects.toThrow(/layout is version 5, newer than this version's 4/);
    // its LevelDB lock released: the directory opens again
    await db.open();
    expect(await db.get(layoutKey)).toBe('5');
    await db.put(layoutKey, '4');
    await db.close();
    store = await reopen();
    expect((await store.loadGraph('acme', 'sudan')).nodeCount).toBe(sudan.nodes.length);
  });
});

describe.each(storeBackends)('ParleyStore workspace pages ($kind)', (backend) => {
  storeEach(backend);

  it('paginates workspaces per tenant', async () => {
    for (let i = 0; i < 5; i++) await store.createWorkspace('acme', { name: `w${i}`, domain: 'armed', scale: 'macro', tier: 'full' });
    await store.createWorkspace('other', { name: 'x', domain: 'legal', scale: 'micro', tier: 'essential' });
    const first = await store.listWorkspaces('acme', 2);
    expect(first.items).toHaveLength(2);
    const second = await store.listWorkspaces('acme', 2, first.next_page_token);
    const third = await store.listWorkspaces('acme', 2, second.next_page_token);
    expect(third.next_page_token).toBeUndefined();
    const names = [...first.items, ...second.items, ...third.items].map((w) => w.name).sort();
    expect(names).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
  });
});

describe.each(storeBackends)('ParleyStore keys ($kind)', (backend) => {
  storeEach(backend);
  it('a key revoked while requests with it are being authenticated is refused from the moment the revocation returns', async () => {
    const { record, secret } = await store.createKey({ tenant: 't1', scope: 'read' });
    expect(await store.authenticate(secret)).toMatchObject({ key_id: record.key_id }); // now kept in memory
    for (let round = 0; round < 5; round++) {
      const other = await store.createKey({ tenant: 't1', scope: 'read' });
      // reads of the record race the revocation's write: none may leave the live record behind
      let revoked = false;
      const revoking = store.revokeKey(other.record.key_id).then(() => (revoked = true));
      const racing: Promise<unknown>[] = [];
      while (!revoked) {
        racing.push(store.authenticate(other.secret));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all([revoking, ...racing]);
      expect(await store.authenticate(other.secret)).toBeUndefined();
    }
    await store.revokeKey(record.key_id);
    expect(await store.authenticate(secret)).toBeUndefined();
    // and after a restart, from the backend
    await store.close();
    store = await reopen();
    expect(await store.authenticate(secret)).toBeUndefined();
  });
});
