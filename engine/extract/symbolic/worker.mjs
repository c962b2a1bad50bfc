// Entry point of a symbolic-layer worker thread. Plain JavaScript, because a worker thread does not
// inherit its parent's loader (engine/load-module.mjs).
import { loadModule } from '../../load-module.mjs';

const symbolic = await loadModule('./index.ts', import.meta.url);
const drafts = await loadModule('../draft.ts', import.meta.url);

export default function findInWorker(document) {
  return symbolic.findConflictEntities(document);
}

/** A document read and structured here without its graph (engine/extract/draft.ts). */
export function draft(task) {
  return drafts.draftDocument(task, symbolic.findConflictEntities);
}
