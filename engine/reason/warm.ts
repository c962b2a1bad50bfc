/**
 * The warm-up after a restart (ReasoningPool.warmUp, which a server calls once it listens): the
 * graphs the store held in memory at its last closes are loaded again, and a replica of each
 * sent to the reasoning workers, in the background, one graph at a time, so that the first call
 * on any of them pays neither the store load nor the replica snapshot (at 100k facts, seconds of
 * a cold start). Which first: the graph the restart preload names (preload.ts: the one last
 * assessed or preloaded), then the others, most recently written first. Bounded: graphs of at
 * most `maxFacts` facts together, at most `maxGraphs` graphs (the workers' replica bound), a
 * snapshot file larger than SNAPSHOT_BYTES_PER_FACT bytes per fact of the budget left never
 * read, so a graph that cannot fit costs no memory to find out.
 *
 * The views spread over the workers: each engine holds one view, and a graph's assess runs on
 * the engines holding it (workers.ts ViewRouter), so the first graphs warmed, as many as give
 * each ENGINES_PER_GRAPH engines, share the workers out: the i-th of them is handed to the i-th
 * worker's engine as soon as its replica is out, and once all are out the workers left over take
 * them again in the same order (4 workers: 2 graphs, each on 2 engines; 2 workers: the first
 * graph on both). The other graphs are replicated only. A client that has asked for a preload
 * meanwhile (ReasoningPool.preload: at work on a graph) has the engines take that graph instead:
 * the warm-up then hands no view over.
 */
import { NotFoundError } from '../errors.ts';
import type { ParleyStore } from '../store/store.ts';
import type { ReplicaSource } from './replicas.ts';
import { ENGINES_PER_GRAPH } from './workers.ts';

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
}

/** The workers to warm: how many there are, and the thread ids of those running, in the order they started. */
export interface WarmWorkers {
  readonly count: number;
  threadIds(): number[];
}

/**
 * Loads and replicates the recent graphs within `bounds`, `remembered` first, and spreads their views
 * over the workers while `spreading()` says so; returns the keys warmed, in order. Stops when `stopped()`
 * says so (the pool closing).
 */
export async function warmGraphs(
  store: ParleyStore,
  source: ReplicaSource,
  workers: WarmWorkers,
  remembered: { tenant: string; graphId: string } | undefined,
  bounds: WarmBounds,
  stopped: () => boolean,
  spreading: () => boolean = () => true,
): Promise<{ tenant: string; graphId: string }[]> {
  if (bounds.maxFacts === 0 || bounds.maxGraphs === 0) return [];
  const recent = await store.recentGraphs();
  const isRemembered = (graph: { tenant: string; graphId: string }) => remembered !== undefined && graph.tenant === remembered.tenant && graph.graphId === remembered.graphId;
  const ordered = [...recent.filter(isRemembered), ...recent.filter((graph) => !isRemembered(graph))];
  if (ordered.length === 0 || !(await source.workersStarted(workers.count, WORKERS_START_WAIT_MS))) return [];
  const engines = workers.threadIds();
  // how many graphs get an engine of their own first (never more than the engines)
  const spread = Math.min(engines.length, Math.max(1, Math.floor(engines.length / ENGINES_PER_GRAPH)));
  const warmed: { tenant: string; graphId: string }[] = [];
  let facts = 0;
  for (const graph of ordered) {
    if (stopped() || warmed.length >= bounds.maxGraphs) break;
    const left = bounds.maxFacts - facts;
    if (graph.bytes > left * SNAPSHOT_BYTES_PER_FACT) continue;
    try {
      const loaded = await store.loadGraph(graph.tenant, graph.graphId);
      if (stopped()) break;
      if (loaded.factCount > left) continue;
      await source.warm(graph.tenant, graph.graphId);
      facts += loaded.factCount;
      if (warmed.length < spread && spreading()) await source.hold(graph.tenant, graph.graphId, engines[warmed.length]!);
      warmed.push({ tenant: graph.tenant, graphId: graph.graphId });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error; // (a snapshot left by a graph deleted meanwhile: nothing to warm)
    }
  }
  const shared = Math.min(spread, warmed.length);
  if (shared === 0) return warmed;
  for (let engine = shared; engine < engines.length && !stopped() && spreading(); engine++) {
    const graph = warmed[engine % shared]!;
    await source.hold(graph.tenant, graph.graphId, engines[engine]!).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error; // (deleted meanwhile)
    });
  }
  return warmed;
}
