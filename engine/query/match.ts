/**
 * The join steps of a MATCH (build.ts makes them from the plan's goals), run
 * depth-first over one mutable row: each step binds slots from a GraphIndex lookup
 * or tests the row, and calls the next; a completed row is
 * handed to `emit`, which may return true to stop early (existence checks).
 * Relationship isomorphism: within one MATCH, no relationship is used twice.
 */
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { recordedBy } from '../store/view.ts';
import type { Env, Fn, PatternRunner, Row } from './types.ts';
import { type CypherValue, equals, fromProperty, isNode, isRel, runtimeError, typeName } from './values.ts';

/** The labels and property values a node must have: checked as the step that binds it runs. */
export interface NodeCheck {
  labels: string[];
  props: { key: string; fn: Fn }[];
  /** The external id the node must have (`id(n) = value`). */
  id?: Fn;
}

export type MatchStep =
  | ({ kind: 'scanNode'; slot: number; access: { kind: 'id'; fn: Fn } | { kind: 'label'; label: string } | { kind: 'prop'; key: string; fn: Fn } | { kind: 'all' } } & NodeCheck)
  | ExpandStep
  | {
      kind: 'scanEdges' | 'checkRel';
      relSlot: number;
      fromSlot: number;
      toSlot: number;
      fromBound: boolean;
      toBound: boolean;
      direction: 'out' | 'in' | 'both';
      types: string[];
      relProps: { key: string; fn: Fn }[];
      fromCheck: NodeCheck;
      toCheck: NodeCheck;
    }
  | ({ kind: 'checkNode'; slot: number } & NodeCheck)
  | { kind: 'filter'; fn: Fn }
  | { kind: 'bindPath'; slot: number; nodeSlots: number[]; relSlots: number[] };

type ExpandStep = {
  kind: 'expand' | 'varExpand';
  sourceSlot: number;
  targetSlot: number;
  targetBound: boolean;
  relSlot: number;
  direction: 'out' | 'in' | 'both';
  types: string[];
  relProps: { key: string; fn: Fn }[];
  min: number;
  max: number;
  /** The expansion walks the pattern right to left: the relationship list is reversed when bound. */
  reversed: boolean;
} & NodeCheck;

type Next = () => boolean;

function nodePasses(node: NodeRecord, check: NodeCheck, row: Row, env: Env): boolean {
  if (!recordedBy(node, env.asOf)) return false;
  for (const label of check.labels) if (!node.labels.includes(label)) return false;
  if (check.id && equals(node.id, check.id(row, env)) !== true) return false;
  for (const { key, fn } of check.props) if (equals(fromProperty(node.properties[key]), fn(row, env)) !== true) return false;
  return true;
}

function relPasses(edge: EdgeRecord, props: { key: string; fn: Fn }[], row: Row, env: Env): boolean {
  if (!recordedBy(edge, env.asOf)) return false;
  for (const { key, fn } of props) if (equals(fromProperty(edge.properties[key]), fn(row, env)) !== true) return false;
  return true;
}

function boundNode(value: CypherValue): NodeRecord | null {
  if (value === null || value === undefined) return null;
  if (!isNode(value)) throw runtimeError('TypeError', 'VariableTypeConflict', `expected a node, got ${typeName(value)}`);
  return value.$node;
}

export function buildMatchRunner(steps: MatchStep[]): PatternRunner {
  return (row: Row, env: Env, emit: (row: Row) => boolean | void, live = false) => {
    const used: string[] = [];
    const run = (index: number): boolean => {
      if (index === steps.length) return emit(live ? row : row.slice()) === true;
      return runStep(steps[index], row, env, used, () => run(index + 1));
    };
    run(0);
  };
}

/** Hands each match of the steps before `from` (the live row) with how many ways the steps from `from` on complete it; never 0. */
export type CountingRunner = (row: Row, env: Env, emit: (row: Row, count: number) => void) => void;

export function buildCountingRunner(steps: MatchStep[], from: number): CountingRunner {
  const tail = steps[from];
  // one expansion and its checks: count the edges that pass without binding anything
  const single = steps.length === from + 1 && tail.kind === 'expand' ? tail : undefined;
  return (row, env, emit) => {
    const used: string[] = [];
    let count = 0;
    const countTail = (index: number): boolean => {
      if (index === steps.length) {
        count++;
        return false;
      }
      return runStep(steps[index], row, env, used, () => countTail(index + 1));
    };
    const run = (index: number): boolean => {
      if (index < from) return runStep(steps[index], row, env, used, () => run(index + 1));
      count = single ? countExpand(single, row, env, used) : (countTail(from), count);
      if (count > 0) emit(row, count);
      count = 0;
      return false;
    };
    run(0);
  };
}

/** The rows an expansion step would bind, counted: the same checks as runStep's 'expand', nothing written to the row. */
function countExpand(step: ExpandStep, row: Row, env: Env, used: string[]): number {
  const source = boundNode(row[step.sourceSlot]);
  if (!source) return 0;
  const graph = env.graph;
  let count = 0;
  for (const edge of expansionEdges(graph, source.id, step)) {
    env.budget.tick();
    if ((used.length > 0 && used.includes(edge.id)) || !relPasses(edge, step.relProps, row, env)) continue;
    const other = graph.node(step.direction === 'out' ? edge.to : step.direction === 'in' ? edge.from : edge.from === source.id ? edge.to : edge.from);
    if (other && nodePasses(other, step, row, env)) count++;
  }
  return count;
}

/** The edges an expansion walks: the index's own list when one direction and type (no copy), else a collected array. */
function expansionEdges(graph: Env['graph'], nodeId: string, step: ExpandStep): readonly EdgeRecord[] {
  if (step.direction !== 'both' && step.types.length === 1) return graph.adjacent(nodeId, step.direction, step.types[0]);
  return graph.edgesOf(nodeId, step.direction, step.types.length ? step.types : undefined);
}

function runStep(step: MatchStep, row: Row, env: Env, used: string[], next: Next): boolean {
  const budget = env.budget;
  switch (step.kind) {
    case 'filter':
      return step.fn(row, env) === true ? next() : false;
    case 'checkNode': {
      const node = boundNode(row[step.slot]);
      return node !== null && nodePasses(node, step, row, env) ? next() : false;
    }
    case 'scanNode': {
      const graph = env.graph;
      let ids: Iterable<string> | undefined;
      if (step.access.kind === 'id') {
        const id = step.access.fn(row, env);
        ids = typeof id === 'string' && graph.node(id) ? [id] : [];
      } else if (step.access.kind === 'label') ids = graph.nodesWithLabel(step.access.label);
      else if (step.access.kind === 'prop') {
        const value = step.access.fn(row, env);
        if (value === null) return false;
        if (typeof value === 'string' || typeof value === 'boolean') ids = graph.nodesWithProperty(step.access.key, value);
        else if (typeof value === 'bigint' || typeof value === 'number') ids = graph.nodesWithProperty(step.access.key, Number(value));
      }
      if (ids) {
        for (const id of ids) {
          budget.tick();
          const node = graph.node(id)!;
          if (!nodePasses(node, step, row, env)) continue;
          row[step.slot] = { $node: node };
          if (next()) return true;
        }
      } else {
        for (const node of graph.nodes.values()) {
          budget.tick();
          if (!nodePasses(node, step, row, env)) continue;
          row[step.slot] = { $node: node };
          if (next()) return true;
        }
      }
      return false;
    }
    case 'expand': {
      const source = boundNode(row[step.sourceSlot]);
      if (!source) return false;
      const target = step.targetBound ? boundNode(row[step.targetSlot]) : undefined;
      if (step.targetBound && !target) return false;
      for (const edge of expansionEdges(env.graph, source.id, step)) {
        budget.tick();
        if (used.includes(edge.id) || !relPasses(edge, step.relProps, row, env)) continue;
        const otherId = step.direction === 'out' ? edge.to : step.direction === 'in' ? edge.from : edge.from === source.id ? edge.to : edge.from;
        if (target) {
          if (target.id !== otherId) continue;
        } else {
          const other = env.graph.node(otherId);
          if (!other || !nodePasses(other, step, row, env)) continue;
          row[step.targetSlot] = { $node: other };
        }
        row[step.relSlot] = { $rel: edge };
        used.push(edge.id);
        const stop = next();
        used.pop();
        if (stop) return true;
      }
      return false;
    }
    case 'varExpand':
      return varExpand(step, row, env, used, next);
    case 'scanEdges':
    case 'checkRel': {
      const graph = env.graph;
      const candidates: Iterable<EdgeRecord> =
        step.kind === 'checkRel' ? boundRels(row[step.relSlot]) : step.types.length === 0 ? graph.edges.values() : edgesOfTypes(graph, step.types);
      for (const edge of candidates) {
        budget.tick();
        if (used.includes(edge.id) || !relPasses(edge, step.relProps, row, env)) continue;
        if (step.kind === 'checkRel' && step.types.length > 0 && !step.types.includes(edge.type)) continue;
        const orientations: [string, string][] =
          step.direction === 'out' ? [[edge.from, edge.to]] : step.direction === 'in' ? [[edge.to, edge.from]] : edge.from === edge.to ? [[edge.from, edge.to]] : [[edge.from, edge.to], [edge.to, edge.from]];
        for (const [fromId, toId] of orientations) {
          if (!bindEnd(row, env, step.fromSlot, step.fromBound, fromId, step.fromCheck)) continue;
          if (!bindEnd(row, env, step.toSlot, step.toBound, toId, step.toCheck)) continue;
          if (step.kind === 'scanEdges') row[step.relSlot] = { $rel: edge };
          used.push(edge.id);
          const stop = next();
          used.pop();
          if (stop) return true;
        }
      }
      return false;
    }
    case 'bindPath': {
      const nodes: NodeRecord[] = [];
      const rels: EdgeRecord[] = [];
      nodes.push((row[step.nodeSlots[0]] as { $node: NodeRecord }).$node);
      for (let i = 0; i < step.relSlots.length; i++) {
        const value = row[step.relSlots[i]];
        const segment = Array.isArray(value) ? value.map((rel) => (rel as { $rel: EdgeRecord }).$rel) : [(value as { $rel: EdgeRecord }).$rel];
        let current = nodes[nodes.length - 1].id;
        for (const rel of segment) {
          rels.push(rel);
          current = rel.from === current ? rel.to : rel.from;
          nodes.push(env.graph.node(current)!);
        }
      }
      row[step.slot] = { $path: { nodes, rels } };
      return next();
    }
  }
}

function* edgesOfTypes(graph: Env['graph'], types: string[]): Iterable<EdgeRecord> {
  for (const type of types) for (const id of graph.edgesWithType(type)) yield graph.edge(id)!;
}

function boundRels(value: CypherValue): EdgeRecord[] {
  if (value === null || value === undefined) return [];
  if (!isRel(value)) throw runtimeError('TypeError', 'VariableTypeConflict', `expected a relationship, got ${typeName(value)}`);
  return [value.$rel];
}

function bindEnd(row: Row, env: Env, slot: number, bound: boolean, id: string, check: NodeCheck): boolean {
  if (bound) {
    const node = boundNode(row[slot]);
    return node !== null && node.id === id;
  }
  const node = env.graph.node(id);
  if (!node || !nodePasses(node, check, row, env)) return false;
  row[slot] = { $node: node };
  return true;
}

function varExpand(step: ExpandStep, row: Row, env: Env, used: string[], next: Next): boolean {
  const source = boundNode(row[step.sourceSlot]);
  if (!source) return false;
  const target = step.targetBound ? boundNode(row[step.targetSlot]) : undefined;
  if (step.targetBound && !target) return false;
  const path: EdgeRecord[] = [];
  const types = step.types.length ? step.types : undefined;
  const arrive = (nodeId: string): boolean => {
    if (target) {
      if (target.id !== nodeId) return false;
    } else {
      const node = env.graph.node(nodeId);
      if (!node || !nodePasses(node, step, row, env)) return false;
      row[step.targetSlot] = { $node: node };
    }
    const rels = path.map((edge) => ({ $rel: edge }));
    row[step.relSlot] = step.reversed ? rels.reverse() : rels;
    return next();
  };
  const walk = (nodeId: string): boolean => {
    env.budget.tick();
    if (path.length >= step.min && arrive(nodeId)) return true;
    if (path.length >= step.max) return false;
    for (const edge of env.graph.edgesOf(nodeId, step.direction, types)) {
      if (used.includes(edge.id) || !relPasses(edge, step.relProps, row, env)) continue;
      const otherId = step.direction === 'out' ? edge.to : step.direction === 'in' ? edge.from : edge.from === nodeId ? edge.to : edge.from;
      used.push(edge.id);
      path.push(edge);
      const stop = walk(otherId);
      path.pop();
      used.pop();
      if (stop) return true;
    }
    return false;
  };
  return walk(source.id);
}
