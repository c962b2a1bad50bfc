// Entry point of a rule-layer worker thread. Plain JavaScript, because a worker thread does not
// inherit the TypeScript loader of vitest or tsx; tsx's scoped tsImport loads the rules.
import { tsImport } from 'tsx/esm/api';

const rules = await tsImport('./index.ts', import.meta.url);

export default function findInWorker(document) {
  return rules.findConflictEntities(document);
}
