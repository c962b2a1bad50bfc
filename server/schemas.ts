import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { WORKSPACE_DOMAINS, WORKSPACE_SCALES, WORKSPACE_TIERS } from '../engine/ontology/index.ts';

/**
 * Request and response schemas shared by the routes. The same objects validate
 * requests (fastify's ajv) and generate the OpenAPI document (@fastify/swagger).
 */

/** A string from a closed vocabulary: a plain JSON Schema enum, so errors can list the allowed values. */
export function StringEnum<T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Name = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$', description: 'letters, digits, _ . - (1-128)' });

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
  },
  { additionalProperties: true, $id: 'Problem', description: 'RFC 9457 problem details' },
);

/** Error responses every authenticated route may give. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [401, ...statuses]) responses[status] = Type.Ref('Problem');
  return responses;
}

export const PageQuery = Type.Object(
  {
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'items per page (1-500, default 50)' })),
    page_token: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type PageQueryT = Static<typeof PageQuery>;

export function pageSizeOf(query: PageQueryT): number | undefined {
  return query.page_size === undefined ? undefined : Number(query.page_size);
}

export const WorkspaceCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    domain: StringEnum(WORKSPACE_DOMAINS),
    scale: StringEnum(WORKSPACE_SCALES),
    tier: StringEnum(WORKSPACE_TIERS),
    graph_id: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type WorkspaceCreateT = Static<typeof WorkspaceCreate>;

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  domain: StringEnum(WORKSPACE_DOMAINS),
  scale: StringEnum(WORKSPACE_SCALES),
  tier: StringEnum(WORKSPACE_TIERS),
  graph_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

export const WorkspaceParams = Type.Object({ id: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
export const GraphParams = Type.Object({ graph_id: Name }, { additionalProperties: false });

export const GraphMetaSchema = Type.Object({
  graph_id: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const CountsSchema = Type.Record(Type.String(), Type.Integer());

/** GraphIndex.counts(): nodes by kind, edges by type. */
export const GraphCountsSchema = Type.Object({ node_count: Type.Integer(), edge_count: Type.Integer(), nodes: CountsSchema, edges: CountsSchema });

export const WriteSummarySchema = Type.Object({
  graph_id: Type.String(),
  nodes_created: Type.Integer(),
  nodes_updated: Type.Integer(),
  edges_created: Type.Integer(),
  edges_updated: Type.Integer(),
});
