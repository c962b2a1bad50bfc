import { NotFoundError } from '../errors.ts';
import type { RunLimits } from '../frameworks/run.ts';
import { citations, rankAssessments, type Assessment, type Citation } from './analysis.ts';
import type { ReasoningPool } from './pool.ts';
import type { Period } from './period.ts';
import type { Trajectory } from './tasks.ts';

/** Periods a trajectory covers at most (the latest ones are kept). */
export const MAX_TRAJECTORY_PERIODS = 60;

export interface AssessRequest {
  /** Only these frameworks (default: every loaded one); an unknown id is NotFoundError. */
  frameworks?: string[];
  /** Reason over the graph as recorded at this instant. */
  asOf?: string;
  /** Also run the time-aware frameworks (or the ones named) once per period. */
  trajectory?: { period: Period; frameworks?: string[]; maxPeriods?: number };
  limits: RunLimits;
}

export interface GraphAssessment {
  assessments: Assessment[];
  /** Every id the assessments cite (findings and indicators), with its quote, source and date. */
  citations: Citation[];
  trajectory?: Trajectory;
}

/** The loaded frameworks named (all of them when none are); an id that is not loaded is NotFoundError. */
export function selectFrameworks(reasoning: ReasoningPool, ids: string[] | undefined): string[] {
  const available = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded').map((entry) => entry.id);
  if (!ids) return available;
  for (const id of ids) if (!available.includes(id)) throw new NotFoundError('framework', id);
  return ids;
}

/** Theory assessment of a graph: the frameworks ranked by fit, and the trajectory when asked. The one path the API and the command line share. */
export async function assessGraph(reasoning: ReasoningPool, tenant: string, graphId: string, request: AssessRequest): Promise<GraphAssessment> {
  const selected = (ids: string[] | undefined) => selectFrameworks(reasoning, ids);
  const { runs, graph } = await reasoning.frameworks(tenant, graphId, selected(request.frameworks), { asOf: request.asOf, limits: request.limits });
  const assessments = rankAssessments(runs);
  const result: GraphAssessment = { assessments, citations: citations(assessments.flatMap((assessment) => [...assessment.evidence, ...assessment.findings.flatMap((finding) => finding.evidence)]), graph) };
  if (request.trajectory) {
    const timeAware = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded' && entry.manifest.time_aware).map((entry) => entry.id);
    result.trajectory = await reasoning.trajectory(tenant, graphId, selected(request.trajectory.frameworks ?? timeAware), {
      asOf: request.asOf,
      period: request.trajectory.period,
      maxPeriods: request.trajectory.maxPeriods ?? MAX_TRAJECTORY_PERIODS,
      limits: request.limits,
    });
  }
  return result;
}
