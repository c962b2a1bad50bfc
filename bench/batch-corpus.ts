/**
 * A longer corpus for bench/batch and bench/batch-profile: a corpus `copies` times over in a
 * temporary folder, each copy's documents with a line of their own added (a new text, so a new
 * document about the same actors). The caller removes the folder. `everyDocument`: a sentence added to that
 * line, so that what it names is named by every document of the batch (a record whose provenance list grows
 * with the batch's length).
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listCorpus } from '../engine/ingest/batch.ts';

export async function copiedCorpus(corpus: string, copies: number, everyDocument = ''): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-batch-corpus-'));
  for (const source of await listCorpus(corpus)) {
    const text = await readFile(path.join(corpus, source), 'utf8');
    for (let copy = 0; copy < copies; copy++) {
      const line = `Copy ${copy + 1}.${everyDocument === '' ? '' : ` ${everyDocument}`}`;
      const target = path.join(dir, `copy-${String(copy + 1).padStart(3, '0')}`, source);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, /\.html?$/.test(source) ? text.replace('</body>', `<p>${line}</p></body>`) : `${text.trimEnd()}\n\n${line}\n`);
    }
  }
  return dir;
}
