// Entry point of a symbolic-layer worker thread. Plain JavaScript, because a worker thread does not
// inherit its parent's loader (engine/load-module.mjs).
import { loadModule } from '../../load-module.mjs';

const symbolic = await loadModule('./index.ts', import.meta.url);
const drafts = await loadModule('../draft.ts', import.meta.url);
const readFile = await loadModule('../read-file.ts', import.meta.url);

export default function findInWorker(document) {
  return symbolic.findConflictEntities(document);
}

/**
 * A document read and structured here without its graph (engine/extract/draft.ts), as JSON
 * (draftMessage: its provenance lists apart, for the commit to write as they are):
 * the thread that commits parses a draft's JSON in about 60% of the time it takes to receive the
 * same draft as an object (a structured clone of its many small objects; 0.4-0.7 against 0.7-1.1 ms
 * per draft of the sample corpus), and that thread's time per document bounds a batch's speed-up
 * (docs/batch.md, "On many cores").
 */
export async function draft(task) {
  const draft = await drafts.draftDocument(task, symbolic.findConflictEntities);
  return drafts.draftMessage(draft, draft, (bare) => bare);
}

/** A batch's file read, checked, hashed and drafted here (engine/extract/read-file.ts), as JSON like draft(). */
export async function draftFile(task) {
  return drafts.fileDraftMessage(await readFile.draftFile(task, symbolic.findConflictEntities));
}
