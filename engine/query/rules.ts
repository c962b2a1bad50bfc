/**
 * The rule registry of the query engine: Prolog rule modules whose predicates the
 * pattern language may call in WHERE, e.g. `WHERE reaches(a, b)` once a module
 * defining reaches/2 is loaded. A call is routed to tau-prolog through
 * engine/prolog/bridge.ts; nodes and relationships are passed as their id atoms.
 */
import { GraphIndex } from '../store/graph-index.ts';
import { PrologBridge, quoteAtom } from '../prolog/bridge.ts';
import type { Env } from './expressions.ts';
import { type CypherValue, isNode, isRel, runtimeError, typeName } from './values.ts';

export interface RulePredicate {
  call(args: CypherValue[], env: Env): CypherValue;
}

export class RuleRegistry {
  /** The bridge's graph is set per call, from the query being run. */
  private readonly bridge = new PrologBridge({ graph: new GraphIndex() });

  /** Loads a rule module; returns the predicate indicators it defines. */
  load(program: string): string[] {
    return this.bridge.consult(program);
  }

  predicate(name: string, arity: number): RulePredicate | undefined {
    if (!this.bridge.defines(name, arity)) return undefined;
    return {
      call: (args, env) => {
        if (args.some((arg) => arg === null)) return null;
        this.bridge.setView({ graph: env.graph, asOf: env.asOf });
        const goal = `${name}(${args.map(argumentTerm).join(', ')})`;
        return this.bridge.holds(goal, { inferenceLimit: env.budget.limits.inferenceLimit, timeLimitMs: env.budget.remainingMs() });
      },
    };
  }
}

function argumentTerm(value: CypherValue): string {
  if (isNode(value)) return quoteAtom(value.$node.id);
  if (isRel(value)) return quoteAtom(value.$rel.id);
  if (typeof value === 'string') return quoteAtom(value);
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw runtimeError('TypeError', 'InvalidArgumentType', `a rule predicate cannot take ${typeName(value as CypherValue)}`);
}
