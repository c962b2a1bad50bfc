import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, actors, coreferencePipeline, referentOf } from './helpers.ts';

/** Issue 25: a nation's people are a community actor, never the state. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('nationality groups', () => {
  it('are community actors: the people by one name, a named part of them by its own', async () => {
    const text =
      'Prime Minister Mohammed Shia al-Sudani said the Iraqi people had suffered enough. Iraqis deserve security, he added. ' +
      'The RSF attacked Sudanese civilians near El Fasher. Syrians and Syrian refugees in Lebanon marked the anniversary.';
    const graph = await pipeline.graphOf(text);
    const iraqis = actorLabelled(graph, 'Iraqi people');
    expect(iraqis.properties.actor_type).toBe('community');
    expect(referentOf(graph, text, 'Iraqi people')).toBe('Iraqi people');
    expect(referentOf(graph, text, 'Iraqis')).toBe('Iraqi people');
    expect(actorLabelled(graph, 'Sudanese civilians').properties.actor_type).toBe('community');
    expect(actorLabelled(graph, 'Syrian people').properties.actor_type).toBe('community');
    expect(actorLabelled(graph, 'Syrian refugees').properties.actor_type).toBe('community');
    // The state is not what the people's name stands for.
    const labels = actors(graph).map((node) => node.properties.label);
    for (const state of ['Iraq', 'Sudan', 'Syria']) expect(labels).not.toContain(state);
  });

  it("leave a nation's forces and government to the state patterns", async () => {
    const text = 'Iraqi forces and the Syrian government both said the border must stay closed.';
    const graph = await pipeline.graphOf(text);
    const types = Object.fromEntries(actors(graph).map((node) => [node.properties.label, node.properties.actor_type]));
    expect(Object.values(types)).not.toContain('community');
    expect(types['Government of Syria']).toBe('government');
  });
});
