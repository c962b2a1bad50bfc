import { Level, type ChainedBatch } from 'level';
import type { CorrectionRecord } from './backend.ts';
import type { EdgeRecord, NodeRecord, Provenance } from '../ontology/index.ts';
import type { LoopSlicer } from '../turns.ts';
import { pageOf, type ApiKeyRecord, type CommittedImport, type GraphBatch, type GraphMeta, type Page, type PageRequest, type StoreBackend, type Workspace } from './backend.ts';
import { SEP, dataKey, prefixRange, graphDataPrefix, metaKey } from './keys.ts';
import { CHUNKED_FROM, chunkWrite, noteCommitted } from './provenance-chunks.ts';
import type { ProvenanceJson } from './provenance-json.ts';
import { decodeEdge, decodeNode, encodeEdge, encodeNode, isJsonRecord } from './record-codec.ts';

/** Values read per LevelDB round trip when a graph is loaded (measurements.md: nextv(1000) ~1.3M rows/s). */
const LOAD_CHUNK = 1000;
/**
 * Version of the key layout (keys.ts). 2 added the graph → workspace index; a store
 * written before it (no layout key) gets the index built from its workspaces on open.
 * 3 dropped the per-record index keys, which are cleared on open. 4 keeps node and edge
 * records in record-codec.ts's encoding, not JSON: records are re-encoded on open. Layout 4
 * also holds the chunks of long provenance lists (provenance-chunks.ts, keys.ts) without a
 * bump: a layout-4 store from before them needs nothing done on open (its long lists are read
 * inline, and move to chunks when next written), so a bump would only cost a re-encoding scan;
 * and it would not keep the version before chunks off such a store (it upgrades any version not
 * its own, then writes its own back); that version fails on the first chunked record instead.
 */
const LAYOUT_VERSION = '4';

type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** The store's records in a LevelDB directory, laid out as keys.ts says; a graph's batch is one LevelDB batch. */
export class LevelBackend implements StoreBackend {
  readonly kind = 'leveldb';

  private constructor(private readonly db: Level<string, string>) {}

  static async open(dir: string): Promise<LevelBackend> {
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    const backend = new LevelBackend(db);
    try {
      await backend.upgradeLayout();
    } catch (error) {
      await db.close();
      throw error;
    }
    return backend;
  }

  /**
   * Brings a store written by an earlier version to LAYOUT_VERSION. Each step can be
   * repeated, and the version is written last, so a crash part way only repeats it. A store
   * of a later layout is refused: this version would misread it, then write its own over it.
   */
  private async upgradeLayout(): Promise<void> {
    const stored = await this.db.get(metaKey.layout());
    if (stored === LAYOUT_VERSION) return;
    if (stored !== undefined && Number(stored) > Number(LAYOUT_VERSION)) {
      throw new Error(`the store's key layout is version ${stored}, newer than this version's ${LAYOUT_VERSION}: open it with the version that wrote it or a later one`);
    }
    const ops: BatchOp[] = [];
    for await (const [key, value] of this.db.iterator(prefixRange(metaKey.allWorkspaces()))) {
      const tenant = key.split(SEP)[2];
      const workspace = JSON.parse(value) as Workspace;
      ops.push({ type: 'put', key: metaKey.graphWorkspace(tenant, workspace.graph_id, workspace.id), value: workspace.id });
    }
    await this.db.batch(ops);
    for await (const [key, value] of this.db.iterator(prefixRange(metaKey.allGraphs()))) {
      const [, , tenant, graphId] = key.split(SEP);
      const prefix = graphDataPrefix(tenant, graphId, (JSON.parse(value) as GraphMeta).generation);
      for (const dropped of dataKey.droppedIndexes(prefix)) await this.db.clear(prefixRange(dropped));
      await this.reencode(dataKey.nodes(prefix), encodeNode);
      await this.reencode(dataKey.edges(prefix), encodeEdge);
    }
    await this.db.put(metaKey.layout(), LAYOUT_VERSION);
  }

  /**
   * Rewrites the JSON records under `prefix` in layout 4's encoding, a batch per chunk: a
   * crash part way leaves some records re-encoded, which the repeat tells apart and skips.
   */
  private async reencode<R extends NodeRecord | EdgeRecord>(prefix: string, encode: (record: R) => string): Promise<void> {
    await this.scan(prefix, async (entries) => {
      const batch = this.db.batch();
      // the id is the key's last segment (layout 3 kept it in the JSON too)
      for (const [key, value] of entries) if (isJsonRecord(value)) batch.put(key, encode({ ...(JSON.parse(value) as R), id: key.slice(prefix.length) }));
      if (batch.length > 0) await batch.write();
      else await batch.close();
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** One process opens the directory (LevelDB's lock), so the store's own graph lock is the whole of it. */
  writingGraph<T>(_tenant: string, _graphId: string, write: () => Promise<T>): Promise<T> {
    return write();
  }

  // ---- keys ---------------------------------------------------------------

  getKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    return this.getJson<ApiKeyRecord>(metaKey.apiKey(keyId));
  }

  putKey(record: ApiKeyRecord): Promise<void> {
    return this.db.put(metaKey.apiKey(record.key_id), JSON.stringify(record));
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    for await (const value of this.db.values(prefixRange(metaKey.apiKeys()))) records.push(JSON.parse(value));
    return records;
  }

  // ---- workspaces -----------------------------------------------------------

  getWorkspace(tenant: string, id: string): Promise<Workspace | undefined> {
    return this.getJson<Workspace>(metaKey.workspace(tenant, id));
  }

  putWorkspace(tenant: string, workspace: Workspace, newGraph: GraphMeta | undefined): Promise<void> {
    const ops: BatchOp[] = [
      { type: 'put', key: metaKey.workspace(tenant, workspace.id), value: JSON.stringify(workspace) },
      { type: 'put', key: metaKey.graphWorkspace(tenant, workspace.graph_id, workspace.id), value: workspace.id },
    ];
    if (newGraph) ops.push({ type: 'put', key: metaKey.graph(tenant, newGraph.graph_id), value: JSON.stringify(newGraph) });
    return this.db.batch(ops);
  }

  deleteWorkspace(tenant: string, workspace: Workspace): Promise<void> {
    return this.db.batch([
      { type: 'del', key: metaKey.workspace(tenant, workspace.id) },
      { type: 'del', key: metaKey.graphWorkspace(tenant, workspace.graph_id, workspace.id) },
    ]);
  }

  listWorkspaces(tenant: string, page: PageRequest): Promise<Page<Workspace>> {
    return this.page<Workspace>(metaKey.workspaces(tenant), page, (w) => w.id);
  }

  async workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]> {
    const ids = await this.db.values(prefixRange(metaKey.graphWorkspaces(tenant, graphId))).all();
    const records = await this.db.getMany(ids.map((id) => metaKey.workspace(tenant, id)));
    return records.filter((value): value is string => value !== undefined).map((value) => JSON.parse(value) as Workspace);
  }

  // ---- graphs ---------------------------------------------------------------

  getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta | undefined> {
    return this.getJson<GraphMeta>(metaKey.graph(tenant, graphId));
  }

  putGraphMeta(tenant: string, meta: GraphMeta): Promise<void> {
    return this.db.put(metaKey.graph(tenant, meta.graph_id), JSON.stringify(meta));
  }

  listGraphs(tenant: string, page: PageRequest): Promise<Page<GraphMeta>> {
    return this.page<GraphMeta>(metaKey.graphs(tenant), page, (g) => g.graph_id);
  }

  dropGraphMeta(tenant: string, graphId: string): Promise<void> {
    return this.db.del(metaKey.graph(tenant, graphId));
  }

  clearGraphData(tenant: string, graphId: string, generation: string): Promise<void> {
    return this.db.clear(prefixRange(graphDataPrefix(tenant, graphId, generation)));
  }

  /**
   * Records go straight into one chained batch (no op objects), written once at the end. A
   * long provenance list goes in chunks beside its record: only the entries its chunks do not
   * hold yet (provenance-chunks.ts).
   */
  async commitGraph(graph: GraphBatch, slicer: LoopSlicer): Promise<void> {
    const prefix = graphDataPrefix(graph.tenant, graph.graphId, graph.generation);
    const nodePrefix = dataKey.nodes(prefix);
    const edgePrefix = dataKey.edges(prefix);
    const { nodes, edges } = graph;
    const batch = this.db.batch();
    const chunked: Provenance[][] = [];
    try {
      for (let i = 0; i < nodes.length; i++) {
        if (slicer.dueStep()) await slicer.turn();
        const key = nodePrefix + nodes[i].id;
        const inChunks = nodes[i].provenance.length >= CHUNKED_FROM;
        if (inChunks) await this.putChunks(batch, key, nodes[i].provenance, chunked, graph.provenanceJson);
        batch.put(key, encodeNode(nodes[i], inChunks, graph.provenanceJson));
      }
      for (let i = 0; i < edges.length; i++) {
        if (slicer.dueStep()) await slicer.turn();
        const key = edgePrefix + edges[i].id;
        const inChunks = edges[i].provenance.length >= CHUNKED_FROM;
        if (inChunks) await this.putChunks(batch, key, edges[i].provenance, chunked, graph.provenanceJson);
        batch.put(key, encodeEdge(edges[i], inChunks, graph.provenanceJson));
      }
      if (graph.meta) batch.put(metaKey.graph(graph.tenant, graph.graphId), JSON.stringify(graph.meta));
      if (graph.committedImport) batch.put(dataKey.idempotency(prefix, graph.committedImport.idempotency_key), JSON.stringify(graph.committedImport));
      for (const correction of graph.corrections ?? []) batch.put(dataKey.correction(prefix, correction.ordinal), JSON.stringify(correction));
    } catch (error) {
      await batch.close();
      throw error;
    }
    if (batch.length > 0) await batch.write();
    else await batch.close();
    for (const list of chunked) noteCommitted(list);
  }

  /**
   * Puts the entries of a long list that the chunks of its record (under `key`) do not hold
   * yet, as one chunk; a record whose chunks are not known has them deleted in the batch
   * first, and the list written whole.
   */
  private async putChunks(batch: ChainedBatch<Level<string, string>, string, string>, key: string, list: Provenance[], chunked: Provenance[][], known: ProvenanceJson | undefined): Promise<void> {
    const { from, json, clearOld } = chunkWrite(list, known);
    if (clearOld) for await (const chunk of this.db.keys(prefixRange(dataKey.provenanceChunks(key)))) batch.del(chunk);
    if (json !== undefined) batch.put(dataKey.provenanceChunk(key, from), json);
    chunked.push(list);
  }

  committedImport(tenant: string, graphId: string, generation: string, idempotencyKey: string): Promise<CommittedImport | undefined> {
    return this.getJson<CommittedImport>(dataKey.idempotency(graphDataPrefix(tenant, graphId, generation), idempotencyKey));
  }

  async graphCorrections(tenant: string, graphId: string, generation: string): Promise<CorrectionRecord[]> {
    const values = await this.db.values(prefixRange(dataKey.corrections(graphDataPrefix(tenant, graphId, generation)))).all();
    return values.map((value) => JSON.parse(value) as CorrectionRecord);
  }

  async scanGraph(tenant: string, graphId: string, generation: string, onNode: (node: NodeRecord) => void, onEdge: (edge: EdgeRecord) => void): Promise<void> {
    const prefix = graphDataPrefix(tenant, graphId, generation);
    await this.scanRecords(dataKey.nodes(prefix), (id, value, chunks) => onNode(decodeNode(id, value, chunks)));
    await this.scanRecords(dataKey.edges(prefix), (id, value, chunks) => onEdge(decodeEdge(id, value, chunks)));
  }

  /** The records under `prefix`, each by id with its value and the chunks of its provenance list (which follow it, keys.ts). */
  private async scanRecords(prefix: string, onRecord: (id: string, value: string, chunks: string[]) => void): Promise<void> {
    let record: { id: string; value: string; chunks: string[] } | undefined;
    await this.scan(prefix, (entries) => {
      for (const [key, value] of entries) {
        const end = key.indexOf(SEP, prefix.length);
        if (end < 0) {
          if (record) onRecord(record.id, record.value, record.chunks);
          record = { id: key.slice(prefix.length), value, chunks: [] };
        } else if (record?.id === key.slice(prefix.length, end)) {
          record.chunks.push(value);
        } else {
          throw new Error(`a provenance chunk without its record: ${key.slice(prefix.length, end)}`);
        }
      }
    });
    if (record) onRecord(record.id, record.value, record.chunks);
  }

  /** The entries under `prefix`, a chunk at a time (the key holds a record's id, its value the rest). */
  private async scan(prefix: string, onChunk: (entries: [string, string][]) => void | Promise<void>): Promise<void> {
    const iterator = this.db.iterator(prefixRange(prefix));
    try {
      for (let chunk = await iterator.nextv(LOAD_CHUNK); chunk.length > 0; chunk = await iterator.nextv(LOAD_CHUNK)) await onChunk(chunk);
    } finally {
      await iterator.close();
    }
  }

  private async getJson<T>(key: string): Promise<T | undefined> {
    const value = await this.db.get(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  private async page<T>(prefix: string, { size, after }: PageRequest, idOf: (item: T) => string): Promise<Page<T>> {
    const { gte, lt } = prefixRange(prefix);
    const range = after === undefined ? { gte, lt } : { gt: prefix + after, lt };
    const items = (await this.db.values({ ...range, limit: size + 1 }).all()).map((value) => JSON.parse(value) as T);
    return pageOf(items, size, idOf);
  }
}
