/**
 * How a node or edge record is kept as a LevelDB value (layout 4; layouts up to 3 kept
 * `JSON.stringify(record)`). An import spent about a sixth of its CPU in JSON.stringify of
 * whole records, and LevelDB and its binding pay again for every byte; most records carry
 * empty properties, no provenance and the default confidence. So the value is its fields
 * joined with NUL, in a fixed order, the empty tail left out:
 *
 *   node:  recorded_at ␀ labels (joined with U+0001) [␀ properties [␀ confidence [␀ provenance]]]
 *   edge:  recorded_at ␀ type ␀ from ␀ to [␀ properties [␀ confidence [␀ provenance]]]
 *
 * properties and provenance are JSON (`` for `{}` and `[]`), confidence a number (`` for 1).
 * The backends keep a long provenance list in chunks under keys (rows) of their own
 * (provenance-chunks.ts), each a JSON array of entries, and the provenance field says so: `*`,
 * which no JSON starts with (so a version that does not know chunks fails on the value rather
 * than reading no provenance).
 * The id is the key's last segment, not repeated here. NUL and U+0001 cannot occur inside a
 * field: ids, labels and types have no control character, recorded_at is an ISO 8601
 * instant (validate.ts), and JSON escapes every control character.
 */
import type { EdgeRecord, NodeRecord, Provenance } from '../ontology/index.ts';
import { noteDurableInChunks } from './provenance-chunks.ts';
import { inlineProvenanceText, type ProvenanceJson } from './provenance-json.ts';

const FIELD = '\u0000';
const LABEL = '\u0001';
/** The provenance field of a record whose list is kept in chunks. */
const IN_CHUNKS = '*';
/** The confidence a record has when its value leaves it out (the store's default). */
const FULL_CONFIDENCE = 1;

/**
 * `provenanceInChunks`: the value says its list is in chunks, written beside it, rather than holding it.
 * `known`: the texts of lists the commit's merge made from known ones (provenance-json.ts), not serialised again.
 */
export function encodeNode(node: NodeRecord, provenanceInChunks = false, known?: ProvenanceJson): string {
  return node.recorded_at + FIELD + node.labels.join(LABEL) + tail(node, provenanceInChunks, known);
}

export function encodeEdge(edge: EdgeRecord, provenanceInChunks = false, known?: ProvenanceJson): string {
  return edge.recorded_at + FIELD + edge.type + FIELD + edge.from + FIELD + edge.to + tail(edge, provenanceInChunks, known);
}

/** properties, confidence and provenance, each left out when it and all after it are the default. */
function tail(record: NodeRecord | EdgeRecord, provenanceInChunks: boolean, known: ProvenanceJson | undefined): string {
  let tail = record.provenance.length === 0 ? '' : FIELD + (provenanceInChunks ? IN_CHUNKS : inlineProvenanceText(record.provenance, known));
  if (tail !== '' || record.confidence !== FULL_CONFIDENCE) tail = FIELD + (record.confidence === FULL_CONFIDENCE ? '' : String(record.confidence)) + tail;
  if (tail !== '' || !isEmpty(record.properties)) tail = FIELD + (isEmpty(record.properties) ? '' : propertiesJson(record.properties, provenanceInChunks)) + tail;
  return tail;
}

/**
 * The JSON of each long-listed record's properties as last encoded, by the properties object: such a
 * record (a much-mentioned actor) is encoded again at every commit that names it, mostly with its
 * properties unchanged, which merging then leaves as the same object (merge.ts mergeNodeProperties).
 * Weak, and only for records whose list is in chunks: it holds at most one string per such record of
 * the graphs in memory, about the size of their properties.
 */
const longListedProperties = new WeakMap<object, string>();

function propertiesJson(properties: object, longListed: boolean): string {
  if (!longListed) return JSON.stringify(properties);
  let json = longListedProperties.get(properties);
  if (json === undefined) longListedProperties.set(properties, (json = JSON.stringify(properties)));
  return json;
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/**
 * `chunks`: the JSON of the chunks stored beside the value, in key order (none when the value
 * holds its list); `head`: the entries before the first of them, when they do not start at 0.
 */
export function decodeNode(id: string, value: string, chunks: readonly string[] = [], head: readonly Provenance[] = []): NodeRecord {
  const fields = value.split(FIELD);
  return {
    id,
    labels: fields[1].split(LABEL),
    properties: fields.length > 2 && fields[2] !== '' ? JSON.parse(fields[2]) : {},
    confidence: fields.length > 3 && fields[3] !== '' ? Number(fields[3]) : FULL_CONFIDENCE,
    provenance: decodeProvenance(id, fields.length > 4 ? fields[4] : undefined, chunks, head),
    recorded_at: fields[0],
  };
}

export function decodeEdge(id: string, value: string, chunks: readonly string[] = [], head: readonly Provenance[] = []): EdgeRecord {
  const fields = value.split(FIELD);
  return {
    id,
    type: fields[1],
    from: fields[2],
    to: fields[3],
    properties: fields.length > 4 && fields[4] !== '' ? JSON.parse(fields[4]) : {},
    confidence: fields.length > 5 && fields[5] !== '' ? Number(fields[5]) : FULL_CONFIDENCE,
    provenance: decodeProvenance(id, fields.length > 6 ? fields[6] : undefined, chunks, head),
    recorded_at: fields[0],
  };
}

/**
 * The list from the value's field (undefined: left out, empty) or from `head` and the chunks. A value and
 * chunks that disagree are a corrupt store: read as an empty list, the next write would append
 * from 0 and lose the entries for good, so it throws (as a chunk without its record does).
 */
function decodeProvenance(id: string, field: string | undefined, chunks: readonly string[], head: readonly Provenance[]): Provenance[] {
  if (field !== IN_CHUNKS) {
    if (chunks.length > 0) throw new Error(`provenance chunks beside ${id}, whose value holds its list: the store is corrupt`);
    return field === undefined ? [] : JSON.parse(field);
  }
  if (chunks.length === 0) throw new Error(`the provenance of ${id} is in chunks, but it has none: the store is corrupt`);
  const list = head.slice();
  for (const chunk of chunks) for (const entry of JSON.parse(chunk) as Provenance[]) list.push(entry);
  noteDurableInChunks(list);
  return list;
}

/** A value as layouts up to 3 wrote it (a JSON object), which layout 4 values never are: they start with recorded_at. */
export function isJsonRecord(value: string): boolean {
  return value.charCodeAt(0) === 0x7b; // '{'
}
