import { afterAll, describe, expect, it } from 'vitest';
import { coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25: "we", "our" and "us" inside a quotation stand for the organisation speaking there:
 * the one the quotation is attributed to, the one its speaker speaks for, or (attributed to
 * nobody) the one organisation that was the subject before; claims in the quotation get it as
 * their speaker when the attribution names no actor.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('first-person plural in quotations', () => {
  it('is the organisation that issued the statement quoted, its claims that organisation\'s', async () => {
    const text =
      'The Orsovan Ministry of Foreign Affairs issued the following statement on Thursday.\n\n' +
      '"We condemn the shelling of Velmora by the Red Lantern Front. The sovereignty of our country is not open to negotiation. ' +
      'We demand that the shelling stop at once."';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We condemn')).toBe('Orsovan Ministry of Foreign Affairs');
    expect(referentOf(graph, text, 'our')).toBe('Orsovan Ministry of Foreign Affairs');
    const byClaim = speakers(graph);
    expect(Object.entries(byClaim).filter(([claim]) => /condemn|negotiation|demand/.test(claim))).toEqual([
      [expect.stringContaining('We condemn'), 'Orsovan Ministry of Foreign Affairs'],
      [expect.stringContaining('not open to negotiation'), 'Orsovan Ministry of Foreign Affairs'],
      [expect.stringContaining('We demand'), 'Orsovan Ministry of Foreign Affairs'],
    ]);
  });

  it('is the organisation a quoted person speaks for, introduced before or after the name', async () => {
    const text =
      'Marek Talvi, a senior official of the Velkan People\'s Front, spoke in Teshkar. "We respect the choice of the people," Talvi told reporters. ' +
      'The Northern Coast Militia shelled the port. UNAMI spokesman Jonas Brekke said the road was cut. "We call on the parties to open it," Brekke said.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We respect')).toBe("Velkan People's Front");
    expect(referentOf(graph, text, 'We', 'We call on')).toBe('UNAMI');
    // A person speaks the claim in their own name: "we" does not take it from them.
    expect(speakers(graph)).toMatchObject({ 'We call on the parties to open it': 'Jonas Brekke' });
  });

  it('is the organisation the quotation is attributed to, and nobody outside a quotation', async () => {
    const text =
      'The Ngoro Liberation Front said it had withdrawn from Bora. "Our fighters will return," the group said. ' +
      'We will follow the story as it develops.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Our')).toBe('Ngoro Liberation Front');
    expect(referentOf(graph, text, 'We', 'We will follow')).toBeUndefined();
  });

  it('is nobody when two organisations were subjects before and the quotation names no speaker', async () => {
    const text = 'The Sudanese army and the Rapid Support Forces both claimed the town. "We will never leave," a fighter said.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We')).toBeUndefined();
  });
});
