import { setTimeout as sleep } from 'node:timers/promises';
import { extractionJobs, queueConnection, type ExtractionJobs } from './connection.ts';
import type { QueueBackendKind } from './settings.ts';

/** What health says of the queue: whether it answered, and its document jobs by state. */
export interface QueueStatus {
  kind: QueueBackendKind;
  reachable: boolean;
  waiting?: number;
  active?: number;
  delayed?: number;
  failed?: number;
}

/** How long health waits for the queue's counts before it calls the queue unreachable. */
export const QUEUE_STATUS_TIMEOUT_MS = 1_000;

/** The server's one connection to the extraction queue, for health (opened only where PARLEY_QUEUE is set). */
export class QueueMonitor {
  private readonly queue: ExtractionJobs;
  private readonly kind: QueueBackendKind;

  constructor(url: string) {
    const connection = queueConnection(url);
    this.kind = connection.kind;
    this.queue = extractionJobs(connection);
    // an unreachable queue is reported by status(); BullMQ reconnects meanwhile
    this.queue.on('error', () => undefined);
  }

  async status(timeoutMs = QUEUE_STATUS_TIMEOUT_MS): Promise<QueueStatus> {
    const counts = await Promise.race([this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => undefined), sleep(timeoutMs).then(() => undefined)]);
    if (!counts) return { kind: this.kind, reachable: false };
    return { kind: this.kind, reachable: true, waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 };
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
