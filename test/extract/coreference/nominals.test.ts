import { afterAll, describe, expect, it } from 'vitest';
import { coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25: a nominal mention ("the navy", "the charity", "the bloc", "the guerrilla group")
 * stands for the one actor before it whose type its head noun names; where none is of that
 * type, for the one whose name holds the head ("the army" after "the Kesh National Army", an
 * armed group); and it gives a claim its speaker.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('nominal mentions', () => {
  it('resolve by the type their head noun names and give claims their speaker', async () => {
    const text =
      'The Marenne Navy detained 40 fishermen near Port Sorrel. The navy said the men had crossed a closed zone. ' +
      'Médecins Sans Frontières treated eleven of the men in Sorrel. The charity called on the authorities to release the rest.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The navy')).toBe('Marenne Navy');
    expect(referentOf(graph, text, 'The charity')).toBe('Médecins Sans Frontières');
    expect(Object.values(speakers(graph))).toEqual(['Médecins Sans Frontières']);
  });

  it('fall back on the organisation whose name holds the head when none is of its type', async () => {
    const text = 'The Kesh National Army moved armoured columns towards Sirte. Its spokesman said the army was guarding the oil fields.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the army')).toBe('Kesh National Army');
  });

  it('prefer an actor of the head noun\'s type to one whose name merely holds the word', async () => {
    const text = 'The Kesh National Army and the Marenne Armed Forces clashed near Sirte. The Marenne Armed Forces said the army had repelled the attack.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the army')).toBe('Marenne Armed Forces');
  });

  it('take "the alliance" for an alliance, never for a ministry in the same sentence', async () => {
    const text =
      'The Ministry of Defence of Kivara said Rustem Umerov spoke to defence ministers of NATO by video link. ' +
      'According to the ministry, he urged the alliance to speed up deliveries.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the ministry')).toBe('Ministry of Defence of Kivara');
    expect(referentOf(graph, text, 'the alliance')).toBe('NATO');
  });
});

