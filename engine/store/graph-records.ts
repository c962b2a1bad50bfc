import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '../errors.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { LoopSlicer } from '../turns.ts';
import { pageRequest, type CommittedImport, type GraphBatch, type GraphMeta, type Page, type StoreBackend, type WriteSummary } from './backend.ts';
import { Corrections, correctedChanges } from './corrections.ts';
import { writingGraph, type GraphCache, type GraphState } from './graph-cache.ts';
import { putLogged } from './graph-changes.ts';
import { GraphIndex } from './graph-index.ts';
import { checkWrites, mergeWrites, recordOf, type WriteChanges } from './merge.ts';
import type { SerialQueue } from './serial-queue.ts';
import { validateName, type GraphWrite } from './validate.ts';

/** A large write applies its records to the index in pieces of this many, the loop turning between pieces when a slice is spent. */
const APPLY_CHUNK = 1_000;

/** A new graph's meta record, under a generation of its own. */
export function newGraphMeta(graphId: string, now: string): GraphMeta {
  return { graph_id: graphId, created_at: now, updated_at: now, generation: randomBytes(6).toString('hex') };
}

/**
 * A tenant's graphs: their meta records, and their records written one atomic batch per
 * commit, each applied to the graph's in-memory index only after it is durable.
 */
export class GraphRecords {
  constructor(
    private readonly backend: StoreBackend,
    /** The store's graph locks: one writer per graph at a time. */
    private readonly locks: SerialQueue,
    private readonly cache: GraphCache,
  ) {}

  async graphExists(tenant: string, graphId: string): Promise<boolean> {
    return (await this.backend.getGraphMeta(tenant, graphId)) !== undefined;
  }

  async getGraphMeta(tenant: string, graphId: string): Promise<GraphMeta> {
    const meta = await this.backend.getGraphMeta(tenant, graphId);
    if (!meta) throw new NotFoundError('graph', graphId);
    return meta;
  }

  async listGraphs(tenant: string, pageSize?: number, pageToken?: string): Promise<Page<GraphMeta>> {
    return this.backend.listGraphs(tenant, pageRequest(pageSize, pageToken));
  }

  /** Creates an empty graph; a graph that exists already is a conflict. */
  async createGraph(tenant: string, graphId: string): Promise<GraphMeta> {
    validateName('graph_id', graphId);
    return writingGraph(this.locks, this.backend, tenant, graphId, async () => {
      if (await this.backend.getGraphMeta(tenant, graphId)) throw new ConflictError('graph_exists', `graph '${graphId}' exists already`, { graph_id: graphId });
      const meta = newGraphMeta(graphId, new Date().toISOString());
      await this.backend.putGraphMeta(tenant, meta);
      return meta;
    });
  }

  /** Deletes a graph: one atomic write hides it, then its data is cleared. */
  async deleteGraph(tenant: string, graphId: string): Promise<void> {
    await writingGraph(this.locks, this.backend, tenant, graphId, async () => {
      const meta = await this.getGraphMeta(tenant, graphId);
      await this.backend.dropGraphMeta(tenant, graphId);
      await this.cache.drop(tenant, graphId, meta.generation);
      await this.backend.clearGraphData(tenant, graphId, meta.generation);
    });
  }

  /** The outcome of the import that carried `idempotencyKey`, when it committed. */
  async committedImport(tenant: string, graphId: string, idempotencyKey: string): Promise<CommittedImport | undefined> {
    const meta = await this.getGraphMeta(tenant, graphId);
    return this.backend.committedImport(tenant, graphId, meta.generation, idempotencyKey);
  }

  /**
   * Several writes in one atomic batch, each merged onto the graph as the writes before it
   * left it, with a summary per write; an import's idempotency key is kept in the batch, and
   * one already committed is replayed, not written again. Under the graph's lock: the graph
   * as stored, the writes merged onto it, the batch written, then the index brought in step.
   */
  async commitWrites(
    tenant: string,
    graphId: string,
    writes: readonly GraphWrite[],
    options: { createGraph?: boolean; idempotencyKey?: string },
  ): Promise<{ summaries: WriteSummary[]; replayed?: CommittedImport }> {
    checkWrites(graphId, writes);
    return writingGraph(this.locks, this.backend, tenant, graphId, async () => {
      const now = new Date().toISOString();
      // read from the backend, not from the graph in memory: a write durable there whose apply to memory
      // failed left the graph in memory behind, and its revision would be reused (records written over)
      const stored = await this.backend.getGraphMeta(tenant, graphId);
      if (!stored && options.createGraph === false) throw new NotFoundError('graph', graphId);
      if (stored && options.idempotencyKey !== undefined) {
        const replayed = await this.backend.committedImport(tenant, graphId, stored.generation, options.idempotencyKey);
        if (replayed) return { summaries: [], replayed };
      }
      const meta = stored ?? newGraphMeta(graphId, now);
      const state = stored ? await this.cache.loadState(tenant, stored) : newGraphState();
      // writes merge onto the records as written; the graph as corrected follows (engine/store/corrections.ts)
      const index = state.raw;
      // A large write merges and encodes in slices, the loop turning between them so other requests
      // are served; it stays one batch, written at the end, so it is still all or nothing.
      const slicer = new LoopSlicer();
      const { summaries, replay, changedNodes, changedEdges, provenanceJson, provenanceFrom } = await mergeWrites(index, writes, now, slicer, stored === undefined);
      const batch = { ...batchOf(tenant, meta, stored === undefined, changedNodes, changedEdges, now), provenanceJson };
      if (options.idempotencyKey !== undefined) {
        const { node_ids: _n, edge_ids: _e, ...counts } = summaries[0];
        batch.committedImport = { idempotency_key: options.idempotencyKey, committed_at: now, summary: counts };
      }
      await this.backend.commitGraph(batch, slicer);
      // durable now: the index is brought in step, readers (loadGraph) waiting for the whole
      await this.cache.whileApplying(tenant, graphId, async () => {
        await applyToIndex(index, replay, slicer);
        const corrected = state.index !== index;
        // (corrected records may join several written ones: what their lists grew from is not the written records')
        const changed = corrected ? correctedChanges(index, state.corrections, changedNodes, changedEdges) : { nodes: changedNodes, edges: changedEdges, provenanceFrom };
        if (corrected) putLogged(state.index, changed.nodes, changed.edges);
        // the adjacency arrays rebuilt now, in slices, where the first read would rebuild them in one step
        await index.prepareInSlices(slicer);
        if (corrected) await state.index.prepareInSlices(slicer);
        this.cache.keep(tenant, batch.meta ?? meta, state);
        if (changed.nodes.length > 0 || changed.edges.length > 0) await this.cache.emitChange({ kind: 'write', tenant, graphId, generation: meta.generation, ...changed });
      });
      return { summaries };
    });
  }
}

/** A graph not yet written: one empty index, no corrections. */
function newGraphState(): GraphState {
  const index = new GraphIndex();
  return { index, raw: index, corrections: Corrections.NONE };
}

/**
 * The batch of a commit that changed these records: a new graph's meta with them, or a
 * stored graph's meta at its next revision when they are any.
 */
function batchOf(tenant: string, meta: GraphMeta, isNew: boolean, nodes: NodeRecord[], edges: EdgeRecord[], now: string): GraphBatch {
  const batch: GraphBatch = { tenant, graphId: meta.graph_id, generation: meta.generation, nodes, edges };
  if (isNew) batch.meta = meta;
  else if (nodes.length > 0 || edges.length > 0) batch.meta = { ...meta, updated_at: now, revision: (meta.revision ?? 0) + 1 };
  return batch;
}

/**
 * Puts a durable commit's changes into the graph's index write by write (the index's order
 * is that of writes committed one at a time; a record's long provenance list is the commit's
 * final one from the first piece on: merge.ts WriteChanges), the loop turning between pieces. A large
 * write goes in pieces (its nodes, then its edges: the order of one put); the edges it
 * created go in at the ends found when they were checked, without their ids being looked
 * up again.
 */
async function applyToIndex(index: GraphIndex, replay: readonly WriteChanges[], slicer: LoopSlicer): Promise<void> {
  const inChunks = async <T>(list: T[], put: (chunk: T[]) => void) => {
    for (let at = 0; at < list.length; at += APPLY_CHUNK) {
      if (slicer.due()) await slicer.turn();
      put(list.slice(at, at + APPLY_CHUNK));
    }
  };
  for (const { nodes: written, edges: linked } of replay) {
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
}
