/**
 * What a reasoning worker does: queries and framework runs over a graph replica.
 * Pure functions of (graph, catalog, task), so the same code runs in a worker
 * thread (worker.mjs) and in tests; errors come back as data, because a typed
 * error does not keep its class across a thread boundary.
 */
import { graphInScope, type ResolvedScope } from '../conflicts/scope.ts';
import { ParleyError, QueryError } from '../errors.ts';
import type { FrameworkCatalog } from '../frameworks/loader.ts';
import type { FrameworkManifest } from '../frameworks/manifest.ts';
import { type FrameworkRun, type RunLimits, runFramework } from '../frameworks/run.ts';
import { runQuery, type QueryLimits, type QueryResult } from '../query/index.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { daysInMonth } from '../store/validate.ts';
import { validTime, inView, type GraphView } from '../store/view.ts';
import { bindsContested, shownUnlessPastLimits, statusById, weighedArguments, type ArgumentStatus, type ArgumentStatuses } from './disputes.ts';
import type { Period } from './period.ts';
import type { GraphVersion } from './replicas.ts';

export type ReasonTask =
  | { kind: 'query'; at: GraphVersion; text: string; parameters?: Record<string, unknown>; asOf?: string; explain?: boolean; limits: Partial<QueryLimits>; shape?: ShapeRequest }
  | { kind: 'frameworks'; at: GraphVersion; frameworkIds: string[]; asOf?: string; limits: RunLimits; scope?: ResolvedScope }
  | { kind: 'trajectory'; at: GraphVersion; frameworkIds: string[]; asOf?: string; period: Period; maxPeriods: number; limits: RunLimits; scope?: ResolvedScope }
  | { kind: 'arguments'; at: GraphVersion; asOf?: string };

/** A task that does nothing: what the pool sends to have a thread started (piscina starts one when a task finds none free). */
export const START_TASK = { kind: 'start' } as const;

export interface TrajectoryPoint {
  period: string;
  /** Last day of the period: the valid-time cut the frameworks saw. */
  until: string;
  results: Pick<FrameworkRun, 'framework_id' | 'applies' | 'score' | 'findings' | 'findings_omitted' | 'missing' | 'error'>[];
  /** What the frameworks concluded of the period as a whole (Glasl's stage, Kriesberg's phase and trend, ...): what a trajectory plots. */
  conclusions: Conclusion[];
}

/** A framework's conclusion about the whole conflict: a finding with a plain value whose key the run gives once (not one per actor or pair). */
export interface Conclusion {
  framework_id: string;
  key: string;
  value: string | number | boolean;
}

export interface Trajectory {
  period: Period;
  points: TrajectoryPoint[];
  /** Periods left out at the start because of `maxPeriods`. */
  truncated: number;
}

/**
 * How the caller wants a query's answer shaped: a query task that carries one returns
 * the answer's bytes (a string), shaped where the query ran, so that a large answer
 * costs the event loop one string copy rather than rebuilding and serialising every row.
 */
export interface ShapeRequest {
  includeProvenance: boolean;
  asOf?: string;
  /** The statuses of the graph's contradicted claims and events (engine/reason/disputes.ts), when the result binds one. */
  statuses?: Record<string, ArgumentStatus>;
}

/**
 * Turns a query result into the text a client receives. The HTTP layer provides it
 * (as a module URL in ReasoningOptions.answerShaper), so the engine shapes nothing itself.
 */
export type AnswerShaper = (result: QueryResult, graph: GraphIndex, text: string, request: ShapeRequest) => string;

export type ReasonValue = QueryResult | string | FrameworkRun[] | Trajectory | ArgumentStatuses;

export interface SerialisedError {
  kind: ParleyError['kind'] | 'internal';
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export type ReasonReply = { ok: true; value: ReasonValue } | { ok: false; error: SerialisedError };

export function runTask(task: ReasonTask, graph: GraphIndex, catalog: FrameworkCatalog, shaper?: AnswerShaper): ReasonReply {
  try {
    switch (task.kind) {
      case 'query': {
        const result = runQuery(graph, task.text, {
          parameters: task.parameters,
          as_of: task.asOf,
          explain: task.explain,
          limits: task.limits,
          rules: catalog.registry,
        });
        if (!task.shape) return { ok: true, value: result };
        if (!shaper) throw new Error('a shaped answer was asked of a worker started without an answer shaper');
        const statuses = bindsContested(result, graph) ? answerStatuses(catalog, graph, task.shape.asOf) : undefined;
        return { ok: true, value: shaper(result, graph, task.text, statuses ? { ...task.shape, statuses } : task.shape) };
      }
      case 'frameworks': {
        const scoped = graphInScope(graph, task.scope);
        return { ok: true, value: manifests(catalog, task.frameworkIds).map((manifest) => runFramework(catalog.registry, manifest, view(scoped, task.asOf), task.limits)) };
      }
      case 'trajectory':
        return { ok: true, value: trajectory(graphInScope(graph, task.scope), catalog, task) };
      case 'arguments':
        return { ok: true, value: weighedArguments(catalog.registry, graph, task.asOf) };
    }
  } catch (error) {
    return { ok: false, error: serialise(error) };
  }
}

/** The statuses a query answer shows, computed once per graph version (shownUnlessPastLimits). */
function answerStatuses(catalog: FrameworkCatalog, graph: GraphIndex, asOf: string | undefined): Record<string, ArgumentStatus> | undefined {
  try {
    return statusById(weighedArguments(catalog.registry, graph, asOf));
  } catch (error) {
    return shownUnlessPastLimits(error);
  }
}

function view(graph: GraphIndex, asOf: string | undefined, validUntil?: string): GraphView {
  return { graph, ...(asOf ? { asOf } : {}), ...(validUntil ? { validUntil } : {}) };
}

function manifests(catalog: FrameworkCatalog, ids: string[]): FrameworkManifest[] {
  return ids.map((id) => {
    const entry = catalog.frameworks.find((candidate) => candidate.id === id && candidate.status === 'loaded');
    if (!entry || entry.status !== 'loaded') throw new ParleyError('not_found', 'framework_not_found', `framework '${id}' is not loaded`, { framework_id: id });
    return entry.manifest;
  });
}

/** The time-aware frameworks once per period, each seeing what had happened by the period's last day. */
function trajectory(graph: GraphIndex, catalog: FrameworkCatalog, task: Extract<ReasonTask, { kind: 'trajectory' }>): Trajectory {
  const selected = manifests(catalog, task.frameworkIds);
  const recorded = view(graph, task.asOf);
  let first: string | undefined;
  let last: string | undefined;
  for (const node of graph.nodes.values()) {
    if (!inView(node, recorded)) continue;
    const time = validTime(node);
    if (time === undefined) continue;
    if (first === undefined || time < first) first = time;
    if (last === undefined || time > last) last = time;
  }
  if (first === undefined || last === undefined) return { period: task.period, points: [], truncated: 0 };
  const kept = periodsBetween(first, last, task.period, task.maxPeriods);
  // the whole trajectory (one task, up to maxPeriods x the frameworks) has what an assess of its frameworks
  // may take, each run its own time limit: a run gets what is left, and once nothing is, the periods left
  // say so (at 100k facts a period of the 7 time-aware frameworks takes some 0.4 s)
  const budgetMs = task.limits.timeLimitMs * selected.length;
  const deadline = Date.now() + budgetMs;
  const pastBudget = { code: 'query_time_limit', message: `the trajectory ran past its time limit of ${budgetMs} ms (${task.limits.timeLimitMs} ms per framework)` };
  const pointOf = ({ label, until }: { label: string; until: string }): TrajectoryPoint => {
    const results = selected.map((manifest): TrajectoryPoint['results'][number] => {
      const left = deadline - Date.now();
      if (left <= 0) return { framework_id: manifest.id, applies: false, score: 0, findings: [], findings_omitted: 0, missing: [], error: pastBudget };
      const run = runFramework(catalog.registry, manifest, view(graph, task.asOf, until), { ...task.limits, timeLimitMs: Math.min(task.limits.timeLimitMs, left) });
      // a run stopped by what was left of the budget, not by its own limit, says so (its message names the time it was given)
      const error = run.error?.code === 'query_time_limit' && left < task.limits.timeLimitMs ? pastBudget : run.error;
      return { framework_id: run.framework_id, applies: run.applies, score: run.score, findings: run.findings, findings_omitted: run.findings_omitted, missing: run.missing, ...(error ? { error } : {}) };
    });
    return { period: label, until, results, conclusions: results.flatMap(conclusionsOf) };
  };
  // the last period first: each earlier one is its view less the records of a later valid time, which the
  // engine takes out of the facts it holds instead of being handed the whole view again (engine/prolog/
  // bridge.ts); the periods the budget leaves out are then the earliest, as maxPeriods leaves those out
  const points = [...kept].reverse().map(pointOf).reverse();
  return { period: task.period, truncated: periodCount(first, last, task.period) - kept.length, points };
}

/** A run's conclusions about the whole conflict, in the order it gives them. */
export function conclusionsOf(run: { framework_id: string; findings: { key: string; value: unknown }[] }): Conclusion[] {
  const times = new Map<string, number>();
  for (const finding of run.findings) times.set(finding.key, (times.get(finding.key) ?? 0) + 1);
  return run.findings.flatMap(({ key, value }) =>
    times.get(key) === 1 && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') ? [{ framework_id: run.framework_id, key, value }] : [],
  );
}

/**
 * Calendar periods covering [first, last] (real ISO days), each with its label and last day:
 * the last `keep` of them. Only those are built: a span of 0001..9999 is 119,988 months.
 */
export function periodsBetween(first: string, last: string, period: Period, keep = Infinity): { label: string; until: string }[] {
  const months = MONTHS_IN[period];
  const lastStart = periodStart(last, period);
  const result: { label: string; until: string }[] = [];
  for (let at = Math.max(periodStart(first, period), lastStart - (keep - 1) * months); at <= lastStart; at += months) {
    const year = Math.floor(at / 12);
    const month = (at % 12) + 1;
    const yyyy = String(year).padStart(4, '0');
    const endMonth = month + months - 1;
    const until = `${yyyy}-${String(endMonth).padStart(2, '0')}-${String(daysInMonth(year, endMonth)).padStart(2, '0')}`;
    const label = period === 'month' ? `${yyyy}-${String(month).padStart(2, '0')}` : period === 'quarter' ? `${yyyy}-Q${(month + 2) / 3}` : yyyy;
    result.push({ label, until });
  }
  return result;
}

/** How many calendar periods cover [first, last] (real ISO days). */
export function periodCount(first: string, last: string, period: Period): number {
  return Math.max(0, (periodStart(last, period) - periodStart(first, period)) / MONTHS_IN[period] + 1);
}

const MONTHS_IN: Record<Period, number> = { month: 1, quarter: 3, year: 12 };

/** The first month of the period holding an ISO day, counted in months from the year 0. */
function periodStart(day: string, period: Period): number {
  const month = Number(day.slice(5, 7)) - 1;
  return Number(day.slice(0, 4)) * 12 + month - (month % MONTHS_IN[period]);
}

/** An error as data, to cross the thread boundary (deserialise makes it typed again). */
export function serialise(error: unknown): SerialisedError {
  if (error instanceof ParleyError) return { kind: error.kind, code: error.code, message: error.message, details: error.details };
  return { kind: 'internal', code: 'internal_error', message: error instanceof Error ? error.message : String(error), details: {} };
}

/** The typed error again, on the main thread. */
export function deserialise(error: SerialisedError): Error {
  if (error.kind === 'internal') return new Error(error.message);
  if (error.kind === 'query') {
    const { line, column } = error.details as { line?: number; column?: number };
    return new QueryError(error.code, error.message, line ?? 0, column ?? 0, error.details);
  }
  return new ParleyError(error.kind, error.code, error.message, error.details);
}
