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

/** A graph node as resolution matches it: its id and names. */
interface Named {
  id: string;
  label: string;
  aliases?: readonly string[];
}

interface GraphActor extends KnownActor {
  id: string;
  role?: string;
}

interface GraphLocation extends Named {
  location_type?: string;
  country_code?: string;
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

/** A Location node's names, type and country as resolution reads them; undefined without a label. */
function graphLocation(id: string, properties: Record<string, PropertyValue> | undefined): GraphLocation | undefined {
  if (typeof properties?.label !== 'string') return undefined;
  return {
    id, label: properties.label, aliases: stringList(properties.aliases),
    ...(isKnown(properties.location_type) ? { location_type: properties.location_type } : {}),
    ...(typeof properties.country_code === 'string' ? { country_code: properties.country_code } : {}),
  };
}

function* graphNodes<T>(graph: ActorGraph, label: string, read: (id: string, properties: Record<string, PropertyValue> | undefined) => T | undefined): Iterable<T> {
  for (const id of graph.nodesWithLabel(label)) {
    const node = read(id, graph.node(id)?.properties);
    if (node) yield node;
  }
}

/** Labels, aliases and types of the graph's actors. */
export function graphActors(graph: ActorGraph): Iterable<GraphActor> {
  return graphNodes(graph, 'Actor', graphActor);
}

/** Labels, aliases, types and countries of the graph's places. */
export function graphLocations(graph: ActorGraph): Iterable<GraphLocation> {
  return graphNodes(graph, 'Location', graphLocation);
}

function typesAgree(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || UNTYPED.has(a) || UNTYPED.has(b)) return true;
  return (a === PERSON) === (b === PERSON);
}

const isKnown = (value: PropertyValue | undefined): value is string => typeof value === 'string' && !UNTYPED.has(value);

/**
 * The graph's nodes of one kind by normalised label and alias. Built once for a graph (or a
 * commit batch) and kept in step through set() as nodes change, rather than rebuilt for every
 * document: building reads every node of the kind, so rebuilding per document made a batch's
 * resolution grow with the square of its graph. What matchByNames answers does not depend on
 * the order the nodes came in.
 */
class NameTable<T extends Named> {
  readonly byLabel = new Map<string, T[]>();
  readonly byAlias = new Map<string, T[]>();
  private readonly entries = new Map<string, T>();
  /**
   * The normalised names each node is filed under: a batch sets every actor each document names
   * (its provenance grew), mostly with the names it had, which stay filed without being normalised again.
   */
  private readonly filed = new Map<string, { label: string; aliases: string[] }>();

  constructor(
    private readonly read: (id: string, properties: Record<string, PropertyValue> | undefined) => T | undefined,
    entries: Iterable<T>,
  ) {
    for (const entry of entries) this.add(entry);
  }

  /** The nodes the table holds, in the order they came in (a node set() again comes last). */
  values(): IterableIterator<T> {
    return this.entries.values();
  }

  /** What the node `id` now has as properties (undefined: the node is gone). */
  set(id: string, properties: Record<string, PropertyValue> | undefined): void {
    const before = this.entries.get(id);
    const entry = this.read(id, properties);
    if (before && entry && sameNames(before, entry)) {
      // filed under the same names: the entry replaced where it is filed
      this.entries.delete(id);
      this.entries.set(id, entry);
      const { label, aliases } = this.filed.get(id)!;
      replace(this.byLabel, label, entry);
      for (const alias of aliases) replace(this.byAlias, alias, entry);
      return;
    }
    if (before) {
      this.entries.delete(id);
      const { label, aliases } = this.filed.get(id)!;
      this.filed.delete(id);
      drop(this.byLabel, label, id);
      for (const alias of aliases) drop(this.byAlias, alias, id);
    }
    if (entry) this.add(entry);
  }

  private add(entry: T): void {
    const names = { label: normaliseForIdentity(entry.label), aliases: (entry.aliases ?? []).map(normaliseForIdentity) };
    this.entries.set(entry.id, entry);
    this.filed.set(entry.id, names);
    push(this.byLabel, names.label, entry);
    for (const alias of names.aliases) push(this.byAlias, alias, entry);
  }
}

/** The graph's actors by name (graphActors), kept in step through set(). */
export class ActorNames extends NameTable<GraphActor> {
  constructor(actors: Iterable<GraphActor>) {
    super(graphActor, actors);
  }
}

/** The graph's places by name (graphLocations), kept in step through set(). */
export class LocationNames extends NameTable<GraphLocation> {
  constructor(places: Iterable<GraphLocation>) {
    super(graphLocation, places);
  }
}

/** The graph's names of each kind resolution matches. */
export interface GraphNames {
  readonly actors: ActorNames;
  readonly places: LocationNames;
}

/** `graph`'s names (none without a graph), each kind read when first asked for: a document with no place does not read the graph's places. */
export function graphNames(graph: ActorGraph | undefined): GraphNames {
  let actors: ActorNames | undefined;
  let places: LocationNames | undefined;
  return {
    get actors() {
      return (actors ??= new ActorNames(graph ? graphActors(graph) : []));
    },
    get places() {
      return (places ??= new LocationNames(graph ? graphLocations(graph) : []));
    },
  };
}

/**
 * The rule's levels of names: the same label, then one side's label the other's alias, then a
 * shared alias; the first level with a candidate that `agrees` decides, preferring those `alike`;
 * more than one left is ambiguous (undefined).
 */
function matchByNames<T extends Named>(
  names: NameTable<T>,
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

/** A place with no particular type agrees with any. */
const UNTYPED_PLACE = 'other';

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  if (!key) return;
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function drop<T extends Named>(map: Map<string, T[]>, key: string, id: string): void {
  const list = map.get(key)?.filter((entry) => entry.id !== id);
  if (list === undefined) return;
  if (list.length > 0) map.set(key, list);
  else map.delete(key);
}

/** `entry` in place of the entries of its id filed under `key` (two of its names may share a key). */
function replace<T extends Named>(map: Map<string, T[]>, key: string, entry: T): void {
  const list = map.get(key) ?? [];
  for (let i = 0; i < list.length; i++) if (list[i].id === entry.id) list[i] = entry;
}

/** Whether two entries have the same label and aliases in the same order (no aliases: none, the same as an empty list). */
export function sameNames(a: Pick<Named, 'label' | 'aliases'>, b: Pick<Named, 'label' | 'aliases'>): boolean {
  const aliases = a.aliases ?? [];
  const others = b.aliases ?? [];
  return a.label === b.label && aliases.length === others.length && aliases.every((alias, i) => alias === others[i]);
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

/** One kind of node resolution matches against the graph's nodes of that kind. */
interface Kind<T extends Named> {
  label: string;
  names: (names: GraphNames) => NameTable<T>;
  /** Whether a graph node may be the extracted node with these properties. */
  agrees: (known: T, extracted: Record<string, PropertyValue>) => boolean;
  /** Preferred among several that agree. */
  alike: (known: T, extracted: Record<string, PropertyValue>) => boolean;
  /** The properties the graph node wins, besides its label. */
  wins: (known: T) => Record<string, PropertyValue>;
}

const stringOf = (value: PropertyValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

const actorKind: Kind<GraphActor> = {
  label: 'Actor',
  names: (names) => names.actors,
  agrees: (actor, extracted) => typesAgree(actor.actor_type, stringOf(extracted.actor_type)),
  alike: (actor, extracted) => actor.actor_type === stringOf(extracted.actor_type),
  wins: (actor) => ({ ...(isKnown(actor.actor_type) ? { actor_type: actor.actor_type } : {}), ...(isKnown(actor.role) ? { role: actor.role } : {}) }),
};

const locationKind: Kind<GraphLocation> = {
  label: 'Location',
  names: (names) => names.places,
  agrees: (place, extracted) => {
    const country = stringOf(extracted.country_code);
    return !country || !place.country_code || place.country_code === country;
  },
  alike: (place, extracted) => place.location_type === stringOf(extracted.location_type),
  wins: (place) => ({
    ...(place.location_type !== undefined && place.location_type !== UNTYPED_PLACE ? { location_type: place.location_type } : {}),
    ...(place.country_code !== undefined ? { country_code: place.country_code } : {}),
  }),
};

/** The extracted nodes of `kind` that are graph nodes, by extracted id: each becomes the graph's node (id, label, what it wins) with the names read as aliases. */
function resolveKind<T extends Named>(document: StructuredDocument, graph: Pick<ActorGraph, 'node'>, names: GraphNames, kind: Kind<T>, resolved: Map<string, StructuredNode>): void {
  for (const node of document.nodes) {
    if (node.labels[0] !== kind.label || graph.node(node.id)) continue;
    const label = String(node.properties.label ?? '');
    const aliases = stringList(node.properties.aliases);
    const known = matchByNames(kind.names(names), label, aliases, (candidate) => kind.agrees(candidate, node.properties), (candidate) => kind.alike(candidate, node.properties));
    if (!known) continue;
    const properties: Record<string, PropertyValue> = { ...node.properties, label: known.label, aliases: namesRead(label, aliases, known.label), ...kind.wins(known) };
    resolved.set(node.id, { ...node, id: known.id, properties });
  }
}

/**
 * `graph` answers whether it holds an extracted node's id; `names` are its actors' and places'
 * names, which a caller resolving many documents keeps in step (graphNames, set()).
 */
export function resolveAgainstGraph(document: StructuredDocument, graph: Pick<ActorGraph, 'node'>, names: GraphNames): StructuredDocument {
  const resolved = new Map<string, StructuredNode>();
  resolveKind(document, graph, names, actorKind, resolved);
  resolveKind(document, graph, names, locationKind, resolved);
  const renamed = new Map([...resolved].map(([id, node]) => [id, node.id]));
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
