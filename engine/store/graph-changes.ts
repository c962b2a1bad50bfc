/**
 * What was added to a GraphIndex between two of its revisions, for a reader that holds a
 * copy of the graph and would rather apply the additions than copy it all again (the Prolog
 * bridge's facts: engine/prolog/bridge.ts). The writers that apply store writes to an index
 * (the store, a worker's replica) put records through putLogged; a change made any other
 * way leaves a gap in the log, and the reader copies the whole graph again.
 *
 * Only additions are offered: a record that replaces one the graph held may have to keep
 * its place among the others (the order a reader enumerates them in), which appending it
 * would not, so a replacement ends the log at that revision.
 */
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';

/** Record ids the log of one graph keeps at most: past them, the oldest entries go (a reader that far behind copies the whole graph). */
export const MAX_LOGGED_RECORDS = 50_000;

interface Entry {
  /** The graph's revision before and after the records were put. */
  from: number;
  to: number;
  /** Ids of the records added, or undefined when one of them replaced a record. */
  nodes?: string[];
  edges?: string[];
}

interface Log {
  entries: Entry[];
  /** Ids the entries hold. */
  records: number;
}

const logs = new WeakMap<GraphIndex, Log>();

const size = (entry: Entry) => (entry.nodes?.length ?? 0) + (entry.edges?.length ?? 0);

/**
 * Puts the records into the graph, as putNode/putEdge do, and logs what they added.
 * `ends`: the edges are known to be new to the graph, of distinct ids (a write's tally found
 * them so), and go in without their ids being looked up, at the dense ids of their ends
 * (edge i's at 2i and 2i+1; -1: found by id).
 */
export function putLogged(graph: GraphIndex, nodes: readonly NodeRecord[], edges: readonly EdgeRecord[], ends?: Int32Array): void {
  const from = graph.revision;
  // a record put twice replaces itself the second time: put* tells, as it does for one the graph held
  let replaces = false;
  for (const node of nodes) if (graph.putNode(node)) replaces = true;
  if (ends) for (let i = 0; i < edges.length; i++) graph.addNewEdge(edges[i], ends[2 * i], ends[2 * i + 1]);
  else for (const edge of edges) if (graph.putEdge(edge)) replaces = true;
  const nodeIds = replaces ? undefined : nodes.map((node) => node.id);
  const edgeIds = replaces ? undefined : edges.map((edge) => edge.id);
  let log = logs.get(graph);
  if (!log) logs.set(graph, (log = { entries: [], records: 0 }));
  const entry: Entry = { from, to: graph.revision, nodes: nodeIds, edges: edgeIds };
  log.entries.push(entry);
  log.records += size(entry);
  while (log.records > MAX_LOGGED_RECORDS || log.entries.length > MAX_LOGGED_RECORDS) log.records -= size(log.entries.shift()!);
}

/**
 * The ids of the nodes and edges added to the graph since `revision`, in the order they were
 * added; undefined when something since then replaced a record or was not logged.
 */
export function addedSince(graph: GraphIndex, revision: number): { nodes: string[]; edges: string[] } | undefined {
  const log = logs.get(graph)?.entries;
  if (!log) return undefined;
  let start = log.length;
  while (start > 0 && log[start - 1].to > revision) start--;
  if (start === log.length || log[start].from !== revision) return undefined;
  const added = { nodes: [] as string[], edges: [] as string[] };
  let at = revision;
  for (const entry of log.slice(start)) {
    if (entry.from !== at || !entry.nodes || !entry.edges) return undefined;
    added.nodes.push(...entry.nodes);
    added.edges.push(...entry.edges);
    at = entry.to;
  }
  return at === graph.revision ? added : undefined;
}
