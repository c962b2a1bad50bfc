import { describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import type { GraphWrite } from '../../engine/store/store.ts';

/**
 * The share of REFERS_TO edges by the type of the event they reach, as the symbolic extraction made them over the
 * project's corpora (100 edges; `npx tsx bench/extraction-shape.ts`).
 */
const EXTRACTED_REFERS_TO_BY_EVENT_TYPE: Record<string, number> = {
  ASSAULT: 0.5, RETREAT: 0.19, AGREE: 0.11, THREATEN: 0.11, CONSULT: 0.05, MOBILIZE: 0.01, PROTEST: 0.01, REJECT: 0.01, SANCTION: 0.01,
};
/**
 * How far a type's share of `edges` generated edges (2,461 at 300k facts) may stray from extraction's `share`: three
 * standard errors of a fair draw of that many edges from extraction's mix. A 1% type may stray by 0.006, so one that falls
 * to 0 or doubles fails, while ASSAULT's 50% may stray by 0.03; a type extraction never reaches may have no edge.
 */
const tolerance = (share: number, edges: number) => 3 * Math.sqrt((share * (1 - share)) / edges);
/**
 * Smaller graphs, each a draw of its own, where an actor or a pair is drawn twice far more often than at 300k facts (36
 * to 714 actors, against 4,286): every size from 2,500 facts to 50,000 in steps of 500. A guard left out, or half of one,
 * makes parallel edges in 5 to 85 of these 96 draws; without the third participant's or the alliances', the one draw at
 * 300k makes one or none.
 */
const SMALL_SIZES = Array.from({ length: 96 }, (_, i) => 2_500 + 500 * i);

/** Each edge of `write` that another before it repeats (the same from, type and to), as `from type to`. */
function parallelEdges(write: GraphWrite): string[] {
  const seen = new Set<string>();
  const parallel: string[] = [];
  for (const edge of write.edges) {
    const key = `${edge.from} ${edge.type} ${edge.to}`;
    if (seen.has(key)) parallel.push(key);
    seen.add(key);
  }
  return parallel;
}

describe('the generated graph in the shape extraction makes (bench/conflict-graph.ts)', () => {
  const { write } = generate(300_000, { extracted: true });
  const nodes = new Map(write.nodes.map((node) => [node.id!, node]));
  const refersTo = write.edges.filter((edge) => edge.type === 'REFERS_TO');

  it('has no two edges of one type between the same two nodes, at 300k facts and at every small size', () => {
    const drawn = [...SMALL_SIZES.map((size) => [size, generate(size, { extracted: true }).write] as const), [300_000, write] as const];
    expect(drawn.flatMap(([size, graph]) => parallelEdges(graph).map((key) => `${size}: ${key}`))).toEqual([]);
  });

  it("sends REFERS_TO to each event type at extraction's share, within the tolerance, and only to an event of the claim's document", () => {
    expect(refersTo.length).toBeGreaterThan(2_000);
    const byType = new Map<string, number>();
    for (const edge of refersTo) {
      const target = nodes.get(edge.to)!;
      const claim = nodes.get(edge.from)!;
      expect(claim.labels).toEqual(['Claim']);
      expect(target.labels).toEqual(['Event']);
      expect(target.provenance?.[0]?.document_id).toBe(claim.provenance?.[0]?.document_id);
      const type = String(target.properties!.event_type);
      byType.set(type, (byType.get(type) ?? 0) + 1);
    }
    const types = new Set([...byType.keys(), ...Object.keys(EXTRACTED_REFERS_TO_BY_EVENT_TYPE)]);
    for (const type of types) {
      const generated = (byType.get(type) ?? 0) / refersTo.length;
      const extracted = EXTRACTED_REFERS_TO_BY_EVENT_TYPE[type] ?? 0;
      expect(Math.abs(generated - extracted), `${type}: ${generated}`).toBeLessThanOrEqual(tolerance(extracted, refersTo.length));
    }
  });
});
