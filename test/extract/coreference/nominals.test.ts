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

  it('take "the occupiers" for the one armed party before them, as "the group" is taken', async () => {
    const text = 'Russian forces have held Robotyne since the spring. On Monday Ukrainian sappers cleared the road from the occupiers.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the occupiers')).toBe('Russian Armed Forces');
  });

  it('take "the alliance" for an alliance, never for a ministry in the same sentence', async () => {
    const text =
      'The Ministry of Defence of Kivara said Rustem Umerov spoke to defence ministers of NATO by video link. ' +
      'According to the ministry, he urged the alliance to speed up deliveries.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the ministry')).toBe('Ministry of Defence of Kivara');
    expect(referentOf(graph, text, 'the alliance')).toBe('NATO');
  });

  it('take "the government" for the government whose name says so, and leave other governments to the structure stage', async () => {
    const named = 'The Government of National Unity said forces loyal to Khalifa Haftar had moved towards Sirte. The government accused Haftar of preparing an attack.';
    const graph = await pipeline.graphOf(named);
    expect(referentOf(graph, named, 'The government')).toBe('Government of National Unity');
    expect(Object.values(speakers(graph))).toContain('Government of National Unity');
    // No named government: the document's country gives it one of its own (structure/coreference.ts), as before.
    const unnamed = 'The ELN attacked a base in Colombia on Monday. The government said the rebels must free the soldiers.';
    const placed = await pipeline.graphOf(unnamed);
    expect(referentOf(placed, unnamed, 'The government')).toBe('Government of Colombia');
    expect(Object.values(speakers(placed))).toEqual(['Government of Colombia']);
  });
});

describe('records that speak for their issuer', () => {
  it('give "The statement accused ..." and \'..., the report said\' the actor that issued them, nobody when two did', async () => {
    const text = 'Human Rights Watch published a report on Monday. The report accused the army of killing civilians in Bora.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The report')).toBe('Human Rights Watch');
    expect(Object.values(speakers(graph))).toEqual(['Human Rights Watch']);
    const two = 'Human Rights Watch and Amnesty International published a report on Monday. The report accused the army of killing civilians in Bora.';
    expect(Object.values(speakers(await pipeline.graphOf(two)))).toEqual([null]);
  });
});


describe('"the administration"', () => {
  it('stands for the actor whose own name holds it, and for no other government', async () => {
    const text = 'The Tigray Interim Administration said a faction had seized the mayor\'s office. The administration accused the faction of a coup.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The administration')).toBe('Tigray Interim Administration');
    expect(speakers(graph)).toMatchObject({ 'The administration accused the faction of a coup': 'Tigray Interim Administration' });
    const other = 'The Ministry of Interior of Kivara announced a curfew. The administration accused the rebels of a coup.';
    expect(referentOf(await pipeline.graphOf(other), other, 'The administration')).toBeUndefined();
  });
});
