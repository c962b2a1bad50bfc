/**
 * The engine's memory grown ahead of a large view's hand-over (engine/prolog/bridge.ts reserveViewMemory, from
 * RESERVE_FROM_FACTS facts): no test graph is that large, so the bound is lowered here to hand small views over
 * through the same calls of the engine's allocator (Emscripten's _malloc and _free, which a swipl-wasm that no longer
 * exported them would fail at), from the records and from an image. The view is the same as without.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { PrologBridge, handOverImage, startProlog, viewImage, viewMemoryReserve } from '../../engine/prolog/bridge.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { copyOf } from '../helpers/kept-answers.ts';
import { viewFactsOf } from '../helpers/view-facts.ts';

await startProlog();

const recorded_at = '2024-01-01T00:00:00.000Z';
const actors: NodeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}` }, confidence: 1, provenance: [], recorded_at }));
const claims: NodeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, labels: ['Claim'], properties: { type: 'Demand', text: `Claim ${i} on water`, valid_from: '2024-01-02' }, confidence: 1, provenance: [], recorded_at }));
const edges: EdgeRecord[] = Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, type: 'ASSERTS', from: `a${i}`, to: `c${i}`, properties: {}, confidence: 0.8, provenance: [], recorded_at }));
const graph = GraphIndex.fromRecords([...actors, ...claims], edges);

describe("the engine's memory grown ahead of a view's hand-over", () => {
  const bridge = new PrologBridge();
  const factsOf = (of: GraphIndex) => viewFactsOf(bridge, of);
  const bound = viewMemoryReserve.fromFacts;
  afterAll(() => {
    viewMemoryReserve.fromFacts = bound;
  });

  it('is grown through the allocator for a view at the bound, from the records and from an image, and the view is the same as without', () => {
    const made = viewMemoryReserve.made;
    const without = factsOf(graph);
    expect(viewMemoryReserve.made).toBe(made); // (a small view grows the memory as it goes)
    const image = viewImage(graph)!;
    expect(image).toBeDefined();
    viewMemoryReserve.fromFacts = graph.factCount;
    expect(factsOf(copyOf(graph))).toEqual(without);
    expect(viewMemoryReserve.made).toBe(made + 1);
    const fromImage = copyOf(graph);
    expect(handOverImage({ graph: fromImage }, image)).toBe(true);
    expect(viewMemoryReserve.made).toBe(made + 2);
    expect(factsOf(fromImage)).toEqual(without);
  });
});
