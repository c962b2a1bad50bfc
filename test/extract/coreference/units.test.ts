import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, coreferencePipeline, referentOf } from './helpers.ts';

/** Issue 25: numbered units are armed forces, members of the army the text places them in. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('numbered units', () => {
  it('are armed_forces and MEMBER_OF the army named with them, and "the brigade" is the unit', async () => {
    const text =
      'The 55th Brigade of the Kivaran Army said it would never withdraw from Tessa. ' +
      "The Kivaran Army's 9th Armoured Division moved north. The brigade reported no casualties. The 3rd Battalion crossed the river.";
    const graph = await pipeline.graphOf(text);
    const army = actorLabelled(graph, 'Kivaran Army');
    const members = (label: string) => {
      const unit = actorLabelled(graph, label);
      expect(unit.properties.actor_type).toBe('armed_forces');
      return graph.edges.filter((edge) => edge.type === 'MEMBER_OF' && edge.from === unit.id).map((edge) => edge.to);
    };
    expect(members('55th Brigade')).toEqual([army.id]);
    expect(members('9th Armoured Division')).toEqual([army.id]);
    // The text does not say whose the 3rd Battalion is.
    expect(members('3rd Battalion')).toEqual([]);
    expect(referentOf(graph, text, 'The brigade')).toBe('55th Brigade');
  });
});
