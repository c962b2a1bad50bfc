/**
 * bench/batch-digest: the graph a batch builds, as two digests to compare across versions of the
 * commit path (a change that only makes the main thread cheaper must build the same graph). The
 * corpus (--copies times over, as bench/batch reads it) is ingested into a fresh store, with commits
 * of one draft (--gather 1) or gathered (--gather 16, with as much read ahead); the store is then
 * reopened without its snapshot and digested:
 *
 * - records: every node and edge as the store reads them back, sorted, without the instants of the
 *   run (when each record and document was written);
 * - stored bytes: every key and value of the graph's records in LevelDB, the graph's generation cut
 *   from the keys and the run's instants masked, each long list's chunks joined into one text: where a
 *   chunk starts, as the graph's meta and its log of writes, depends on how many commits the drafts
 *   group into, which depends on when they come (the bytes of the entries do not).
 *
 *   npx tsx bench/batch-digest.ts [--corpus corpora/sudan-drc-2024 --copies 5 --workers 2 --gather 1]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Level } from 'level';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ingestFolder } from '../engine/ingest/batch.ts';
import { exportJsonLines } from '../engine/store/transfer.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { copiedCorpus } from './batch-corpus.ts';

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'corpora/sudan-drc-2024' },
    copies: { type: 'string', default: '5' },
    workers: { type: 'string', default: '2' },
    gather: { type: 'string', default: '1' },
  },
});
const GATHER = Number(args.gather);
const WORKERS = Number(args.workers);
const ORIGINAL = path.resolve(args.corpus!);
const COPIES = Number(args.copies);
const CORPUS = COPIES > 1 ? await copiedCorpus(ORIGINAL, COPIES) : ORIGINAL;
/** An instant as the store writes one (ISO 8601, UTC): when the run wrote a record or a document, which no two runs share. */
const INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-batch-digest-'));
const { pipeline } = await openExtractionPipeline({ symbolicWorkers: WORKERS });
try {
  const store = await ParleyStore.open(dir);
  const summary = await ingestFolder({ store, pipeline }, CORPUS, { tenant: 'bench', graphId: 'batch', workers: WORKERS, readAhead: Math.max(4, Math.ceil(GATHER / WORKERS)), gather: GATHER });
  await store.close();
  if (summary.failures.length > 0) throw new Error(`failures: ${JSON.stringify(summary.failures)}`);
  await rm(path.join(dir, 'snapshots'), { recursive: true, force: true });
  const reopened = await ParleyStore.open(dir);
  const records: string[] = [];
  try {
    let text = '';
    for await (const chunk of exportJsonLines(await reopened.loadGraph('bench', 'batch'))) text += chunk;
    for (const line of text.split('\n').filter(Boolean)) records.push(line.replace(INSTANT, 'INSTANT'));
  } finally {
    await reopened.close();
  }
  records.sort();
  const db = new Level<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const stored = createHash('sha256');
  let keys = 0;
  let chunks = 0;
  let bytes = 0;
  try {
    // a graph's data keys: 'g', tenant, graph, generation, then the record's kind and id, and a chunk's start (keys.ts); a record's chunks follow it
    let entries = '';
    const endRecord = () => {
      stored.update(`\u0001${entries}\u0002`);
      entries = '';
    };
    for await (const [key, value] of db.iterator({ gte: 'g\u0000', lt: 'g\u0001' })) {
      const [kind, id, chunkStart] = key.split('\u0000').slice(4);
      const masked = value.replace(INSTANT, 'INSTANT');
      bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
      if (chunkStart === undefined) {
        if (keys > 0) endRecord();
        stored.update(`${kind}\u0000${id}\u0001${masked}`);
        keys++;
      } else {
        entries = entries === '' ? masked.slice(1, -1) : `${entries},${masked.slice(1, -1)}`;
        chunks++;
      }
    }
    endRecord();
  } finally {
    await db.close();
  }
  const recordsDigest = createHash('sha256').update(records.join('\n')).digest('hex');
  console.log(`bench:batch-digest  corpus ${args.corpus}${COPIES > 1 ? ` ${COPIES} times over` : ''}, ${summary.ingested} ingested, ${WORKERS} workers, commits gathering ${GATHER}`);
  console.log(`records ${records.length} sha256 ${recordsDigest}`);
  console.log(`stored ${keys} records (and ${chunks} chunks, ${bytes} bytes of keys and values: these depend on how the commits grouped) sha256 ${stored.digest('hex')}`);
} finally {
  await pipeline.close();
  await rm(dir, { recursive: true, force: true });
  if (COPIES > 1) await rm(CORPUS, { recursive: true, force: true });
}
