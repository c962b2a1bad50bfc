import type { FrameworkCatalog } from '../../engine/frameworks/loader.ts';
import { runFramework, type FrameworkRun, type RunLimits } from '../../engine/frameworks/run.ts';
import { ReasoningPool, type ReasoningOptions } from '../../engine/reason/pool.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { openTempStore, type TempStore } from './store.ts';

export interface TempPool extends TempStore {
  pool: ReasoningPool;
}

/** A real store in a fresh temp dir and a reasoning pool over it, opened with `options`; `close` closes both. */
export async function openTempPool(prefix: string, options: ReasoningOptions = {}): Promise<TempPool> {
  const temp = await openTempStore(prefix);
  const pool = await ReasoningPool.open(temp.store, options);
  return {
    ...temp,
    pool,
    async close() {
      await pool.close();
      await temp.close();
    },
  };
}

/** Runs as compared across engines: without their inferences, which differ by how the view was handed over. */
export const withoutCost = (runs: FrameworkRun[]) => runs.map(({ inferences: _, ...run }) => run);

/** The runs of the frameworks `ids` over a fresh copy of the stored graph, on this thread's own engine: what an
 *  assess through the pool must answer. */
export async function freshRuns(catalog: FrameworkCatalog, store: ParleyStore, tenant: string, graphId: string, ids: string[], limits: RunLimits): Promise<FrameworkRun[]> {
  const stored = await store.loadGraph(tenant, graphId);
  const view = { graph: GraphIndex.fromRecords(stored.nodes.values(), stored.edges.values()) };
  const manifests = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
  return ids.map((id) => runFramework(catalog.registry, manifests.find((manifest) => manifest.id === id)!, view, limits));
}
