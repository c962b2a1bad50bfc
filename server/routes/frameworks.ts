import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../engine/errors.ts';
import type { FrameworkEntry, ModuleProblem } from '../../engine/frameworks/loader.ts';
import type { AppDeps } from '../deps.ts';
import { FrameworkDetailSchema, FrameworkListSchema, FrameworkSummarySchema, errorResponses, ref } from '../schemas.ts';

const FrameworkParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

/** Paths as a module's author knows them (`glasl/rules.pl`), not the server's directory layout. */
function relative(problems: ModuleProblem[], moduleDir: string): ModuleProblem[] {
  return problems.map((problem) => ({ ...problem, file: path.relative(path.dirname(moduleDir), problem.file) || problem.file }));
}

function summary(entry: FrameworkEntry): Static<typeof FrameworkSummarySchema> {
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
        response: { 200: ref(FrameworkListSchema), ...errorResponses() },
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
        response: { 200: ref(FrameworkDetailSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const entry = catalog.frameworks.find((candidate) => candidate.id === request.params.id);
      if (!entry) throw new NotFoundError('framework', request.params.id);
      return entry.status === 'loaded' ? { ...summary(entry), manifest: entry.manifest, readme: entry.readme } : summary(entry);
    },
  );
}
