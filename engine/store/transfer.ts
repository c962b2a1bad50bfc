import { ValidationError } from '../errors.ts';
import { checkMemberName, checkStrings } from '../input-checks.ts';
import { LoopSlicer } from '../turns.ts';
import { type EdgeRecord, type NodeRecord, type PropertyValue, type Provenance, summariseProvenance } from '../ontology/index.ts';
import type { GraphIndex } from './graph-index.ts';
import type { EdgeInput, GraphWrite, NodeInput } from './validate.ts';

/**
 * The graph interchange format (api.md "Graphs"): what import reads and export
 * writes. A node is `{kind, id?, labels?, confidence?, provenance?, recorded_at?,
 * ...properties}`; an edge is `{type, from, to, id?, confidence?, provenance?,
 * recorded_at?, ...properties}`; `provenance` is SEED.md's object (import also reads
 * a list of records). Export writes JSON Lines, one `{"node": …}` or
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

/**
 * The records a `provenance` member holds: SEED.md's object (export's shape: the
 * earliest `source` and `timestamp`, every record in `sources`), one record as an
 * object without `sources`, or a list of records (as imports gave it before). Each
 * record is checked when the write is validated.
 */
function provenanceRecords(value: unknown, where: string): Provenance[] {
  if (Array.isArray(value)) return value as Provenance[];
  if (!isObject(value)) invalid(where, 'provenance', 'provenance must be an object {source, timestamp, sources?} or a list of {source, timestamp}');
  if (value.sources === undefined) return [value as Provenance];
  if (!Array.isArray(value.sources) || value.sources.length === 0) invalid(where, 'provenance.sources', 'provenance.sources must be a non-empty list of {source, timestamp}');
  const records = value.sources as Provenance[];
  const earliest = records.every(isObject) ? summariseProvenance(records) : undefined;
  for (const field of ['source', 'timestamp'] as const) {
    if (earliest && value[field] !== undefined && value[field] !== earliest[field]) {
      invalid(where, `provenance.${field}`, `provenance.${field} must be the earliest of provenance.sources (${JSON.stringify(earliest[field])}), or left out`);
    }
  }
  return records;
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
    ...(record.provenance !== undefined ? { provenance: provenanceRecords(record.provenance, where) } : {}),
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
    ...(record.provenance !== undefined ? { provenance: provenanceRecords(record.provenance, where) } : {}),
    ...(record.recorded_at !== undefined ? { recorded_at: record.recorded_at as string } : {}),
  };
}

/**
 * A JSON import body `{nodes: [...], edges: [...]}` as records to write. Taken a slice
 * of records at a time, with the event loop turning between slices.
 */
export async function graphWriteFromJson(body: unknown): Promise<GraphWrite> {
  if (!isObject(body)) invalid('body', 'body', 'the body must be an object with nodes and edges');
  for (const key of Object.keys(body)) {
    if (key !== 'nodes' && key !== 'edges') throw new ValidationError('unknown_field', `field '${key}' is not allowed (allowed: nodes, edges)`, { field: key });
  }
  const nodes = body.nodes === undefined ? [] : body.nodes;
  const edges = body.edges === undefined ? [] : body.edges;
  if (!Array.isArray(nodes)) invalid('body', 'nodes', 'nodes must be an array');
  if (!Array.isArray(edges)) invalid('body', 'edges', 'edges must be an array');
  const slicer = new LoopSlicer();
  const write: GraphWrite = { nodes: [], edges: [] };
  for (const [i, record] of nodes.entries()) {
    if (slicer.dueStep()) await slicer.turn();
    write.nodes.push(nodeFromRecord(record, `nodes[${i}]`));
  }
  for (const [i, record] of edges.entries()) {
    if (slicer.dueStep()) await slicer.turn();
    write.edges.push(edgeFromRecord(record, `edges[${i}]`));
  }
  return write;
}

/**
 * A JSON Lines import body: one `{"node": …}` or `{"edge": …}` per line; blank lines
 * are skipped. Read line by line, with the event loop turning between slices.
 */
export async function graphWriteFromJsonLines(text: string): Promise<GraphWrite> {
  const write: GraphWrite = { nodes: [], edges: [] };
  const slicer = new LoopSlicer();
  for (let start = 0, number = 1; start < text.length; number++) {
    if (slicer.dueStep()) await slicer.turn();
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const where = `line ${number}`;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      const { what, offset } = jsonParseComplaint(error, line.length);
      const column = offset === undefined ? undefined : offset + 1;
      throw new ValidationError('invalid_json_line', `${where}${column === undefined ? '' : `, column ${column}`}: not valid JSON (${what})`, { line: number, ...(column === undefined ? {} : { column }) });
    }
    checkStrings(entry, where);
    if (isObject(entry) && Object.keys(entry).length === 1 && 'node' in entry) write.nodes.push(nodeFromRecord(entry.node, where));
    else if (isObject(entry) && Object.keys(entry).length === 1 && 'edge' in entry) write.edges.push(edgeFromRecord(entry.edge, where));
    else invalid(where, 'record', 'each line must be {"node": {...}} or {"edge": {...}}');
  }
  return write;
}

/**
 * JSON.parse's complaint about `length` characters of JSON without the position V8 puts
 * in it ("… in JSON at position 12"), which counts from the start of what it was given,
 * and that position (the end, for "Unexpected end of JSON input"; none known for
 * "Unexpected token … is not valid JSON").
 */
function jsonParseComplaint(error: unknown, length: number): { what: string; offset?: number } {
  const message = (error as Error).message;
  const at = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message);
  if (at) return { what: message.slice(0, at.index), offset: Number(at[1]) };
  return message === 'Unexpected end of JSON input' ? { what: message, offset: length } : { what: message };
}

/** A position in a text as a person finds it: with the line and column where the text has lines. */
function located(text: string, position: number): { where: string; details: Record<string, number> } {
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  if (lineStart === 0 && text.indexOf('\n', position) < 0) return { where: `position ${position}`, details: { position } };
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < lineStart; i = text.indexOf('\n', i + 1)) line++;
  const column = position - lineStart + 1;
  return { where: `line ${line}, column ${column} (position ${position})`, details: { position, line, column } };
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [...'"\\,:{}[]'].map((c) => c.charCodeAt(0));

/**
 * The JSON text of an import body parsed one record at a time, where JSON.parse of the
 * whole would hold the event loop for the whole body (100 ms for 10 MB, and every
 * string check after it as long again). Only the frame `{"nodes": [ … ], "edges":
 * [ … ]}` is scanned here; each record's text goes to JSON.parse, which refuses what it
 * always refuses, and its strings are checked as every JSON body's are. What does not
 * have the import's shape is parsed too, for the route's schema to refuse.
 */
export async function parseGraphJson(text: string): Promise<Record<string, unknown>> {
  const slicer = new LoopSlicer();
  let at = 0;
  const malformed = (what: string, position = at): never => {
    const { where, details } = located(text, position);
    throw new ValidationError('malformed_json', `the body is not valid JSON: ${what} at ${where}`, details);
  };
  const skipSpace = () => {
    while (at < text.length && WHITESPACE.has(text.charCodeAt(at))) at++;
  };
  const expect = (code: number, what: string) => {
    skipSpace();
    if (text.charCodeAt(at) !== code) malformed(`expected ${what}`);
    at++;
  };
  /** The index of the quote that closes the string opened at `from`. */
  const stringEnd = (from: number): number => {
    for (let i = from + 1; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) return i;
    }
    at = text.length;
    return malformed('unterminated string');
  };
  /** Where the value starting at `at` ends: after its closing bracket, or at the delimiter after a scalar. */
  const valueEnd = (): number => {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) i = stringEnd(i);
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (depth === 0) return i;
        if (--depth === 0) return i + 1;
      } else if (code === COMMA && depth === 0) return i;
    }
    return text.length;
  };
  const parseSlice = (end: number): unknown => {
    try {
      return JSON.parse(text.slice(at, end));
    } catch (error) {
      const { what, offset } = jsonParseComplaint(error, end - at);
      return malformed(what, at + (offset ?? 0));
    } finally {
      at = end;
    }
  };

  skipSpace();
  if (text.charCodeAt(at) !== OPEN_BRACE) {
    // not the import's shape: parsed whole, for the schema to say what is wrong
    const value = parseSlice(text.length);
    checkStrings(value);
    return value as Record<string, unknown>;
  }
  at++;
  const body: Record<string, unknown> = {};
  skipSpace();
  if (text.charCodeAt(at) === CLOSE_BRACE) at++;
  else {
    for (;;) {
      skipSpace();
      if (text.charCodeAt(at) !== QUOTE) malformed('expected a member name');
      const key = parseSlice(stringEnd(at) + 1) as string;
      checkMemberName(key, key);
      expect(COLON, "':'");
      skipSpace();
      if (text.charCodeAt(at) === OPEN_BRACKET && (key === 'nodes' || key === 'edges')) {
        at++;
        const records: unknown[] = [];
        skipSpace();
        if (text.charCodeAt(at) === CLOSE_BRACKET) at++;
        else {
          for (;;) {
            if (slicer.dueStep()) await slicer.turn();
            skipSpace();
            const record = parseSlice(valueEnd());
            checkStrings(record, `${key}[${records.length}]`);
            records.push(record);
            skipSpace();
            const next = text.charCodeAt(at);
            if (next !== COMMA && next !== CLOSE_BRACKET) malformed("expected ',' or ']'");
            at++;
            if (next === CLOSE_BRACKET) break;
          }
        }
        body[key] = records;
      } else {
        // any other member, kept for the schema to refuse
        const value = parseSlice(valueEnd());
        checkStrings(value, key);
        body[key] = value;
      }
      skipSpace();
      const next = text.charCodeAt(at);
      if (next !== COMMA && next !== CLOSE_BRACE) malformed("expected ',' or '}'");
      at++;
      if (next === CLOSE_BRACE) break;
    }
  }
  skipSpace();
  if (at < text.length) malformed('unexpected text after the body');
  return body;
}

export function nodeToRecord(node: NodeRecord): JsonObject {
  const [kind, ...extra] = node.labels;
  return {
    kind,
    id: node.id,
    ...(extra.length > 0 ? { labels: extra } : {}),
    ...node.properties,
    confidence: node.confidence,
    ...(node.provenance.length > 0 ? { provenance: summariseProvenance(node.provenance) } : {}),
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
    ...(edge.provenance.length > 0 ? { provenance: summariseProvenance(edge.provenance) } : {}),
    recorded_at: edge.recorded_at,
  };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Records sorted in runs of this many, then merged: a slice of work between turns of the loop. */
const SORT_RUN = 4096;
/** Characters of JSON Lines per chunk of the export stream (one line each was one socket write). */
const EXPORT_CHUNK_BYTES = 64 * 1024;

/**
 * `items` sorted by id, a slice at a time (sorted runs, then merged pairwise), with
 * the event loop turning between slices: one sort of a graph's ids held it for
 * hundreds of milliseconds.
 */
async function sortedById<T extends { id: string }>(items: T[], slicer: LoopSlicer): Promise<T[]> {
  let from = items;
  for (let i = 0; i < from.length; i += SORT_RUN) {
    if (slicer.due()) await slicer.turn();
    const run = from.slice(i, i + SORT_RUN).sort(byId);
    for (let j = 0; j < run.length; j++) from[i + j] = run[j];
  }
  let into = new Array<T>(from.length);
  for (let width = SORT_RUN; width < from.length; width *= 2) {
    for (let low = 0; low < from.length; low += 2 * width) {
      const middle = Math.min(low + width, from.length);
      const high = Math.min(low + 2 * width, from.length);
      for (let i = low, left = low, right = middle; i < high; i++) {
        if ((i & 1023) === 0 && slicer.due()) await slicer.turn();
        into[i] = right >= high || (left < middle && byId(from[left], from[right]) <= 0) ? from[left++] : from[right++];
      }
    }
    [from, into] = [into, from];
  }
  return from;
}

/**
 * The export stream: JSON Lines, every node before any edge so import can check
 * endpoints, each sorted by id so the same graph always exports the same bytes. The
 * graph is read as it was when the export began (records are replaced, never edited,
 * so the captured arrays are that state), and the event loop turns between slices.
 */
export async function* exportJsonLines(index: GraphIndex): AsyncGenerator<string> {
  const slicer = new LoopSlicer();
  const nodes = [...index.nodes.values()];
  const edges = [...index.edges.values()];
  // the edges are sorted only once the nodes have gone out
  async function* lines(): AsyncGenerator<string> {
    for (const node of await sortedById(nodes, slicer)) yield JSON.stringify({ node: nodeToRecord(node) }) + '\n';
    for (const edge of await sortedById(edges, slicer)) yield JSON.stringify({ edge: edgeToRecord(edge) }) + '\n';
  }
  let chunk = '';
  for await (const line of lines()) {
    chunk += line;
    if (chunk.length >= EXPORT_CHUNK_BYTES) {
      yield chunk;
      chunk = '';
    }
    if (slicer.due()) await slicer.turn();
  }
  if (chunk) yield chunk;
}
