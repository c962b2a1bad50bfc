/**
 * Calls from WHERE into rule predicates of loaded modules, e.g. `WHERE reaches(a, b)`
 * once a module defining reaches/2 is loaded (engine/prolog/registry.ts). Nodes and
 * relationships are passed as their id atoms; the query's graph and `as_of` are the
 * view the rule sees.
 */
import { quoteAtom } from '../prolog/terms.ts';
import type { RulePredicate } from '../prolog/registry.ts';
import type { Env } from './types.ts';
import { type CypherValue, isNode, isRel, runtimeError, typeName } from './values.ts';

export type { RuleSet } from '../prolog/registry.ts';

export function callRule(rule: RulePredicate, args: CypherValue[], env: Env): CypherValue {
  if (args.some((arg) => arg === null)) return null;
  return rule.holds(args.map(argumentTerm), { graph: env.graph, asOf: env.asOf }, {
    inferenceLimit: env.budget.limits.inferenceLimit,
    timeLimitMs: env.budget.remainingMs(),
  });
}

function argumentTerm(value: CypherValue): string {
  if (isNode(value)) return quoteAtom(value.$node.id);
  if (isRel(value)) return quoteAtom(value.$rel.id);
  if (typeof value === 'string') return quoteAtom(value);
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw runtimeError('TypeError', 'InvalidArgumentType', `a rule predicate cannot take ${typeName(value as CypherValue)}`);
}
