import { createPostgresBackend, createRedisBackend, type BackendFactory, type IQueueBackend } from 'bullmq';
import { ValidationError } from '../errors.ts';

/**
 * Where the queue lives, from one setting (PARLEY_QUEUE, --queue): a Redis URL (redis://,
 * rediss://: Redis 7, BullMQ's default and most used backend) or a PostgreSQL URL (postgres://,
 * postgresql://: BullMQ's PostgreSQL backend, which may be the store's own database: its tables
 * go in a schema of their own, `bullmq`, created and migrated on first connect).
 */
export type QueueBackendKind = 'redis' | 'postgres';

export interface QueueConnection {
  kind: QueueBackendKind;
  /** What BullMQ's classes take as `connection`, with `backend` as their last argument. */
  connection: object;
  backend: BackendFactory<IQueueBackend, unknown>;
}

/** The URL with its credentials left out, for messages and logs. */
export function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@');
}

export function queueBackendKind(url: string): QueueBackendKind {
  if (/^rediss?:\/\//.test(url)) return 'redis';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  throw new ValidationError('invalid_queue_url', `the queue must be a redis://, rediss://, postgres:// or postgresql:// URL (got '${withoutCredentials(url)}')`, { field: 'queue' });
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
