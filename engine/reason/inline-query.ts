/**
 * Queries on the event loop: a point query costs the engine about 0.1 ms and a worker hop
 * about 0.3 ms more, so a query first runs on the main thread within a small time budget,
 * against the workers' rule modules as data (the main thread has no Prolog engine).
 */
import { LimitError, ValidationError } from '../errors.ts';
import type { CatalogListing } from '../frameworks/loader.ts';
import type { RuleSet } from '../prolog/registry.ts';
import { runQuery, type QueryLimits, type QueryResult } from '../query/index.ts';
import { graphKey } from '../store/graph-cache.ts';
import type { GraphIndex } from '../store/graph-index.ts';

export type QueryOptions = { parameters?: Record<string, unknown>; asOf?: string; explain?: boolean; limits: Partial<QueryLimits> };

/** Query texts remembered as too heavy for the inline budget (per tenant and graph). */
const HEAVY_QUERIES_KEPT = 512;

/** Fast answers in a row from the workers after which a query kept as too slow runs inline again (InlineQueries.ranInWorker). */
const FAST_ANSWERS_TO_RUN_INLINE = 2;

/** A rule call met by a query running on the main thread, which has no Prolog engine: the query moves to a worker. */
class RuleCallNeedsWorker extends Error {}

/**
 * The workers' rule modules as the main thread sees them: WHERE calls resolve to the
 * same predicates as in a worker (so analysis, planning and explain agree), but
 * solving one throws RuleCallNeedsWorker.
 */
export function workerRules({ callable, hidden }: Pick<CatalogListing, 'callable' | 'hidden'>): RuleSet {
  return {
    generation: 0,
    hidden: (name, arity) => (Object.hasOwn(hidden, `${name}/${arity}`) ? hidden[`${name}/${arity}`] : undefined),
    predicate(name, arity) {
      const indicator = `${name}/${arity}`;
      if (!Object.hasOwn(callable, indicator)) return undefined;
      return {
        module: callable[indicator],
        indicator,
        holds: () => {
          throw new RuleCallNeedsWorker(`${indicator} is solved in a reasoning worker`);
        },
      };
    },
  };
}

export class InlineQueries {
  private readonly rules: RuleSet;
  private readonly budgetMs: number;
  /**
   * Queries that outran the inline budget (a count of the fast answers the workers gave since) or
   * called a rule ('rules') go straight to a worker next time: each inline attempt of a heavy query
   * holds the loop for the whole budget, and a few heavy clients repeating theirs would otherwise
   * stack those stalls.
   */
  private readonly heavy = new Map<string, number | 'rules'>();

  constructor(rules: RuleSet, budgetMs: number) {
    this.rules = rules;
    this.budgetMs = budgetMs;
  }

  /**
   * The query's result when it finishes within the budget; undefined when it does not, or
   * calls a rule predicate (solved only in workers): it is then stopped, remembered as heavy,
   * and is to run again in a worker under its full limits. The loop is never held longer than
   * the budget (plus one clock-check interval).
   */
  run(tenant: string, graphId: string, graph: GraphIndex, text: string, options: QueryOptions): QueryResult | undefined {
    const budget = Math.min(this.budgetMs, options.limits.timeLimitMs ?? Number.MAX_SAFE_INTEGER);
    if (budget <= 0) return undefined;
    // (no key is made while none is kept: the usual case)
    if (this.heavy.size > 0 && this.heavy.has(heavyKey(tenant, graphId, text))) return undefined;
    try {
      return runQuery(graph, text, {
        parameters: options.parameters,
        as_of: options.asOf,
        explain: options.explain,
        limits: { ...options.limits, timeLimitMs: budget },
        rules: this.rules,
      });
    } catch (error) {
      if (!(error instanceof RuleCallNeedsWorker || (error instanceof LimitError && error.code === 'query_time_limit'))) throw error;
      this.heavy.set(heavyKey(tenant, graphId, text), error instanceof RuleCallNeedsWorker ? 'rules' : 0);
      if (this.heavy.size > HEAVY_QUERIES_KEPT) this.heavy.delete(this.heavy.keys().next().value!);
      return undefined;
    }
  }

  /**
   * How long a query the workers answered took, round trip included. One kept as too slow that
   * came back within half the budget twice in a row is not, or no longer (it outran the budget
   * once on a cold graph, in a collection, on a loaded machine), and runs inline again; twice, so
   * that one text heavy with some parameters and light with others, called in turn, stays with the
   * workers instead of holding the loop for the whole budget every other call. One kept for a
   * rule call stays kept.
   */
  ranInWorker(tenant: string, graphId: string, text: string, ms: number): void {
    if (this.heavy.size === 0) return;
    const key = heavyKey(tenant, graphId, text);
    const fastAnswers = this.heavy.get(key);
    if (typeof fastAnswers !== 'number') return;
    if (ms >= this.budgetMs / 2) this.heavy.set(key, 0);
    else if (fastAnswers + 1 >= FAST_ANSWERS_TO_RUN_INLINE) this.heavy.delete(key);
    else this.heavy.set(key, fastAnswers + 1);
  }
}

function heavyKey(tenant: string, graphId: string, text: string): string {
  return graphKey(tenant, graphId) + '\u0000' + text;
}

/**
 * A query over the graph as it was before a later correction (ReasoningPool.query with as_of): a
 * view the workers' replicas do not hold, so it runs here, under its full limits. A rule call,
 * solved only in workers, is refused.
 */
export function runOnPastView(rules: RuleSet, graph: GraphIndex, text: string, options: QueryOptions): QueryResult {
  try {
    return runQuery(graph, text, { parameters: options.parameters, as_of: options.asOf, explain: options.explain, limits: options.limits, rules });
  } catch (error) {
    if (!(error instanceof RuleCallNeedsWorker)) throw error;
    throw new ValidationError('rule_call_before_correction', 'a query calling a framework rule reads the graph as corrected now: give an as_of after the last correction, or none', { field: 'as_of' });
  }
}
