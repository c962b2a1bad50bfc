import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExtractionPipeline, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ingestFolder, listCorpus } from '../../engine/ingest/batch.ts';
import { extractForGraph } from '../../engine/ingest/commit.ts';
import { readSource } from '../../engine/extract/source.ts';
import type { GraphWrite, ParleyStore } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';

/**
 * A batch builds the graph that ingesting its documents one by one in path order builds, whatever
 * its pool's size (which changes how drafts group into commits), across batches with an import
 * and a correction between them.
 */

const REPORT = 'KHARTOUM, 4 March 2024 - On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities.';
const FIRST: Record<string, string> = {
  'a.txt': 'GOMA, 8 February 2024 - General Kodiak of the Wazalendo said his fighters would never leave Sake.',
  // names Kodiak where no rule sees a name: only the graph, with a.txt in it, knows him
  'b.txt': 'GOMA, 9 February 2024 - Kodiak met the envoy in Goma on Friday, and the Wazalendo fighters withdrew.',
  'c.txt': REPORT,
  // no dateline: dated by nothing
  'd.txt': 'The Sudanese Armed Forces shelled Omdurman on 11 March 2024. The RSF demanded that the army withdraw from the city.',
  // c.txt's text again: skipped
  'e.txt': REPORT,
};
const SECOND: Record<string, string> = {
  // named only by the alias the import gives, then by the one the correction gives
  'f.txt': 'SAKE, 11 February 2024 - The LFM Fighters said they would never leave the town.',
  'g.txt': 'SAKE, 15 February 2024 - The Lakefront Brigade said it would hold the town.',
  'h.txt': 'NAIROBI, 14 March 2024 - IGAD said the Rapid Support Forces and the Sudanese Armed Forces must return to talks in Jeddah.',
  'i.txt': 'GOMA, 10 February 2024 - On 7 February 2024 the M23 rebels attacked Sake. Rwanda denied supporting the rebels, and Kodiak said the Wazalendo would hold Sake.',
};
const IMPORTED: GraphWrite = { nodes: [{ id: 'lfm', labels: ['Actor'], properties: { label: 'Lake Front Militia', actor_type: 'armed_group', aliases: ['LFM Fighters'] } }], edges: [] };

describe('a batch, whatever its pool', { timeout: 300_000 }, () => {
  let temp: TempStore;
  let store: ParleyStore;
  const folders: string[] = [];
  const pipelines = new Map<number, ExtractionPipeline>();

  beforeAll(async () => {
    temp = await openTempStore('parley-batch-equality-');
    store = temp.store;
    for (const [name, documents] of [['first', FIRST], ['second', SECOND]] as const) {
      const folder = path.join(temp.dir, name);
      await mkdir(folder);
      for (const [file, text] of Object.entries(documents)) await writeFile(path.join(folder, file), text);
      folders.push(folder);
    }
    for (const workers of [1, 2, 4]) pipelines.set(workers, (await openExtractionPipeline({ symbolicWorkers: workers })).pipeline);
  });

  afterAll(async () => {
    for (const pipeline of pipelines.values()) await pipeline.close();
    await temp.close();
  });

  /** The graph as exported, sorted, without the instants of the run (d.txt, undated, is dated by its ingestion). */
  const exported = async (graphId: string) =>
    (await exportWithoutInstants(await store.loadGraph('t', graphId))).map((line) => line.replace(/"timestamp":"[^"]+","timestamp_of":"ingestion"/g, '"timestamp_of":"ingestion"'));

  const between = async (graphId: string) => {
    await store.writeGraph('t', graphId, IMPORTED);
    await store.correct('t', graphId, { op: 'set', target: 'lfm', properties: { aliases: ['LFM Fighters', 'Lakefront Brigade'] }, reason: 'renamed' }, 'key');
  };

  /** The graph one-by-one ingest builds of both folders, with the import and correction between them (built once). */
  let oneByOne: Promise<string[]> | undefined;
  const builtOneByOne = () =>
    (oneByOne ??= (async () => {
      const pipeline = pipelines.get(1)!;
      for (const [i, folder] of folders.entries()) {
        if (i === 1) await between('one-by-one');
        for (const source of await listCorpus(folder)) {
          const { text, title } = await readSource(folder, source);
          await extractForGraph({ store, pipeline }, 't', 'one-by-one', { text, source, ...(title ? { title } : {}) }, { tier: 'full', commit: true });
        }
      }
      return exported('one-by-one');
    })());

  it('builds the graph one-by-one ingest builds, with 1, 2 and 4 workers, an import and a correction between two batches', async () => {
    const expected = await builtOneByOne();
    const lfm = (await store.loadGraph('t', 'one-by-one')).node('lfm')!;
    expect(new Set(lfm.provenance.map((record) => record.source))).toEqual(new Set(['f.txt', 'g.txt']));

    for (const [workers, pooled] of pipelines) {
      const graphId = `batch-${workers}`;
      const first = await ingestFolder({ store, pipeline: pooled }, folders[0], { tenant: 't', graphId, workers });
      expect(first.documents.map(({ source, status }) => `${source} ${status}`)).toEqual(['a.txt ingested', 'b.txt ingested', 'c.txt ingested', 'd.txt ingested', 'e.txt skipped']);
      await between(graphId);
      const second = await ingestFolder({ store, pipeline: pooled }, folders[1], { tenant: 't', graphId, workers });
      expect(second.ingested).toBe(4);
      expect(await exported(graphId), `${workers} workers`).toEqual(expected);
    }
  });

  it('commits as many drafts at once as it is told to gather, and builds the same graph', async () => {
    const expected = await builtOneByOne();
    const pipeline = pipelines.get(1)!;
    const graphId = 'gathered';
    await ingestFolder({ store, pipeline }, folders[0], { tenant: 't', graphId, workers: 1 });
    await between(graphId);
    // one worker drafts one document after the other: without gathering, the first commit would not wait for the rest
    const commits: number[] = [];
    const writeGraphs = store.writeGraphs.bind(store);
    store.writeGraphs = (tenant, graph, writes) => {
      commits.push(writes.length);
      return writeGraphs(tenant, graph, writes);
    };
    try {
      const second = await ingestFolder({ store, pipeline }, folders[1], { tenant: 't', graphId, workers: 1, readAhead: 4, gather: 4 });
      expect(second.ingested).toBe(4);
    } finally {
      store.writeGraphs = writeGraphs;
    }
    expect(commits).toEqual([4]);
    expect(await exported(graphId)).toEqual(expected);
  });

  it('refuses a read-ahead or a gathering out of bounds', async () => {
    const pipeline = pipelines.get(2)!;
    await expect(ingestFolder({ store, pipeline }, folders[0], { tenant: 't', graphId: 'bounds', workers: 2, readAhead: 0 })).rejects.toMatchObject({ code: 'invalid_batch_setting' });
    await expect(ingestFolder({ store, pipeline }, folders[0], { tenant: 't', graphId: 'bounds', workers: 2, readAhead: 65 })).rejects.toMatchObject({ code: 'invalid_batch_setting' });
    // two workers reading 2 ahead each: a commit can wait for 4 drafts at most
    await expect(ingestFolder({ store, pipeline }, folders[0], { tenant: 't', graphId: 'bounds', workers: 2, readAhead: 2, gather: 5 })).rejects.toMatchObject({ code: 'invalid_batch_setting' });
    expect(await store.graphExists('t', 'bounds')).toBe(false);
  });
});
