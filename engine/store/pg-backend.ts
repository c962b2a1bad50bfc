/**
 * The store's records in a PostgreSQL database (PARLEY_STORE=postgres://…), the same records
 * the LevelDB backend keeps, one table per kind. Several servers may share one database: a
 * graph's writes are serialised across them by an advisory lock taken in the write's
 * transaction (writingGraph), and each commit of records is announced on a channel with the
 * graph's new revision, so that every server follows the others' writes (follow, recordsSince).
 *
 * Records keep the LevelDB backend's values byte for byte: meta records as JSON text, node and
 * edge records in record-codec.ts's encoding, kept as bytea (the encoding joins fields with
 * NUL, which a text column refuses). Ids are `COLLATE "C"`, so that lists and scans come in
 * the byte order of LevelDB's keys and a graph loads in the same order from either backend.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { EdgeRecord, NodeRecord, Provenance } from '../ontology/index.ts';
import type { LoopSlicer } from '../turns.ts';
import { pageOf, type ApiKeyRecord, type CommittedImport, type CorrectionRecord, type GraphBatch, type GraphMeta, type HeldProvenance, type Page, type PageRequest, type RecordsSince, type StoreBackend, type Workspace } from './backend.ts';
import { CHUNKED_FROM, chunkWrite, noteCommitted } from './provenance-chunks.ts';
import type { ProvenanceJson } from './provenance-json.ts';
import { decodeEdge, decodeNode, encodeEdge, encodeNode } from './record-codec.ts';

/** Records written per INSERT of a batch (two arrays of this many values per statement). */
const INSERT_CHUNK = 5_000;
/** Records read per round trip when a graph is loaded (a cursor's fetch). */
const LOAD_CHUNK = 5_000;
/** Connections each server opens to the database, beside its listening one (docs/operations.md says so). */
const POOL_SIZE = 10;
/** The channel a commit announces its graph's revision on. */
const CHANNEL = 'parley_graph_commits';

/**
 * The schema, one step per version, applied in order at start and recorded in
 * parley_migrations; a step is never edited once released, only followed by another.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE api_keys (key_id text COLLATE "C" PRIMARY KEY, record text NOT NULL);
   CREATE TABLE workspaces (tenant text COLLATE "C", id text COLLATE "C", graph_id text COLLATE "C" NOT NULL, record text NOT NULL, PRIMARY KEY (tenant, id));
   CREATE INDEX workspaces_by_graph ON workspaces (tenant, graph_id, id);
   CREATE TABLE graphs (tenant text COLLATE "C", graph_id text COLLATE "C", record text NOT NULL, PRIMARY KEY (tenant, graph_id));
   CREATE TABLE nodes (tenant text COLLATE "C", graph_id text COLLATE "C", generation text COLLATE "C", id text COLLATE "C", revision integer NOT NULL, record bytea NOT NULL, PRIMARY KEY (tenant, graph_id, generation, id));
   CREATE INDEX nodes_by_revision ON nodes (tenant, graph_id, generation, revision);
   CREATE TABLE edges (tenant text COLLATE "C", graph_id text COLLATE "C", generation text COLLATE "C", id text COLLATE "C", revision integer NOT NULL, record bytea NOT NULL, PRIMARY KEY (tenant, graph_id, generation, id));
   CREATE INDEX edges_by_revision ON edges (tenant, graph_id, generation, revision);
   CREATE TABLE committed_imports (tenant text COLLATE "C", graph_id text COLLATE "C", generation text COLLATE "C", idempotency_key text COLLATE "C", record text NOT NULL, PRIMARY KEY (tenant, graph_id, generation, idempotency_key));
   CREATE TABLE corrections (tenant text COLLATE "C", graph_id text COLLATE "C", generation text COLLATE "C", ordinal integer, revision integer NOT NULL, record text NOT NULL, PRIMARY KEY (tenant, graph_id, generation, ordinal));`,
  // the chunks of long provenance lists (provenance-chunks.ts): a node's (kind 'n') or edge's ('e'), from entry `start` on
  `CREATE TABLE provenance_chunks (tenant text COLLATE "C", graph_id text COLLATE "C", generation text COLLATE "C", kind text COLLATE "C", id text COLLATE "C", start integer, entries bytea NOT NULL, PRIMARY KEY (tenant, graph_id, generation, kind, id, start));`,
];

/** The transaction of a graph's write in progress (writingGraph), while it is open. */
interface GraphTransaction {
  client: pg.PoolClient;
  open: boolean;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

/** A commit announced by some server (this one included): the graph is at `revision`, or gone. */
export interface GraphCommit {
  tenant: string;
  graphId: string;
  generation: string;
  revision: number;
  deleted?: boolean;
}

export class PgBackend implements StoreBackend {
  readonly kind = 'postgres';
  /** The write transaction of the async context a query runs in, if any: its queries go through it. */
  private readonly transaction = new AsyncLocalStorage<GraphTransaction>();
  private listener: pg.Client | undefined;
  private readonly commitListeners = new Set<(commit: GraphCommit) => void>();
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  /** Opens the database at `url`, bringing its schema to the latest migration. */
  static async open(url: string): Promise<PgBackend> {
    const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
    // an idle connection the server dropped is replaced on next use; without a listener its error would end the process
    pool.on('error', () => undefined);
    const backend = new PgBackend(pool, url);
    try {
      await backend.migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return backend;
  }

  /** Applies the migrations the database lacks, each in a transaction, servers starting together taking turns. */
  private async migrate(): Promise<void> {
    await inOwnTransaction(this.pool, 'BEGIN', async (client) => {
      // one server migrates at a time; the others find the work done
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('parley migrations', 0))`);
      await client.query('CREATE TABLE IF NOT EXISTS parley_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM parley_migrations');
      const applied = rows[0].version ?? 0;
      for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
        await client.query(MIGRATIONS[version - 1]);
        await client.query('INSERT INTO parley_migrations (version) VALUES ($1)', [version]);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.transactionOrPool().query<R>(text, values);
  }

  // ---- one writer per graph ------------------------------------------------------

  /**
   * Runs a graph's write in one transaction that first takes the graph's advisory lock, so that
   * the servers sharing the database write a graph one at a time; the lock goes with the
   * transaction (a server that dies mid-write releases it). A commit of records ends the
   * transaction itself (commitGraph), so the lock is released once they are durable.
   */
  async writingGraph<T>(tenant: string, graphId: string, write: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const transaction: GraphTransaction = { client, open: true };
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [graphLockId(tenant, graphId)]);
      const result = await this.transaction.run(transaction, write);
      if (transaction.open) await this.endTransaction(transaction, 'COMMIT');
      return result;
    } catch (error) {
      if (transaction.open) await this.endTransaction(transaction, 'ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async endTransaction(transaction: GraphTransaction, end: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    transaction.open = false;
    await transaction.client.query(end);
  }

  /** A commit statement's effect plus its announcement, inside the write's transaction when there is one, else in one of its own. */
  private async inTransaction(run: (client: Queryable) => Promise<void>): Promise<void> {
    const transaction = this.transaction.getStore();
    if (transaction?.open) {
      await run(transaction.client);
      await this.endTransaction(transaction, 'COMMIT');
      return;
    }
    await inOwnTransaction(this.pool, 'BEGIN', run);
  }

  // ---- following the other servers -------------------------------------------------

  /**
   * Calls `listener` for every graph commit announced on the database (this server's own
   * included), from a connection kept listening; it reconnects when the connection drops and
   * then calls `onReconnect`, since announcements made meanwhile are lost.
   */
  async follow(listener: (commit: GraphCommit) => void, onReconnect: () => void): Promise<() => void> {
    this.commitListeners.add(listener);
    if (!this.listener) await this.listen(onReconnect);
    return () => this.commitListeners.delete(listener);
  }

  private async listen(onReconnect: () => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    client.on('notification', ({ payload }) => {
      if (!payload) return;
      const commit = JSON.parse(payload) as GraphCommit;
      for (const listener of this.commitListeners) listener(commit);
    });
    client.on('error', () => {
      if (this.closed) return;
      client.end().catch(() => undefined);
      const retry = () => {
        if (this.closed) return;
        this.listen(onReconnect).then(onReconnect, () => setTimeout(retry, 1000).unref());
      };
      setTimeout(retry, 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
  }

  /**
   * Read in one snapshot (inside a write's transaction, under the graph's lock, nothing else
   * commits to the graph). A changed record's long list is read from its last chunk starting
   * at or before the length `held` has: the entries before that chunk are those held (lists
   * only grow, and a list rewritten whole starts again at chunk 0), so a commit that appends
   * to a list costs its followers the chunk it wrote, not the whole list again.
   */
  async recordsSince(tenant: string, graphId: string, generation: string, revision: number, held: HeldProvenance): Promise<RecordsSince | undefined> {
    return this.snapshot(async (client) => {
      const meta = await this.one<GraphMeta>('SELECT record FROM graphs WHERE tenant = $1 AND graph_id = $2', [tenant, graphId], client);
      if (!meta) return undefined;
      if (meta.generation !== generation) return { generation: meta.generation, revision: meta.revision ?? 0, nodes: [], edges: [], corrected: false };
      const args = [tenant, graphId, generation, revision];
      const nodes = await client.query<{ id: string; record: Buffer }>('SELECT id, record FROM nodes WHERE tenant = $1 AND graph_id = $2 AND generation = $3 AND revision > $4 ORDER BY id', args);
      const edges = await client.query<{ id: string; record: Buffer }>('SELECT id, record FROM edges WHERE tenant = $1 AND graph_id = $2 AND generation = $3 AND revision > $4 ORDER BY id', args);
      const corrections = await client.query('SELECT 1 FROM corrections WHERE tenant = $1 AND graph_id = $2 AND generation = $3 AND revision > $4 LIMIT 1', args);
      const graph: GraphKey = [tenant, graphId, generation];
      const heldNode = (id: string) => held('node', id);
      const heldEdge = (id: string) => held('edge', id);
      const nodeChunks = await readChunks(client, graph, 'n', { ids: nodes.rows.map((row) => row.id), held: heldNode });
      const edgeChunks = await readChunks(client, graph, 'e', { ids: edges.rows.map((row) => row.id), held: heldEdge });
      return {
        generation,
        revision: meta.revision ?? 0,
        nodes: nodes.rows.map((row) => decodeNode(row.id, row.record.toString('utf8'), ...pastHeld(nodeChunks.get(row.id), heldNode(row.id)))),
        edges: edges.rows.map((row) => decodeEdge(row.id, row.record.toString('utf8'), ...pastHeld(edgeChunks.get(row.id), heldEdge(row.id)))),
        corrected: corrections.rows.length > 0,
      };
    });
  }

  /** Runs `read` in the write's transaction, or else in a read-only snapshot of its own: what it reads is of one moment. */
  private async snapshot<T>(read: (client: Queryable) => Promise<T>): Promise<T> {
    const transaction = this.transaction.getStore();
    if (transaction?.open) return read(transaction.client);
    return inOwnTransaction(this.pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', read);
  }

  // ---- keys ---------------------------------------------------------------

  async getKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    return this.one<ApiKeyRecord>('SELECT record FROM api_keys WHERE key_id = $1', [keyId]);
  }

  async putKey(record: ApiKeyRecord): Promise<void> {
    await this.query('INSERT INTO api_keys (key_id, record) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET record = excluded.record', [record.key_id, JSON.stringify(record)]);
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return this.all<ApiKeyRecord>('SELECT record FROM api_keys ORDER BY key_id', []);
  }

  // ---- workspaces -----------------------------------------------------------

  getWorkspace(tenant: string, id: string): Promise<Workspace | undefined> {
    return this.one<Workspace>('SELECT record FROM workspaces WHERE tenant = $1 AND id = $2', [tenant, id]);
  }

  async putWorkspace(tenant: string, workspace: Workspace, newGraph: GraphMeta | undefined): Promise<void> {
    await this.inTransaction(async (client) => {
      await client.query('INSERT INTO workspaces (tenant, id, graph_id, record) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant, id) DO UPDATE SET graph_id = excluded.graph_id, record = excluded.record', [
        tenant,
        workspace.id,
        workspace.graph_id,
        JSON.stringify(workspace),
      ]);
      if (newGraph) await putMeta(client, tenant, newGraph);
    });
  }

  async deleteWorkspace(tenant: string, workspace: Workspace): Promise<void> {
    await this.query('DELETE FROM workspaces WHERE tenant = $1 AND id = $2', [tenant, workspace.id]);
  }

  listWorkspaces(tenant: string, page: PageRequest): Promise<Page<Workspace>> {
    return this.page<Workspace>('workspaces', 'id', tenant, page, (w) => w.id);
  }

  workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]> {
    return this.all<Workspace>('SELECT record FROM workspaces WHERE tenant = $1 AND graph_id = $2 ORDER BY id', [tenant, graphId]);
  }

  // ---- graphs ---------------------------------------------------------------

  getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta | undefined> {
    return this.one<GraphMeta>('SELECT record FROM graphs WHERE tenant = $1 AND graph_id = $2', [tenant, graphId]);
  }

  async putGraphMeta(tenant: string, meta: GraphMeta): Promise<void> {
    await putMeta(this.transactionOrPool(), tenant, meta);
  }

  listGraphs(tenant: string, page: PageRequest): Promise<Page<GraphMeta>> {
    return this.page<GraphMeta>('graphs', 'graph_id', tenant, page, (g) => g.graph_id);
  }

  async dropGraphMeta(tenant: string, graphId: string): Promise<void> {
    const { rows } = await this.query<{ record: string }>('DELETE FROM graphs WHERE tenant = $1 AND graph_id = $2 RETURNING record', [tenant, graphId]);
    if (rows.length === 0) return;
    const meta = JSON.parse(rows[0].record) as GraphMeta;
    await this.announce(this.transactionOrPool(), { tenant, graphId, generation: meta.generation, revision: meta.revision ?? 0, deleted: true });
  }

  async clearGraphData(tenant: string, graphId: string, generation: string): Promise<void> {
    for (const table of ['nodes', 'edges', 'provenance_chunks', 'committed_imports', 'corrections']) {
      await this.query(`DELETE FROM ${table} WHERE tenant = $1 AND graph_id = $2 AND generation = $3`, [tenant, graphId, generation]);
    }
  }

  /**
   * The batch's statements and its announcement in one transaction (the write's own, which this
   * ends). A long provenance list goes in chunks beside its record: only the entries its chunks
   * do not hold yet (provenance-chunks.ts).
   */
  async commitGraph(batch: GraphBatch, slicer: LoopSlicer): Promise<void> {
    const { tenant, graphId, generation } = batch;
    const revision = batch.meta?.revision ?? 0;
    const chunks = new ChunkRows(batch.provenanceJson);
    const nodeIds: string[] = [];
    const nodeRecords: Buffer[] = [];
    for (const node of batch.nodes) {
      if (slicer.dueStep()) await slicer.turn();
      nodeIds.push(node.id);
      nodeRecords.push(Buffer.from(encodeNode(node, chunks.add('n', node.id, node.provenance), batch.provenanceJson), 'utf8'));
    }
    const edgeIds: string[] = [];
    const edgeRecords: Buffer[] = [];
    for (const edge of batch.edges) {
      if (slicer.dueStep()) await slicer.turn();
      edgeIds.push(edge.id);
      edgeRecords.push(Buffer.from(encodeEdge(edge, chunks.add('e', edge.id, edge.provenance), batch.provenanceJson), 'utf8'));
    }
    const corrections = batch.corrections ?? [];
    if (nodeIds.length + edgeIds.length + corrections.length === 0 && !batch.meta && !batch.committedImport) return;
    await this.inTransaction(async (client) => {
      await putRecords(client, 'nodes', tenant, graphId, generation, revision, nodeIds, nodeRecords);
      await putRecords(client, 'edges', tenant, graphId, generation, revision, edgeIds, edgeRecords);
      await chunks.put(client, tenant, graphId, generation);
      if (batch.committedImport) {
        await client.query('INSERT INTO committed_imports (tenant, graph_id, generation, idempotency_key, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
          tenant,
          graphId,
          generation,
          batch.committedImport.idempotency_key,
          JSON.stringify(batch.committedImport),
        ]);
      }
      for (const correction of corrections) {
        await client.query('INSERT INTO corrections (tenant, graph_id, generation, ordinal, revision, record) VALUES ($1, $2, $3, $4, $5, $6)', [
          tenant,
          graphId,
          generation,
          correction.ordinal,
          revision,
          JSON.stringify(correction),
        ]);
      }
      if (batch.meta) {
        await putMeta(client, tenant, batch.meta);
        await this.announce(client, { tenant, graphId, generation, revision });
      }
    });
    chunks.committed();
  }

  /** Tells every listening server (at the transaction's commit) that the graph is at a new revision, or gone. */
  private async announce(client: Queryable, commit: GraphCommit): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(commit)]);
  }

  committedImport(tenant: string, graphId: string, generation: string, idempotencyKey: string): Promise<CommittedImport | undefined> {
    return this.one<CommittedImport>('SELECT record FROM committed_imports WHERE tenant = $1 AND graph_id = $2 AND generation = $3 AND idempotency_key = $4', [
      tenant,
      graphId,
      generation,
      idempotencyKey,
    ]);
  }

  graphCorrections(tenant: string, graphId: string, generation: string): Promise<CorrectionRecord[]> {
    return this.all<CorrectionRecord>('SELECT record FROM corrections WHERE tenant = $1 AND graph_id = $2 AND generation = $3 ORDER BY ordinal', [tenant, graphId, generation]);
  }

  /** Reads the records through a cursor, a chunk per round trip, in one snapshot (a concurrent commit is wholly in or out). */
  async scanGraph(tenant: string, graphId: string, generation: string, onNode: (node: NodeRecord) => void, onEdge: (edge: EdgeRecord) => void): Promise<void> {
    const graph: GraphKey = [tenant, graphId, generation];
    await this.snapshot(async (client) => {
      await scanRecords(client, graph, 'n', (id, value, chunks) => onNode(decodeNode(id, value, chunks)));
      await scanRecords(client, graph, 'e', (id, value, chunks) => onEdge(decodeEdge(id, value, chunks)));
    });
  }

  private transactionOrPool(): Queryable {
    const transaction = this.transaction.getStore();
    return transaction?.open ? transaction.client : this.pool;
  }

  private async one<T>(text: string, values: unknown[], client?: Queryable): Promise<T | undefined> {
    const { rows } = await (client ?? this.transactionOrPool()).query<{ record: string }>(text, values);
    return rows.length === 0 ? undefined : (JSON.parse(rows[0].record) as T);
  }

  private async all<T>(text: string, values: unknown[]): Promise<T[]> {
    const { rows } = await this.query<{ record: string }>(text, values);
    return rows.map((row) => JSON.parse(row.record) as T);
  }

  private async page<T>(table: string, idColumn: string, tenant: string, { size, after }: PageRequest, idOf: (item: T) => string): Promise<Page<T>> {
    const items =
      after === undefined
        ? await this.all<T>(`SELECT record FROM ${table} WHERE tenant = $1 ORDER BY ${idColumn} LIMIT $2`, [tenant, size + 1])
        : await this.all<T>(`SELECT record FROM ${table} WHERE tenant = $1 AND ${idColumn} > $2 ORDER BY ${idColumn} LIMIT $3`, [tenant, after, size + 1]);
    return pageOf(items, size, idOf);
  }
}

/** The advisory lock of a graph: 64 bits of a hash of its tenant and id (a collision only makes two graphs take turns). */
function graphLockId(tenant: string, graphId: string): string {
  return createHash('sha256').update(tenant).update('\u0000').update(graphId).digest().readBigInt64BE(0).toString();
}

/** Runs `run` in a transaction of its own on a pooled connection, begun with `begin`: committed when it resolves, rolled back when it throws. */
async function inOwnTransaction<T>(pool: pg.Pool, begin: string, run: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function putMeta(client: Queryable, tenant: string, meta: GraphMeta): Promise<void> {
  await client.query('INSERT INTO graphs (tenant, graph_id, record) VALUES ($1, $2, $3) ON CONFLICT (tenant, graph_id) DO UPDATE SET record = excluded.record', [
    tenant,
    meta.graph_id,
    JSON.stringify(meta),
  ]);
}

/** Upserts records, a chunk per statement, each row stamped with the revision that wrote it (what recordsSince reads by). */
async function putRecords(client: Queryable, table: 'nodes' | 'edges', tenant: string, graphId: string, generation: string, revision: number, ids: string[], records: Buffer[]): Promise<void> {
  for (let at = 0; at < ids.length; at += INSERT_CHUNK) {
    await client.query(
      `INSERT INTO ${table} (tenant, graph_id, generation, id, revision, record)
       SELECT $1, $2, $3, id, $4, record FROM unnest($5::text[], $6::bytea[]) AS batch (id, record)
       ON CONFLICT (tenant, graph_id, generation, id) DO UPDATE SET revision = excluded.revision, record = excluded.record`,
      [tenant, graphId, generation, revision, ids.slice(at, at + INSERT_CHUNK), records.slice(at, at + INSERT_CHUNK)],
    );
  }
}

/** The chunk rows of a commit: the entries of each long list that its record's chunks do not hold yet, and the records whose chunks are not known (deleted first). */
class ChunkRows {
  /** The commit's texts of provenance lists (provenance-json.ts). */
  constructor(private readonly known: ProvenanceJson | undefined) {}

  private readonly kinds: string[] = [];
  private readonly ids: string[] = [];
  private readonly starts: number[] = [];
  private readonly entries: Buffer[] = [];
  private readonly cleared: { kinds: string[]; ids: string[] } = { kinds: [], ids: [] };
  private readonly lists: Provenance[][] = [];

  /** Adds the chunk of a record's list when the list is long enough for chunks (answers whether it is). */
  add(kind: 'n' | 'e', id: string, list: Provenance[]): boolean {
    if (list.length < CHUNKED_FROM) return false;
    const { from, json, clearOld } = chunkWrite(list, this.known);
    if (clearOld) {
      this.cleared.kinds.push(kind);
      this.cleared.ids.push(id);
    }
    if (json !== undefined) {
      this.kinds.push(kind);
      this.ids.push(id);
      this.starts.push(from);
      this.entries.push(Buffer.from(json, 'utf8'));
    }
    this.lists.push(list);
    return true;
  }

  async put(client: Queryable, tenant: string, graphId: string, generation: string): Promise<void> {
    if (this.cleared.ids.length > 0) {
      await client.query('DELETE FROM provenance_chunks WHERE tenant = $1 AND graph_id = $2 AND generation = $3 AND (kind, id) IN (SELECT * FROM unnest($4::text[], $5::text[]))', [
        tenant,
        graphId,
        generation,
        this.cleared.kinds,
        this.cleared.ids,
      ]);
    }
    for (let at = 0; at < this.ids.length; at += INSERT_CHUNK) {
      const end = at + INSERT_CHUNK;
      await client.query(
        `INSERT INTO provenance_chunks (tenant, graph_id, generation, kind, id, start, entries)
         SELECT $1, $2, $3, kind, id, start, entries FROM unnest($4::text[], $5::text[], $6::integer[], $7::bytea[]) AS batch (kind, id, start, entries)`,
        [tenant, graphId, generation, this.kinds.slice(at, end), this.ids.slice(at, end), this.starts.slice(at, end), this.entries.slice(at, end)],
      );
    }
  }

  /** Once the transaction committed: the lists are durable in their chunks. */
  committed(): void {
    for (const list of this.lists) noteCommitted(list);
  }
}

/** A graph's generation: its tenant, id and generation, the first three parameters of its statements. */
type GraphKey = [tenant: string, graphId: string, generation: string];

/**
 * Which chunks of a kind's records to read: those of `ids` from the last chunk that starts at
 * or before the length of the list `held` has (from 0 when it has none), or those of the ids
 * after `after` up to `upTo` (each bound absent: no bound).
 */
type ChunkSelection = { ids: string[]; held: (id: string) => readonly Provenance[] | undefined } | { after?: string; upTo?: string };

/** Chunks of a record's list, from entry `start` on. */
interface ChunksFrom {
  start: number;
  chunks: string[];
}

/** The chunks of a graph's nodes' or edges' provenance lists that `selection` names, by record id, in order. */
async function readChunks(client: Queryable, graph: GraphKey, kind: 'n' | 'e', selection: ChunkSelection): Promise<Map<string, ChunksFrom>> {
  const chunks = new Map<string, ChunksFrom>();
  const chunkOf = 'c.tenant = $1 AND c.graph_id = $2 AND c.generation = $3 AND c.kind = $4';
  let query: { text: string; values: unknown[] };
  if ('ids' in selection) {
    if (selection.ids.length === 0) return chunks;
    query = {
      text: `SELECT c.id, c.start, c.entries FROM unnest($5::text[], $6::integer[]) AS held (id, length) JOIN provenance_chunks c ON ${chunkOf} AND c.id = held.id
             WHERE c.start >= (SELECT coalesce(max(p.start), 0) FROM provenance_chunks p WHERE p.tenant = $1 AND p.graph_id = $2 AND p.generation = $3 AND p.kind = $4 AND p.id = held.id AND p.start <= held.length)
             ORDER BY c.id, c.start`,
      values: [...graph, kind, selection.ids, selection.ids.map((id) => selection.held(id)?.length ?? 0)],
    };
  } else {
    const values: unknown[] = [...graph, kind];
    let bounds = '';
    if (selection.after !== undefined) bounds += ` AND c.id > $${values.push(selection.after)}`;
    if (selection.upTo !== undefined) bounds += ` AND c.id <= $${values.push(selection.upTo)}`;
    query = { text: `SELECT c.id, c.start, c.entries FROM provenance_chunks c WHERE ${chunkOf}${bounds} ORDER BY c.id, c.start`, values };
  }
  const { rows } = await client.query<{ id: string; start: number; entries: Buffer }>(query.text, query.values);
  for (const { id, start, entries } of rows) {
    const list = chunks.get(id);
    if (list) list.chunks.push(entries.toString('utf8'));
    else chunks.set(id, { start, chunks: [entries.toString('utf8')] });
  }
  return chunks;
}

/** A record's chunks and the held entries before them: what decodeNode and decodeEdge take after the value. */
function pastHeld(read: ChunksFrom | undefined, held: readonly Provenance[] | undefined): [string[], readonly Provenance[]] {
  if (!read) return [[], []];
  return [read.chunks, read.start === 0 ? [] : held!.slice(0, read.start)];
}

/**
 * Reads a kind's records through a cursor, LOAD_CHUNK per round trip, each batch with the chunks
 * of the ids it spans (after the previous batch's last id, up to its own last; the last batch's
 * to the end): each chunk is read once, beside its record, and no more than a batch's chunks are
 * held at once. A chunk whose record is missing throws, as on LevelDB.
 */
async function scanRecords(client: Queryable, graph: GraphKey, kind: 'n' | 'e', onRecord: (id: string, value: string, chunks: readonly string[] | undefined) => void): Promise<void> {
  const table = kind === 'n' ? 'nodes' : 'edges';
  const cursor = `graph_${table}`;
  await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT id, record FROM ${table} WHERE tenant = $1 AND graph_id = $2 AND generation = $3 ORDER BY id`, graph);
  let after: string | undefined;
  for (let last = false; !last; ) {
    const { rows } = await client.query<{ id: string; record: Buffer }>(`FETCH ${LOAD_CHUNK} FROM ${cursor}`);
    last = rows.length < LOAD_CHUNK;
    const chunks = await readChunks(client, graph, kind, { after, upTo: last ? undefined : rows[rows.length - 1].id });
    for (const { id, record } of rows) {
      onRecord(id, record.toString('utf8'), chunks.get(id)?.chunks);
      chunks.delete(id);
    }
    for (const id of chunks.keys()) throw new Error(`a provenance chunk without its record: ${id}`);
    if (rows.length > 0) after = rows[rows.length - 1].id;
  }
  await client.query(`CLOSE ${cursor}`);
}
