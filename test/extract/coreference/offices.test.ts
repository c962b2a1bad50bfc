import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, actors, coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25: a person named only by office resolves within the document to the person who holds
 * it when the document names them, and otherwise stays a titled actor of type individual.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('persons named by office', () => {
  it('resolve to the holder the document names, capitalised or not', async () => {
    const text =
      'Foreign Secretary David Lammy arrived in Amman on Sunday. The Foreign Secretary said the aid corridor must reopen. ' +
      'Defence Minister Ana Velt of Kivara met him later. The minister said Kivara would never cede the border crossings.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({
      'the aid corridor must reopen': 'David Lammy',
      'Kivara would never cede the border crossings': 'Ana Velt',
    });
    expect(referentOf(graph, text, 'Foreign Secretary', 'The Foreign Secretary said')).toBe('David Lammy');
    expect(referentOf(graph, text, 'minister', 'The minister said')).toBe('Ana Velt');
    expect(referentOf(graph, text, 'him')).toBe('David Lammy');
    // The office is not the person's name.
    expect(actorLabelled(graph, 'David Lammy').properties.aliases).not.toContain('Foreign Secretary');
  });

  it('stay a titled actor of their own when the document names no holder', async () => {
    const text = 'The Defence Minister said the border crossings must stay closed. The minister did not take questions.';
    const graph = await pipeline.graphOf(text);
    const office = actorLabelled(graph, 'Defence Minister');
    expect(office.properties.actor_type).toBe('individual');
    expect(speakers(graph)).toEqual({ 'the border crossings must stay closed': 'Defence Minister' });
    expect(actors(graph).map((node) => node.properties.label)).toEqual(['Defence Minister']);
  });
});
