import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../engine/errors.ts';
import { exportJsonLines, graphWriteFromJson, graphWriteFromJsonLines, parseGraphJson } from '../../engine/store/transfer.ts';
import { readBodyText } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { answerRevision, reachRequestedRevision } from '../revision.ts';
import { CommittedImportSchema, GraphDetailSchema, GraphImportSchema, GraphListSchema, GraphParams, ImportSummarySchema, MinRevisionHeaders, PageQuery, errorResponses, pageSizeOf, ref, type PageQueryT } from '../schemas.ts';

/** Printable, and short enough to keep beside the graph: clients usually send a UUID. */
const IdempotencyKey = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$', description: 'a key the client chooses per import, e.g. a UUID' });
const ImportParams = Type.Object({ graph_id: GraphParams.properties.graph_id, idempotency_key: IdempotencyKey }, { additionalProperties: false });

export default async function graphRoutes(app: FastifyInstance, { store, config, reasoning }: AppDeps): Promise<void> {
  type GraphRoute = { Params: { graph_id: string } };

  // An import body is parsed a record at a time with the event loop turning between
  // slices (only import takes a JSON body among these routes; this plugin's parser only)
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { bodyLimit: config.importBodyLimitBytes }, async (request: FastifyRequest, payload: Readable) =>
    parseGraphJson(await readBodyText(request, payload, config.importBodyLimitBytes)),
  );

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
      const counts = (await store.loadGraph(tenant, graph_id)).counts();
      reasoning.preload(tenant, graph_id);
      return { graph_id, created_at, updated_at, ...counts };
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
      // the body schema documents the import; the records are checked by the engine a slice at
      // a time (transfer.ts, validate.ts), where the schema's one pass over 200k records held the loop
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : app.validatorCompiler!(route)),
      schema: {
        summary:
          'Import nodes and edges (JSON or JSON Lines); every record is validated and the whole import is written atomically or not at all. ' +
          'With an Idempotency-Key header, a retry with the same key answers the first summary and writes nothing again',
        params: GraphParams,
        headers: Type.Object({ 'idempotency-key': Type.Optional(IdempotencyKey) }),
        body: {
          content: {
            'application/json': { schema: ref(GraphImportSchema) },
            'application/x-ndjson': { schema: Type.String({ description: 'one {"node": …} or {"edge": …} per line' }) },
          },
        },
        response: { 200: ref(ImportSummarySchema), ...errorResponses(400, 403, 413) },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined; // one string: the headers schema says so
      const contentType = request.headers['content-type'] ?? '';
      const write = typeof request.body === 'string' && /ndjson|jsonl/.test(contentType) ? await graphWriteFromJsonLines(request.body) : await graphWriteFromJson(request.body);
      if (write.nodes.length === 0 && write.edges.length === 0) throw new ValidationError('empty_import', 'the import holds no nodes and no edges');
      const { node_ids: _n, edge_ids: _e, replayed, ...counts } = await store.writeGraph(request.principal.tenant, request.params.graph_id, write, {
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      });
      // a retry of an import that committed: the first answer again, nothing written twice
      if (replayed) reply.header('idempotency-replayed', 'true');
      await answerRevision(store, reply, request.principal.tenant, request.params.graph_id);
      reasoning.preload(request.principal.tenant, request.params.graph_id);
      return { graph_id: request.params.graph_id, ...counts };
    },
  );

  app.get<{ Params: Static<typeof ImportParams>; Reply: Static<typeof CommittedImportSchema> }>(
    '/v1/graphs/:graph_id/imports/:idempotency_key',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Whether the import sent with this Idempotency-Key committed, and what it wrote',
        params: ImportParams,
        response: { 200: ref(CommittedImportSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { graph_id, idempotency_key } = request.params;
      const committed = await store.committedImport(request.principal.tenant, graph_id, idempotency_key);
      if (!committed) throw new NotFoundError('import', idempotency_key);
      return { graph_id, ...committed };
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
        headers: MinRevisionHeaders,
        response: { 200: Type.String({ description: 'JSON Lines' }), ...errorResponses(400, 404, 503) },
      },
    },
    async (request, reply) => {
      await reachRequestedRevision(store, config.minRevisionWaitMs, request, request.params.graph_id);
      const index = await store.loadGraph(request.principal.tenant, request.params.graph_id);
      return reply.type('application/x-ndjson').send(Readable.from(exportJsonLines(index)));
    },
  );
}
