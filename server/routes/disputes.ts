import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listDisputes, type ArgumentStatus } from '../../engine/reason/disputes.ts';
import type { AppDeps } from '../deps.ts';
import { DisputeListSchema, DisputesQuery, GraphParams, errorResponses, pageSizeOf, ref, type DisputesQueryT } from '../schemas.ts';

export default async function disputeRoutes(app: FastifyInstance, { reasoning }: AppDeps): Promise<void> {
  app.get<{ Params: Static<typeof GraphParams>; Querystring: DisputesQueryT; Reply: Static<typeof DisputeListSchema> }>(
    '/v1/graphs/:graph_id/disputes',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'The contradicted claims and events of a graph, weighed: each disputed or rejected one, who asserts and denies it, on which sources, in a sentence',
        params: GraphParams,
        querystring: DisputesQuery,
        response: { 200: ref(DisputeListSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const { tenant } = request.principal;
      const { query } = request;
      const asOf = query.as_of ? new Date(query.as_of).toISOString() : undefined;
      const { statuses, graph } = await reasoning.arguments(tenant, request.params.graph_id, asOf);
      const page = listDisputes({ graph, ...(asOf ? { asOf } : {}) }, statuses, {
        ...(query.status ? { only: query.status.split(',') as ArgumentStatus[] } : {}),
        pageSize: pageSizeOf(query),
        pageToken: query.page_token,
        ...(query.order ? { order: query.order } : {}),
      });
      return { disputes: page.items, ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
    },
  );
}
