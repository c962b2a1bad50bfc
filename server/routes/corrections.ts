import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { correctionInput } from '../../engine/store/corrections.ts';
import { summariseProvenance, type EdgeRecord, type NodeRecord } from '../../engine/ontology/index.ts';
import type { ListedCorrection, Trace } from '../../engine/store/store.ts';
import type { AppDeps } from '../deps.ts';
import { answerRevision } from '../revision.ts';
import {
  CorrectionListSchema,
  CorrectionRequestSchema,
  CorrectionSchema,
  EdgeTraceSchema,
  GraphParams,
  NodeTraceSchema,
  PageQuery,
  errorResponses,
  pageSizeOf,
  ref,
  type PageQueryT,
} from '../schemas.ts';

const RecordParams = Type.Object({ graph_id: GraphParams.properties.graph_id, id: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
const CorrectionParams = Type.Object({ graph_id: GraphParams.properties.graph_id, correction_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
type GraphRoute = { Params: { graph_id: string } };

/** A traced record as answered: its provenance in SEED.md's shape, every source in `sources`. */
function withProvenance<R extends NodeRecord | EdgeRecord>({ provenance, ...fields }: R) {
  const summary = summariseProvenance(provenance);
  return { ...fields, ...(summary ? { provenance: summary } : {}) };
}

/** What a trace answers beside the record. */
function traceFields({ retracted, aliases, corrections }: Trace<NodeRecord | EdgeRecord>) {
  return { retracted, aliases, corrections: corrections.map(shown) };
}

function shown(correction: ListedCorrection): Static<typeof CorrectionSchema> {
  return correction as Static<typeof CorrectionSchema>;
}

export default async function correctionRoutes(app: FastifyInstance, { store, reasoning }: AppDeps): Promise<void> {
  app.post<GraphRoute & { Body: Static<typeof CorrectionRequestSchema>; Reply: Static<typeof CorrectionSchema> }>(
    '/v1/graphs/:graph_id/corrections',
    {
      config: { scope: 'write' },
      schema: {
        summary:
          "Correct the graph: merge nodes, retract a node or edge, retype an edge, or set properties. The correction is kept in the graph's audit and holds " +
          'over every later ingest and import; every query, assess, analyze, export and report reads the corrected graph',
        params: GraphParams,
        body: ref(CorrectionRequestSchema),
        response: { 201: ref(CorrectionSchema), ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { tenant, key_id } = request.principal;
      const correction = await store.correct(tenant, request.params.graph_id, correctionInput(request.body), key_id);
      await answerRevision(store, reply, tenant, request.params.graph_id);
      reasoning.preload(tenant, request.params.graph_id);
      return reply.code(201).send(shown(correction));
    },
  );

  app.get<GraphRoute & { Querystring: PageQueryT; Reply: Static<typeof CorrectionListSchema> }>(
    '/v1/graphs/:graph_id/corrections',
    {
      config: { scope: 'read' },
      schema: {
        summary: "The graph's corrections and their undos, newest first, paginated",
        params: GraphParams,
        querystring: PageQuery,
        response: { 200: ref(CorrectionListSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const page = await store.listCorrections(request.principal.tenant, request.params.graph_id, pageSizeOf(request.query), request.query.page_token);
      return { corrections: page.items.map(shown), ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}) };
    },
  );

  app.delete<{ Params: Static<typeof CorrectionParams>; Reply: Static<typeof CorrectionSchema> }>(
    '/v1/graphs/:graph_id/corrections/:correction_id',
    {
      config: { scope: 'write' },
      schema: {
        summary: 'Undo a correction; the undo is itself an audit record (answered here), and the correction stays listed, marked undone_by it',
        params: CorrectionParams,
        response: { 200: ref(CorrectionSchema), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { tenant, key_id } = request.principal;
      const undo = await store.undoCorrection(tenant, request.params.graph_id, request.params.correction_id, key_id);
      await answerRevision(store, reply, tenant, request.params.graph_id);
      reasoning.preload(tenant, request.params.graph_id);
      return shown(undo);
    },
  );

  app.get<{ Params: Static<typeof RecordParams>; Reply: Static<typeof NodeTraceSchema> }>(
    '/v1/graphs/:graph_id/nodes/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'A node with its provenance and the corrections that touched it; an alias id finds the node it was merged into, a retracted node is shown marked so',
        params: RecordParams,
        response: { 200: ref(NodeTraceSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const trace = await store.traceNode(request.principal.tenant, request.params.graph_id, request.params.id);
      return { node: withProvenance(trace.record), ...traceFields(trace) };
    },
  );

  app.get<{ Params: Static<typeof RecordParams>; Reply: Static<typeof EdgeTraceSchema> }>(
    '/v1/graphs/:graph_id/edges/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'An edge with its provenance and the corrections that touched it (a retype, a retraction, the merge of an end); a retracted edge is shown marked so',
        params: RecordParams,
        response: { 200: ref(EdgeTraceSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const trace = await store.traceEdge(request.principal.tenant, request.params.graph_id, request.params.id);
      return { edge: withProvenance(trace.record), ...traceFields(trace) };
    },
  );
}
