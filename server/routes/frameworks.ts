import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../engine/errors.ts';
import { FrameworkManifestSchema, type FrameworkEntry, type ModuleProblem } from '../../engine/prolog/framework-loader.ts';
import type { AppDeps } from '../deps.ts';
import { errorResponses } from '../schemas.ts';

const Problem = Type.Object({ file: Type.String(), line: Type.Optional(Type.Integer()), column: Type.Optional(Type.Integer()), reason: Type.String() });
const Status = Type.Union([Type.Literal('loaded'), Type.Literal('refused')]);
const FrameworkSummary = Type.Object({
  id: Type.String(),
  status: Status,
  builtin: Type.Boolean(),
  name: Type.Optional(Type.String()),
  question: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  answers: Type.Optional(Type.Array(Type.String())),
  time_aware: Type.Optional(Type.Boolean()),
  problems: Type.Optional(Type.Array(Problem)),
});
const { $id: _manifestId, ...ManifestShape } = FrameworkManifestSchema;
const FrameworkDetail = Type.Intersect([
  FrameworkSummary,
  Type.Object({ manifest: Type.Optional(Type.Unsafe<Static<typeof FrameworkManifestSchema>>(ManifestShape)), readme: Type.Optional(Type.String()) }),
]);
const RuleFile = Type.Object({ id: Type.String(), status: Status, predicates: Type.Array(Type.String()), problems: Type.Array(Problem) });
const FrameworkParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

/** Paths as a module's author knows them (`glasl/rules.pl`), not the server's directory layout. */
function relative(problems: ModuleProblem[], moduleDir: string): ModuleProblem[] {
  return problems.map((problem) => ({ ...problem, file: path.relative(path.dirname(moduleDir), problem.file) || problem.file }));
}

function summary(entry: FrameworkEntry): Static<typeof FrameworkSummary> {
  if (entry.status === 'refused') return { id: entry.id, status: entry.status, builtin: entry.builtin, problems: relative(entry.problems, entry.dir) };
  const { name, question, version, answers, time_aware } = entry.manifest;
  return { id: entry.id, status: entry.status, builtin: entry.builtin, name, question, version, answers, time_aware: time_aware ?? false };
}

export default async function frameworkRoutes(app: FastifyInstance, { reasoning }: AppDeps): Promise<void> {
  const catalog = reasoning.catalog;

  app.get(
    '/v1/frameworks',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'The theory frameworks and rule modules loaded at start-up, with the problems of any that were refused',
        response: { 200: Type.Object({ frameworks: Type.Array(FrameworkSummary), rule_files: Type.Array(RuleFile) }), ...errorResponses() },
      },
    },
    async () => ({
      frameworks: catalog.frameworks.map(summary),
      rule_files: catalog.ruleFiles.map((entry) => ({ id: entry.id, status: entry.status, predicates: entry.predicates, problems: relative(entry.problems, entry.file) })),
    }),
  );

  app.get<{ Params: Static<typeof FrameworkParams> }>(
    '/v1/frameworks/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'One framework: its manifest, its README for analysts, and its load status',
        params: FrameworkParams,
        response: { 200: FrameworkDetail, ...errorResponses(404) },
      },
    },
    async (request) => {
      const entry = catalog.frameworks.find((candidate) => candidate.id === request.params.id);
      if (!entry) throw new NotFoundError('framework', request.params.id);
      return entry.status === 'loaded' ? { ...summary(entry), manifest: entry.manifest, readme: entry.readme } : summary(entry);
    },
  );
}
