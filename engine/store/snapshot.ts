/**
 * A graph's in-memory records as one file, so that a restart reads one file instead of
 * iterating every record key in LevelDB. LevelDB stays the source of truth: a snapshot
 * is used only when its header names the graph's current generation and revision, its
 * length and SHA-256 match, and it decodes; anything else (absent, stale, torn by a crash,
 * corrupt) means the graph is rebuilt from its records. Written to a temporary file,
 * synced, then renamed over the old one, so a reader sees a whole old or a whole new file.
 *
 * Layout: one header line of JSON, then the body in binary, built to load without a
 * JSON.parse per record (format 1, JSON of every record, loaded a million-fact graph
 * slower than LevelDB did):
 *   - a string table: every distinct string (ids, labels, property keys and values) once,
 *     as one latin1 or UTF-16 run that is decoded in one call and cut by lengths;
 *   - node count, edge count, then each record as a tagged value whose strings are
 *     indexes into the table. Values are encoded generically, so a record comes back
 *     exactly as it was stored, with its members in the same order;
 *   - for each edge, the positions of its two end nodes among the nodes (format 3), so
 *     that a load places edges without looking their ends up by id.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { GraphIndex } from './graph-index.ts';
import { replaceFile } from '../files.ts';
import { LoopSlicer } from '../turns.ts';

const FORMAT = 3;

interface SnapshotHeader {
  format: number;
  generation: string;
  revision: number;
  bytes: number;
  sha256: string;
}

/**
 * Where a graph's file of `kind` lives under `dir`: its snapshot, its view image (engine/reason/view-images.ts), or its
 * frameworks' stored runs (engine/reason/stored-runs.ts).
 * The ids are URI-encoded ('/' becomes %2F) into one name, so that no id reaches another folder.
 */
export function graphFile(dir: string, tenant: string, graphId: string, kind: 'snapshot' | 'view' | 'runs'): string {
  return path.join(dir, `${encodeURIComponent(tenant)}~${encodeURIComponent(graphId)}.${kind}`);
}

/** Where a graph's snapshot lives under `dir`. */
export function snapshotFile(dir: string, tenant: string, graphId: string): string {
  return graphFile(dir, tenant, graphId, 'snapshot');
}

/** The graph whose snapshot a file under the snapshot folder is, by its name (snapshotFile's); undefined for any other file. */
function graphOfSnapshotFile(name: string): { tenant: string; graphId: string } | undefined {
  const match = /^([^~]*)~([^~]*)\.snapshot$/.exec(name);
  return match ? { tenant: decodeURIComponent(match[1]), graphId: decodeURIComponent(match[2]) } : undefined;
}

/** Whether `file` is named as the snapshot of this tenant's graph (snapshotFile's name, in whatever folder): a reader given a path reads no other graph's. */
export function isSnapshotFileOf(file: string, tenant: string, graphId: string): boolean {
  return path.basename(file) === path.basename(snapshotFile('', tenant, graphId));
}

export async function writeSnapshot(file: string, generation: string, revision: number, graph: GraphIndex): Promise<void> {
  const body = encodeGraph(graph.nodes.values(), graph.edges.values(), graph.nodeCount, graph.edgeCount);
  const header: SnapshotHeader = { format: FORMAT, generation, revision, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') };
  await mkdir(path.dirname(file), { recursive: true });
  await replaceFile(file, Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), body]), { durable: true });
}

/**
 * Bytes of a snapshot file read at a time (readSnapshot): a reader hears of each, so that a read is silent only while no
 * bytes come. One readFile of a 10M-fact file (285 MB) said nothing until its last byte, a silence that a slow disk or a
 * busy threadpool could stretch past the replica wait (REPLICA_WAIT_MS) of a read that was going on.
 */
const SNAPSHOT_READ_CHUNK_BYTES = 16 * 2 ** 20;

/**
 * The graph the snapshot holds, when it is whole and of this generation and revision; else undefined. `onProgress` is
 * called after each `chunkBytes` of the file read and before each pause of its decode: a reader that gives up a read with
 * no news for a while (a worker's replica, ReplicaSet) hears that a long one still goes on.
 */
export async function readSnapshot(
  file: string,
  generation: string,
  revision: number,
  onProgress: () => void = () => {},
  chunkBytes = SNAPSHOT_READ_CHUNK_BYTES,
): Promise<GraphIndex | undefined> {
  let content: Buffer;
  try {
    content = await readInChunks(file, chunkBytes, onProgress);
  } catch {
    return undefined;
  }
  const newline = content.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(content.subarray(0, newline).toString()) as SnapshotHeader;
    const body = content.subarray(newline + 1);
    if (header.format !== FORMAT || header.generation !== generation || header.revision !== revision || header.bytes !== body.length) return undefined;
    if (createHash('sha256').update(body).digest('hex') !== header.sha256) return undefined;
    const { nodes, edges, ends } = await decodeGraphSliced(body, onProgress);
    return GraphIndex.fromDistinctRecords(nodes, edges, ends);
  } catch {
    return undefined;
  }
}

/**
 * The file's bytes, read `chunkBytes` at a time into one buffer of its size, `onChunk` called after each. A snapshot is
 * replaced by a rename, never written in place, so the file opened keeps the size it had; one found shorter (cut short
 * some other way) comes back as far as it goes, and its header's length then rejects it.
 */
async function readInChunks(file: string, chunkBytes: number, onChunk: () => void): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const content = Buffer.allocUnsafe(size);
    let length = 0;
    while (length < size) {
      const { bytesRead } = await handle.read(content, length, Math.min(chunkBytes, size - length), length);
      if (bytesRead === 0) break;
      length += bytesRead;
      onChunk();
    }
    return content.subarray(0, length);
  } finally {
    await handle.close();
  }
}

export async function removeSnapshot(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * The graphs that have a snapshot in `dir` (snapshotFile's names), with its size, most recently written first:
 * the graphs this store held in memory at its last closes, as a restart can know them without
 * reading any (a snapshot is written at close for a graph loaded and changed since its last).
 */
export async function snapshotGraphs(dir: string): Promise<{ tenant: string; graphId: string; bytes: number }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const stated = await Promise.all(
    names.map(async (name) => {
      const graph = graphOfSnapshotFile(name);
      const stats = graph && (await stat(path.join(dir, name)).catch(() => undefined));
      return stats ? { ...graph!, bytes: stats.size, written: stats.mtimeMs } : undefined;
    }),
  );
  const found = stated.filter((entry) => entry !== undefined);
  return found.sort((a, b) => b.written - a.written || (a.tenant + a.graphId < b.tenant + b.graphId ? -1 : 1)).map(({ tenant, graphId, bytes }) => ({ tenant, graphId, bytes }));
}

/** Removes the temporary files of snapshot writes a crash cut short. */
export async function removeUnfinishedSnapshots(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.tmp')) await rm(path.join(dir, name), { force: true });
}

// ---- the body ---------------------------------------------------------------------------

/**
 * Value tags. Integers that fit 31 bits are varints; every other number is a float64. A
 * map is SHAPED when its member names were seen together before (records share a handful
 * of shapes): the names are written once, and each kind of map is read back by an object
 * literal of its own, which V8 builds far faster than one member at a time.
 */
const NULL = 0, FALSE = 1, TRUE = 2, INT = 3, FLOAT = 4, STRING = 5, LIST = 6, MAP = 7, SHAPED = 8;
const LATIN1 = 0, UTF16 = 1;
/** Shapes compiled at most per snapshot: maps of further shapes (free-form properties) are written name by name. */
const MAX_SHAPES = 256;
const WIDE = /[^\u0000-\u00ff]/;

class Writer {
  private buffer = Buffer.allocUnsafe(1 << 16);
  length = 0;

  reserve(bytes: number): Buffer {
    if (this.length + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.buffer;
  }

  byte(value: number): void {
    this.reserve(1)[this.length++] = value;
  }

  varint(value: number): void {
    const buffer = this.reserve(5);
    while (value >= 0x80) {
      buffer[this.length++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buffer[this.length++] = value;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

class Encoder {
  readonly out = new Writer();
  /** Every distinct string, by its index in the table. */
  readonly strings = new Map<string, number>();
  /** Whether some string needs more than latin1. */
  wide = false;
  /** Shapes by their member names in order, and each shape's names as string indexes. */
  private readonly shapeTrie: ShapeNode = { next: new Map(), names: [] };
  readonly shapeNames: number[][] = [];

  string(text: string): number {
    let index = this.strings.get(text);
    if (index === undefined) {
      this.strings.set(text, (index = this.strings.size));
      if (!this.wide && WIDE.test(text)) this.wide = true;
    }
    return index;
  }

  value(value: unknown): void {
    const out = this.out;
    if (typeof value === 'string') {
      out.byte(STRING);
      out.varint(this.string(value));
    } else if (typeof value === 'number') {
      if (Number.isInteger(value) && value >= 0 && value < 0x80000000 && !Object.is(value, -0)) {
        out.byte(INT);
        out.varint(value);
      } else {
        out.byte(FLOAT);
        out.reserve(8).writeDoubleLE(value, out.length);
        out.length += 8;
      }
    } else if (value === null || value === undefined) out.byte(NULL);
    else if (value === true) out.byte(TRUE);
    else if (value === false) out.byte(FALSE);
    else if (Array.isArray(value)) {
      out.byte(LIST);
      out.varint(value.length);
      for (const item of value) this.value(item);
    } else this.map(value as Record<string, unknown>);
  }

  private map(map: Record<string, unknown>): void {
    const out = this.out;
    // find the shape by walking its names down a trie: no key string built per map
    let node = this.shapeTrie;
    let members = 0;
    for (const name in map) {
      if (map[name] === undefined) continue;
      let next = node.next.get(name);
      if (!next) node.next.set(name, (next = { next: new Map(), names: [...node.names, name] }));
      node = next;
      members++;
    }
    if (node.shape === undefined) {
      if (this.shapeNames.length === MAX_SHAPES) {
        out.byte(MAP);
        out.varint(members);
        for (const name in map) {
          if (map[name] === undefined) continue;
          out.varint(this.string(name));
          this.value(map[name]);
        }
        return;
      }
      node.shape = this.shapeNames.length;
      this.shapeNames.push(node.names.map((name) => this.string(name)));
    }
    out.byte(SHAPED);
    out.varint(node.shape);
    for (const name in map) if (map[name] !== undefined) this.value(map[name]);
  }
}

interface ShapeNode {
  next: Map<string, ShapeNode>;
  names: string[];
  shape?: number;
}

export function encodeGraph(nodes: Iterable<NodeRecord>, edges: Iterable<EdgeRecord>, nodeCount: number, edgeCount: number): Buffer {
  const encoder = new Encoder();
  encoder.out.varint(nodeCount);
  encoder.out.varint(edgeCount);
  // a node's position, by the table index of its id (ids are strings of the table)
  const positions = new Map<number, number>();
  for (const node of nodes) {
    positions.set(encoder.string(node.id), positions.size);
    encoder.value(node);
  }
  const ends: number[] = [];
  for (const edge of edges) {
    encoder.value(edge);
    ends.push(positions.get(encoder.string(edge.from)) ?? -1, positions.get(encoder.string(edge.to)) ?? -1);
  }
  for (const end of ends) encoder.out.varint(end + 1);

  const table = [...encoder.strings.keys()];
  const head = new Writer();
  head.byte(encoder.wide ? UTF16 : LATIN1);
  head.varint(table.length);
  for (const text of table) head.varint(text.length);
  const text = Buffer.from(table.join(''), encoder.wide ? 'utf16le' : 'latin1');
  head.varint(text.length);
  const shapes = new Writer();
  shapes.varint(encoder.shapeNames.length);
  for (const names of encoder.shapeNames) {
    shapes.varint(names.length);
    for (const name of names) shapes.varint(name);
  }
  return Buffer.concat([head.bytes(), text, shapes.bytes(), encoder.out.bytes()]);
}

/** The records, and each edge's end positions among the nodes as GraphIndex.fromDistinctRecords takes them. */
export function decodeGraph(body: Buffer): Decoded {
  const steps = decodeSteps(body);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * decodeGraph a slice at a time (turns.ts): a restart loads graphs in the background
 * (engine/reason/warm.ts), and a 100k-fact graph's decode held the event loop for 0.2-0.6 s.
 */
async function decodeGraphSliced(body: Buffer, beforePause: () => void): Promise<Decoded> {
  const slicer = new LoopSlicer();
  const steps = decodeSteps(body);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (!slicer.due()) continue;
    beforePause();
    await slicer.turn();
  }
}

interface Decoded {
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  ends: Int32Array;
}

/** Records (or strings of the table) decoded between two steps of decodeSteps (each a look at the clock, for decodeGraphSliced). */
const RECORDS_PER_STEP = 64;

/** The decode, a step every RECORDS_PER_STEP strings and records. */
function* decodeSteps(body: Buffer): Generator<void, Decoded> {
  const reader = new Reader(body);
  const wide = body[reader.at++] === UTF16;
  const count = reader.varint();
  const lengths = new Uint32Array(count);
  for (let i = 0; i < count; i++) lengths[i] = reader.varint();
  const textBytes = reader.varint();
  const text = body.toString(wide ? 'utf16le' : 'latin1', reader.at, reader.at + textBytes);
  reader.at += textBytes;
  const table = new Array<string>(count);
  for (let i = 0, offset = 0; i < count; offset += lengths[i], i++) {
    table[i] = text.slice(offset, offset + lengths[i]);
    if (i % RECORDS_PER_STEP === 0) yield;
  }
  reader.table = table;
  reader.shapes = Array.from({ length: reader.varint() }, () => shapeReader(Array.from({ length: reader.varint() }, () => reader.string())));
  const nodes = new Array<NodeRecord>(reader.varint());
  const edges = new Array<EdgeRecord>(reader.varint());
  for (let i = 0; i < nodes.length; i++) {
    nodes[i] = reader.value() as NodeRecord;
    if (i % RECORDS_PER_STEP === 0) yield;
  }
  for (let i = 0; i < edges.length; i++) {
    edges[i] = reader.value() as EdgeRecord;
    if (i % RECORDS_PER_STEP === 0) yield;
  }
  const ends = new Int32Array(2 * edges.length);
  for (let i = 0; i < ends.length; i++) ends[i] = reader.varint() - 1;
  if (reader.at !== body.length) throw new RangeError('snapshot holds more than its records');
  return { nodes, edges, ends };
}

type ShapeReader = (reader: Reader) => Record<string, unknown>;

/**
 * Reads a map of one shape: an object literal naming its members (their values read in
 * order), compiled once per shape. Names are written as JSON string literals, so no name
 * can break out of the literal; a shape naming __proto__ (which a literal would take for
 * the prototype) is read member by member instead.
 */
function shapeReader(names: string[]): ShapeReader {
  if (names.includes('__proto__')) {
    return (reader) => {
      const map: Record<string, unknown> = {};
      for (const name of names) defineMember(map, name, reader.value());
      return map;
    };
  }
  return new Function('reader', `return {${names.map((name) => `${JSON.stringify(name)}: reader.value()`).join(', ')}};`) as ShapeReader;
}

/** As JSON.parse does: a member named __proto__ is data, not the prototype. */
function defineMember(map: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true });
  else map[name] = value;
}

class Reader {
  at = 0;
  table: string[] = [];
  shapes: ShapeReader[] = [];
  constructor(private readonly body: Buffer) {}

  varint(): number {
    const first = this.body[this.at++];
    if (first < 0x80) return first;
    let value = first & 0x7f;
    for (let shift = 7; ; shift += 7) {
      const byte = this.body[this.at++];
      if (byte === undefined) throw new RangeError('snapshot ends early');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }

  string(): string {
    const text = this.table[this.varint()];
    if (text === undefined) throw new RangeError('snapshot names a string it does not hold');
    return text;
  }

  value(): unknown {
    switch (this.body[this.at++]) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case INT:
        return this.varint();
      case FLOAT:
        this.at += 8;
        return this.body.readDoubleLE(this.at - 8);
      case STRING:
        return this.string();
      case LIST: {
        const list = new Array<unknown>(this.varint());
        for (let i = 0; i < list.length; i++) list[i] = this.value();
        return list;
      }
      case MAP: {
        const map: Record<string, unknown> = {};
        for (let i = this.varint(); i > 0; i--) defineMember(map, this.string(), this.value());
        return map;
      }
      case SHAPED: {
        const read = this.shapes[this.varint()];
        if (read === undefined) throw new RangeError('snapshot names a shape it does not hold');
        return read(this);
      }
      default:
        throw new RangeError('snapshot holds an unknown value tag');
    }
  }
}
