import { createHash } from 'node:crypto';
import { NODE_IDENTITY_PROPERTIES, isNodeKind, type PropertyValue } from '../ontology/index.ts';

/**
 * Deterministic ids (DESIGN.md decision 6): derived from normalised content, never
 * from time or randomness, so the same document ingested twice gives the same ids.
 */

/** Marks that change nothing a reader sees: bidi controls, zero-width characters, soft hyphen, BOM, Arabic letter mark. */
export const INVISIBLE_MARKS = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/** Case, Unicode form, punctuation, invisible marks, the kind of dash and spacing do not change identity. */
export function normaliseForIdentity(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE_MARKS, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201c\u201d'"`.,;:!?()[\]{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 20);
}

function identityPart(value: PropertyValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return normaliseForIdentity(value);
  return canonicalJson(value);
}

/** The id of a node of `kind` with these properties: a kind prefix and a content hash. */
export function deriveNodeId(kind: string, properties: Record<string, PropertyValue>): string {
  const keys = isNodeKind(kind) ? NODE_IDENTITY_PROPERTIES[kind] : Object.keys(properties).sort();
  const parts = [kind, ...keys.map((key) => `${key}=${identityPart(properties[key])}`)];
  return `${kind.toLowerCase()}_${digest(parts)}`;
}

/**
 * The id of an edge: its type, endpoints and properties. Edges that differ in any of
 * these are distinct parallel edges; the same edge stated twice is one edge.
 */
export function deriveEdgeId(type: string, from: string, to: string, properties: Record<string, PropertyValue> = {}): string {
  return `e_${digest([type, from, to, canonicalJson(properties)])}`;
}

/** JSON with object keys sorted, so equal values always serialise alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + canonicalJson(v)).join(',') + '}';
}
