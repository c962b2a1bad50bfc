import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { QueryError } from '../../engine/errors.ts';
import { queryLimits } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { reachRequestedRevision } from '../revision.ts';
import { GraphParams, GraphQueryRequestSchema, GraphQueryResultSchema, MinRevisionHeaders, PatternQueryRequestSchema, errorResponses, ref } from '../schemas.ts';

/** The library form puts each part on its own line; errors are reported against the part the client wrote. */
const LIBRARY_PARTS = [
  { field: 'match', prefix: 'MATCH ' },
  { field: 'where', prefix: 'WHERE ' },
  { field: 'return', prefix: 'RETURN ' },
] as const;

export default async function queryRoutes(app: FastifyInstance, { store, reasoning, config }: AppDeps): Promise<void> {
  const limits = queryLimits(config);

  app.post<{ Body: Static<typeof GraphQueryRequestSchema> }>(
    '/v1/graph/query',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Run a graph query (read-only pattern language) and return actors, claims and edges',
        headers: MinRevisionHeaders,
        body: ref(GraphQueryRequestSchema),
        response: { 200: ref(GraphQueryResultSchema), ...errorResponses(400, 404, 500, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await reachRequestedRevision(store, config.minRevisionWaitMs, request, body.graph_id, body.min_revision);
      const answer = await reasoning.answer(request.principal.tenant, body.graph_id, body.query, {
        parameters: body.parameters, asOf: body.as_of, explain: body.explain, limits,
        shape: { includeProvenance: body.include_provenance === true, ...(body.as_of ? { asOf: new Date(body.as_of).toISOString() } : {}) },
      });
      // already JSON (shaped where the query ran): sent as it is
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );

  app.post<{ Params: Static<typeof GraphParams>; Body: Static<typeof PatternQueryRequestSchema> }>(
    '/v1/graphs/:graph_id/query',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Run a graph query given as parts: match, where, return (the client library form)',
        params: GraphParams,
        headers: MinRevisionHeaders,
        body: ref(PatternQueryRequestSchema),
        response: { 200: ref(GraphQueryResultSchema), ...errorResponses(400, 404, 500, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await reachRequestedRevision(store, config.minRevisionWaitMs, request, request.params.graph_id, body.min_revision);
      const lines = [body.match, body.where?.trim() ? body.where : undefined, body.return?.trim() ? body.return : '*'];
      const present = LIBRARY_PARTS.map((part, i) => ({ ...part, text: lines[i] })).filter((part) => part.text !== undefined);
      const text = present.map((part) => part.prefix + part.text!.replace(/[\r\n]+/g, ' ')).join('\n');
      try {
        const answer = await reasoning.answer(request.principal.tenant, request.params.graph_id, text, { limits, shape: { includeProvenance: body.include_provenance === true } });
        return reply.type('application/json; charset=utf-8').send(answer);
      } catch (error) {
        if (!(error instanceof QueryError) || error.line < 1) throw error;
        const part = present[error.line - 1] ?? present[present.length - 1];
        const column = Math.max(1, error.column - part.prefix.length);
        throw new QueryError(error.code, error.message.replace(/line \d+, column \d+/, `${part.field}, column ${column}`), 1, column, {
          ...error.details,
          line: 1,
          column,
          field: part.field,
        });
      }
    },
  );
}
