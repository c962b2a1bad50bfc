/**
 * bench/graph-kinds: what extraction (symbolic layer, full tier) writes for the sample documents in
 * corpora/ (and its sub-folders) and for the gold sentences (corpora/gold/*.jsonl, one document per
 * set and conflict, sentences as paragraphs), counted per node kind and per edge type, so a
 * change to the symbolic layer can be compared with a run of the same script on the code before it. Then,
 * per framework, which of the node kinds and edge types its manifest reads extraction wrote none of.
 *
 *   npx tsx bench/graph-kinds.ts [corpora-dir]
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createExtractionPipeline } from '../engine/extract/pipeline.ts';
import { SUPPORTED_EXTENSIONS, readSource } from '../engine/extract/source.ts';

const corporaDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../corpora'));

async function sources(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const reference = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== 'gold') found.push(...(await sources(path.join(dir, entry.name), reference)));
    else if (entry.isFile() && entry.name !== 'README.md' && SUPPORTED_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) found.push(reference);
  }
  return found;
}

/** Gold sentences grouped into one document per set and conflict. */
async function goldDocuments(): Promise<{ source: string; text: string; document_date?: string }[]> {
  const groups = new Map<string, { texts: string[]; date?: string }>();
  const goldDir = path.join(corporaDir, 'gold');
  for (const name of (await readdir(goldDir).catch(() => [])).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of (await readFile(path.join(goldDir, name), 'utf8')).split('\n').filter(Boolean)) {
      const record = JSON.parse(line) as { text: string; conflict?: string; document_date?: string };
      const key = `gold/${name}#${record.conflict ?? 'other'}`;
      if (!groups.has(key)) groups.set(key, { texts: [], date: record.document_date });
      groups.get(key)!.texts.push(record.text);
    }
  }
  return [...groups].map(([source, group]) => ({ source, text: group.texts.join('\n\n'), ...(group.date ? { document_date: group.date } : {}) }));
}

const pipeline = createExtractionPipeline();
const nodeCounts = new Map<string, number>();
const edgeCounts = new Map<string, number>();
const documents = [
  ...(await Promise.all((await sources(corporaDir)).map(async (reference) => ({ source: reference, text: (await readSource(corporaDir, reference)).text })))),
  ...(await goldDocuments()),
];
for (const document of documents) {
  const result = await pipeline.extract(document, { tier: 'full', ingestedAt: '2026-01-01T00:00:00Z' });
  for (const node of result.graph.nodes) nodeCounts.set(node.labels[0], (nodeCounts.get(node.labels[0]) ?? 0) + 1);
  for (const edge of result.graph.edges) {
    const key = edge.type === 'PARTICIPATES_IN' ? `PARTICIPATES_IN(${String(edge.properties.role)})` : edge.type;
    edgeCounts.set(key, (edgeCounts.get(key) ?? 0) + 1);
  }
}
await pipeline.close();
console.log(`${documents.length} documents (${documents.reduce((n, d) => n + d.text.length, 0)} characters) from ${corporaDir}`);
for (const [title, counts] of [['node kind', nodeCounts], ['edge type', edgeCounts]] as const) {
  console.log(`\n| ${title} | count |\n|---|---|`);
  for (const [key, count] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) console.log(`| ${key} | ${count} |`);
}

const frameworksDir = path.join(import.meta.dirname, '../frameworks');
const written = new Set([...nodeCounts.keys(), ...[...edgeCounts.keys()].map((key) => key.replace(/\(.*$/, ''))]);
console.log('\n| framework | reads | of them written | missing |\n|---|---|---|---|');
for (const entry of (await readdir(frameworksDir, { withFileTypes: true })).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
  const manifest = JSON.parse(await readFile(path.join(frameworksDir, entry.name, 'manifest.json'), 'utf8').catch(() => 'null')) as { reads: { nodes: string[]; edges: string[] } } | null;
  if (!manifest) continue;
  const reads = [...manifest.reads.nodes, ...manifest.reads.edges];
  const missing = reads.filter((kind) => !written.has(kind));
  console.log(`| ${entry.name} | ${reads.length} | ${reads.length - missing.length} | ${missing.join(', ') || '–'} |`);
}
