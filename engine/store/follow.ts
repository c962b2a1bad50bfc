/**
 * Following the writes other processes make to a shared backend (PostgreSQL): each commit is
 * announced with its graph's new revision, and the loaded graphs behind it catch up from the
 * records written since (graph-cache.ts followWrites). A read that must see a write made
 * through another server names its revision (min_revision) and waits, bounded, for this one to
 * reach it, as Neo4j's bookmarks do.
 */
import { LimitError, NotFoundError } from '../errors.ts';
import type { StoreBackend } from './backend.ts';
import { graphKey, type GraphCache } from './graph-cache.ts';
import type { GraphCommit, PgBackend } from './pg-backend.ts';

/** How long a read waits by default for its server to reach the revision it names (PARLEY_MIN_REVISION_WAIT_MS). */
export const DEFAULT_MIN_REVISION_WAIT_MS = 5_000;
/** How often a waiting read looks at the graph's stored revision. */
const REVISION_POLL_MS = 20;

/** How far this process's loaded graphs are behind the commits announced to it. */
export interface ReplicationLag {
  /** Loaded graphs with an announced commit not yet followed. */
  graphs_behind: number;
  /** Age of the oldest such commit, in milliseconds (0: none). */
  lag_ms: number;
}

export class GraphFollower {
  /** Commits announced for loaded graphs and not yet followed: the revision, and when it was first heard of. */
  private readonly pending = new Map<string, { tenant: string; graphId: string; revision: number; since: number }>();
  private stop: (() => void) | undefined;

  constructor(private readonly cache: GraphCache) {}

  /** Starts following the backend's announced commits. */
  async start(backend: PgBackend): Promise<void> {
    this.stop = await backend.follow(
      (commit) => this.announced(commit),
      () => this.cache.loadedGraphs().forEach(({ tenant, graphId }) => this.catchUp(tenant, graphId)),
    );
  }

  close(): void {
    this.stop?.();
  }

  lag(): ReplicationLag {
    let oldest = Infinity;
    for (const { since } of this.pending.values()) oldest = Math.min(oldest, since);
    return { graphs_behind: this.pending.size, lag_ms: this.pending.size === 0 ? 0 : Math.round(performance.now() - oldest) };
  }

  private announced(commit: GraphCommit): void {
    const loaded = this.cache.loadedRevision(commit.tenant, commit.graphId);
    const current = loaded !== undefined && !commit.deleted && this.cache.loadedGeneration(commit.tenant, commit.graphId) === commit.generation && loaded >= commit.revision;
    if (loaded === undefined || current) return;
    const key = graphKey(commit.tenant, commit.graphId);
    const pending = this.pending.get(key);
    this.pending.set(key, { tenant: commit.tenant, graphId: commit.graphId, revision: Math.max(commit.revision, pending?.revision ?? 0), since: pending?.since ?? performance.now() });
    this.catchUp(commit.tenant, commit.graphId);
  }

  private catchUp(tenant: string, graphId: string): void {
    const key = graphKey(tenant, graphId);
    this.cache.follow(tenant, graphId).then(
      () => {
        const pending = this.pending.get(key);
        const revision = this.cache.loadedRevision(tenant, graphId);
        if (pending && (revision === undefined || revision >= pending.revision)) this.pending.delete(key);
      },
      // the backend unreachable: the next announcement, or a read's min_revision, tries again
      () => undefined,
    );
  }
}

/**
 * Resolves once this process serves `graphId` at `revision` or later: at once when its loaded
 * graph is there, after catching up when the backend is, else when a write in flight gets
 * there, within `waitMs`; past that, a 503 naming the revision it has.
 */
export async function reachRevision(backend: StoreBackend, cache: GraphCache, tenant: string, graphId: string, revision: number, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const loaded = cache.loadedRevision(tenant, graphId);
    if (loaded !== undefined && loaded >= revision) return;
    const meta = await backend.getGraphMeta(tenant, graphId);
    if (!meta) throw new NotFoundError('graph', graphId);
    const stored = meta.revision ?? 0;
    if (stored >= revision) {
      // a graph not loaded is read whole, at the stored revision or later, by the read itself
      if (loaded !== undefined) await cache.follow(tenant, graphId);
      return;
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      throw new LimitError('min_revision_not_reached', `graph '${graphId}' is at revision ${stored} here, not yet ${revision}: retry, or ask the server that made the write`, {
        graph_id: graphId,
        min_revision: revision,
        revision: stored,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(REVISION_POLL_MS, left)));
  }
}
