import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { decodeEdge, decodeNode, encodeEdge, encodeNode, isJsonRecord } from '../../engine/store/record-codec.ts';

const at = '2024-03-03T10:00:00.000Z';
const provenance = [{ source: 'doc.txt', timestamp: '2024-03-03', span: { start: 4, end: 7 }, quote: 'a\u0000b\u0001c "q"', extra: [1, { x: null }] }];

const nodes: NodeRecord[] = [
  { id: 'n1', labels: ['Actor'], properties: { label: 'RSF', actor_type: 'armed_group' }, confidence: 1, provenance: [], recorded_at: at },
  { id: 'n2', labels: ['Claim', 'Extra', 'Third'], properties: {}, confidence: 1, provenance: [], recorded_at: '2024' },
  { id: 'n3', labels: ['Actor'], properties: {}, confidence: 0.25, provenance: [], recorded_at: at },
  { id: 'n4', labels: ['Actor'], properties: {}, confidence: 1, provenance, recorded_at: at },
  { id: 'n5 "odd" \\ id', labels: ['Thing'], properties: { text: 'nul \u0000 and \u0001 inside', nested: { list: [1, 'two', true, null] }, n: -0.5, yes: false }, confidence: 0, provenance, recorded_at: at },
];
const edges: EdgeRecord[] = [
  { id: 'e1', type: 'ASSERTS', from: 'n1', to: 'n2', properties: {}, confidence: 1, provenance: [], recorded_at: at },
  { id: 'e2', type: 'TARGETS', from: 'n2', to: 'n5 "odd" \\ id', properties: { weight: 3 }, confidence: 1, provenance: [], recorded_at: at },
  { id: 'e3', type: 'X', from: 'n1', to: 'n1', properties: {}, confidence: 0.7, provenance: [], recorded_at: at },
  { id: 'e4', type: 'X', from: 'n1', to: 'n1', properties: {}, confidence: 1, provenance, recorded_at: at },
  { id: 'e5', type: 'X', from: 'n1', to: 'n1', properties: { s: '\u0000' }, confidence: 0.1 + 0.2, provenance, recorded_at: at },
];

describe('record codec', () => {
  it('gives back every field of nodes and edges, defaults left out or not, values with control characters included', () => {
    for (const node of nodes) expect(decodeNode(node.id, encodeNode(node))).toStrictEqual(node);
    for (const edge of edges) expect(decodeEdge(edge.id, encodeEdge(edge))).toStrictEqual(edge);
  });

  it('keeps a record with default fields shorter than its JSON, and never mistaken for a JSON record', () => {
    expect(encodeEdge(edges[0]).length).toBeLessThan(JSON.stringify(edges[0]).length / 2);
    for (const node of nodes) expect(isJsonRecord(encodeNode(node))).toBe(false);
    for (const edge of edges) expect(isJsonRecord(encodeEdge(edge))).toBe(false);
    expect(isJsonRecord(JSON.stringify(nodes[0]))).toBe(true);
  });

  it('gives back a record whose list is in chunks from its value and the chunks, and a decoder that reads the field as JSON fails on it', () => {
    const long = { ...nodes[4], provenance: Array.from({ length: 5 }, (_, n) => ({ ...provenance[0], span: { start: n, end: n + 1 } })) };
    const value = encodeNode(long, true);
    const chunks = [JSON.stringify(long.provenance.slice(0, 2)), JSON.stringify(long.provenance.slice(2, 3)), JSON.stringify(long.provenance.slice(3))];
    expect(decodeNode(long.id, value, chunks)).toStrictEqual(long);
    const edge = { ...edges[4], provenance: long.provenance };
    expect(decodeEdge(edge.id, encodeEdge(edge, true), chunks)).toStrictEqual(edge);
    // a version before chunks parses the field as JSON
    expect(() => JSON.parse(value.split('\u0000').at(-1)!)).toThrow(SyntaxError);
  });

  it('refuses a value and chunks that disagree (store corruption), never reading the list as empty', () => {
    const long = { ...nodes[4], provenance: Array.from({ length: 3 }, (_, n) => ({ ...provenance[0], span: { start: n, end: n + 1 } })) };
    const chunks = [JSON.stringify(long.provenance)];
    // marked chunked, no chunk found
    expect(() => decodeNode(long.id, encodeNode(long, true), [])).toThrow(/in chunks, but it has none/);
    expect(() => decodeEdge(edges[4].id, encodeEdge({ ...edges[4], provenance: long.provenance }, true))).toThrow(/in chunks, but it has none/);
    // chunks beside a value that holds its list, or that has none
    expect(() => decodeNode(long.id, encodeNode(long), chunks)).toThrow(/whose value holds its list/);
    expect(() => decodeNode(nodes[0].id, encodeNode({ ...nodes[0], provenance: [] }), chunks)).toThrow(/whose value holds its list/);
  });
});
