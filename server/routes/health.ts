import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { HealthSchema, ref } from '../schemas.ts';
import type { ReasoningPool } from '../../engine/reason/pool.ts';

/** Per reasoning worker running, its engine's hand-overs by source (ReasoningPool.heldViews): where a cold call's views came from. */
const handOversBySource = (reasoning: ReasoningPool) =>
  [...reasoning.heldViews().values()].map(({ handOvers, images, additions }) => ({ hand_overs: { image: images, records: handOvers - images, delta: additions } }));

export default async function healthRoutes(app: FastifyInstance, { store, config, reasoning }: AppDeps): Promise<void> {
  // BullMQ is loaded only where a queue is configured
  const queue = config.queue ? new (await import('../../engine/queue/monitor.ts')).QueueMonitor(config.queue) : undefined;
  if (queue) app.addHook('onClose', () => queue.close());
  app.get(
    '/v1/health',
    {
      schema: {
        summary: "Liveness: the server is up and its store is open; which store, (PostgreSQL) how far behind the other servers this one is, (PARLEY_QUEUE) the extraction queue, and where the reasoning workers' engines took their views from",
        security: [],
        response: { 200: ref(HealthSchema) },
      },
    },
    async () => ({ status: 'ok' as const, store: store.storeStatus(), ...(queue ? { queue: await queue.status() } : {}), reasoning: { workers: handOversBySource(reasoning) } }),
  );
}
