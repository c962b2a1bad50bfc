// Entry point of a reasoning worker thread. Plain JavaScript, because a worker thread does not
// inherit its parent's loader (engine/load-module.mjs).
import { workerData } from 'node:worker_threads';
import { loadModule } from '../load-module.mjs';

const { startWorker } = await loadModule('./worker-entry.ts', import.meta.url);
const shaper = workerData.answerShaper ? (await loadModule(workerData.answerShaper, import.meta.url)).shapeAnswer : undefined;
const handle = await startWorker(workerData, shaper);

export default function reasonInWorker(task) {
  return handle(task);
}
