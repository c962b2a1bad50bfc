import { readFile, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseSource } from './eval/gold-source.ts';

/**
 * `npx tsx bench/build-gold-documents.ts [--check]`
 *
 * Builds corpora/gold/documents.jsonl from corpora/gold/documents-src/*.txt (sorted by file
 * name), computing and verifying every span's offsets; `--check` fails when the committed
 * file differs from what the sources give.
 */

const SOURCE_DIR = fileURLToPath(new URL('../corpora/gold/documents-src/', import.meta.url));
const OUTPUT = fileURLToPath(new URL('../corpora/gold/documents.jsonl', import.meta.url));

export async function buildGoldDocuments(): Promise<string> {
  const files = (await readdir(SOURCE_DIR)).filter((name) => name.endsWith('.txt')).sort();
  const documents = [];
  for (const file of files) documents.push(...parseSource(await readFile(`${SOURCE_DIR}${file}`, 'utf8')));
  const ids = documents.map((document) => document.id);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) throw new Error(`gold document ids used twice: ${repeated.join(', ')}`);
  return documents.map((document) => JSON.stringify(document)).join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildGoldDocuments();
  if (process.argv.includes('--check')) {
    const committed = await readFile(OUTPUT, 'utf8').catch(() => '');
    if (committed !== built) {
      console.error('corpora/gold/documents.jsonl is not what corpora/gold/documents-src gives: run npx tsx bench/build-gold-documents.ts');
      process.exit(1);
    }
    console.log('documents.jsonl matches its sources');
  } else {
    await writeFile(OUTPUT, built);
    console.log(`wrote ${built.trim().split('\n').length} documents to corpora/gold/documents.jsonl`);
  }
}
