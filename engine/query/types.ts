/**
 * The types every stage of the query engine shares: a row of slots, the run-time
 * environment, compiled closures, and the variable scope that maps names to slots.
 * They live here, apart from the code that uses them, so that expressions.ts,
 * rules.ts, match.ts and the compile stages can all import them without importing
 * one another (rules.ts needs Env, expressions.ts calls into rules.ts).
 */
import type { RuleSet } from '../prolog/registry.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import type { Budget } from './limits.ts';
import type { CypherValue } from './values.ts';

export type Row = CypherValue[];

export interface Env {
  graph: GraphIndex;
  params: Record<string, CypherValue>;
  budget: Budget;
  /** ISO 8601 instant normalised with toISOString; undefined sees everything. */
  asOf?: string;
  rules?: RuleSet;
  /** The finished aggregate values of the group being projected. */
  aggregateValues: CypherValue[];
}

export type Fn = (row: Row, env: Env) => CypherValue;

/**
 * Runs a pattern from a row, handing each completed row to `emit`; `emit` returns true to
 * stop early. With `live`, emit gets the runner's own row, valid only until it returns.
 */
export type PatternRunner = (row: Row, env: Env, emit: (row: Row) => boolean | void, live?: boolean) => void;

/** How many ways a pattern used as an expression completes from a row (COUNT { }, size() of a pattern comprehension). */
export type PatternCounter = (row: Row, env: Env) => number;

/** Whether a pattern used as an expression completes at all from a row (a pattern predicate, EXISTS { }). */
export type PatternTest = (row: Row, env: Env) => boolean;

/** 'value': known not to be a graph element; 'any': not known until run time. */
export type VariableKind = 'node' | 'rel' | 'relList' | 'path' | 'value' | 'any';
export interface VarInfo {
  slot: number;
  kind: VariableKind;
}
export type Scope = Map<string, VarInfo>;
