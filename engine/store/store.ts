import path from 'node:path';
import type { CorrectionInput, CorrectionRecord } from './corrections.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';
import { ApiKeys } from './api-keys.ts';
import type { ApiKeyRecord, CommittedImport, GraphMeta, KeyScope, Page, StoreBackend, Workspace, WriteSummary } from './backend.ts';
import { DEFAULT_CACHE_FACTS, GraphCache, type GraphChange } from './graph-cache.ts';
import { GraphCorrections, type ListedCorrection, type Trace } from './graph-corrections.ts';
import { GraphRecords } from './graph-records.ts';
import { DEFAULT_MIN_REVISION_WAIT_MS, GraphFollower, reachRevision, type ReplicationLag } from './follow.ts';
import { LevelBackend } from './level-backend.ts';
import { PgBackend } from './pg-backend.ts';
import { SerialQueue } from './serial-queue.ts';
import { removeUnfinishedSnapshots } from './snapshot.ts';
import type { GraphWrite } from './validate.ts';
import { Workspaces } from './workspaces.ts';

export type { ListedCorrection, Trace } from './graph-corrections.ts';
export type { ApiKeyRecord, CommittedImport, GraphMeta, KeyScope, Page, Workspace, WriteSummary } from './backend.ts';
export type { EdgeInput, GraphWrite, NodeInput } from './validate.ts';
export { DEFAULT_CACHE_FACTS, type GraphChange } from './graph-cache.ts';
export { DEFAULT_MIN_REVISION_WAIT_MS, type ReplicationLag } from './follow.ts';

/** Whether a store location names a PostgreSQL database (else it is a LevelDB directory). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

/**
 * The store: API keys, workspaces and graphs, kept by a backend (backend.ts: the LevelDB
 * directory, level-backend.ts), each graph loaded once, lazily, into a GraphIndex that every
 * later write keeps in step (graph-cache.ts); every write is one atomic batch applied to the
 * index only after it is durable (graph-records.ts).
 */
export class ParleyStore {
  /** One writer per graph at a time: the graph's writes, its loading, and a workspace creating it. */
  private readonly locks = new SerialQueue();
  private readonly keys: ApiKeys;
  private readonly workspaces: Workspaces;
  private readonly graphs: GraphRecords;
  private readonly cache: GraphCache;
  private readonly corrections: GraphCorrections;
  /** Follows the other servers' writes to a shared backend (absent: LevelDB, this process its only writer). */
  private follower: GraphFollower | undefined;

  private constructor(
    private readonly backend: StoreBackend,
    cacheFacts: number,
    /** Where the graphs' snapshots are kept, and beside them the reasoning workers' view images (engine/reason/view-images.ts). */
    readonly snapshotDir: string,
  ) {
    this.keys = new ApiKeys(backend);
    this.workspaces = new Workspaces(backend, this.locks);
    this.cache = new GraphCache(backend, this.locks, cacheFacts, snapshotDir);
    this.graphs = new GraphRecords(backend, this.locks, this.cache);
    this.corrections = new GraphCorrections(backend, this.locks, this.cache);
  }

  /**
   * The store in LevelDB directory `location`, its graph snapshots in a folder inside it (which
   * LevelDB leaves alone), or in the PostgreSQL database `location` names (postgres://…), its
   * snapshots in `snapshotDir` (required then), following the writes of the other servers
   * sharing the database. `cacheFacts`: how many facts (nodes, node properties, edges) the
   * loaded graphs may hold together; the graph in use always stays.
   */
  static async open(location: string, options: { cacheFacts?: number; snapshotDir?: string } = {}): Promise<ParleyStore> {
    const postgres = isPostgresUrl(location);
    if (postgres && options.snapshotDir === undefined) throw new Error('a PostgreSQL store needs a local folder for its graph snapshots (snapshotDir)');
    const snapshotDir = options.snapshotDir ?? path.join(location, 'snapshots');
    const backend = postgres ? await PgBackend.open(location) : await LevelBackend.open(location);
    const store = new ParleyStore(backend, options.cacheFacts ?? DEFAULT_CACHE_FACTS, snapshotDir);
    if (backend instanceof PgBackend) {
      store.follower = new GraphFollower(store.cache);
      await store.follower.start(backend);
    }
    await removeUnfinishedSnapshots(snapshotDir);
    return store;
  }

  /** What keeps the records, and (a shared backend) how far this process is behind the others' writes. */
  storeStatus(): { kind: StoreBackend['kind']; replication?: ReplicationLag } {
    return this.follower ? { kind: this.backend.kind, replication: this.follower.lag() } : { kind: this.backend.kind };
  }

  /**
   * Resolves once this process serves the graph at `revision` or later (a write made through
   * another server sharing the backend), waiting up to `waitMs`; else a 503 naming the revision it has.
   */
  reachRevision(tenant: string, graphId: string, revision: number, waitMs = DEFAULT_MIN_REVISION_WAIT_MS): Promise<void> {
    return reachRevision(this.backend, this.cache, tenant, graphId, revision, waitMs);
  }

  /** The revision of the graph as this process serves it (its stored one when it is not loaded). */
  async graphRevision(tenant: string, graphId: string): Promise<number> {
    return this.cache.loadedRevision(tenant, graphId) ?? (await this.graphs.getGraphMeta(tenant, graphId)).revision ?? 0;
  }

  /** Waits for the writes, snapshots every loaded graph changed since its snapshot, and closes. */
  async close(): Promise<void> {
    this.follower?.close();
    await this.locks.drain();
    await this.cache.writeSnapshots();
    await this.backend.close();
  }

  // ---- API keys (api-keys.ts) ---------------------------------------------------

  createKey(options: { tenant: string; scope: KeyScope; admin?: boolean; name?: string; secret?: string }): Promise<{ record: ApiKeyRecord; secret: string }> {
    return this.keys.createKey(options);
  }

  bootstrapAdminKey(fromEnvironment?: string): Promise<{ created: boolean; secret?: string; revoked?: boolean }> {
    return this.keys.bootstrapAdminKey(fromEnvironment);
  }

  authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.authenticate(secret);
  }

  listKeys(): Promise<ApiKeyRecord[]> {
    return this.keys.listKeys();
  }

  revokeKey(keyId: string): Promise<ApiKeyRecord> {
    return this.keys.revokeKey(keyId);
  }

  // ---- workspaces (workspaces.ts) -------------------------------------------------

  createWorkspace(tenant: string, input: Omit<Workspace, 'id' | 'created_at' | 'graph_id'> & { graph_id?: string }): Promise<Workspace> {
    return this.workspaces.createWorkspace(tenant, input);
  }

  getWorkspace(tenant: string, id: string): Promise<Workspace> {
    return this.workspaces.getWorkspace(tenant, id);
  }

  listWorkspaces(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<Workspace>> {
    return this.workspaces.listWorkspaces(tenant, pageSize, pageToken);
  }

  workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]> {
    return this.workspaces.workspacesOfGraph(tenant, graphId);
  }

  deleteWorkspace(tenant: string, id: string): Promise<void> {
    return this.workspaces.deleteWorkspace(tenant, id);
  }

  // ---- graphs (graph-records.ts, graph-cache.ts) ------------------------------------

  /** Whether the graph exists: without a backend read for a graph in memory whose meta is trusted (trustedMeta; a batch asks at every commit). */
  async graphExists(tenant: string, graphId: string): Promise<boolean> {
    return this.trustedMeta(tenant, graphId) !== undefined || this.graphs.graphExists(tenant, graphId);
  }

  /**
   * The graph's stored meta. For a graph in memory it is the one kept with it where this process is
   * the backend's only writer (LevelDB); servers sharing a PostgreSQL database read it each time,
   * since another may have written the graph since.
   */
  async getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta> {
    return this.trustedMeta(tenant, graphId) ?? this.graphs.getGraphMeta(tenant, graphId);
  }

  /** The meta kept with a graph in memory, where this process is the backend's only writer (no follower); else undefined: read the backend. */
  private trustedMeta(tenant: string, graphId: string): GraphMeta | undefined {
    return this.follower ? undefined : this.cache.loadedMeta(tenant, graphId);
  }

  listGraphs(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<GraphMeta>> {
    return this.graphs.listGraphs(tenant, pageSize, pageToken);
  }

  createGraph(tenant: string, graphId: string): Promise<GraphMeta> {
    return this.graphs.createGraph(tenant, graphId);
  }

  deleteGraph(tenant: string, graphId: string): Promise<void> {
    return this.graphs.deleteGraph(tenant, graphId);
  }

  committedImport(tenant: string, graphId: string, idempotencyKey: string): Promise<CommittedImport | undefined> {
    return this.graphs.committedImport(tenant, graphId, idempotencyKey);
  }

  onChange(listener: (change: GraphChange) => void | Promise<void>): () => void {
    return this.cache.onChange(listener);
  }

  loadedGeneration(tenant: string, graphId: string): string | undefined {
    return this.cache.loadedGeneration(tenant, graphId);
  }

  /** The revision of a graph's in-memory index, when it is loaded (no backend read): in step with the changes the listeners were told of. */
  loadedRevision(tenant: string, graphId: string): number | undefined {
    return this.cache.loadedRevision(tenant, graphId);
  }

  /** The snapshot file that holds a loaded graph's index as it is now, and its revision (GraphCache.currentSnapshot): what a reasoning worker may read in place of the records sent. */
  currentSnapshot(tenant: string, graphId: string): { file: string; revision: number } | undefined {
    return this.cache.currentSnapshot(tenant, graphId);
  }

  /**
   * The graphs of every tenant this store held in memory at its last closes (those with a
   * snapshot), most recently written first: what a restart warms (engine/reason/warm.ts).
   */
  recentGraphs(): Promise<{ tenant: string; graphId: string; bytes: number }[]> {
    return this.cache.snapshotGraphs();
  }

  loadGraph(tenant: string, graphId: string): Promise<GraphIndex> {
    return this.cache.loadGraph(tenant, graphId);
  }

  /** The graph's index and generation without waiting, when it is in memory and no write is being applied to it; else undefined (loadGraph waits). */
  loadedGraph(tenant: string, graphId: string): { index: GraphIndex; generation: string } | undefined {
    return this.cache.loadedState(tenant, graphId);
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
    const { summaries, replayed } = await this.graphs.commitWrites(tenant, graphId, [write], options);
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
    return (await this.graphs.commitWrites(tenant, graphId, writes, {})).summaries;
  }

  // ---- corrections (graph-corrections.ts, engine/store/corrections.ts) ------------------------

  /** Makes a correction (merge, retract, retype, set) of a graph, made by the key `keyId`; answers its audit record. */
  correct(tenant: string, graphId: string, input: CorrectionInput, keyId: string): Promise<CorrectionRecord> {
    return this.corrections.correct(tenant, graphId, input, keyId);
  }

  /** Undoes a correction; answers the undo's audit record. */
  undoCorrection(tenant: string, graphId: string, correctionId: string, keyId: string): Promise<CorrectionRecord> {
    return this.corrections.undo(tenant, graphId, correctionId, keyId);
  }

  /** A graph's corrections and undos, newest first. */
  listCorrections(tenant: string, graphId: string, pageSize?: number, pageToken?: string): Promise<Page<ListedCorrection>> {
    return this.corrections.list(tenant, graphId, pageSize, pageToken);
  }

  /** The graph as read at `asOf`, when a correction was made or undone since (else undefined: the graph as read now, cut at `asOf`). */
  graphAsOf(tenant: string, graphId: string, asOf: string): Promise<GraphIndex | undefined> {
    return this.corrections.asOf(tenant, graphId, asOf);
  }

  traceNode(tenant: string, graphId: string, id: string): Promise<Trace<NodeRecord>> {
    return this.corrections.traceNode(tenant, graphId, id);
  }

  traceEdge(tenant: string, graphId: string, id: string): Promise<Trace<EdgeRecord>> {
    return this.corrections.traceEdge(tenant, graphId, id);
  }
}
