import { afterAll, describe, expect, it } from 'vitest';
import { actors, coreferencePipeline, referentOf, speakers } from './helpers.ts';

/** Issue 25: "the Coalition", "Coalition forces", "coalition partners" are the coalition the document named earlier. */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('collective references', () => {
  it('resolve to the coalition named earlier in the document, however far back', async () => {
    const text =
      'The Northern Shield Coalition said on Monday that it had struck 12 targets near Bora. The strikes destroyed two depots. ' +
      'Markets reopened in the town. Roads to the north were cleared. Coalition forces also supported Kivaran troops near Tessa. ' +
      'The Coalition said it would continue operations. Coalition partners met in Rome on Friday.';
    const graph = await pipeline.graphOf(text);
    const label = 'Northern Shield Coalition';
    expect(referentOf(graph, text, 'Coalition', 'Coalition forces')).toBe(label);
    expect(referentOf(graph, text, 'Coalition', 'The Coalition said')).toBe(label);
    expect(referentOf(graph, text, 'Coalition', 'Coalition partners')).toBe(label);
    expect(speakers(graph)).toMatchObject({ 'it would continue operations': label });
    expect(actors(graph).map((node) => node.properties.label)).not.toContain('Coalition');
  });

  it('resolve to nothing when the document names no coalition', async () => {
    const text = 'Coalition forces struck targets near Bora on Monday.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Coalition')).toBeUndefined();
  });
});
