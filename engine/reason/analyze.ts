/**
 * Conflict analysis of a graph: the question routed to the frameworks it concerns, scoped to
 * what the request or the question names, the frameworks run, the cited accounts weighed, and
 * the answer written (analysis.ts). The one path the API and the command line share.
 */
import type { ResolvedScope, ScopeRequest } from '../conflicts/scope.ts';
import type { RunLimits } from '../frameworks/run.ts';
import { routeQuestion } from '../frameworks/intents.ts';
import type { ParleyStore } from '../store/store.ts';
import { frameworksFor, writeAnalysis, type Analysis, type AnalysisDetail } from './analysis.ts';
import { selectFrameworks } from './assess.ts';
import { shownUnlessPastLimits } from './disputes.ts';
import type { ReasoningPool } from './pool.ts';
import { questionScope } from './question-scope.ts';

export interface AnalyzeRequest {
  question: string;
  /** These frameworks answer, whatever the question's words say (an unknown id is NotFoundError). */
  frameworks?: string[];
  /** Reason over the graph as recorded at this instant. */
  asOf?: string;
  /** Reason over this scope; without one, over the parties, places and period the question names. */
  scope?: ScopeRequest;
  detail?: AnalysisDetail;
  limits: RunLimits;
}

/** The analysis, with the scope it reasoned over and whether the request or the question gave it. */
export type GraphAnalysis = Analysis & { scope?: ResolvedScope & { source: 'request' | 'question' } };

export async function analyzeGraph(reasoning: ReasoningPool, store: Pick<ParleyStore, 'loadGraph'>, tenant: string, graphId: string, request: AnalyzeRequest): Promise<GraphAnalysis> {
  const asked = routeQuestion(request.question);
  // frameworks named by the client answer whatever the question's words say
  const routing = request.frameworks && asked.kind === 'unrelated' ? ({ kind: 'general' } as const) : asked;
  const loaded = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded');
  const ids = request.frameworks ? selectFrameworks(reasoning, request.frameworks) : frameworksFor(routing, loaded);
  // the scope the request gives, else the one the question names ("between the RSF and the army since March")
  const whole = request.scope ? undefined : await store.loadGraph(tenant, graphId);
  const scope = whole ? questionScope(whole, request.question) : { ...(await reasoning.scope(tenant, graphId, request.scope!)), source: 'request' as const };
  const { runs, graph } = ids.length > 0
    ? await reasoning.frameworks(tenant, graphId, ids, { asOf: request.asOf, limits: request.limits, ...(scope ? { scope } : {}) })
    : { runs: [], graph: whole ?? (await store.loadGraph(tenant, graphId)) };
  // which cited accounts stand: weighed over the whole graph, whatever the scope (a rival account may lie outside it)
  const weighed = runs.length > 0 ? await reasoning.arguments(tenant, graphId, request.asOf).catch(shownUnlessPastLimits) : undefined;
  return { ...writeAnalysis(request.question, routing, runs, graph, request.detail, weighed), ...(scope ? { scope } : {}) };
}
