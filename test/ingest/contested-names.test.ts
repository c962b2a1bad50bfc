import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitDrafts, draftAhead, extractForGraph, type DocumentToExtract } from '../../engine/ingest/commit.ts';
import type { GraphWrite } from '../../engine/store/store.ts';
import { exportWithoutInstants } from '../helpers/graph-export.ts';
import { openStoreWithPipeline, type StoreWithPipeline } from '../helpers/store.ts';

/**
 * A name two of the graph's actors claim (here an alias both carry) names neither of them, whatever
 * order they were written in, through a single ingest and through a batch alike; once a correction
 * takes the name from one, it names the other.
 */

const NORTH = { id: 'front-north', labels: ['Actor'], properties: { label: 'Lakeside Front North', actor_type: 'armed_group', aliases: ['Lakeside Front', 'Lake Brigade'] } };
const SOUTH = { id: 'front-south', labels: ['Actor'], properties: { label: 'Lakeside Front South', actor_type: 'armed_group', aliases: ['Lakeside Front', 'Lake Brigade'] } };
const CONTESTED: DocumentToExtract = { source: 'contested.txt', text: 'SAKE, 11 February 2024 - The Lakeside Front said it would never leave the town.' };
const SETTLED: DocumentToExtract = { source: 'settled.txt', text: 'SAKE, 12 February 2024 - The Lake Brigade said it would hold the town.' };

describe('a name two actors claim', { timeout: 120_000 }, () => {
  let opened: StoreWithPipeline;

  beforeAll(async () => {
    opened = await openStoreWithPipeline('parley-contested-names-');
  });

  afterAll(() => opened.close());

  const sources = async (graphId: string, id: string) => new Set((await opened.store.loadGraph('t', graphId)).node(id)!.provenance.map((record) => record.source));

  it('names neither actor, in either order they were written, one by one or in a batch, until a correction ends the contest', async () => {
    const { store, pipeline } = opened;
    const context = { store, pipeline };
    const runs = [
      { graphId: 'north-first-one', imported: [NORTH, SOUTH], batch: false },
      { graphId: 'south-first-one', imported: [SOUTH, NORTH], batch: false },
      { graphId: 'north-first-batch', imported: [NORTH, SOUTH], batch: true },
      { graphId: 'south-first-batch', imported: [SOUTH, NORTH], batch: true },
    ];
    const commit = async (graphId: string, document: DocumentToExtract, batch: boolean) => {
      if (!batch) return extractForGraph(context, 't', graphId, document, { tier: 'full', commit: true });
      const [outcome] = await commitDrafts(context, 't', graphId, [{ ...document, draft: await draftAhead(context, document, 'full') }], { tier: 'full' });
      if ('error' in outcome) throw outcome.error;
      return outcome.committed;
    };
    const graphs: string[][] = [];
    for (const { graphId, imported, batch } of runs) {
      // written one at a time, so that the order the graph holds them in differs between runs
      for (const node of imported) await store.writeGraph('t', graphId, { nodes: [node], edges: [] } as GraphWrite);
      await commit(graphId, CONTESTED, batch);
      expect(await sources(graphId, NORTH.id)).toEqual(new Set());
      expect(await sources(graphId, SOUTH.id)).toEqual(new Set());
      // the mention is an actor of its own (graph resolution finds two that fit, and takes neither)
      const graph = await store.loadGraph('t', graphId);
      const own = [...graph.nodesWithLabel('Actor')].filter((id) => graph.node(id)!.provenance.some((record) => record.source === CONTESTED.source));
      expect(own.map((id) => graph.node(id)!.properties.label)).toEqual(['Lakeside Front']);
      graphs.push(await exportWithoutInstants(await store.loadGraph('t', graphId)));
    }
    // the same graph whichever actor came first, and whichever path committed the document
    for (const graph of graphs.slice(1)) expect(graph).toEqual(graphs[0]);

    for (const { graphId, batch } of runs) {
      await store.correct('t', graphId, { op: 'set', target: SOUTH.id, properties: { aliases: ['Southern Front'] }, reason: 'renamed' }, 'key');
      await commit(graphId, SETTLED, batch);
      expect(await sources(graphId, NORTH.id)).toEqual(new Set(['settled.txt']));
      expect(await sources(graphId, SOUTH.id)).toEqual(new Set());
    }
  });
});
