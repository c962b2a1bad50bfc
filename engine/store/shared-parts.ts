import type { EdgeRecord, NodeRecord, PropertyValue, Provenance } from '../ontology/index.ts';

/**
 * The provenance of a record that has none, and the properties of a record that has none:
 * shared by every such record (most imported edges), where an empty array and object each
 * cost every record 16-28 bytes. Frozen, so that no code can change one record's through
 * another's (stored records are replaced, never edited).
 */
export const NO_PROVENANCE = Object.freeze([]) as unknown as Provenance[];
export const NO_PROPERTIES = Object.freeze({}) as Record<string, PropertyValue>;

/** Whether `object` is absent or has no enumerable key (without listing its keys). */
export function hasNoKeys(object: object | undefined): boolean {
  for (const _ in object) return false;
  return true;
}

/** `properties`, or the shared empty object when it has no key. */
export function sharedProperties(properties: Record<string, PropertyValue>): Record<string, PropertyValue> {
  return hasNoKeys(properties) ? NO_PROPERTIES : properties;
}

/** `provenance`, or the shared empty list when it is empty. */
export function sharedProvenance(provenance: Provenance[]): Provenance[] {
  return provenance.length === 0 ? NO_PROVENANCE : provenance;
}

/**
 * What the records of one graph hold in common, kept once (issue 28: at ten million facts the
 * bytes per record decide whether a graph fits). GraphIndex has every record it is given hold
 * these instead of its own equal copies: a worker's replica is built from structured clones,
 * which give each record its own strings, lists and empty objects (313 bytes per fact at 1M
 * facts against 143 for the main thread's graph read from its snapshot).
 */
export class SharedParts {
  /** The last recorded_at seen: the records of one write share it, and come in one after another. */
  private time = '';
  /** Label lists by their labels joined with U+0001 (no label holds a control character), frozen. */
  private readonly labelLists = new Map<string, string[]>();
  /**
   * The recorded_at of the records kept by it (GraphIndex's plain edges), and each one's int: one
   * entry per write whose records were kept so (a write's records share one), never dropped while
   * the graph is in memory; fewer than the records, each of which costs more.
   */
  private readonly times: string[] = [];
  private readonly timeIds = new Map<string, number>();

  recordedAt(value: string): string {
    if (value === this.time) return this.time;
    return (this.time = value);
  }

  /** The int standing for a recorded_at (timeAt gives it back). */
  timeId(value: string): number {
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === value) return last;
    let id = this.timeIds.get(value);
    if (id === undefined) {
      id = this.times.length;
      this.times.push(value);
      this.timeIds.set(value, id);
    }
    return id;
  }

  timeAt(id: number): string {
    return this.times[id];
  }

  labels(labels: string[]): string[] {
    const key = labels.length === 1 ? labels[0] : labels.join('\u0001');
    let shared = this.labelLists.get(key);
    if (!shared) this.labelLists.set(key, (shared = Object.freeze(labels.slice()) as string[]));
    return shared;
  }
}

/**
 * A record as one object literal of its members, in the interface's order, so that every
 * record a GraphIndex holds has one of two compact shapes. A record deserialised from a
 * structured clone (a worker's replica) keeps four members in the object and the rest in a
 * separate property array: 34 bytes per fact more at 200k facts.
 */
export function nodeLiteral(node: NodeRecord): NodeRecord {
  return { id: node.id, labels: node.labels, properties: node.properties, confidence: node.confidence, provenance: node.provenance, recorded_at: node.recorded_at };
}

export function edgeLiteral(edge: EdgeRecord): EdgeRecord {
  return {
    id: edge.id,
    type: edge.type,
    from: edge.from,
    to: edge.to,
    properties: edge.properties,
    confidence: edge.confidence,
    provenance: edge.provenance,
    recorded_at: edge.recorded_at,
  };
}
