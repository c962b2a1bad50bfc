import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../../engine/extract/pipeline.ts';
import { actorDirectory, type KnownActor } from '../../../engine/extract/structure/coreference.ts';
import type { StructuredDocument } from '../../../engine/extract/structure/index.ts';
import { actorLabelled, actors, referentOf } from './helpers.ts';

/** Issue 25: an acronym and its long form are one actor, within a document and across the graph. */

const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

async function graphOf(text: string, known: KnownActor[] = []): Promise<StructuredDocument> {
  const graph = { directory: actorDirectory(known), isMemberOf: () => false };
  return (await pipeline.extract({ text, source: 'acronyms.txt' }, { tier: 'full', ingestedAt: '2025-03-01T00:00:00Z', graph })).graph;
}

describe('acronyms and long forms', () => {
  it('are one actor within a document, the acronym an alias of the long form', async () => {
    const text = 'The Kivara Patriotic Army (KPA) seized two villages on Monday. The KPA said it would never disarm.';
    const graph = await graphOf(text);
    const kpa = actorLabelled(graph, 'Kivara Patriotic Army');
    expect(kpa.properties.aliases).toEqual(['KPA']);
    expect(referentOf(graph, text, 'KPA', 'The KPA said')).toBe('Kivara Patriotic Army');
    expect(actors(graph)).toHaveLength(1);
  });

  it('find the long form an earlier document named for an acronym alone', async () => {
    const known = [{ label: 'Kivara Patriotic Army', aliases: [], actor_type: 'armed_group' }];
    const graph = await graphOf('The KPA said it would never disarm.', known);
    expect(actors(graph).map((node) => node.properties.label)).toEqual(['Kivara Patriotic Army']);
  });

  it('find the acronym an earlier document named for the long form alone', async () => {
    const known = [{ label: 'KPA', aliases: [], actor_type: 'armed_group' }];
    const graph = await graphOf('The Kivara Patriotic Army said it would never disarm.', known);
    expect(actors(graph).map((node) => node.properties.label)).toEqual(['KPA']);
  });

  it('link nothing when the acronym spells two known names, nor a person by initials', async () => {
    const known = [
      { label: 'Kivara Patriotic Army', aliases: [], actor_type: 'armed_group' },
      { label: 'Kivu People Alliance', aliases: [], actor_type: 'armed_group' },
      { label: 'KV', aliases: [], actor_type: 'armed_group' },
    ];
    const graph = await graphOf('The KPA said it would never disarm. Colonel Karl Vell did not comment.', known);
    expect(actors(graph).map((node) => node.properties.label).sort()).toEqual(['KPA', 'Karl Vell']);
  });
});
