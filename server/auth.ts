import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyScope, ParleyStore } from '../engine/store/store.ts';
import { problem, sendProblem } from './problems.ts';

/** Who is calling: resolved from X-API-Key before any route runs. */
export interface Principal {
  tenant: string;
  key_id: string;
  scope: KeyScope;
  admin: boolean;
}

/** What a route asks of its caller, in its `config.scope`; routes without one are public. */
export type RequiredScope = KeyScope | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    scope?: RequiredScope;
  }
}

/** A fixed one-minute window per key: enough to keep one client from starving the others. */
class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  constructor(private readonly perMinute: number) {}

  /** Seconds to wait, or 0 when the request may go ahead. */
  take(keyId: string, now = Date.now()): number {
    if (this.perMinute === 0) return 0;
    let window = this.windows.get(keyId);
    if (!window || now - window.startedAt >= 60_000) {
      window = { startedAt: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count++;
    return window.count > this.perMinute ? Math.ceil((window.startedAt + 60_000 - now) / 1000) : 0;
  }
}

/**
 * `localPrincipal` is for an app that never listens (the CLI's embedded mode calls
 * it in-process with app.inject): a request without a key acts as that principal,
 * as whoever can run the CLI can open the store anyway.
 */
export function registerAuth(app: FastifyInstance, store: ParleyStore, rateLimitPerMinute: number, localPrincipal?: Principal): void {
  const limiter = new RateLimiter(rateLimitPerMinute);
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const required = request.routeOptions.config.scope;
    if (!required) return;
    const header = request.headers['x-api-key'];
    const secret = Array.isArray(header) ? header[0] : header;
    if (!secret && localPrincipal) {
      request.principal = localPrincipal;
      return;
    }
    if (!secret) return sendProblem(reply, problem(401, 'missing_api_key', 'send your API key in the X-API-Key header'));
    const record = await store.authenticate(secret);
    if (!record) return sendProblem(reply, problem(401, 'invalid_api_key', 'the API key is unknown or has been revoked'));
    const wait = limiter.take(record.key_id);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return sendProblem(reply, problem(429, 'rate_limited', `more than ${rateLimitPerMinute} requests in a minute; retry in ${wait} s`));
    }
    request.principal = { tenant: record.tenant, key_id: record.key_id, scope: record.scope, admin: record.admin };
    if (required === 'admin' && !record.admin) return sendProblem(reply, problem(403, 'admin_required', 'this operation needs an admin key'));
    if (required === 'write' && record.scope !== 'write') return sendProblem(reply, problem(403, 'read_only_key', 'this key has read scope and cannot write'));
  });
}
