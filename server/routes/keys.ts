import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiKeyRecord } from '../../engine/store/store.ts';
import type { AppDeps } from '../deps.ts';
import { ApiKeyCreateSchema, ApiKeyListSchema, ApiKeySchema, NewApiKeySchema, errorResponses, ref } from '../schemas.ts';

/** A key as it may be shown: never its secret or hash. */
function view(record: ApiKeyRecord): Static<typeof ApiKeySchema> {
  const { hash: _hash, ...shown } = record;
  return shown;
}

export default async function keyRoutes(app: FastifyInstance, { store }: AppDeps): Promise<void> {
  app.post<{ Body: Static<typeof ApiKeyCreateSchema>; Reply: Static<typeof NewApiKeySchema> }>(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Create an API key for a tenant (admin); the secret is returned once',
        body: ref(ApiKeyCreateSchema),
        response: { 201: ref(NewApiKeySchema), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const { record, secret } = await store.createKey({ tenant: request.body.tenant, scope: request.body.scope ?? 'write', ...(request.body.name ? { name: request.body.name } : {}) });
      return reply.code(201).send({ ...view(record), api_key: secret });
    },
  );

  app.get<{ Reply: Static<typeof ApiKeyListSchema> }>(
    '/v1/keys',
    {
      config: { scope: 'admin' },
      schema: { summary: 'List API keys (admin); secrets are never listed', response: { 200: ref(ApiKeyListSchema), ...errorResponses(403) } },
    },
    async () => ({ keys: (await store.listKeys()).map(view) }),
  );

  app.delete<{ Params: { key_id: string } }>(
    '/v1/keys/:key_id',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Revoke an API key at once (admin)',
        params: Type.Object({ key_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await store.revokeKey(request.params.key_id);
      return reply.code(204).send();
    },
  );
}
