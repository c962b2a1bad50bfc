import { spawn } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { decodeGraph, encodeGraph, readSnapshot, snapshotFile, writeSnapshot } from '../../engine/store/snapshot.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { ParleyStore, type GraphWrite } from '../../engine/store/store.ts';

const WRITER = fileURLToPath(new URL('../fixtures/snapshot-writer.ts', import.meta.url));
const NODES = 30_000;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-snapshot-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const graph: GraphWrite = {
  nodes: [
    { id: 'rsf', labels: ['Actor'], properties: { label: 'Rapid Support Forces' } },
    { id: 'saf', labels: ['Actor'], properties: { label: 'Sudanese Armed Forces' } },
  ],
  edges: [{ type: 'OPPOSES', from: 'rsf', to: 'saf' }],
};

const storeDir = () => path.join(dir, 'store');
const file = () => snapshotFile(path.join(storeDir(), 'snapshots'), 't1', 'g');

/** A snapshot file of the given revision holding the graph plus a node the records do not have: loading it shows. */
async function plantSnapshot(revision: number, generation: string): Promise<void> {
  const index = GraphIndex.fromRecords([], []);
  const store = await ParleyStore.open(path.join(dir, 'scratch'));
  await store.writeGraph('t1', 'x', graph);
  for (const node of (await store.loadGraph('t1', 'x')).nodes.values()) index.putNode(node);
  index.putNode({ id: 'marker', labels: ['Actor'], properties: {}, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' });
  await store.close();
  await writeSnapshot(file(), generation, revision, index);
}

describe('graph snapshots', () => {
  it('answers from the snapshot of the current revision, and from the records when it is stale or corrupt', async () => {
    let store = await ParleyStore.open(storeDir());
    await store.writeGraph('t1', 'g', graph);
    const { generation } = await store.getGraphMeta('t1', 'g');
    await store.close();
    // closing wrote the snapshot of what the records hold
    expect((await readFile(file())).length).toBeGreaterThan(0);

    await plantSnapshot(0, generation);
    store = await ParleyStore.open(storeDir());
    expect((await store.loadGraph('t1', 'g')).node('marker')).toBeDefined();
    await store.close();

    // one byte changed in the body: the checksum fails, the records answer
    await plantSnapshot(0, generation);
    const content = await readFile(file());
    content[content.length - 5] ^= 1;
    await writeFile(file(), content);
    store = await ParleyStore.open(storeDir());
    let loaded = await store.loadGraph('t1', 'g');
    expect([loaded.node('marker'), loaded.nodeCount, loaded.edgeCount]).toEqual([undefined, 2, 1]);
    await store.close();

    // a write after the snapshot: its revision is stale, the records answer, with the write
    await plantSnapshot(0, generation);
    store = await ParleyStore.open(storeDir());
    await store.writeGraph('t1', 'g', { nodes: [{ id: 'igad', labels: ['Actor'], properties: { label: 'IGAD' } }], edges: [] });
    await store.close();
    await plantSnapshot(0, generation);
    store = await ParleyStore.open(storeDir());
    loaded = await store.loadGraph('t1', 'g');
    expect([loaded.node('marker'), loaded.node('igad')?.properties.label, loaded.nodeCount]).toEqual([undefined, 'IGAD', 3]);
    await store.close();

    // a deleted graph takes its snapshot along; a new graph of the same name starts empty
    store = await ParleyStore.open(storeDir());
    await store.deleteGraph('t1', 'g');
    await expect(readFile(file())).rejects.toThrow();
    await store.close();
  });

  it('the binary body gives back every record exactly, members in their order, whatever the values', () => {
    const recorded_at = '2024-03-03T00:00:00.000Z';
    const odd = JSON.parse('{"__proto__": {"polluted": true}, "a\\u0000b": 1}') as Record<string, never>;
    const nodes: NodeRecord[] = [
      { id: 'rsf', labels: ['Actor', 'Extra'], properties: { label: 'Rapid Support Forces', aliases: ['RSF', 'الدعم السريع'] }, confidence: 0.75, provenance: [{ source: 'doc.txt', timestamp: '2024-03-03', span: { start: 0, end: 3 } }], recorded_at },
      { id: 'n\u00e9', labels: ['Claim'], properties: { type: 'RedLine', text: 'lone \ud800 surrogate and emoji 😀', n: -0, big: 2 ** 40, negative: -7, float: 0.1, max: Number.MAX_VALUE, empty: '', none: null, yes: true, no: false, nested: [[1, [2, { deep: [] }]], {}] }, confidence: 1, provenance: [], recorded_at },
      { id: 'odd', labels: ['Actor'], properties: odd, confidence: 0, provenance: [], recorded_at },
      // many distinct shapes: past the compiled ones, maps are written name by name
      ...Array.from({ length: 300 }, (_, i): NodeRecord => ({ id: `s${i}`, labels: ['Issue'], properties: { [`key${i}`]: i, label: `issue ${i}` }, confidence: 1, provenance: [], recorded_at })),
    ];
    const edges: EdgeRecord[] = [{ id: 'e1', type: 'OPPOSES', from: 'rsf', to: 'odd', properties: { dropped: undefined, kept: 'x' } as never, confidence: 0.5, provenance: [], recorded_at }];
    const decoded = decodeGraph(encodeGraph(nodes, edges, nodes.length, edges.length));
    // JSON text compares member order too; -0 and the __proto__ member need their own checks
    expect(JSON.stringify({ nodes: decoded.nodes, edges: decoded.edges })).toBe(JSON.stringify({ nodes, edges }));
    // each edge's ends as positions among the nodes
    expect([...decoded.ends]).toEqual([0, 2]);
    expect(Object.is(decoded.nodes[1].properties.n, -0)).toBe(true);
    expect(Object.getPrototypeOf(decoded.nodes[2].properties)).toBe(Object.prototype);
    expect(Object.keys(decoded.nodes[2].properties)).toEqual(['__proto__', 'a\u0000b']);
    expect(decoded.edges[0].properties).toEqual({ kept: 'x' });
    // a body cut short or overlong is refused, never half read
    const body = encodeGraph(nodes, edges, nodes.length, edges.length);
    expect(() => decodeGraph(body.subarray(0, body.length - 1))).toThrow(RangeError);
    expect(() => decodeGraph(Buffer.concat([body, Buffer.from([0])]))).toThrow(RangeError);
  });

  it('reads the file a chunk at a time, saying so after each chunk, into the records written', async () => {
    const recorded_at = '2024-03-03T00:00:00.000Z';
    const nodes = Array.from({ length: 300 }, (_, i): NodeRecord => ({ id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}` }, confidence: 1, provenance: [], recorded_at }));
    const edges = nodes.slice(1).map((node, i): EdgeRecord => ({ id: `e${i}`, type: 'OPPOSES', from: nodes[i].id, to: node.id, properties: {}, confidence: 1, provenance: [], recorded_at }));
    await writeSnapshot(file(), 'gen', 3, GraphIndex.fromRecords(nodes, edges));
    const { size } = await stat(file());
    const chunkBytes = 1_000;
    expect(size % chunkBytes).not.toBe(0); // (the last chunk is a short one)
    let progress = 0;
    const read = await readSnapshot(file(), 'gen', 3, () => progress++, chunkBytes);
    // (the decode's pauses say so too)
    expect(progress).toBeGreaterThanOrEqual(Math.ceil(size / chunkBytes));
    const records = (graph: GraphIndex | undefined) => JSON.stringify({ nodes: [...(graph?.nodes.values() ?? [])], edges: [...(graph?.edges.values() ?? [])] });
    expect(records(read)).toBe(JSON.stringify({ nodes, edges }));
    expect(records(await readSnapshot(file(), 'gen', 3))).toBe(records(read));
  });

  it('a process killed while writing a snapshot leaves a store whose next start answers correctly', async () => {
    for (const [round, delayMs] of [[0, 0], [1, 15], [2, 60]] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', WRITER, storeDir(), String(NODES), String(round)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const finished = await new Promise<string>((resolve, reject) => {
        child.on('error', reject);
        child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          if (chunk.includes('snapshotting')) setTimeout(() => child.kill('SIGKILL'), delayMs);
        });
      });
      expect(['SIGKILL', 'exit 0']).toContain(finished);
      const store = await ParleyStore.open(storeDir());
      const index = await store.loadGraph('tenant', 'snap');
      // every round's write is durable before the close: all of them are there, whole
      expect(index.nodeCount).toBe(NODES * (round + 1));
      expect(index.edgeCount).toBe((NODES - 1) * (round + 1));
      for (let r = 0; r <= round; r++) expect(index.node(`r${r}-a${NODES - 1}`)?.properties.round).toBe(r);
      await store.close();
      expect((await readdir(path.join(storeDir(), 'snapshots'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
  }, 180_000);
});
