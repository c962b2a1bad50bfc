import type { FastifyInstance } from 'fastify';
import { HealthSchema, ref } from '../schemas.ts';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/health',
    {
      schema: {
        summary: 'Liveness: the server is up and its store is open',
        security: [],
        response: { 200: ref(HealthSchema) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
