import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../engine/errors.ts';
import { sha256Of } from '../../engine/extract/pipeline.ts';
import { extractForGraph } from '../../engine/ingest/ingest.ts';
import type { AppDeps } from '../deps.ts';
import { WorkspaceParams, errorResponses } from '../schemas.ts';

/** A JSON object whose members the engine defines (node properties, provenance extras): serialised as they are. */
const OpenObject = Type.Object({}, { additionalProperties: true });

export const ProvenanceSchema = Type.Object(
  {
    source: Type.String(),
    timestamp: Type.String(),
    document_id: Type.Optional(Type.String()),
    span: Type.Optional(Type.Object({ start: Type.Integer(), end: Type.Integer() })),
    quote: Type.Optional(Type.String()),
    extractor: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

const NodeViewSchema = Type.Object(
  { id: Type.String(), confidence: Type.Number(), provenance: Type.Array(ProvenanceSchema) },
  { additionalProperties: true, description: "a node: id, its properties (label, actor_type, type, text, ...), confidence, provenance" },
);
const EdgeViewSchema = Type.Object(
  { id: Type.String(), type: Type.String(), from: Type.String(), to: Type.String(), confidence: Type.Number(), provenance: Type.Array(ProvenanceSchema) },
  { additionalProperties: true, description: 'an edge, with its properties (e.g. role) beside the fixed fields' },
);

export const ExtractorSchema = Type.Object({
  rules: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  transformer: Type.Boolean(),
  note: Type.Optional(Type.String()),
});

export const DocumentSchema = Type.Object(
  {
    id: Type.String(), source: Type.String(), sha256: Type.String(), length: Type.Integer(), title: Type.Optional(Type.String()),
    published_at: Type.Optional(Type.String({ description: 'the date the document gives itself (body document_date, or a dateline such as "KHARTOUM, 4 March 2024 -")' })),
  },
  { additionalProperties: true },
);

export const AddedSchema = Type.Object({
  nodes_created: Type.Integer(),
  nodes_updated: Type.Integer(),
  edges_created: Type.Integer(),
  edges_updated: Type.Integer(),
});

const ExtractBody = Type.Object(
  {
    text: Type.String({ description: 'the document text (at most 1,000,000 characters; 413 beyond)' }),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'names the document in provenance; default: sha256:<first 16 hex of the text hash>' })),
    commit: Type.Optional(Type.Boolean({ default: true, description: "merge the result into the workspace's graph (needs a write key)" })),
    document_date: Type.Optional(
      Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: 'when the document was written (YYYY[-MM[-DD]]): the timestamp of facts it does not date otherwise' }),
    ),
  },
  { additionalProperties: false },
);
type ExtractBodyT = Static<typeof ExtractBody>;

const ExtractResponse = Type.Object({
  workspace_id: Type.String(),
  graph_id: Type.String(),
  tier: Type.String(),
  document: DocumentSchema,
  actors: Type.Array(NodeViewSchema),
  claims: Type.Array(NodeViewSchema),
  events: Type.Array(NodeViewSchema),
  locations: Type.Array(NodeViewSchema),
  issues: Type.Array(NodeViewSchema),
  edges: Type.Array(EdgeViewSchema),
  committed: Type.Boolean(),
  added: Type.Union([AddedSchema, Type.Null()]),
  stats: OpenObject,
  extractor: ExtractorSchema,
});

export default async function extractRoutes(app: FastifyInstance, { store, extraction }: AppDeps): Promise<void> {
  app.post<{ Params: { id: string }; Body: ExtractBodyT }>(
    '/v1/workspaces/:id/extract',
    {
      // Read keys may extract without committing; committing is checked below.
      config: { scope: 'read' },
      schema: {
        summary: "Extract actors, claims, events, locations and edges from text, with provenance; by default merge them into the workspace's graph",
        params: WorkspaceParams,
        body: ExtractBody,
        response: { 200: ExtractResponse, ...errorResponses(400, 403, 404, 413, 503) },
      },
    },
    async (request) => {
      const { tenant, scope } = request.principal;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const commit = request.body.commit ?? true;
      if (commit && scope !== 'write') {
        throw new ParleyError('forbidden', 'read_only_key', 'this key has read scope: send "commit": false to extract without writing');
      }
      const { text, document_date } = request.body;
      const source = request.body.source ?? (typeof text === 'string' ? `sha256:${sha256Of(text).slice(0, 16)}` : '');
      const { extraction: result, added } = await extractForGraph(
        { store, pipeline: extraction },
        tenant,
        workspace.graph_id,
        { text, source, ...(document_date ? { document_date } : {}) },
        { tier: workspace.tier, commit },
      );
      const { graph: _write, ...view } = result;
      return { workspace_id: workspace.id, graph_id: workspace.graph_id, tier: workspace.tier, ...view, committed: commit, added };
    },
  );
}
