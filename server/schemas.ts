import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { TIMESTAMP_OF_INGESTION, WORKSPACE_DOMAINS, WORKSPACE_SCALES, WORKSPACE_TIERS } from '../engine/ontology/index.ts';
import { SOURCE_FORMATS } from '../engine/extract/source.ts';
import { FrameworkManifestSchema } from '../engine/frameworks/manifest.ts';
import { MAX_RUN_EVIDENCE_LISTED } from '../engine/frameworks/run.ts';
import { PERIODS } from '../engine/reason/period.ts';
import { CORRECTION_OPS, MAX_MERGE_FROM, MAX_REASON_LENGTH } from '../engine/store/corrections.ts';
import { MAX_CONFLICTS_ASSESSED, MAX_TRAJECTORY_PERIODS } from '../engine/reason/assess.ts';
import { ARGUMENT_STATUSES, DISPUTE_ORDERS } from '../engine/reason/disputes.ts';
import { QUEUE_BACKEND_KINDS } from '../engine/queue/settings.ts';
import { MAX_SCOPE_NAMES } from '../engine/conflicts/scope.ts';
import { MAX_CONFLICTS } from '../engine/conflicts/detect.ts';

/**
 * Request and response schemas shared by the routes. The same objects validate
 * requests (fastify's ajv), serialise responses, generate the OpenAPI document
 * (@fastify/swagger) and type the client library (packages/client). Every request
 * and response body has one schema with an `$id`: buildApp registers each of
 * REGISTERED_SCHEMAS once, routes name them with ref() (so the OpenAPI components
 * carry those names), and the TypeScript type of a body is the schema's Static<>.
 */

/** A string from a closed vocabulary: a plain JSON Schema enum, so errors can list the allowed values. */
export function StringEnum<T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** `{ $ref: <$id> }` to a registered schema, typed as the schema it names. */
export function ref<T extends TSchema>(schema: T) {
  if (schema.$id === undefined) throw new Error('ref() needs a schema with an $id (one of REGISTERED_SCHEMAS)');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

export const Name = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$', description: 'letters, digits, _ . - (1-128)' });

// ---- errors -----------------------------------------------------------------

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'stable, machine readable, snake_case' }),
    field: Type.Optional(Type.String({ description: 'the request field at fault' })),
    allowed: Type.Optional(Type.Array(Type.Unknown(), { description: 'the values the field may take' })),
    line: Type.Optional(Type.Integer({ description: 'query errors: the line in the query text (or in the part named by field)' })),
    column: Type.Optional(Type.Integer({ description: 'query errors: the column' })),
    expected: Type.Optional(Type.String({ description: 'query syntax errors: what the parser expected' })),
    found: Type.Optional(Type.String()),
    suggestions: Type.Optional(Type.Array(Type.String(), { description: 'query syntax errors: the keywords a misspelt word may have meant, nearest first' })),
    misspelt: Type.Optional(
      Type.Object(
        { line: Type.Integer(), column: Type.Integer() },
        { description: 'query syntax errors: where the misspelt word is, when the parser failed only at the token after it' },
      ),
    ),
  },
  { additionalProperties: true, $id: 'Problem', description: 'RFC 9457 problem details, sent as application/problem+json' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'the request is malformed, fails validation, or the query does not compile',
  401: 'no API key, or an unknown or revoked one',
  403: 'the key lacks the scope (write, admin) the operation needs',
  404: 'no such resource for this tenant',
  409: 'the resource conflicts with one that exists',
  413: 'the body or text is larger than the limit',
  429: 'more requests in a minute than the rate limit allows; retry after Retry-After seconds',
  500: "the server's runtime cannot run what the request needs (linear_regexp_unavailable: it refused the linear-time RegExp engine =~ runs on); no retry mends it",
  503: 'a bounded queue is full (retry after Retry-After seconds) or a query or analysis ran past its time or inference limit',
};
const RetryAfter = { 'Retry-After': Type.Integer({ description: 'seconds to wait before retrying' }) };

/**
 * Error responses of an authenticated route: 401 and 429 (every such route) and
 * the statuses given, each an application/problem+json Problem.
 */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const responses: Record<number, unknown> = {};
  for (const status of [401, 429, ...statuses]) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      ...(status === 429 || status === 503 ? { headers: RetryAfter } : {}),
      content: { 'application/problem+json': { schema: ref(ProblemSchema) } },
    };
  }
  return responses;
}

// ---- requests -----------------------------------------------------------------

export const PageQuery = Type.Object(
  {
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'items per page (1-500, default 50)' })),
    page_token: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type PageQueryT = Static<typeof PageQuery>;

export function pageSizeOf(query: PageQueryT): number | undefined {
  return query.page_size === undefined ? undefined : Number(query.page_size);
}

export const WorkspaceCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    domain: StringEnum(WORKSPACE_DOMAINS),
    scale: StringEnum(WORKSPACE_SCALES),
    tier: StringEnum(WORKSPACE_TIERS),
    graph_id: Type.Optional(Name),
  },
  { additionalProperties: false, $id: 'WorkspaceCreate' },
);
export type WorkspaceCreateT = Static<typeof WorkspaceCreate>;

export const WorkspaceParams = Type.Object({ id: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
export const GraphParams = Type.Object({ graph_id: Name }, { additionalProperties: false });

const NextPageToken = Type.Optional(Type.String({ description: 'present when there are more items: pass it as page_token' }));

// ---- keys -------------------------------------------------------------------

const apiKeyProperties = {
  key_id: Type.String(),
  tenant: Type.String(),
  scope: StringEnum(['read', 'write'] as const),
  admin: Type.Boolean(),
  name: Type.Optional(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Optional(Type.String({ format: 'date-time' })),
};

export const ApiKeyCreateSchema = Type.Object(
  {
    tenant: Name,
    scope: Type.Optional(StringEnum(['read', 'write'] as const, { description: 'default write' })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false, $id: 'ApiKeyCreate' },
);
export const ApiKeySchema = Type.Object(apiKeyProperties, { $id: 'ApiKey', description: 'an API key as it may be shown: never its secret or hash' });
export const ApiKeyListSchema = Type.Object({ keys: Type.Array(ref(ApiKeySchema)) }, { $id: 'ApiKeyList' });
export const NewApiKeySchema = Type.Object(
  { ...apiKeyProperties, api_key: Type.String({ description: 'the secret, shown this once' }) },
  { $id: 'NewApiKey' },
);

// ---- workspaces ---------------------------------------------------------------

export const WorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    domain: StringEnum(WORKSPACE_DOMAINS),
    scale: StringEnum(WORKSPACE_SCALES),
    tier: StringEnum(WORKSPACE_TIERS),
    graph_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Workspace' },
);
export const WorkspaceListSchema = Type.Object({ workspaces: Type.Array(ref(WorkspaceSchema)), next_page_token: NextPageToken }, { $id: 'WorkspaceList' });

// ---- graphs -------------------------------------------------------------------

const graphProperties = {
  graph_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};
const Counts = Type.Record(Type.String(), Type.Integer());
/** GraphIndex.counts(): nodes by kind, edges by type. */
const graphCountsProperties = { node_count: Type.Integer(), edge_count: Type.Integer(), nodes: Counts, edges: Counts };
/** What one write changed (the store's WriteSummary without the ids). */
const writeCountProperties = {
  nodes_created: Type.Integer(),
  nodes_updated: Type.Integer(),
  edges_created: Type.Integer(),
  edges_updated: Type.Integer(),
};

export const GraphSummarySchema = Type.Object(graphProperties, { $id: 'GraphSummary' });
export const GraphListSchema = Type.Object({ graphs: Type.Array(ref(GraphSummarySchema)), next_page_token: NextPageToken }, { $id: 'GraphList' });
export const GraphCountsSchema = Type.Object(graphCountsProperties, { $id: 'GraphCounts', description: 'node counts by kind, edge counts by type' });
export const GraphDetailSchema = Type.Object({ ...graphProperties, ...graphCountsProperties }, { $id: 'GraphDetail' });
export const WriteCountsSchema = Type.Object(writeCountProperties, { $id: 'WriteCounts', description: 'nodes and edges a write created or changed' });
export const GraphImportSchema = Type.Object(
  {
    nodes: Type.Optional(Type.Array(Type.Object({ kind: Type.String() }, { additionalProperties: true }))),
    edges: Type.Optional(Type.Array(Type.Object({ type: Type.String(), from: Type.String(), to: Type.String() }, { additionalProperties: true }))),
  },
  { additionalProperties: false, $id: 'GraphImport', description: 'nodes and edges as export writes them (ontology.md has every field)' },
);
/** Said by every write that may create its graph: a misspelled graph id shows at once. */
const GraphCreated = Type.Boolean({ description: 'this write created the graph (it did not exist before)' });
export const ImportSummarySchema = Type.Object({ graph_id: Type.String(), ...writeCountProperties, graph_created: GraphCreated }, { $id: 'ImportSummary' });
export const CommittedImportSchema = Type.Object(
  { graph_id: Type.String(), idempotency_key: Type.String(), committed_at: Type.String({ format: 'date-time' }), summary: ref(WriteCountsSchema) },
  { $id: 'CommittedImport', description: 'an import sent with an Idempotency-Key that committed' },
);

// ---- extraction and ingest -------------------------------------------------------

export const ExtractRequestSchema = Type.Object(
  {
    text: Type.String({ description: 'the document text (at most 1,000,000 characters; 413 beyond)' }),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'names the document in provenance; default: sha256:<first 16 hex of the text hash>' })),
    commit: Type.Optional(Type.Boolean({ default: true, description: "merge the result into the workspace's graph (needs a write key)" })),
    document_date: Type.Optional(
      Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: 'when the document was written (YYYY[-MM[-DD]]): the timestamp of facts it does not date otherwise' }),
    ),
  },
  { additionalProperties: false, $id: 'ExtractRequest' },
);

export const IngestRequestSchema = Type.Object(
  {
    source: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'a path under the corpora root (.txt, .md, .html), a file: URL inside it, or any name when text is given',
    }),
    text: Type.Optional(Type.String({ description: 'the document inline (at most 1,000,000 characters); source then only names it' })),
  },
  { additionalProperties: false, $id: 'IngestRequest' },
);

const provenanceProperties = {
  source: Type.String(),
  timestamp: Type.String(),
  timestamp_of: Type.Optional(Type.Literal(TIMESTAMP_OF_INGESTION, { description: 'present when timestamp is when an undated document was ingested, not when its source says it happened or was said' })),
  document_id: Type.Optional(Type.String()),
  span: Type.Optional(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
  quote: Type.Optional(Type.String()),
  extractor: Type.Optional(Type.String()),
};
export const ProvenanceSchema = Type.Object(provenanceProperties, { additionalProperties: true, $id: 'Provenance', description: 'where a fact came from' });
export const ProvenanceSummarySchema = Type.Object(
  {
    source: Type.String({ description: "the earliest record's source" }),
    timestamp: Type.String({ description: "the earliest record's timestamp (ISO 8601)" }),
    timestamp_of: provenanceProperties.timestamp_of,
    sources: Type.Array(ref(ProvenanceSchema), { description: 'every record, the earliest first' }),
  },
  { $id: 'ProvenanceSummary', description: "a fact's provenance as SEED.md gives it: the earliest source and its timestamp, with every source in sources" },
);

export const ExtractedNodeSchema = Type.Object(
  { id: Type.String(), label: Type.Optional(Type.String()), confidence: Type.Number(), provenance: Type.Optional(ref(ProvenanceSummarySchema)) },
  { additionalProperties: true, $id: 'ExtractedNode', description: 'a node: id, its properties (label, actor_type, type, text, ...), confidence, provenance' },
);
export const ExtractedEdgeSchema = Type.Object(
  { id: Type.String(), type: Type.String(), from: Type.String(), to: Type.String(), confidence: Type.Number(), provenance: Type.Optional(ref(ProvenanceSummarySchema)) },
  { additionalProperties: true, $id: 'ExtractedEdge', description: 'an edge, with its properties (e.g. role) beside the fixed fields' },
);

export const ExtractorSchema = Type.Object(
  {
    rules: Type.String(),
    model: Type.Union([Type.String(), Type.Null()]),
    transformer: Type.Boolean(),
    note: Type.Optional(Type.String()),
  },
  { $id: 'Extractor', description: 'which rules and which model (if any) extracted' },
);

export const ExtractionStatsSchema = Type.Object(
  {
    characters: Type.Integer(),
    sentences: Type.Integer(),
    neural_entities: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no transformer ran' }),
    symbolic_mentions: Type.Integer(),
    nodes: Type.Integer(),
    edges: Type.Integer(),
    ms: Type.Integer(),
  },
  { $id: 'ExtractionStats' },
);

const documentProperties = {
  id: Type.String(),
  source: Type.String(),
  sha256: Type.String(),
  length: Type.Integer({ description: 'in characters' }),
  title: Type.Optional(Type.String()),
  published_at: Type.Optional(Type.String({ description: 'the date the document gives itself (body document_date, or a dateline such as "KHARTOUM, 4 March 2024 -")' })),
};
export const DocumentSchema = Type.Object(documentProperties, { $id: 'Document' });
export const IngestedDocumentSchema = Type.Object(
  {
    ...documentProperties,
    format: StringEnum([...SOURCE_FORMATS, 'inline'] as const),
    already_ingested: Type.Boolean({ description: 'the graph held this document (same text) before' }),
  },
  { $id: 'IngestedDocument' },
);

export const ExtractionSchema = Type.Object(
  {
    workspace_id: Type.String(),
    graph_id: Type.String(),
    tier: StringEnum(WORKSPACE_TIERS),
    document: ref(DocumentSchema),
    actors: Type.Array(ref(ExtractedNodeSchema)),
    claims: Type.Array(ref(ExtractedNodeSchema)),
    events: Type.Array(ref(ExtractedNodeSchema)),
    locations: Type.Array(ref(ExtractedNodeSchema)),
    issues: Type.Array(ref(ExtractedNodeSchema)),
    edges: Type.Array(ref(ExtractedEdgeSchema), { description: 'every edge but MENTIONED_IN (each node has one)' }),
    committed: Type.Boolean(),
    added: Type.Union([ref(WriteCountsSchema), Type.Null()], { description: 'null when not committed' }),
    graph_created: GraphCreated,
    stats: ref(ExtractionStatsSchema),
    extractor: ref(ExtractorSchema),
  },
  { $id: 'Extraction' },
);

export const IngestionSchema = Type.Object(
  {
    graph_id: Type.String(),
    document: ref(IngestedDocumentSchema),
    added: ref(WriteCountsSchema),
    graph_created: GraphCreated,
    summary: ref(GraphCountsSchema),
    found: Type.Object(
      { actors: Type.Integer(), claims: Type.Integer(), events: Type.Integer(), locations: Type.Integer(), issues: Type.Integer(), edges: Type.Integer() },
      { description: 'what the extraction found in the document, as /extract lists it' },
    ),
    extractor: ref(ExtractorSchema),
    stats: ref(ExtractionStatsSchema),
  },
  { $id: 'Ingestion' },
);

// ---- graph queries ------------------------------------------------------------------

export const QUERY_TEXT_MAX = 20_000;

/** A read's bookmark: the graph revision a write answered (its Parley-Revision header), which the read must see. */
const MinRevision = Type.Integer({
  minimum: 0,
  description: 'read the graph at this revision or later (a write answers its revision in the Parley-Revision header): a server behind it waits for it, up to PARLEY_MIN_REVISION_WAIT_MS (503 after)',
});

/** The same bookmark as a header, for every read that names a graph (export has no body). */
export const MinRevisionHeaders = Type.Object({
  'parley-min-revision': Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'as the body field min_revision; the higher of the two counts' })),
});

export const GraphQueryRequestSchema = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: QUERY_TEXT_MAX, description: 'the pattern language (api.md): MATCH … WHERE … RETURN …' }),
    graph_id: Name,
    include_provenance: Type.Optional(Type.Boolean({ description: 'provenance on each claim and other node (default false)' })),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'values of $name parameters' })),
    as_of: Type.Optional(Type.String({ format: 'date-time', description: 'see the graph as it was at this instant' })),
    explain: Type.Optional(Type.Boolean({ description: 'add the compiled Prolog goal and the plan' })),
    min_revision: Type.Optional(MinRevision),
  },
  { additionalProperties: false, $id: 'GraphQueryRequest' },
);

export const PatternQueryRequestSchema = Type.Object(
  {
    match: Type.String({ minLength: 1, maxLength: QUERY_TEXT_MAX, description: 'the pattern after MATCH' }),
    where: Type.Optional(Type.String({ maxLength: QUERY_TEXT_MAX, description: 'the condition after WHERE' })),
    return: Type.Optional(Type.String({ maxLength: QUERY_TEXT_MAX, description: 'the projection after RETURN (default *)' })),
    include_provenance: Type.Optional(Type.Boolean()),
    min_revision: Type.Optional(MinRevision),
  },
  { additionalProperties: false, $id: 'PatternQueryRequest', description: 'the client-library form: errors name the part (field) and its column' },
);


/** With include_provenance, in the shape extract and export give it. */
const QueryProvenance = Type.Optional(ref(ProvenanceSummarySchema));

export const QueryNotificationSchema = Type.Object(
  {
    code: StringEnum(['unknown_label', 'unknown_relationship_type', 'unknown_property_key']),
    severity: StringEnum(['warning']),
    title: Type.String(),
    description: Type.String(),
    position: Type.Object({ line: Type.Integer({ minimum: 1 }), column: Type.Integer({ minimum: 1 }) }, { description: 'where the name is written in the query text' }),
  },
  { $id: 'QueryNotification', description: "a warning about the query, as Neo4j's UnknownLabelWarning, UnknownRelationshipTypeWarning and UnknownPropertyKeyWarning" },
);

/** A contradicted claim's or event's standing (engine/reason/disputes.ts). */
const ArgumentStatusField = Type.Optional(
  StringEnum(ARGUMENT_STATUSES, {
    description: 'present when a CONTRADICTS edge links it: accepted (it stands), disputed (the evidence does not settle it) or rejected (outweighed), weighing independent sources (docs/api.md "Contradictions weighed")',
  }),
);

export const GraphQueryResultSchema = Type.Object(
  {
    actors: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), role: Type.String(), confidence: Type.Number() })),
    claims: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), text: Type.String(), provenance: QueryProvenance, status: ArgumentStatusField })),
    edges: Type.Array(Type.Object({ id: Type.String(), from: Type.String(), to: Type.String(), type: Type.String(), confidence: Type.Number(), provenance: QueryProvenance })),
    nodes: Type.Array(
      Type.Object({
        id: Type.String(),
        kind: Type.String(),
        labels: Type.Array(Type.String()),
        properties: Type.Record(Type.String(), Type.Unknown()),
        confidence: Type.Number(),
        provenance: QueryProvenance,
        status: ArgumentStatusField,
      }),
      { description: 'the nodes bound that are neither actors nor claims' },
    ),
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Unknown()), { description: 'every returned column as JSON' }),
    goal: Type.Optional(Type.String({ description: 'the compiled Prolog goal (explain)' })),
    plan: Type.Optional(Type.Unknown({ description: 'the plan (explain)' })),
    notifications: Type.Optional(
      Type.Array(ref(QueryNotificationSchema), { description: 'present when the query names a label, relationship type or property key the graph holds none of: those parts match nothing' }),
    ),
  },
  { $id: 'GraphQueryResult' },
);

// ---- reasoning ---------------------------------------------------------------------

const FrameworkIds = Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]{1,39}$' }), {
  minItems: 1,
  maxItems: 64,
  uniqueItems: true,
  description: 'run only these frameworks (default: all loaded)',
});
const AsOf = Type.String({ format: 'date-time', description: 'reason over the graph as it was recorded at this instant' });

const ScopeName = Type.String({ minLength: 1, maxLength: 200 });
const ScopeNames = (what: string) => Type.Array(ScopeName, { minItems: 1, maxItems: MAX_SCOPE_NAMES, uniqueItems: true, description: `${what} by id, label or alias` });
const ScopeDay = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', maxLength: 40, description });
export const ScopeSchema = Type.Object(
  {
    actors: Type.Optional(ScopeNames('actors in scope')),
    dyad: Type.Optional(Type.Array(ScopeName, { minItems: 2, maxItems: 2, description: 'two actors (id, label or alias): only what passes between them, and what either does with no other actor named' })),
    places: Type.Optional(ScopeNames('places in scope (a country holds the places of its country code)')),
    from: Type.Optional(ScopeDay('first day in scope (ISO date)')),
    to: Type.Optional(ScopeDay('last day in scope (ISO date)')),
    conflict: Type.Optional(Type.String({ pattern: '^conflict_[0-9a-f]{12}$', description: 'a conflict of GET /v1/graphs/{graph_id}/conflicts: its actors' })),
  },
  { additionalProperties: false, $id: 'Scope', description: 'reason over the sub-graph of these actors, places and period: the actors, the events and claims that involve them, the events at the places, the records of the period' },
);
export const ResolvedScopeSchema = Type.Object(
  {
    actors: Type.Array(Type.String(), { description: 'actor ids in scope (none: every actor)' }),
    dyad: Type.Boolean(),
    places: Type.Array(Type.String(), { description: 'place ids in scope (none: every place)' }),
    from: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    conflict: Type.Optional(Type.String()),
    source: Type.Optional(StringEnum(['request', 'question'] as const, { description: "analyze: whether the request gave the scope or the question's words named it" })),
  },
  { $id: 'ResolvedScope', description: 'the scope reasoned over, its names resolved to node ids' },
);

export const AssessRequestSchema = Type.Object(
  {
    as_of: Type.Optional(AsOf),
    scope: Type.Optional(ref(ScopeSchema)),
    by_conflict: Type.Optional(Type.Boolean({ description: `also assess each conflict of the graph (within the scope) on its own: the ${MAX_CONFLICTS_ASSESSED} largest` })),
    frameworks: Type.Optional(FrameworkIds),
    trajectory: Type.Optional(
      Type.Object(
        {
          period: StringEnum(PERIODS, { description: 'one result per calendar month, quarter or year' }),
          frameworks: Type.Optional(FrameworkIds),
          max_periods: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TRAJECTORY_PERIODS })),
        },
        { additionalProperties: false, description: 'also run the time-aware frameworks once per period, each seeing what had happened by its end' },
      ),
    ),
    min_revision: Type.Optional(MinRevision),
  },
  { additionalProperties: false, $id: 'AssessRequest' },
);

export const AnalyzeRequestSchema = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2_000, description: 'a question in plain language' }),
    frameworks: Type.Optional(FrameworkIds),
    as_of: Type.Optional(AsOf),
    detail: Type.Optional(
      StringEnum(['answer', 'full'] as const, {
        description: '`answer` (the default): a direct answer of at most about 120 words, with the readings beside it; `full`: one sentence per finding, as the frameworks state them',
      }),
    ),
    scope: Type.Optional(ref(ScopeSchema)),
    min_revision: Type.Optional(MinRevision),
  },
  { additionalProperties: false, $id: 'AnalyzeRequest' },
);

export const FindingSchema = Type.Object(
  {
    key: Type.String(),
    value: Type.Unknown(),
    statement: Type.String(),
    evidence: Type.Array(Type.String()),
    evidence_total: Type.Optional(Type.Integer()),
    trace: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'Finding', description: 'one conclusion of a framework, with the ids of the nodes and edges it rests on' },
);
const FindingsOmitted = Type.Integer({
  minimum: 0,
  description: 'per-actor findings (one per actor, pair or spoiler) the findings limit (PARLEY_FINDINGS_LIMIT) left out: a framework keeps those of the highest score',
});
const RunEvidence = Type.Array(Type.String(), {
  maxItems: MAX_RUN_EVIDENCE_LISTED,
  description: `the ids of the nodes and edges the findings and present indicators rest on, sorted: the first ${MAX_RUN_EVIDENCE_LISTED}`,
});
const RunEvidenceTotal = Type.Integer({ minimum: 0, description: 'how many ids the findings and present indicators rest on (evidence lists the first of them)' });
export const RunErrorSchema = Type.Object({ code: Type.String(), message: Type.String() }, { $id: 'RunError', description: 'why a framework run stopped' });

export const CitationSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({ description: "the node's kind or the edge's type; unknown when the id is not in the graph" }),
    label: Type.String(),
    source: Type.Optional(Type.String({ description: 'the first source the record was read from' })),
    timestamp: Type.Optional(Type.String({ description: 'when that source said it' })),
    quote: Type.Optional(Type.String({ description: 'the words of that source the record was read from' })),
  },
  { $id: 'Citation', description: 'what a cited id points at: the record, and the quote, source and date it rests on' },
);
const Citations = Type.Array(ref(CitationSchema), { description: 'every id cited, once, in id order, with its quote, source and date' });
export const FrameworkAssessmentSchema = Type.Object(
  {
    framework_id: Type.String(),
    name: Type.String(),
    fit: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "how strongly and specifically the graph supports the framework's conclusion (its strength/3, frameworks/README.md); 0 when it does not apply",
    }),
    applies: Type.Boolean(),
    coverage: Type.Number({ minimum: 0, maximum: 1, description: "the weighted share of the framework's indicators present" }),
    indicators_present: Type.Array(Type.String()),
    indicators_missing: Type.Array(Type.String()),
    explanation: Type.String(),
    evidence: RunEvidence,
    evidence_total: RunEvidenceTotal,
    findings: Type.Array(ref(FindingSchema)),
    findings_omitted: FindingsOmitted,
    error: Type.Optional(ref(RunErrorSchema)),
  },
  { $id: 'FrameworkAssessment', description: 'one framework run over the graph (or the scope), with its fit' },
);
const FrameworkAssessments = Type.Array(ref(FrameworkAssessmentSchema));
export const TrajectorySchema = Type.Object(
  {
    period: Type.String(),
    truncated: Type.Integer(),
    points: Type.Array(
      Type.Object({
        period: Type.String(),
        until: Type.String(),
        results: Type.Array(
          Type.Object({
            framework_id: Type.String(),
            applies: Type.Boolean(),
            score: Type.Number(),
            missing: Type.Array(Type.String()),
            findings: Type.Array(ref(FindingSchema)),
            findings_omitted: FindingsOmitted,
            error: Type.Optional(ref(RunErrorSchema)),
          }),
        ),
        conclusions: Type.Array(
          Type.Object({ framework_id: Type.String(), key: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }),
          { description: "what the frameworks concluded of the period as a whole: Glasl's stage, Kriesberg's phase and trend, Zartman's ripeness, ..." },
        ),
      }),
    ),
  },
  { $id: 'Trajectory', description: 'the time-aware frameworks once per period, each seeing what had happened by its end' },
);
const NamedNode = Type.Object({ id: Type.String(), label: Type.String() });
export const ConflictSchema = Type.Object(
  {
    id: Type.String({ description: 'conflict_ and a hash of its actor ids: stable while its actors are' }),
    name: Type.String({ description: 'its main parties and places' }),
    parties: Type.Array(NamedNode, { description: 'the most engaged actors, the most engaged first' }),
    places: Type.Array(NamedNode, { description: 'where its events happened most often' }),
    actors: Type.Array(Type.String(), { description: 'every actor of the group' }),
    third_parties: Type.Array(Type.String(), { description: 'organisations, mediators and observers, and actors who deal with several conflicts, that deal with its actors' }),
    events: Type.Integer(),
    claims: Type.Integer(),
    first: Type.Optional(Type.String()),
    last: Type.Optional(Type.String()),
  },
  { $id: 'Conflict', description: 'a group of actors linked by opposition, alliance, membership, shared events and claims against one another' },
);
export const ConflictListSchema = Type.Object(
  {
    graph_id: Type.String(),
    conflicts: Type.Array(ref(ConflictSchema), { description: 'the largest (events and claims) first' }),
    total: Type.Integer({ description: `how many conflicts the graph holds (the first ${MAX_CONFLICTS} listed)` }),
  },
  { $id: 'ConflictList' },
);

export const AssessmentSchema = Type.Object(
  {
    workspace_id: Type.String(),
    graph_id: Type.String(),
    scope: Type.Optional(ref(ResolvedScopeSchema)),
    assessments: FrameworkAssessments,
    citations: Citations,
    trajectory: Type.Optional(ref(TrajectorySchema)),
    conflicts: Type.Optional(
      Type.Array(Type.Object({ conflict: ref(ConflictSchema), assessments: FrameworkAssessments, citations: Citations, trajectory: Type.Optional(ref(TrajectorySchema)) }), {
        description: 'with by_conflict: each conflict assessed on its own (within the scope), the largest first',
      }),
    ),
    conflicts_omitted: Type.Optional(Type.Integer({ description: `conflicts beyond the ${MAX_CONFLICTS_ASSESSED} largest, not assessed` })),
  },
  { $id: 'Assessment' },
);

export const AnalysisSchema = Type.Object(
  {
    question: Type.String(),
    answer: Type.String({ description: 'the direct answer (at most about 120 words), each sentence citing ids; with `detail: full`, one sentence per finding' }),
    intents: Type.Array(Type.String()),
    readings: Type.Array(
      Type.Object({
        framework_id: Type.String(),
        name: Type.String(),
        applies: Type.Boolean(),
        score: Type.Number(),
        summary: Type.String({ description: "the framework's contribution in one or two sentences, its unknowns said once" }),
        evidence: Type.Array(Type.String()),
      }),
      { description: 'one reading per framework consulted, the most relevant to the question first' },
    ),
    frameworks: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        applies: Type.Boolean(),
        score: Type.Number(),
        missing: Type.Array(Type.String()),
        findings: Type.Array(ref(FindingSchema)),
        findings_omitted: FindingsOmitted,
        evidence: RunEvidence,
        evidence_total: RunEvidenceTotal,
        trace: Type.Array(Type.String()),
        error: Type.Optional(ref(RunErrorSchema)),
      }),
    ),
    citations: Citations,
    disputes: Type.Array(Type.Object({ id: Type.String(), sentence: Type.String() }), {
      description: 'the cited claims and events the weighed evidence does not let stand (disputed or rejected), each dispute told once: who says what on each side',
    }),
    scope: Type.Optional(ref(ResolvedScopeSchema)),
  },
  { $id: 'Analysis' },
);

const ModuleProblem = Type.Object({ file: Type.String(), line: Type.Optional(Type.Integer()), column: Type.Optional(Type.Integer()), reason: Type.String() });
const ModuleStatus = StringEnum(['loaded', 'refused'] as const);
const frameworkSummaryProperties = {
  id: Type.String(),
  status: ModuleStatus,
  builtin: Type.Boolean(),
  name: Type.Optional(Type.String()),
  question: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  answers: Type.Optional(Type.Array(Type.String())),
  time_aware: Type.Optional(Type.Boolean()),
  problems: Type.Optional(Type.Array(ModuleProblem)),
};
export const FrameworkSummarySchema = Type.Object(frameworkSummaryProperties, { $id: 'FrameworkSummary' });
export const FrameworkDetailSchema = Type.Object(
  { ...frameworkSummaryProperties, manifest: Type.Optional(ref(FrameworkManifestSchema)), readme: Type.Optional(Type.String()) },
  { $id: 'FrameworkDetail' },
);
export const FrameworkListSchema = Type.Object(
  {
    frameworks: Type.Array(ref(FrameworkSummarySchema)),
    rule_files: Type.Array(Type.Object({ id: Type.String(), status: ModuleStatus, predicates: Type.Array(Type.String()), problems: Type.Array(ModuleProblem) })),
  },
  { $id: 'FrameworkList' },
);

export const HealthSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    store: Type.Object(
      {
        kind: StringEnum(['leveldb', 'postgres'] as const, { description: 'what keeps the records: the LevelDB directory (the default) or PostgreSQL (PARLEY_STORE)' }),
        replication: Type.Optional(
          Type.Object(
            {
              graphs_behind: Type.Integer({ minimum: 0, description: "loaded graphs with another server's commit announced and not yet followed" }),
              lag_ms: Type.Integer({ minimum: 0, description: 'age of the oldest such commit (0: none)' }),
            },
            { description: 'PostgreSQL: how far this server is behind the writes of the others sharing the database' },
          ),
        ),
      },
      { description: 'no tenant data: what keeps the records, and how current this server is' },
    ),
    queue: Type.Optional(
      Type.Object(
        {
          kind: StringEnum(QUEUE_BACKEND_KINDS, { description: "where the queue lives: Redis or BullMQ's PostgreSQL backend" }),
          reachable: Type.Boolean({ description: 'the queue answered within 1 s' }),
          waiting: Type.Optional(Type.Integer({ minimum: 0, description: 'document jobs waiting for a worker' })),
          active: Type.Optional(Type.Integer({ minimum: 0, description: 'document jobs a worker holds' })),
          delayed: Type.Optional(Type.Integer({ minimum: 0, description: 'jobs waiting to be tried again' })),
          failed: Type.Optional(Type.Integer({ minimum: 0, description: 'jobs that failed for good (kept 7 days)' })),
        },
        { description: 'PARLEY_QUEUE set: the extraction queue that `parley worker` processes take from (docs/operations.md)' },
      ),
    ),
    reasoning: Type.Object(
      {
        workers: Type.Array(
          Type.Object({
            hand_overs: Type.Object(
              {
                image: Type.Integer({ minimum: 0, description: 'whole views taken from a view image on disk' }),
                records: Type.Integer({ minimum: 0, description: 'whole views taken from the records' }),
                delta: Type.Integer({ minimum: 0, description: "the records writes added, taken into a view held" }),
              },
              { description: "hand-overs of graphs' views to this worker's Prolog engine since it started, by source" },
            ),
          }),
          { description: 'the reasoning workers running, by thread' },
        ),
      },
      { description: 'no tenant data: where the reasoning engines took their views from (docs/operations.md)' },
    ),
  },
  { $id: 'Health' },
);

// ---- contradictions weighed -----------------------------------------------------------

export const DisputesQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(
      Type.String({ pattern: '^(accepted|disputed|rejected)(,(accepted|disputed|rejected))*$', description: 'the statuses listed, comma-separated (default disputed,rejected)' }),
    ),
    as_of: Type.Optional(Type.String({ format: 'date-time', description: 'weigh the graph as it was recorded at this instant' })),
    order: Type.Optional(StringEnum(DISPUTE_ORDERS, { description: 'id (the default): by id; newest: the latest recorded_at first, ties by id' })),
  },
  { additionalProperties: false },
);
export type DisputesQueryT = Static<typeof DisputesQuery>;

export const DisputeSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({ description: 'Claim or Event' }),
    text: Type.String({ description: "a claim's text, an event's label" }),
    status: StringEnum(ARGUMENT_STATUSES),
    recorded_at: Type.String({ description: 'when the graph first learned the claim or event (ISO 8601)' }),
    weight: Type.Number({ description: 'what its independent sources count for together: each its Document reliability (0-1) where the graph rates it, else 1' }),
    sources: Type.Integer({ description: 'independent sources (publishers) it rests on: its own provenance and what SUPPORTS it' }),
    asserted_by: Type.Array(Type.String(), { description: 'actors that assert it (ASSERTS)' }),
    denied_by: Type.Array(Type.String(), { description: 'actors that deny it (DENIES)' }),
    documents: Type.Array(Type.String(), { description: 'the sources of its own provenance' }),
    contradicted_by: Type.Array(Type.String(), { description: 'the claims and events a CONTRADICTS edge links it to' }),
    supported_by: Type.Array(Type.String(), { description: 'the claims and events that SUPPORT it' }),
    summary: Type.String({ description: 'the dispute in a sentence: who says what on each side, on how many sources' }),
  },
  { $id: 'Dispute' },
);

export const DisputeListSchema = Type.Object({ disputes: Type.Array(ref(DisputeSchema)), next_page_token: NextPageToken }, { $id: 'DisputeList' });

export const LowConfidenceQuery = Type.Object(
  {
    ...PageQuery.properties,
    below: Type.Optional(Type.String({ pattern: '^(0(\\.[0-9]{1,6})?|1(\\.0{1,6})?)$', description: 'list the records whose confidence is below this (0-1, default 0.6)' })),
    as_of: Type.Optional(Type.String({ format: 'date-time', description: 'the graph as it was recorded at this instant' })),
  },
  { additionalProperties: false },
);
export type LowConfidenceQueryT = Static<typeof LowConfidenceQuery>;

export const LowConfidenceRecordSchema = Type.Object(
  {
    record: StringEnum(['node', 'edge'] as const),
    id: Type.String(),
    kind: Type.String({ description: "a node's kind, an edge's type" }),
    what: Type.String({ description: "a node's label (else its text, else its id); an edge's ends by label, from → to" }),
    from: Type.Optional(Type.String({ description: "an edge's source node" })),
    to: Type.Optional(Type.String({ description: "an edge's target node" })),
    confidence: Type.Number(),
    recorded_at: Type.String({ description: 'when the graph first learned it (ISO 8601)' }),
  },
  { $id: 'LowConfidenceRecord' },
);

export const LowConfidenceListSchema = Type.Object({ records: Type.Array(ref(LowConfidenceRecordSchema)), next_page_token: NextPageToken }, { $id: 'LowConfidenceList' });

// ---- corrections and traces ---------------------------------------------------------

const RecordId = Type.String({ minLength: 1, maxLength: 256 });
export const CorrectionRequestSchema = Type.Object(
  {
    op: StringEnum(CORRECTION_OPS),
    into: Type.Optional({ ...RecordId, description: 'merge: the node the others become (an alias id names the node it was merged into)' }),
    from: Type.Optional(Type.Array(RecordId, { minItems: 1, maxItems: MAX_MERGE_FROM, description: `merge: the nodes merged into \`into\` (1-${MAX_MERGE_FROM}); their ids stay as aliases of it` })),
    target: Type.Optional({ ...RecordId, description: 'retract, set: the node or edge' }),
    edge: Type.Optional({ ...RecordId, description: 'retype: the edge' }),
    type: Type.Optional(Type.String({ description: 'retype: the edge type it becomes (ontology.md)' })),
    properties: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'set: the properties to set, checked against the ontology' })),
    reason: Type.String({ minLength: 1, maxLength: MAX_REASON_LENGTH, description: 'why: kept in the audit' }),
  },
  {
    additionalProperties: false,
    $id: 'CorrectionRequest',
    description:
      'one of {op: merge, into, from}, {op: retract, target}, {op: retype, edge, type} or {op: set, target, properties}, each with a reason; a field of another op is refused',
  },
);
const TargetKind = StringEnum(['node', 'edge'] as const);
export const CorrectionSchema = Type.Object(
  {
    correction_id: Type.String(),
    ordinal: Type.Integer({ description: "its place in the graph's audit, from 1" }),
    op: StringEnum([...CORRECTION_OPS, 'undo'] as const),
    key_id: Type.String({ description: 'the API key that made it' }),
    created_at: Type.String({ format: 'date-time' }),
    reason: Type.String(),
    into: Type.Optional(Type.String()),
    from: Type.Optional(Type.Array(Type.String())),
    target: Type.Optional(Type.String()),
    target_kind: Type.Optional(TargetKind),
    edge: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    previous_type: Type.Optional(Type.String({ description: 'retype: the type the edge had' })),
    properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    undoes: Type.Optional(Type.String({ description: 'undo: the correction it undid' })),
    undone_by: Type.Optional(Type.String({ description: 'present when an undo has undone this correction' })),
  },
  { $id: 'Correction', description: 'an audit record: a correction (ids as resolved when it was made) or the undo of one' },
);
export const CorrectionListSchema = Type.Object({ corrections: Type.Array(ref(CorrectionSchema)), next_page_token: NextPageToken }, { $id: 'CorrectionList', description: 'newest first' });
const traceProperties = {
  retracted: Type.Boolean({ description: 'a retraction took the record (or a node at its end) out of the graph; it is shown as written' }),
  aliases: Type.Array(Type.String(), { description: 'ids merged into this node: they resolve to it' }),
  corrections: Type.Array(ref(CorrectionSchema), { description: 'the corrections that touched it, and their undos, the oldest first' }),
};
export const NodeTraceSchema = Type.Object(
  {
    node: Type.Object(
      { id: Type.String(), labels: Type.Array(Type.String()), properties: Type.Record(Type.String(), Type.Unknown()), confidence: Type.Number(), recorded_at: Type.String(), provenance: Type.Optional(ref(ProvenanceSummarySchema)) },
      { description: 'the node as the graph reads it (a merged node with its aliases\' provenance)' },
    ),
    ...traceProperties,
  },
  { $id: 'NodeTrace' },
);
export const EdgeTraceSchema = Type.Object(
  {
    edge: Type.Object(
      { id: Type.String(), type: Type.String(), from: Type.String(), to: Type.String(), properties: Type.Record(Type.String(), Type.Unknown()), confidence: Type.Number(), recorded_at: Type.String(), provenance: Type.Optional(ref(ProvenanceSummarySchema)) },
      { description: 'the edge as the graph reads it: its type as retyped, its ends as merged' },
    ),
    ...traceProperties,
  },
  { $id: 'EdgeTrace' },
);

/** Every schema with an $id: buildApp registers each once; routes and other schemas ref() them. */
export const REGISTERED_SCHEMAS: readonly TSchema[] = [
  ProblemSchema,
  HealthSchema,
  ApiKeyCreateSchema,
  ApiKeySchema,
  ApiKeyListSchema,
  NewApiKeySchema,
  WorkspaceCreate,
  WorkspaceSchema,
  WorkspaceListSchema,
  GraphSummarySchema,
  GraphListSchema,
  GraphCountsSchema,
  GraphDetailSchema,
  WriteCountsSchema,
  GraphImportSchema,
  ImportSummarySchema,
  CommittedImportSchema,
  ProvenanceSchema,
  ProvenanceSummarySchema,
  ExtractRequestSchema,
  IngestRequestSchema,
  ExtractedNodeSchema,
  ExtractedEdgeSchema,
  ExtractorSchema,
  ExtractionStatsSchema,
  DocumentSchema,
  IngestedDocumentSchema,
  ExtractionSchema,
  IngestionSchema,
  GraphQueryRequestSchema,
  PatternQueryRequestSchema,
  QueryNotificationSchema,
  GraphQueryResultSchema,
  ScopeSchema,
  ResolvedScopeSchema,
  FrameworkAssessmentSchema,
  TrajectorySchema,
  ConflictSchema,
  ConflictListSchema,
  AssessRequestSchema,
  AnalyzeRequestSchema,
  FindingSchema,
  RunErrorSchema,
  CitationSchema,
  AssessmentSchema,
  AnalysisSchema,
  FrameworkManifestSchema,
  FrameworkSummarySchema,
  FrameworkDetailSchema,
  FrameworkListSchema,
  DisputeSchema,
  DisputeListSchema,
  CorrectionRequestSchema,
  CorrectionSchema,
  CorrectionListSchema,
  NodeTraceSchema,
  EdgeTraceSchema,
  LowConfidenceRecordSchema,
  LowConfidenceListSchema,
];
