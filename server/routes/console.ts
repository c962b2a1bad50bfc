import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem, sendProblem } from '../problems.ts';

/**
 * The web console (packages/console), built into its dist/ by `npm run build`: static files
 * under /console, public (the page asks for a key and sends it to /v1 itself), with a
 * Content-Security-Policy that lets the page run only its own script and styles and talk only
 * to this server. Unknown names answer 404; nothing outside dist/ can be named.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
/** The files the build writes: only these are served. */
const FILE_NAME = /^[a-z0-9][a-z0-9.-]*\.(html|js|css|json|txt)$/;

function consoleDir(): string | undefined {
  try {
    return path.join(path.dirname(createRequire(import.meta.url).resolve('@parley/console/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

export default async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const dist = consoleDir();
  const send = async (reply: FastifyReply, name: string) => {
    if (!dist || !FILE_NAME.test(name)) return sendProblem(reply, problem(404, 'route_not_found', `no console file ${name}`));
    let body: Buffer;
    try {
      body = await readFile(path.join(dist, name));
    } catch {
      const detail = name === 'index.html' ? 'the console is not built: run npm run build' : `no console file ${name}`;
      return sendProblem(reply, problem(404, 'route_not_found', detail));
    }
    return reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', name === 'index.html' ? 'no-cache' : 'public, max-age=300')
      .type(TYPES[path.extname(name)])
      .send(body);
  };
  app.get('/console', { schema: { hide: true } }, (_request, reply) => send(reply, 'index.html'));
  app.get<{ Params: { file: string } }>('/console/:file', { schema: { hide: true } }, (request, reply) => send(reply, request.params.file || 'index.html'));
}
