/**
 * One thread of `npm run fuzz`: takes the batches it is given (batch b is fast-check's
 * sample of BATCH queries with seed + b, so a run is the same whatever the number of
 * threads), answers each query as the query route does inline (answerLikeTheRoute), and
 * reports each batch's count and failures to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { conflictGraph } from '../query/fixtures.ts';
import { anyQuery, answerLikeTheRoute } from './generators.ts';

export interface FuzzWork {
  seed: number;
  batches: { index: number; size: number }[];
}
export interface FuzzBatchReport {
  done: number;
  failures: string[];
}

const { seed, batches } = workerData as FuzzWork;
const graph = conflictGraph();
for (const { index, size } of batches) {
  const failures: string[] = [];
  for (const query of fc.sample(anyQuery, { numRuns: size, seed: seed + index })) {
    const failure = answerLikeTheRoute(graph, query);
    if (failure !== undefined) failures.push(`engine: ${JSON.stringify(query).slice(0, 400)} -> ${failure}`);
  }
  parentPort!.postMessage({ done: size, failures } satisfies FuzzBatchReport);
}
