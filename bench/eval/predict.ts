import type { ExtractionResult } from '../../engine/extract/pipeline.ts';
import type { StructuredNode } from '../../engine/extract/structure/index.ts';
import { mentionOfEntity, nerFamily } from '../../engine/extract/structure/combine.ts';
import type { Findings, NeuralEntity, TextSpan } from '../../engine/extract/types.ts';
import type { PredictedEntity, Prediction } from './score.ts';

/**
 * Adapters from each extraction layer's output to the scorer's `Prediction`: the
 * symbolic layer's raw findings (character spans) and the pipeline's structured result
 * (nodes and edges after entity resolution, which is what users get).
 */

const overlaps = (a: TextSpan, b: TextSpan) => a.start < b.end && b.start < a.end;

function unique(names: readonly (string | undefined)[]): string[] {
  return [...new Set(names.filter((name): name is string => typeof name === 'string' && name.trim() !== ''))];
}

/** The symbolic layer's findings on one sentence. */
export function predictionFromFindings(text: string, findings: Findings): Prediction {
  const namesAt = (span: TextSpan, mentions: readonly { start: number; end: number; text: string; canonical?: string; aliases?: string[] }[]) => {
    const covering = mentions.filter((mention) => overlaps(mention, span));
    return unique([text.slice(span.start, span.end), ...covering.flatMap((mention) => [mention.text, mention.canonical, ...(mention.aliases ?? [])])]);
  };
  return {
    // A pronoun or description stands for an actor named elsewhere: it is no actor of its own.
    actors: findings.actors.filter((actor) => !actor.reference).map((actor) => ({ names: unique([actor.text, actor.canonical, ...(actor.aliases ?? [])]), type: actor.actor_type })),
    claims: findings.claims.map((claim) => ({ type: claim.type, speaker: claim.speaker ? namesAt(claim.speaker, findings.actors) : [] })),
    events: findings.events.map((event) => ({
      type: event.event_type,
      location: event.location ? namesAt(event.location, findings.locations) : [],
      date: event.date ? (findings.dates.find((date) => overlaps(date, event.date!))?.iso ?? null) : null,
    })),
    locations: findings.locations.map((location) => ({ names: unique([location.text, location.canonical]), type: location.location_type })),
    dates: findings.dates.map((date) => ({ text: date.text, iso: date.iso })),
  };
}

function stringProperty(node: StructuredNode | undefined, key: string): string | undefined {
  const value = node?.properties[key];
  return typeof value === 'string' ? value : undefined;
}

/** A resolved node's names: its label, its aliases and every quote it was grounded on. */
function nodeNames(node: StructuredNode | undefined): string[] {
  if (!node) return [];
  const { aliases } = node.properties;
  const aliasNames = Array.isArray(aliases) ? aliases.filter((alias): alias is string => typeof alias === 'string') : [];
  return unique([stringProperty(node, 'label'), ...aliasNames, ...node.provenance.map((record) => record.quote)]);
}

/**
 * The pipeline's result on one sentence. The result carries no date nodes, so dates come
 * from the symbolic findings the pipeline worked from (captured by the eval script).
 */
export function predictionFromResult(result: ExtractionResult, findings: Findings): Prediction {
  const ofKind = (kind: string) => result.graph.nodes.filter((node) => node.labels[0] === kind);
  const byId = new Map<string, StructuredNode>([...ofKind('Actor'), ...ofKind('Location')].map((node) => [node.id, node]));
  const placesOf = new Map<string, string[]>();
  for (const edge of result.graph.edges) {
    if (edge.type !== 'OCCURRED_AT') continue;
    placesOf.set(edge.from, [...(placesOf.get(edge.from) ?? []), ...nodeNames(byId.get(edge.to))]);
  }
  const entity = (node: StructuredNode, typeKey: string): PredictedEntity => ({ names: nodeNames(node), type: stringProperty(node, typeKey) ?? 'unknown' });
  return {
    actors: ofKind('Actor').map((node) => entity(node, 'actor_type')),
    claims: ofKind('Claim').map((node) => ({
      type: stringProperty(node, 'type') ?? '',
      speaker: nodeNames(byId.get(stringProperty(node, 'speaker') ?? '')),
    })),
    events: ofKind('Event').map((node) => ({
      type: stringProperty(node, 'event_type') ?? '',
      location: placesOf.get(node.id) ?? [],
      date: stringProperty(node, 'date') ?? null,
    })),
    locations: ofKind('Location').map((node) => entity(node, 'location_type')),
    dates: findings.dates.map((date) => ({ text: date.text, iso: date.iso })),
  };
}

/**
 * The transformer's spans alone, as the pipeline would type them (persons as individuals,
 * organisations typed by their name, places of type "other"): the model layer's own figures.
 */
export function predictionFromNeural(entities: readonly NeuralEntity[]): Prediction {
  const mentions = entities.flatMap((entity) => {
    const family = nerFamily(entity.label);
    return family ? [mentionOfEntity(entity, family)] : [];
  });
  return {
    actors: mentions.filter((m) => m.kind === 'Actor').map((m) => ({ names: [m.text], type: m.actor_type ?? 'unknown' })),
    claims: [],
    events: [],
    locations: mentions.filter((m) => m.kind === 'Location').map((m) => ({ names: [m.text], type: m.location_type ?? 'other' })),
    dates: [],
  };
}
