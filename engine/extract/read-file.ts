import { failureOf } from '../errors.ts';
import { checkText, documentIdOf } from './checked-text.ts';
import { draftDocument, mayHold, SYMBOLIC_CHUNK_CHARS, type FileDraft, type FileDraftTask } from './draft.ts';
import { readSource } from './source.ts';
import type { FindingsReader } from './types.ts';

/**
 * A batch's document read ahead where the symbolic layer runs (a worker thread): the file read,
 * its text checked and hashed, and drafted unless the graph may hold it already (a resumed batch
 * skips what it committed without structuring it again) or it is longer than one call of the
 * pool may take (the pipeline drafts it chunk by chunk, as draft() does). The thread that commits, whose time per
 * document bounds what any pool of workers gives (docs/batch.md, "On many cores"), then only
 * receives the text and its draft. It imports no pipeline, so a worker that loads it loads only
 * the reading, the check and the drafting.
 */
export async function draftFile(task: FileDraftTask, find: FindingsReader): Promise<FileDraft> {
  const { dir, source, known, ...settings } = task;
  try {
    const read = await readSource(dir, source);
    const { sha256 } = checkText(read.text);
    const file = { kind: 'read' as const, source: read.source, text: read.text, ...(read.title ? { title: read.title } : {}), sha256 };
    if (mayHold(known, sha256) || read.text.length > SYMBOLIC_CHUNK_CHARS) return file;
    const draft = await draftDocument({ ...settings, input: { text: read.text, source: read.source }, neural: null, sha256, documentId: documentIdOf(sha256), dateline: true, ...(read.title ? { title: read.title } : {}) }, find);
    return { ...file, draft };
  } catch (error) {
    return { kind: 'failed', ...failureOf(error) };
  }
}
