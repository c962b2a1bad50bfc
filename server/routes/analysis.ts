import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { frameworksFor, writeAnalysis } from '../../engine/reason/analysis.ts';
import { assessGraph, MAX_TRAJECTORY_PERIODS, selectFrameworks } from '../../engine/reason/assess.ts';
import { routeQuestion } from '../../engine/reason/intents.ts';
import { PERIODS } from '../../engine/reason/tasks.ts';
import type { AppDeps } from '../deps.ts';
import { StringEnum, WorkspaceParams, errorResponses } from '../schemas.ts';

const FrameworkIds = Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]{1,39}$' }), {
  minItems: 1,
  maxItems: 64,
  uniqueItems: true,
  description: 'run only these frameworks (default: all loaded)',
});
const AsOf = Type.String({ format: 'date-time', description: 'reason over the graph as it was recorded at this instant' });

const AssessBody = Type.Object(
  {
    as_of: Type.Optional(AsOf),
    frameworks: Type.Optional(FrameworkIds),
    trajectory: Type.Optional(
      Type.Object(
        {
          period: StringEnum(PERIODS, { description: 'one result per calendar month, quarter or year' }),
          frameworks: Type.Optional(FrameworkIds),
          max_periods: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TRAJECTORY_PERIODS })),
        },
        { additionalProperties: false, description: 'also run the time-aware frameworks once per period, each seeing what had happened by its end' },
      ),
    ),
  },
  { additionalProperties: false },
);

const AnalyzeBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2_000, description: 'a question in plain language' }),
    frameworks: Type.Optional(FrameworkIds),
    as_of: Type.Optional(AsOf),
  },
  { additionalProperties: false },
);

const Finding = Type.Object({
  key: Type.String(),
  value: Type.Unknown(),
  statement: Type.String(),
  evidence: Type.Array(Type.String()),
  evidence_total: Type.Optional(Type.Integer()),
  trace: Type.Optional(Type.Array(Type.String())),
});
const RunError = Type.Object({ code: Type.String(), message: Type.String() });

const AssessResponse = Type.Object({
  workspace_id: Type.String(),
  graph_id: Type.String(),
  assessments: Type.Array(
    Type.Object({
      framework_id: Type.String(),
      name: Type.String(),
      fit: Type.Number(),
      applies: Type.Boolean(),
      indicators_present: Type.Array(Type.String()),
      indicators_missing: Type.Array(Type.String()),
      explanation: Type.String(),
      evidence: Type.Array(Type.String()),
      findings: Type.Array(Finding),
      error: Type.Optional(RunError),
    }),
  ),
  trajectory: Type.Optional(
    Type.Object({
      period: Type.String(),
      truncated: Type.Integer(),
      points: Type.Array(
        Type.Object({
          period: Type.String(),
          until: Type.String(),
          results: Type.Array(
            Type.Object({
              framework_id: Type.String(),
              applies: Type.Boolean(),
              score: Type.Number(),
              missing: Type.Array(Type.String()),
              findings: Type.Array(Finding),
              error: Type.Optional(RunError),
            }),
          ),
        }),
      ),
    }),
  ),
});

const AnalyzeResponse = Type.Object({
  question: Type.String(),
  answer: Type.String(),
  intents: Type.Array(Type.String()),
  frameworks: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      applies: Type.Boolean(),
      score: Type.Number(),
      missing: Type.Array(Type.String()),
      findings: Type.Array(Finding),
      evidence: Type.Array(Type.String()),
      trace: Type.Array(Type.String()),
      error: Type.Optional(RunError),
    }),
  ),
  citations: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      label: Type.String(),
      source: Type.Optional(Type.String()),
      timestamp: Type.Optional(Type.String()),
      quote: Type.Optional(Type.String()),
    }),
  ),
});

export default async function analysisRoutes(app: FastifyInstance, { store, reasoning, config }: AppDeps): Promise<void> {
  const limits = { inferenceLimit: config.inferenceLimit, timeLimitMs: config.queryTimeoutMs };
  const loaded = () => reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded');
  const asOf = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);

  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AssessBody> }>(
    '/v1/workspaces/:id/assess',
    {
      config: { scope: 'read' },
      schema: {
        summary: "Theory assessment: every loaded framework run over the workspace's graph and ranked by fit, optionally with the escalation trajectory per period",
        params: WorkspaceParams,
        body: AssessBody,
        response: { 200: AssessResponse, ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => {
      const tenant = request.principal.tenant;
      const workspace = await store.getWorkspace(tenant, request.params.id);
      const body = request.body;
      const assessed = await assessGraph(reasoning, tenant, workspace.graph_id, {
        ...(body.frameworks ? { frameworks: body.frameworks } : {}),
        asOf: asOf(body.as_of),
        ...(body.trajectory ? { trajectory: { period: body.trajectory.period, frameworks: body.trajectory.frameworks, maxPeriods: body.trajectory.max_periods } } : {}),
        limits,
      });
      const response: Static<typeof AssessResponse> = { workspace_id: workspace.id, graph_id: workspace.graph_id, ...assessed };
      return response;
    },
  );

  app.post<{ Params: Static<typeof WorkspaceParams>; Body: Static<typeof AnalyzeBody> }>(
    '/v1/workspaces/:id/analyze',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Conflict analysis: answer a question with the frameworks it concerns, every sentence citing its evidence',
        params: WorkspaceParams,
        body: AnalyzeBody,
        response: { 200: AnalyzeResponse, ...errorResponses(400, 404, 503) },
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
      const { runs, graph } = ids.length > 0
        ? await reasoning.frameworks(tenant, workspace.graph_id, ids, { asOf: asOf(body.as_of), limits })
        : { runs: [], graph: await store.loadGraph(tenant, workspace.graph_id) };
      return writeAnalysis(body.query, routing, runs, graph);
    },
  );
}
