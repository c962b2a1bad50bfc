import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import type { StructuredDocument } from '../../engine/extract/structure/index.ts';
import { commitDrafts, draftAhead, extractForGraph, type DocumentToExtract } from '../../engine/ingest/commit.ts';
import { openStoreWithPipeline, type StoreWithPipeline } from '../helpers/store.ts';
import type { GraphWrite, ParleyStore } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';

const REPORT = 'KHARTOUM, 4 March 2024 - On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities.';
const DOCUMENTS: DocumentToExtract[] = [
  { source: 'a.txt', text: 'GOMA, 8 February 2024 - General Kodiak of the Wazalendo said his fighters would never leave Sake.' },
  // names Kodiak where no rule sees a name: only the graph, with a.txt in it, knows him
  { source: 'b.txt', text: 'GOMA, 9 February 2024 - Kodiak met the envoy in Goma on Friday, and the Wazalendo fighters withdrew.' },
  { source: 'c.txt', text: REPORT },
  { source: 'd.txt', text: REPORT },
  { source: 'e.txt', text: 'GOMA, 10 February 2024 - On 7 February 2024 the M23 rebels attacked Sake. Rwanda denied supporting the rebels, and Kodiak said the Wazalendo would hold Sake.' },
  { source: 'f.txt', text: 'PORT SUDAN, 12 March 2024 - The Sudanese Armed Forces shelled Omdurman on 11 March 2024. The RSF demanded that the army withdraw from the city.' },
  { source: 'g.txt', text: 'NAIROBI, 14 March 2024 - IGAD said the Rapid Support Forces and the Sudanese Armed Forces must return to talks in Jeddah.' },
];

describe('commitDrafts', { timeout: 120_000 }, () => {
  let opened: StoreWithPipeline;
  let store: ParleyStore;
  let pipeline: ExtractionPipeline;

  beforeAll(async () => {
    opened = await openStoreWithPipeline('parley-commit-drafts-');
    ({ store, pipeline } = opened);
  });

  afterAll(() => opened.close());

  it('commits drafted documents in fewer batches to the graph extractForGraph builds one by one, with the same outcomes', async () => {
    const context = { store, pipeline };
    const sequential = [];
    for (const document of DOCUMENTS) sequential.push(await extractForGraph(context, 't', 'one-by-one', document, { tier: 'full', commit: true }));

    const drafted = await Promise.all(DOCUMENTS.map(async (document) => ({ ...document, draft: await draftAhead(context, document, 'full') })));
    const outcomes = await commitDrafts(context, 't', 'drafted', drafted, { tier: 'full' });
    const committed = outcomes.map((outcome) => {
      if ('error' in outcome) throw outcome.error;
      return outcome.committed;
    });
    expect(committed.map((c) => c.already_ingested)).toEqual([false, false, false, true, false, false, false]);
    expect(committed.map((c) => c.added)).toEqual(sequential.map((c) => c.added));
    const withoutInstants = (graph: StructuredDocument) => JSON.parse(JSON.stringify(graph).replace(/"ingested_at":"[^"]+"/g, '"ingested_at":""')) as unknown;
    expect(committed.map((c) => withoutInstants(c.extraction.graph))).toEqual(sequential.map((c) => withoutInstants(c.extraction.graph)));

    const one = await store.loadGraph('t', 'one-by-one');
    const batched = await store.loadGraph('t', 'drafted');
    expect(await exportWithoutInstants(batched)).toEqual(await exportWithoutInstants(one));
    // the order the actor directory reads actors in is the same too
    expect([...batched.nodesWithLabel('Actor')]).toEqual([...one.nodesWithLabel('Actor')]);
    // b.txt's Kodiak is a.txt's, found through the graph though b.txt's draft did not see him
    const kodiak = [...batched.nodesWithLabel('Actor')].find((id) => batched.node(id)!.properties.label === 'Kodiak')!;
    expect(new Set(batched.node(kodiak)!.provenance.map((record) => record.source))).toEqual(new Set(['a.txt', 'b.txt', 'e.txt']));
    // fewer batches than documents: each batch that changes a graph counts once
    const revision = async (graphId: string) => (await store.getGraphMeta('t', graphId)).revision ?? 0;
    expect(await revision('drafted')).toBeLessThan(await revision('one-by-one'));
  });

  it('carries the graph\'s actors from one call to the next, in step with the writes and corrections made between calls', async () => {
    const context = { store, pipeline };
    const imported: GraphWrite = { nodes: [{ id: 'lfm', labels: ['Actor'], properties: { label: 'Lake Front Militia', actor_type: 'armed_group', aliases: ['LFM Fighters'] } }], edges: [] };
    // h.txt and i.txt name no actor but by the names the import and the correction give
    const documents: DocumentToExtract[] = [
      ...DOCUMENTS.slice(0, 3),
      { source: 'h.txt', text: 'SAKE, 11 February 2024 - The LFM Fighters said they would never leave the town.' },
      ...DOCUMENTS.slice(3),
      { source: 'i.txt', text: 'SAKE, 15 February 2024 - The Lakefront Brigade said it would hold the town.' },
    ];
    // between calls: an import naming an actor (a logged write), then a correction renaming it (not a write a batch makes)
    const between = async (graphId: string, position: number) => {
      if (position === 3) await store.writeGraph('t', graphId, imported);
      if (position === 7) await store.correct('t', graphId, { op: 'set', target: 'lfm', properties: { aliases: ['Lakefront Brigade'] }, reason: 'renamed' }, 'key');
    };
    for (const [position, document] of documents.entries()) {
      await between('calls-one', position);
      await extractForGraph(context, 't', 'calls-one', document, { tier: 'full', commit: true });
    }
    const drafted = await Promise.all(documents.map(async (document) => ({ ...document, draft: await draftAhead(context, document, 'full') })));
    // one call per document, as a batch whose drafts come one at a time commits them
    for (const [position, document] of drafted.entries()) {
      await between('calls-drafted', position);
      for (const outcome of await commitDrafts(context, 't', 'calls-drafted', [document], { tier: 'full' })) if ('error' in outcome) throw outcome.error;
    }

    const one = await store.loadGraph('t', 'calls-one');
    const batched = await store.loadGraph('t', 'calls-drafted');
    expect(await exportWithoutInstants(batched)).toEqual(await exportWithoutInstants(one));
    expect([...batched.nodesWithLabel('Actor')]).toEqual([...one.nodesWithLabel('Actor')]);
    // h.txt knew the imported alias, i.txt the corrected one
    expect(new Set(batched.node('lfm')!.provenance.map((record) => record.source))).toEqual(new Set(['h.txt', 'i.txt']));
  });

  it('attaches to places a user imported as the one-by-one path does', async () => {
    const context = { store, pipeline };
    const imported: GraphWrite = {
      nodes: [
        { id: 'el-fasher', labels: ['Location'], properties: { label: 'Al-Fashir', location_type: 'city', aliases: ['El Fasher'] } },
        { id: 'omdurman', labels: ['Location'], properties: { label: 'Omdurman' } },
      ],
      edges: [],
    };
    for (const graphId of ['places-one', 'places-drafted']) await store.writeGraph('t', graphId, imported);
    for (const document of DOCUMENTS) await extractForGraph(context, 't', 'places-one', document, { tier: 'full', commit: true });
    const drafted = await Promise.all(DOCUMENTS.map(async (document) => ({ ...document, draft: await draftAhead(context, document, 'full') })));
    for (const outcome of await commitDrafts(context, 't', 'places-drafted', drafted, { tier: 'full' })) if ('error' in outcome) throw outcome.error;

    const one = await store.loadGraph('t', 'places-one');
    const batched = await store.loadGraph('t', 'places-drafted');
    expect(await exportWithoutInstants(batched)).toEqual(await exportWithoutInstants(one));
    const sources = (id: string) => new Set(batched.node(id)!.provenance.map((record) => record.source));
    expect(sources('el-fasher')).toEqual(new Set(['c.txt']));
    expect(sources('omdurman')).toEqual(new Set(['f.txt']));
    expect([...batched.nodesWithLabel('Location')].filter((id) => /fash|omdurman/i.test(String(batched.node(id)!.properties.label)))).toEqual(['el-fasher', 'omdurman']);
  });
});
