/**
 * Reading one's own writes across servers sharing a PostgreSQL store: a write answers the
 * graph's revision in the Parley-Revision header, and a read names it (body field min_revision,
 * or the Parley-Min-Revision header) to be served at that revision or later.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ParleyStore } from '../engine/store/store.ts';

export const REVISION_HEADER = 'parley-revision';

/** Waits, bounded, until this server serves the graph at the revision the request names (none named: at once). */
export async function reachRequestedRevision(store: ParleyStore, waitMs: number, request: FastifyRequest, graphId: string, bodyRevision?: number): Promise<void> {
  const header = request.headers['parley-min-revision'];
  // one string of digits: the route's headers schema says so
  const named = [bodyRevision, typeof header === 'string' ? Number(header) : undefined].filter((value): value is number => value !== undefined);
  if (named.length === 0) return;
  await store.reachRevision(request.principal.tenant, graphId, Math.max(...named), waitMs);
}

/** Says in the answer to a write which revision of the graph holds it: a read elsewhere names it as its min_revision. */
export async function answerRevision(store: ParleyStore, reply: FastifyReply, tenant: string, graphId: string): Promise<void> {
  reply.header(REVISION_HEADER, String(await store.graphRevision(tenant, graphId)));
}
