import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, coreferencePipeline, referentOf } from './helpers.ts';

/** Issue 25: numbered units are armed forces, members of the army the text places them in. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('numbered units', () => {
  it('are MEMBER_OF the forces named with them, armed_forces when those are a state\'s, and "the brigade" is the unit', async () => {
    const text =
      'The 55th Brigade of the Iraqi Army said it would never withdraw from Tal Afar. ' +
      "The Iraqi Army's 9th Armoured Division moved north. The brigade reported no casualties. The 3rd Battalion crossed the river. " +
      'The 12th Brigade of the Ngoro Liberation Army shelled Bora.';
    const graph = await pipeline.graphOf(text);
    const memberships = (label: string) => {
      const unit = actorLabelled(graph, label);
      return graph.edges.filter((edge) => edge.type === 'MEMBER_OF' && edge.from === unit.id).map((edge) => edge.to);
    };
    const army = graph.edges.find((edge) => edge.type === 'MEMBER_OF')!.to;
    expect(graph.nodes.find((node) => node.id === army)?.properties.actor_type).toBe('armed_forces');
    expect(memberships('55th Brigade')).toEqual([army]);
    expect(memberships('9th Armoured Division')).toEqual([army]);
    expect(actorLabelled(graph, '55th Brigade').properties.actor_type).toBe('armed_forces');
    expect(actorLabelled(graph, '9th Armoured Division').properties.actor_type).toBe('armed_forces');
    // A non-state force's unit is its own kind; a unit the text places nowhere is a member of nothing.
    expect(memberships('12th Brigade')).toEqual([actorLabelled(graph, 'Ngoro Liberation Army').id]);
    expect(actorLabelled(graph, '12th Brigade').properties.actor_type).toBe('armed_group');
    expect(memberships('3rd Battalion')).toEqual([]);
    expect(referentOf(graph, text, 'The brigade')).toBe('55th Brigade');
  });
});
