/**
 * Runs one planned scenario against the query engine on a fresh graph and
 * says whether it passed, and if not, why (a short category for the summary's
 * breakdown, and a detailed reason for --filter runs).
 */
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { compareTables } from './compare.ts';
import { engineErrorOf, runEngineQuery, runSetup, type EngineError } from './engine-adapter.ts';
import type { ScenarioPlan } from './scenario.ts';
import { compareSideEffects, sideEffectsBetween, snapshotGraph } from './side-effects.ts';

export interface Outcome {
  passed: boolean;
  /** Why it failed, coarsely: groups failures in the summary. */
  category?: string;
  /** Why it failed, in full. */
  reason?: string;
}

export function executeScenario(plan: ScenarioPlan): Outcome {
  if (plan.unsupported.length > 0) return fail(`unsupported: ${plan.unsupported[0].split(':')[0]}`, plan.unsupported.join('; '));
  const expectation = plan.expectation!;
  const graph = new GraphIndex();
  for (const script of plan.setup) {
    try {
      runSetup(graph, script);
    } catch (error) {
      const engineError = engineErrorOf(error);
      return fail(`setup failed: ${engineError.code}`, `the set-up script failed: ${describe(engineError)}\n${indent(script)}`);
    }
  }
  const before = snapshotGraph(graph);

  let result;
  try {
    result = runEngineQuery(graph, plan.query!, plan.parameters);
  } catch (error) {
    const raised = engineErrorOf(error);
    if (expectation.kind !== 'error') return fail(`unexpected error: ${raised.code}`, `expected a result, got ${describe(raised)}`);
    const expected = `${expectation.type}: ${expectation.detail}`;
    const phaseMatches =
      expectation.phase === 'any time' || raised.phase === undefined || raised.phase === (expectation.phase === 'compile time' ? 'compile' : 'runtime');
    // the TCK writes `*` for "any detail"
    if (raised.tckType !== expectation.type || (expectation.detail !== '' && expectation.detail !== '*' && raised.tckDetail !== expectation.detail)) {
      const got = raised.tckType ? `${raised.tckType}: ${raised.tckDetail ?? ''}` : raised.code;
      return fail(`wrong error: expected ${expected}, got ${got}`, `expected ${expected} at ${expectation.phase}, got ${describe(raised)}`);
    }
    if (!phaseMatches) {
      return fail(`wrong error phase: expected ${expectation.phase}`, `expected ${expected} at ${expectation.phase}, got it at ${raised.phase}`);
    }
    return checkSideEffects(plan, before, graph);
  }

  if (expectation.kind === 'error') {
    return fail(`no error raised: expected ${expectation.type}: ${expectation.detail}`, `expected ${expectation.type}: ${expectation.detail}, but the query returned ${result.rows.length} rows`);
  }
  if (expectation.kind === 'empty') {
    if (result.rows.length > 0) return fail('rows differ', `expected no rows, got ${result.rows.length}`);
  } else {
    const difference = compareTables(expectation, result);
    if (difference) return fail(difference.startsWith('columns') ? 'columns differ' : 'rows differ', difference);
  }
  return checkSideEffects(plan, before, graph);
}

function checkSideEffects(plan: ScenarioPlan, before: ReturnType<typeof snapshotGraph>, graph: GraphIndex): Outcome {
  if (plan.sideEffects === undefined) return { passed: true };
  const difference = compareSideEffects(plan.sideEffects, sideEffectsBetween(before, snapshotGraph(graph)));
  return difference ? fail('side effects differ', difference) : { passed: true };
}

function describe(error: EngineError): string {
  const tck = error.tckType ? ` (${error.tckType}: ${error.tckDetail ?? ''}${error.phase ? ` at ${error.phase}` : ''})` : '';
  return `${error.code}${tck}: ${error.message}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => '      ' + line)
    .join('\n');
}

function fail(category: string, reason: string): Outcome {
  return { passed: false, category, reason };
}
