/**
 * Compile-time checks that need no graph, raising the errors openCypher names
 * (the TCK's `SyntaxError` details). Variable scoping errors are raised where
 * variables are resolved to slots: VariableTypeConflict and VariableAlreadyBound
 * while binding (bind.ts, plan.ts), UndefinedVariable as expressions are built.
 */
import { type Clause, type Expr, exprKey, forEachChild, type Projection, type QueryAst, projectedName } from './ast.ts';
import { compileError, containsAggregate } from './expressions.ts';
import { isAggregateFunction } from './functions.ts';
import type { RuleSet } from './rules.ts';
import { INT64_MAX, INT64_MIN } from './values.ts';

export interface SemanticOptions {
  allowWrites: boolean;
  rules?: RuleSet;
}

export function analyse(ast: QueryAst, options: SemanticOptions): void {
  for (const part of ast.parts) {
    const clauses = part.clauses;
    clauses.forEach((clause, i) => {
      checkClause(clause, options);
      const last = i === clauses.length - 1;
      if (clause.kind === 'return' && !last) throw compileError('InvalidClauseComposition', 'RETURN must be the last clause', clauses[i + 1].pos);
      if (last && clause.kind !== 'return' && clause.kind !== 'create') {
        throw compileError('InvalidClauseComposition', 'a query must end with RETURN', clause.pos);
      }
    });
  }
  const mixed = ast.unionAll.findIndex((all) => all !== ast.unionAll[0]);
  if (mixed > 0) throw compileError('InvalidClauseComposition', 'UNION and UNION ALL cannot be mixed in one query', ast.parts[mixed + 1].clauses[0].pos);
  visitLiterals(ast);
}

function checkClause(clause: Clause, options: SemanticOptions): void {
  switch (clause.kind) {
    case 'create':
      if (!options.allowWrites) {
        throw compileError('ReadOnlyQuery', 'CREATE writes to the graph; queries are read-only', clause.pos);
      }
      return;
    case 'with':
      checkProjection(clause.projection, true);
      if (clause.where) checkNoAggregate(clause.where);
      return;
    case 'return':
      checkProjection(clause.projection, false);
      return;
    case 'match':
      if (clause.where) checkNoAggregate(clause.where);
      return;
    case 'unwind':
      checkNoAggregate(clause.expr);
      checkPatternsArePredicates(clause.expr, false);
      return;
  }
}

function checkNoAggregate(expr: Expr): void {
  const found = findAggregate(expr);
  if (found) throw compileError('InvalidAggregation', 'aggregate functions are not allowed here', found.pos);
}

function findAggregate(expr: Expr): Expr | undefined {
  let found: Expr | undefined;
  walk(expr, (e) => {
    if (!found && e.kind === 'call' && isAggregateFunction(e.name)) found = e;
  });
  return found;
}

/**
 * A pattern written as an expression is a predicate: allowed where a truth value is read (a
 * WHERE, exists()'s argument, an operand of NOT, AND, OR or XOR, a searched CASE's condition),
 * refused as a value of its own (the TCK's Pattern1 [22]-[23]: `RETURN (n)-->()`), where
 * COUNT { }, EXISTS { } or a pattern comprehension says what is meant.
 */
function checkPatternsArePredicates(expr: Expr, inPredicate: boolean): void {
  if (expr.kind === 'pattern' && !inPredicate) {
    throw compileError('UnexpectedSyntax', 'a pattern is a predicate here: write it in a WHERE, or use EXISTS { }, COUNT { } or a pattern comprehension', expr.pos);
  }
  const operandsArePredicates =
    (expr.kind === 'call' && expr.name.toLowerCase() === 'exists') || (expr.kind === 'unary' && expr.op === 'NOT') || (expr.kind === 'binary' && LOGICAL_OPERATORS.has(expr.op));
  const isCondition = (child: Expr) => expr.kind === 'case' && !expr.subject && expr.whens.some(([condition]) => condition === child);
  forEachChild(expr, (child) => {
    const isWhere = 'where' in expr && child === expr.where;
    checkPatternsArePredicates(child, inPredicate || isWhere || operandsArePredicates || isCondition(child));
  });
}

function checkProjection(projection: Projection, isWith: boolean): void {
  for (const expr of [...projection.items.map((item) => item.expr), ...(projection.orderBy ?? []).map((sort) => sort.expr)]) {
    checkPatternsArePredicates(expr, false);
  }
  const names = new Set<string>();
  for (const item of projection.items) {
    if (isWith && !item.alias && item.expr.kind !== 'var') {
      throw compileError('NoExpressionAlias', 'an expression in WITH needs an alias (AS name)', item.pos);
    }
    const name = projectedName(item);
    if (names.has(name)) throw compileError('ColumnNameConflict', `column '${name}' is projected twice`, item.pos);
    names.add(name);
    walk(item.expr, (e) => {
      if (e.kind === 'call' && isAggregateFunction(e.name)) {
        for (const arg of e.args) {
          const nested = findAggregate(arg);
          if (nested) throw compileError('NestedAggregation', 'an aggregate cannot contain another aggregate', nested.pos);
        }
      }
    });
  }
  const groupingKeys = new Set(projection.items.filter((item) => !containsAggregate(item.expr)).map((item) => exprKey(item.expr)));
  for (const item of projection.items) {
    if (containsAggregate(item.expr)) checkAggregateMix(item.expr, groupingKeys);
  }
  for (const [clause, expr] of [['SKIP', projection.skip], ['LIMIT', projection.limit]] as const) {
    if (!expr) continue;
    let usesVariable = false;
    walk(expr, (e) => {
      if (e.kind === 'var' || (e.kind === 'call' && isAggregateFunction(e.name))) usesVariable = true;
    });
    if (usesVariable) throw compileError('NonConstantExpression', `${clause} needs a constant expression`, expr.pos);
    if (expr.kind === 'literal') {
      if (typeof expr.value === 'bigint' && expr.value < 0n) throw compileError('NegativeIntegerArgument', `${clause} cannot be negative`, expr.pos);
      if (typeof expr.value !== 'bigint') throw compileError('InvalidArgumentType', `${clause} needs an integer`, expr.pos);
    }
  }
}

/** In `RETURN n.x + count(*)`, n.x must be a grouping key. */
function checkAggregateMix(expr: Expr, groupingKeys: Set<string>): void {
  if (groupingKeys.has(exprKey(expr))) return;
  if (expr.kind === 'call' && isAggregateFunction(expr.name)) return;
  if (expr.kind === 'var') {
    throw compileError('AmbiguousAggregationExpression', `'${expr.name}' is used beside an aggregate but is not a grouping key`, expr.pos);
  }
  if (expr.kind === 'comprehension' || expr.kind === 'quantifier') return;
  forEachChild(expr, (child) => checkAggregateMix(child, groupingKeys));
}

function walk(expr: Expr, visit: (expr: Expr) => void): void {
  visit(expr);
  forEachChild(expr, (child) => walk(child, visit));
}

/**
 * What literals alone show: integer literals beyond 64 bits, and a literal that is not a boolean
 * (a number, a string, a list, a map) as an operand of AND, OR, XOR or NOT.
 */
function visitLiterals(ast: QueryAst): void {
  const check = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(check);
    if (typeof value !== 'object' || value === null) return;
    const node = value as Record<string, unknown>;
    if (node.kind === 'literal' && typeof node.value === 'bigint' && (node.value > INT64_MAX || node.value < INT64_MIN)) {
      const pos = node.pos as { line: number; column: number };
      throw compileError('IntegerOverflow', `integer literal ${node.value} does not fit in 64 bits`, pos);
    }
    const expr = node as Expr;
    const operands = expr.kind === 'binary' && LOGICAL_OPERATORS.has(expr.op) ? [expr.left, expr.right] : expr.kind === 'unary' && expr.op === 'NOT' ? [expr.operand] : [];
    for (const operand of operands) {
      if (isNonBooleanLiteral(operand)) throw compileError('InvalidArgumentType', `${expr.kind === 'binary' ? expr.op : 'NOT'} needs booleans; this is not one`, operand.pos);
    }
    Object.values(node).forEach(check);
  };
  check(ast);
}

const LOGICAL_OPERATORS: ReadonlySet<string> = new Set(['AND', 'OR', 'XOR']);

function isNonBooleanLiteral(expr: Expr): boolean {
  return (expr.kind === 'literal' && expr.value !== null && typeof expr.value !== 'boolean') || expr.kind === 'list' || expr.kind === 'map';
}
