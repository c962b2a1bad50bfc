import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../engine/errors.ts';
import { exportJsonLines, graphWriteFromJson, graphWriteFromJsonLines } from '../../engine/store/transfer.ts';
import type { AppDeps } from '../deps.ts';
import { GraphDetailSchema, GraphImportSchema, GraphListSchema, GraphParams, ImportSummarySchema, PageQuery, errorResponses, pageSizeOf, ref, type PageQueryT } from '../schemas.ts';

export default async function graphRoutes(app: FastifyInstance, { store, config }: AppDeps): Promise<void> {
  type GraphRoute = { Params: { graph_id: string } };

  app.get<{ Querystring: PageQueryT; Reply: Static<typeof GraphListSchema> }>(
    '/v1/graphs',
    {
      config: { scope: 'read' },
      schema: {
        summary: "List the tenant's graphs, paginated",
        querystring: PageQuery,
        response: { 200: ref(GraphListSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const page = await store.listGraphs(request.principal.tenant, pageSizeOf(request.query), request.query.page_token);
      const graphs = page.items.map(({ graph_id, created_at, updated_at }) => ({ graph_id, created_at, updated_at }));
      return { graphs, ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
    },
  );

  app.get<GraphRoute & { Reply: Static<typeof GraphDetailSchema> }>(
    '/v1/graphs/:graph_id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'A graph with its node counts by kind and edge counts by type',
        params: GraphParams,
        response: { 200: ref(GraphDetailSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { tenant } = request.principal;
      const { graph_id, created_at, updated_at } = await store.getGraphMeta(tenant, request.params.graph_id);
      return { graph_id, created_at, updated_at, ...(await store.loadGraph(tenant, graph_id)).counts() };
    },
  );

  app.delete<GraphRoute>(
    '/v1/graphs/:graph_id',
    {
      config: { scope: 'write' },
      schema: { summary: 'Delete a graph and everything in it', params: GraphParams, response: { 204: Type.Null(), ...errorResponses(403, 404) } },
    },
    async (request, reply) => {
      await store.deleteGraph(request.principal.tenant, request.params.graph_id);
      return reply.code(204).send();
    },
  );

  app.post<GraphRoute & { Body: unknown; Reply: Static<typeof ImportSummarySchema> }>(
    '/v1/graphs/:graph_id/import',
    {
      config: { scope: 'write' },
      bodyLimit: config.importBodyLimitBytes,
      schema: {
        summary: 'Import nodes and edges (JSON or JSON Lines); every record is validated and the whole import is written atomically or not at all',
        params: GraphParams,
        body: {
          content: {
            'application/json': { schema: ref(GraphImportSchema) },
            'application/x-ndjson': { schema: Type.String({ description: 'one {"node": …} or {"edge": …} per line' }) },
          },
        },
        response: { 200: ref(ImportSummarySchema), ...errorResponses(400, 403, 413) },
      },
    },
    async (request) => {
      const contentType = request.headers['content-type'] ?? '';
      const write = typeof request.body === 'string' && /ndjson|jsonl/.test(contentType) ? graphWriteFromJsonLines(request.body) : graphWriteFromJson(request.body);
      if (write.nodes.length === 0 && write.edges.length === 0) throw new ValidationError('empty_import', 'the import holds no nodes and no edges');
      const { node_ids: _n, edge_ids: _e, ...counts } = await store.writeGraph(request.principal.tenant, request.params.graph_id, write);
      return { graph_id: request.params.graph_id, ...counts };
    },
  );

  app.get<GraphRoute>(
    '/v1/graphs/:graph_id/export',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Export the graph as JSON Lines that import reads back identically',
        params: GraphParams,
        produces: ['application/x-ndjson'],
        response: { 200: Type.String({ description: 'JSON Lines' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const index = await store.loadGraph(request.principal.tenant, request.params.graph_id);
      return reply.type('application/x-ndjson').send(Readable.from(exportJsonLines(index)));
    },
  );
}
