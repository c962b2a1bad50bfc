import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_REVIEW_BELOW, lowConfidenceRecords } from '../../engine/store/low-confidence.ts';
import type { AppDeps } from '../deps.ts';
import { GraphParams, LowConfidenceListSchema, LowConfidenceQuery, errorResponses, pageSizeOf, ref, type LowConfidenceQueryT } from '../schemas.ts';

export default async function lowConfidenceRoutes(app: FastifyInstance, { store }: AppDeps): Promise<void> {
  app.get<{ Params: Static<typeof GraphParams>; Querystring: LowConfidenceQueryT; Reply: Static<typeof LowConfidenceListSchema> }>(
    '/v1/graphs/:graph_id/low-confidence',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'The nodes and edges of a graph whose confidence is below a bound (default 0.6), the newest recorded first, for review',
        params: GraphParams,
        querystring: LowConfidenceQuery,
        response: { 200: ref(LowConfidenceListSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { query } = request;
      const graph = await store.loadGraph(request.principal.tenant, request.params.graph_id);
      const asOf = query.as_of ? new Date(query.as_of).toISOString() : undefined;
      const page = lowConfidenceRecords({ graph, ...(asOf ? { asOf } : {}) }, query.below === undefined ? DEFAULT_REVIEW_BELOW : Number(query.below), {
        pageSize: pageSizeOf(query),
        pageToken: query.page_token,
      });
      return { records: page.items, ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
    },
  );
}
