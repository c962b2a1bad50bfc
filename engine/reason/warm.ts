/**
 * The warm-up after a restart (ReasoningPool.warmUp, which a server calls once it listens): the
 * graphs the store held in memory at its last closes are loaded again, and a replica of each
 * sent to the reasoning workers, in the background, one graph at a time, so that the first call
 * on any of them pays neither the store load nor the replica snapshot (at 100k facts, seconds of
 * a cold start). One at a time in the workers too: a worker reads a graph's snapshot file itself,
 * and the files sent together are read together, the smallest done first, so the next graph goes
 * out once the workers hold the one before (its load from the store meanwhile), and the first
 * call after a restart, on the remembered graph, finds its replica first. Which first: the graph
 * the restart preload names (preload.ts: the one last assessed or preloaded), then the others, most recently written first. Bounded: graphs of at
 * most `maxFacts` facts together, at most `maxGraphs` graphs (the workers' replica bound), a
 * snapshot file larger than SNAPSHOT_BYTES_PER_FACT bytes per fact of the budget left never
 * read, so a graph that cannot fit costs no memory to find out.
 *
 * Every worker's engine holds the views of several graphs (engine/prolog/bridge.ts, within
 * `viewFacts` facts): each graph warmed is handed to every engine (a hold, one message to all of them)
 * as soon as its replica is out, while the views so held fit that bound, so that the first assess of any of them pays no
 * hand-over and runs on all the workers. The first graph warmed (the remembered one, when it is
 * warmed) is held whatever that bound, alone when larger: it is the graph a client was last at
 * work on. A graph above `preloadMaxFacts` is never held; the graphs beyond the bound are
 * replicated only. A worker whose engine holds a view a client asked for meanwhile takes no hold
 * that would drop it (worker-entry.ts).
 */
import { NotFoundError } from '../errors.ts';
import { graphKey } from '../store/graph-cache.ts';
import type { ParleyStore } from '../store/store.ts';
import { REPLICA_WAIT_MS, type ReplicaSource } from './replicas.ts';

/**
 * The snapshot bytes per fact beyond which a graph is taken to be too large for the budget left
 * without reading it: generated conflict graphs take some 20 (interned strings), long texts more.
 */
const SNAPSHOT_BYTES_PER_FACT = 100;
/** How long the warm-up waits for the workers to start (their engines, the rule modules) before it gives up. */
const WORKERS_START_WAIT_MS = 60_000;

export interface WarmBounds {
  /** Facts of the graphs warmed together, the remembered one included (0: none warmed). */
  maxFacts: number;
  /** Graphs warmed at most. */
  maxGraphs: number;
  /** Facts of the views held on each engine (the workers' bound, ReasoningOptions.viewFacts): the graphs warmed within it are handed to every engine. */
  viewFacts: number;
  /** Largest graph handed to the engines ahead of a call (ReasoningOptions.preloadMaxFacts): a larger one is warmed, not held. */
  preloadMaxFacts: number;
}

/** The workers to warm: how many there are. */
export interface WarmWorkers {
  readonly count: number;
}

/**
 * Loads and replicates the recent graphs within `bounds`, `remembered` first, and has every worker's engine
 * take their views while they fit bounds.viewFacts; returns the keys warmed, in order. Stops when `stopped()`
 * says so (the pool closing).
 */
export async function warmGraphs(
  store: ParleyStore,
  source: ReplicaSource,
  workers: WarmWorkers,
  remembered: { tenant: string; graphId: string } | undefined,
  bounds: WarmBounds,
  stopped: () => boolean,
): Promise<{ tenant: string; graphId: string }[]> {
  if (bounds.maxFacts === 0 || bounds.maxGraphs === 0) return [];
  const recent = await store.recentGraphs();
  const isRemembered = (graph: { tenant: string; graphId: string }) => remembered !== undefined && graph.tenant === remembered.tenant && graph.graphId === remembered.graphId;
  const ordered = [...recent.filter(isRemembered), ...recent.filter((graph) => !isRemembered(graph))];
  if (ordered.length === 0 || !(await source.workersStarted(workers.count, WORKERS_START_WAIT_MS))) return [];
  const warmed: { tenant: string; graphId: string }[] = [];
  let facts = 0;
  let held = 0;
  let sent: Promise<void> = Promise.resolve();
  for (const graph of ordered) {
    if (stopped() || warmed.length >= bounds.maxGraphs) break;
    const left = bounds.maxFacts - facts;
    if (graph.bytes > left * SNAPSHOT_BYTES_PER_FACT) continue;
    try {
      const loaded = await store.loadGraph(graph.tenant, graph.graphId);
      if (stopped()) break;
      if (loaded.factCount > left) continue;
      await sent;
      if (stopped()) break;
      await source.warm(graph.tenant, graph.graphId);
      // (after REPLICA_WAIT_MS, a worker that will not keep it or one replaced meanwhile: the order is lost, not the warm-up)
      sent = source.held(graphKey(graph.tenant, graph.graphId), workers.count, REPLICA_WAIT_MS).then(() => undefined);
      facts += loaded.factCount;
      if (loaded.factCount <= bounds.preloadMaxFacts && (warmed.length === 0 || held + loaded.factCount <= bounds.viewFacts)) {
        held += loaded.factCount;
        await source.hold(graph.tenant, graph.graphId);
      }
      warmed.push({ tenant: graph.tenant, graphId: graph.graphId });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error; // (a snapshot left by a graph deleted meanwhile: nothing to warm)
    }
  }
  return warmed;
}

