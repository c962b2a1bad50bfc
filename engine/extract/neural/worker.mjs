// Entry point of a piscina worker thread. Plain JavaScript, because a worker thread does not
// inherit its parent's loader (engine/load-module.mjs).
import { loadModule } from '../../load-module.mjs';

const task = await loadModule('./worker-task.ts', import.meta.url);

export default task.default;
export const typeClaims = task.typeClaims;
