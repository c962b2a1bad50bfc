/**
 * The HTTP shape of a query result (SEED.md "Graph query result", api.md): the
 * actors, claims and edges the query bound, other nodes in `nodes`, and every
 * column as JSON in `columns`/`rows`. Provenance (SEED.md's object) on claims,
 * other nodes and edges only when asked.
 */
import type { Static } from '@sinclair/typebox';
import { type EdgeRecord, type NodeRecord, type PropertyValue, summariseProvenance } from '../../engine/ontology/index.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';
import type { PatternPart, QueryAst } from '../../engine/query/ast.ts';
import type { QueryResult } from '../../engine/query/index.ts';
import type { ArgumentStatus } from '../../engine/reason/disputes.ts';
import { type CypherValue, isMap, isNode, isPath, isRel } from '../../engine/query/values.ts';
import type { GraphQueryResultSchema } from '../schemas.ts';

type GraphQueryResult = Static<typeof GraphQueryResultSchema>;
type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function text(value: PropertyValue | undefined): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

function toJson(value: CypherValue): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (isNode(value)) return { id: value.$node.id, labels: value.$node.labels, properties: value.$node.properties };
  if (isRel(value)) return { id: value.$rel.id, type: value.$rel.type, from: value.$rel.from, to: value.$rel.to, properties: value.$rel.properties };
  if (isPath(value)) return { nodes: value.$path.nodes.map((node) => node.id), edges: value.$path.rels.map((rel) => rel.id) };
  const map: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) map[key] = toJson(item);
  return map;
}

/** By parsed query: parseQuery hands out one AST per query text while it is cached, and walking it cost a point query 40 µs. */
const typesOfAst = new WeakMap<QueryAst, ReadonlySet<string> | undefined>();

/**
 * The relationship types a query's patterns traverse; undefined when some pattern
 * leaves the type open (`-->`), which admits every type.
 */
export function patternRelationshipTypes(ast: QueryAst): ReadonlySet<string> | undefined {
  if (typesOfAst.has(ast)) return typesOfAst.get(ast);
  const types = walkRelationshipTypes(ast);
  typesOfAst.set(ast, types);
  return types;
}

function walkRelationshipTypes(ast: QueryAst): Set<string> | undefined {
  const types = new Set<string>();
  let open = false;
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const part = value as Partial<PatternPart>;
    if (Array.isArray(part.relationships) && Array.isArray(part.nodes)) {
      for (const relationship of part.relationships) {
        if (relationship.types.length === 0) open = true;
        relationship.types.forEach((type) => types.add(type));
      }
    }
    Object.values(value).forEach(visit);
  };
  visit(ast);
  return open ? undefined : types;
}

/**
 * What the SEED.md shape needs beyond the rows: `RETURN a, c` names no
 * relationship, yet the client expects the edges that join a to c. So `edges`
 * also carries every relationship of a type the patterns traverse that joins two
 * returned nodes (and is visible at `as_of`).
 */
export interface ConnectingEdges {
  graph: GraphIndex;
  /** From patternRelationshipTypes: undefined admits every type. */
  types: ReadonlySet<string> | undefined;
  asOf?: string;
}

/** The nodes and relationships a result value holds, however deep. */
function collectRecords(value: CypherValue, nodes: Map<string, NodeRecord>, edges: Map<string, EdgeRecord>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) for (const item of value) collectRecords(item, nodes, edges);
  else if (isNode(value)) nodes.set(value.$node.id, value.$node);
  else if (isRel(value)) edges.set(value.$rel.id, value.$rel);
  else if (isPath(value)) {
    for (const node of value.$path.nodes) nodes.set(node.id, node);
    for (const rel of value.$path.rels) edges.set(rel.id, rel);
  } else if (isMap(value)) for (const item of Object.values(value)) collectRecords(item, nodes, edges);
}

/** `statuses`: those of the graph's contradicted claims and events, shown as each one's `status`. */
export function queryResultBody(result: QueryResult, includeProvenance: boolean, connecting?: ConnectingEdges, statuses?: Record<string, ArgumentStatus>): GraphQueryResult {
  const nodes = new Map<string, NodeRecord>();
  const edges = new Map<string, EdgeRecord>();
  for (const row of result.rows) for (const value of row) collectRecords(value, nodes, edges);
  if (connecting && nodes.size > 0) {
    const typeList = connecting.types ? [...connecting.types] : undefined;
    for (const id of nodes.keys()) {
      for (const edge of connecting.graph.edgesOf(id, 'out', typeList)) {
        const visible = connecting.asOf === undefined || edge.recorded_at <= connecting.asOf;
        if (visible && nodes.has(edge.to) && !edges.has(edge.id)) edges.set(edge.id, edge);
      }
    }
  }

  const response: GraphQueryResult = { actors: [], claims: [], edges: [], nodes: [], columns: result.columns, rows: result.rows.map((row) => row.map(toJson)) };
  for (const node of nodes.values()) {
    const kind = node.labels[0] ?? '';
    if (kind === 'Actor') {
      response.actors.push({ id: node.id, label: text(node.properties.label), role: text(node.properties.role) || 'unknown', confidence: node.confidence });
    } else if (kind === 'Claim') {
      const claim: GraphQueryResult['claims'][number] = { id: node.id, type: text(node.properties.type), text: text(node.properties.text) };
      const provenance = includeProvenance ? summariseProvenance(node.provenance) : undefined;
      if (provenance) claim.provenance = provenance;
      // (own keys only: a node id may be "constructor")
      if (statuses && Object.hasOwn(statuses, node.id)) claim.status = statuses[node.id];
      response.claims.push(claim);
    } else {
      const out: GraphQueryResult['nodes'][number] = { id: node.id, kind, labels: node.labels, properties: node.properties, confidence: node.confidence };
      const provenance = includeProvenance ? summariseProvenance(node.provenance) : undefined;
      if (provenance) out.provenance = provenance;
      if (statuses && Object.hasOwn(statuses, node.id)) out.status = statuses[node.id];
      response.nodes.push(out);
    }
  }
  for (const edge of edges.values()) {
    const out: GraphQueryResult['edges'][number] = { id: edge.id, from: edge.from, to: edge.to, type: edge.type, confidence: edge.confidence };
    const provenance = includeProvenance ? summariseProvenance(edge.provenance) : undefined;
    if (provenance) out.provenance = provenance;
    response.edges.push(out);
  }
  if (result.goal !== undefined) response.goal = result.goal;
  if (result.plan !== undefined) response.plan = result.plan;
  if (result.notifications) response.notifications = result.notifications;
  return response;
}
