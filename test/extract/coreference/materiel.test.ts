import { afterAll, describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import { actors, coreferencePipeline } from './helpers.ts';

/** Issue 25: acronyms for weapons, vehicles, munitions and technical means are kept out of actors. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

const actorNames = (text: string) => findConflictEntities({ text, source: 'materiel.txt' }).actors.map((actor) => actor.text);

describe('non-actor acronyms', () => {
  it('are no actors, by the stop-list or by their context', async () => {
    const text =
      'An IED attack killed two soldiers near Kirkuk. HIMARS strikes hit positions of the Ngoro Liberation Front (NLF). ' +
      'A UAV struck a convoy, and an MRAP was destroyed by an ATGM. The NLF said MANPADS and VBIED teams were ready. ' +
      'Engineers cleared an XQZ on the road, and the KVR launchers were moved.';
    const graph = await pipeline.graphOf(text);
    const labels = actors(graph).map((node) => node.properties.label);
    expect(labels).toEqual(['Ngoro Liberation Front']);
    for (const acronym of ['IED', 'HIMARS', 'UAV', 'MRAP', 'ATGM', 'MANPADS', 'VBIED', 'XQZ', 'KVR']) expect(actorNames(text)).not.toContain(acronym);
  });

  it('keep an unknown organisation acronym an actor, also before "attacks" and "drones"', () => {
    expect(actorNames('KPF attacks continued near Bora, and KPF drones struck the depot.')).toEqual(['KPF', 'KPF']);
    expect(actorNames('The KPF said it would never disarm.')).toContain('KPF');
  });
});
