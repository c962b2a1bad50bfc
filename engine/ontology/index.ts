/**
 * The conflict ontology (spec/ontology.md): the one place that defines node kinds,
 * edge kinds, closed vocabularies and the workspace enums. The extractor, the
 * import validator, the query layer and the OpenAPI document all read these.
 * Depends on nothing.
 */

export const ACTOR_ROLES = [
  'party', 'ally', 'mediator', 'guarantor', 'spoiler', 'victim', 'observer', 'unknown', 'adjudicator', 'arbitrator',
] as const;
export const ACTOR_TYPES = [
  'state', 'government', 'armed_forces', 'armed_group', 'political_party', 'international_org', 'ngo',
  'civil_society', 'media', 'community', 'individual', 'unknown', 'company', 'court', 'police',
] as const;
export const CLAIM_TYPES = [
  'RedLine', 'Demand', 'Offer', 'Concession', 'Commitment', 'Threat', 'Accusation', 'Denial', 'Grievance',
  'Justification', 'Position', 'Dehumanization',
] as const;
/** PLOVER event types, and two PLOVER lacks: ADJUDICATE (a court ruling) and LEGISLATE (a law passed). */
export const EVENT_TYPES = [
  'AGREE', 'CONSULT', 'SUPPORT', 'CONCEDE', 'COOPERATE', 'AID', 'RETREAT', 'REQUEST', 'ACCUSE', 'REJECT',
  'THREATEN', 'PROTEST', 'SANCTION', 'MOBILIZE', 'COERCE', 'ASSAULT', 'ADJUDICATE', 'LEGISLATE',
] as const;
export const LOCATION_TYPES = ['country', 'region', 'city', 'site', 'other'] as const;
export const INTEREST_TYPES = [
  'security', 'territory', 'resources', 'recognition', 'autonomy', 'identity', 'power', 'economic', 'other', 'participation',
] as const;
export const PARTICIPATION_ROLES = ['perpetrator', 'target', 'mediator', 'participant'] as const;

export type ActorRole = (typeof ACTOR_ROLES)[number];
export type ActorType = (typeof ACTOR_TYPES)[number];
export type ClaimType = (typeof CLAIM_TYPES)[number];
export type EventType = (typeof EVENT_TYPES)[number];
export type LocationType = (typeof LOCATION_TYPES)[number];
export type InterestType = (typeof INTEREST_TYPES)[number];
export type ParticipationRole = (typeof PARTICIPATION_ROLES)[number];

export const NODE_KINDS = ['Actor', 'Claim', 'Event', 'Location', 'Issue', 'Interest', 'Document'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const EDGE_TYPES = [
  'ASSERTS', 'DENIES', 'TARGETS', 'ABOUT', 'CONTRADICTS', 'SUPPORTS', 'PARTICIPATES_IN', 'OCCURRED_AT',
  'PRECEDES', 'ALLIED_WITH', 'OPPOSES', 'MEMBER_OF', 'HOLDS_INTEREST', 'MENTIONED_IN', 'CONCERNS', 'REFERS_TO',
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** Properties of each ontology node kind whose values come from a closed vocabulary. */
export const NODE_ENUM_PROPERTIES: Record<NodeKind, Record<string, readonly string[]>> = {
  Actor: { role: ACTOR_ROLES, actor_type: ACTOR_TYPES },
  Claim: { type: CLAIM_TYPES },
  Event: { event_type: EVENT_TYPES },
  Location: { location_type: LOCATION_TYPES },
  Issue: {},
  Interest: { interest_type: INTEREST_TYPES },
  Document: {},
};

/**
 * Values that say "not known" (one document's ignorance), per node kind and property: when a
 * write merges into a stored node, such a value never replaces a known one.
 */
export const NODE_UNKNOWN_VALUES: Partial<Record<NodeKind, Record<string, string>>> = {
  Actor: { role: 'unknown', actor_type: 'unknown' },
  Location: { location_type: 'other' },
};

/** Properties an ontology node must have (beyond id, confidence and provenance). */
export const NODE_REQUIRED_PROPERTIES: Record<NodeKind, readonly string[]> = {
  Actor: ['label'],
  Claim: ['type', 'text'],
  Event: ['event_type'],
  Location: ['label'],
  Issue: ['label'],
  Interest: ['label'],
  Document: ['source'],
};

/**
 * Value types of the ontology's properties, checked on every write; `null` is always
 * allowed (not known). `strings` is a list of strings, `instant` an ISO 8601 date or
 * date-time that names a real day and time, `count` a non-negative integer.
 * Properties outside the ontology may hold any JSON value.
 */
export type PropertyType = 'string' | 'strings' | 'instant' | 'count' | 'share';

/** Properties every node and edge may carry (ontology.md "Provenance and time"). */
export const COMMON_PROPERTY_TYPES: Record<string, PropertyType> = { valid_from: 'instant', valid_to: 'instant' };

export const NODE_PROPERTY_TYPES: Record<NodeKind, Record<string, PropertyType>> = {
  Actor: { label: 'string', role: 'string', actor_type: 'string', aliases: 'strings' },
  Claim: { type: 'string', text: 'string', speaker: 'string' },
  Event: { event_type: 'string', date: 'instant', fatalities: 'count', label: 'string', size: 'count' },
  Location: { label: 'string', location_type: 'string', country_code: 'string' },
  Issue: { label: 'string' },
  Interest: { label: 'string', interest_type: 'string' },
  Document: { source: 'string', sha256: 'string', title: 'string', published_at: 'instant', reliability: 'share' },
};

export const EDGE_PROPERTY_TYPES: Partial<Record<EdgeType, Record<string, PropertyType>>> = {
  PARTICIPATES_IN: { role: 'string' },
};

/** Provenance members beyond `source` and `timestamp` whose type the ontology fixes. */
export const PROVENANCE_PROPERTY_TYPES: Record<string, PropertyType> = { document_id: 'string', quote: 'string', extractor: 'string' };

/**
 * The properties that identify a node of each kind: a node without an explicit id
 * gets one derived from these (normalised), so the same content always gives the same id.
 */
export const NODE_IDENTITY_PROPERTIES: Record<NodeKind, readonly string[]> = {
  Actor: ['label'],
  Claim: ['type', 'speaker', 'text'],
  Event: ['event_type', 'date', 'label'],
  Location: ['label', 'country_code'],
  Issue: ['label'],
  Interest: ['label', 'interest_type'],
  Document: ['sha256', 'source'],
};

type Endpoint = readonly NodeKind[] | '*';
export const EDGE_ENDPOINTS: Record<EdgeType, { from: Endpoint; to: Endpoint }> = {
  ASSERTS: { from: ['Actor'], to: ['Claim'] },
  DENIES: { from: ['Actor'], to: ['Claim'] },
  TARGETS: { from: ['Claim'], to: ['Actor'] },
  ABOUT: { from: ['Claim'], to: ['Issue'] },
  // an account of an event, as the graph holds it, is contradicted (a denial) or corroborated like a claim (lib/argumentation.pl)
  CONTRADICTS: { from: ['Claim', 'Event'], to: ['Claim', 'Event'] },
  SUPPORTS: { from: ['Claim', 'Event'], to: ['Claim', 'Event'] },
  PARTICIPATES_IN: { from: ['Actor'], to: ['Event'] },
  OCCURRED_AT: { from: ['Event'], to: ['Location'] },
  PRECEDES: { from: ['Event'], to: ['Event'] },
  ALLIED_WITH: { from: ['Actor'], to: ['Actor'] },
  OPPOSES: { from: ['Actor'], to: ['Actor'] },
  MEMBER_OF: { from: ['Actor'], to: ['Actor'] },
  HOLDS_INTEREST: { from: ['Actor'], to: ['Interest'] },
  MENTIONED_IN: { from: '*', to: ['Document'] },
  CONCERNS: { from: ['Interest'], to: ['Issue'] },
  REFERS_TO: { from: ['Claim'], to: ['Event'] },
};

/** Edge properties with a closed vocabulary. */
export const EDGE_ENUM_PROPERTIES: Partial<Record<EdgeType, Record<string, readonly string[]>>> = {
  PARTICIPATES_IN: { role: PARTICIPATION_ROLES },
};

export const WORKSPACE_DOMAINS = ['interpersonal', 'workplace', 'commercial', 'legal', 'political', 'armed'] as const;
export const WORKSPACE_SCALES = ['micro', 'meso', 'macro', 'meta'] as const;
export const WORKSPACE_TIERS = ['essential', 'standard', 'full'] as const;
export type WorkspaceDomain = (typeof WORKSPACE_DOMAINS)[number];
export type WorkspaceScale = (typeof WORKSPACE_SCALES)[number];
export type WorkspaceTier = (typeof WORKSPACE_TIERS)[number];

/** What extraction fills at each workspace tier (api.md "Workspaces"). */
export const TIER_NODE_KINDS: Record<WorkspaceTier, readonly NodeKind[]> = {
  essential: ['Actor', 'Claim', 'Event', 'Location', 'Document'],
  standard: ['Actor', 'Claim', 'Event', 'Location', 'Document', 'Issue', 'Interest'],
  full: NODE_KINDS,
};
export const TIER_EDGE_TYPES: Record<WorkspaceTier, readonly EdgeType[]> = {
  essential: ['ASSERTS', 'DENIES', 'TARGETS', 'PARTICIPATES_IN', 'OCCURRED_AT', 'MEMBER_OF', 'MENTIONED_IN'],
  standard: [
    'ASSERTS', 'DENIES', 'TARGETS', 'PARTICIPATES_IN', 'OCCURRED_AT', 'MEMBER_OF', 'MENTIONED_IN', 'ABOUT',
    'HOLDS_INTEREST', 'ALLIED_WITH', 'OPPOSES', 'CONCERNS', 'REFERS_TO',
  ],
  full: EDGE_TYPES,
};

export function isNodeKind(kind: string): kind is NodeKind {
  return (NODE_KINDS as readonly string[]).includes(kind);
}
export function isEdgeType(type: string): type is EdgeType {
  return (EDGE_TYPES as readonly string[]).includes(type);
}

/** A property value as stored: JSON scalars and lists/maps of them. */
export type PropertyValue = string | number | boolean | null | PropertyValue[] | { [key: string]: PropertyValue };

export interface Span {
  start: number;
  end: number;
}

/** `provenance.timestamp_of` when the timestamp is when an undated document was ingested, not a time in the world. */
export const TIMESTAMP_OF_INGESTION = 'ingestion';

/** Where a fact came from (ontology.md "Provenance and time"). */
export interface Provenance {
  source: string;
  /** ISO 8601: when the source says it happened or was said, else when it was ingested. */
  timestamp: string;
  /** TIMESTAMP_OF_INGESTION when `timestamp` is the ingestion time (the source gave none). */
  timestamp_of?: typeof TIMESTAMP_OF_INGESTION;
  document_id?: string;
  span?: Span;
  quote?: string;
  extractor?: string;
  [extra: string]: PropertyValue | Span | undefined;
}

/**
 * A fact's provenance as SEED.md gives it: an object whose `source` and `timestamp`
 * are the earliest record's (where the graph first learned the fact), with every
 * record in `sources`, the earliest first. The store keeps the records; answers,
 * extract and export show them in this shape.
 */
export interface ProvenanceSummary {
  source: string;
  timestamp: string;
  timestamp_of?: typeof TIMESTAMP_OF_INGESTION;
  sources: Provenance[];
}

/** The records in SEED.md's shape; undefined when there are none (SEED.md's source is a string). */
export function summariseProvenance(records: Provenance[]): ProvenanceSummary | undefined {
  if (records.length === 0) return undefined;
  const sources = [...records].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  const [earliest] = sources;
  return { source: earliest.source, timestamp: earliest.timestamp, ...(earliest.timestamp_of ? { timestamp_of: earliest.timestamp_of } : {}), sources };
}

/**
 * A node as the store keeps it. `labels[0]` is the node's kind; further labels are
 * allowed (the query language works on any labels).
 */
export interface NodeRecord {
  id: string;
  labels: string[];
  properties: Record<string, PropertyValue>;
  confidence: number;
  provenance: Provenance[];
  /** When the graph first learned this node (ISO 8601); `as_of` queries filter on it. */
  recorded_at: string;
}

export interface EdgeRecord {
  id: string;
  type: string;
  from: string;
  to: string;
  properties: Record<string, PropertyValue>;
  confidence: number;
  provenance: Provenance[];
  recorded_at: string;
}
