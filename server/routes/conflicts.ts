import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { MAX_CONFLICTS } from '../../engine/conflicts/detect.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictListSchema, GraphParams, errorResponses, ref } from '../schemas.ts';

export default async function conflictRoutes(app: FastifyInstance, { reasoning }: AppDeps): Promise<void> {
  app.get<{ Params: Static<typeof GraphParams>; Reply: Static<typeof ConflictListSchema> }>(
    '/v1/graphs/:graph_id/conflicts',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'The separate conflicts of a graph: groups of actors linked by opposition, alliance, membership, shared events and claims, each named by its main parties and places',
        params: GraphParams,
        response: { 200: ref(ConflictListSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const conflicts = await reasoning.conflicts(request.principal.tenant, request.params.graph_id);
      return { graph_id: request.params.graph_id, conflicts: conflicts.slice(0, MAX_CONFLICTS), total: conflicts.length };
    },
  );
}
