import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/** A raw request over a real socket: what node's HTTP parser refuses never reaches app.inject. */
function raw(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('every error is problem+json, fastify and node included', () => {
  let t: TestApp;
  let port: number;
  let key: string;

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.keyFor('tenant-a', 'read');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  const expectProblem = (response: { status: number; type: string; body: string }, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.type).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ status, code, type: `https://parley.dev/problems/${code}` });
    expect(typeof body.title).toBe('string');
    expect(typeof body.detail).toBe('string');
    return body;
  };

  it('431 for a query string past the header limit', async () => {
    const body = expectProblem(await raw(port, `/v1/graphs?page_token=${'a'.repeat(40_000)}`, { 'x-api-key': key }), 431, 'headers_too_large');
    expect(body.limit_bytes).toBeGreaterThan(0);
  });

  it('414 for a path parameter past the router limit', async () => {
    expectProblem(await raw(port, `/v1/graphs/${'g'.repeat(400)}`, { 'x-api-key': key }), 414, 'path_parameter_too_long');
  });

  it('400 for a malformed percent-encoding in the path', async () => {
    expectProblem(await raw(port, '/v1/graphs/%E0%A4%A', { 'x-api-key': key }), 400, 'bad_url');
  });

  it('404 for a route that does not exist, 401 without a key', async () => {
    expectProblem(await raw(port, '/v1/nothing-here'), 404, 'route_not_found');
    expectProblem(await raw(port, '/v1/graphs'), 401, 'missing_api_key');
  });

  it('400 for a malformed request line', async () => {
    const { Socket } = await import('node:net');
    const reply = await new Promise<string>((resolve) => {
      const socket = new Socket();
      let text = '';
      socket.connect(port, '127.0.0.1', () => socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n'));
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/Content-Type: application\/problem\+json/);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'malformed_request' });
  });

  it('a graph id of the longest allowed length still routes', async () => {
    const response = await raw(port, `/v1/graphs/${'g'.repeat(128)}`, { 'x-api-key': key });
    expectProblem(response, 404, 'graph_not_found');
  });
});
