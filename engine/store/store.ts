import { randomBytes } from 'node:crypto';
import { Level } from 'level';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import { NODE_UNKNOWN_VALUES, type EdgeRecord, type NodeKind, type NodeRecord, type PropertyValue, type Provenance, type WorkspaceDomain, type WorkspaceScale, type WorkspaceTier } from '../ontology/index.ts';
import path from 'node:path';
import { GraphIndex } from './graph-index.ts';
import { readSnapshot, removeSnapshot, removeUnfinishedSnapshots, snapshotFile, writeSnapshot } from './snapshot.ts';
import { SerialQueue } from './serial-queue.ts';
import { LoopSlicer } from '../turns.ts';
import { canonicalJson, deriveEdgeId, deriveNodeId } from './ids.ts';
import { SEP, dataKey, prefixRange, graphDataPrefix, hashSecret, keyIdOf, metaKey, newApiKey, secretMatches } from './keys.ts';
import { WriteChecker, validateName, type EdgeInput, type GraphWrite, type NodeInput } from './validate.ts';
import { putLogged } from './graph-changes.ts';
import { decodeEdge, decodeNode, encodeEdge, encodeNode, isJsonRecord } from './record-codec.ts';

export type { EdgeInput, GraphWrite, NodeInput } from './validate.ts';

export type KeyScope = 'read' | 'write';

export interface ApiKeyRecord {
  key_id: string;
  tenant: string;
  scope: KeyScope;
  admin: boolean;
  name?: string;
  created_at: string;
  revoked_at?: string;
  /** SHA-256 of the secret; the secret itself is never stored. */
  hash: string;
}

export interface Workspace {
  id: string;
  name: string;
  domain: WorkspaceDomain;
  scale: WorkspaceScale;
  tier: WorkspaceTier;
  graph_id: string;
  created_at: string;
}

export interface GraphMeta {
  graph_id: string;
  created_at: string;
  updated_at: string;
  /** Names this graph's data keys; a deleted graph's generation is never reused. */
  generation: string;
  /** Counts the writes that changed the graph's content (absent: none since it was created); names a snapshot's state. */
  revision?: number;
}

/** An import's outcome as kept under its idempotency key. */
export interface CommittedImport {
  idempotency_key: string;
  committed_at: string;
  /** (graph_created is absent from the records of imports committed before it was answered) */
  summary: Omit<WriteSummary, 'node_ids' | 'edge_ids' | 'graph_created'> & { graph_created?: boolean };
}

export interface WriteSummary {
  nodes_created: number;
  nodes_updated: number;
  edges_created: number;
  edges_updated: number;
  /** This write created the graph (the first of a batch that did): a misspelled graph id is seen in the answer. */
  graph_created: boolean;
  node_ids: string[];
  edge_ids: string[];
}

/** What changed in a graph: the records a committed write changed, or the graph's deletion. */
export type GraphChange =
  | { kind: 'write'; tenant: string; graphId: string; generation: string; nodes: NodeRecord[]; edges: EdgeRecord[] }
  | { kind: 'delete'; tenant: string; graphId: string; generation: string };

export interface Page<T> {
  items: T[];
  next_page_token?: string;
}

/** Default and largest page sizes for list endpoints. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/** A large write applies its records to the index in pieces of this many, the loop turning between pieces when a slice is spent. */
const APPLY_CHUNK = 1_000;
/** Values read per LevelDB round trip when a graph is loaded (measurements.md: nextv(1000) ~1.3M rows/s). */
const LOAD_CHUNK = 1000;

interface LoadedGraph {
  tenant: string;
  graphId: string;
  generation: string;
  /** The meta revision the index holds. */
  revision: number;
  index: GraphIndex;
  /** The revision of the graph's snapshot on disk, when known to be current. */
  snapshotRevision?: number;
}
/** Facts the loaded graphs may hold together by default: two million-fact graphs, about 800 MB of heap. */
export const DEFAULT_CACHE_FACTS = 2_000_000;
/** API key records kept in memory for authentication (a few per tenant in practice). */
const KEY_RECORDS_KEPT = 10_000;
/** Default confidence of a record imported without one: the client states it as fact. */
const DEFAULT_CONFIDENCE = 1;
/**
 * Version of the key layout (keys.ts). 2 added the graph → workspace index; a store
 * written before it (no layout key) gets the index built from its workspaces on open.
 * 3 dropped the per-record index keys, which are cleared on open. 4 keeps node and edge
 * records in record-codec.ts's encoding, not JSON: records are re-encoded on open.
 */
const LAYOUT_VERSION = '4';

type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/**
 * The LevelDB store: source of truth for API keys, workspaces and graphs. Each
 * graph is loaded once, lazily, into a GraphIndex that every later write keeps in
 * step; every write is one atomic LevelDB batch applied to the index only after it
 * is durable.
 */
export class ParleyStore {
  /** Loaded graphs, least recently used first, bounded by their total facts (cacheFacts). */
  private readonly loaded = new Map<string, LoadedGraph>();
  /** One writer per graph at a time. */
  private readonly locks = new SerialQueue();
  /** API key records by key id, as last written by this process (the store's only writer): no LevelDB read per request. */
  private readonly keyRecords = new Map<string, ApiKeyRecord>();
  /** Counts key writes: a record read from LevelDB while one happened may be stale, and is not kept. */
  private keyWrites = 0;
  private readonly changeListeners = new Set<(change: GraphChange) => void | Promise<void>>();
  /** Graphs whose index a committed write is being applied to, a slice at a time: readers wait for the whole. */
  private readonly applying = new Map<string, Promise<void>>();

  private constructor(
    private readonly db: Level<string, string>,
    private readonly cacheFacts: number,
    /** Graph snapshots: a folder inside the LevelDB directory, which LevelDB leaves alone. */
    private readonly snapshotDir: string,
  ) {}

  /** `cacheFacts`: how many facts (nodes, node properties, edges) the loaded graphs may hold together; the graph in use always stays. */
  static async open(dir: string, options: { cacheFacts?: number } = {}): Promise<ParleyStore> {
    const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    const store = new ParleyStore(db, options.cacheFacts ?? DEFAULT_CACHE_FACTS, path.join(dir, 'snapshots'));
    await store.upgradeLayout();
    await removeUnfinishedSnapshots(store.snapshotDir);
    return store;
  }

  /**
   * Brings a store written by an earlier version to LAYOUT_VERSION. Each step can be
   * repeated, and the version is written last, so a crash part way only repeats it.
   */
  private async upgradeLayout(): Promise<void> {
    if ((await this.db.get(metaKey.layout())) === LAYOUT_VERSION) return;
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

  /**
   * Waits for the writes, snapshots every loaded graph changed since its snapshot, and
   * closes. A snapshot that fails to write only costs the next start a rebuild from the
   * records.
   */
  async close(): Promise<void> {
    await this.locks.drain();
    const snapshots = [...this.loaded.values()]
      .filter((entry) => entry.snapshotRevision !== entry.revision)
      .map((entry) => writeSnapshot(snapshotFile(this.snapshotDir, entry.tenant, entry.graphId), entry.generation, entry.revision, entry.index).catch(() => undefined));
    await Promise.all(snapshots);
    await this.db.close();
  }

  // ---- API keys -------------------------------------------------------------

  async createKey(options: { tenant: string; scope: KeyScope; admin?: boolean; name?: string; secret?: string }): Promise<{ record: ApiKeyRecord; secret: string }> {
    validateName('tenant', options.tenant);
    const generated = newApiKey();
    const secret = options.secret ?? generated.secret;
    const keyId = options.secret ? keyIdOf(options.secret) : generated.keyId;
    const record: ApiKeyRecord = {
      key_id: keyId,
      tenant: options.tenant,
      scope: options.scope,
      admin: options.admin ?? false,
      ...(options.name ? { name: options.name } : {}),
      created_at: new Date().toISOString(),
      hash: hashSecret(secret),
    };
    await this.putKeyRecord(record);
    return { record, secret };
  }

  /**
   * The admin key on first start: the one from the environment when given (stored
   * hashed), else a new one whose secret is returned once to be printed. A key from
   * the environment that was revoked stays revoked: its record is kept, and a
   * restart with the same value does not bring it back (`revoked` says so).
   */
  async bootstrapAdminKey(fromEnvironment?: string): Promise<{ created: boolean; secret?: string; revoked?: boolean }> {
    if (fromEnvironment) {
      const existing = await this.getJson<ApiKeyRecord>(metaKey.apiKey(keyIdOf(fromEnvironment)));
      if (existing && !secretMatches(fromEnvironment, existing.hash)) {
        throw new ConflictError('admin_key_clash', 'PARLEY_ADMIN_KEY has the key id of another key; choose another value');
      }
      if (existing?.revoked_at) return { created: false, revoked: true };
      if (existing?.admin) return { created: false };
      await this.createKey({ tenant: 'admin', scope: 'write', admin: true, name: 'bootstrap (PARLEY_ADMIN_KEY)', secret: fromEnvironment });
      return { created: true };
    }
    for await (const value of this.db.values(prefixRange(metaKey.apiKeys()))) {
      const record = JSON.parse(value) as ApiKeyRecord;
      if (record.admin && !record.revoked_at) return { created: false };
    }
    const { secret } = await this.createKey({ tenant: 'admin', scope: 'write', admin: true, name: 'bootstrap' });
    return { created: true, secret };
  }

  /** The live key record a secret belongs to, compared in constant time; undefined otherwise. */
  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    const keyId = keyIdOf(secret);
    let record = this.keyRecords.get(keyId);
    if (!record) {
      const writes = this.keyWrites;
      record = await this.getJson<ApiKeyRecord>(metaKey.apiKey(keyId));
      if (record && writes === this.keyWrites) {
        if (this.keyRecords.size >= KEY_RECORDS_KEPT) this.keyRecords.clear();
        this.keyRecords.set(keyId, record);
      }
    }
    if (!record || record.revoked_at) return undefined;
    return secretMatches(secret, record.hash) ? record : undefined;
  }

  /** Writes a key record; a read of it under way meanwhile (or before) is not kept in keyRecords. */
  private async putKeyRecord(record: ApiKeyRecord): Promise<void> {
    this.keyWrites++;
    this.keyRecords.delete(record.key_id);
    try {
      await this.db.put(metaKey.apiKey(record.key_id), JSON.stringify(record));
    } finally {
      this.keyWrites++;
      this.keyRecords.delete(record.key_id);
    }
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    for await (const value of this.db.values(prefixRange(metaKey.apiKeys()))) records.push(JSON.parse(value));
    return records;
  }

  async revokeKey(keyId: string): Promise<ApiKeyRecord> {
    const record = await this.getJson<ApiKeyRecord>(metaKey.apiKey(keyId));
    if (!record) throw new NotFoundError('key', keyId);
    if (!record.revoked_at) {
      record.revoked_at = new Date().toISOString();
      await this.putKeyRecord(record);
    }
    return record;
  }

  // ---- workspaces -----------------------------------------------------------

  async createWorkspace(tenant: string, input: Omit<Workspace, 'id' | 'created_at' | 'graph_id'> & { graph_id?: string }): Promise<Workspace> {
    const id = 'ws_' + randomBytes(8).toString('hex');
    const graphId = input.graph_id ?? id;
    validateName('graph_id', graphId);
    const now = new Date().toISOString();
    const workspace: Workspace = { id, name: input.name, domain: input.domain, scale: input.scale, tier: input.tier, graph_id: graphId, created_at: now };
    await this.locks.run(graphLockKey(tenant, graphId), async () => {
      const ops: BatchOp[] = [
        { type: 'put', key: metaKey.workspace(tenant, id), value: JSON.stringify(workspace) },
        { type: 'put', key: metaKey.graphWorkspace(tenant, graphId, id), value: id },
      ];
      if (!(await this.graphMeta(tenant, graphId))) ops.push(newGraphMetaOp(tenant, graphId, now));
      await this.db.batch(ops);
    });
    return workspace;
  }

  async getWorkspace(tenant: string, id: string): Promise<Workspace> {
    const workspace = await this.getJson<Workspace>(metaKey.workspace(tenant, id));
    if (!workspace) throw new NotFoundError('workspace', id);
    return workspace;
  }

  listWorkspaces(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<Workspace>> {
    return this.page<Workspace>(metaKey.workspaces(tenant), pageSize, pageToken, (w) => w.id);
  }

  /** The tenant's workspaces that name `graphId` (several may share a graph; none is fine). */
  async workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]> {
    const ids = await this.db.values(prefixRange(metaKey.graphWorkspaces(tenant, graphId))).all();
    const records = await this.db.getMany(ids.map((id) => metaKey.workspace(tenant, id)));
    return records.filter((value): value is string => value !== undefined).map((value) => JSON.parse(value) as Workspace);
  }

  /** Deletes the workspace record; its graph stays (a graph is the tenant's, and may be shared). */
  async deleteWorkspace(tenant: string, id: string): Promise<void> {
    const workspace = await this.getWorkspace(tenant, id);
    await this.db.batch([
      { type: 'del', key: metaKey.workspace(tenant, id) },
      { type: 'del', key: metaKey.graphWorkspace(tenant, workspace.graph_id, id) },
    ]);
  }

  // ---- graphs ---------------------------------------------------------------

  async graphExists(tenant: string, graphId: string): Promise<boolean> {
    return (await this.graphMeta(tenant, graphId)) !== undefined;
  }

  async getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta> {
    const meta = await this.graphMeta(tenant, graphId);
    if (!meta) throw new NotFoundError('graph', graphId);
    return meta;
  }

  listGraphs(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<GraphMeta>> {
    return this.page<GraphMeta>(metaKey.graphs(tenant), pageSize, pageToken, (g) => g.graph_id);
  }

  /**
   * Calls `listener` after every committed write (with the records that changed) and
   * every graph deletion, once the in-memory index reflects it: replicas of a graph in
   * worker threads follow the store through these. A listener's promise is awaited
   * before readers see the write. Returns the unsubscribe function.
   */
  onChange(listener: (change: GraphChange) => void | Promise<void>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private async emitChange(change: GraphChange): Promise<void> {
    await Promise.all([...this.changeListeners].map((listener) => listener(change)));
  }

  /** The generation of a graph's in-memory index, when it is loaded (no LevelDB read). */
  loadedGeneration(tenant: string, graphId: string): string | undefined {
    return this.loaded.get(graphLockKey(tenant, graphId))?.generation;
  }

  /** The graph's in-memory indexes, loaded from LevelDB on first use. */
  async loadGraph(tenant: string, graphId: string): Promise<GraphIndex> {
    const cacheKey = graphLockKey(tenant, graphId);
    const applying = this.applying.get(cacheKey);
    if (applying) await applying;
    // a loaded graph is current: every write and deletion of it goes through this store and keeps `loaded` in step
    const loaded = this.loaded.get(cacheKey);
    if (loaded) return this.touch(cacheKey, loaded.index);
    const meta = await this.getGraphMeta(tenant, graphId);
    // loadIndex looks at the cache again, under the graph's lock
    return this.locks.run(cacheKey, () => this.loadIndex(tenant, meta));
  }

  /**
   * Validates, merges and writes nodes and edges in one atomic batch. A node or edge
   * that exists already is merged: incoming properties win, except that a value saying
   * "not known" (NODE_UNKNOWN_VALUES) never replaces a known one; `aliases` lists and
   * provenance records are unioned, confidence is the higher one. Creates the graph
   * when absent. Writing content the graph already holds changes nothing.
   */
  async writeGraph(
    tenant: string,
    graphId: string,
    write: GraphWrite,
    options: { createGraph?: boolean; idempotencyKey?: string } = {},
  ): Promise<WriteSummary & { replayed?: CommittedImport }> {
    const { summaries, replayed } = await this.commitWrites(tenant, graphId, [write], options);
    // a replay answers the first summary, which says whether that import created the graph
    return replayed ? { graph_created: false, ...replayed.summary, node_ids: [], edge_ids: [], replayed } : summaries[0];
  }

  /**
   * Several writes in one atomic batch, each merged onto the graph as the writes before it
   * left it, exactly as writeGraph one after the other would, with a summary per write.
   * A batch of documents commits this way: each record is encoded and written once for
   * the group, however many of its documents touch it.
   */
  async writeGraphs(tenant: string, graphId: string, writes: readonly GraphWrite[]): Promise<WriteSummary[]> {
    return (await this.commitWrites(tenant, graphId, writes, {})).summaries;
  }

  private async commitWrites(
    tenant: string,
    graphId: string,
    writes: readonly GraphWrite[],
    options: { createGraph?: boolean; idempotencyKey?: string },
  ): Promise<{ summaries: WriteSummary[]; replayed?: CommittedImport }> {
    validateName('graph_id', graphId);
    for (const write of writes) {
      if (!Array.isArray(write.nodes) || !Array.isArray(write.edges)) throw new ValidationError('invalid_write', 'a write needs nodes and edges arrays');
    }
    return this.locks.run(graphLockKey(tenant, graphId), async () => {
      const now = new Date().toISOString();
      let meta = await this.graphMeta(tenant, graphId);
      if (!meta && options.createGraph === false) throw new NotFoundError('graph', graphId);
      if (meta && options.idempotencyKey !== undefined) {
        const replayed = await this.getJson<CommittedImport>(dataKey.idempotency(graphDataPrefix(tenant, graphId, meta.generation), options.idempotencyKey));
        if (replayed) return { summaries: [], replayed };
      }
      const isNew = !meta;
      let newMeta: { type: 'put'; key: string; value: string } | undefined;
      if (!meta) {
        newMeta = newGraphMetaOp(tenant, graphId, now);
        meta = JSON.parse(newMeta.value) as GraphMeta;
      }
      const index = isNew ? new GraphIndex() : await this.loadIndex(tenant, meta);

      // A large write merges and encodes in chunks, yielding between them so other requests
      // are served; it stays one batch, written at the end, so it is still all or nothing.
      // `nodes`, `edges`: every record the writes touch, by id, with the stored one (looked up once: an
      // import of new records looks nothing up again) and the one as the writes so far leave it
      const nodes = new Map<string, Touched<NodeRecord>>();
      const edges = new Map<string, Touched<EdgeRecord>>();
      const summaries: WriteSummary[] = [];
      // The records each write changed, as it left them: the index takes them write by write,
      // so its iteration order is what writes one by one leave
      const replay: { nodes: Changes<NodeRecord>; edges: Changes<EdgeRecord> }[] = [];
      // one slicer for the whole write: the loop gets a turn every SLICE_MS of merging, encoding or applying
      const slicer = new LoopSlicer();
      const checker = new WriteChecker();
      for (let write = 0; write < writes.length; write++) {
        const { nodes: nodeInputs, edges: edgeInputs } = writes[write];
        // a node is merged as soon as it is checked (merging a node cannot fail, and an invalid
        // one later still rejects the whole write)
        const touchedNodes: Touched<NodeRecord>[] = [];
        const mergeOnto = (previous: NodeRecord | undefined, input: NodeInput, id: string) => mergeNode(previous, input, id, now);
        for (let i = 0; i < nodeInputs.length; i++) {
          if (slicer.dueStep()) await slicer.turn();
          const input = nodeInputs[i];
          checker.node(input, i);
          mergeInput(input, nodeIdOf(input), write, (id) => index.node(id), nodes, touchedNodes, mergeOnto).labels = input.labels;
        }
        // every edge is checked before any is merged, so that an invalid edge is reported before
        // another's id conflict; the dense ids of the ends it names in the index (-1: a node of
        // these writes) are found once, for the check and for the index
        const ends = new Int32Array(2 * edgeInputs.length);
        let edge = 0;
        const kindOf = (id: string, end: 0 | 1): string | undefined => {
          const touched = nodes.get(id);
          ends[2 * edge + end] = -1;
          // a node this write names is checked as this write gives it, as before it was merged
          if (touched) return (touched.write === write ? touched.labels! : touched.record.labels)[0];
          // read off the index's kind column, not the record: two random reads fewer per end
          const dense = index.nodes.denseOf(id);
          const kind = dense < 0 ? undefined : index.kindAt(dense);
          if (kind !== undefined) ends[2 * edge + end] = dense;
          return kind;
        };
        for (edge = 0; edge < edgeInputs.length; edge++) {
          if (slicer.dueStep()) await slicer.turn();
          checker.edge(edgeInputs[edge], edge, kindOf);
        }
        const touchedEdges: Touched<EdgeRecord>[] = [];
        const mergeEdgeOnto = (previous: EdgeRecord | undefined, input: EdgeInput, id: string) => mergeEdge(previous, input, id, now);
        for (let i = 0; i < edgeInputs.length; i++) {
          if (slicer.dueStep()) await slicer.turn();
          const input = edgeInputs[i];
          const touched = mergeInput(input, edgeIdOf(input), write, (id) => index.edge(id), edges, touchedEdges, mergeEdgeOnto);
          if (touched.from === UNPLACED) {
            touched.from = ends[2 * i];
            touched.to = ends[2 * i + 1];
          }
        }
        const changed = { nodes: await changesOf(touchedNodes, slicer), edges: await changesOf(touchedEdges, slicer) };
        summaries.push({
          nodes_created: changed.nodes.created.length, nodes_updated: changed.nodes.updated.length,
          edges_created: changed.edges.created.length, edges_updated: changed.edges.updated.length, graph_created: isNew && write === 0,
          node_ids: touchedNodes.map((touched) => touched.record.id), edge_ids: touchedEdges.map((touched) => touched.record.id),
        });
        replay.push(changed);
      }

      const prefix = graphDataPrefix(tenant, graphId, meta.generation);
      const nodePrefix = dataKey.nodes(prefix);
      const edgePrefix = dataKey.edges(prefix);
      // What the writes changed against the stored graph. One write changed what its tally
      // found (compared once, there); of several, the records some write changed are compared
      // again, as the last left them (a later write may have put one back as stored).
      const changedNodes = writes.length === 1 ? [...replay[0].nodes.updated, ...replay[0].nodes.created.map(recordOf)] : changedSinceStored(nodes);
      const changedEdges = writes.length === 1 ? [...replay[0].edges.updated, ...replay[0].edges.created.map(recordOf)] : changedSinceStored(edges);
      let revision = meta.revision ?? 0;
      // records go straight into one chained batch (no op objects), written once at the end
      const batch = this.db.batch();
      try {
        if (newMeta) batch.put(newMeta.key, newMeta.value);
        for (let i = 0; i < changedNodes.length; i++) {
          if (slicer.dueStep()) await slicer.turn();
          batch.put(nodePrefix + changedNodes[i].id, encodeNode(changedNodes[i]));
        }
        for (let i = 0; i < changedEdges.length; i++) {
          if (slicer.dueStep()) await slicer.turn();
          batch.put(edgePrefix + changedEdges[i].id, encodeEdge(changedEdges[i]));
        }
        if (!isNew && (changedNodes.length > 0 || changedEdges.length > 0)) {
          revision++;
          batch.put(metaKey.graph(tenant, graphId), JSON.stringify({ ...meta, updated_at: now, revision }));
        }
        if (options.idempotencyKey !== undefined) {
          const { node_ids: _n, edge_ids: _e, ...counts } = summaries[0];
          const record: CommittedImport = { idempotency_key: options.idempotencyKey, committed_at: now, summary: counts };
          batch.put(dataKey.idempotency(prefix, options.idempotencyKey), JSON.stringify(record));
        }
      } catch (error) {
        await batch.close();
        throw error;
      }
      if (batch.length > 0) await batch.write();
      else await batch.close();

      // Durable now: bring the in-memory indexes in step, write by write (the index's order is
      // that of writes committed one at a time), the loop turning between writes; readers
      // (loadGraph) wait for the whole, so none sees half a write.
      const cacheKey = graphLockKey(tenant, graphId);
      let applied!: () => void;
      this.applying.set(cacheKey, new Promise<void>((resolve) => (applied = resolve)));
      try {
        for (const { nodes: written, edges: linked } of replay) {
          // a large write goes in pieces (its nodes, then its edges: the order of one put); the
          // edges it created go in at the ends found when they were checked, without their ids
          // being looked up again
          const inChunks = async <T>(list: T[], put: (chunk: T[]) => void) => {
            for (let at = 0; at < list.length; at += APPLY_CHUNK) {
              if (slicer.due()) await slicer.turn();
              put(list.slice(at, at + APPLY_CHUNK));
            }
          };
          await inChunks(written.updated, (chunk) => putLogged(index, chunk, []));
          await inChunks(written.created, (chunk) => putLogged(index, chunk.map(recordOf), []));
          await inChunks(linked.updated, (chunk) => putLogged(index, [], chunk));
          index.expectEdges(linked.created.length);
          await inChunks(linked.created, (chunk) => {
            const placed = new Int32Array(2 * chunk.length);
            for (let i = 0; i < chunk.length; i++) {
              placed[2 * i] = chunk[i].from;
              placed[2 * i + 1] = chunk[i].to;
            }
            putLogged(index, [], chunk.map(recordOf), placed);
          });
        }
        // the adjacency arrays rebuilt now, in slices, where the first read would rebuild them in one step
        await index.prepareInSlices(slicer);
        // another graph's load may have evicted this one while the write took turns: it comes back
        const entry = this.loaded.get(cacheKey);
        if (entry) entry.revision = revision;
        else this.loaded.set(cacheKey, { tenant, graphId, generation: meta.generation, revision, index });
        this.evict(cacheKey);
        if (changedNodes.length > 0 || changedEdges.length > 0) await this.emitChange({ kind: 'write', tenant, graphId, generation: meta.generation, nodes: changedNodes, edges: changedEdges });
      } finally {
        this.applying.delete(cacheKey);
        applied();
      }
      return { summaries };
    });
  }

  /** The outcome of the import that carried `idempotencyKey`, when it committed. */
  async committedImport(tenant: string, graphId: string, idempotencyKey: string): Promise<CommittedImport | undefined> {
    const meta = await this.getGraphMeta(tenant, graphId);
    return this.getJson<CommittedImport>(dataKey.idempotency(graphDataPrefix(tenant, graphId, meta.generation), idempotencyKey));
  }

  /** Deletes a graph: one atomic write hides it, then its data is cleared. */
  async deleteGraph(tenant: string, graphId: string): Promise<void> {
    await this.locks.run(graphLockKey(tenant, graphId), async () => {
      const meta = await this.getGraphMeta(tenant, graphId);
      await this.db.del(metaKey.graph(tenant, graphId));
      this.loaded.delete(graphLockKey(tenant, graphId));
      await removeSnapshot(snapshotFile(this.snapshotDir, tenant, graphId));
      await this.emitChange({ kind: 'delete', tenant, graphId, generation: meta.generation });
      const prefix = graphDataPrefix(tenant, graphId, meta.generation);
      await this.db.clear(prefixRange(prefix));
    });
  }

  /** Creates an empty graph; a graph that exists already is a conflict. */
  async createGraph(tenant: string, graphId: string): Promise<GraphMeta> {
    validateName('graph_id', graphId);
    return this.locks.run(graphLockKey(tenant, graphId), async () => {
      if (await this.graphMeta(tenant, graphId)) throw new ConflictError('graph_exists', `graph '${graphId}' exists already`, { graph_id: graphId });
      const op = newGraphMetaOp(tenant, graphId, new Date().toISOString());
      await this.db.batch([op]);
      return JSON.parse(op.value) as GraphMeta;
    });
  }

  // ---- internals ------------------------------------------------------------

  private async loadIndex(tenant: string, meta: GraphMeta): Promise<GraphIndex> {
    const cacheKey = graphLockKey(tenant, meta.graph_id);
    const cached = this.loaded.get(cacheKey);
    if (cached && cached.generation === meta.generation) return this.touch(cacheKey, cached.index);
    const revision = meta.revision ?? 0;
    const fromSnapshot = await readSnapshot(snapshotFile(this.snapshotDir, tenant, meta.graph_id), meta.generation, revision);
    const index = fromSnapshot ?? new GraphIndex();
    if (!fromSnapshot) {
      const prefix = graphDataPrefix(tenant, meta.graph_id, meta.generation);
      const nodePrefix = dataKey.nodes(prefix);
      const edgePrefix = dataKey.edges(prefix);
      await this.scan(nodePrefix, (entries) => {
        for (const [key, value] of entries) index.putNode(decodeNode(key.slice(nodePrefix.length), value));
      });
      await this.scan(edgePrefix, (entries) => {
        for (const [key, value] of entries) index.putEdge(decodeEdge(key.slice(edgePrefix.length), value));
      });
    }
    const entry: LoadedGraph = { tenant, graphId: meta.graph_id, generation: meta.generation, revision, index, ...(fromSnapshot ? { snapshotRevision: revision } : {}) };
    this.loaded.delete(cacheKey);
    this.loaded.set(cacheKey, entry);
    this.evict(cacheKey);
    // a graph rebuilt from its records gets its snapshot at close(), not here: serialising
    // a million-fact graph holds the event loop for seconds, and a query is waiting
    return index;
  }

  /** Marks a loaded graph most recently used. */
  private touch(cacheKey: string, index: GraphIndex): GraphIndex {
    const entry = this.loaded.get(cacheKey)!;
    this.loaded.delete(cacheKey);
    this.loaded.set(cacheKey, entry);
    return index;
  }

  /** Drops the least recently used graphs but `keep` while the loaded graphs hold more than cacheFacts facts. */
  private evict(keep: string): void {
    let total = 0;
    for (const { index } of this.loaded.values()) total += index.factCount;
    for (const [key, { index }] of this.loaded) {
      if (total <= this.cacheFacts) return;
      if (key === keep) continue;
      this.loaded.delete(key);
      total -= index.factCount;
    }
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

  private graphMeta(tenant: string, graphId: string): Promise<GraphMeta | undefined> {
    return this.getJson<GraphMeta>(metaKey.graph(tenant, graphId));
  }

  private async getJson<T>(key: string): Promise<T | undefined> {
    const value = await this.db.get(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  private async page<T>(prefix: string, pageSize = DEFAULT_PAGE_SIZE, pageToken: string | undefined, idOf: (item: T) => string): Promise<Page<T>> {
    const size = Math.min(Math.max(1, Math.floor(pageSize)), MAX_PAGE_SIZE);
    const after = pageToken === undefined ? undefined : decodePageToken(pageToken);
    const { gte, lt } = prefixRange(prefix);
    const range = after === undefined ? { gte, lt } : { gt: prefix + after, lt };
    const items = (await this.db.values({ ...range, limit: size + 1 }).all()).map((value) => JSON.parse(value) as T);
    if (items.length <= size) return { items };
    items.length = size;
    return { items, next_page_token: Buffer.from(idOf(items[size - 1])).toString('base64url') };
  }

}

function graphLockKey(tenant: string, graphId: string): string {
  return tenant + '\u0000' + graphId;
}

function newGraphMetaOp(tenant: string, graphId: string, now: string): { type: 'put'; key: string; value: string } {
  const meta: GraphMeta = { graph_id: graphId, created_at: now, updated_at: now, generation: randomBytes(6).toString('hex') };
  return { type: 'put', key: metaKey.graph(tenant, graphId), value: JSON.stringify(meta) };
}

function decodePageToken(token: string): string {
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  if (decoded.length === 0 || decoded.includes('\u0000')) throw new ValidationError('invalid_page_token', 'page_token is not one this server issued', { field: 'page_token' });
  return decoded;
}

export function nodeIdOf(input: NodeInput): string {
  return input.id ?? deriveNodeId(input.labels[0], input.properties);
}

export function edgeIdOf(input: EdgeInput): string {
  return input.id ?? deriveEdgeId(input.type, input.from, input.to, input.properties ?? {});
}

/** Touched.from and .to of a record that is no edge, or not placed yet. */
const UNPLACED = -2;

/** A record some write of a commit touches: as stored before the commit, as the writes so far leave it, and as it was before the write now merging. */
interface Touched<R> {
  stored: R | undefined;
  record: R;
  before: R | undefined;
  /** The last write that touched it, and whether some write changed it. */
  write: number;
  changed: boolean;
  /** A node's labels as that write last gave them. */
  labels: readonly string[] | undefined;
  /** An edge's ends by dense id in the index (-1: found by id when the edge goes in). */
  from: number;
  to: number;
}

const recordOf = <R>(touched: Touched<R>): R => touched.record;

/** What one write changed of the records it touched, each as the write left it. */
interface Changes<R> {
  created: Touched<R>[];
  updated: R[];
}

async function changesOf<R extends NodeRecord | EdgeRecord>(touched: readonly Touched<R>[], slicer: LoopSlicer): Promise<Changes<R>> {
  const changes: Changes<R> = { created: [], updated: [] };
  for (let i = 0; i < touched.length; i++) {
    if (slicer.dueStep()) await slicer.turn();
    const entry = touched[i];
    const previous = entry.before;
    if (previous && sameRecord(previous, entry.record)) continue;
    entry.changed = true;
    if (previous) changes.updated.push(entry.record);
    else changes.created.push(entry);
  }
  return changes;
}

/** Of several writes' merged records: those some write changed that differ from the stored ones. */
function changedSinceStored<R extends NodeRecord | EdgeRecord>(merged: ReadonlyMap<string, Touched<R>>): R[] {
  const records: R[] = [];
  for (const { changed, stored, record } of merged.values()) if (changed && (!stored || !sameRecord(stored, record))) records.push(record);
  return records;
}

/**
 * Whether a merged record equals the stored one. Merging only appends provenance, so a
 * longer provenance list is a change, found without serialising the whole record (a
 * much-mentioned actor carries hundreds of provenance records).
 */
function sameRecord(before: NodeRecord | EdgeRecord, after: NodeRecord | EdgeRecord): boolean {
  if (before.provenance.length !== after.provenance.length || before.confidence !== after.confidence) return false;
  return canonicalJson(before) === canonicalJson(after);
}

/** Fields that tell provenance records apart cheaply: records that differ in them are never equal. */
function provenanceSketch(record: Provenance): string {
  return `${record.document_id ?? ''}\u0000${record.span?.start ?? ''}\u0000${record.span?.end ?? ''}\u0000${record.source}`;
}

/**
 * The provenance of a record that has none, and the properties of an edge that has none:
 * shared by every such record (most imported edges), where an empty array and object each
 * were copied by every collection during an import. Frozen, so that no code can change one
 * record's through another's (stored records are replaced, never edited).
 */
const NO_PROVENANCE = Object.freeze([]) as unknown as Provenance[];
const NO_PROPERTIES = Object.freeze({}) as Record<string, PropertyValue>;

function hasNoKeys(object: object | undefined): boolean {
  for (const _ in object) return false;
  return true;
}

function unionProvenance(existing: readonly Provenance[], incoming: readonly Provenance[] | undefined): Provenance[] {
  if (!incoming || incoming.length === 0) return existing.length === 0 ? NO_PROVENANCE : [...existing];
  // only stored records that may equal an incoming one are serialised: a write costs what it brings, not what the node holds
  const sketches = new Set(incoming.map(provenanceSketch));
  const seen = new Set(existing.filter((record) => sketches.has(provenanceSketch(record))).map(canonicalJson));
  const result = [...existing];
  for (const record of incoming) {
    const key = canonicalJson(record);
    if (!seen.has(key)) {
      seen.add(key);
      result.push(record);
    }
  }
  return result;
}

/** Incoming properties over stored ones, keeping known values against "not known" ones and unioning `aliases`. */
export function mergeNodeProperties(existing: Pick<NodeRecord, 'properties'> | undefined, input: NodeInput, labels: readonly string[]): Record<string, PropertyValue> {
  const properties = { ...existing?.properties, ...input.properties };
  if (!existing) return properties;
  for (const label of labels) {
    for (const [key, unknown] of Object.entries(NODE_UNKNOWN_VALUES[label as NodeKind] ?? {})) {
      const stored = existing.properties[key];
      if (input.properties[key] === unknown && typeof stored === 'string' && stored !== unknown) properties[key] = stored;
    }
  }
  const oldAliases = existing.properties.aliases;
  const newAliases = input.properties.aliases;
  if (Array.isArray(oldAliases) && Array.isArray(newAliases)) properties.aliases = [...new Set([...oldAliases, ...newAliases])];
  return properties;
}

/**
 * Merges an input of write number `write` into `merged` (the records as the writes so far
 * leave them), onto the record before it: one merged earlier, else the stored one. `touched`
 * gets the records this write touches, in the order it first names them.
 */
function mergeInput<I, R>(
  input: I,
  id: string,
  write: number,
  storedOf: (id: string) => R | undefined,
  merged: Map<string, Touched<R>>,
  touched: Touched<R>[],
  merge: (previous: R | undefined, input: I, id: string) => R,
): Touched<R> {
  let entry = merged.get(id);
  if (!entry) {
    const stored = storedOf(id);
    entry = { stored, record: merge(stored, input, id), before: stored, write, changed: false, labels: undefined, from: UNPLACED, to: UNPLACED };
    merged.set(id, entry);
    touched.push(entry);
    return entry;
  }
  if (entry.write !== write) {
    entry.before = entry.record;
    entry.write = write;
    touched.push(entry);
  }
  entry.record = merge(entry.record, input, id);
  return entry;
}

function mergeNode(existing: NodeRecord | undefined, input: NodeInput, id: string, now: string): NodeRecord {
  const labels = existing ? [...new Set([...existing.labels, ...input.labels])] : [...input.labels];
  return {
    id,
    labels,
    properties: mergeNodeProperties(existing, input, labels),
    confidence: Math.max(existing?.confidence ?? 0, input.confidence ?? DEFAULT_CONFIDENCE),
    provenance: unionProvenance(existing?.provenance ?? [], input.provenance),
    recorded_at: existing?.recorded_at ?? input.recorded_at ?? now,
  };
}

function mergeEdge(existing: EdgeRecord | undefined, input: EdgeInput, id: string, now: string): EdgeRecord {
  if (existing && (existing.from !== input.from || existing.to !== input.to || existing.type !== input.type)) {
    throw new ConflictError('edge_id_conflict', `edge '${id}' exists already with other endpoints or type`, { edge_id: id });
  }
  return {
    id,
    type: input.type,
    from: input.from,
    to: input.to,
    properties: hasNoKeys(existing?.properties) && hasNoKeys(input.properties) ? NO_PROPERTIES : { ...existing?.properties, ...input.properties },
    confidence: Math.max(existing?.confidence ?? 0, input.confidence ?? DEFAULT_CONFIDENCE),
    provenance: unionProvenance(existing?.provenance ?? [], input.provenance),
    recorded_at: existing?.recorded_at ?? input.recorded_at ?? now,
  };
}
