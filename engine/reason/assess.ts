import type { Conflict } from '../conflicts/detect.ts';
import type { ResolvedScope, ScopeRequest } from '../conflicts/scope.ts';
import { NotFoundError } from '../errors.ts';
import type { RunLimits } from '../frameworks/run.ts';
import { citations, rankAssessments, type Assessment, type Citation } from './analysis.ts';
import type { ReasoningPool } from './pool.ts';
import type { Period } from './period.ts';
import type { Trajectory } from './tasks.ts';

/** Periods a trajectory covers at most (the latest ones are kept). */
export const MAX_TRAJECTORY_PERIODS = 60;
/** Conflicts a by-conflict assess assesses at most (the largest): each costs an assess of its own. */
export const MAX_CONFLICTS_ASSESSED = 10;

export interface AssessRequest {
  /** Only these frameworks (default: every loaded one); an unknown id is NotFoundError. */
  frameworks?: string[];
  /** Reason over the graph as recorded at this instant. */
  asOf?: string;
  /** Also run the time-aware frameworks (or the ones named) once per period. */
  trajectory?: { period: Period; frameworks?: string[]; maxPeriods?: number };
  /** Reason over the sub-graph of this scope (engine/conflicts/scope.ts) rather than the whole graph. */
  scope?: ScopeRequest;
  /** Also assess each conflict of the graph (within the scope) on its own. */
  byConflict?: boolean;
  limits: RunLimits;
}

export interface GraphAssessment {
  /** The scope reasoned over, its names resolved to ids (absent: the whole graph). */
  scope?: ResolvedScope;
  assessments: Assessment[];
  /** Every id the assessments cite (findings and indicators), with its quote, source and date. */
  citations: Citation[];
  trajectory?: Trajectory;
  /** With byConflict: each conflict (detect.ts) assessed on its own, the largest first. */
  conflicts?: ConflictAssessment[];
  /** Conflicts beyond MAX_CONFLICTS_ASSESSED, not assessed. */
  conflicts_omitted?: number;
}

export interface ConflictAssessment {
  conflict: Conflict;
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
  const frameworkIds = selected(request.frameworks);
  const timeAware = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded' && entry.manifest.time_aware).map((entry) => entry.id);
  const trajectoryIds = request.trajectory ? selected(request.trajectory.frameworks ?? timeAware) : [];
  const scope = request.scope ? await reasoning.scope(tenant, graphId, request.scope) : undefined;
  const assessIn = async (within: ResolvedScope | undefined) => {
    const { runs, graph } = await reasoning.frameworks(tenant, graphId, frameworkIds, { asOf: request.asOf, limits: request.limits, ...(within ? { scope: within } : {}) });
    const assessments = rankAssessments(runs);
    const assessed: { assessments: Assessment[]; citations: Citation[]; trajectory?: Trajectory } = {
      assessments,
      citations: citations(assessments.flatMap((assessment) => [...assessment.evidence, ...assessment.findings.flatMap((finding) => finding.evidence)]), graph),
    };
    if (request.trajectory) {
      assessed.trajectory = await reasoning.trajectory(tenant, graphId, trajectoryIds, {
        asOf: request.asOf,
        period: request.trajectory.period,
        maxPeriods: request.trajectory.maxPeriods ?? MAX_TRAJECTORY_PERIODS,
        limits: request.limits,
        ...(within ? { scope: within } : {}),
      });
    }
    return assessed;
  };
  const result: GraphAssessment = { ...(scope ? { scope } : {}), ...(await assessIn(scope)) };
  if (request.byConflict) {
    result.conflicts = [];
    const conflicts = (await reasoning.conflicts(tenant, graphId)).filter((conflict) => scope?.conflict === undefined || scope.conflict === conflict.id);
    if (conflicts.length > MAX_CONFLICTS_ASSESSED) result.conflicts_omitted = conflicts.length - MAX_CONFLICTS_ASSESSED;
    for (const conflict of conflicts.slice(0, MAX_CONFLICTS_ASSESSED)) {
      // the conflict within the scope asked: its actors (those the scope names too, when it names some), its places and period
      const actors = scope && scope.actors.length > 0 && scope.conflict === undefined ? conflict.actors.filter((id) => scope.actors.includes(id)) : conflict.actors;
      if (actors.length === 0) continue;
      const within: ResolvedScope = { places: [], ...scope, actors, dyad: scope?.dyad === true && actors.length === 2, conflict: conflict.id };
      result.conflicts.push({ conflict, ...(await assessIn(within)) });
    }
  }
  return result;
}
