// Entry point of a rule-layer worker thread. Plain JavaScript, because a worker thread does not
// inherit the TypeScript loader of vitest or tsx; tsx's scoped tsImport loads the rules.
import { tsImport } from 'tsx/esm/api';

const rules = await tsImport('./index.ts', import.meta.url);
const drafts = await tsImport('../draft.ts', import.meta.url);

export default function findInWorker(document) {
  return rules.findConflictEntities(document);
}

/** A document read and structured here without its graph (engine/extract/draft.ts). */
export function draft(task) {
  return drafts.draftDocument(task, rules.findConflictEntities);
}
