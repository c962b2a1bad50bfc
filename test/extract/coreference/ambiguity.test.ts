import { afterAll, describe, expect, it } from 'vitest';
import { coreferencePipeline, referentOf, speakers } from './helpers.ts';

/** Issue 25: a pronoun or nominal mention that two actors fit equally stands for nobody. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('two candidates', () => {
  it('make a pronoun stand for nobody, and its claim has no speaker', async () => {
    const text = 'David Lammy and Marco Rubio met in London on Monday. He said the ceasefire must hold.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'He', 'He said')).toBeUndefined();
    expect(speakers(graph)).toEqual({ 'the ceasefire must hold': null });
  });

  it('make a nominal mention stand for nobody', async () => {
    const text = 'The Ngoro Liberation Front and the Bora Patriotic Movement clashed near Kivu. The group said it would never withdraw.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The group')).toBeUndefined();
    expect(referentOf(graph, text, 'it', 'it would never')).toBeUndefined();
    expect(Object.values(speakers(graph))).toEqual([null]);
  });

  it('are told apart by agreement: one person and one organisation are one candidate each', async () => {
    // (a person's pronoun follows an object too; "it" follows subjects only)
    const text = 'The Ngoro Liberation Front met David Lammy in Bora. He said the talks were useful. It said the talks had failed.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'He', 'He said')).toBe('David Lammy');
    expect(referentOf(graph, text, 'It', 'It said')).toBe('Ngoro Liberation Front');
  });

  it('are told apart by the subject: the subject of the sentence before is preferred to its object', async () => {
    const text = 'David Lammy met Marco Rubio in London on Monday. He said the ceasefire must hold.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'He', 'He said')).toBe('David Lammy');
    expect(speakers(graph)).toEqual({ 'the ceasefire must hold': 'David Lammy' });
  });
});
