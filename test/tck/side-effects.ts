/**
 * Side effects as the TCK defines them (tck/README.adoc "Side effects"): the
 * difference, before and after the query, in the sets of nodes,
 * relationships, (entity, key, value) property triples, and distinct labels.
 * Read straight from the GraphIndex rather than through queries, so that
 * measuring does not depend on the engine under test.
 */
import type { GraphIndex } from '../../engine/store/graph-index.ts';
import { SIDE_EFFECT_KEYS, type SideEffects } from './scenario.ts';

export interface GraphSnapshot {
  nodes: Set<string>;
  relationships: Set<string>;
  properties: Set<string>;
  labels: Set<string>;
}

export function snapshotGraph(graph: GraphIndex): GraphSnapshot {
  const properties = new Set<string>();
  const labels = new Set<string>();
  for (const node of graph.nodes.values()) {
    for (const label of node.labels) labels.add(label);
    for (const [key, value] of Object.entries(node.properties)) properties.add(propertyTriple('n', node.id, key, value));
  }
  for (const edge of graph.edges.values()) {
    for (const [key, value] of Object.entries(edge.properties)) properties.add(propertyTriple('r', edge.id, key, value));
  }
  return { nodes: new Set(graph.nodes.keys()), relationships: new Set(graph.edges.keys()), properties, labels };
}

export function sideEffectsBetween(before: GraphSnapshot, after: GraphSnapshot): SideEffects {
  const added = (a: Set<string>, b: Set<string>) => [...b].filter((item) => !a.has(item)).length;
  return {
    '+nodes': added(before.nodes, after.nodes),
    '-nodes': added(after.nodes, before.nodes),
    '+relationships': added(before.relationships, after.relationships),
    '-relationships': added(after.relationships, before.relationships),
    '+properties': added(before.properties, after.properties),
    '-properties': added(after.properties, before.properties),
    '+labels': added(before.labels, after.labels),
    '-labels': added(after.labels, before.labels),
  };
}

/** The differences between expected and measured side effects, or undefined when none. */
export function compareSideEffects(expected: SideEffects, actual: SideEffects): string | undefined {
  const wrong = SIDE_EFFECT_KEYS.filter((key) => expected[key] !== actual[key]).map((key) => `${key}: expected ${expected[key]}, got ${actual[key]}`);
  return wrong.length ? `side effects differ: ${wrong.join('; ')}` : undefined;
}

function propertyTriple(entityKind: string, id: string, key: string, value: unknown): string {
  return `${entityKind} ${JSON.stringify(id)} ${JSON.stringify(key)} ${valueKey(value)}`;
}

/** A stable key for a stored value; bigints allowed, because the engine may store integers as bigints. */
function valueKey(value: unknown): string {
  if (typeof value === 'bigint') return value.toString() + 'n';
  if (Array.isArray(value)) return '[' + value.map(valueKey).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + valueKey(v)).join(',') + '}';
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
