import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { HealthSchema, ref } from '../schemas.ts';

export default async function healthRoutes(app: FastifyInstance, { store, config }: AppDeps): Promise<void> {
  // BullMQ is loaded only where a queue is configured
  const queue = config.queue ? new (await import('../../engine/queue/monitor.ts')).QueueMonitor(config.queue) : undefined;
  if (queue) app.addHook('onClose', () => queue.close());
  app.get(
    '/v1/health',
    {
      schema: {
        summary: 'Liveness: the server is up and its store is open; which store, (PostgreSQL) how far behind the other servers this one is, and (PARLEY_QUEUE) the extraction queue',
        security: [],
        response: { 200: ref(HealthSchema) },
      },
    },
    async () => ({ status: 'ok' as const, store: store.storeStatus(), ...(queue ? { queue: await queue.status() } : {}) }),
  );
}
