// Entry point of a reasoning worker thread. Plain JavaScript, because a worker thread does not
// inherit the TypeScript loader of vitest or tsx; one tsx scoped import loads the TypeScript side,
// so that every module (and every error class) exists once in the thread.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { startWorker } = await tsImport('./worker-entry.ts', import.meta.url);
const shaper = workerData.answerShaper ? (await tsImport(workerData.answerShaper, import.meta.url)).shapeAnswer : undefined;
const handle = await startWorker(workerData, shaper);

export default function reasonInWorker(task) {
  return handle(task);
}
