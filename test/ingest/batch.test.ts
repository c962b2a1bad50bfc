import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../engine/extract/checked-text.ts';
import type { FileDraft } from '../../engine/extract/draft.ts';
import { createExtractionPipeline, openExtractionPipeline, SYMBOLIC_CHUNK_CHARS, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ingestFolder, listCorpus } from '../../engine/ingest/batch.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';

const REPORT = 'KHARTOUM, 4 March 2024 - On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities.';
const OTHER = 'GOMA, 9 February 2024 - On 7 February 2024 the M23 rebels attacked Sake. Rwanda denied supporting the rebels.';

/** `pipeline` with each file its symbolic workers read (draftFile) shown to `see` on its way to the batch. */
function seeingFiles(pipeline: ExtractionPipeline, see: (file: FileDraft) => void): ExtractionPipeline {
  return {
    ...pipeline,
    async draftFile(dir, source, options) {
      const file = await pipeline.draftFile!(dir, source, options);
      see(file);
      return file;
    },
  };
}

describe('ingestFolder', () => {
  let work: string;
  let corpus: string;
  let store: ParleyStore;
  const pipeline = createExtractionPipeline();

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'parley-batch-'));
    corpus = path.join(work, 'corpus');
    await mkdir(path.join(corpus, 'drc'), { recursive: true });
    await mkdir(path.join(corpus, '.cache'));
    await writeFile(path.join(corpus, 'a-report.txt'), REPORT);
    await writeFile(path.join(corpus, 'b-same-text.md'), REPORT);
    await writeFile(path.join(corpus, 'drc', 'goma.html'), `<html><body><p>${OTHER}</p></body></html>`);
    await writeFile(path.join(corpus, 'latin1.txt'), Buffer.from([0x53, 0xe3, 0x6f, 0x20, 0x54, 0x6f, 0x6d, 0xe9]));
    await writeFile(path.join(corpus, 'README.md'), '# About this corpus');
    await writeFile(path.join(corpus, 'notes.pdf'), 'not a text format');
    await writeFile(path.join(corpus, '.cache', 'hidden.txt'), OTHER);
    await writeFile(path.join(work, 'outside.txt'), OTHER);
    await symlink(path.join(work, 'outside.txt'), path.join(corpus, 'link-out.txt'));
    store = await ParleyStore.open(path.join(work, 'store'));
  });

  afterAll(async () => {
    await store.close();
    await rm(work, { recursive: true, force: true });
  });

  it('lists supported documents in path order, without READMEs, hidden entries or other formats', async () => {
    expect(await listCorpus(corpus)).toEqual(['a-report.txt', 'b-same-text.md', 'drc/goma.html', 'latin1.txt', 'link-out.txt']);
  });

  /** The first run's and the second run's outcomes, the same whichever thread reads the files. */
  async function ingestTwice(graphId: string, batchPipeline: ExtractionPipeline, afterFirst?: () => void) {
    const seen: string[] = [];
    const first = await ingestFolder({ store, pipeline: batchPipeline }, corpus, { tenant: 't', graphId, workers: 1, onStart: (total) => seen.push(`start ${total}`), onDocument: (progress) => seen.push(`${progress.done}/${progress.total} ${progress.document.status}`) });
    expect(first.documents.map(({ source, status }) => [source, status])).toEqual([
      ['a-report.txt', 'ingested'],
      ['b-same-text.md', 'skipped'],
      ['drc/goma.html', 'ingested'],
      ['latin1.txt', 'failed'],
      ['link-out.txt', 'failed'],
    ]);
    expect(first.failures.map(({ source, code }) => [source, code])).toEqual([['latin1.txt', 'source_not_text'], ['link-out.txt', 'source_outside_root']]);
    expect(seen).toEqual(['start 5', '1/5 ingested', '2/5 skipped', '3/5 ingested', '4/5 failed', '5/5 failed']);
    expect(first.sentences).toBeGreaterThan(0);
    expect(first.interrupted).toBe(false);
    const graph = await store.loadGraph('t', graphId);
    const sources = [...graph.nodesWithLabel('Document')].map((id) => graph.node(id)!.properties.source).sort();
    expect(sources).toEqual(['a-report.txt', 'drc/goma.html']);
    const nodes = graph.nodeCount;
    afterFirst?.();

    const second = await ingestFolder({ store, pipeline: batchPipeline }, corpus, { tenant: 't', graphId, workers: 1 });
    expect(second.documents.map(({ status }) => status)).toEqual(['skipped', 'skipped', 'skipped', 'failed', 'failed']);
    expect(second.ingested).toBe(0);
    expect((await store.loadGraph('t', graphId)).nodeCount).toBe(nodes);
    return { first, second };
  }

  it('goes past bad files with their reasons, ingests a text once under its first name, and skips everything on a second run', async () => {
    await ingestTwice('g', pipeline);
  });

  it('does the same with the files read and drafted in the symbolic workers, and a second run drafts none of them again', async () => {
    const { pipeline: pooled } = await openExtractionPipeline({ symbolicWorkers: 1 });
    try {
      let drafted = 0;
      const counting = seeingFiles(pooled, (file) => {
        if (file.kind === 'read' && file.draft) drafted++;
      });
      const { first } = await ingestTwice('g-pooled', counting, () => expect(drafted).toBe(3));
      // the second run found every text among the graph's documents in the worker: nothing drafted again
      expect(drafted).toBe(3);
      const mainThread = await ingestFolder({ store, pipeline }, corpus, { tenant: 't', graphId: 'g-reasons', workers: 1 });
      expect(first.failures.map(({ code, reason }) => [code, reason])).toEqual(mainThread.failures.map(({ code, reason }) => [code, reason]));
      // what a worker drafted and sent as JSON builds the graph the main thread builds
      expect(await exportWithoutInstants(await store.loadGraph('t', 'g-pooled'))).toEqual(await exportWithoutInstants(await store.loadGraph('t', 'g-reasons')));
    } finally {
      await pooled.close();
    }
  });

  it('drafts on the main thread, as a batch without workers does, a file longer than one worker call and a file whose hash a user-imported document id shares', async () => {
    const folder = path.join(work, 'fallbacks');
    await mkdir(folder);
    const long = 'KHARTOUM, 30 March 2024 - ' + Array.from({ length: 700 }, (_, i) => `On ${(i % 28) + 1} March 2024 the Rapid Support Forces shelled El Fasher for the ${i + 1}th time.`).join(' ');
    expect(long.length).toBeGreaterThan(SYMBOLIC_CHUNK_CHARS);
    await writeFile(path.join(folder, 'long.txt'), long);
    await writeFile(path.join(folder, 'shared-prefix.txt'), OTHER);
    // a user's Document whose id has the first 16 hex digits of shared-prefix.txt's hash: mayHold
    // says perhaps, and the graph, which does not hold that text, says no
    const hash = sha256Of(OTHER);
    const imported = { nodes: [{ id: `document_${hash.slice(0, 16)}${hash.slice(16, 24) === '00000000' ? '11111111' : '00000000'}`, labels: ['Document'], properties: { source: 'imported.txt', sha256: 'not-a-hash' } }], edges: [] };
    const { pipeline: pooled } = await openExtractionPipeline({ symbolicWorkers: 1 });
    try {
      const readWithoutDraft: string[] = [];
      const counting = seeingFiles(pooled, (file) => {
        if (file.kind === 'read' && !file.draft) readWithoutDraft.push(file.source);
      });
      for (const [graphId, batchPipeline] of [['fallbacks-pooled', counting], ['fallbacks-main', pipeline]] as const) {
        await store.writeGraph('t', graphId, imported);
        const summary = await ingestFolder({ store, pipeline: batchPipeline }, folder, { tenant: 't', graphId, workers: 1 });
        expect(summary.documents.map(({ source, status }) => [source, status])).toEqual([['long.txt', 'ingested'], ['shared-prefix.txt', 'ingested']]);
      }
      expect(readWithoutDraft).toEqual(['long.txt', 'shared-prefix.txt']);
      expect(await exportWithoutInstants(await store.loadGraph('t', 'fallbacks-pooled'))).toEqual(await exportWithoutInstants(await store.loadGraph('t', 'fallbacks-main')));
    } finally {
      await pooled.close();
    }
  });

  it('stops between commits when its signal fires, and says it was interrupted', async () => {
    const stop = new AbortController();
    const summary = await ingestFolder({ store, pipeline }, corpus, { tenant: 't', graphId: 'stopped', workers: 1, signal: stop.signal, onDocument: () => stop.abort() });
    expect(summary.interrupted).toBe(true);
    // the first commit takes the first document and every draft ready with it (at most the
    // read-ahead of one worker, 4, of the corpus's 5): how many is a matter of timing
    expect(summary.documents.length).toBeGreaterThanOrEqual(1);
    expect(summary.documents.length).toBeLessThan(summary.total);
    expect(summary.documents.map((document) => document.source)).toEqual((await listCorpus(corpus)).slice(0, summary.documents.length));
    // what went in is what the summary reports, nothing after it
    expect([...(await store.loadGraph('t', 'stopped')).nodesWithLabel('Document')]).toHaveLength(summary.ingested);
  });
});
