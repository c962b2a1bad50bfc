// Entry point of a rule-layer worker thread. Plain JavaScript, because a worker thread does not
// inherit its parent's loader (engine/load-module.mjs).
import { loadModule } from '../../load-module.mjs';

const rules = await loadModule('./index.ts', import.meta.url);
const drafts = await loadModule('../draft.ts', import.meta.url);

export default function findInWorker(document) {
  return rules.findConflictEntities(document);
}

/** A document read and structured here without its graph (engine/extract/draft.ts). */
export function draft(task) {
  return drafts.draftDocument(task, rules.findConflictEntities);
}
