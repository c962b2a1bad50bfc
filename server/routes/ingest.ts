import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ingest } from '../../engine/ingest/ingest.ts';
import type { AppDeps } from '../deps.ts';
import { CountsSchema, GraphCountsSchema, GraphParams, errorResponses } from '../schemas.ts';
import { AddedSchema, DocumentSchema, ExtractorSchema } from './extract.ts';

const IngestBody = Type.Object(
  {
    source: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'a path under the corpora root (.txt, .md, .html), a file: URL inside it, or any name when text is given',
    }),
    text: Type.Optional(Type.String({ description: 'the document inline (at most 1,000,000 characters); source then only names it' })),
  },
  { additionalProperties: false },
);
type IngestBodyT = Static<typeof IngestBody>;

const IngestResponse = Type.Object({
  graph_id: Type.String(),
  document: DocumentSchema,
  added: AddedSchema,
  summary: GraphCountsSchema,
  found: CountsSchema,
  extractor: ExtractorSchema,
  stats: Type.Object({}, { additionalProperties: true }),
});

export default async function ingestRoutes(app: FastifyInstance, { store, config, extraction }: AppDeps): Promise<void> {
  app.post<{ Params: { graph_id: string }; Body: IngestBodyT }>(
    '/v1/graphs/:graph_id/ingest',
    {
      config: { scope: 'write' },
      schema: {
        summary: 'Ingest a document (a file under the corpora root, or inline text) into a graph; ingesting the same document twice adds nothing',
        params: GraphParams,
        body: IngestBody,
        response: { 200: IngestResponse, ...errorResponses(400, 403, 404, 413, 503) },
      },
    },
    async (request) =>
      ingest({ store, pipeline: extraction, corporaDir: config.corporaDir }, request.principal.tenant, request.params.graph_id, request.body),
  );
}
