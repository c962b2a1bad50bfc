import { catalogKey } from '../../engine/frameworks/catalog-cache.ts';
import { DEFAULT_INFERENCE_LIMIT } from '../../engine/prolog/bridge.ts';
import type { WorkerSetup } from '../../engine/reason/worker-entry.ts';

/**
 * The setup of a reasoning worker run in the test's own thread (worker-entry.ts startWorker) on `channelName`: the
 * built-in frameworks only, 8 replicas, up to 1M facts each for the replicas, the preloads and the views, a view image
 * made after 30 s with no task, a background hand-over's shared sets under solve's inference limit; `overrides` in place of any of these.
 */
export const threadWorkerSetup = (channelName: string, overrides: Partial<WorkerSetup> = {}): WorkerSetup => ({
  channelName,
  frameworkDirs: [],
  catalogSourceKey: catalogKey([]),
  maxGraphs: 8,
  maxReplicaFacts: 1_000_000,
  preloadMaxFacts: 1_000_000,
  viewFacts: 1_000_000,
  imageAfterIdleMs: 30_000,
  backgroundSetsInferences: DEFAULT_INFERENCE_LIMIT,
  ...overrides,
});
