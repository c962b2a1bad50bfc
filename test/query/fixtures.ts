import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const at = (day: number) => `2024-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

function node(id: string, kind: string, properties: NodeRecord['properties'], day = 1, confidence = 0.9): NodeRecord {
  return {
    id, labels: [kind], properties, confidence, recorded_at: at(day),
    provenance: [{ source: `doc-${id}`, timestamp: at(day), quote: `quote for ${id}` }],
  };
}

function edge(id: string, type: string, from: string, to: string, day = 1, confidence = 0.8): EdgeRecord {
  return { id, type, from, to, properties: {}, confidence, provenance: [{ source: `doc-${id}`, timestamp: at(day) }], recorded_at: at(day) };
}

/** A small conflict graph: three actors, four claims, alliances and oppositions. */
export function conflictGraph(): GraphIndex {
  return GraphIndex.fromRecords(
    [
      node('rsf', 'Actor', { label: 'Rapid Support Forces', role: 'party' }),
      node('saf', 'Actor', { label: 'Sudanese Armed Forces', role: 'party' }),
      node('igad', 'Actor', { label: 'IGAD', role: 'mediator' }),
      node('c1', 'Claim', { type: 'RedLine', text: 'No negotiation while the army holds Khartoum' }),
      node('c2', 'Claim', { type: 'Demand', text: 'Withdraw from the capital' }),
      node('c3', 'Claim', { type: 'RedLine', text: 'No role for the RSF in any future army' }, 5),
      node('c4', 'Claim', { type: 'Offer', text: 'Talks in Jeddah' }),
      node('khartoum', 'Location', { label: 'Khartoum' }),
    ],
    [
      edge('e1', 'ASSERTS', 'rsf', 'c1'),
      edge('e2', 'ASSERTS', 'rsf', 'c2'),
      edge('e3', 'ASSERTS', 'saf', 'c3', 5),
      edge('e4', 'ASSERTS', 'igad', 'c4'),
      edge('e5', 'OPPOSES', 'rsf', 'saf'),
      edge('e6', 'ALLIED_WITH', 'igad', 'saf'),
      edge('e7', 'ALLIED_WITH', 'saf', 'rsf'),
    ],
  );
}
