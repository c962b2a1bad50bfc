/**
 * The writes the benches make into a generated conflict graph (bench/conflict-graph.ts) after the frameworks
 * have run on it: a new Issue node, and an ingest-like write (a document's worth of records). bench:frameworks
 * and bench:engine-memory write them as a replica applies a write.
 */
import type { EdgeRecord, NodeRecord } from '../engine/ontology/index.ts';
import type { GraphIndex } from '../engine/store/graph-index.ts';
import { validTime } from '../engine/store/view.ts';

/** The latest valid time of the graph's nodes ('' when none has one): the reference date the frameworks read. */
export function latestValidTime(graph: GraphIndex): string {
  let latest = '';
  for (const node of graph.nodes.values()) {
    const time = validTime(node);
    if (time !== undefined && time > latest) latest = time;
  }
  return latest;
}

const recorded_at = new Date(0).toISOString();
/** A node the bench writes. */
export const writtenNode = (id: string, label: string, properties: NodeRecord['properties']): NodeRecord => ({ id, labels: [label], properties, confidence: 0.9, provenance: [], recorded_at });

/** What an ingest-like write adds (a document's worth: ingest.md), dated on the graph's latest day so that the reference date stays. */
export const INGEST_LIKE = 'an Actor, 3 Claims and 2 Events with their ASSERTS, TARGETS, ABOUT and PARTICIPATES_IN edges';

/**
 * The records of an ingest-like write into `graph`, their ids starting with `prefix` (a new prefix each write when
 * a bench makes several): a new actor and two of the graph's, claims between them about an issue, events they took part in.
 */
export function ingestLike(graph: GraphIndex, prefix = 'bench-ingest'): [NodeRecord[], EdgeRecord[]] {
  const latest = latestValidTime(graph);
  const [speaker, other] = [...graph.nodesWithLabel('Actor')].sort();
  const [issue] = [...graph.nodesWithLabel('Issue')].sort();
  const actor = `${prefix}-actor`;
  const [c0, c1, c2, v0, v1] = ['c0', 'c1', 'c2', 'v0', 'v1'].map((id) => `${prefix}-${id}`);
  let edges = 0;
  const edge = (type: string, from: string, to: string, properties: EdgeRecord['properties'] = {}): EdgeRecord => ({ id: `${prefix}-e${edges++}`, type, from, to, properties, confidence: 0.9, provenance: [], recorded_at });
  const nodes = [
    writtenNode(actor, 'Actor', { label: 'Bench Ingest Front', role: 'primary', actor_type: 'armed_group' }),
    writtenNode(c0, 'Claim', { type: 'Demand', text: 'We demand the withdrawal of forces and security for our people', timestamp: `${latest}T09:00:00Z` }),
    writtenNode(c1, 'Claim', { type: 'Threat', text: 'They will pay; we will strike if they attack again', timestamp: `${latest}T10:00:00Z` }),
    writtenNode(c2, 'Claim', { type: 'Offer', text: 'We are ready to negotiate a ceasefire', timestamp: `${latest}T11:00:00Z` }),
    writtenNode(v0, 'Event', { event_type: 'ASSAULT', date: latest, label: 'assault in the capital', fatalities: 3 }),
    writtenNode(v1, 'Event', { event_type: 'CONSULT', date: latest, label: 'consult in the capital' }),
  ];
  return [
    nodes,
    [
      edge('ASSERTS', actor, c0), edge('TARGETS', c0, speaker), edge('ABOUT', c0, issue),
      edge('ASSERTS', speaker, c1), edge('TARGETS', c1, actor),
      edge('ASSERTS', other, c2), edge('ABOUT', c2, issue),
      edge('PARTICIPATES_IN', actor, v0, { role: 'perpetrator' }), edge('PARTICIPATES_IN', speaker, v0, { role: 'target' }),
      edge('PARTICIPATES_IN', other, v1, { role: 'participant' }), edge('PARTICIPATES_IN', actor, v1, { role: 'participant' }),
    ],
  ];
}

/** What an ingest-like write adds as extraction makes it (bench/conflict-graph.ts --extracted-shape: what extraction made over the corpora). */
export const INGEST_EXTRACTED = `${INGEST_LIKE}, and a Location where both events occurred (OCCURRED_AT) and the Document they were read from (MENTIONED_IN from each node, its provenance on the claims and events)`;

/**
 * The records of an ingest-like write as extraction makes it: ingestLike's, with a new Location its events occurred at
 * and a Document every node is mentioned in. Extraction added 473 Locations over 60 documents of the corpora, so most
 * real writes add a place, which the frameworks that read place names (fearon's stakes) take; a new name each write.
 */
export function extractedIngest(graph: GraphIndex, prefix = 'bench-extracted'): [NodeRecord[], EdgeRecord[]] {
  const [nodes, edges] = ingestLike(graph, prefix);
  const place = `${prefix}-place`;
  const document = `${prefix}-document`;
  const provenance = [{ source: document, timestamp: `${latestValidTime(graph)}T12:00:00Z` }];
  const read = nodes.map((written) => (written.labels[0] === 'Claim' || written.labels[0] === 'Event' ? { ...written, provenance } : written));
  let more = 0;
  const edge = (type: string, from: string, to: string): EdgeRecord => ({ id: `${prefix}-x${more++}`, type, from, to, properties: {}, confidence: 0.9, provenance, recorded_at });
  const events = nodes.filter((written) => written.labels[0] === 'Event').map((written) => written.id);
  const located = [writtenNode(place, 'Location', { label: `${prefix} crossing`, location_type: 'town' }), writtenNode(document, 'Document', { source: `${prefix}.txt`, reliability: 0.7 })];
  return [
    [...read, ...located],
    [...edges, ...events.map((event) => edge('OCCURRED_AT', event, place)), ...[...read, located[0]].map((written) => edge('MENTIONED_IN', written.id, document))],
  ];
}
