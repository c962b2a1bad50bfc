/**
 * The one place the runner touches the query engine: set-up scripts through
 * the engine's test-only writer, the query under test through the public
 * runQuery (which refuses writes), engine values translated into TckValue,
 * and raised errors read as the TCK's error type and detail.
 */
import { ParleyError } from '../../engine/errors.ts';
import { applyCreateForTests, runQuery } from '../../engine/query/index.ts';
import { fromProperty, isNode, isPath, isRel, type CypherValue } from '../../engine/query/values.ts';
import type { EdgeRecord, NodeRecord, PropertyValue } from '../../engine/ontology/index.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';
import type { ActualTable } from './compare.ts';
import type { TckNode, TckRelationship, TckValue } from './values.ts';

/** The engine's time limit for one query under test; the runner's watchdog (run.ts) is the backstop. */
const QUERY_TIME_LIMIT_MS = 5_000;

export function runSetup(graph: GraphIndex, script: string): void {
  applyCreateForTests(graph, script, {});
}

export function runEngineQuery(graph: GraphIndex, query: string, parameters: Record<string, TckValue>): ActualTable {
  const engineParameters = Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, toEngineValue(value)]));
  const result = runQuery(graph, query, { parameters: engineParameters, limits: { timeLimitMs: QUERY_TIME_LIMIT_MS } });
  return { columns: result.columns, rows: result.rows.map((row) => row.map(toTckValue)) };
}

export interface EngineError {
  code: string;
  message: string;
  tckType?: string;
  tckDetail?: string;
  /** 'compile' or 'runtime' when the engine says. */
  phase?: string;
}

export function engineErrorOf(error: unknown): EngineError {
  if (error instanceof ParleyError) {
    const { tck_type, tck_detail, phase } = error.details;
    return {
      code: error.code,
      message: error.message,
      tckType: typeof tck_type === 'string' ? tck_type : undefined,
      tckDetail: typeof tck_detail === 'string' ? tck_detail : undefined,
      phase: typeof phase === 'string' ? phase : undefined,
    };
  }
  // not a typed error: a fault in the engine, reported as such
  return { code: error instanceof Error ? `untyped ${error.name}` : 'untyped throw', message: error instanceof Error ? error.message : String(error) };
}

function toEngineValue(value: TckValue): CypherValue {
  switch (value.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'integer':
    case 'float':
    case 'string':
      return value.value;
    case 'list':
      return value.items.map(toEngineValue);
    case 'map':
      return Object.fromEntries(Object.entries(value.entries).map(([key, item]) => [key, toEngineValue(item)]));
    default:
      throw new Error(`a ${value.kind} cannot be a parameter`);
  }
}

export function toTckValue(value: CypherValue): TckValue {
  if (value === null || value === undefined) return { kind: 'null' };
  switch (typeof value) {
    case 'boolean':
      return { kind: 'boolean', value };
    case 'bigint':
      return { kind: 'integer', value };
    case 'number':
      return { kind: 'float', value };
    case 'string':
      return { kind: 'string', value };
  }
  if (Array.isArray(value)) return { kind: 'list', items: value.map(toTckValue) };
  if (isNode(value)) return tckNode(value.$node);
  if (isRel(value)) return tckRelationship(value.$rel);
  if (isPath(value)) {
    const { nodes, rels } = value.$path;
    return {
      kind: 'path',
      start: tckNode(nodes[0]),
      steps: rels.map((rel, i) => ({ relationship: tckRelationship(rel), forward: rel.from === nodes[i].id, node: tckNode(nodes[i + 1]) })),
    };
  }
  return { kind: 'map', entries: Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toTckValue(item)])) };
}

/** Properties as the engine reads them back (e.g. `n.num`), so a node's map agrees with its property lookups. */
function tckProperties(properties: Record<string, PropertyValue>): Record<string, TckValue> {
  return Object.fromEntries(Object.entries(properties).map(([key, item]) => [key, toTckValue(fromProperty(item))]));
}

function tckNode(node: NodeRecord): TckNode {
  return { kind: 'node', labels: node.labels, properties: tckProperties(node.properties) };
}

function tckRelationship(edge: EdgeRecord): TckRelationship {
  return { kind: 'relationship', type: edge.type, properties: tckProperties(edge.properties) };
}
