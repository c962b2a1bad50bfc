/**
 * What was added to a GraphIndex between two of its revisions, for a reader that holds a
 * copy of the graph and would rather apply the additions than copy it all again (the Prolog
 * bridge's facts: engine/prolog/bridge.ts). The writers that apply store writes to an index
 * (the store, a worker's replica) put records through putLogged; a change made any other
 * way leaves a gap in the log, and the reader copies the whole graph again.
 *
 * addedSince offers only additions: a record that replaces one the graph held may have to keep
 * its place among the others (the order a reader enumerates them in), which appending it
 * would not, so a replacement ends that log at that revision. nodesWrittenSince offers every
 * node put, added or replacing, to a reader that keeps tables by id (a batch's actor names:
 * engine/ingest/commit.ts).
 */
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';

/** Record ids the log of one graph keeps at most: past them, the oldest entries go (a reader that far behind copies the whole graph). */
export const MAX_LOGGED_RECORDS = 50_000;

interface Entry {
  /** The graph's revision before and after the records were put. */
  from: number;
  to: number;
  /** Ids of the records put. */
  nodes: string[];
  edges: string[];
  /** Whether one of them replaced a record the graph held. */
  replaces: boolean;
}

interface Log {
  entries: Entry[];
  /** Ids the entries hold. */
  records: number;
}

const logs = new WeakMap<GraphIndex, Log>();

const size = (entry: Entry) => entry.nodes.length + entry.edges.length;

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
  let log = logs.get(graph);
  if (!log) logs.set(graph, (log = { entries: [], records: 0 }));
  const entry: Entry = { from, to: graph.revision, nodes: nodes.map((node) => node.id), edges: edges.map((edge) => edge.id), replaces };
  log.entries.push(entry);
  log.records += size(entry);
  while (log.records > MAX_LOGGED_RECORDS || log.entries.length > MAX_LOGGED_RECORDS) log.records -= size(log.entries.shift()!);
}

/**
 * The ids of the nodes and edges added to the graph since `revision`, in the order they were
 * added; undefined when something since then replaced a record or was not logged.
 */
export function addedSince(graph: GraphIndex, revision: number): { nodes: string[]; edges: string[] } | undefined {
  const entries = entriesSince(graph, revision);
  if (!entries || entries.some((entry) => entry.replaces)) return undefined;
  return { nodes: entries.flatMap((entry) => entry.nodes), edges: entries.flatMap((entry) => entry.edges) };
}

/** The ids of the nodes put into the graph since `revision` (added or replacing; one put twice is named twice), in the order they were put; undefined when a change since then was not logged. */
export function nodesWrittenSince(graph: GraphIndex, revision: number): string[] | undefined {
  if (revision === graph.revision) return [];
  return entriesSince(graph, revision)?.flatMap((entry) => entry.nodes);
}

/** The log's entries from `revision` to the graph's, when they cover every change between. */
function entriesSince(graph: GraphIndex, revision: number): Entry[] | undefined {
  const log = logs.get(graph)?.entries;
  if (!log) return undefined;
  let start = log.length;
  while (start > 0 && log[start - 1].to > revision) start--;
  if (start === log.length) return undefined;
  let at = revision;
  const entries = log.slice(start);
  for (const entry of entries) {
    if (entry.from !== at) return undefined;
    at = entry.to;
  }
  return at === graph.revision ? entries : undefined;
}
