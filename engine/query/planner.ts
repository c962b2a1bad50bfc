/**
 * Orders the base literals of one MATCH by selectivity (DESIGN.md decision 2: a
 * naive order cost 100x at 100k facts). Greedy: at each step take the cheapest
 * way to bind more of the pattern, where the cost of a scan is how many nodes or
 * edges it yields (GraphIndex statistics) and the cost of an expansion from a
 * bound node is the average fan-out of its relationship types.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { PropertyValue } from '../ontology/index.ts';
import { RECORD_FIELD_KEYS } from './values.ts';

export interface PlanNode {
  name: string;
  labels: string[];
  /** Property equalities whose value is known before the query runs (literals and parameters). */
  constantProps: { key: string; value: PropertyValue }[];
  /** `n.key IN [literals]`: the property is one of these values (null left out: it is in no list). */
  constantSets: { key: string; values: PropertyValue[] }[];
  /** `id(n) = constant`: the node is one dictionary lookup away. */
  id?: string;
  bound: boolean;
}

export interface PlanRel {
  name: string;
  from: string;
  to: string;
  types: string[];
  direction: 'out' | 'in' | 'both';
  varLength?: { min: number; max: number };
  bound: boolean;
}

export type NodeAccess =
  | { kind: 'id' }
  | { kind: 'label'; label: string }
  | { kind: 'prop'; key: string; value: PropertyValue }
  /** One index lookup per value of `n.key IN [...]`. */
  | { kind: 'propIn'; key: string; values: PropertyValue[] }
  | { kind: 'all' };

export type PlanOp =
  | { op: 'scanNode'; node: string; access: NodeAccess; estimate: number }
  | { op: 'expand'; rel: string; from: string; to: string; reversed: boolean; estimate: number }
  | { op: 'scanEdges'; rel: string; estimate: number }
  | { op: 'checkRel'; rel: string; estimate: number };

export function nodeAccess(node: PlanNode, graph: GraphIndex): { access: NodeAccess; estimate: number } {
  if (node.id !== undefined) return { access: { kind: 'id' }, estimate: graph.node(node.id) ? 1 : 0 };
  let best: { access: NodeAccess; estimate: number } = { access: { kind: 'all' }, estimate: graph.nodeCount };
  for (const label of node.labels) {
    const count = graph.labelCount(label);
    if (count < best.estimate || best.access.kind === 'all') best = { access: { kind: 'label', label }, estimate: count };
  }
  // the property index holds properties: a record field read as one (a node's confidence) is not in it
  for (const { key, value } of node.constantProps) {
    if (value === null || typeof value === 'object' || RECORD_FIELD_KEYS.has(key)) continue;
    const count = graph.propertyValueCount(key, value);
    if (count < best.estimate) best = { access: { kind: 'prop', key, value }, estimate: count };
  }
  for (const { key, values } of node.constantSets) {
    if (RECORD_FIELD_KEYS.has(key)) continue;
    const count = values.reduce((sum: number, value) => sum + graph.propertyValueCount(key, value), 0);
    if (count < best.estimate) best = { access: { kind: 'propIn', key, values }, estimate: count };
  }
  return best;
}

function typeCount(rel: PlanRel, graph: GraphIndex): number {
  if (rel.types.length === 0) return graph.edgeCount;
  return rel.types.reduce((sum, type) => sum + graph.edgeTypeCount(type), 0);
}

function fanOut(rel: PlanRel, graph: GraphIndex): number {
  const perNode = typeCount(rel, graph) / Math.max(1, graph.nodeCount);
  const oneHop = rel.direction === 'both' ? 2 * perNode : perNode;
  if (!rel.varLength) return oneHop;
  // a variable-length step costs the sum of its hop counts, capped to keep estimates finite
  let total = rel.varLength.min === 0 ? 1 : 0;
  for (let hops = Math.max(1, rel.varLength.min); hops <= Math.min(rel.varLength.max, 4); hops++) total += Math.max(oneHop, 1) ** hops;
  return total;
}

function selectivity(node: PlanNode, graph: GraphIndex): number {
  if (node.bound) return 1;
  const { estimate } = nodeAccess(node, graph);
  return node.labels.length === 0 && node.constantProps.length === 0 && node.constantSets.length === 0 && node.id === undefined ? 1 : estimate / Math.max(1, graph.nodeCount);
}

/** `start`: a node to scan first, whatever it costs (plan.ts countedNodeOf). */
export function planPattern(nodes: PlanNode[], rels: PlanRel[], graph: GraphIndex, start?: string): PlanOp[] {
  const nodeByName = new Map(nodes.map((node) => [node.name, node]));
  const bound = new Set(nodes.filter((node) => node.bound).map((node) => node.name));
  const remainingRels = [...rels];
  const ops: PlanOp[] = [];
  const first = start === undefined || bound.has(start) ? undefined : nodeByName.get(start);
  if (first) {
    ops.push({ op: 'scanNode', node: first.name, ...nodeAccess(first, graph) });
    bound.add(first.name);
  }

  while (remainingRels.length > 0 || nodes.some((node) => !bound.has(node.name))) {
    // the cheapest step, the relationship it takes (if any) and the names it binds
    let best: { op: PlanOp; cost: number; rel?: PlanRel; binds: string[] } | undefined;
    for (const rel of remainingRels) {
      if (rel.bound) {
        if (!best || 0 < best.cost) best = { op: { op: 'checkRel', rel: rel.name, estimate: 1 }, cost: 0, rel, binds: [rel.from, rel.to] };
        continue;
      }
      const fromBound = bound.has(rel.from);
      const toBound = bound.has(rel.to);
      if (fromBound || toBound) {
        const reversed = !fromBound;
        const target = nodeByName.get(reversed ? rel.from : rel.to)!;
        const targetBound = bound.has(target.name);
        const estimate = targetBound ? fanOut(rel, graph) / Math.max(1, graph.nodeCount) : fanOut(rel, graph) * selectivity(target, graph);
        if (!best || estimate < best.cost) {
          best = { op: { op: 'expand', rel: rel.name, from: reversed ? rel.to : rel.from, to: target.name, reversed, estimate }, cost: estimate, rel, binds: [target.name] };
        }
      } else if (!rel.varLength) {
        const estimate = typeCount(rel, graph) * (rel.direction === 'both' ? 2 : 1);
        if (!best || estimate < best.cost) best = { op: { op: 'scanEdges', rel: rel.name, estimate }, cost: estimate, rel, binds: [rel.from, rel.to] };
      }
    }
    for (const node of nodes) {
      if (bound.has(node.name)) continue;
      const { access, estimate } = nodeAccess(node, graph);
      if (!best || estimate < best.cost) best = { op: { op: 'scanNode', node: node.name, access, estimate }, cost: estimate, binds: [node.name] };
    }
    const chosen = best!;
    if (chosen.rel) remainingRels.splice(remainingRels.indexOf(chosen.rel), 1);
    for (const name of chosen.binds) bound.add(name);
    ops.push(chosen.op);
  }
  return ops;
}
