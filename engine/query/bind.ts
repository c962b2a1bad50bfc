/**
 * Binding, the first compile stage: every variable of a query part gets a row
 * slot and a kind, patterns are normalised into their nodes and relationships
 * (anonymous ones named), and WHERE is cut into conjuncts with the variables each
 * needs. Scoping errors (UndefinedVariable aside, which expressions.ts raises)
 * come from here, because this is where a name meets its earlier uses.
 */
import type { PropertyValue } from '../ontology/index.ts';
import type { Expr, NodePattern, PatternPart, RelationshipPattern } from './ast.ts';
import { compileError } from './expressions.ts';
import type { Scope, VarInfo } from './types.ts';
import { type CypherValue, toProperty } from './values.ts';

/**
 * Where a query part's row slots and anonymous names come from. Planning takes the
 * first; building goes on from where planning stopped (comprehension variables and
 * pattern expressions are slotted as their expressions are built).
 */
export interface SlotCounter {
  nextSlot: number;
  anonymous: number;
}

/** A pattern with every node and relationship named and slotted; `bound` when the name was bound before the pattern. */
export interface BoundPattern {
  nodes: Map<string, { patterns: NodePattern[]; info: VarInfo; bound: boolean }>;
  rels: { name: string; pattern: RelationshipPattern; from: string; to: string; info: VarInfo; bound: boolean }[];
  paths: { name: string; slot: number; nodeNames: string[]; relNames: string[] }[];
}

/** Anonymous names begin with a space, which no written name can. */
export function anonymousName(state: SlotCounter): string {
  return ` anon${state.anonymous++}`;
}

/** Whether `name` is one anonymousName made (a written name cannot begin with a space). */
export function isAnonymous(name: string): boolean {
  return name.startsWith(' ');
}

/** Names and slots the elements of `patterns`, adding the new names to `scope` (which the caller owns). */
export function bindPattern(patterns: PatternPart[], state: SlotCounter, scope: Scope): BoundPattern {
  const result: BoundPattern = { nodes: new Map(), rels: [], paths: [] };
  for (const part of patterns) {
    const nodeNames: string[] = [];
    const relNames: string[] = [];
    part.nodes.forEach((node, i) => {
      const name = node.variable ?? anonymousName(state);
      nodeNames.push(name);
      let entry = result.nodes.get(name);
      if (!entry) {
        const existing = scope.get(name);
        if (existing && existing.kind !== 'node' && existing.kind !== 'any') {
          throw compileError('VariableTypeConflict', `'${name}' is a ${existing.kind}, not a node`, node.pos);
        }
        const info = existing ?? { slot: state.nextSlot++, kind: 'node' as const };
        entry = { patterns: [], info, bound: !!existing };
        result.nodes.set(name, entry);
        scope.set(name, info);
      }
      entry.patterns.push(node);
      if (i > 0) {
        const rel = part.relationships[i - 1];
        const relName = rel.variable ?? anonymousName(state);
        relNames.push(relName);
        const existing = scope.get(relName);
        if (existing && (existing.kind === 'node' || existing.kind === 'path' || existing.kind === 'value')) {
          throw compileError('VariableTypeConflict', `'${relName}' is a ${existing.kind}, not a relationship`, rel.pos);
        }
        if (result.rels.some((other) => other.name === relName)) {
          throw compileError('RelationshipUniquenessViolation', `relationship '${relName}' appears twice in one pattern`, rel.pos);
        }
        const info = existing ?? { slot: state.nextSlot++, kind: rel.range ? ('relList' as const) : ('rel' as const) };
        scope.set(relName, info);
        result.rels.push({ name: relName, pattern: rel, from: nodeNames[i - 1], to: name, info, bound: !!existing });
      }
    });
    if (part.pathVariable) {
      if (scope.has(part.pathVariable)) throw compileError('VariableAlreadyBound', `'${part.pathVariable}' is already bound`, part.pos);
      const slot = state.nextSlot++;
      scope.set(part.pathVariable, { slot, kind: 'path' });
      result.paths.push({ name: part.pathVariable, slot, nodeNames, relNames });
    }
  }
  return result;
}

/** The entries of an inline property map in MATCH; a parameter standing for the whole map is refused. */
export function propertyEntries(properties: Expr | undefined, element: 'node' | 'relationship'): [string, Expr][] {
  if (!properties) return [];
  if (properties.kind !== 'map') throw compileError('InvalidParameterUse', `a parameter cannot be used as a ${element} property map in MATCH`, properties.pos);
  return properties.entries;
}

/** `n.key IN [literals]`: its variable, key and list; undefined for any other expression. */
export function literalMembership(expr: Expr): { variable: string; key: string; list: Extract<Expr, { kind: 'list' }> } | undefined {
  if (expr.kind !== 'binary' || expr.op !== 'IN' || expr.left.kind !== 'prop' || expr.left.target.kind !== 'var') return undefined;
  const list = expr.right;
  return list.kind === 'list' && list.items.every((item) => item.kind === 'literal') ? { variable: expr.left.target.name, key: expr.left.key, list } : undefined;
}

/** Splits a WHERE into its conjuncts. */
export function conjuncts(expr: Expr | undefined): Expr[] {
  if (!expr) return [];
  if (expr.kind === 'binary' && expr.op === 'AND') return [...conjuncts(expr.left), ...conjuncts(expr.right)];
  return [expr];
}

/** The free variables of an expression: the names it needs bound before it can be evaluated. */
export function variablesOf(expr: Expr, into = new Set<string>(), bound = new Set<string>()): Set<string> {
  const visit = (e: Expr | undefined, locals: Set<string>) => {
    if (!e) return;
    switch (e.kind) {
      case 'var':
        if (!locals.has(e.name)) into.add(e.name);
        return;
      case 'comprehension':
      case 'quantifier': {
        visit(e.source, locals);
        const inner = new Set(locals).add(e.variable);
        visit(e.where, inner);
        if (e.kind === 'comprehension') visit(e.map, inner);
        return;
      }
      case 'pattern':
      case 'patternComprehension':
      case 'patternSubquery': {
        for (const node of e.pattern.nodes) {
          if (node.variable && !locals.has(node.variable)) into.add(node.variable);
          visit(node.properties, locals);
        }
        for (const rel of e.pattern.relationships) {
          if (rel.variable && !locals.has(rel.variable)) into.add(rel.variable);
          visit(rel.properties, locals);
        }
        if (e.kind !== 'pattern') visit(e.where, locals);
        if (e.kind === 'patternComprehension') visit(e.map, locals);
        if (e.kind === 'patternSubquery') e.returns?.forEach((item) => visit(item, locals));
        return;
      }
    }
    for (const value of Object.values(e)) {
      if (Array.isArray(value)) {
        for (const item of value) {
          if (Array.isArray(item)) item.forEach((x) => typeof x === 'object' && x && 'kind' in x && visit(x as Expr, locals));
          else if (typeof item === 'object' && item && 'kind' in item) visit(item as Expr, locals);
        }
      } else if (typeof value === 'object' && value && 'kind' in value) visit(value as Expr, locals);
    }
  };
  visit(expr, bound);
  return into;
}

/** The value of a literal or a given parameter as a stored property value; undefined when not known before the query runs. */
export function constantValue(expr: Expr, parameters: Record<string, unknown>): PropertyValue | undefined {
  try {
    if (expr.kind === 'literal') return expr.value === null ? null : toProperty(expr.value as CypherValue);
    if (expr.kind === 'param' && Object.hasOwn(parameters, expr.name)) {
      const value = parameters[expr.name];
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
      if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
    }
  } catch {
    return undefined;
  }
  return undefined;
}
