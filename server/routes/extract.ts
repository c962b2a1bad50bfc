import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../engine/errors.ts';
import { checkText } from '../../engine/extract/pipeline.ts';
import { extractForGraph } from '../../engine/ingest/commit.ts';
import type { AppDeps } from '../deps.ts';
import { ExtractRequestSchema, ExtractionSchema, WorkspaceParams, errorResponses, ref } from '../schemas.ts';
import { extractionBody } from '../shape/extraction.ts';

type ExtractBodyT = Static<typeof ExtractRequestSchema>;

export default async function extractRoutes(app: FastifyInstance, { store, extraction, reasoning }: AppDeps): Promise<void> {
  app.post<{ Params: { id: string }; Body: ExtractBodyT; Reply: Static<typeof ExtractionSchema> }>(
    '/v1/workspaces/:id/extract',
    {
      // Read keys may extract without committing; committing is checked below.
      config: { scope: 'read' },
      schema: {
        summary: "Extract actors, claims, events, locations and edges from text, with provenance; by default merge them into the workspace's graph",
        params: WorkspaceParams,
        body: ref(ExtractRequestSchema),
        response: { 200: ref(ExtractionSchema), ...errorResponses(400, 403, 404, 413, 503) },
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
      const checked = checkText(text);
      const source = request.body.source ?? `sha256:${checked.sha256.slice(0, 16)}`;
      const extracted = await extractForGraph(
        { store, pipeline: extraction },
        tenant,
        workspace.graph_id,
        { text, source, checked, ...(document_date ? { document_date } : {}) },
        { tier: workspace.tier, commit },
      );
      if (commit) reasoning.preload(tenant, workspace.graph_id);
      return extractionBody(workspace, extracted);
    },
  );
}
