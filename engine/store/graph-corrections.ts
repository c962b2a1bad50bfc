import { randomBytes } from 'node:crypto';
import { Corrections, checkCorrection, correctedGraph, type CorrectionInput, type CorrectionRecord } from './corrections.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';
import { LoopSlicer } from '../turns.ts';
import { pageRequest, type GraphMeta, type Page, type StoreBackend } from './backend.ts';
import { graphKey, writingGraph, type GraphCache, type GraphState } from './graph-cache.ts';
import type { SerialQueue } from './serial-queue.ts';

/** An audit record as listed: a correction an undo has undone names it. */
export type ListedCorrection = CorrectionRecord & { undone_by?: string };

/** Graphs whose view before a later correction is kept (the one last asked for per graph). */
const PAST_VIEWS_KEPT = 8;

interface PastView {
  raw: GraphIndex;
  rawRevision: number;
  /** Audit records made by the instant asked about (records are only appended: later ones leave the past view as it was). */
  kept: number;
  index: GraphIndex;
}

/** A node or edge with what is known of where it came from and how it was corrected. */
export interface Trace<R extends NodeRecord | EdgeRecord> {
  /** As the graph reads it (corrected); a retracted record as it was written, with its `set` corrections. */
  record: R;
  retracted: boolean;
  /** Node ids merged into this node (they resolve to it). */
  aliases: string[];
  /** The audit records that touched it (with the undos of those), the oldest first. */
  corrections: ListedCorrection[];
}

/**
 * A graph's corrections (engine/store/corrections.ts) as the store keeps them: each one checked against the
 * graph as corrected now, appended to the graph's audit in one atomic batch with the graph's next
 * revision (so a snapshot, the replicas and the assess caches see a new graph), and the graph as
 * read rebuilt from the records as written.
 */
export class GraphCorrections {
  private readonly pastViews = new Map<string, PastView>();

  constructor(
    private readonly backend: StoreBackend,
    private readonly locks: SerialQueue,
    private readonly cache: GraphCache,
  ) {}

  /** Makes a correction; the answer is its audit record. */
  correct(tenant: string, graphId: string, input: CorrectionInput, keyId: string): Promise<CorrectionRecord> {
    return this.underLock(tenant, graphId, async (state, now) => {
      const checked = checkCorrection(input, { corrected: state.index, raw: state.raw, corrections: state.corrections });
      return { correction_id: newCorrectionId(), ordinal: state.corrections.records.length + 1, key_id: keyId, created_at: now, ...checked };
    });
  }

  /** Undoes a correction: the undo is an audit record of its own, and the correction stays listed, marked undone. */
  undo(tenant: string, graphId: string, correctionId: string, keyId: string): Promise<CorrectionRecord> {
    return this.underLock(tenant, graphId, async (state, now) => {
      const undone = state.corrections.find(correctionId);
      if (!undone) throw new NotFoundError('correction', correctionId);
      if (undone.op === 'undo') throw new ConflictError('undo_not_undoable', `'${correctionId}' is an undo; make the correction again instead`, { correction_id: correctionId });
      const by = state.corrections.undoneBy.get(correctionId);
      if (by) throw new ConflictError('correction_undone', `correction '${correctionId}' was undone already (by '${by.correction_id}')`, { correction_id: correctionId, undone_by: by.correction_id });
      return { correction_id: newCorrectionId(), ordinal: state.corrections.records.length + 1, key_id: keyId, created_at: now, op: 'undo', undoes: correctionId, reason: `undo of ${correctionId}` };
    });
  }

  /** The graph's audit, newest first, a page at a time (the token is the last correction id of the page before). */
  async list(tenant: string, graphId: string, pageSize?: number, pageToken?: string): Promise<Page<ListedCorrection>> {
    const { corrections } = await this.state(tenant, graphId);
    const page = pageRequest(pageSize, pageToken);
    const newestFirst = [...corrections.records].reverse();
    let start = 0;
    if (page.after !== undefined) {
      start = newestFirst.findIndex((record) => record.correction_id === page.after) + 1;
      if (start === 0) throw new ValidationError('invalid_page_token', 'page_token is not one this server issued', { field: 'page_token' });
    }
    const items = newestFirst.slice(start, start + page.size + 1).map((record) => listed(record, corrections));
    if (items.length <= page.size) return { items };
    items.length = page.size;
    return { items, next_page_token: Buffer.from(items[page.size - 1].correction_id).toString('base64url') };
  }

  /** A node as read (an alias id names the node it was merged into), or as written when it is retracted. */
  async traceNode(tenant: string, graphId: string, id: string): Promise<Trace<NodeRecord>> {
    const { index, raw, corrections } = await this.state(tenant, graphId);
    const resolved = corrections.resolve(id);
    const node = index.node(resolved);
    const record = node ?? raw.node(id);
    if (!record) throw new NotFoundError('node', id);
    const aliases = node ? [...corrections.aliasesOf(resolved)] : [];
    return { record, retracted: !node, aliases, corrections: corrections.touching([record.id, ...aliases]).map((touched) => listed(touched, corrections)) };
  }

  /** An edge as read, or as written when it is retracted (itself, or with a node at one of its ends). */
  async traceEdge(tenant: string, graphId: string, id: string): Promise<Trace<EdgeRecord>> {
    const { index, raw, corrections } = await this.state(tenant, graphId);
    const edge = index.edge(id);
    const written = raw.edge(id);
    const record = edge ?? written;
    if (!record || !written) throw new NotFoundError('edge', id);
    // the edge's own corrections, and the merges and retractions of its ends that moved or took it
    const ends = new Set([written.from, written.to, corrections.resolve(written.from), corrections.resolve(written.to)]);
    const touched = corrections.touching([id, ...ends]).filter((correction) => {
      if (correction.op === 'undo' || correction.op === 'merge') return true;
      if (correction.op === 'retype') return correction.edge === id;
      return correction.target === id || (correction.op === 'retract' && ends.has(correction.target));
    });
    return { record, retracted: !edge, aliases: [], corrections: touched.map((correction) => listed(correction, corrections)) };
  }

  /**
   * The graph as read at `asOf` when a correction (or undo) was made after it: the records as
   * written with only the corrections made by then; undefined when none was made since (the graph
   * as read now, cut by recorded_at as every as_of is, is the graph as it was).
   */
  async asOf(tenant: string, graphId: string, asOf: string): Promise<GraphIndex | undefined> {
    const { raw, corrections } = await this.state(tenant, graphId);
    const madeBy = corrections.records.filter((record) => record.created_at <= asOf);
    if (madeBy.length === corrections.records.length) return undefined;
    const key = graphKey(tenant, graphId);
    const kept = this.pastViews.get(key);
    if (kept && kept.raw === raw && kept.rawRevision === raw.revision && kept.kept === madeBy.length) return kept.index;
    const then = new Corrections(madeBy);
    const index = then.inForce ? correctedGraph(raw, then) : raw;
    this.pastViews.delete(key);
    this.pastViews.set(key, { raw, rawRevision: raw.revision, kept: madeBy.length, index });
    if (this.pastViews.size > PAST_VIEWS_KEPT) this.pastViews.delete(this.pastViews.keys().next().value!);
    return index;
  }

  private state(tenant: string, graphId: string): Promise<GraphState> {
    return this.cache.loadGraphState(tenant, graphId);
  }

  /**
   * Under the graph's lock: the audit record `make` returns (or its refusal, which changes
   * nothing) written with the graph's next revision, then the graph as read rebuilt from the
   * records as written with every correction in force, and the replicas told it was replaced.
   */
  private underLock(tenant: string, graphId: string, make: (state: GraphState, now: string) => Promise<CorrectionRecord>): Promise<CorrectionRecord> {
    return writingGraph(this.locks, this.backend, tenant, graphId, async () => {
      const meta = await this.backend.getGraphMeta(tenant, graphId);
      if (!meta) throw new NotFoundError('graph', graphId);
      const state = await this.cache.loadState(tenant, meta);
      const now = new Date().toISOString();
      const record = await make(state, now);
      const corrected: GraphMeta = { ...meta, updated_at: now, revision: (meta.revision ?? 0) + 1 };
      await this.backend.commitGraph({ tenant, graphId, generation: meta.generation, meta: corrected, nodes: [], edges: [], corrections: [record] }, new LoopSlicer());
      const corrections = new Corrections([...state.corrections.records, record]);
      await this.cache.whileApplying(tenant, graphId, async () => {
        // rebuilt whole: a correction is an analyst's act, rare beside writes, and a merge or retraction reaches far
        const index = corrections.inForce ? correctedGraph(state.raw, corrections) : state.raw;
        this.cache.keep(tenant, corrected, { index, raw: state.raw, corrections });
        await this.cache.emitChange({ kind: 'replace', tenant, graphId, generation: meta.generation });
      });
      return record;
    });
  }
}

function newCorrectionId(): string {
  return 'cor_' + randomBytes(8).toString('hex');
}

function listed(record: CorrectionRecord, corrections: Corrections): ListedCorrection {
  const by = corrections.undoneBy.get(record.correction_id);
  return by ? { ...record, undone_by: by.correction_id } : record;
}
