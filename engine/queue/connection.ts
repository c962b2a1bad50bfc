import { Queue, QueueEvents, createPostgresBackend, createRedisBackend, type BackendFactory, type IQueueBackend } from 'bullmq';
import { EXTRACTION_QUEUE, queueBackendKind, type QueueBackendKind } from './settings.ts';

export interface QueueConnection {
  kind: QueueBackendKind;
  /** What BullMQ's classes take as `connection`, with `backend` as their last argument. */
  connection: object;
  backend: BackendFactory<IQueueBackend, unknown>;
}

export function queueConnection(url: string): QueueConnection {
  const kind = queueBackendKind(url);
  if (kind === 'redis') {
    const parsed = new URL(url);
    const connection = {
      host: parsed.hostname,
      port: Number(parsed.port || 6379),
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.pathname.length > 1 ? { db: Number(parsed.pathname.slice(1)) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
      // BullMQ's workers block on Redis: a command must wait out a reconnection rather than fail
      maxRetriesPerRequest: null,
    };
    return { kind, connection, backend: createRedisBackend as unknown as BackendFactory<IQueueBackend, unknown> };
  }
  return { kind, connection: { connectionString: url, migrate: true }, backend: createPostgresBackend as unknown as BackendFactory<IQueueBackend, unknown> };
}

/** The extraction queue's jobs: one connection, closed by its `close()`. */
export type ExtractionJobs = Queue<unknown, unknown, string, unknown, unknown, string, IQueueBackend, unknown>;

export function extractionJobs({ connection, backend }: QueueConnection): ExtractionJobs {
  return new Queue(EXTRACTION_QUEUE, { connection }, backend);
}

/** The extraction queue's events (completed, failed…), followed until `close()`. */
export function extractionEvents({ connection, backend }: QueueConnection): QueueEvents<unknown, IQueueBackend, unknown> {
  return new QueueEvents(EXTRACTION_QUEUE, { connection }, backend);
}
