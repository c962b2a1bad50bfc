/**
 * The join steps of a MATCH (build.ts makes them from the plan's goals), run
 * depth-first over one mutable row: each step binds slots from a GraphIndex lookup
 * or tests the row, and calls the next; a completed row is
 * handed to `emit`, which may return true to stop early (existence checks).
 * Relationship isomorphism: within one MATCH, no relationship is used twice.
 */
import type { EdgeRecord, NodeRecord, PropertyValue } from '../ontology/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { recordedBy } from '../store/view.ts';
import type { Expr } from './ast.ts';
import type { GroupCounts, PairSide } from './plan.ts';
import type { Env, Fn, PatternCounter, PatternRunner, PatternTest, Row } from './types.ts';
import { type CypherValue, equals, fromProperty, isNode, isRel, nodeProperty, RECORD_FIELD_KEYS, relProperty, runtimeError, typeName } from './values.ts';

/** The labels and property values a node must have: checked as the step that binds it runs. */
export interface NodeCheck {
  labels: string[];
  /** The property's value equals fn's, or with `among`, equals one item of fn's list (`n.key IN [...]`). */
  props: { key: string; fn: Fn; among?: boolean }[];
  /** The external id the node must have (`id(n) = value`). */
  id?: Fn;
}

export type MatchStep =
  /** `propIn`: `n.key IN [...]`, each of its values looked up (the planner's, distinct, none null: plan.ts listedValues). */
  | ({ kind: 'scanNode'; slot: number; access: { kind: 'id'; fn: Fn } | { kind: 'label'; label: string } | { kind: 'prop'; key: string; fn: Fn } | { kind: 'propIn'; key: string; values: PropertyValue[] } | { kind: 'all' } } & NodeCheck)
  | ExpandStep
  | RelationshipStep
  | ({ kind: 'checkNode'; slot: number } & NodeCheck)
  /** `where`: the WHERE goal's expression, by which a counter knows the filter it applies itself (MatchPlan.endNotStart). */
  | { kind: 'filter'; fn: Fn; where?: Expr }
  /** innerSlots: per relationship, where its variable-length walk left the nodes it passed through (-1: a single relationship). */
  | { kind: 'bindPath'; slot: number; nodeSlots: number[]; relSlots: number[]; innerSlots: number[] };

/** What every step that walks a relationship checks of it: its slot, direction, types and properties. */
type RelationshipWalk = {
  relSlot: number;
  direction: 'out' | 'in' | 'both';
  types: string[];
  relProps: { key: string; fn: Fn }[];
};

/** A relationship scanned by type, or one the row binds checked against the pattern. */
type RelationshipStep = RelationshipWalk & {
  kind: 'scanEdges' | 'checkRel';
  fromSlot: number;
  toSlot: number;
  fromBound: boolean;
  toBound: boolean;
  fromCheck: NodeCheck;
  toCheck: NodeCheck;
};

type ExpandStep = RelationshipWalk & {
  kind: 'expand' | 'varExpand';
  sourceSlot: number;
  targetSlot: number;
  targetBound: boolean;
  min: number;
  max: number;
  /** The expansion walks the pattern right to left: the relationship list is reversed when bound. */
  reversed: boolean;
  /** Whether the relationship is written to its slot: not for an anonymous one no path reads. */
  bindRel: boolean;
  /** Where a variable-length walk a named path reads writes the dense ids of the nodes it passed through, in the path's order (-1: none): their records are read only for a row the path binds. */
  innerSlot: number;
  /** The target's labels and the edge types as ints in the graph last run on, once all of them had one (a graph never withdraws an int it gave). */
  ids?: { graph: GraphIndex; labels: number[]; types: number[] | undefined };
} & NodeCheck;

type Next = () => boolean;

function nodePasses(node: NodeRecord, check: NodeCheck, row: Row, env: Env): boolean {
  if (!recordedBy(node, env.asOf)) return false;
  for (const label of check.labels) if (!node.labels.includes(label)) return false;
  if (check.id && equals(node.id, check.id(row, env)) !== true) return false;
  for (const { key, fn, among } of check.props) {
    // as `n.key` reads it (a node's confidence falls back to its record's)
    const value = nodeProperty(node, key);
    if (among ? !(fn(row, env) as CypherValue[]).some((item) => equals(value, item) === true) : equals(value, fn(row, env)) !== true) return false;
  }
  return true;
}

function relPasses(edge: EdgeRecord, props: { key: string; fn: Fn }[], row: Row, env: Env): boolean {
  if (!recordedBy(edge, env.asOf)) return false;
  for (const { key, fn } of props) if (equals(relProperty(edge, key), fn(row, env)) !== true) return false;
  return true;
}

function boundNode(value: CypherValue): NodeRecord | null {
  if (value === null || value === undefined) return null;
  if (!isNode(value)) throw runtimeError('TypeError', 'VariableTypeConflict', `expected a node, got ${typeName(value)}`);
  return value.$node;
}

export function buildMatchRunner(steps: MatchStep[]): PatternRunner {
  return (row: Row, env: Env, emit: (row: Row) => boolean | void, live = false) => {
    const used: number[] = [];
    const run = (index: number): boolean => {
      if (index === steps.length) return emit(live ? row : row.slice()) === true;
      return runStep(steps[index], row, env, used, () => run(index + 1));
    };
    run(0);
  };
}

/** Hands each match of the steps before `from` (the live row) with how many ways the steps from `from` on complete it; 0 only when it keeps zeros. */
export type CountingRunner = (row: Row, env: Env, emit: (row: Row, count: number) => void) => void;

/** The edges a pattern has walked before its first step. */
const NO_EDGES: readonly number[] = [];

/** How the counted steps count (MatchPlan.zeroCounts, MatchPlan.distinctEnds). */
export interface CountOptions {
  /** The counted steps are an OPTIONAL MATCH's: a match they do not complete is handed on with 0. */
  keepZeros?: boolean;
  /** The counted steps are a chain of expansions, counted by the distinct nodes the last reaches. */
  distinctEnds?: boolean;
  /** With distinctEnds, the WHERE that the chain's ends differ (MatchPlan.endNotStart), one filter among the counted steps. */
  endNotStart?: Expr;
  /** A row the counted steps complete counts 1, however many ways they complete it (MatchPlan.countsOnce). */
  once?: boolean;
}

export function buildCountingRunner(steps: MatchStep[], from: number, { keepZeros = false, distinctEnds = false, once = false }: CountOptions = {}): CountingRunner {
  const tail = steps[from];
  // one expansion and its checks: count the edges that pass without binding anything
  const single = steps.length === from + 1 && tail.kind === 'expand' ? tail : undefined;
  if (single && from === 0 && !distinctEnds && !once) {
    // the whole pattern one expansion from the row (an OPTIONAL MATCH per row before): no closure per row
    return (row, env, emit) => {
      const count = countExpand(single, row, env, NO_EDGES);
      if (count > 0 || keepZeros) emit(row, count);
    };
  }
  // distinct ends over a chain: the node each completion binds last, by dense id
  const endSlot = distinctEnds && !single ? lastExpansion(steps).targetSlot : -1;
  return (row, env, emit) => {
    const used: number[] = [];
    const ends = endSlot >= 0 ? new Set<number>() : undefined;
    let count = 0;
    const countTail = (index: number): boolean => {
      if (index === steps.length) {
        if (ends) ends.add(env.graph.denseNode((row[endSlot] as { $node: NodeRecord }).$node));
        else count++;
        // counted once: the first completion settles the row, and the walk stops
        return once;
      }
      return runStep(steps[index], row, env, used, () => countTail(index + 1));
    };
    const run = (index: number): boolean => {
      if (index < from) return runStep(steps[index], row, env, used, () => run(index + 1));
      count = single ? countExpand(single, row, env, used, distinctEnds) : (countTail(from), ends ? ends.size : count);
      if (count > 0 || keepZeros) emit(row, once ? Math.min(count, 1) : count);
      count = 0;
      ends?.clear();
      return false;
    };
    run(0);
  };
}

/** The last expansion of steps the planner made a chain of (plan.ts countDistinctEnds). */
function lastExpansion(steps: MatchStep[]): ExpandStep {
  const last = steps.filter((step): step is ExpandStep => step.kind === 'expand').at(-1);
  // the planner asks for distinct ends only over a chain of expansions: anything else is its bug, not a query's error
  if (!last) throw new Error('invariant broken: the planner asked to count distinct ends over steps with no expansion');
  return last;
}

/**
 * Hands one row per group with the number of rows it stands for (MatchPlan.countsPerGroup), the
 * group's key bound to one of its elements; false, handing nothing, in a past view (as_of), whose
 * elements the index does not count.
 */
export type GroupCounter = (row: Row, env: Env, emit: (row: Row, count: number) => void) => boolean;

export function buildGroupCounter(counts: GroupCounts): GroupCounter {
  return (row, env, emit) => {
    if (env.asOf !== undefined) return false;
    const graph = env.graph;
    if (counts.by === 'type') {
      for (const { count, first } of graph.edgesPerType(counts.types.length === 0 ? undefined : graph.typeIdsOf(counts.types))) {
        row[counts.relSlot] = { $rel: first };
        emit(row, count);
      }
    } else {
      for (const { count, first } of graph.nodesPerLabels()) {
        row[counts.nodeSlot] = { $node: first };
        emit(row, count);
      }
    }
    return true;
  };
}

/** How many ways the steps complete from a row that binds what they start from; the row is left as it was. */
export function buildPatternCounter(steps: MatchStep[]): PatternCounter {
  const [first] = steps;
  // one expansion from a bound node: counted off the adjacency, nothing bound, no copy of the row
  if (steps.length === 1 && first.kind === 'expand') return (row, env) => countExpand(first, row, env, NO_EDGES);
  const counter = buildCountingRunner(steps, 0, { keepZeros: true });
  return (row, env) => {
    let matches = 0;
    counter(row.slice(), env, (_row, count) => (matches = count));
    return matches;
  };
}

/** Whether the steps complete at all from a row that binds what they start from; the row is left as it was. */
export function buildPatternTest(steps: MatchStep[]): PatternTest {
  const [first] = steps;
  // one expansion from a bound node: its edges walked until one passes (a hub's are not all read), nothing bound, no copy of the row
  if (steps.length === 1 && first.kind === 'expand') {
    return (row, env) => {
      const ends = expansionEnds(first, row, env);
      return ends !== undefined && eachPassingEnd(first, ends, row, env, NO_EDGES, () => true);
    };
  }
  const runner = buildMatchRunner(steps);
  return (row, env) => {
    let found = false;
    // the first match settles it, and stops the walk
    runner(row.slice(), env, () => (found = true));
    return found;
  };
}

/**
 * Per node of a label scan, how many ways the counted expansions from it complete: the
 * counts of a MATCH whose prefix is one label scan and whose tail a chain of expansions
 * (each from the node the one before reached) that labels alone check, in one array
 * indexed by dense node id (0: no completion, or a node not scanned), with no row per
 * node. A node's count is the sum, over the edges of its first expansion, of the counts
 * of the nodes they reach, each node's count computed once per hop. Built only for such
 * steps whose expansions share no edge type (relationship isomorphism then excludes
 * nothing); undefined when this run cannot use it (as_of reads every record).
 */
export type DenseCounter = (row: Row, env: Env) => PerNodeCounts | undefined;

/**
 * A DenseCounter's answer: `counts` by dense node id, and `nodes`, the dense ids with a count
 * (every scanned node, when it keeps zeros) in the order their groups begin (ascending, for a scan), so that what reads the counts walks the counted nodes alone, not every
 * node of the graph (a scanned label is often a fifth of them).
 */
export interface PerNodeCounts {
  counts: Float64Array;
  nodes: Int32Array;
  /** By dense node id, its place in `nodes`, where that is not ascending: what ties are broken by. */
  rank?: Int32Array;
}

export function buildDenseCounter(steps: MatchStep[], from: number, { keepZeros = false, distinctEnds = false, endNotStart, once = false }: CountOptions = {}): DenseCounter | undefined {
  const [scan, ...rest] = steps;
  if (from !== 1 || scan.kind !== 'scanNode' || scan.access.kind !== 'label') return undefined;
  // the ends' WHERE is the chain's last step: applied below by node, not run
  const lastStep = rest.at(-1);
  const chain = endNotStart && lastStep?.kind === 'filter' && lastStep.where === endNotStart ? rest.slice(0, -1) : rest;
  const hops: ExpandStep[] = [];
  const types = new Set<string>();
  let sharedTypes = false;
  for (const hop of chain) {
    if (hop.kind !== 'expand' || hop.sourceSlot !== (hops.at(-1)?.targetSlot ?? scan.slot) || hop.targetBound || hop.direction === 'both') return undefined;
    if (hop.types.length === 0 || hop.relProps.length > 0 || !plainNode(hop, {})) return undefined;
    if (hop.types.some((type) => types.has(type))) sharedTypes = true;
    for (const type of hop.types) types.add(type);
    hops.push(hop);
  }
  // counting through memoised per-node counts assumes no edge can be met twice on one path
  if ((sharedTypes && !distinctEnds) || (endNotStart && chain.length === rest.length)) return undefined;
  const { label } = scan.access;
  // the label's bit is set on live nodes only: with nothing else to check, no record is read
  const plainScan = scan.labels.length === 0 && plainNode(scan, {});
  return (row, env) => {
    if (env.asOf !== undefined) return undefined;
    const graph = env.graph;
    const counts = new Float64Array(graph.nodes.span);
    const scanned = graph.labelId(label);
    const ids = scanned >= 0 ? hops.map((hop) => expansionIds(hop, graph)) : [];
    if (scanned < 0 || ids.some((hop) => hop?.types === undefined)) return { counts, nodes: new Int32Array(0) };
    const last = ids.length - 1;
    // per hop after the first, the counts of the nodes reached so far (-1: not yet counted)
    const memo = ids.map((_, hop) => (hop === 0 || distinctEnds ? undefined : new Float64Array(graph.nodes.span).fill(-1)));
    // distinct ends: each path walked from the scanned node (what a node reaches depends on where the walk
    // began, so nothing is memoised), each end counted once, marked with the scanned node it was reached from
    const reachedFrom = distinctEnds ? new Int32Array(graph.nodes.span) : undefined;
    const path = new Int32Array(hops.length);
    const distinctCompletions = (start: number, node: number, hop: number): number => {
      const { labels, types } = ids[hop]!;
      let count = 0;
      graph.eachEdge(node, hops[hop].direction, types, (edge, other) => {
        env.budget.tick();
        // relationship isomorphism: an edge an earlier hop of this path walked is not walked again
        if (sharedTypes) for (let earlier = 0; earlier < hop; earlier++) if (path[earlier] === edge) return;
        for (const label of labels) if (!graph.hasLabel(other, label)) return;
        if (hop < last) {
          path[hop] = edge;
          count += distinctCompletions(start, other, hop + 1);
        } else if (reachedFrom![other] !== start + 1 && !(endNotStart && other === start)) {
          reachedFrom![other] = start + 1;
          count++;
        }
      });
      return count;
    };
    const completions = (node: number, hop: number): number => {
      const { labels, types } = ids[hop]!;
      const { direction } = hops[hop] as { direction: 'out' | 'in' };
      let count = 0;
      if (hop === last) {
        for (const type of types!) count += graph.countEdges(node, direction, type, labels);
        return count;
      }
      const known = memo[hop + 1]!;
      graph.eachEdge(node, direction, types, (_, other) => {
        env.budget.tick();
        for (const label of labels) if (!graph.hasLabel(other, label)) return;
        if (known[other] < 0) known[other] = completions(other, hop + 1);
        count += known[other];
      });
      return count;
    };
    // (the label's node count bounds the nodes its bits hold)
    const nodes = new Int32Array(graph.labelCount(label));
    let counted = 0;
    graph.eachNodeWithLabel(scanned, (node) => {
      env.budget.tick();
      if (!plainScan) {
        const record = graph.nodeAt(node);
        if (!record || !nodePasses(record, scan, row, env)) return;
      }
      // no expansion after the scan (plan.ts countScannedNodes): the node is its one completion
      const count = hops.length === 0 ? 1 : distinctEnds ? distinctCompletions(node, node, 0) : completions(node, 0);
      counts[node] = once ? Math.min(count, 1) : count;
      if (count !== 0 || keepZeros) nodes[counted++] = node;
    });
    return { counts, nodes: nodes.subarray(0, counted) };
  };
}

/**
 * By dense node id, the least node holding the same value of `key` (GraphIndex.firstHoldersOf): what the
 * counted paths tell a property's groups apart by. Undefined where they cannot: a node holds a list or a map
 * there, or the key is one a record answers from its own fields (`confidence`), which the index does not hold.
 */
export function valueHolders(graph: GraphIndex, key: string): Int32Array | undefined {
  return RECORD_FIELD_KEYS.has(key) ? undefined : graph.firstHoldersOf(key);
}

/**
 * Per node the last step reaches, how many rows the steps make (MatchPlan.countsPerEnd): the
 * steps before it run as ever, and each edge it would bind counts toward the node at its far
 * end, no row made. The nodes in the order the rows would first bind each, which `rank`
 * holds. Answers undefined when a run cannot use it (as_of reads every record).
 * With `distinctStarts` (MatchPlan.distinctStartsPerEnd) each row before counts once per group: per
 * node reached, or per value of its property `key`, counted on the first node reached holding it.
 */
export function buildEndCounter(steps: MatchStep[], distinctStarts?: { key?: string }): DenseCounter {
  const last = steps.at(-1);
  // the planner (plan.ts countPerEnd) asks for this only over such steps: anything else is its bug, not a query's error
  if (last?.kind !== 'expand' || last.targetBound || last.direction === 'both' || steps.slice(0, -1).some((step) => step.kind === 'expand')) {
    throw new Error('invariant broken: the planner asked to count per reached node over steps that are not one expansion after steps binding none');
  }
  const before = buildMatchRunner(steps.slice(0, -1));
  const key = distinctStarts?.key;
  return (row, env) => {
    if (env.asOf !== undefined) return undefined;
    const graph = env.graph;
    const span = graph.nodes.span;
    const counts = new Float64Array(span);
    const rank = new Int32Array(span);
    let reached = 0;
    // a group: the node reached, or the least node holding its value of `key` (span: the nodes holding none)
    const holders = key === undefined ? undefined : valueHolders(graph, key);
    if (key !== undefined && !holders) return undefined;
    const countRow = (other: number) => {
      if (counts[other]++ === 0) rank[other] = reached++;
    };
    // per group, the last row before that counted there, and the node reached first, which holds its count
    const lastCounted = new Int32Array(distinctStarts ? span + 1 : 0).fill(-1);
    const countedOn = new Int32Array(distinctStarts ? span + 1 : 0).fill(-1);
    let start = 0;
    const countStartOnce = (other: number) => {
      const group = holders ? (holders[other] < 0 ? span : holders[other]) : other;
      if (lastCounted[group] === start) return;
      lastCounted[group] = start;
      if (countedOn[group] < 0) rank[(countedOn[group] = other)] = reached++;
      counts[countedOn[group]]++;
    };
    const count = distinctStarts ? countStartOnce : countRow;
    before(row, env, (bound) => {
      const ends = expansionEnds(last, bound, env);
      start++;
      if (ends) eachPassingEnd(last, ends, bound, env, NO_EDGES, count);
    }, true);
    const nodes = new Int32Array(reached);
    for (let node = 0; node < counts.length; node++) if (counts[node] > 0) nodes[rank[node]] = node;
    return { counts, nodes, rank };
  };
}

/**
 * A MATCH's counts per pair of groups (MatchPlan.countsPerPair), in the order the rows would
 * first make each pair: pair i's count, and per side the node its row binds, the group's node or
 * the least node holding its value (the aggregation reads no more of a side than that value:
 * plan.ts countPerPair), or for the nodes holding none the first such node reached.
 */
export interface PerPairCounts {
  counts: Float64Array;
  sourceNodes: Int32Array;
  endNodes: Int32Array;
}

/** Counts per pair (PerPairCounts); undefined, counting nothing, where a run cannot use them. */
export type PairCounter = (row: Row, env: Env) => PerPairCounts | undefined;

/**
 * Counts per pair group off the last step's edges: the steps before it run as ever, and each edge
 * it would bind counts toward the pair of its start's group and its end's, no row made. A side's
 * group is its node, or the least node holding the same value of the side's key
 * (GraphIndex.firstHoldersOf), so no value is read or hashed per edge. Undefined where a run
 * cannot use it: as_of (which reads every record) or a key some node holds a list or a map under.
 */
export function buildPairCounter(steps: MatchStep[], { source, end }: { source: PairSide; end: PairSide }): PairCounter {
  const last = steps.at(-1);
  // the planner (plan.ts countPerPair) asks for this only over such steps: anything else is its bug, not a query's error
  if (last?.kind !== 'expand' || last.targetBound || last.direction === 'both' || last.sourceSlot !== source.slot || last.targetSlot !== end.slot || steps.slice(0, -1).some((step) => step.kind === 'expand')) {
    throw new Error('invariant broken: the planner asked to count pairs over steps that are not one expansion after steps binding its start');
  }
  const before = buildMatchRunner(steps.slice(0, -1));
  // one label scanned, nothing else checked, and an expansion checking its end's labels alone: walked off the
  // label's bits and the adjacency, with no row bound, no record read and no closure made per node
  const [scan] = steps;
  const scannedLabel = steps.length === 2 && scan.kind === 'scanNode' && scan.access.kind === 'label' && scan.labels.length === 0 && plainNode(scan, {}) && last.relProps.length === 0 && plainNode(last, {}) ? scan.access.label : undefined;
  return (row, env) => {
    if (env.asOf !== undefined) return undefined;
    const graph = env.graph;
    const holdersOf = (key: string | undefined) => (key === undefined ? null : valueHolders(graph, key));
    const [sourceHolders, endHolders] = [holdersOf(source.key), holdersOf(end.key)];
    if (sourceHolders === undefined || endHolders === undefined) return undefined;
    const pairs = new PairTable(env.budget, scannedLabel === undefined ? 64 : pairsAtMost(graph, scannedLabel, last, source, end));
    // a group: the node, or the least node holding its value (-1: the nodes holding none); a group's row binds the
    // node holding its value first (few, and read again and again: in cache), or one holding none
    let sourceGroup = -1;
    let sourceNode = -1;
    const begin = (start: number) => {
      sourceGroup = sourceHolders === null ? start : sourceHolders[start];
      sourceNode = sourceGroup < 0 ? start : sourceGroup;
    };
    const countEnd = (other: number) => {
      const endGroup = endHolders === null ? other : endHolders[other];
      pairs.count(sourceGroup, endGroup, sourceNode, endGroup < 0 ? other : endGroup);
    };
    if (scannedLabel !== undefined) {
      const scanned = graph.labelId(scannedLabel);
      const ids = scanned < 0 ? undefined : expansionIds(last, graph);
      const visitEdge = (_edge: number, other: number) => {
        env.budget.tick();
        if (otherPasses(graph, other, ids!.labels, last, row, env)) countEnd(other);
      };
      if (ids) {
        graph.eachNodeWithLabel(scanned, (start) => {
          env.budget.tick();
          begin(start);
          graph.eachEdge(start, last.direction, ids.types, visitEdge);
        });
      }
    } else {
      before(row, env, (bound) => {
        const ends = expansionEnds(last, bound, env);
        if (!ends) return;
        begin(ends.from);
        eachPassingEnd(last, ends, bound, env, NO_EDGES, countEnd);
      }, true);
    }
    return { counts: pairs.counts.subarray(0, pairs.size), sourceNodes: pairs.sourceNodes.subarray(0, pairs.size), endNodes: pairs.endNodes.subarray(0, pairs.size) };
  };
}

/** The most pairs a PairTable makes room for before any is counted (8 MiB of arrays): past it, it grows. */
const PAIR_ROOM_AHEAD = 2 ** 18;

/**
 * Room for the pairs a scan of every node of `label` and its expansion can make, a power of 2: no more than
 * the edges of the expansion's types, nor than the groups of one side times the other's (a side's groups: its
 * nodes, or its key's values and none), up to PAIR_ROOM_AHEAD. Growing rehashes every pair held; a query that
 * starts from few nodes takes no room ahead (it may make few pairs of many).
 */
function pairsAtMost(graph: GraphIndex, label: string, step: ExpandStep, source: PairSide, end: PairSide): number {
  const edges = step.types.length === 0 ? graph.edgeCount : step.types.reduce((sum, type) => sum + graph.edgeTypeCount(type), 0);
  const endNodes = Math.min(graph.nodeCount, ...step.labels.map((endLabel) => graph.labelCount(endLabel)));
  const groups = (side: PairSide, nodes: number) => (side.key === undefined ? nodes : Math.min(nodes, graph.distinctPropertyValues(side.key) + 1));
  const room = Math.min(edges, groups(source, graph.labelCount(label)) * groups(end, endNodes), PAIR_ROOM_AHEAD);
  return 2 ** Math.ceil(Math.log2(Math.max(room, 64)));
}

/**
 * Rows counted per pair of groups (ints, -1 among them), in an open-addressed table of typed
 * arrays: no key is boxed or hashed as a string, and nothing is left for the collector per
 * edge. Each pair keeps the two nodes its row binds, and the pairs their
 * first rows' order; the pairs held count against the cap on intermediate rows.
 */
class PairTable {
  size = 0;
  counts: Float64Array;
  sourceNodes: Int32Array;
  endNodes: Int32Array;
  private sourceGroups: Int32Array;
  private endGroups: Int32Array;
  /** By hash, a pair's place plus 1 (0: empty); twice the pairs' room, so at most half full. */
  private slots: Int32Array;

  /** `room`: the pairs expected at most, a power of 2 (the table grows past it). */
  constructor(private readonly budget: Env['budget'], room: number) {
    [this.counts, this.sourceNodes, this.endNodes] = [new Float64Array(room), new Int32Array(room), new Int32Array(room)];
    [this.sourceGroups, this.endGroups, this.slots] = [new Int32Array(room), new Int32Array(room), new Int32Array(room * 2)];
  }

  count(sourceGroup: number, endGroup: number, source: number, end: number): void {
    const mask = this.slots.length - 1;
    for (let slot = hashPair(sourceGroup, endGroup) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot] - 1;
      if (held < 0) {
        if (this.size === this.counts.length) {
          this.grow();
          this.count(sourceGroup, endGroup, source, end);
          return;
        }
        const at = this.size++;
        // at the aggregation's own cadence (Aggregator.open), so that the cap stops the same queries
        if ((this.size & 1023) === 0) this.budget.checkIntermediate(this.size);
        this.slots[slot] = at + 1;
        this.sourceGroups[at] = sourceGroup;
        this.endGroups[at] = endGroup;
        this.sourceNodes[at] = source;
        this.endNodes[at] = end;
        this.counts[at] = 1;
        return;
      }
      if (this.sourceGroups[held] === sourceGroup && this.endGroups[held] === endGroup) {
        this.counts[held]++;
        return;
      }
    }
  }

  private grow(): void {
    const room = this.counts.length * 2;
    const widened = <T extends Float64Array | Int32Array>(array: T): T => {
      const wider = new (array.constructor as new (length: number) => T)(room);
      wider.set(array);
      return wider;
    };
    [this.counts, this.sourceNodes, this.endNodes] = [widened(this.counts), widened(this.sourceNodes), widened(this.endNodes)];
    [this.sourceGroups, this.endGroups] = [widened(this.sourceGroups), widened(this.endGroups)];
    this.slots = new Int32Array(room * 2);
    const mask = this.slots.length - 1;
    for (let at = 0; at < this.size; at++) {
      let slot = hashPair(this.sourceGroups[at], this.endGroups[at]) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = at + 1;
    }
  }
}

/** A pair of ints mixed into one (a multiply-xorshift mix: neighbouring pairs land apart). */
function hashPair(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return h ^ (h >>> 15);
}

/**
 * The rows an expansion step would bind, counted (with `distinctEnds`, the distinct nodes they
 * would bind): the same checks as runStep's 'expand', nothing written to the row.
 */
function countExpand(step: ExpandStep, row: Row, env: Env, used: readonly number[], distinctEnds = false): number {
  const graph = env.graph;
  const ends = expansionEnds(step, row, env);
  if (!ends) return 0;
  const { from, target, labels, types } = ends;
  env.budget.tick();
  const relPlain = plainRel(step, env);
  if (!distinctEnds && target < 0 && used.length === 0 && types !== undefined && step.direction !== 'both' && relPlain && plainNode(step, env)) {
    // factorised: the tail's count is read off the adjacency arrays (a degree, or a label test per edge)
    let count = 0;
    for (const type of types) count += graph.countEdges(from, step.direction, type, labels);
    return count;
  }
  let count = 0;
  const reached = distinctEnds ? new Set<number>() : undefined;
  eachPassingEnd(step, ends, row, env, used, (other) => {
    if (reached) reached.add(other);
    else count++;
  });
  return reached ? reached.size : count;
}

/**
 * The far end of each edge an expansion from `ends.from` would bind, by runStep's checks: not an
 * edge the pattern walked already (`used`), the relationship's properties, the bound target or
 * the target's labels and properties. Nothing is written to the row. A visit answering true stops
 * the walk, and the answer is then true.
 */
function eachPassingEnd(step: ExpandStep, ends: NonNullable<ReturnType<typeof expansionEnds>>, row: Row, env: Env, used: readonly number[], visit: (other: number) => boolean | void): boolean {
  const graph = env.graph;
  const { from, target, labels, types } = ends;
  const relPlain = plainRel(step, env);
  return graph.eachEdge(from, step.direction, types, (edge, other) => {
    env.budget.tick();
    if (used.length > 0 && used.includes(edge)) return false;
    if (!relPlain && !relPasses(graph.edgeAt(edge)!, step.relProps, row, env)) return false;
    return (target >= 0 ? other === target : otherPasses(graph, other, labels, step, row, env)) && visit(other) === true;
  });
}

/**
 * What an expansion starts from, in dense ids: the source node, the bound target (-1
 * when the step binds it), the target's labels and the edge types (undefined: every
 * type). Undefined when nothing can match: no source, or a label no node has.
 */
function expansionEnds(step: ExpandStep, row: Row, env: Env): { from: number; target: number; labels: number[]; types: number[] | undefined } | undefined {
  const graph = env.graph;
  const source = boundNode(row[step.sourceSlot]);
  if (!source) return undefined;
  const from = graph.denseNode(source);
  if (from < 0) return undefined;
  let target = -1;
  if (step.targetBound) {
    const node = boundNode(row[step.targetSlot]);
    target = node ? graph.denseNode(node) : -1;
    if (target < 0) return undefined;
  }
  const ids = expansionIds(step, graph);
  return ids && { from, target, labels: ids.labels, types: ids.types };
}

/** The target's labels and the edge types of an expansion as ints; undefined when a label is on no node. */
function expansionIds(step: ExpandStep, graph: GraphIndex): { labels: number[]; types: number[] | undefined } | undefined {
  if (step.ids?.graph === graph) return step.ids;
  const labels: number[] = [];
  for (const label of step.labels) {
    const id = graph.labelId(label);
    if (id < 0) return undefined;
    labels.push(id);
  }
  const types = step.types.length ? graph.typeIdsOf(step.types) : undefined;
  const ids = { graph, labels, types };
  // a type no edge has yet may get an int later
  if (!types || types.length === new Set(step.types).size) step.ids = ids;
  return ids;
}

/** A relationship check with nothing to read on the record. */
function plainRel(step: ExpandStep, env: Env): boolean {
  return env.asOf === undefined && step.relProps.length === 0;
}
/** A node check that labels alone decide. */
function plainNode(check: NodeCheck, env: { asOf?: string }): boolean {
  return env.asOf === undefined && check.props.length === 0 && check.id === undefined;
}

/** Whether the dense node `other` passes the step's checks: its labels from the bitsets, the rest on its record. */
function otherPasses(graph: Env['graph'], other: number, labels: number[], check: NodeCheck, row: Row, env: Env): boolean {
  for (const label of labels) if (!graph.hasLabel(other, label)) return false;
  // a label's bit is set on live nodes only: a node that has one is there
  if (plainNode(check, env)) return labels.length > 0 || graph.nodeAt(other) !== undefined;
  const node = graph.nodeAt(other);
  return node !== undefined && nodePasses(node, check, row, env);
}

function runStep(step: MatchStep, row: Row, env: Env, used: number[], next: Next): boolean {
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
      const visit = (dense: number): boolean => {
        budget.tick();
        const node = graph.nodeAt(dense);
        if (!node || !nodePasses(node, step, row, env)) return false;
        row[step.slot] = { $node: node };
        return next();
      };
      const access = step.access;
      if (access.kind === 'id') {
        const id = access.fn(row, env);
        const node = typeof id === 'string' ? graph.node(id) : undefined;
        return node !== undefined && visit(graph.denseNode(node));
      }
      if (access.kind === 'label') {
        // the label's bitset, walked in dense order: no id strings looked up
        const label = graph.labelId(access.label);
        return label >= 0 && graph.eachNodeWithLabel(label, visit);
      }
      if (access.kind === 'propIn') {
        // the values are distinct (1 and 1.0 one value of the index) and a node holds one value: each node comes once
        for (const value of access.values) for (const dense of graph.nodesWithPropertyDense(access.key, value)) if (visit(dense)) return true;
        return false;
      }
      if (access.kind === 'prop') {
        const value = access.fn(row, env);
        if (value === null) return false;
        const key = typeof value === 'string' || typeof value === 'boolean' ? value : typeof value === 'bigint' || typeof value === 'number' ? Number(value) : undefined;
        if (key !== undefined) {
          for (const dense of graph.nodesWithPropertyDense(access.key, key)) if (visit(dense)) return true;
          return false;
        }
        // the index holds scalar values only (the planner never picks it for others): any other value is checked node by node
        for (let dense = 0; dense < graph.nodes.span; dense++) {
          const node = graph.nodeAt(dense);
          if (node && equals(fromProperty(node.properties[access.key]), value) === true && visit(dense)) return true;
        }
        return false;
      }
      for (let dense = 0; dense < graph.nodes.span; dense++) if (visit(dense)) return true;
      return false;
    }
    case 'expand': {
      const graph = env.graph;
      const ends = expansionEnds(step, row, env);
      if (!ends) return false;
      const { from, target, labels, types } = ends;
      const relPlain = plainRel(step, env);
      // one label and nothing else to check on the target (the usual pattern): its bit alone decides
      const label = labels.length === 1 && plainNode(step, env) ? labels[0] : -1;
      return graph.eachEdge(from, step.direction, types, (edge, other) => {
        budget.tick();
        if (used.length > 0 && used.includes(edge)) return false;
        // the record is read only when it is checked or bound
        const rel = relPlain && !step.bindRel ? undefined : graph.edgeAt(edge)!;
        if (!relPlain && !relPasses(rel!, step.relProps, row, env)) return false;
        if (target >= 0) {
          if (other !== target) return false;
        } else {
          if (label >= 0 ? !graph.hasLabel(other, label) : !otherPasses(graph, other, labels, step, row, env)) return false;
          row[step.targetSlot] = { $node: graph.nodeAt(other)! };
        }
        // null in an unbound slot all the same: a row with a hole would become a slower kind of array
        row[step.relSlot] = step.bindRel ? { $rel: rel! } : null;
        used.push(edge);
        const stop = next();
        used.pop();
        return stop;
      });
    }
    case 'varExpand':
      return varExpand(step, row, env, used, next);
    case 'scanEdges':
    case 'checkRel': {
      const graph = env.graph;
      const visit = (dense: number, edge: EdgeRecord): boolean => {
        budget.tick();
        // a relationship from outside the graph (a parameter) has no dense id and meets no isomorphism check
        if ((dense >= 0 && used.includes(dense)) || !relPasses(edge, step.relProps, row, env)) return false;
        if (step.kind === 'checkRel' && step.types.length > 0 && !step.types.includes(edge.type)) return false;
        // the ends by dense id where the edge has one: no node id is looked up
        const source = dense >= 0 ? graph.edgeSourceAt(dense) : -1;
        const target = dense >= 0 ? graph.edgeTargetAt(dense) : -1;
        if (step.direction === 'in') return bindRelationship(step, row, env, used, next, edge, dense, false, target, source);
        if (bindRelationship(step, row, env, used, next, edge, dense, true, source, target)) return true;
        // undirected: the other way round too, a self-loop once
        return step.direction === 'both' && edge.from !== edge.to && bindRelationship(step, row, env, used, next, edge, dense, false, target, source);
      };
      if (step.kind === 'scanEdges') return eachEdgeOfTypes(graph, step.types, visit);
      for (const edge of boundRels(row[step.relSlot])) if (visit(graph.denseEdge(edge), edge)) return true;
      return false;
    }
    case 'bindPath': {
      const nodes: NodeRecord[] = [(row[step.nodeSlots[0]] as { $node: NodeRecord }).$node];
      const rels: EdgeRecord[] = [];
      for (let i = 0; i < step.relSlots.length; i++) {
        const value = row[step.relSlots[i]];
        // the pattern's nodes are bound in their slots, those inside a variable-length segment in the slot its walk left them in
        const end = (row[step.nodeSlots[i + 1]] as { $node: NodeRecord }).$node;
        if (!Array.isArray(value)) {
          rels.push((value as { $rel: EdgeRecord }).$rel);
          nodes.push(end);
          continue;
        }
        for (const rel of value) rels.push((rel as { $rel: EdgeRecord }).$rel);
        for (const dense of row[step.innerSlots[i]] as number[]) nodes.push(env.graph.nodeAt(dense)!);
        // a segment of no relationships ends where it starts
        if (value.length > 0) nodes.push(end);
      }
      row[step.slot] = { $path: { nodes, rels } };
      return next();
    }
  }
}

/** Visits the edges of `types` (every edge when none), type by type (a type named twice twice), each in insertion order. */
function eachEdgeOfTypes(graph: Env['graph'], types: readonly string[], visit: (dense: number, edge: EdgeRecord) => boolean): boolean {
  if (types.length === 0) return graph.eachEdgeOfType(undefined, visit);
  for (const type of types) {
    const typeId = graph.typeId(type);
    if (typeId >= 0 && graph.eachEdgeOfType(typeId, visit)) return true;
  }
  return false;
}

function boundRels(value: CypherValue): EdgeRecord[] {
  if (value === null || value === undefined) return [];
  if (!isRel(value)) throw runtimeError('TypeError', 'VariableTypeConflict', `expected a relationship, got ${typeName(value)}`);
  return [value.$rel];
}

/**
 * One way of reading a scanned or bound relationship onto its pattern (`forward`: its source at
 * the pattern's left end), then the steps after it; true when they stopped the match.
 */
function bindRelationship(step: RelationshipStep, row: Row, env: Env, used: number[], next: Next, edge: EdgeRecord, dense: number, forward: boolean, left: number, right: number): boolean {
  if (!bindEnd(row, env, step.fromSlot, step.fromBound, forward ? edge.from : edge.to, left, step.fromCheck)) return false;
  if (!bindEnd(row, env, step.toSlot, step.toBound, forward ? edge.to : edge.from, right, step.toCheck)) return false;
  if (step.kind === 'scanEdges') row[step.relSlot] = { $rel: edge };
  used.push(dense);
  const stop = next();
  used.pop();
  return stop;
}

/** Binds (or checks, when bound) a relationship's end: `dense` its dense id, -1 when not known, found by `id` then. */
function bindEnd(row: Row, env: Env, slot: number, bound: boolean, id: string, dense: number, check: NodeCheck): boolean {
  if (bound) {
    const node = boundNode(row[slot]);
    return node !== null && node.id === id;
  }
  const node = dense >= 0 ? env.graph.nodeAt(dense) : env.graph.node(id);
  if (!node || !nodePasses(node, check, row, env)) return false;
  row[slot] = { $node: node };
  return true;
}

function varExpand(step: ExpandStep, row: Row, env: Env, used: number[], next: Next): boolean {
  const graph = env.graph;
  const ends = expansionEnds(step, row, env);
  if (!ends) return false;
  const { from, target, labels, types } = ends;
  const relPlain = plainRel(step, env);
  // the relationships walked, kept only when they are bound, and the nodes reached, only when a named path reads them
  const path: EdgeRecord[] = [];
  const reached: number[] = [];
  const arrive = (node: number): boolean => {
    if (target >= 0) {
      if (node !== target) return false;
    } else {
      if (!otherPasses(graph, node, labels, step, row, env)) return false;
      row[step.targetSlot] = { $node: graph.nodeAt(node)! };
    }
    if (step.bindRel) {
      const rels = path.map((edge) => ({ $rel: edge }));
      row[step.relSlot] = step.reversed ? rels.reverse() : rels;
    } else row[step.relSlot] = null;
    if (step.innerSlot >= 0) {
      // the last node reached is the target, not one passed through
      const inner = reached.slice(0, -1);
      row[step.innerSlot] = step.reversed ? inner.reverse() : inner;
    }
    return next();
  };
  // `used` ends with the edges walked from `from`, so its length past `start` is the depth
  const start = used.length;
  const walk = (node: number): boolean => {
    env.budget.tick();
    const depth = used.length - start;
    if (depth >= step.min && arrive(node)) return true;
    if (depth >= step.max) return false;
    return graph.eachEdge(node, step.direction, types, (edge, other) => {
      if (used.includes(edge)) return false;
      // the record is read only when it is checked or bound, as in 'expand'
      const rel = relPlain && !step.bindRel ? undefined : graph.edgeAt(edge)!;
      if (!relPlain && !relPasses(rel!, step.relProps, row, env)) return false;
      used.push(edge);
      if (step.bindRel) path.push(rel!);
      if (step.innerSlot >= 0) reached.push(other);
      const stop = walk(other);
      if (step.innerSlot >= 0) reached.pop();
      if (step.bindRel) path.pop();
      used.pop();
      return stop;
    });
  };
  return walk(from);
}
