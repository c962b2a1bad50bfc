import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { WORKSPACE_DOMAINS, WORKSPACE_SCALES, WORKSPACE_TIERS } from '../engine/ontology/index.ts';
import { SOURCE_FORMATS } from '../engine/ingest/source.ts';

/**
 * Request and response schemas shared by the routes. The same objects validate
 * requests (fastify's ajv), serialise responses and generate the OpenAPI document
 * (@fastify/swagger). Every response body has one schema with an `$id`: buildApp
 * registers each of REGISTERED_SCHEMAS once, routes name them with ref(), and the
 * TypeScript type of a body is the schema's Static<>.
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
    code: Type.String(),
  },
  { additionalProperties: true, $id: 'Problem', description: 'RFC 9457 problem details' },
);

/** Error responses every authenticated route may give. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [401, ...statuses]) responses[status] = ref(ProblemSchema);
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
  { additionalProperties: false },
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
export const ImportSummarySchema = Type.Object({ graph_id: Type.String(), ...writeCountProperties }, { $id: 'ImportSummary' });
export const CommittedImportSchema = Type.Object(
  { graph_id: Type.String(), idempotency_key: Type.String(), committed_at: Type.String({ format: 'date-time' }), summary: ref(WriteCountsSchema) },
  { $id: 'CommittedImport', description: 'an import sent with an Idempotency-Key that committed' },
);

// ---- extraction and ingest -------------------------------------------------------

const provenanceProperties = {
  source: Type.String(),
  timestamp: Type.String(),
  document_id: Type.Optional(Type.String()),
  span: Type.Optional(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
  quote: Type.Optional(Type.String()),
  extractor: Type.Optional(Type.String()),
};
export const ProvenanceSchema = Type.Object(provenanceProperties, { additionalProperties: true, $id: 'Provenance', description: 'where a fact came from' });

export const ExtractedNodeSchema = Type.Object(
  { id: Type.String(), confidence: Type.Number(), provenance: Type.Array(ref(ProvenanceSchema)) },
  { additionalProperties: true, $id: 'ExtractedNode', description: 'a node: id, its properties (label, actor_type, type, text, ...), confidence, provenance' },
);
export const ExtractedEdgeSchema = Type.Object(
  { id: Type.String(), type: Type.String(), from: Type.String(), to: Type.String(), confidence: Type.Number(), provenance: Type.Array(ref(ProvenanceSchema)) },
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

export const QueryProvenanceSchema = Type.Object(
  { ...provenanceProperties, records: Type.Optional(Type.Array(ref(ProvenanceSchema), { description: 'every record, earliest first, when there are several' })) },
  { additionalProperties: true, $id: 'QueryProvenance', description: 'the earliest provenance record: where the graph first learned the fact' },
);

export const GraphQueryResultSchema = Type.Object(
  {
    actors: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), role: Type.String(), confidence: Type.Number() })),
    claims: Type.Array(Type.Object({ id: Type.String(), type: Type.String(), text: Type.String(), provenance: Type.Optional(ref(QueryProvenanceSchema)) })),
    edges: Type.Array(Type.Object({ id: Type.String(), from: Type.String(), to: Type.String(), type: Type.String(), confidence: Type.Number() })),
    nodes: Type.Array(
      Type.Object({
        id: Type.String(),
        kind: Type.String(),
        labels: Type.Array(Type.String()),
        properties: Type.Record(Type.String(), Type.Unknown()),
        confidence: Type.Number(),
        provenance: Type.Optional(ref(QueryProvenanceSchema)),
      }),
      { description: 'the nodes bound that are neither actors nor claims' },
    ),
    columns: Type.Array(Type.String()),
    rows: Type.Array(Type.Array(Type.Unknown()), { description: 'every returned column as JSON' }),
    goal: Type.Optional(Type.String({ description: 'the compiled Prolog goal (explain)' })),
    plan: Type.Optional(Type.Unknown({ description: 'the plan (explain)' })),
  },
  { $id: 'GraphQueryResult' },
);

/** Every schema with an $id: buildApp registers each once; routes and other schemas ref() them. */
export const REGISTERED_SCHEMAS: readonly TSchema[] = [
  ProblemSchema,
  ApiKeySchema,
  ApiKeyListSchema,
  NewApiKeySchema,
  WorkspaceSchema,
  WorkspaceListSchema,
  GraphSummarySchema,
  GraphListSchema,
  GraphCountsSchema,
  GraphDetailSchema,
  WriteCountsSchema,
  ImportSummarySchema,
  CommittedImportSchema,
  ProvenanceSchema,
  ExtractedNodeSchema,
  ExtractedEdgeSchema,
  ExtractorSchema,
  ExtractionStatsSchema,
  DocumentSchema,
  IngestedDocumentSchema,
  ExtractionSchema,
  IngestionSchema,
  QueryProvenanceSchema,
  GraphQueryResultSchema,
];
