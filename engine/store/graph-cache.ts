import { Corrections, correctedChanges, correctedGraph } from './corrections.ts';
import { putLogged } from './graph-changes.ts';
import { NotFoundError } from '../errors.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import type { GraphMeta, StoreBackend } from './backend.ts';
import { GraphIndex } from './graph-index.ts';
import type { SerialQueue } from './serial-queue.ts';
import { readSnapshot, removeSnapshot, snapshotFile, snapshotGraphs, writeSnapshot } from './snapshot.ts';
import { forgetWrittenTexts } from './provenance-json.ts';

/** Facts the loaded graphs may hold together by default: two million-fact graphs, about 800 MB of heap. */
export const DEFAULT_CACHE_FACTS = 2_000_000;

/**
 * What changed in a graph: the records a committed write changed, the graph's deletion, or a
 * correction that replaced the graph as read (engine/store/corrections.ts: records may have left it).
 */
export type GraphChange =
  | {
      kind: 'write';
      tenant: string;
      graphId: string;
      generation: string;
      nodes: NodeRecord[];
      edges: EdgeRecord[];
      /**
       * Of `nodes` and `edges`, those whose provenance list is the one the graph held before the write with entries
       * appended, that one long (merge.ts grownFromStored), each with its length: a replica that holds the record
       * before needs only the entries after it (replicas.ts). Absent where that is not known (a correction in force,
       * another process's writes).
       */
      provenanceFrom?: ReadonlyMap<NodeRecord | EdgeRecord, number>;
    }
  | { kind: 'delete'; tenant: string; graphId: string; generation: string }
  | { kind: 'replace'; tenant: string; graphId: string; generation: string };

/**
 * A loaded graph as read and as written: `index` is the graph as corrected (what readers get),
 * `raw` the records as written (what writes merge onto); one index when no correction is in force.
 */
export interface GraphState {
  index: GraphIndex;
  raw: GraphIndex;
  corrections: Corrections;
}

/** The key a graph is loaded and locked under. */
export function graphKey(tenant: string, graphId: string): string {
  return tenant + '\u0000' + graphId;
}

/** The tenant and graph a key (graphKey's) names. */
export function splitGraphKey(key: string): { tenant: string; graphId: string } {
  const at = key.indexOf('\u0000');
  return { tenant: key.slice(0, at), graphId: key.slice(at + 1) };
}

/** Runs a write of a graph as its one writer: under the store's lock of the graph, and the backend's across processes. */
export function writingGraph<T>(locks: SerialQueue, backend: StoreBackend, tenant: string, graphId: string, write: () => Promise<T>): Promise<T> {
  return locks.run(graphKey(tenant, graphId), () => backend.writingGraph(tenant, graphId, write));
}

interface LoadedGraph {
  tenant: string;
  graphId: string;
  generation: string;
  /** The meta revision the index holds. */
  revision: number;
  /** The graph's meta as stored at `revision` (another revision: not known here). */
  meta: GraphMeta;
  index: GraphIndex;
  raw: GraphIndex;
  corrections: Corrections;
  /** The revision of the graph's snapshot on disk, when known to be current. */
  snapshotRevision?: number;
}

/**
 * The graphs in memory: each loaded once, lazily, into a GraphIndex (from its snapshot when
 * current, else from the backend's records) that every later write keeps in step, and the
 * listeners told of each change once the index reflects it. The same over every backend.
 */
export class GraphCache {
  /** Loaded graphs, least recently used first, bounded by their total facts (cacheFacts). */
  private readonly loaded = new Map<string, LoadedGraph>();
  /** Graphs whose index a committed write is being applied to, a slice at a time: readers wait for the whole. */
  private readonly applying = new Map<string, Promise<void>>();
  private readonly changeListeners = new Set<(change: GraphChange) => void | Promise<void>>();

  constructor(
    private readonly backend: StoreBackend,
    /** The store's graph locks: one writer per graph at a time. */
    private readonly locks: SerialQueue,
    /** How many facts (nodes, node properties, edges) the loaded graphs may hold together; the graph in use always stays. */
    private readonly cacheFacts: number,
    /** Where the graphs' snapshots are kept. */
    private readonly snapshotDir: string,
  ) {}

  /**
   * Snapshots every loaded graph changed since its snapshot (the store's writes are over). A
   * snapshot that fails to write only costs the next start a rebuild from the records.
   */
  async writeSnapshots(): Promise<void> {
    const snapshots = [...this.loaded.values()]
      .filter((entry) => entry.snapshotRevision !== entry.revision)
      .map((entry) => writeSnapshot(snapshotFile(this.snapshotDir, entry.tenant, entry.graphId), entry.generation, entry.revision, entry.raw).catch(() => undefined));
    await Promise.all(snapshots);
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

  async emitChange(change: GraphChange): Promise<void> {
    await Promise.all([...this.changeListeners].map((listener) => listener(change)));
  }

  /** The graphs that have a snapshot, most recently written first (snapshot.ts snapshotGraphs). */
  snapshotGraphs(): Promise<{ tenant: string; graphId: string; bytes: number }[]> {
    return snapshotGraphs(this.snapshotDir);
  }

  /** The generation of a graph's in-memory index, when it is loaded (no backend read). */
  loadedGeneration(tenant: string, graphId: string): string | undefined {
    return this.loaded.get(graphKey(tenant, graphId))?.generation;
  }

  /**
   * loadGraphState without waiting, for a graph in memory with no write being applied to it
   * (a graph in use); undefined otherwise. A point query's awaits of the load cost it more
   * than the lookups.
   */
  loadedState(tenant: string, graphId: string): (GraphState & { generation: string }) | undefined {
    const key = graphKey(tenant, graphId);
    const loaded = this.applying.has(key) ? undefined : this.loaded.get(key);
    return loaded && this.touch(key, loaded);
  }

  /** The graph's in-memory indexes, loaded from the backend on first use. */
  async loadGraph(tenant: string, graphId: string): Promise<GraphIndex> {
    return (await this.loadGraphState(tenant, graphId)).index;
  }

  /** The graph as read and as written (loadGraph's index, with its corrections and the records as written). */
  async loadGraphState(tenant: string, graphId: string): Promise<GraphState> {
    const key = graphKey(tenant, graphId);
    const applying = this.applying.get(key);
    if (applying) await applying;
    // a loaded graph is current: every write and deletion of it goes through this store and keeps `loaded` in step
    const loaded = this.loaded.get(key);
    if (loaded) return this.touch(key, loaded);
    const meta = await this.backend.getGraphMeta(tenant, graphId);
    if (!meta) throw new NotFoundError('graph', graphId);
    // loadState looks at the cache again, under the graph's lock
    return this.locks.run(key, () => this.loadState(tenant, meta));
  }

  /** The graph `meta` describes as read and as written; the caller holds the graph's lock. */
  async loadState(tenant: string, meta: GraphMeta): Promise<GraphState> {
    const key = graphKey(tenant, meta.graph_id);
    const cached = this.loaded.get(key);
    const revision = meta.revision ?? 0;
    // behind when another process sharing the backend wrote the graph since
    if (cached && cached.generation === meta.generation && (cached.revision >= revision || (await this.followWrites(cached)))) return this.touch(key, cached);
    const replaced = cached !== undefined && cached.generation === meta.generation;
    // the snapshot holds the records as written; the corrections are applied to them here
    const fromSnapshot = await readSnapshot(snapshotFile(this.snapshotDir, tenant, meta.graph_id), meta.generation, revision);
    const raw = fromSnapshot ?? new GraphIndex();
    if (!fromSnapshot) {
      await this.backend.scanGraph(tenant, meta.graph_id, meta.generation, (node) => raw.putNode(node), (edge) => raw.putEdge(edge));
    }
    const records = await this.backend.graphCorrections(tenant, meta.graph_id, meta.generation);
    const corrections = records.length === 0 ? Corrections.NONE : new Corrections(records);
    const index = corrections.inForce ? correctedGraph(raw, corrections) : raw;
    const entry: LoadedGraph = { tenant, graphId: meta.graph_id, generation: meta.generation, revision, meta, index, raw, corrections, ...(fromSnapshot ? { snapshotRevision: revision } : {}) };
    this.loaded.delete(key);
    this.loaded.set(key, entry);
    if (cached) forgetWrittenTexts();
    this.evict(key);
    if (replaced) await this.emitChange({ kind: 'replace', tenant, graphId: meta.graph_id, generation: meta.generation });
    // a graph rebuilt from its records gets its snapshot at close(), not here: serialising
    // a million-fact graph holds the event loop for seconds, and a query is waiting
    return entry;
  }

  /**
   * Runs `apply`, which brings a graph's index in step with a durable write, while readers
   * (loadGraph) wait for the whole of it, so that none sees half a write.
   */
  async whileApplying<T>(tenant: string, graphId: string, apply: () => Promise<T>): Promise<T> {
    const key = graphKey(tenant, graphId);
    let applied!: () => void;
    this.applying.set(key, new Promise<void>((resolve) => (applied = resolve)));
    try {
      return await apply();
    } finally {
      this.applying.delete(key);
      applied();
    }
  }

  /** Keeps `state` as the graph `meta` describes (as just committed): another graph's load may have evicted it while a write took turns, and it comes back. */
  keep(tenant: string, meta: GraphMeta, state: GraphState): void {
    const key = graphKey(tenant, meta.graph_id);
    const entry = this.loaded.get(key);
    const revision = meta.revision ?? 0;
    if (entry) Object.assign(entry, { revision, meta, index: state.index, raw: state.raw, corrections: state.corrections });
    else this.loaded.set(key, { tenant, graphId: meta.graph_id, generation: meta.generation, revision, meta, index: state.index, raw: state.raw, corrections: state.corrections });
    this.evict(key);
  }

  /**
   * The stored meta of a graph in memory with no write being applied to it, without a backend read
   * (GET /v1/graphs/{id} asks on every call); undefined otherwise, and when the index has moved to a
   * revision whose meta it was not given (another server's writes, followed). Only where this process
   * is the backend's one writer is the revision it holds the stored one: the caller says so.
   */
  loadedMeta(tenant: string, graphId: string): GraphMeta | undefined {
    const key = graphKey(tenant, graphId);
    const loaded = this.applying.has(key) ? undefined : this.loaded.get(key);
    return loaded && (loaded.meta.revision ?? 0) === loaded.revision ? loaded.meta : undefined;
  }

  /** Forgets a deleted graph and its snapshot, and says so to the listeners. */
  async drop(tenant: string, graphId: string, generation: string): Promise<void> {
    this.unload(graphKey(tenant, graphId));
    await removeSnapshot(snapshotFile(this.snapshotDir, tenant, graphId));
    await this.emitChange({ kind: 'delete', tenant, graphId, generation });
  }

  /** The graphs in memory. */
  loadedGraphs(): { tenant: string; graphId: string }[] {
    return [...this.loaded.values()].map(({ tenant, graphId }) => ({ tenant, graphId }));
  }

  /** The revision of a graph's in-memory index, when it is loaded. */
  loadedRevision(tenant: string, graphId: string): number | undefined {
    return this.loaded.get(graphKey(tenant, graphId))?.revision;
  }

  /**
   * The graph's snapshot file and its revision, when the graph is loaded, at that revision, with no write being applied
   * and no correction in force: the file then holds the records of the index, in its order (the index was read from it).
   */
  currentSnapshot(tenant: string, graphId: string): { file: string; revision: number } | undefined {
    const key = graphKey(tenant, graphId);
    const loaded = this.applying.has(key) ? undefined : this.loaded.get(key);
    if (!loaded || loaded.snapshotRevision !== loaded.revision || loaded.index !== loaded.raw) return undefined;
    return { file: snapshotFile(this.snapshotDir, tenant, graphId), revision: loaded.revision };
  }

  /**
   * Brings a loaded graph to the revision the backend holds (another process wrote it, or
   * deleted it); a graph not loaded is read whole when first used.
   */
  async follow(tenant: string, graphId: string): Promise<void> {
    const key = graphKey(tenant, graphId);
    if (!this.loaded.has(key)) return;
    await this.locks.run(key, async () => {
      const loaded = this.loaded.get(key);
      if (!loaded) return;
      const meta = await this.backend.getGraphMeta(tenant, graphId);
      if (meta) await this.loadState(tenant, meta);
      else if (this.loaded.get(key) === loaded) {
        this.unload(key);
        await this.emitChange({ kind: 'delete', tenant, graphId, generation: loaded.generation });
      }
    });
  }

  /**
   * Puts the records other processes wrote since the loaded revision into the graph, telling
   * the listeners, as a write of this process does; false when a correction was made or undone
   * since (the graph as read is then rebuilt whole, as a correction of this process rebuilds it).
   * The caller holds the graph's lock.
   */
  private async followWrites(loaded: LoadedGraph): Promise<boolean> {
    const { tenant, graphId, generation } = loaded;
    const since = await this.backend.recordsSince?.(tenant, graphId, generation, loaded.revision, (kind, id) => (kind === 'node' ? loaded.raw.node(id) : loaded.raw.edge(id))?.provenance);
    if (!since || since.corrected || since.generation !== generation) return false;
    await this.whileApplying(tenant, graphId, async () => {
      putLogged(loaded.raw, since.nodes, since.edges);
      const corrected = loaded.index !== loaded.raw;
      const changed = corrected ? correctedChanges(loaded.raw, loaded.corrections, since.nodes, since.edges) : { nodes: since.nodes, edges: since.edges };
      if (corrected) putLogged(loaded.index, changed.nodes, changed.edges);
      loaded.revision = since.revision;
      if (changed.nodes.length > 0 || changed.edges.length > 0) await this.emitChange({ kind: 'write', tenant, graphId, generation, ...changed });
    });
    return true;
  }

  /** Marks the graph loaded under `key` most recently used; returns `entry`. */
  private touch(key: string, entry: LoadedGraph): LoadedGraph {
    // (what is loaded under the key now: a load that awaited may find another entry there, or none)
    const current = this.loaded.get(key);
    if (current) {
      this.loaded.delete(key);
      this.loaded.set(key, current);
    }
    return entry;
  }

  /**
   * Takes the graph under `key` out of the cache, and the list texts commits kept with it (provenance-json.ts
   * forgetWrittenTexts): they would keep its records' lists alive. (A graph loaded again in its place: loadState.)
   */
  private unload(key: string): void {
    this.loaded.delete(key);
    forgetWrittenTexts();
  }

  /** Drops the least recently used graphs but `keep` while the loaded graphs hold more than cacheFacts facts. */
  private evict(keep: string): void {
    let total = 0;
    for (const entry of this.loaded.values()) total += factsHeld(entry);
    for (const [key, entry] of this.loaded) {
      if (total <= this.cacheFacts) return;
      if (key === keep) continue;
      this.unload(key);
      total -= factsHeld(entry);
    }
  }
}

/** Facts a loaded graph holds: a corrected graph holds its records as written too. */
function factsHeld({ index, raw }: LoadedGraph): number {
  return index === raw ? index.factCount : index.factCount + raw.factCount;
}
