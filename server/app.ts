import type { Readable } from 'node:stream';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import pino from 'pino';
import swagger from '@fastify/swagger';
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { decodeText } from '../engine/extract/source.ts';
import { checkStrings } from '../engine/input-checks.ts';
import { registerAuth, type Principal } from './auth.ts';
import { readBodyText } from './body.ts';
import type { AppDeps } from './deps.ts';
import { MAX_PARAM_LENGTH, clientErrorHandler, errorHandler, problem, sendProblem } from './problems.ts';
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
import disputeRoutes from './routes/disputes.ts';
import lowConfidenceRoutes from './routes/low-confidence.ts';
import correctionRoutes from './routes/corrections.ts';
import conflictRoutes from './routes/conflicts.ts';
import consoleRoutes from './routes/console.ts';

export const API_VERSION = '0.1.0';

/** Request log lines are written together once this many bytes wait (about 25 lines)… */
const LOG_BATCH_BYTES = 4096;
/** …and what waits is written every this many milliseconds. */
const LOG_HELD_MS = 100;

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

/**
 * fastify's own compilers (its defaults), with each route's validators and response
 * serializers compiled on their first call instead of at start: compiling them all is about
 * a third of a second of CPU, on the path of a restart to its first answer, for routes most
 * runs never call. A schema that does not compile fails that route's first request (the
 * tests call every route).
 */
function compiledOnFirstUse<Args extends unknown[], Route, Compiled extends (...call: never[]) => unknown>(
  factory: (...args: Args) => (route: Route) => Compiled,
): (...args: Args) => (route: Route) => Compiled {
  return (...args) => {
    const compiler = factory(...args);
    return (route) => {
      let compiled: Compiled | undefined;
      const onFirstUse = function (this: unknown, ...call: Parameters<Compiled>) {
        compiled ??= compiler(route);
        const result = compiled.apply(this, call);
        // a validator reports its last call's errors on itself, where fastify reads them
        (onFirstUse as unknown as { errors?: unknown }).errors = (compiled as unknown as { errors?: unknown }).errors;
        return result;
      };
      return onFirstUse as unknown as Compiled;
    };
  };
}

export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // the log goes to stdout off the request's path, gathered and written by the thread pool a few
    // kilobytes at a time (a write per line woke a thread for every request: a point query's
    // round trip took 0.06 ms longer), and pino writes what is gathered synchronously when the
    // process exits, a crash included
    logger: options.logger ? { stream: pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_HELD_MS }) } : false,
    // one log line per request, written when it is answered (onResponse below), where
    // fastify's own writes two; each is a write to stdout on the request's path
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    ajv: {
      // Refuse, never silently drop or coerce: unknown fields and wrong types are the client's to fix.
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false },
    },
    schemaController: { compilersFactory: { buildValidator: compiledOnFirstUse(AjvCompiler()), buildSerializer: compiledOnFirstUse(SerializerSelector()) } },
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // fastify's own errors (bad URLs, over-long path parameters, HTTP parser errors) in the one problem+json shape
    frameworkErrors: errorHandler,
    clientErrorHandler,
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

  if (options.logger) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 }, 'request completed');
    });
  }
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem(404, 'route_not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
  // Bodies are decoded strictly (invalid UTF-8 refused, as file ingest refuses it, never replaced), and no
  // string in them may hold a NUL or an unpaired surrogate.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    parseJson(request, decodeText(body as Buffer, 'request body'), (error, value) => {
      if (error) return done(error);
      try {
        checkStrings(value);
      } catch (refused) {
        return done(refused as Error);
      }
      done(null, value);
    });
  });
  // JSON Lines for graph import: kept as text, parsed and validated by the engine.
  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl'], { bodyLimit: deps.config.importBodyLimitBytes }, (request: FastifyRequest, payload: Readable) =>
    readBodyText(request, payload, deps.config.importBodyLimitBytes),
  );

  registerAuth(
    app,
    deps.store,
    { perKey: deps.config.rateLimitPerMinute, perAdminKey: deps.config.adminRateLimitPerMinute, failuresPerAddress: deps.config.authFailuresPerMinute },
    options.localPrincipal,
  );

  await app.register(healthRoutes, deps);
  await app.register(keyRoutes, deps);
  await app.register(workspaceRoutes, deps);
  await app.register(graphRoutes, deps);
  await app.register(extractRoutes, deps);
  await app.register(ingestRoutes, deps);
  await app.register(queryRoutes, deps);
  await app.register(frameworkRoutes, deps);
  await app.register(analysisRoutes, deps);
  await app.register(disputeRoutes, deps);
  await app.register(correctionRoutes, deps);
  await app.register(conflictRoutes, deps);
  await app.register(lowConfidenceRoutes, deps);
  await app.register(consoleRoutes);

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.ready();
  return app;
}
