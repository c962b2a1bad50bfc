// Entry point of a piscina worker thread. Plain JavaScript, because a worker thread does not
// inherit the TypeScript loader of vitest or of a bundler; tsx's scoped tsImport loads the
// TypeScript task without registering a loader for the whole thread.
import { tsImport } from 'tsx/esm/api';

const task = await tsImport('./worker-task.ts', import.meta.url);

export default task.default;
export const typeClaims = task.typeClaims;
