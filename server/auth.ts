import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** Windows tracked at most (keys or addresses); past it, ended windows are dropped. */
const MAX_WINDOWS = 100_000;

/** A fixed one-minute window per key or address: enough to keep one client from starving the others. */
class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  constructor(readonly perMinute: number) {}

  /** Counts one request; seconds to wait, or 0 when it may go ahead. */
  take(id: string, now = Date.now()): number {
    if (this.perMinute === 0) return 0;
    let window = this.windows.get(id);
    if (!window || now - window.startedAt >= 60_000) {
      if (this.windows.size >= MAX_WINDOWS) this.sweep(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(id, window);
    }
    window.count++;
    return this.waitOf(window, now);
  }

  /** Seconds to wait without counting a request: 0 while `id` is within its limit. */
  peek(id: string, now = Date.now()): number {
    const window = this.windows.get(id);
    return this.perMinute === 0 || !window || now - window.startedAt >= 60_000 ? 0 : this.waitOf(window, now);
  }

  private waitOf(window: { startedAt: number; count: number }, now: number): number {
    return window.count > this.perMinute ? Math.ceil((window.startedAt + 60_000 - now) / 1000) : 0;
  }

  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (now - window.startedAt >= 60_000) this.windows.delete(id);
    // all windows live: forget the oldest rather than grow without bound
    if (this.windows.size >= MAX_WINDOWS) this.windows.delete(this.windows.keys().next().value!);
  }
}

export interface RateLimits {
  /** Requests per key per minute. */
  perKey: number;
  /** Requests per admin key per minute, counted apart from tenants' keys. */
  perAdminKey: number;
  /** Requests without a key or with a wrong one, per source address per minute. */
  failuresPerAddress: number;
}

function limited(reply: FastifyReply, wait: number, detail: string, setting: string): FastifyReply {
  reply.header('retry-after', String(wait));
  return sendProblem(reply, problem(429, 'rate_limited', `${detail}; retry in ${wait} s`, { retry_after_seconds: wait, setting }));
}

/**
 * `localPrincipal` is for an app that never listens (the CLI's embedded mode calls
 * it in-process with app.inject): a request without a key acts as that principal,
 * as whoever can run the CLI can open the store anyway.
 */
export function registerAuth(app: FastifyInstance, store: ParleyStore, limits: RateLimits, localPrincipal?: Principal): void {
  const perKey = new RateLimiter(limits.perKey);
  const perAdminKey = new RateLimiter(limits.perAdminKey);
  const failures = new RateLimiter(limits.failuresPerAddress);
  app.decorateRequest('principal', null as unknown as Principal);
  // the check is a hook of the routes that ask for a scope only: public ones (health) pay nothing for it
  app.addHook('onRoute', (route) => {
    const required = route.config?.scope;
    if (required) route.onRequest = [(request, reply) => authenticate(request, reply, required), ...[route.onRequest ?? []].flat()];
  });
  const tooManyFailures = (reply: FastifyReply, wait: number) =>
    limited(reply, wait, `more than ${limits.failuresPerAddress} requests without a valid API key from this address in a minute`, 'PARLEY_AUTH_FAILURES_PER_MINUTE');
  const authenticate = async (request: FastifyRequest, reply: FastifyReply, required: RequiredScope) => {
    // an address past its failures is refused before its key is looked at: guessing keys gains nothing
    const blocked = failures.peek(request.ip);
    if (blocked > 0) return tooManyFailures(reply, blocked);
    const header = request.headers['x-api-key'];
    const secret = Array.isArray(header) ? header[0] : header;
    if (!secret && localPrincipal) {
      request.principal = localPrincipal;
      return;
    }
    const record = secret ? await store.authenticate(secret) : undefined;
    if (!record) {
      const wait = failures.take(request.ip);
      if (wait > 0) return tooManyFailures(reply, wait);
      return secret
        ? sendProblem(reply, problem(401, 'invalid_api_key', 'the API key is unknown or has been revoked'))
        : sendProblem(reply, problem(401, 'missing_api_key', 'send your API key in the X-API-Key header'));
    }
    const limiter = record.admin ? perAdminKey : perKey;
    const wait = limiter.take(record.key_id);
    if (wait > 0) {
      return limited(reply, wait, `more than ${limiter.perMinute} requests in a minute`, record.admin ? 'PARLEY_ADMIN_RATE_LIMIT_PER_MINUTE' : 'PARLEY_RATE_LIMIT_PER_MINUTE');
    }
    request.principal = { tenant: record.tenant, key_id: record.key_id, scope: record.scope, admin: record.admin };
    if (required === 'admin' && !record.admin) return sendProblem(reply, problem(403, 'admin_required', 'this operation needs an admin key'));
    if (required === 'write' && record.scope !== 'write') return sendProblem(reply, problem(403, 'read_only_key', 'this key has read scope and cannot write'));
  };
}
