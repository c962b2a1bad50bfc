/**
 * The separate conflicts of a graph: groups of actors linked by opposition, alliance, membership,
 * shared events and claims one makes against another. A graph of two wars (the sample corpus holds
 * Sudan and the eastern DRC) is two groups that nothing links but the outsiders who speak about
 * both: international organisations, NGOs, media and actors in a mediator's or observer's role link
 * no group to another, and are listed with each group they deal with as its third parties.
 * Deterministic: a conflict's id is a hash of its members, its name its main parties and places.
 */
import { createHash } from 'node:crypto';
import type { GraphIndex } from '../store/graph-index.ts';
import { validTime } from '../store/view.ts';

export interface Conflict {
  /** `conflict_` and 12 hex digits of a hash of its actors' ids: the same members, the same id. */
  id: string;
  /** Its main parties and places: "Rapid Support Forces vs Sudanese Armed Forces (Sudan, El Fasher)". */
  name: string;
  /** The most engaged actors (at most MAX_NAMED_PARTIES), most engaged first. */
  parties: { id: string; label: string }[];
  /** The places its events happened at most often (at most MAX_NAMED_PLACES), a country for its cities when the graph holds it. */
  places: { id: string; label: string }[];
  /** Every actor of the group, sorted: what a scope of this conflict reasons over. */
  actors: string[];
  /** Outsiders (organisations, mediators, observers) who deal with its actors, sorted. */
  third_parties: string[];
  events: number;
  claims: number;
  /** The first and last day of its dated events and claims. */
  first?: string;
  last?: string;
}

const MAX_NAMED_PARTIES = 2;
const MAX_NAMED_PLACES = 2;
/** Conflicts listed at most (the largest first); a graph of more names the count left out. */
export const MAX_CONFLICTS = 100;

/** Who speaks about a conflict without being one of its sides: they join no group to another. */
const OUTSIDER_TYPES = new Set(['international_org', 'ngo', 'media']);
const OUTSIDER_ROLES = new Set(['mediator', 'observer']);
const ACTOR_LINKS = ['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF'];

const cache = new WeakMap<GraphIndex, { revision: number; conflicts: Conflict[] }>();

/** The conflicts of a graph, the largest (events and claims) first; computed once per graph revision. */
export function detectConflicts(graph: GraphIndex): Conflict[] {
  const held = cache.get(graph);
  if (held && held.revision === graph.revision) return held.conflicts;
  const conflicts = detect(graph);
  cache.set(graph, { revision: graph.revision, conflicts });
  return conflicts;
}

function detect(graph: GraphIndex): Conflict[] {
  const isActor = (id: string) => graph.node(id)?.labels[0] === 'Actor';
  // who is tied to whom, and how engaged each actor is (the main parties are the most engaged)
  const ties = new Map<string, Set<string>>();
  const engagement = new Map<string, number>();
  const engage = (id: string, weight: number) => engagement.set(id, (engagement.get(id) ?? 0) + weight);
  const tie = (a: string, b: string) => {
    if (a === b) return;
    ties.get(a)!.add(b);
    ties.get(b)!.add(a);
  };
  for (const id of graph.nodesWithLabel('Actor')) ties.set(id, new Set());
  for (const type of ACTOR_LINKS) {
    for (const edgeId of graph.edgesWithType(type)) {
      const edge = graph.edge(edgeId)!;
      if (!isActor(edge.from) || !isActor(edge.to)) continue;
      tie(edge.from, edge.to);
      if (type === 'OPPOSES') for (const id of [edge.from, edge.to]) engage(id, 3);
    }
  }
  const eventsOf = new Map<string, string[]>();
  const claimsOf = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const id of graph.nodesWithLabel('Event')) {
    const actors = [...new Set(graph.edgesOf(id, 'in', ['PARTICIPATES_IN']).map((edge) => edge.from).filter(isActor))];
    for (const actor of actors) {
      engage(actor, 2);
      add(eventsOf, actor, id);
      for (const other of actors) tie(actor, other);
    }
  }
  for (const id of graph.nodesWithLabel('Claim')) {
    const speakers = graph.edgesOf(id, 'in', ['ASSERTS', 'DENIES']).map((edge) => edge.from).filter(isActor);
    const targets = graph.edgesOf(id, 'out', ['TARGETS']).map((edge) => edge.to).filter(isActor);
    for (const actor of new Set([...speakers, ...targets])) {
      engage(actor, 1);
      add(claimsOf, actor, id);
    }
    for (const speaker of speakers) for (const target of targets) tie(speaker, target);
  }

  // outsiders by what they are, then by what they do: an actor whose ties alone hold two groups of sides together
  const outsiders = new Set<string>();
  for (const id of ties.keys()) {
    const { actor_type, role } = graph.node(id)!.properties;
    if (OUTSIDER_TYPES.has(String(actor_type)) || OUTSIDER_ROLES.has(String(role))) outsiders.add(id);
  }
  for (let found = 0, bridge = findBridge(ties, outsiders); bridge !== undefined && found < MAX_BRIDGES; found++, bridge = findBridge(ties, outsiders)) outsiders.add(bridge);

  const groups = components(ties, outsiders);
  const conflicts: Conflict[] = [];
  const countries = countriesOf(graph);
  for (const members of groups) {
    if (members.length < 2) continue;
    members.sort();
    const inGroup = new Set(members);
    const events = new Set(members.flatMap((id) => eventsOf.get(id) ?? []));
    const claims = new Set(members.flatMap((id) => claimsOf.get(id) ?? []));
    const days = [...events, ...claims].map((id) => validTime(graph.node(id)!)).filter((day): day is string => day !== undefined).sort();
    const parties = [...members]
      .sort((a, b) => (engagement.get(b) ?? 0) - (engagement.get(a) ?? 0) || (a < b ? -1 : 1))
      .slice(0, MAX_NAMED_PARTIES)
      .map((id) => ({ id, label: graph.labelOf(id) }));
    const places = placesOf(graph, events, countries);
    const name = `${parties.map((party) => party.label).join(' vs ')}${places.length > 0 ? ` (${places.map((place) => place.label).join(', ')})` : ''}`;
    conflicts.push({
      id: `conflict_${createHash('sha256').update(members.join('\n')).digest('hex').slice(0, 12)}`,
      name,
      parties,
      places,
      actors: members,
      third_parties: [...outsiders].filter((id) => [...ties.get(id)!].some((other) => inGroup.has(other))).sort(),
      events: events.size,
      claims: claims.size,
      ...(days.length > 0 ? { first: days[0], last: days[days.length - 1] } : {}),
    });
  }
  return conflicts.sort((a, b) => b.events + b.claims - (a.events + a.claims) || (a.id < b.id ? -1 : 1));
}

/** Bridges looked for at most, one walk of the graph each: a graph of many wars joined in a chain stops there, its last groups together. */
const MAX_BRIDGES = 64;
/** A group needs this many sides on each side of an actor for that actor to count as a bridge between two conflicts. */
const MIN_BRIDGED_GROUP = 3;

/** The groups of actors (outsiders left out) that ties hold together, in the graph's order. */
function components(ties: Map<string, Set<string>>, outsiders: Set<string>): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const start of ties.keys()) {
    if (seen.has(start) || outsiders.has(start)) continue;
    const group = [start];
    seen.add(start);
    for (let i = 0; i < group.length; i++) {
      for (const next of ties.get(group[i])!) {
        if (seen.has(next) || outsiders.has(next)) continue;
        seen.add(next);
        group.push(next);
      }
    }
    groups.push(group);
  }
  return groups;
}

/**
 * The actor whose removal splits a group into parts of which at least two hold MIN_BRIDGED_GROUP
 * actors or more, the most even split first (its smaller part largest; then the id): one depth-first
 * walk per group finds the cut vertices and the sizes of the parts each cuts off (Hopcroft and Tarjan).
 */
function findBridge(ties: Map<string, Set<string>>, outsiders: Set<string>): string | undefined {
  let best: { id: string; smaller: number } | undefined;
  for (const group of components(ties, outsiders)) {
    if (group.length < 2 * MIN_BRIDGED_GROUP + 1) continue;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const size = new Map<string, number>();
    const parts = new Map<string, number[]>();
    const root = group[0];
    const stack: { id: string; parent?: string; neighbours: Iterator<string> }[] = [{ id: root, neighbours: ties.get(root)!.values() }];
    order.set(root, 0);
    low.set(root, 0);
    size.set(root, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const step = top.neighbours.next();
      if (!step.done) {
        const next = step.value;
        if (outsiders.has(next) || next === top.parent) continue;
        if (order.has(next)) low.set(top.id, Math.min(low.get(top.id)!, order.get(next)!));
        else {
          order.set(next, order.size);
          low.set(next, order.get(next)!);
          size.set(next, 1);
          stack.push({ id: next, parent: top.id, neighbours: ties.get(next)!.values() });
        }
        continue;
      }
      stack.pop();
      if (top.parent === undefined) continue;
      low.set(top.parent, Math.min(low.get(top.parent)!, low.get(top.id)!));
      size.set(top.parent, size.get(top.parent)! + size.get(top.id)!);
      // the child's subtree hangs on the parent alone: removing the parent cuts it off
      if (low.get(top.id)! >= order.get(top.parent)!) parts.set(top.parent, [...(parts.get(top.parent) ?? []), size.get(top.id)!]);
    }
    for (const [id, cut] of parts) {
      // the rest of the group (above the vertex in the walk) is a part too, save for the root
      const sides = id === root ? cut : [...cut, group.length - 1 - cut.reduce((sum, part) => sum + part, 0)];
      const large = sides.filter((part) => part >= MIN_BRIDGED_GROUP).sort((a, b) => b - a);
      if (large.length < 2) continue;
      const smaller = large[1];
      if (!best || smaller > best.smaller || (smaller === best.smaller && id < best.id)) best = { id, smaller };
    }
  }
  return best?.id;
}

/** The graph's country Locations by country code (the first of each). */
function countriesOf(graph: GraphIndex): Map<string, string> {
  const countries = new Map<string, string>();
  for (const id of graph.nodesWithLabel('Location')) {
    const { location_type, country_code } = graph.node(id)!.properties;
    if (location_type === 'country' && typeof country_code === 'string' && !countries.has(country_code)) countries.set(country_code, id);
  }
  return countries;
}

/** The places a conflict's events happened at most often: a city counts for its country too, when the graph holds the country. */
function placesOf(graph: GraphIndex, events: Set<string>, countries: Map<string, string>): { id: string; label: string }[] {
  const counts = new Map<string, number>();
  const count = (id: string) => counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const event of events) {
    const at = new Set<string>();
    for (const edge of graph.edgesOf(event, 'out', ['OCCURRED_AT'])) {
      at.add(edge.to);
      const code = graph.node(edge.to)?.properties.country_code;
      const country = typeof code === 'string' ? countries.get(code) : undefined;
      if (country) at.add(country);
    }
    for (const id of at) count(id);
  }
  // a country first at equal counts: it names the conflict better than one of its cities
  const isCountry = (id: string) => graph.node(id)?.properties.location_type === 'country';
  return [...counts]
    .sort((a, b) => b[1] - a[1] || Number(isCountry(b[0])) - Number(isCountry(a[0])) || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_NAMED_PLACES)
    .map(([id]) => ({ id, label: graph.labelOf(id) }));
}
