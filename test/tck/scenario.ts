/**
 * Turns a scenario's steps into a plan the runner executes: the graph set-up,
 * the parameters, the query under test, and what must come of it (a result
 * table, an error, side effects). Steps the runner cannot honour (named
 * graphs, procedures) are kept as `unsupported` so the scenario fails with a
 * clear reason instead of passing vacuously.
 */
import type { ScenarioSpec, Step } from './gherkin.ts';
import { parseTckValue, type TckValue } from './values.ts';

export type Expectation =
  | {
      kind: 'rows';
      /** "in order": rows compare as a sequence; otherwise as a multiset. */
      ordered: boolean;
      /** "(ignoring element order for lists)". */
      unorderedLists: boolean;
      columns: string[];
      /** Cells as written; parsed when compared, because list-order mode affects nothing in parsing. */
      rows: string[][];
    }
  | { kind: 'empty' }
  | { kind: 'error'; type: string; phase: 'compile time' | 'runtime' | 'any time'; detail: string };

export const SIDE_EFFECT_KEYS = ['+nodes', '-nodes', '+relationships', '-relationships', '+properties', '-properties', '+labels', '-labels'] as const;
export type SideEffectKey = (typeof SIDE_EFFECT_KEYS)[number];
export type SideEffects = Record<SideEffectKey, number>;

export interface ScenarioPlan {
  setup: string[];
  parameters: Record<string, TckValue>;
  query?: string;
  expectation?: Expectation;
  /** Undefined when the scenario states nothing about side effects. */
  sideEffects?: SideEffects;
  unsupported: string[];
}

export function planScenario(scenario: ScenarioSpec): ScenarioPlan {
  const plan: ScenarioPlan = { setup: [], parameters: {}, unsupported: [] };
  for (const step of scenario.steps) applyStep(plan, step);
  if (plan.query === undefined) plan.unsupported.push('no query under test');
  if (plan.expectation === undefined) plan.unsupported.push('no expected outcome');
  // a scenario that expects an error implies the graph is left untouched
  if (plan.expectation?.kind === 'error' && plan.sideEffects === undefined) plan.sideEffects = noSideEffects();
  return plan;
}

export function noSideEffects(): SideEffects {
  return Object.fromEntries(SIDE_EFFECT_KEYS.map((key) => [key, 0])) as SideEffects;
}

const RESULT_STEP = /^the result should be(, in order| in order|, in any order)?\s*(\(ignoring element order for lists\))?:$/;
const ERROR_STEP = /^an? (\w+) should be raised at (compile time|runtime|any time):\s*(\S.*)?$/;

function applyStep(plan: ScenarioPlan, step: Step): void {
  const text = step.text;
  if (text === 'an empty graph' || text === 'any graph') return;
  if (/^the .+ graph$/.test(text)) {
    plan.unsupported.push(`named graph: ${text}`);
    return;
  }
  if (text === 'having executed:' || text === 'after having executed:') {
    plan.setup.push(requireDocString(step));
    return;
  }
  if (text === 'parameters are:' || text === 'parameter values are:') {
    for (const row of step.table ?? []) {
      if (row.length !== 2) throw new Error(`line ${step.line}: a parameter row needs a name and a value`);
      plan.parameters[row[0]] = parseTckValue(row[1]);
    }
    return;
  }
  const query = /^executing (?:control )?query:\s*(.*)$/.exec(text);
  if (query) {
    if (plan.query !== undefined) plan.unsupported.push('more than one query under test');
    plan.query = step.docString ?? query[1];
    return;
  }
  if (text === 'the result should be empty') {
    plan.expectation = { kind: 'empty' };
    return;
  }
  const result = RESULT_STEP.exec(text);
  if (result) {
    const [columns = [], ...rows] = step.table ?? [];
    const ordered = result[1] === ', in order' || result[1] === ' in order';
    plan.expectation = { kind: 'rows', ordered, unorderedLists: result[2] !== undefined, columns, rows };
    return;
  }
  const error = ERROR_STEP.exec(text);
  if (error) {
    plan.expectation = { kind: 'error', type: error[1], phase: error[2] as 'compile time' | 'runtime' | 'any time', detail: error[3]?.trim() ?? '' };
    return;
  }
  if (text === 'no side effects') {
    plan.sideEffects = noSideEffects();
    return;
  }
  if (text === 'the side effects should be:') {
    const effects = noSideEffects();
    for (const row of step.table ?? []) {
      const [key, count] = row;
      if (!(SIDE_EFFECT_KEYS as readonly string[]).includes(key) || !/^\d+$/.test(count ?? '')) {
        throw new Error(`line ${step.line}: unknown side effect row | ${row.join(' | ')} |`);
      }
      effects[key as SideEffectKey] = Number(count);
    }
    plan.sideEffects = effects;
    return;
  }
  plan.unsupported.push(`step: ${step.keyword} ${text}`);
}

function requireDocString(step: Step): string {
  if (step.docString === undefined) throw new Error(`line ${step.line}: '${step.text}' needs a doc string`);
  return step.docString;
}
