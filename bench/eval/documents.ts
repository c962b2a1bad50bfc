import type { ExtractionResult } from '../../engine/extract/pipeline.ts';
import { mentionOfEntity, nerFamily } from '../../engine/extract/structure/combine.ts';
import { spansOverlap } from '../../engine/extract/symbolic/text.ts';
import type { Findings, NeuralEntity, TextSpan } from '../../engine/extract/types.ts';
import { REFERENCE_KINDS, RELATION_TYPES, type GoldDocument, type ReferenceKind, type RelationType } from './gold-source.ts';
import type { RelationOutcome, TrapKind } from './relations.ts';
import { addCounts, maximumMatching, metricsOf, relationEndsMatch, scoreItems, type Counts, type GoldSentence, type KindOutcome, type Metrics } from './score.ts';
import { SPAN_CLASSES, ZERO_SPAN_OUTCOME, scoreSpans, spanClassOfActor, type ClassedSpan, type SpanClass, type SpanOutcome } from './spans.ts';

/**
 * Scoring of the held-out documents (corpora/gold/documents.jsonl): named-mention spans per
 * class, recall of pronoun, office and nominal references through the nodes they resolve
 * to, claim speaker accuracy, and relations per type. Predicted nodes are mapped to gold
 * entities by span overlap with the entities' named mentions; references, speakers and
 * relation ends are all judged through that mapping. The relation sets' records are scored by
 * the same relation scorer (relations.ts `entityRelationsOf` gives their ends spans). Pure
 * functions, plus adapters from each extraction layer's output to `DocumentPrediction`.
 */

/** A node of the result (or, for layers without nodes, one mention): every span it was read from; `label` is shown in reports. */
export interface PredictedNode { id: string; class: SpanClass; spans: TextSpan[]; label?: string }
/** A claim: its type, where it was read (the gold cue must lie in it) and its speaker node. */
export interface PredictedDocumentClaim { type: string; span: TextSpan; speaker: string | null }
/** An OPPOSES, ALLIED_WITH or MEMBER_OF edge between two nodes (null: an end that is none of the prediction's nodes). */
export interface PredictedDocumentRelation { type: string; from: string | null; to: string | null }
export interface DocumentPrediction {
  nodes: PredictedNode[];
  /** null: the layer finds no claims (claims are not measured). */
  claims: PredictedDocumentClaim[] | null;
  /** Absent: the layer writes no relations (every gold relation is missed). */
  relations?: PredictedDocumentRelation[];
  /** Whether the layer links mentions into nodes at all: without that, reference recall is not measured. */
  resolves: boolean;
}

/** A reading that failed: nothing found, every gold element missed (claims measured, as a layer that finds them would be). */
export const NOTHING_READ: DocumentPrediction = { nodes: [], claims: [], relations: [], resolves: false };

export interface ReferenceCounts { found: number; total: number }
export interface DocumentOutcome {
  spans: SpanOutcome;
  /** null where the layer resolves nothing. */
  references: Record<ReferenceKind, ReferenceCounts> | null;
  /** gold claims; those matched by type at their cue; of those with a gold speaker, how many have it; null: the layer finds no claims. */
  claims: { gold: number; matched: number; withSpeaker: number; speakerRight: number } | null;
  /** Per relation type, by gold entity (`scoreDocumentRelations`). */
  relations: RelationOutcome;
  missed: string[];
}

/** A gold entity as the relation scorer needs it: its id, the name shown in reports and its named mentions' spans. */
export interface SpannedEntity { id: string; name: string; mentions: readonly TextSpan[] }
/** A gold relation between two entity ids; `reported_by` names the third party that reports it, if any. */
export interface EntityRelation { type: RelationType; from: string; to: string; reported_by?: string }
/** A relation the text does not state, and why (the relation sets' `not` entries). */
export interface EntityTrap { type: RelationType; from: string; to: string; why: TrapKind }
/** What relations are scored against: a document, or a relation set's record with its ends' spans. */
export interface EntityRelations { entities: readonly SpannedEntity[]; relations: readonly EntityRelation[]; not?: readonly EntityTrap[] }

/**
 * Each node's gold entity: the one whose named mentions its spans overlap most often (ties:
 * the entity listed first); nodes overlapping no named mention map to nothing. A span over
 * two entities' mentions counts for the one it covers more ("Turkish-backed Syrian National
 * Army" for the army, not for "Turkish").
 */
export function mapNodesToEntities(gold: Pick<EntityRelations, 'entities'>, nodes: readonly PredictedNode[]): Map<string, string> {
  const shared = (a: TextSpan, b: TextSpan) => Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
  const entityCovered = (span: TextSpan) => {
    let best: { id: string; characters: number } | null = null;
    for (const entity of gold.entities) {
      const characters = Math.max(0, ...entity.mentions.map((mention) => shared(mention, span)));
      if (characters > 0 && (best === null || characters > best.characters)) best = { id: entity.id, characters };
    }
    return best?.id;
  };
  const mapping = new Map<string, string>();
  for (const node of nodes) {
    const covered = node.spans.map(entityCovered);
    let best: { id: string; hits: number } | null = null;
    for (const entity of gold.entities) {
      const hits = covered.filter((id) => id === entity.id).length;
      if (hits > 0 && (best === null || hits > best.hits)) best = { id: entity.id, hits };
    }
    if (best) mapping.set(node.id, best.id);
  }
  return mapping;
}

export function scoreDocument(document: GoldDocument, prediction: DocumentPrediction): DocumentOutcome {
  const goldSpans: ClassedSpan[] = document.entities.flatMap((entity) => entity.mentions.map((mention) => ({ class: entity.type, start: mention.start, end: mention.end })));
  const predictedSpans = prediction.nodes.flatMap((node) => node.spans.map((span) => ({ class: node.class, start: span.start, end: span.end })));
  const spans = scoreSpans(goldSpans, predictedSpans, document.references);
  const entityOf = mapNodesToEntities(document, prediction.nodes);
  const missed: string[] = [];

  let references: DocumentOutcome['references'] = null;
  if (prediction.resolves) {
    references = Object.fromEntries(REFERENCE_KINDS.map((kind) => [kind, { found: 0, total: 0 }])) as Record<ReferenceKind, ReferenceCounts>;
    for (const reference of document.references) {
      const counts = references[reference.kind];
      counts.total += 1;
      const found = prediction.nodes.some((node) => entityOf.get(node.id) === reference.entity && node.spans.some((span) => spansOverlap(span, reference)));
      if (found) counts.found += 1;
      else missed.push(`${reference.kind} "${reference.surface}" (${reference.start}) → ${reference.entity}`);
    }
  }

  let claims: DocumentOutcome['claims'] = null;
  const predictedClaims = prediction.claims;
  if (predictedClaims !== null) {
    const assignment = maximumMatching(document.claims.length, predictedClaims.length, (g, p) => {
      const gold = document.claims[g];
      const predicted = predictedClaims[p];
      return gold.type === predicted.type && spansOverlap(gold.cue, predicted.span);
    });
    claims = { gold: document.claims.length, matched: 0, withSpeaker: 0, speakerRight: 0 };
    document.claims.forEach((gold, g) => {
      if (assignment[g] === -1) return;
      claims!.matched += 1;
      if (gold.speaker === null) return;
      claims!.withSpeaker += 1;
      const speaker = predictedClaims[assignment[g]].speaker;
      if (speaker !== null && entityOf.get(speaker) === gold.speaker) claims!.speakerRight += 1;
      else missed.push(`speaker of ${gold.type} "${gold.cue.surface}" → ${gold.speaker}`);
    });
  }
  return { spans, references, claims, relations: scoreDocumentRelations(document, prediction, entityOf), missed };
}

/**
 * Relations per type, each end judged by the gold entity its node maps to (`mapNodesToEntities`,
 * as for references and speakers), never by name: a node mapped to no gold entity matches
 * nothing, and a node mapped to another entity does not match however alike the names.
 * OPPOSES and ALLIED_WITH match in either direction, MEMBER_OF from member to organisation
 * (score.ts `relationEndsMatch`), one to one; a second edge of a found relation (the other
 * direction, another pair of nodes of the same two entities) counts neither way. The
 * outcome's missed and spurious lists are exactly what its counts count, each end shown
 * with its gold entity id. A false positive that matches a trap is counted by the trap's
 * kind; the relations with a `reported_by` found are counted apart. The one relation scorer:
 * the documents and the relation sets' records (relations.ts `scoreRelationRecord`) alike.
 */
export function scoreDocumentRelations(
  gold: EntityRelations,
  prediction: DocumentPrediction,
  entityOf: ReadonlyMap<string, string> = mapNodesToEntities(gold, prediction.nodes),
): RelationOutcome {
  const entityName = new Map(gold.entities.map((entity) => [entity.id, entity.name]));
  const nodeLabel = new Map(prediction.nodes.map((node) => [node.id, node.label ?? node.id]));
  const mapped = (prediction.relations ?? []).map((relation) => ({
    type: relation.type,
    from: relation.from === null ? null : entityOf.get(relation.from) ?? null,
    to: relation.to === null ? null : entityOf.get(relation.to) ?? null,
    shown: { from: relation.from, to: relation.to },
  }));
  type Mapped = (typeof mapped)[number];
  const sameEnd = (entity: string, predicted: string | null) => predicted === entity;
  const matches = (entry: EntityRelation | EntityTrap, predicted: Mapped) => relationEndsMatch(entry.type, entry, predicted, sameEnd);
  const showGold = (relation: EntityRelation) => `${entityName.get(relation.from)} [${relation.from}] ${relation.type} ${entityName.get(relation.to)} [${relation.to}]`;
  const showEnd = (node: string | null, entity: string | null) => `${node === null ? '(no node)' : nodeLabel.get(node) ?? node} [→ ${entity ?? 'no gold entity'}]`;
  const showPredicted = (relation: Mapped) => `${showEnd(relation.shown.from, relation.from)} ${relation.type} ${showEnd(relation.shown.to, relation.to)}`;
  const outcome: RelationOutcome = { types: {} as Record<RelationType, KindOutcome>, trapViolations: [], reported: { gold: 0, found: 0 } };
  const describe = { gold: showGold, predicted: showPredicted };
  for (const type of RELATION_TYPES) {
    const relations = gold.relations.filter((relation) => relation.type === type);
    const candidates = mapped.filter((relation) => relation.type === type);
    outcome.types[type] = scoreItems(relations, candidates, matches, describe, matches);
    const reported = relations.filter((relation) => relation.reported_by !== undefined);
    outcome.reported.gold += reported.length;
    outcome.reported.found += scoreItems(reported, candidates, matches, describe).tp;
    for (const candidate of candidates.filter((predicted) => !relations.some((relation) => matches(relation, predicted)))) {
      const trap = gold.not?.find((entry) => entry.type === type && matches(entry, candidate));
      if (trap) outcome.trapViolations.push(trap.why);
    }
  }
  return outcome;
}

// ---------------------------------------------------------------- aggregation

export interface DocumentMetrics {
  documents: number;
  spans: { exact: Record<SpanClass, Metrics>; overlap: Record<SpanClass, Metrics> };
  /** Recall per reference kind and over all kinds; null where the layer resolves nothing. */
  references: Record<ReferenceKind | 'all', ReferenceCounts & { recall: number | null }> | null;
  claims: { gold: number; matched: number; recall: number | null; with_speaker: number; speaker_right: number; speaker_accuracy: number | null } | null;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Micro-averages over documents. */
export function aggregateDocuments(outcomes: readonly DocumentOutcome[]): DocumentMetrics {
  const spanTotals = (mode: 'exact' | 'overlap') => Object.fromEntries(SPAN_CLASSES.map((spanClass) => [
    spanClass,
    metricsOf(outcomes.reduce<Counts>((total, outcome) => addCounts(total, outcome.spans[mode][spanClass]), ZERO_SPAN_OUTCOME[mode][spanClass])),
  ])) as Record<SpanClass, Metrics>;

  const resolving = outcomes.filter((outcome) => outcome.references !== null);
  let references: DocumentMetrics['references'] = null;
  if (resolving.length > 0) {
    const sum = (kinds: readonly ReferenceKind[]) => {
      let found = 0;
      let total = 0;
      for (const outcome of resolving) for (const kind of kinds) {
        found += outcome.references![kind].found;
        total += outcome.references![kind].total;
      }
      return { found, total, recall: ratio(found, total) };
    };
    references = { pronoun: sum(['pronoun']), office: sum(['office']), nominal: sum(['nominal']), all: sum(REFERENCE_KINDS) };
  }

  const claimed = outcomes.flatMap((outcome) => (outcome.claims ? [outcome.claims] : []));
  let claims: DocumentMetrics['claims'] = null;
  if (claimed.length > 0) {
    const total = (key: 'gold' | 'matched' | 'withSpeaker' | 'speakerRight') => claimed.reduce((sum, counts) => sum + counts[key], 0);
    claims = {
      gold: total('gold'), matched: total('matched'), recall: ratio(total('matched'), total('gold')),
      with_speaker: total('withSpeaker'), speaker_right: total('speakerRight'), speaker_accuracy: ratio(total('speakerRight'), total('withSpeaker')),
    };
  }
  return { documents: outcomes.length, spans: { exact: spanTotals('exact'), overlap: spanTotals('overlap') }, references, claims };
}

// ---------------------------------------------------------------- the sentence scorer's shape

/**
 * A document as one record of the sentence sets' format, for the existing name-matching tables
 * (actors, persons, organisations, claims, locations): every entity once, its first mention as
 * its text and its other forms as aliases. Events and dates are not annotated on the documents
 * (their lists are empty and their kinds not reported); relations are left out: they are scored
 * by gold entity, per type (`scoreDocumentRelations`), not by name.
 */
export function sentenceOfDocument(document: GoldDocument): GoldSentence {
  const entity = new Map(document.entities.map((item) => [item.id, item]));
  const textOf = (id: string) => entity.get(id)!.mentions[0].surface;
  const aliasesOf = (id: string) => {
    const { name, mentions } = entity.get(id)!;
    return [...new Set([name, ...mentions.map((mention) => mention.surface)])].filter((alias) => alias !== textOf(id));
  };
  const actors = document.entities.filter((item) => item.type !== 'LOC');
  return {
    id: document.id,
    conflict: document.conflict,
    document_date: document.document_date,
    text: document.text,
    actors: actors.map((item) => ({ text: textOf(item.id), type: item.subtype, aliases: aliasesOf(item.id) })),
    claims: document.claims.map((claim) => ({ type: claim.type, speaker: claim.speaker === null ? null : textOf(claim.speaker), cue: claim.cue.surface })),
    events: [],
    locations: document.entities.filter((item) => item.type === 'LOC').map((item) => ({ text: textOf(item.id), type: item.subtype })),
    dates: [],
  };
}

// ---------------------------------------------------------------- adapters

/** The symbolic layer's findings: each mention its own node (the layer links nothing), claims with their speaker's mention. */
export function documentPredictionFromFindings(findings: Findings): DocumentPrediction {
  const nodes: PredictedNode[] = [
    ...findings.actors.map((actor, index) => ({ id: `actor-${index}`, class: spanClassOfActor(actor.actor_type), spans: [{ start: actor.start, end: actor.end }], label: actor.text })),
    ...findings.locations.map((location, index) => ({ id: `location-${index}`, class: 'LOC' as const, spans: [{ start: location.start, end: location.end }], label: location.text })),
  ];
  /** The actor mention at a span (a claim's speaker, a relation's end): its node. */
  const actorNode = (span: TextSpan | undefined) => {
    if (!span) return null;
    const index = findings.actors.findIndex((actor) => spansOverlap(actor, span));
    return index === -1 ? null : `actor-${index}`;
  };
  return {
    nodes,
    claims: findings.claims.map((claim) => ({ type: claim.type, span: { start: claim.start, end: claim.end }, speaker: actorNode(claim.speaker) })),
    relations: findings.relations.map((relation) => ({ type: relation.type, from: actorNode(relation.from), to: actorNode(relation.to) })),
    resolves: false,
  };
}

/** The transformer's spans alone, classed as the pipeline would class them; it finds no claims. */
export function documentPredictionFromNeural(entities: readonly NeuralEntity[]): DocumentPrediction {
  const nodes = entities.flatMap((entity, index) => {
    const family = nerFamily(entity.label);
    if (!family) return [];
    const mention = mentionOfEntity(entity, family);
    const spanClass = mention.kind === 'Location' ? 'LOC' as const : spanClassOfActor(mention.actor_type);
    return [{ id: `span-${index}`, class: spanClass, spans: [{ start: entity.start, end: entity.end }] }];
  });
  return { nodes, claims: null, resolves: false };
}

/** The pipeline's structured result: Actor and Location nodes with their provenance spans, Claim nodes with their speaker. */
export function documentPredictionFromResult(result: ExtractionResult): DocumentPrediction {
  const spansOf = (provenance: ExtractionResult['graph']['nodes'][number]['provenance']) =>
    provenance.flatMap((record) => (record.span ? [{ start: record.span.start, end: record.span.end }] : []));
  const nodes: PredictedNode[] = [];
  const claims: PredictedDocumentClaim[] = [];
  for (const node of result.graph.nodes) {
    const [label] = node.labels;
    const name = typeof node.properties.label === 'string' ? node.properties.label : node.id;
    if (label === 'Actor') nodes.push({ id: node.id, class: spanClassOfActor(String(node.properties.actor_type)), spans: spansOf(node.provenance), label: name });
    else if (label === 'Location') nodes.push({ id: node.id, class: 'LOC', spans: spansOf(node.provenance), label: name });
    else if (label === 'Claim') {
      const [span] = spansOf(node.provenance);
      const { speaker, type } = node.properties;
      if (span) claims.push({ type: String(type), span, speaker: typeof speaker === 'string' ? speaker : null });
    }
  }
  const nodeIds = new Set(nodes.map((node) => node.id));
  const relations = result.graph.edges
    .filter((edge) => edge.type === 'OPPOSES' || edge.type === 'ALLIED_WITH' || edge.type === 'MEMBER_OF')
    .map((edge) => ({ type: edge.type, from: nodeIds.has(edge.from) ? edge.from : null, to: nodeIds.has(edge.to) ? edge.to : null }));
  return { nodes, claims, relations, resolves: true };
}
