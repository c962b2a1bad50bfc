import { describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';

/**
 * The share of REFERS_TO edges by the type of the event they reach, as the symbolic extraction made them over the
 * project's corpora (100 edges; `npx tsx bench/extraction-shape.ts`).
 */
const EXTRACTED_REFERS_TO_BY_EVENT_TYPE: Record<string, number> = {
  ASSAULT: 0.5, RETREAT: 0.19, AGREE: 0.11, THREATEN: 0.11, CONSULT: 0.05, MOBILIZE: 0.01, PROTEST: 0.01, REJECT: 0.01, SANCTION: 0.01,
};
/** How far a type's share over the generated edges (some 2,500 at 300k facts) may stray from extraction's. */
const TOLERANCE = 0.04;

describe('the generated graph in the shape extraction makes (bench/conflict-graph.ts)', () => {
  const { write } = generate(300_000, { extracted: true });
  const nodes = new Map(write.nodes.map((node) => [node.id!, node]));
  const refersTo = write.edges.filter((edge) => edge.type === 'REFERS_TO');

  it('has no two edges of one type between the same two nodes', () => {
    const seen = new Set<string>();
    const parallel: string[] = [];
    for (const edge of write.edges) {
      const key = `${edge.from} ${edge.type} ${edge.to}`;
      if (seen.has(key)) parallel.push(key);
      seen.add(key);
    }
    expect(parallel).toEqual([]);
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
      expect(Math.abs(generated - (EXTRACTED_REFERS_TO_BY_EVENT_TYPE[type] ?? 0)), `${type}: ${generated}`).toBeLessThanOrEqual(TOLERANCE);
    }
  });
});
