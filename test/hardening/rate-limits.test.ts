import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

describe('rate limits for failures and for the admin', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('1,000 bad-key requests from one address start getting 429, and then even a valid key from it waits', async () => {
    t = await makeTestApp({ authFailuresPerMinute: 50 });
    const key = await t.keyFor('tenant-a', 'read');
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const headers = i % 2 === 0 ? { 'x-api-key': `pk_0123456789abcdef_guess${i}` } : {};
      statuses.push((await t.app.inject({ method: 'GET', url: '/v1/graphs', headers })).statusCode);
    }
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(401));
    expect(statuses.slice(50)).toEqual(Array(950).fill(429));
    const refused = await t.app.inject({ method: 'GET', url: '/v1/graphs', headers: { 'x-api-key': key } });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'rate_limited', setting: 'PARLEY_AUTH_FAILURES_PER_MINUTE' });
    // another address is not affected
    const elsewhere = await t.app.inject({ method: 'GET', url: '/v1/graphs', headers: { 'x-api-key': key }, remoteAddress: '10.0.0.7' });
    expect(elsewhere.statusCode).toBe(200);
    // public routes never ask for a key
    expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
  });

  it('an admin busy past the per-key limit can still create keys: the admin limit is its own', async () => {
    t = await makeTestApp({ rateLimitPerMinute: 5, adminRateLimitPerMinute: 20 });
    for (let i = 0; i < 10; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': t.adminKey } })).statusCode).toBe(200);
    }
    const created = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': t.adminKey }, payload: { tenant: 'tenant-b' } });
    expect(created.statusCode).toBe(201);
    const tenantKey = created.json().api_key as string;
    const tenant = [];
    for (let i = 0; i < 7; i++) tenant.push((await t.app.inject({ method: 'GET', url: '/v1/graphs', headers: { 'x-api-key': tenantKey } })).statusCode);
    expect(tenant).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': t.adminKey } })).statusCode);
    // 10 + 1 + 12 = 23 admin requests against a limit of 20
    expect(statuses.filter((status) => status === 429).length).toBe(3);
    const refused = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': t.adminKey } });
    expect(refused.json()).toMatchObject({ code: 'rate_limited', setting: 'PARLEY_ADMIN_RATE_LIMIT_PER_MINUTE' });
  });
});
