import type { PropertyValue } from '../ontology/index.ts';
import { deriveEdgeId, deriveNodeId, normaliseForIdentity } from '../store/ids.ts';
import type { KnownActor } from './structure/coreference.ts';
import { MAX_PROVENANCE_PER_NODE, type StructuredDocument, type StructuredEdge, type StructuredNode } from './structure/index.ts';

/**
 * Entity resolution against the graph a document is committed to: the graph-dependent
 * step of extraction, run at commit time with the graph in hand (structuring itself reads
 * only the document). An extracted actor that is an actor the graph already holds (imported
 * by a user with an id of their choosing, like `burhan` or `rsf`, or created by an earlier
 * document) becomes that node, so queries find one of each.
 *
 * The rule, applied to each extracted Actor:
 * 1. An extracted node whose id the graph already has stays on it.
 * 2. Otherwise its names (label and aliases, normalised as ids normalise them: case, Unicode
 *    form, punctuation and spacing ignored) are compared with the graph's actors' names, in
 *    three levels, the first level with a match deciding:
 *    (a) the same label; (b) one's label is the other's alias; (c) a shared alias.
 * 3. Types must agree: a person (`individual`) only matches a person, an organisation,
 *    state or group only a non-person; `unknown` or a missing type agrees with any. Where
 *    several graph actors match at the deciding level, those of the same type are kept; if
 *    more than one is left, the name is ambiguous and the extracted node stays its own.
 * 4. On a match the graph's node wins: its id, label, and its actor_type and role when
 *    known. Extraction adds the names it read as aliases (its own label too, when it
 *    differs), its provenance and its edges; the store's merge unions aliases and
 *    provenance and keeps the higher confidence.
 * Claims spoken by a matched actor name the graph's node as their speaker, and their ids
 * follow. Deterministic: the same document and graph always resolve alike.
 */

const PERSON = 'individual';
const UNTYPED = new Set(['unknown', '']);

/** What resolution reads of a graph: its Actor nodes (a GraphIndex, or one with writes not yet committed merged in). */
export interface ActorGraph {
  node(id: string): { properties: Record<string, PropertyValue> } | undefined;
  nodesWithLabel(label: string): Iterable<string>;
}

interface GraphActor extends KnownActor {
  id: string;
  role?: string;
}

/** An Actor node's names, type and role as resolution reads them; undefined without a label. */
function graphActor(id: string, properties: Record<string, PropertyValue> | undefined): GraphActor | undefined {
  if (typeof properties?.label !== 'string') return undefined;
  const aliases = Array.isArray(properties.aliases) ? properties.aliases.filter((alias): alias is string => typeof alias === 'string') : [];
  return {
    id, label: properties.label, aliases,
    ...(typeof properties.actor_type === 'string' ? { actor_type: properties.actor_type } : {}),
    ...(typeof properties.role === 'string' ? { role: properties.role } : {}),
  };
}

/** Labels, aliases and types of the graph's actors. */
export function* graphActors(index: ActorGraph): Iterable<GraphActor> {
  for (const id of index.nodesWithLabel('Actor')) {
    const actor = graphActor(id, index.node(id)?.properties);
    if (actor) yield actor;
  }
}

function typesAgree(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || UNTYPED.has(a) || UNTYPED.has(b)) return true;
  return (a === PERSON) === (b === PERSON);
}

const isKnown = (value: PropertyValue | undefined): value is string => typeof value === 'string' && !UNTYPED.has(value);

/**
 * The graph's actors by normalised label and alias. Built once for a graph (or a commit
 * batch) and kept in step through set() as actors change, rather than rebuilt for every
 * document: building reads every actor, so rebuilding per document made a batch's
 * resolution grow with the square of its graph. What match() answers does not depend on
 * the order the actors came in.
 */
export class ActorNames {
  private readonly byLabel = new Map<string, GraphActor[]>();
  private readonly byAlias = new Map<string, GraphActor[]>();
  private readonly actors = new Map<string, GraphActor>();

  constructor(actors: Iterable<GraphActor>) {
    for (const actor of actors) this.add(actor);
  }

  /** What the Actor node `id` now has as properties (undefined: the node is gone). */
  set(id: string, properties: Record<string, PropertyValue> | undefined): void {
    const before = this.actors.get(id);
    if (before) {
      this.actors.delete(id);
      drop(this.byLabel, normaliseForIdentity(before.label), id);
      for (const alias of before.aliases ?? []) drop(this.byAlias, normaliseForIdentity(alias), id);
    }
    const actor = graphActor(id, properties);
    if (actor) this.add(actor);
  }

  private add(actor: GraphActor): void {
    this.actors.set(actor.id, actor);
    push(this.byLabel, normaliseForIdentity(actor.label), actor);
    for (const alias of actor.aliases ?? []) push(this.byAlias, normaliseForIdentity(alias), actor);
  }

  /** The graph actor an extracted actor is, or undefined (no match, or an ambiguous one). */
  match(label: string, aliases: readonly string[], type: string | undefined): GraphActor | undefined {
    const labelKey = normaliseForIdentity(label);
    const aliasKeys = aliases.map(normaliseForIdentity).filter(Boolean);
    const levels: GraphActor[][] = [
      this.byLabel.get(labelKey) ?? [],
      [...(this.byAlias.get(labelKey) ?? []), ...aliasKeys.flatMap((key) => this.byLabel.get(key) ?? [])],
      aliasKeys.flatMap((key) => this.byAlias.get(key) ?? []),
    ];
    for (const level of levels) {
      const candidates = unique(level.filter((actor) => typesAgree(actor.actor_type, type)));
      if (candidates.length === 0) continue;
      const sameType = candidates.filter((actor) => actor.actor_type === type);
      const chosen = sameType.length > 0 ? sameType : candidates;
      return chosen.length === 1 ? chosen[0] : undefined;
    }
    return undefined;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  if (!key) return;
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function drop(map: Map<string, GraphActor[]>, key: string, id: string): void {
  const list = map.get(key)?.filter((actor) => actor.id !== id);
  if (list === undefined) return;
  if (list.length > 0) map.set(key, list);
  else map.delete(key);
}

function unique<T extends { id: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

function stringList(value: PropertyValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Two records of one node as one: provenance unioned (bounded as structuring bounds it), the higher confidence, aliases unioned. */
function mergeNodes(a: StructuredNode, b: StructuredNode): StructuredNode {
  const provenance = [...a.provenance];
  for (const record of b.provenance) {
    if (provenance.length >= MAX_PROVENANCE_PER_NODE) break;
    if (!provenance.some((known) => known.span?.start === record.span?.start && known.span?.end === record.span?.end)) provenance.push(record);
  }
  const aliases = [...new Set([...stringList(a.properties.aliases), ...stringList(b.properties.aliases)])].sort();
  return { ...a, properties: { ...a.properties, ...(a.properties.aliases !== undefined ? { aliases } : {}) }, confidence: Math.max(a.confidence, b.confidence), provenance };
}

function mergeEdges(a: StructuredEdge, b: StructuredEdge): StructuredEdge {
  const provenance = [...a.provenance];
  for (const record of b.provenance) {
    if (!provenance.some((known) => known.span?.start === record.span?.start && known.span?.end === record.span?.end)) provenance.push(record);
  }
  return { ...a, confidence: Math.max(a.confidence, b.confidence), provenance };
}

/** `names`: the graph's actors' names, when the caller keeps them (ActorNames); else read from `graph`. */
export function resolveAgainstGraph(document: StructuredDocument, graph: ActorGraph, names = new ActorNames(graphActors(graph))): StructuredDocument {
  const renamed = new Map<string, string>();
  const resolved = new Map<string, StructuredNode>();
  for (const node of document.nodes) {
    if (node.labels[0] !== 'Actor' || graph.node(node.id)) continue;
    const label = String(node.properties.label ?? '');
    const aliases = stringList(node.properties.aliases);
    const type = typeof node.properties.actor_type === 'string' ? node.properties.actor_type : undefined;
    const known = names.match(label, aliases, type);
    if (!known) continue;
    const properties: Record<string, PropertyValue> = {
      ...node.properties,
      label: known.label,
      aliases: [...new Set([...aliases, ...(normaliseForIdentity(label) === normaliseForIdentity(known.label) ? [] : [label])])].sort(),
    };
    if (isKnown(known.actor_type)) properties.actor_type = known.actor_type;
    if (isKnown(known.role)) properties.role = known.role;
    renamed.set(node.id, known.id);
    resolved.set(node.id, { ...node, id: known.id, properties });
  }
  if (renamed.size === 0) return document;

  // A claim's id derives from its speaker: claims of a matched actor move with it.
  for (const node of document.nodes) {
    const speaker = node.properties.speaker;
    if (node.labels[0] !== 'Claim' || typeof speaker !== 'string' || !renamed.has(speaker)) continue;
    const properties = { ...node.properties, speaker: renamed.get(speaker)! };
    const id = deriveNodeId('Claim', properties);
    renamed.set(node.id, id);
    resolved.set(node.id, { ...node, id, properties });
  }

  const nodes = new Map<string, StructuredNode>();
  for (const original of document.nodes) {
    const node = resolved.get(original.id) ?? original;
    const existing = nodes.get(node.id);
    nodes.set(node.id, existing ? mergeNodes(existing, node) : node);
  }
  const edges = new Map<string, StructuredEdge>();
  for (const original of document.edges) {
    const from = renamed.get(original.from) ?? original.from;
    const to = renamed.get(original.to) ?? original.to;
    // Two extracted actors that are one graph actor leave no edge between them.
    if (from === to) continue;
    const edge = from === original.from && to === original.to ? original : { ...original, from, to, id: deriveEdgeId(original.type, from, to, original.properties) };
    const existing = edges.get(edge.id);
    edges.set(edge.id, existing ? mergeEdges(existing, edge) : edge);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}
