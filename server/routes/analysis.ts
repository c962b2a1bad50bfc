import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../engine/errors.ts';
import { frameworksFor, rankAssessments, writeAnalysis } from '../../engine/reason/analysis.ts';
import { routeQuestion } from '../../engine/reason/intents.ts';
import type { AppDeps } from '../deps.ts';
import {
  AnalysisSchema, AnalyzeRequestSchema, AssessRequestSchema, AssessmentSchema, MAX_TRAJECTORY_PERIODS, WorkspaceParams, errorResponses, ref,
} from '../schemas.ts';

export default async function analysisRoutes(app: FastifyInstance, { store, reasoning, config }: AppDeps): Promise<void> {
  const limits = { inferenceLimit: config.inferenceLimit, timeLimitMs: config.queryTimeoutMs };
  const loaded = () => reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded');
  const selected = (ids: string[] | undefined): string[] => {
    const available = loaded().map((entry) => entry.id);
    if (!ids) return available;
    for (const id of ids) if (!available.includes(id)) throw new NotFoundError('framework', id);
    return ids;
  };
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
      const { runs } = await reasoning.frameworks(tenant, workspace.graph_id, selected(body.frameworks), { asOf: asOf(body.as_of), limits });
      const response: Static<typeof AssessmentSchema> = { workspace_id: workspace.id, graph_id: workspace.graph_id, assessments: rankAssessments(runs) };
      if (body.trajectory) {
        const timeAware = loaded().filter((entry) => entry.manifest.time_aware).map((entry) => entry.id);
        response.trajectory = await reasoning.trajectory(tenant, workspace.graph_id, selected(body.trajectory.frameworks ?? timeAware), {
          asOf: asOf(body.as_of),
          period: body.trajectory.period,
          maxPeriods: body.trajectory.max_periods ?? MAX_TRAJECTORY_PERIODS,
          limits,
        });
      }
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
      const ids = body.frameworks ? selected(body.frameworks) : frameworksFor(routing, loaded());
      const { runs, graph } = ids.length > 0
        ? await reasoning.frameworks(tenant, workspace.graph_id, ids, { asOf: asOf(body.as_of), limits })
        : { runs: [], graph: await store.loadGraph(tenant, workspace.graph_id) };
      return writeAnalysis(body.query, routing, runs, graph);
    },
  );
}
