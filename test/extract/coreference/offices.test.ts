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

  it('resolve a role no one holds by title to the one person the document named without one, and to nobody when two were', async () => {
    const text =
      'The head of the mission, Mara Solen, told reporters that gangs had burned two villages. The envoy said the police must be reinforced. ' +
      'President Tomas Vell wrote that help was coming. "We will not abandon the north," the president wrote.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'envoy', 'The envoy said')).toBe('Mara Solen');
    expect(referentOf(graph, text, 'president', 'the president wrote')).toBe('Tomas Vell');
    const two = 'Mara Solen and Marco Rubio visited Bora on Monday. The envoy said the police must be reinforced.';
    expect(referentOf(await pipeline.graphOf(two), two, 'envoy', 'The envoy said')).toBeUndefined();
  });

  it('take the office an apposition gives ("Ana Velt, the Kivaran defence minister,")', async () => {
    const text = 'Ana Velt, the Kivaran defence minister, met Tomas Rell in Bora on Monday. The roads were closed for weeks. The minister said the crossings must reopen.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'minister', 'The minister said')).toBe('Ana Velt');
    expect(speakers(graph)).toMatchObject({ 'the crossings must reopen': 'Ana Velt' });
  });
});

