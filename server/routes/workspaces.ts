import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { PageQuery, WorkspaceCreate, WorkspaceListSchema, WorkspaceParams, WorkspaceSchema, errorResponses, pageSizeOf, ref, type PageQueryT, type WorkspaceCreateT } from '../schemas.ts';

export default async function workspaceRoutes(app: FastifyInstance, { store, reasoning }: AppDeps): Promise<void> {
  app.post<{ Body: WorkspaceCreateT; Reply: Static<typeof WorkspaceSchema> }>(
    '/v1/workspaces',
    {
      config: { scope: 'write' },
      schema: {
        summary: 'Create a workspace (and its graph, named graph_id, which defaults to the workspace id)',
        body: ref(WorkspaceCreate),
        response: { 201: ref(WorkspaceSchema), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await store.createWorkspace(request.principal.tenant, request.body)),
  );

  app.get<{ Querystring: PageQueryT; Reply: Static<typeof WorkspaceListSchema> }>(
    '/v1/workspaces',
    {
      config: { scope: 'read' },
      schema: {
        summary: "List the tenant's workspaces, paginated",
        querystring: PageQuery,
        response: { 200: ref(WorkspaceListSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const page = await store.listWorkspaces(request.principal.tenant, pageSizeOf(request.query), request.query.page_token);
      return { workspaces: page.items, ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
    },
  );

  app.get<{ Params: { id: string }; Reply: Static<typeof WorkspaceSchema> }>(
    '/v1/workspaces/:id',
    { config: { scope: 'read' }, schema: { summary: 'Get a workspace', params: WorkspaceParams, response: { 200: ref(WorkspaceSchema), ...errorResponses(404) } } },
    async (request) => {
      const workspace = await store.getWorkspace(request.principal.tenant, request.params.id);
      reasoning.preload(request.principal.tenant, workspace.graph_id); // an analyst opening a workspace may ask for an assess next
      return workspace;
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v1/workspaces/:id',
    {
      config: { scope: 'write' },
      schema: { summary: 'Delete a workspace (its graph stays)', params: WorkspaceParams, response: { 204: Type.Null(), ...errorResponses(403, 404) } },
    },
    async (request, reply) => {
      await store.deleteWorkspace(request.principal.tenant, request.params.id);
      return reply.code(204).send();
    },
  );
}
