import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { HealthSchema, ref } from '../schemas.ts';

export default async function healthRoutes(app: FastifyInstance, { store }: AppDeps): Promise<void> {
  app.get(
    '/v1/health',
    {
      schema: {
        summary: 'Liveness: the server is up and its store is open; which store, and (PostgreSQL) how far behind the other servers this one is',
        security: [],
        response: { 200: ref(HealthSchema) },
      },
    },
    async () => ({ status: 'ok' as const, store: store.storeStatus() }),
  );
}
