import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { frameworksFor, writeAnalysis } from '../../engine/reason/analysis.ts';
import { assessGraph, selectFrameworks } from '../../engine/reason/assess.ts';
import { shownUnlessPastLimits } from '../../engine/reason/disputes.ts';
import { questionScope } from '../../engine/reason/question-scope.ts';
import { routeQuestion } from '../../engine/frameworks/intents.ts';
import { frameworkLimits } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { AnalysisSchema, AnalyzeRequestSchema, AssessRequestSchema, AssessmentSchema, WorkspaceParams, errorResponses, ref } from '../schemas.ts';

export default async function analysisRoutes(app: FastifyInstance, { store, reasoning, config }: AppDeps): Promise<void> {
  const limits = frameworkLimits(config);
  const loaded = () => reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded');
  const asOf = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);

  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AssessRequestSchema>; Reply: Static<typeof AssessmentSchema> }>(
    '/v1/workspaces/:id/assess',
    {
      config: { scope: 'read' },
      schema: {
        summary: "Theory assessment: every loaded framework run over the workspace's graph and ranked by fit, optionally with the escalation trajectory per period",
        params: WorkspaceParams,
        body: ref(AssessRequestSchema),
        response: { 200: ref(AssessmentSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const tenant = request.principal.tenant;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const body = request.body;
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
        body: ref(AnalyzeRequestSchema),
        response: { 200: ref(AnalysisSchema), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const tenant = request.principal.tenant;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const body = request.body;
      const asked = routeQuestion(body.query);
      // frameworks named by the client answer whatever the question's words say
      const routing = body.frameworks && asked.kind === 'unrelated' ? ({ kind: 'general' } as const) : asked;
      const ids = body.frameworks ? selectFrameworks(reasoning, body.frameworks) : frameworksFor(routing, loaded());
      // the scope the request gives, else the one the question names ("between the RSF and the army since March")
      const scope = body.scope
        ? { ...(await reasoning.scope(tenant, workspace.graph_id, body.scope)), source: 'request' as const }
        : questionScope(await store.loadGraph(tenant, workspace.graph_id), body.query);
      const { runs, graph } = ids.length > 0
        ? await reasoning.frameworks(tenant, workspace.graph_id, ids, { asOf: asOf(body.as_of), limits, ...(scope ? { scope } : {}) })
        : { runs: [], graph: await store.loadGraph(tenant, workspace.graph_id) };
      // which cited accounts stand: weighed over the whole graph, whatever the scope (a rival account may lie outside it)
      const weighed = runs.length > 0 ? await reasoning.arguments(tenant, workspace.graph_id, asOf(body.as_of)).catch(shownUnlessPastLimits) : undefined;
      return { ...writeAnalysis(body.query, routing, runs, graph, body.detail, weighed), ...(scope ? { scope } : {}) };
    },
  );
}
