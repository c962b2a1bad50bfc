import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ingest } from '../../engine/ingest/ingest.ts';
import type { AppDeps } from '../deps.ts';
import { answerRevision } from '../revision.ts';
import { GraphParams, IngestRequestSchema, IngestionSchema, errorResponses, ref } from '../schemas.ts';
import { ingestionBody } from '../shape/extraction.ts';

type IngestBodyT = Static<typeof IngestRequestSchema>;

export default async function ingestRoutes(app: FastifyInstance, { store, config, extraction, reasoning }: AppDeps): Promise<void> {
  app.post<{ Params: { graph_id: string }; Body: IngestBodyT; Reply: Static<typeof IngestionSchema> }>(
    '/v1/graphs/:graph_id/ingest',
    {
      config: { scope: 'write' },
      schema: {
        summary: 'Ingest a document (a file under the corpora root, or inline text) into a graph; ingesting the same document twice adds nothing',
        params: GraphParams,
        body: ref(IngestRequestSchema),
        response: { 200: ref(IngestionSchema), ...errorResponses(400, 403, 404, 413, 503) },
      },
    },
    async (request, reply) => {
      const { graph_id: graphId } = request.params;
      const ingested = await ingest({ store, pipeline: extraction, corporaDir: config.corporaDir }, request.principal.tenant, graphId, request.body);
      reasoning.preload(request.principal.tenant, graphId);
      await answerRevision(store, reply, request.principal.tenant, graphId);
      return ingestionBody(graphId, ingested);
    },
  );
}
