import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { registerAuth, type Principal } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { errorHandler, problem, sendProblem } from './problems.ts';
import { REGISTERED_SCHEMAS } from './schemas.ts';
import healthRoutes from './routes/health.ts';
import keyRoutes from './routes/keys.ts';
import workspaceRoutes from './routes/workspaces.ts';
import graphRoutes from './routes/graphs.ts';
import extractRoutes from './routes/extract.ts';
import ingestRoutes from './routes/ingest.ts';
import queryRoutes from './routes/query.ts';
import frameworkRoutes from './routes/frameworks.ts';
import analysisRoutes from './routes/analysis.ts';

export const API_VERSION = '0.1.0';

/**
 * The HTTP app factory: every route, validated by the same TypeBox schemas that
 * generate /v1/openapi.json. Tests call it in-process (`app.inject`); main.ts
 * listens with it.
 */
export interface AppOptions {
  logger?: boolean;
  /** Requests without a key act as this principal: only for an app called in-process, never one that listens (auth.ts). */
  localPrincipal?: Principal;
}

export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: deps.config.bodyLimitBytes,
    ajv: {
      // Refuse, never silently drop or coerce: unknown fields and wrong types are the client's to fix.
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false },
    },
    return503OnClosing: true,
  });

  for (const schema of REGISTERED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    // components/schemas named by each schema's $id (the default numbers them def-0, def-1, …)
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'parley',
        version: API_VERSION,
        description: 'Conflict analysis knowledge-graph service: extraction with provenance, graph queries, theory frameworks.',
      },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ apiKey: [] }],
    },
  });

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem(404, 'route_not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
  // JSON Lines for graph import: kept as text, parsed and validated by the engine.
  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl'], { parseAs: 'string', bodyLimit: deps.config.importBodyLimitBytes }, (_request, body, done) => done(null, body));

  registerAuth(app, deps.store, deps.config.rateLimitPerMinute, options.localPrincipal);

  await app.register(healthRoutes, deps);
  await app.register(keyRoutes, deps);
  await app.register(workspaceRoutes, deps);
  await app.register(graphRoutes, deps);
  await app.register(extractRoutes, deps);
  await app.register(ingestRoutes, deps);
  await app.register(queryRoutes, deps);
  await app.register(frameworkRoutes, deps);
  await app.register(analysisRoutes, deps);

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.ready();
  return app;
}
