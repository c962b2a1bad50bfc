import type { BatchSummary } from '@parley/engine/ingest/batch.ts';
import type { GraphIndex } from '@parley/engine/store/graph-index.ts';
import { validTime } from '@parley/engine/store/view.ts';
import type { Conflict } from '@parley/engine/conflicts/detect.ts';
import type { GraphAssessment } from '@parley/engine/reason/assess.ts';
import { periodsBetween, type Trajectory } from '@parley/engine/reason/tasks.ts';
import { escalationOf, type EscalationPoint } from './escalation.ts';

/**
 * What an analyst reads after a batch: the corpus's documents with what each gave,
 * the actors and red lines with their sources, claim types, events per month, the
 * actor network and the frameworks' assessment and escalation trajectory. Built from
 * the graph (so a resumed run reports the documents earlier runs committed too) plus
 * the run's own summary. Deterministic for a given graph, summary and assessment.
 */

/** Actors drawn in the network chart at most (the most connected); report.json keeps the count left out. */
export const MAX_NETWORK_ACTORS = 40;
/** Sources listed per actor or red line at most. */
const MAX_SOURCES = 12;

export interface DocumentRow {
  source: string;
  title?: string;
  published_at?: string;
  /** This run: ingested, skipped (committed before) or failed; absent for documents of the graph outside this folder's run. */
  status?: string;
  actors: number;
  claims: number;
  events: number;
  locations: number;
  sentences?: number;
}

export interface SourceRef {
  source: string;
  timestamp: string;
  quote?: string;
}

export interface CorpusReport {
  graph_id: string;
  corpus: { dir: string; total: number; ingested: number; skipped: number; failed: number; sentences: number; ms: number; interrupted: boolean };
  failures: BatchSummary['failures'];
  graph: { nodes: Record<string, number>; edges: Record<string, number> };
  documents: DocumentRow[];
  actors: { id: string; label: string; actor_type?: string; role?: string; mentions: number; documents: string[] }[];
  red_lines: { id: string; text: string; speakers: string[]; targets: string[]; sources: SourceRef[] }[];
  claim_types: { type: string; count: number }[];
  events_by_month: { month: string; count: number; by_type: Record<string, number> }[];
  network: {
    /** In the order drawn: the actors of each conflict together (the largest conflict first), then the others. */
    nodes: { id: string; label: string; actor_type?: string; conflict?: string }[];
    edges: { from: string; to: string; type: 'OPPOSES' | 'ALLIED_WITH' }[];
    /** Actors with relations left out of the chart (MAX_NETWORK_ACTORS). */
    left_out: number;
  };
  assessment: GraphAssessment['assessments'];
  /** What each id the assessment cites points at: its quote, source and date. */
  citations: GraphAssessment['citations'];
  trajectory: Trajectory | null;
  /** Glasl's stage and Kriesberg's phase per period over the whole graph (all conflicts together). */
  escalation: EscalationPoint[];
  /** Each conflict of the graph (engine/conflicts/detect.ts) assessed on its own, the largest first. */
  conflicts: ConflictSection[];
}

/** A conflict as detect.ts gives it, its parties, places, actors and third parties by label. */
export interface ConflictSection extends Pick<Conflict, 'id' | 'name' | 'events' | 'claims' | 'first' | 'last'> {
  parties: string[];
  places: string[];
  actors: string[];
  third_parties: string[];
  assessment: GraphAssessment['assessments'];
  /** What each id the conflict's assessment cites points at: its quote, source and date. */
  citations: GraphAssessment['citations'];
  trajectory: Trajectory | null;
  escalation: EscalationPoint[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const byCount = <T extends { count: number }>(key: (item: T) => string) => (a: T, b: T) => b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export function buildCorpusReport(graph: GraphIndex, graphId: string, dir: string, batch: BatchSummary, assessed: GraphAssessment): CorpusReport {
  const label = (id: string) => graph.labelOf(id);
  const sourceOfDocument = new Map<string, string>();
  for (const id of graph.nodesWithLabel('Document')) {
    const source = text(graph.node(id)?.properties.source);
    if (source) sourceOfDocument.set(id, source);
  }

  // per-document counts, from the provenance every extracted node carries
  const counted = { Actor: 'actors', Claim: 'claims', Event: 'events', Location: 'locations' } as const;
  const perDocument = new Map<string, Record<(typeof counted)[keyof typeof counted], number>>();
  for (const node of graph.nodes.values()) {
    const column = counted[node.labels[0] as keyof typeof counted];
    if (!column) continue;
    for (const documentId of new Set(node.provenance.map((record) => record.document_id).filter((id): id is string => typeof id === 'string'))) {
      if (!perDocument.has(documentId)) perDocument.set(documentId, { actors: 0, claims: 0, events: 0, locations: 0 });
      perDocument.get(documentId)![column]++;
    }
  }
  const runOf = new Map(batch.documents.map((document) => [document.source, document]));
  const documents: DocumentRow[] = [...sourceOfDocument.entries()]
    .map(([id, source]) => {
      const properties = graph.node(id)!.properties;
      const run = runOf.get(source);
      return {
        source,
        ...(text(properties.title) ? { title: text(properties.title) } : {}),
        ...(text(properties.published_at) ? { published_at: text(properties.published_at) } : {}),
        ...(run ? { status: run.status } : {}),
        ...(perDocument.get(id) ?? { actors: 0, claims: 0, events: 0, locations: 0 }),
        ...(run?.sentences !== undefined ? { sentences: run.sentences } : {}),
      };
    })
    .sort((a, b) => (a.source < b.source ? -1 : 1));

  const documentsOf = (provenance: { source: string }[]) => [...new Set(provenance.map((record) => record.source))].sort();
  const actors = [...graph.nodesWithLabel('Actor')]
    .map((id) => {
      const node = graph.node(id)!;
      return {
        id,
        label: label(id),
        ...(text(node.properties.actor_type) ? { actor_type: text(node.properties.actor_type) } : {}),
        ...(text(node.properties.role) ? { role: text(node.properties.role) } : {}),
        mentions: node.provenance.length,
        documents: documentsOf(node.provenance),
      };
    })
    .sort((a, b) => b.documents.length - a.documents.length || b.mentions - a.mentions || (a.label < b.label ? -1 : 1));

  const claimTypes = new Map<string, number>();
  const redLines: CorpusReport['red_lines'] = [];
  for (const id of graph.nodesWithLabel('Claim')) {
    const node = graph.node(id)!;
    const type = text(node.properties.type) ?? 'unknown';
    claimTypes.set(type, (claimTypes.get(type) ?? 0) + 1);
    if (type !== 'RedLine') continue;
    redLines.push({
      id,
      text: text(node.properties.text) ?? '',
      speakers: graph.edgesOf(id, 'in', ['ASSERTS']).map((edge) => label(edge.from)).sort(),
      targets: graph.edgesOf(id, 'out', ['TARGETS']).map((edge) => label(edge.to)).sort(),
      sources: node.provenance.slice(0, MAX_SOURCES).map((record) => ({ source: record.source, timestamp: record.timestamp, ...(record.quote ? { quote: record.quote } : {}) })),
    });
  }
  redLines.sort((a, b) => (a.sources[0]?.timestamp ?? '').localeCompare(b.sources[0]?.timestamp ?? '') || a.id.localeCompare(b.id));

  const months = new Map<string, { count: number; by_type: Record<string, number> }>();
  for (const id of graph.nodesWithLabel('Event')) {
    const node = graph.node(id)!;
    const month = validTime(node)?.slice(0, 7);
    if (!month) continue;
    if (!months.has(month)) months.set(month, { count: 0, by_type: {} });
    const entry = months.get(month)!;
    const type = text(node.properties.event_type) ?? 'other';
    entry.count++;
    entry.by_type[type] = (entry.by_type[type] ?? 0) + 1;
  }

  return {
    graph_id: graphId,
    corpus: {
      dir,
      total: batch.total,
      ingested: batch.ingested,
      skipped: batch.skipped,
      failed: batch.failures.length,
      sentences: batch.sentences,
      ms: batch.ms,
      interrupted: batch.interrupted,
    },
    failures: batch.failures,
    graph: graph.counts(),
    documents,
    actors: actors.map((actor) => ({ ...actor, documents: actor.documents.slice(0, MAX_SOURCES) })),
    red_lines: redLines,
    claim_types: [...claimTypes].map(([type, count]) => ({ type, count })).sort(byCount((item) => item.type)),
    events_by_month: monthsBetween([...months.keys()]).map((month) => ({ month, count: months.get(month)?.count ?? 0, by_type: months.get(month)?.by_type ?? {} })),
    network: actorNetwork(graph, label, assessed.conflicts?.map((entry) => entry.conflict) ?? []),
    assessment: assessed.assessments,
    citations: assessed.citations,
    trajectory: assessed.trajectory ?? null,
    escalation: escalationOf(assessed.trajectory),
    conflicts: (assessed.conflicts ?? []).map(({ conflict, assessments, citations, trajectory }) => ({
      id: conflict.id,
      name: conflict.name,
      parties: conflict.parties.map((party) => party.label),
      places: conflict.places.map((place) => place.label),
      actors: conflict.actors.map(label).sort(),
      third_parties: conflict.third_parties.map(label).sort(),
      events: conflict.events,
      claims: conflict.claims,
      ...(conflict.first ? { first: conflict.first, last: conflict.last } : {}),
      assessment: assessments,
      citations,
      trajectory: trajectory ?? null,
      escalation: escalationOf(trajectory),
    })),
  };
}

/** Every month from the first to the last given (YYYY-MM), empty ones included. */
function monthsBetween(months: string[]): string[] {
  if (months.length === 0) return [];
  const sorted = [...months].sort();
  return periodsBetween(`${sorted[0]}-01`, `${sorted[sorted.length - 1]}-01`, 'month').map(({ label }) => label);
}

/** Who opposes and allies with whom: one undirected edge per pair and type, the most connected actors kept. */
function actorNetwork(graph: GraphIndex, label: (id: string) => string, conflicts: { id: string; actors: string[] }[]): CorpusReport['network'] {
  const pairs = new Map<string, { from: string; to: string; type: 'OPPOSES' | 'ALLIED_WITH' }>();
  for (const type of ['OPPOSES', 'ALLIED_WITH'] as const) {
    for (const edgeId of graph.edgesWithType(type)) {
      const edge = graph.edge(edgeId)!;
      const [from, to] = edge.from < edge.to ? [edge.from, edge.to] : [edge.to, edge.from];
      pairs.set(`${type} ${from} ${to}`, { from, to, type });
    }
  }
  const degree = new Map<string, number>();
  for (const { from, to } of pairs.values()) for (const id of [from, to]) degree.set(id, (degree.get(id) ?? 0) + 1);
  const ranked = [...degree].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
  const kept = new Set(ranked.slice(0, MAX_NETWORK_ACTORS));
  const conflictOf = new Map(conflicts.flatMap((conflict, index) => conflict.actors.map((id) => [id, index] as const)));
  return {
    nodes: [...kept]
      .map((id) => ({ id, order: conflictOf.has(id) ? conflictOf.get(id)! : conflicts.length }))
      .sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1))
      .map(({ id }) => ({
        id,
        label: label(id),
        ...(text(graph.node(id)?.properties.actor_type) ? { actor_type: text(graph.node(id)?.properties.actor_type) } : {}),
        ...(conflictOf.has(id) ? { conflict: conflicts[conflictOf.get(id)!].id } : {}),
      })),
    edges: [...pairs.values()].filter(({ from, to }) => kept.has(from) && kept.has(to)).sort((a, b) => `${a.type}${a.from}${a.to}`.localeCompare(`${b.type}${b.from}${b.to}`)),
    left_out: ranked.length - kept.size,
  };
}
