import { afterAll, describe, expect, it } from 'vitest';
import { coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25: how a claim's speaker is chosen in real-style documents: a trailing attribution
 * speaks what comes before it, a name in apposition after "A spokesman for X," is who speaks,
 * offices match a title by its head noun, and quotations, prepositions and possessives keep
 * pronouns and nominal mentions from the wrong antecedent.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('speaker choice', () => {
  it('gives what comes before a trailing attribution to the attribution\'s speaker, unless its cue is a speech act of its own', async () => {
    const text =
      'Secretary-General António Guterres condemned the attacks on Monday. The United Nations will continue to support the people of Sudan, the Secretary-General said. ' +
      'The Rapid Support Forces denied attacking the camp, the UN said.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({
      'The United Nations will continue to support the people of Sudan': 'António Guterres',
      'The Rapid Support Forces denied attacking the camp': 'Rapid Support Forces',
    });
  });

  it('does not give a passive speech act to its subject ("X said Y had been unfairly blamed ... and called for")', async () => {
    const text = 'The Breeders Association of Kivara said herders had been unfairly blamed for the killings and called for the arrest of those responsible.';
    const byClaim = Object.values(speakers(await pipeline.graphOf(text)));
    expect(byClaim).toEqual(['Breeders Association of Kivara', 'Breeders Association of Kivara']);
  });

  it('gives a claim to the person named in apposition after "A spokesman for X,", not to X', async () => {
    const text = 'A spokesman for the Arakan Army, Khaing Thukha, denied that the town had fallen.';
    expect(Object.values(speakers(await pipeline.graphOf(text)))).toEqual(['Khaing Thukha']);
  });

  it('matches a lower-case office to a title by its head noun ("the secretary" after "Secretary of State X")', async () => {
    const text = 'Secretary of State Antony Blinken met Prime Minister Benjamin Netanyahu in Tel Aviv. After the meeting, the secretary urged Hamas to agree.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'secretary', 'the secretary urged')).toBe('Antony Blinken');
  });

  it('does not take a statement\'s issuer, nor "we", from the names inside the quotation before it', async () => {
    const text =
      'The National Unity Government said jets had bombed a school in Sagaing. ' +
      '"We call on ASEAN to stop treating the junta as a partner," the statement said. "Our people cannot wait."\n\nThe Arakan Army said it had taken the town, residents said.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the statement')).toBe('National Unity Government');
    expect(referentOf(graph, text, 'We')).toBe('National Unity Government');
    // A quotation that ends its sentence has no attribution after it, in the next paragraph least of all.
    expect(referentOf(graph, text, 'Our')).toBe('National Unity Government');
  });

  it('reads a name after "of the" as governed, one after "a spokesman for the" as the subject', async () => {
    const text =
      'UNIFIL said on Sunday that two tanks of the Israeli army had forced their way into one of its positions. ' +
      'A spokesman for the SDF said two villages had been cut off. It called on the United States to restrain Ankara.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'its')).toBe('UNIFIL');
    expect(referentOf(graph, text, 'It', 'It called')).toBe('Syrian Democratic Forces');
  });

  it('reads a possessive before what only an actor has as the actor\'s, even after a place', async () => {
    const text = 'The M23 rebels said they would set up an administration in Bukavu, a week after their fighters drove the army out.';
    expect(referentOf(await pipeline.graphOf(text), text, 'their')).toBe('M23');
  });

  it('resolves "the faction" to the armed group before it, and to nobody when two fit', async () => {
    const text = 'The Ngoro Liberation Front shelled Bora on Monday. Its spokesman said the faction would not disarm.';
    expect(referentOf(await pipeline.graphOf(text), text, 'the faction')).toBe('Ngoro Liberation Front');
    const two = 'The Ngoro Liberation Front and the Velkan People\'s Front shelled Bora on Monday. A spokesman said the faction would not disarm.';
    expect(referentOf(await pipeline.graphOf(two), two, 'the faction')).toBeUndefined();
  });
});
