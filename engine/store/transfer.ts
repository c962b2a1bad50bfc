import { ValidationError } from '../errors.ts';
import { checkStrings } from '../shape.ts';
import type { EdgeRecord, NodeRecord, PropertyValue, Provenance } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';
import type { EdgeInput, GraphWrite, NodeInput } from './validate.ts';

/**
 * The graph interchange format (api.md "Graphs"): what import reads and export
 * writes. A node is `{kind, id?, labels?, confidence?, provenance?, recorded_at?,
 * ...properties}`; an edge is `{type, from, to, id?, confidence?, provenance?,
 * recorded_at?, ...properties}`. Export writes JSON Lines, one `{"node": …}` or
 * `{"edge": …}` per line, nodes first, that import reads back identically.
 */

/** Members of a node or edge record that are not properties. */
const NODE_FIELDS = new Set(['kind', 'id', 'labels', 'confidence', 'provenance', 'recorded_at']);
const EDGE_FIELDS = new Set(['type', 'from', 'to', 'id', 'confidence', 'provenance', 'recorded_at']);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function invalid(where: string, field: string, message: string): never {
  throw new ValidationError('invalid_record', `${where}: ${message}`, { record: where, field });
}

function propertiesOf(record: JsonObject, fields: Set<string>): Record<string, PropertyValue> {
  const properties: Record<string, PropertyValue> = {};
  for (const [key, value] of Object.entries(record)) if (!fields.has(key)) properties[key] = value as PropertyValue;
  return properties;
}

export function nodeFromRecord(record: unknown, where: string): NodeInput {
  if (!isObject(record)) invalid(where, 'node', 'a node must be an object');
  if (typeof record.kind !== 'string' || record.kind.length === 0) invalid(where, 'kind', 'a node needs a kind (e.g. "Actor")');
  const extra = record.labels;
  if (extra !== undefined && (!Array.isArray(extra) || extra.some((l) => typeof l !== 'string'))) invalid(where, 'labels', 'labels must be an array of strings');
  return {
    ...(record.id !== undefined ? { id: record.id as string } : {}),
    labels: [record.kind, ...((extra as string[] | undefined) ?? [])],
    properties: propertiesOf(record, NODE_FIELDS),
    ...(record.confidence !== undefined ? { confidence: record.confidence as number } : {}),
    ...(record.provenance !== undefined ? { provenance: record.provenance as Provenance[] } : {}),
    ...(record.recorded_at !== undefined ? { recorded_at: record.recorded_at as string } : {}),
  };
}

export function edgeFromRecord(record: unknown, where: string): EdgeInput {
  if (!isObject(record)) invalid(where, 'edge', 'an edge must be an object');
  for (const field of ['type', 'from', 'to'] as const) {
    if (typeof record[field] !== 'string' || (record[field] as string).length === 0) invalid(where, field, `an edge needs ${field} (a string)`);
  }
  return {
    ...(record.id !== undefined ? { id: record.id as string } : {}),
    type: record.type as string,
    from: record.from as string,
    to: record.to as string,
    properties: propertiesOf(record, EDGE_FIELDS),
    ...(record.confidence !== undefined ? { confidence: record.confidence as number } : {}),
    ...(record.provenance !== undefined ? { provenance: record.provenance as Provenance[] } : {}),
    ...(record.recorded_at !== undefined ? { recorded_at: record.recorded_at as string } : {}),
  };
}

/** A JSON import body `{nodes: [...], edges: [...]}`. */
export function graphWriteFromJson(body: unknown): GraphWrite {
  if (!isObject(body)) invalid('body', 'body', 'the body must be an object with nodes and edges');
  for (const key of Object.keys(body)) if (key !== 'nodes' && key !== 'edges') invalid('body', key, `unknown member '${key}' (allowed: nodes, edges)`);
  const nodes = body.nodes ?? [];
  const edges = body.edges ?? [];
  if (!Array.isArray(nodes)) invalid('body', 'nodes', 'nodes must be an array');
  if (!Array.isArray(edges)) invalid('body', 'edges', 'edges must be an array');
  return {
    nodes: nodes.map((record, i) => nodeFromRecord(record, `nodes[${i}]`)),
    edges: edges.map((record, i) => edgeFromRecord(record, `edges[${i}]`)),
  };
}

/** A JSON Lines import body: one `{"node": …}` or `{"edge": …}` per line; blank lines are skipped. */
export function graphWriteFromJsonLines(text: string): GraphWrite {
  const write: GraphWrite = { nodes: [], edges: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `line ${i + 1}`;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new ValidationError('invalid_json_line', `${where}: not valid JSON (${(error as Error).message})`, { line: i + 1 });
    }
    checkStrings(entry, where);
    if (isObject(entry) && Object.keys(entry).length === 1 && 'node' in entry) write.nodes.push(nodeFromRecord(entry.node, where));
    else if (isObject(entry) && Object.keys(entry).length === 1 && 'edge' in entry) write.edges.push(edgeFromRecord(entry.edge, where));
    else invalid(where, 'record', 'each line must be {"node": {...}} or {"edge": {...}}');
  });
  return write;
}

export function nodeToRecord(node: NodeRecord): JsonObject {
  const [kind, ...extra] = node.labels;
  return {
    kind,
    id: node.id,
    ...(extra.length > 0 ? { labels: extra } : {}),
    ...node.properties,
    confidence: node.confidence,
    provenance: node.provenance,
    recorded_at: node.recorded_at,
  };
}

export function edgeToRecord(edge: EdgeRecord): JsonObject {
  return {
    type: edge.type,
    id: edge.id,
    from: edge.from,
    to: edge.to,
    ...edge.properties,
    confidence: edge.confidence,
    provenance: edge.provenance,
    recorded_at: edge.recorded_at,
  };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The export stream: JSON Lines, every node before any edge so import can check
 * endpoints, each sorted by id so the same graph always exports the same bytes.
 */
export function* exportJsonLines(index: GraphIndex): Generator<string> {
  for (const node of [...index.nodes.values()].sort(byId)) yield JSON.stringify({ node: nodeToRecord(node) }) + '\n';
  for (const edge of [...index.edges.values()].sort(byId)) yield JSON.stringify({ edge: edgeToRecord(edge) }) + '\n';
}
