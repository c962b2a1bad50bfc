/**
 * A scope: the part of a graph one question is about (some actors, one pair of parties, some
 * places, a period, or one of the conflicts detect.ts finds). The frameworks reason over the
 * sub-graph of the scope, built here as a graph of its own, so that every rule, the Prolog
 * hand-over and the evidence check see only what the scope holds.
 */
import { ValidationError } from '../errors.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { GraphIndex } from '../store/graph-index.ts';
import { isCalendarDay } from '../store/validate.ts';
import { validTime } from '../store/view.ts';
import { detectConflicts } from './detect.ts';

/** What a client asks for: actors and places by id, label or alias; days as ISO dates. */
export interface ScopeRequest {
  actors?: string[];
  /** Two actors: only what passes between them (and what either does with no other actor named). */
  dyad?: string[];
  places?: string[];
  /** First day in scope (YYYY-MM-DD or a longer ISO instant). */
  from?: string;
  /** Last day in scope. */
  to?: string;
  /** A conflict's id (GET /v1/graphs/{graph_id}/conflicts): its actors. */
  conflict?: string;
}

/** A scope with its names resolved to node ids, as the reasoning workers take it (plain data). */
export interface ResolvedScope {
  actors: string[];
  dyad: boolean;
  places: string[];
  from?: string;
  to?: string;
  conflict?: string;
}

/** Names a scope request may list per dimension, at most: each is resolved against every label of the graph. */
export const MAX_SCOPE_NAMES = 32;

/** Lower case, accents off, spaces collapsed: how a name in a request or a question meets a label. */
export function normaliseName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\u2018\u2019']/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** A node's names: its id, label and aliases. */
export function namesOf(node: NodeRecord): string[] {
  const names = [node.id];
  if (typeof node.properties.label === 'string') names.push(node.properties.label);
  const aliases = node.properties.aliases;
  if (Array.isArray(aliases)) for (const alias of aliases) if (typeof alias === 'string') names.push(alias);
  return names;
}

/** The nodes of `label` that `name` names (id first, else label or alias; more than one when several share a label), sorted. */
function nodesNamed(graph: GraphIndex, label: 'Actor' | 'Location', name: string): string[] {
  const byId = graph.node(name);
  if (byId && byId.labels[0] === label) return [byId.id];
  const wanted = normaliseName(name);
  const found: string[] = [];
  for (const id of graph.nodesWithLabel(label)) if (namesOf(graph.node(id)!).some((candidate) => normaliseName(candidate) === wanted)) found.push(id);
  return found.sort();
}

/** A place and, for a country, the places that carry its country code: "Sudan" holds El Fasher. */
function placesWithin(graph: GraphIndex, id: string): string[] {
  const place = graph.node(id)!;
  const code = place.properties.country_code;
  if (place.properties.location_type !== 'country' || typeof code !== 'string') return [id];
  return [id, ...[...graph.nodesWithProperty('country_code', code)].filter((other) => other !== id && graph.node(other)?.labels[0] === 'Location')];
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}/;

/** Resolves a request against the graph: a name that names nothing, a bad day or a conflict not found is a ValidationError naming the field. */
export function resolveScope(graph: GraphIndex, request: ScopeRequest): ResolvedScope {
  const unknown = (field: string, name: string, what: string) =>
    new ValidationError('scope_not_found', `scope.${field}: the graph holds no ${what} named '${name}'`, { field: `scope.${field}`, name });
  const actorsOf = (field: string, names: string[]) =>
    names.flatMap((name) => {
      const ids = nodesNamed(graph, 'Actor', name);
      if (ids.length === 0) throw unknown(field, name, 'actor');
      return ids;
    });
  const actors = new Set<string>();
  if (request.actors) for (const id of actorsOf('actors', request.actors)) actors.add(id);
  let dyad = false;
  if (request.dyad) {
    if (request.actors) throw new ValidationError('scope_invalid', 'scope: give actors or a dyad, not both', { field: 'scope.dyad' });
    if (request.dyad.length !== 2) throw new ValidationError('scope_invalid', `scope.dyad: names two actors, not ${request.dyad.length}`, { field: 'scope.dyad' });
    for (const id of actorsOf('dyad', request.dyad)) actors.add(id);
    dyad = true;
  }
  let conflict: string | undefined;
  if (request.conflict !== undefined) {
    const found = detectConflicts(graph).find((candidate) => candidate.id === request.conflict);
    if (!found) throw unknown('conflict', request.conflict, 'conflict');
    conflict = found.id;
    // a conflict and actors: the actors of both (the frameworks see the conflict with the actors named beside it)
    for (const id of found.actors) actors.add(id);
  }
  const places = new Set<string>();
  for (const name of request.places ?? []) {
    const ids = nodesNamed(graph, 'Location', name);
    if (ids.length === 0) throw unknown('places', name, 'place');
    for (const id of ids) for (const within of placesWithin(graph, id)) places.add(within);
  }
  const day = (field: 'from' | 'to') => {
    const value = request[field];
    if (value === undefined) return undefined;
    if (!ISO_DAY.test(value) || !isCalendarDay(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10)))) throw new ValidationError('scope_invalid', `scope.${field}: '${value}' is not an ISO date`, { field: `scope.${field}` });
    return value.slice(0, 10);
  };
  const from = day('from');
  const to = day('to');
  if (from !== undefined && to !== undefined && from > to) throw new ValidationError('scope_invalid', `scope: from (${from}) is after to (${to})`, { field: 'scope.from' });
  return { actors: [...actors].sort(), dyad, places: [...places].sort(), ...(from ? { from } : {}), ...(to ? { to } : {}), ...(conflict ? { conflict } : {}) };
}

/** Whether a resolved scope narrows anything. */
export function isWholeGraph(scope: ResolvedScope): boolean {
  return scope.actors.length === 0 && scope.places.length === 0 && scope.from === undefined && scope.to === undefined;
}

/** The same scope, the same key: part of every cached result's key. */
export function scopeKey(scope: ResolvedScope | undefined): string | null {
  return scope && !isWholeGraph(scope) ? JSON.stringify([scope.actors, scope.dyad, scope.places, scope.from ?? null, scope.to ?? null]) : null;
}

/** Edge types between two actors. */
const ACTOR_TO_ACTOR = new Set(['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF']);

/**
 * The sub-graph of a scope: the actors in scope (all, when none are named); the events they take
 * part in (at the places in scope, when places are named; with places alone, every event there and
 * its participants are in scope); the claims they assert, deny or are targeted by; under a dyad, only
 * the events and claims that involve both, or one of them and no other actor. Then the other ends
 * of those: the counterpart actors, the places, issues, interests and documents. An edge is kept when
 * both its ends are, save an edge between two actors (or an actor's interest) with neither end in scope.
 * A record with a valid time outside [from, to] is left out; one without stays. Records keep the
 * graph's order, so rules that read "the first" read the same.
 */
export function scopedGraph(graph: GraphIndex, scope: ResolvedScope): GraphIndex {
  const inPeriod = (record: NodeRecord | EdgeRecord) => {
    if (scope.from === undefined && scope.to === undefined) return true;
    const time = validTime(record);
    return time === undefined || ((scope.from === undefined || time >= scope.from) && (scope.to === undefined || time <= scope.to));
  };
  const kind = (id: string) => graph.node(id)?.labels[0];
  const anchors = new Set(scope.actors);
  const places = new Set(scope.places);
  const keep = new Set<string>();
  const actorsOf = (id: string, types: string[], direction: 'in' | 'out') =>
    graph.edgesOf(id, direction, types).map((edge) => (direction === 'in' ? edge.from : edge.to)).filter((other) => kind(other) === 'Actor');
  // under a dyad, a record involves the pair when it names both, or one and no other actor
  const involves = (actors: string[]) => {
    if (anchors.size === 0) return true;
    const named = actors.filter((id) => anchors.has(id));
    if (!scope.dyad) return named.length > 0;
    return new Set(named).size === anchors.size || (named.length > 0 && actors.every((id) => anchors.has(id)));
  };

  const events: string[] = [];
  for (const id of graph.nodesWithLabel('Event')) {
    const event = graph.node(id)!;
    if (!inPeriod(event)) continue;
    if (places.size > 0 && !graph.edgesOf(id, 'out', ['OCCURRED_AT']).some((edge) => places.has(edge.to))) continue;
    const participants = actorsOf(id, ['PARTICIPATES_IN'], 'in');
    if (!involves(participants)) continue;
    events.push(id);
  }
  // places alone: the actors of the events there are the scope's actors
  const actors = anchors.size > 0 || places.size === 0 ? anchors : new Set(events.flatMap((id) => actorsOf(id, ['PARTICIPATES_IN'], 'in')));
  const all = actors.size === 0 && places.size === 0;

  for (const id of graph.nodesWithLabel('Actor')) if (all || actors.has(id)) keep.add(id);
  for (const id of events) {
    keep.add(id);
    for (const edge of graph.edgesOf(id, 'both')) if (kind(edge.from) === 'Actor' || kind(edge.to) === 'Location') keep.add(edge.from === id ? edge.to : edge.from);
  }
  for (const id of graph.nodesWithLabel('Claim')) {
    const claim = graph.node(id)!;
    if (!inPeriod(claim)) continue;
    const speakers = actorsOf(id, ['ASSERTS', 'DENIES'], 'in');
    const targets = actorsOf(id, ['TARGETS'], 'out');
    if (!all && !(anchors.size > 0 ? involves([...speakers, ...targets]) : [...speakers, ...targets].some((actor) => actors.has(actor)))) continue;
    keep.add(id);
    for (const actor of [...speakers, ...targets]) keep.add(actor);
  }
  if (all) for (const id of graph.nodesWithLabel('Location')) keep.add(id);
  // what hangs off the records kept: the issues claims are about, the actors' interests, the documents that mention them
  for (const id of [...keep]) {
    for (const edge of graph.edgesOf(id, 'out')) {
      const other = kind(edge.to);
      if (other === 'Issue' || other === 'Document' || (other === 'Interest' && (all || actors.has(id)))) keep.add(edge.to);
    }
  }

  const nodes = [...graph.nodes.values()].filter((node) => keep.has(node.id) && (node.labels[0] === 'Document' || inPeriod(node)));
  const kept = new Set(nodes.map((node) => node.id));
  const edges = [...graph.edges.values()].filter((edge) => {
    if (!kept.has(edge.from) || !kept.has(edge.to) || !inPeriod(edge)) return false;
    if (all) return true;
    if (ACTOR_TO_ACTOR.has(edge.type) && kind(edge.from) === 'Actor' && kind(edge.to) === 'Actor') {
      return scope.dyad ? actors.has(edge.from) && actors.has(edge.to) : actors.has(edge.from) || actors.has(edge.to);
    }
    return edge.type !== 'HOLDS_INTEREST' || actors.has(edge.from);
  });
  return GraphIndex.fromRecords(nodes, edges);
}

/** Scoped graphs kept per graph (the latest few scopes asked), so that repeated runs over one scope hand the Prolog engine the same view. */
const SCOPED_GRAPHS_KEPT = 8;
const scopedCache = new WeakMap<GraphIndex, { revision: number; byKey: Map<string, GraphIndex> }>();

/** The graph a task over `scope` reasons over: the graph itself for the whole graph, else its scoped sub-graph (kept while the graph is unchanged). */
export function graphInScope(graph: GraphIndex, scope: ResolvedScope | undefined): GraphIndex {
  const key = scopeKey(scope);
  if (key === null) return graph;
  let held = scopedCache.get(graph);
  if (!held || held.revision !== graph.revision) scopedCache.set(graph, (held = { revision: graph.revision, byKey: new Map() }));
  let scoped = held.byKey.get(key);
  held.byKey.delete(key);
  scoped ??= scopedGraph(graph, scope!);
  held.byKey.set(key, scoped);
  if (held.byKey.size > SCOPED_GRAPHS_KEPT) held.byKey.delete(held.byKey.keys().next().value!);
  return scoped;
}
