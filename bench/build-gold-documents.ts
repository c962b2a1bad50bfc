import { readFile, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseSource } from './eval/gold-source.ts';

/**
 * `npx tsx bench/build-gold-documents.ts [--set documents|documents-dev] [--check]`
 *
 * Builds corpora/gold/documents.jsonl from corpora/gold/documents-src/*.txt (sorted by file
 * name), computing and verifying every span's offsets; `--check` fails when the committed
 * file differs from what the sources give. `--set documents-dev` builds the development
 * documents (documents-dev.jsonl from documents-dev-src/) the same way.
 */

/** The document sets and their source folders: the held-out one and the one to develop against. */
export const DOCUMENT_SETS = { documents: 'documents-src', 'documents-dev': 'documents-dev-src' } as const;
type DocumentSet = keyof typeof DOCUMENT_SETS;

const GOLD_DIR = new URL('../corpora/gold/', import.meta.url);
const sourceDir = (set: DocumentSet) => fileURLToPath(new URL(`${DOCUMENT_SETS[set]}/`, GOLD_DIR));
const documentSetPath = (set: DocumentSet) => fileURLToPath(new URL(`${set}.jsonl`, GOLD_DIR));

export async function buildGoldDocuments(set: DocumentSet = 'documents'): Promise<string> {
  const files = (await readdir(sourceDir(set))).filter((name) => name.endsWith('.txt')).sort();
  const documents = [];
  for (const file of files) documents.push(...parseSource(await readFile(`${sourceDir(set)}${file}`, 'utf8')));
  const ids = documents.map((document) => document.id);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) throw new Error(`gold document ids used twice: ${repeated.join(', ')}`);
  return documents.map((document) => JSON.stringify(document)).join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const setArgument = process.argv.includes('--set') ? process.argv[process.argv.indexOf('--set') + 1] : 'documents';
  if (!Object.hasOwn(DOCUMENT_SETS, setArgument)) throw new Error(`--set ${setArgument}: use ${Object.keys(DOCUMENT_SETS).join(' or ')}`);
  const set = setArgument as DocumentSet;
  const built = await buildGoldDocuments(set);
  if (process.argv.includes('--check')) {
    const committed = await readFile(documentSetPath(set), 'utf8').catch(() => '');
    if (committed !== built) {
      console.error(`corpora/gold/${set}.jsonl is not what corpora/gold/${DOCUMENT_SETS[set]} gives: run npx tsx bench/build-gold-documents.ts --set ${set}`);
      process.exit(1);
    }
    console.log(`${set}.jsonl matches its sources`);
  } else {
    await writeFile(documentSetPath(set), built);
    console.log(`wrote ${built.trim().split('\n').length} documents to corpora/gold/${set}.jsonl`);
  }
}
