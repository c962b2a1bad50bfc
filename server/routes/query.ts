import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { QueryError } from '../../engine/errors.ts';
import { parseQuery } from '../../engine/query/index.ts';
import type { AppDeps } from '../deps.ts';
import { GraphParams, GraphQueryResultSchema, Name, errorResponses, ref } from '../schemas.ts';
import { patternRelationshipTypes, queryResultBody } from '../shape/query-result.ts';

const QUERY_TEXT_MAX = 20_000;

const QueryBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: QUERY_TEXT_MAX, description: 'the pattern language (api.md): MATCH … WHERE … RETURN …' }),
    graph_id: Name,
    include_provenance: Type.Optional(Type.Boolean({ description: 'provenance on each claim (default false)' })),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'values of $name parameters' })),
    as_of: Type.Optional(Type.String({ format: 'date-time', description: 'see the graph as it was at this instant' })),
    explain: Type.Optional(Type.Boolean({ description: 'add the compiled Prolog goal and the plan' })),
  },
  { additionalProperties: false },
);

const LibraryQueryBody = Type.Object(
  {
    match: Type.String({ minLength: 1, maxLength: QUERY_TEXT_MAX, description: 'the pattern after MATCH' }),
    where: Type.Optional(Type.String({ maxLength: QUERY_TEXT_MAX, description: 'the condition after WHERE' })),
    return: Type.Optional(Type.String({ maxLength: QUERY_TEXT_MAX, description: 'the projection after RETURN (default *)' })),
    include_provenance: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The library form puts each part on its own line; errors are reported against the part the client wrote. */
const LIBRARY_PARTS = [
  { field: 'match', prefix: 'MATCH ' },
  { field: 'where', prefix: 'WHERE ' },
  { field: 'return', prefix: 'RETURN ' },
] as const;

export default async function queryRoutes(app: FastifyInstance, { reasoning, config }: AppDeps): Promise<void> {
  const limits = {
    timeLimitMs: config.queryTimeoutMs,
    rowCap: config.queryRowLimit,
    inferenceLimit: config.inferenceLimit,
    collectionLimit: config.queryCollectionLimit,
    responseBytes: config.queryResponseLimitBytes,
  };

  app.post<{ Body: Static<typeof QueryBody> }>(
    '/v1/graph/query',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Run a graph query (read-only pattern language) and return actors, claims and edges',
        body: QueryBody,
        response: { 200: ref(GraphQueryResultSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const body = request.body;
      const { result, graph } = await reasoning.query(request.principal.tenant, body.graph_id, body.query, {
        parameters: body.parameters, asOf: body.as_of, explain: body.explain, limits,
      });
      const types = patternRelationshipTypes(parseQuery(body.query));
      return queryResultBody(result, body.include_provenance === true, { graph, types, ...(body.as_of ? { asOf: new Date(body.as_of).toISOString() } : {}) });
    },
  );

  app.post<{ Params: Static<typeof GraphParams>; Body: Static<typeof LibraryQueryBody> }>(
    '/v1/graphs/:graph_id/query',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Run a graph query given as parts: match, where, return (the client library form)',
        params: GraphParams,
        body: LibraryQueryBody,
        response: { 200: ref(GraphQueryResultSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const body = request.body;
      const lines = [body.match, body.where?.trim() ? body.where : undefined, body.return?.trim() ? body.return : '*'];
      const present = LIBRARY_PARTS.map((part, i) => ({ ...part, text: lines[i] })).filter((part) => part.text !== undefined);
      const text = present.map((part) => part.prefix + part.text!.replace(/[\r\n]+/g, ' ')).join('\n');
      try {
        const { result, graph } = await reasoning.query(request.principal.tenant, request.params.graph_id, text, { limits });
        return queryResultBody(result, body.include_provenance === true, { graph, types: patternRelationshipTypes(parseQuery(text)) });
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
