/**
 * Contradictions weighed: the status of each claim and event a CONTRADICTS edge links
 * (accepted, disputed, rejected), as the helper library's argumentation semantics computes it
 * in Prolog (engine/prolog/lib/argumentation.pl: grounded semantics, independent sources and
 * their reliability as preferences), and what the answers say of it: who says what on each
 * side, and on how many sources. A claim or event nothing contradicts has no status.
 */
import { LimitError } from '../errors.ts';
import type { NodeRecord } from '../ontology/index.ts';
import type { RuleRegistry } from '../prolog/registry.ts';
import type { SolveLimits } from '../prolog/bridge.ts';
import { isMap, isNode, isPath, type CypherValue } from '../query/values.ts';
import type { QueryResult } from '../query/index.ts';
import { newestFirstPage, pageOf, pageRequest, type Page } from '../store/backend.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { inView, type GraphView } from '../store/view.ts';
import { listNames } from './answer.ts';

export const ARGUMENT_STATUSES = ['accepted', 'disputed', 'rejected'] as const;
export type ArgumentStatus = (typeof ARGUMENT_STATUSES)[number];

/** One claim or event a CONTRADICTS edge links, weighed. */
export interface WeighedArgument {
  id: string;
  status: ArgumentStatus;
  /** What its independent sources count for together (each its reliability, 1 when unrated). */
  weight: number;
  /** How many independent sources (publishers) it rests on: its own and those of what SUPPORTS it. */
  sources: number;
}

/** The weighed arguments of a graph view, by id (the rows of argument_statuses/1, as they cross a thread: an array). */
export type ArgumentStatuses = WeighedArgument[];

/**
 * The statuses of the view's contradicted claims and events, computed in Prolog within
 * `limits` (a LimitError past them), sorted by id.
 */
export function weighArguments(registry: RuleRegistry, view: GraphView, limits: SolveLimits = {}): ArgumentStatuses {
  const [[rows]] = registry.solveLibrary('argument_statuses(Rows)', ['Rows'], view, limits) as [[[string, ArgumentStatus, number, number][]]];
  return rows.map(([id, status, weight, sources]) => ({ id, status, weight, sources }));
}

/** A worker's last statuses per replica: a query answer asks for them per graph version, not per query. */
const weighedByGraph = new WeakMap<GraphIndex, { revision: number; asOf: string | undefined; statuses: ArgumentStatuses }>();

/** weighArguments for the graph at its current revision (and `asOf`), kept until the graph changes. */
export function weighedArguments(registry: RuleRegistry, graph: GraphIndex, asOf: string | undefined, limits?: SolveLimits): ArgumentStatuses {
  const kept = weighedByGraph.get(graph);
  if (kept && kept.revision === graph.revision && kept.asOf === asOf) return kept.statuses;
  const statuses = weighArguments(registry, { graph, ...(asOf ? { asOf } : {}) }, limits);
  weighedByGraph.set(graph, { revision: graph.revision, asOf, statuses });
  return statuses;
}

/** Whether node `id` is linked by a CONTRADICTS edge (to another node): it has a status. */
export function contested(graph: GraphIndex, id: string): boolean {
  return graph.edgesOf(id, 'both', ['CONTRADICTS']).some((edge) => edge.from !== edge.to);
}

/** Whether a query result binds a node that has a status: only then does its answer need the statuses. */
export function bindsContested(result: QueryResult, graph: GraphIndex): boolean {
  if (graph.edgeTypeCount('CONTRADICTS') === 0) return false;
  const seen = new Set<string>();
  const visit = (value: CypherValue): boolean => {
    if (value === null || typeof value !== 'object') return false;
    if (Array.isArray(value)) return value.some(visit);
    const nodes: NodeRecord[] = isNode(value) ? [value.$node] : isPath(value) ? value.$path.nodes : [];
    if (isMap(value)) return Object.values(value).some(visit);
    return nodes.some((node) => !seen.has(node.id) && (seen.add(node.id), contested(graph, node.id)));
  };
  return result.rows.some((row) => row.some(visit));
}

/**
 * What a query answer does when weighing its graph ran past the inference or time limit: it shows
 * no status rather than failing the query (any other error fails it).
 */
export function shownUnlessPastLimits(error: unknown): undefined {
  if (error instanceof LimitError) return undefined;
  throw error;
}

/** The statuses by id, for shaping answers. */
export function statusById(statuses: ArgumentStatuses): Record<string, ArgumentStatus> {
  return Object.fromEntries(statuses.map(({ id, status }) => [id, status]));
}

/** Records a disputes page lists at most (api.md pagination: default 50). */
export const DEFAULT_DISPUTES_PAGE = 50;

/** The orders a disputes page lists in: by id, or the newest recorded first (ties by id). */
export const DISPUTE_ORDERS = ['id', 'newest'] as const;
export type DisputeOrder = (typeof DISPUTE_ORDERS)[number];

/**
 * The contested records of `statuses` (weighed over `view`) whose status is one of `only` (default:
 * disputed and rejected, what an analyst must weigh), by id or newest first, a page at a time.
 */
export function listDisputes(
  view: GraphView,
  statuses: ArgumentStatuses,
  options: { only?: readonly ArgumentStatus[]; pageSize?: number; pageToken?: string; order?: DisputeOrder } = {},
): Page<DisputedRecord> {
  const only = options.only ?? ['disputed', 'rejected'];
  const { size, after } = pageRequest(options.pageSize ?? DEFAULT_DISPUTES_PAGE, options.pageToken);
  const byId = new Map(statuses.map((argument) => [argument.id, argument]));
  if (options.order === 'newest') {
    // by when the graph first learned each record, the later first, ties by id
    const recorded = (argument: WeighedArgument) => view.graph.node(argument.id)?.recorded_at ?? '';
    const page = newestFirstPage(statuses.filter((argument) => only.includes(argument.status)), recorded, (argument) => argument.id, size, after);
    return { items: page.items.map((argument) => disputedRecord(view, argument, byId)), ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
  }
  const selected: WeighedArgument[] = [];
  for (const argument of statuses) {
    if (!only.includes(argument.status) || (after !== undefined && argument.id <= after)) continue;
    selected.push(argument);
    if (selected.length > size) break;
  }
  const page = pageOf(selected, size, (argument) => argument.id);
  return { items: page.items.map((argument) => disputedRecord(view, argument, byId)), ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
}

/** One record as GET /v1/graphs/{graph_id}/disputes lists it (server/schemas.ts DisputeSchema says what each field holds). */
export type DisputedRecord = ReturnType<typeof disputedRecord>;

function disputedRecord(view: GraphView, argument: WeighedArgument, byId: Map<string, WeighedArgument>) {
  const node = view.graph.node(argument.id);
  return {
    id: argument.id,
    kind: node?.labels[0] ?? '',
    text: node ? account(node) : argument.id,
    status: argument.status,
    recorded_at: node?.recorded_at ?? '',
    weight: argument.weight,
    sources: argument.sources,
    asserted_by: actorsAt(view, argument.id, 'ASSERTS'),
    denied_by: actorsAt(view, argument.id, 'DENIES'),
    documents: [...new Set((node?.provenance ?? []).map((record) => record.source))].sort(),
    contradicted_by: opponents(view, argument.id),
    supported_by: [...new Set(edgesAt(view, argument.id, 'in', 'SUPPORTS').map((edge) => edge.from))].filter((id) => id !== argument.id).sort(),
    summary: describeDispute(argument.id, view, byId) ?? '',
  };
}

/**
 * The dispute over a claim or event in one sentence, for an answer to quote: its status, who
 * says it and who says otherwise, each with the sources it rests on and its own status, e.g.
 *   disputed: the Sudanese Armed Forces says "we hold the airport" (1 source); the Rapid Support
 *   Forces denies it: "the airport has fallen" (1 source, disputed).
 * Undefined for a record with no status (nothing contradicts it). `statuses`: the graph's, as
 * weighArguments gives them (a Map by id, or the list); `graph`, or the view (as_of) they were weighed over.
 */
export function describeDispute(id: string, graph: GraphIndex | GraphView, statuses: ArgumentStatuses | ReadonlyMap<string, WeighedArgument>): string | undefined {
  const view: GraphView = 'graph' in graph ? graph : { graph };
  const byId = Array.isArray(statuses) ? new Map(statuses.map((argument) => [argument.id, argument])) : (statuses as ReadonlyMap<string, WeighedArgument>);
  const argument = byId.get(id);
  const node = view.graph.node(id);
  if (!argument || !node) return undefined;
  const others = opponents(view, id).filter((other) => byId.has(other) && view.graph.node(other));
  const deniers = actorsAt(view, id, 'DENIES').map((actor) => view.graph.labelOf(actor));
  const sides = others.map((other) => {
    const weighed = byId.get(other)!;
    return `${voice(view, view.graph.node(other)!, 'against')} ${account(view.graph.node(other)!, true)} (${sourceCount(weighed)}, ${weighed.status})`;
  });
  if (deniers.length > 0) sides.push(`${listNames(deniers, Infinity)} ${deniers.length > 1 ? 'deny' : 'denies'} it`);
  return [`${argument.status}: ${voice(view, node, 'for')} ${account(node, true)} (${sourceCount(argument)})`, ...sides].join('; ') + '.';
}

/**
 * What an answer says of the records it cites that the evidence does not let stand (disputed or
 * rejected): one describeDispute sentence per dispute, in the order of `ids`; a record whose
 * dispute an earlier sentence told (it stands on the other side) is not told again.
 */
export function disputeNotes(ids: Iterable<string>, graph: GraphIndex | GraphView, statuses: ArgumentStatuses): { id: string; sentence: string }[] {
  const view: GraphView = 'graph' in graph ? graph : { graph };
  const byId = new Map(statuses.map((argument) => [argument.id, argument]));
  const told = new Set<string>();
  const notes: { id: string; sentence: string }[] = [];
  for (const id of ids) {
    const status = byId.get(id)?.status;
    if (told.has(id) || (status !== 'disputed' && status !== 'rejected')) continue;
    const sentence = describeDispute(id, view, byId);
    if (sentence === undefined) continue;
    notes.push({ id, sentence });
    for (const other of [id, ...opponents(view, id)]) told.add(other);
  }
  return notes;
}

/** A record's words: a claim's text (quoted when `quoted`), an event's label (else its type and date). */
function account(node: NodeRecord, quoted = false): string {
  const { text, label, event_type: type, date } = node.properties;
  if (typeof text === 'string' && text !== '') return quoted ? `"${text}"` : text;
  if (typeof label === 'string' && label !== '') return quoted ? `"${label}"` : label;
  const described = [typeof type === 'string' ? type : node.labels[0] ?? 'record', typeof date === 'string' ? `on ${date.slice(0, 10)}` : ''].filter(Boolean).join(' ');
  return quoted ? `"${described}"` : described;
}

/**
 * Who puts a record forward: a claim's asserting actors ("the army says"), else its speaker;
 * an event's reporting sources ("reports say"). A contradicting Denial denies it.
 */
function voice(view: GraphView, node: NodeRecord, side: 'for' | 'against'): string {
  const asserting = actorsAt(view, node.id, 'ASSERTS').map((actor) => view.graph.labelOf(actor));
  const speaker = node.properties.speaker;
  const names = asserting.length > 0 ? asserting : typeof speaker === 'string' && speaker !== '' ? [view.graph.labelOf(speaker)] : [];
  const denial = side === 'against' && node.properties.type === 'Denial';
  if (names.length === 0) return node.labels[0] === 'Event' ? (denial ? 'reports deny it:' : 'reports say') : denial ? 'a denial:' : 'a claim says';
  const plural = names.length > 1;
  return `${listNames(names, Infinity)} ${denial ? (plural ? 'deny it:' : 'denies it:') : plural ? 'say' : 'says'}`;
}

function sourceCount(argument: WeighedArgument): string {
  return argument.sources === 1 ? '1 source' : `${argument.sources} independent sources`;
}

/** The edges of a type at a node that the view shows. */
function edgesAt(view: GraphView, id: string, direction: 'in' | 'both', type: string) {
  return view.graph.edgesOf(id, direction, [type]).filter((edge) => inView(edge, view));
}

function actorsAt(view: GraphView, id: string, type: 'ASSERTS' | 'DENIES'): string[] {
  return [...new Set(edgesAt(view, id, 'in', type).map((edge) => edge.from))].sort();
}

function opponents(view: GraphView, id: string): string[] {
  const ids = edgesAt(view, id, 'both', 'CONTRADICTS').map((edge) => (edge.from === id ? edge.to : edge.from));
  return [...new Set(ids)].filter((other) => other !== id).sort();
}

