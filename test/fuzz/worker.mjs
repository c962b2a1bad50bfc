// Entry point of a fuzz worker thread. Plain JavaScript, because a worker thread does not
// inherit the TypeScript loader of tsx; one tsx scoped import loads the TypeScript side.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
