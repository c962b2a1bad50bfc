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
   * The recorded_at of the records kept by it (GraphIndex's plain edges) by int, and how many
   * records hold each int: one no record holds any more is freed and handed out again, so that
   * the list is as long as the most distinct recorded_at held at once (one per write some of
   * whose edges are still as it wrote them), not the writes applied (a server importing the same
   * edges again and again grew it by one string a write, for as long as the graph was in memory).
   */
  private readonly times: (string | undefined)[] = [];
  private readonly timeHolders: number[] = [];
  private readonly timeIds = new Map<string, number>();
  private readonly freeTimes: number[] = [];
  /** The int last held: the records of one write share it, and come in one after another. */
  private lastTime = -1;

  recordedAt(value: string): string {
    if (value === this.time) return this.time;
    return (this.time = value);
  }

  /** The int standing for a recorded_at, held by one more record until releaseTime (timeAt gives it back). */
  holdTime(value: string): number {
    let id = this.lastTime >= 0 && this.times[this.lastTime] === value ? this.lastTime : this.timeIds.get(value);
    if (id === undefined) {
      id = this.freeTimes.pop() ?? this.times.length;
      this.times[id] = value;
      this.timeHolders[id] = 0;
      this.timeIds.set(value, id);
    }
    this.timeHolders[id]++;
    this.lastTime = id;
    return id;
  }

  /** A record no longer holds the int `id` (holdTime's). */
  releaseTime(id: number): void {
    if (--this.timeHolders[id] > 0) return;
    this.timeIds.delete(this.times[id]!);
    this.times[id] = undefined;
    this.freeTimes.push(id);
  }

  timeAt(id: number): string {
    return this.times[id]!;
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
