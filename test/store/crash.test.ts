import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStoreAt, storeBackends, type StoreLocation } from '../helpers/store-backends.ts';

const WRITER = fileURLToPath(new URL('../fixtures/crash-writer.ts', import.meta.url));
const BATCH = 20_000;
/** Actors whose provenance each batch grows, by this many entries each (their lists in chunks from the first batch on). */
const HUBS = 200;
const HUB_ENTRIES = 8;
let dir: string;

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the writer, waits until `committedBatches` batches are durable, then SIGKILLs it `delayMs` later. */
async function killMidImport(store: StoreLocation, committedBatches: number, delayMs: number, hubs = false): Promise<number> {
  const args = [store.location, String(BATCH), ...(store.snapshotDir ? [store.snapshotDir] : []), ...(hubs ? [`--hubs=${HUBS}:${HUB_ENTRIES}`] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let committed = -1;
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited early: ${code}`))));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const match of chunk.matchAll(/committed (\d+)/g)) {
        committed = Number(match[1]);
        if (committed + 1 === committedBatches) setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
  });
  return committed;
}

describe.each(storeBackends)('a store ($kind)', (backend) => {
  it('a process killed in the middle of large imports leaves each batch wholly there or wholly absent', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-crash-'));
    const location = await backend.newLocation(path.join(dir, 'store'));
    // Kill at several points inside the next batch's write.
    for (const [round, delayMs] of [[1, 5], [2, 60], [3, 150]] as const) {
      const committed = await killMidImport(location, round, delayMs);
      const store = await openStoreAt(location);
      const index = await store.loadGraph('tenant', 'big');
      const nodesPerBatch = new Map<number, number>();
      const edgesPerBatch = new Map<number, number>();
      for (const node of index.nodes.values()) nodesPerBatch.set(node.properties.batch as number, (nodesPerBatch.get(node.properties.batch as number) ?? 0) + 1);
      for (const edge of index.edges.values()) edgesPerBatch.set(edge.properties.batch as number, (edgesPerBatch.get(edge.properties.batch as number) ?? 0) + 1);
      // every batch reported durable is there, and no batch is there in part
      for (let n = 0; n <= committed; n++) expect(nodesPerBatch.get(n)).toBe(BATCH);
      for (const [n, count] of nodesPerBatch) {
        expect(count, `batch ${n}`).toBe(BATCH);
        expect(edgesPerBatch.get(n), `edges of batch ${n}`).toBe(BATCH - 1);
      }
      // the on-disk indexes agree with the records: every edge's endpoints exist
      for (const edge of index.edges.values()) expect(index.node(edge.from) && index.node(edge.to)).toBeTruthy();
      await store.close();
    }
  }, 180_000);

  it('a process killed in the middle of imports that grow long provenance lists leaves each list with the entries of the batches there, each once', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-crash-'));
    const location = await backend.newLocation(path.join(dir, 'store'));
    for (const [round, delayMs] of [[1, 5], [2, 60], [3, 150]] as const) {
      const committed = await killMidImport(location, round, delayMs, true);
      const store = await openStoreAt(location);
      const index = await store.loadGraph('tenant', 'big');
      const batches = new Set<number>();
      for (const node of index.nodes.values()) if (typeof node.properties.batch === 'number') batches.add(node.properties.batch);
      const there = [...batches].sort((a, b) => a - b);
      // the batches there are the first ones, every one reported durable among them
      expect(there).toStrictEqual(Array.from({ length: there.length }, (_, n) => n));
      expect(there.length).toBeGreaterThan(committed);
      const expected = there.flatMap((n) => Array.from({ length: HUB_ENTRIES }, (_, k) => `batch-${n}/${k}`));
      for (let h = 0; h < HUBS; h++) {
        const provenance = index.node(`hub-${h}`)!.provenance;
        expect(provenance.map((entry) => `${entry.document_id}/${entry.span!.start}`), `hub-${h}`).toStrictEqual(expected);
      }
      await store.close();
    }
  }, 180_000);
});
