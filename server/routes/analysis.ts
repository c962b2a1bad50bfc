import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { analyzeGraph } from '../../engine/reason/analyze.ts';
import { assessGraph } from '../../engine/reason/assess.ts';
import { frameworkLimits } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { reachRequestedRevision } from '../revision.ts';
import { AnalysisSchema, AnalyzeRequestSchema, AssessRequestSchema, AssessmentSchema, MinRevisionHeaders, WorkspaceParams, errorResponses, ref } from '../schemas.ts';

export default async function analysisRoutes(app: FastifyInstance, { store, reasoning, config }: AppDeps): Promise<void> {
  const limits = frameworkLimits(config);
  const asOf = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);

  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AssessRequestSchema>; Reply: Static<typeof AssessmentSchema> }>(
    '/v1/workspaces/:id/assess',
    {
      config: { scope: 'read' },
      schema: {
        summary: "Theory assessment: every loaded framework run over the workspace's graph and ranked by fit, optionally with the escalation trajectory per period",
        params: WorkspaceParams,
        headers: MinRevisionHeaders,
        body: ref(AssessRequestSchema),
        response: { 200: ref(AssessmentSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const tenant = request.principal.tenant;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const body = request.body;
      await reachRequestedRevision(store, config.minRevisionWaitMs, request, workspace.graph_id, body.min_revision);
      const assessed = await assessGraph(reasoning, tenant, workspace.graph_id, {
        ...(body.frameworks ? { frameworks: body.frameworks } : {}),
        asOf: asOf(body.as_of),
        ...(body.scope ? { scope: body.scope } : {}),
        ...(body.by_conflict ? { byConflict: true } : {}),
        ...(body.trajectory ? { trajectory: { period: body.trajectory.period, frameworks: body.trajectory.frameworks, maxPeriods: body.trajectory.max_periods } } : {}),
        limits,
      });
      const response: Static<typeof AssessmentSchema> = { workspace_id: workspace.id, graph_id: workspace.graph_id, ...assessed };
      return response;
    },
  );

  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AnalyzeRequestSchema>; Reply: Static<typeof AnalysisSchema> }>(
    '/v1/workspaces/:id/analyze',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Conflict analysis: answer a question with the frameworks it concerns, every sentence citing its evidence',
        params: WorkspaceParams,
        headers: MinRevisionHeaders,
        body: ref(AnalyzeRequestSchema),
        response: { 200: ref(AnalysisSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const tenant = request.principal.tenant;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const body = request.body;
      await reachRequestedRevision(store, config.minRevisionWaitMs, request, workspace.graph_id, body.min_revision);
      return analyzeGraph(reasoning, store, tenant, workspace.graph_id, {
        question: body.query,
        ...(body.frameworks ? { frameworks: body.frameworks } : {}),
        asOf: asOf(body.as_of),
        ...(body.scope ? { scope: body.scope } : {}),
        ...(body.detail ? { detail: body.detail } : {}),
        limits,
      });
    },
  );
}
