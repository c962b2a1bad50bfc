import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/health',
    {
      schema: {
        summary: 'Liveness: the server is up and its store is open',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
