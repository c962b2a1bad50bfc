import { afterAll, describe, expect, it } from 'vitest';
import { coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25: claims after the first sentence keep their speaker through coreference ("... he
 * said", "The ministry stated that ...", "Its spokesman said ..."); the Claim's `speaker` and
 * its ASSERTS edge name the same actor (helpers.ts checks they agree).
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('claim speakers through coreference', () => {
  it('follow a pronoun, a nominal mention and a possessive into later sentences', async () => {
    const text =
      'Defence Minister Ana Velt visited troops in Bora on Tuesday. She said the army would never withdraw from the border. ' +
      'The Ministry of Interior of Kivara announced a curfew in the capital. The ministry stated that all checkpoints must stay open. ' +
      'The Ngoro Liberation Front shelled the outskirts overnight. Its leaders warned that the attacks would continue.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({
      'the army would never withdraw from the border': 'Ana Velt',
      'all checkpoints must stay open': 'Ministry of Interior of Kivara',
      'Its leaders warned that the attacks would continue': 'Ngoro Liberation Front',
    });
    // The speaker's mention is provenance of the speaker's node.
    expect(referentOf(graph, text, 'She')).toBe('Ana Velt');
    expect(referentOf(graph, text, 'The ministry')).toBe('Ministry of Interior of Kivara');
  });

  it('follow a speaker named after the quotation by a pronoun', async () => {
    const text = 'General Tomas Vell commands the garrison at Bora. "We will never surrender the town," he said on Monday.';
    const graph = await pipeline.graphOf(text);
    expect(Object.entries(speakers(graph))).toEqual([[expect.stringContaining('never surrender the town'), 'Tomas Vell']]);
  });

  it('take "X said it ..." through coreference: "it" after a copula is the actor unless a clause follows ("it is unclear whether")', async () => {
    const text =
      'The Ngoro Liberation Front said it remained committed to the peace process. It is unclear whether talks will resume. ' +
      'The group said it was ready to return to the table.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'it', 'it remained committed')).toBe('Ngoro Liberation Front');
    expect(referentOf(graph, text, 'It', 'It is unclear')).toBeUndefined();
    expect(referentOf(graph, text, 'it', 'it was ready')).toBe('Ngoro Liberation Front');
    expect(speakers(graph)).toMatchObject({
      'it remained committed to the peace process': 'Ngoro Liberation Front',
      'it was ready to return to the table': 'Ngoro Liberation Front',
    });
  });

  it('take "X said on Monday it ..." through coreference: a time or "in a statement" between the verb and "it"', async () => {
    const text = 'The Ngoro Liberation Front said on Monday it would never disarm. The Kivaran army said in a statement it was ready to talk.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'it', 'it would never')).toBe('Ngoro Liberation Front');
    expect(speakers(graph)).toMatchObject({ 'it would never disarm': 'Ngoro Liberation Front' });
  });

  it('follow a pronoun that speaks after a place ("... entered Bora, and it accused")', async () => {
    const text = 'The Ngoro Liberation Front denied the charge. The group insisted that its fighters had not entered Bora, and it accused the army of lying.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'it', 'it accused')).toBe('Ngoro Liberation Front');
    expect(Object.entries(speakers(graph)).find(([claim]) => claim.includes('accused the army'))?.[1]).toBe('Ngoro Liberation Front');
  });
});

describe('quotations of several sentences', () => {
  it('are their speaker\'s throughout, the verb of speech before the quotation or after it', async () => {
    const before = 'Ana Velt, the Kivaran defence minister, said: "We have been patient. We will never accept a partition of the country."';
    expect(Object.values(speakers(await pipeline.graphOf(before)))).toEqual(['Ana Velt']);
    const after = 'General Tomas Vell inspected the garrison at Bora. "The rebels shelled the town for a week. We will never surrender it," he said.';
    expect(Object.values(speakers(await pipeline.graphOf(after)))).toEqual(['Tomas Vell']);
  });
});

