import type { PropertyValue, Provenance } from '../ontology/index.ts';
import { deriveEdgeId, deriveNodeId, normaliseForIdentity } from '../store/ids.ts';
import type { KnownActor } from './structure/coreference.ts';
import { addProvenance, type StructuredDocument, type StructuredEdge, type StructuredNode } from './structure/index.ts';

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
 * follow.
 *
 * Each extracted Location follows the same rule with the graph's Location nodes (a place a
 * user imported as `el-fasher`): its id kept when the graph has it; else the same three
 * levels of names; country codes must agree when both are known; among several matches the
 * same location_type is preferred, and a name still ambiguous matches nothing; on a match the
 * graph's id, label, and its location_type and country_code when known win, and extraction
 * adds its names as aliases. Edges to the place (OCCURRED_AT ...) follow it.
 * Deterministic: the same document and graph always resolve alike.
 */

const PERSON = 'individual';
const UNTYPED = new Set(['unknown', '']);

/** What resolution reads of a graph: its Actor and Location nodes (a GraphIndex, or one with writes not yet committed merged in). */
export interface ActorGraph {
  node(id: string): { properties: Record<string, PropertyValue> } | undefined;
  nodesWithLabel(label: string): Iterable<string>;
}

interface GraphActor extends KnownActor {
  id: string;
  role?: string;
}

/** An Actor node's properties as the actor directory reads them. */
export function knownActor(properties: Record<string, PropertyValue> | undefined): KnownActor | undefined {
  if (typeof properties?.label !== 'string') return undefined;
  return { label: properties.label, aliases: stringList(properties.aliases), ...(typeof properties.actor_type === 'string' ? { actor_type: properties.actor_type } : {}) };
}

/** An Actor node's names, type and role as resolution reads them; undefined without a label. */
function graphActor(id: string, properties: Record<string, PropertyValue> | undefined): GraphActor | undefined {
  const actor = knownActor(properties);
  return actor && { id, ...actor, ...(typeof properties!.role === 'string' ? { role: properties!.role } : {}) };
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
  readonly byLabel = new Map<string, GraphActor[]>();
  readonly byAlias = new Map<string, GraphActor[]>();
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
    return matchByNames(this, label, aliases, (actor) => typesAgree(actor.actor_type, type), (actor) => actor.actor_type === type);
  }
}

/**
 * The rule's levels of names: the same label, then one side's label the other's alias, then a
 * shared alias; the first level with a candidate that `agrees` decides, preferring those `alike`;
 * more than one left is ambiguous (undefined).
 */
function matchByNames<T extends { id: string }>(
  names: { byLabel: Map<string, T[]>; byAlias: Map<string, T[]> },
  label: string,
  aliases: readonly string[],
  agrees: (candidate: T) => boolean,
  alike: (candidate: T) => boolean,
): T | undefined {
  const labelKey = normaliseForIdentity(label);
  const aliasKeys = aliases.map(normaliseForIdentity).filter(Boolean);
  const levels: T[][] = [
    names.byLabel.get(labelKey) ?? [],
    [...(names.byAlias.get(labelKey) ?? []), ...aliasKeys.flatMap((key) => names.byLabel.get(key) ?? [])],
    aliasKeys.flatMap((key) => names.byAlias.get(key) ?? []),
  ];
  for (const level of levels) {
    const candidates = unique(level.filter(agrees));
    if (candidates.length === 0) continue;
    const same = candidates.filter(alike);
    const chosen = same.length > 0 ? same : candidates;
    return chosen.length === 1 ? chosen[0] : undefined;
  }
  return undefined;
}

interface GraphLocation {
  id: string;
  label: string;
  aliases: string[];
  location_type?: string;
  country_code?: string;
}

/** The graph's places by normalised label and alias. */
class LocationNames {
  readonly byLabel = new Map<string, GraphLocation[]>();
  readonly byAlias = new Map<string, GraphLocation[]>();

  constructor(graph: ActorGraph) {
    for (const id of graph.nodesWithLabel('Location')) {
      const properties = graph.node(id)?.properties;
      if (typeof properties?.label !== 'string') continue;
      const place: GraphLocation = {
        id, label: properties.label, aliases: stringList(properties.aliases),
        ...(isKnown(properties.location_type) ? { location_type: properties.location_type } : {}),
        ...(typeof properties.country_code === 'string' ? { country_code: properties.country_code } : {}),
      };
      push(this.byLabel, normaliseForIdentity(place.label), place);
      for (const alias of place.aliases) push(this.byAlias, normaliseForIdentity(alias), place);
    }
  }

  /** The graph place an extracted place is: no other country, the same location_type preferred; undefined when none or ambiguous. */
  match(label: string, aliases: readonly string[], type: string | undefined, country: string | undefined): GraphLocation | undefined {
    return matchByNames(this, label, aliases, (place) => !country || !place.country_code || place.country_code === country, (place) => place.location_type === type);
  }
}

/** A place with no particular type agrees with any. */
const UNTYPED_PLACE = 'other';

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

/** The names extraction read, as aliases of the graph node it matched: its aliases, and its own label when it differs. */
function namesRead(label: string, aliases: readonly string[], knownLabel: string): string[] {
  return [...new Set([...aliases, ...(normaliseForIdentity(label) === normaliseForIdentity(knownLabel) ? [] : [label])])].sort();
}

function stringList(value: PropertyValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Two records' provenance as one, as structuring keeps it (one record per span, bounded). */
function unionProvenance(a: readonly Provenance[], b: readonly Provenance[]): Provenance[] {
  const provenance = [...a];
  for (const record of b) addProvenance(provenance, record);
  return provenance;
}

/** Two records of one node as one: provenance unioned, the higher confidence, aliases unioned. */
function mergeNodes(a: StructuredNode, b: StructuredNode): StructuredNode {
  const aliases = [...new Set([...stringList(a.properties.aliases), ...stringList(b.properties.aliases)])].sort();
  return {
    ...a, properties: { ...a.properties, ...(a.properties.aliases !== undefined ? { aliases } : {}) }, confidence: Math.max(a.confidence, b.confidence),
    provenance: unionProvenance(a.provenance, b.provenance),
  };
}

function mergeEdges(a: StructuredEdge, b: StructuredEdge): StructuredEdge {
  return { ...a, confidence: Math.max(a.confidence, b.confidence), provenance: unionProvenance(a.provenance, b.provenance) };
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
      aliases: namesRead(label, aliases, known.label),
    };
    if (isKnown(known.actor_type)) properties.actor_type = known.actor_type;
    if (isKnown(known.role)) properties.role = known.role;
    renamed.set(node.id, known.id);
    resolved.set(node.id, { ...node, id: known.id, properties });
  }
  let places: LocationNames | undefined;
  for (const node of document.nodes) {
    if (node.labels[0] !== 'Location' || graph.node(node.id)) continue;
    places ??= new LocationNames(graph);
    const label = String(node.properties.label ?? '');
    const aliases = stringList(node.properties.aliases);
    const type = typeof node.properties.location_type === 'string' ? node.properties.location_type : undefined;
    const country = typeof node.properties.country_code === 'string' ? node.properties.country_code : undefined;
    const known = places.match(label, aliases, type, country);
    if (!known) continue;
    const properties: Record<string, PropertyValue> = {
      ...node.properties,
      label: known.label,
      aliases: namesRead(label, aliases, known.label),
    };
    if (known.location_type !== undefined && known.location_type !== UNTYPED_PLACE) properties.location_type = known.location_type;
    if (known.country_code !== undefined) properties.country_code = known.country_code;
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
