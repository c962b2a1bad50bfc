/**
 * What a store backend keeps durably, and the records it keeps. The backend is the source
 * of truth and nothing more: validation, merging, id allocation, the in-memory graphs and
 * their change events are the store's (store.ts), the same over every backend. The LevelDB
 * directory is one backend (level-backend.ts); another implements this interface to keep the
 * same records elsewhere.
 */
import { ValidationError } from '../errors.ts';
import type { EdgeRecord, NodeRecord, PropertyValue, Provenance, WorkspaceDomain, WorkspaceScale, WorkspaceTier } from '../ontology/index.ts';
import type { LoopSlicer } from '../turns.ts';
import type { ProvenanceJson } from './provenance-json.ts';

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

// The audit records of corrections: what they do is engine/store/corrections.ts.

/** What every audit record carries. */
export interface AuditFields {
  correction_id: string;
  /** Its place in the graph's audit: 1 for the first correction, and so on. */
  ordinal: number;
  /** The API key that made it. */
  key_id: string;
  created_at: string;
  reason: string;
}

/** What a correction did, its ids as resolved when it was made (an alias names the node it was merged into). */
export type CorrectionBody =
  | { op: 'merge'; into: string; from: string[] }
  | { op: 'retract'; target: string; target_kind: 'node' | 'edge' }
  | { op: 'retype'; edge: string; type: string; previous_type: string }
  | { op: 'set'; target: string; target_kind: 'node' | 'edge'; properties: Record<string, PropertyValue> };

/** One audit record: a correction, or the undo of one. */
export type CorrectionRecord = AuditFields & (CorrectionBody | { op: 'undo'; undoes: string });

export interface Page<T> {
  items: T[];
  next_page_token?: string;
}

/** Default and largest page sizes for list endpoints. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** What one committed write of a graph changed, written all or nothing. */
export interface GraphBatch {
  tenant: string;
  graphId: string;
  generation: string;
  /** The graph's meta record as the batch leaves it: a new graph's, or one with a new revision. */
  meta?: GraphMeta;
  /** The records the batch changed, whole, as they now are. */
  nodes: readonly NodeRecord[];
  edges: readonly EdgeRecord[];
  /** An import's outcome, kept under its idempotency key in the same batch. */
  committedImport?: CommittedImport;
  /** Audit records of corrections (engine/store/corrections.ts) this batch appends, each under its ordinal. */
  corrections?: readonly CorrectionRecord[];
  /** The texts of provenance lists the merge made from known ones (provenance-json.ts): written without serialising them. */
  provenanceJson?: ProvenanceJson;
}

/**
 * The durable records of a store. Every write is atomic; the store calls a graph's writes
 * one at a time (its lock), and brings its in-memory graph in step only after the write
 * resolved. A graph's data belongs to its meta's generation: deleting a graph drops the meta
 * (the graph is gone at once), and its generation's data is cleared afterwards, never to
 * reappear under a graph later created with the same id.
 */
export interface StoreBackend {
  /** What keeps the records: health says so. */
  readonly kind: 'leveldb' | 'postgres';

  // keys and tenants: a key names its tenant
  getKey(keyId: string): Promise<ApiKeyRecord | undefined>;
  putKey(record: ApiKeyRecord): Promise<void>;
  listKeys(): Promise<ApiKeyRecord[]>;

  // workspaces
  getWorkspace(tenant: string, id: string): Promise<Workspace | undefined>;
  /** Writes the workspace and the graph → workspace index entry, with `newGraph`'s meta when its graph is new, in one write. */
  putWorkspace(tenant: string, workspace: Workspace, newGraph: GraphMeta | undefined): Promise<void>;
  deleteWorkspace(tenant: string, workspace: Workspace): Promise<void>;
  listWorkspaces(tenant: string, page: PageRequest): Promise<Page<Workspace>>;
  /** The tenant's workspaces that name `graphId`. */
  workspacesOfGraph(tenant: string, graphId: string): Promise<Workspace[]>;

  // graph metadata
  getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta | undefined>;
  putGraphMeta(tenant: string, meta: GraphMeta): Promise<void>;
  listGraphs(tenant: string, page: PageRequest): Promise<Page<GraphMeta>>;
  /** Drops the graph's meta record: one atomic write after which the graph does not exist. */
  dropGraphMeta(tenant: string, graphId: string): Promise<void>;
  /** Clears the records of a dropped graph's generation. */
  clearGraphData(tenant: string, graphId: string, generation: string): Promise<void>;

  // graph records
  /**
   * Writes the batch in one atomic write (nothing when it holds nothing). `slicer`: a large
   * batch gives the event loop its turns while it is prepared.
   */
  commitGraph(batch: GraphBatch, slicer: LoopSlicer): Promise<void>;
  committedImport(tenant: string, graphId: string, generation: string, idempotencyKey: string): Promise<CommittedImport | undefined>;
  /** The audit records of a graph's corrections, by ordinal (none: an empty list). */
  graphCorrections(tenant: string, graphId: string, generation: string): Promise<CorrectionRecord[]>;
  /** Visits every record of a graph's generation: all its nodes, then all its edges. */
  scanGraph(tenant: string, graphId: string, generation: string, onNode: (node: NodeRecord) => void, onEdge: (edge: EdgeRecord) => void): Promise<void>;

  close(): Promise<void>;

  /**
   * Runs `write`, one write of a graph, as the graph's only writer among the processes sharing
   * the records (the store's lock already makes it the only one in this process). LevelDB is
   * opened by one process, so it just runs it; PostgreSQL holds an advisory lock for it.
   */
  writingGraph<T>(tenant: string, graphId: string, write: () => Promise<T>): Promise<T>;

  /**
   * The records other processes wrote since a revision, when the backend is shared (absent:
   * only this process writes, and its in-memory graphs are always current). `held`: the
   * provenance of each record as the caller holds it at that revision, which the stored list
   * extends (lists only grow), so that only the entries past it need be read.
   */
  recordsSince?(tenant: string, graphId: string, generation: string, revision: number, held: HeldProvenance): Promise<RecordsSince | undefined>;
}

/** The provenance list of a node's or edge's record as a process holds it, if it holds the record. */
export type HeldProvenance = (kind: 'node' | 'edge', id: string) => readonly Provenance[] | undefined;

/** The records a graph's commits after some revision left, as they now are, read with the meta they go with. */
export interface RecordsSince {
  /** The graph's generation and revision as read (a generation other than the one asked about: the graph was deleted and created again). */
  generation: string;
  revision: number;
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  /** A correction was made or undone since: the graph as read is rebuilt, not patched. */
  corrected: boolean;
}

/** A page of a list, ordered by id: up to `size` items after the id `after` (from the start when absent). */
export interface PageRequest {
  size: number;
  after?: string;
}

/** A list endpoint's page size and token, checked; the token is the last id of the page before. */
export function pageRequest(pageSize = DEFAULT_PAGE_SIZE, pageToken: string | undefined): PageRequest {
  const size = Math.min(Math.max(1, Math.floor(pageSize)), MAX_PAGE_SIZE);
  return pageToken === undefined ? { size } : { size, after: decodePageToken(pageToken) };
}

/** `items`, read one past the page's size, as a page, with the token of the next one when there is more. */
export function pageOf<T>(items: T[], size: number, idOf: (item: T) => string): Page<T> {
  if (items.length <= size) return { items };
  items.length = size;
  return { items, next_page_token: Buffer.from(idOf(items[size - 1])).toString('base64url') };
}

/**
 * A page of `items` newest first: the latest `recordedAt` first, ties by `tie` ascending (neither
 * holding '|' before the tie); the next page's token carries the last item's `<recorded_at>|<tie>`,
 * `after` being that token decoded (pageRequest). Review queues list this way.
 */
export function newestFirstPage<T>(items: readonly T[], recordedAt: (item: T) => string, tie: (item: T) => string, size: number, after: string | undefined): Page<T> {
  const keyed = items.map((item) => ({ item, recorded: recordedAt(item), tie: tie(item) }));
  keyed.sort((a, b) => (a.recorded !== b.recorded ? (a.recorded > b.recorded ? -1 : 1) : a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0));
  let start = 0;
  if (after !== undefined) {
    const bar = after.indexOf('|');
    if (bar < 0) throw new ValidationError('invalid_page_token', 'page_token is not one this server issued for this order', { field: 'page_token' });
    const [recorded, last] = [after.slice(0, bar), after.slice(bar + 1)];
    start = keyed.findIndex((entry) => entry.recorded < recorded || (entry.recorded === recorded && entry.tie > last));
  }
  const page = pageOf(start < 0 ? [] : keyed.slice(start, start + size + 1), size, (entry) => `${entry.recorded}|${entry.tie}`);
  return { items: page.items.map((entry) => entry.item), ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
}

function decodePageToken(token: string): string {
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  if (decoded.length === 0 || decoded.includes('\u0000')) throw new ValidationError('invalid_page_token', 'page_token is not one this server issued', { field: 'page_token' });
  return decoded;
}
