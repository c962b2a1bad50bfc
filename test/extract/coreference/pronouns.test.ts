import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, coreferencePipeline, referentOf } from './helpers.ts';

/**
 * Issue 25: pronouns and nominal mentions resolve to the actor named before them, and each
 * resolved mention is a provenance record of that actor's node with the mention's own span.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

const DOCUMENT =
  'Foreign Secretary David Lammy arrived in Baghdad on Monday. He met Prime Minister Mohammed Shia al-Sudani at the Green Zone. ' +
  'The Ngoro Liberation Front fired rockets at the airport on Sunday. The group said its fighters would continue the attacks. ' +
  'The Ministry of Foreign Affairs of Kivara said it had recalled its ambassador. The ministry accused the movement of shelling Bora. ' +
  'The Kivaran Patriotic Party said they would boycott the talks.';

describe('pronouns and nominal mentions', () => {
  it('give the actor they stand for a provenance record with their own span', async () => {
    const graph = await pipeline.graphOf(DOCUMENT);
    expect(referentOf(graph, DOCUMENT, 'He', 'He met')).toBe('David Lammy');
    expect(referentOf(graph, DOCUMENT, 'The group')).toBe('Ngoro Liberation Front');
    expect(referentOf(graph, DOCUMENT, 'its', 'its fighters')).toBe('Ngoro Liberation Front');
    expect(referentOf(graph, DOCUMENT, 'it', 'it had recalled')).toBe('Ministry of Foreign Affairs of Kivara');
    expect(referentOf(graph, DOCUMENT, 'its', 'its ambassador')).toBe('Ministry of Foreign Affairs of Kivara');
    expect(referentOf(graph, DOCUMENT, 'The ministry')).toBe('Ministry of Foreign Affairs of Kivara');
    expect(referentOf(graph, DOCUMENT, 'the movement')).toBe('Ngoro Liberation Front');
    expect(referentOf(graph, DOCUMENT, 'they', 'they would boycott')).toBe('Kivaran Patriotic Party');
  });

  it('add no actor of their own and no name to the actor they stand for', async () => {
    const graph = await pipeline.graphOf(DOCUMENT);
    const labels = graph.nodes.filter((node) => node.labels[0] === 'Actor').map((node) => String(node.properties.label).toLowerCase());
    for (const word of ['he', 'it', 'its', 'they', 'the group', 'group', 'ministry', 'movement']) expect(labels).not.toContain(word);
    expect(actorLabelled(graph, 'Ngoro Liberation Front').properties.aliases).toEqual([]);
    expect(actorLabelled(graph, 'David Lammy').properties.actor_type).toBe('individual');
  });

  it('leave "it" that refers to nothing, and "they" said of people, unresolved', async () => {
    const text = 'The Ngoro Liberation Front shelled Bora on Monday. It is unclear how many died. Residents said they had fled to the hills.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'It', 'It is unclear')).toBeUndefined();
    expect(referentOf(graph, text, 'they', 'they had fled')).toBeUndefined();
  });

  it('do not reach past a bounded window of sentences', async () => {
    const text =
      'Colonel Tomas Vell inspected the garrison at Bora. The rains came early that year. The roads were closed for weeks. ' +
      'The harvest failed in the north. Markets emptied across the province. He said nothing.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'He', 'He said')).toBeUndefined();
  });

  it('agree in gender where the document has said it: a title or an earlier pronoun rules a person out', async () => {
    const text =
      'Ms Ana Velt and Tomas Rell met in Bora on Monday. He said the crossings must reopen. ' +
      'Velt spoke to the press later. She said the talks had been useful, and Rell said he would return in May.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'He', 'He said')).toBe('Tomas Rell');
    expect(referentOf(graph, text, 'She', 'She said')).toBe('Ana Velt');
    expect(referentOf(graph, text, 'he', 'he would return')).toBe('Tomas Rell');
  });
});

