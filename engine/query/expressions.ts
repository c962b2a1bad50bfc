/**
 * Compiles AST expressions into closures over a row of slots, with openCypher
 * semantics: three-valued logic, null propagation, integer/float arithmetic with
 * 64-bit overflow checks, list and map operations.
 */
import v8 from 'node:v8';
import { ParleyError, QueryError } from '../errors.ts';
import { type Expr, namesOf, type PatternPart } from './ast.ts';
import { checkedInteger, createAccumulator, isAggregateFunction, scalarFunction } from './functions.ts';
import { callRule, type RuleSet } from './rules.ts';
import type { Env, Fn, PatternCounter, PatternRunner, PatternTest, Row, Scope } from './types.ts';
import {
  and, compare, type CypherMap, type CypherValue, equals, isMap, isNode, isNumber, isRel, nodeProperty, or,
  relProperty, runtimeError, truthValue, typeName, xor,
} from './values.ts';

export interface AggregateSpec {
  name: string;
  distinct: boolean;
  star: boolean;
  args: Fn[];
}

export interface ExprContext {
  scope: Scope;
  allocateSlot(): number;
  /** Where aggregate calls register themselves; undefined where aggregates are not allowed. */
  aggregates?: AggregateSpec[];
  /** The scope aggregate arguments see (ORDER BY after aggregation sees projected names, its aggregates the input rows). */
  argumentScope?: Scope;
  rules?: RuleSet;
  /** Compiles a pattern used as an expression (predicate or comprehension) into a runner. */
  compilePattern(pattern: PatternPart, scope: Scope): PatternRunner;
  /** Compiles a pattern whose matches are only counted: no row is made for a match the planner can count off the adjacency. */
  countPattern(pattern: PatternPart, scope: Scope): PatternCounter;
  /** Compiles a pattern only tested for a match: one expansion is tested off the adjacency, with no row. */
  testPattern(pattern: PatternPart, scope: Scope): PatternTest;
}

export function compileError(detail: string, message: string, position: { line: number; column: number }): QueryError {
  return QueryError.tck('SyntaxError', detail, message, position, { phase: 'compile' });
}

export function containsAggregate(expr: Expr): boolean {
  switch (expr.kind) {
    case 'call':
      return isAggregateFunction(expr.name) || expr.args.some(containsAggregate);
    case 'prop':
      return containsAggregate(expr.target);
    case 'index':
      return containsAggregate(expr.target) || containsAggregate(expr.index);
    case 'slice':
      return containsAggregate(expr.target) || (!!expr.from && containsAggregate(expr.from)) || (!!expr.to && containsAggregate(expr.to));
    case 'list':
      return expr.items.some(containsAggregate);
    case 'map':
      return expr.entries.some(([, value]) => containsAggregate(value));
    case 'binary':
      return containsAggregate(expr.left) || containsAggregate(expr.right);
    case 'unary':
    case 'isNull':
      return containsAggregate(expr.operand);
    case 'labels':
      return containsAggregate(expr.target);
    case 'case':
      return (!!expr.subject && containsAggregate(expr.subject)) || expr.whens.some(([a, b]) => containsAggregate(a) || containsAggregate(b)) || (!!expr.otherwise && containsAggregate(expr.otherwise));
    case 'comprehension':
      return containsAggregate(expr.source) || (!!expr.where && containsAggregate(expr.where)) || (!!expr.map && containsAggregate(expr.map));
    case 'quantifier':
      return containsAggregate(expr.source) || containsAggregate(expr.where);
    default:
      return false;
  }
}

export function propertyOf(value: CypherValue, key: string): CypherValue {
  if (value === null) return null;
  if (isNode(value)) return nodeProperty(value.$node, key);
  if (isRel(value)) return relProperty(value.$rel, key);
  if (isMap(value)) return Object.hasOwn(value, key) ? value[key] : null;
  throw runtimeError('TypeError', 'InvalidArgumentType', `cannot read property '${key}' of ${typeName(value)}`);
}

function arithmetic(op: string, left: CypherValue, right: CypherValue): CypherValue {
  if (left === null || right === null) return null;
  if (op === '+') {
    if (Array.isArray(left)) return Array.isArray(right) ? [...left, ...right] : [...left, right];
    if (Array.isArray(right)) return [left, ...right];
    if (typeof left === 'string' && (typeof right === 'string' || isNumber(right))) return left + stringOf(right);
    if (typeof right === 'string' && isNumber(left)) return stringOf(left) + right;
  }
  if (!isNumber(left) || !isNumber(right)) {
    throw runtimeError('TypeError', 'InvalidArgumentType', `cannot apply ${op} to ${typeName(left)} and ${typeName(right)}`);
  }
  if (typeof left === 'bigint' && typeof right === 'bigint' && op !== '^') {
    switch (op) {
      case '+':
        return checkedInteger(left + right);
      case '-':
        return checkedInteger(left - right);
      case '*':
        return checkedInteger(left * right);
      case '/':
        if (right === 0n) throw runtimeError('ArithmeticError', 'DivisionByZero', 'division by zero');
        return checkedInteger(left / right);
      case '%':
        if (right === 0n) throw runtimeError('ArithmeticError', 'DivisionByZero', 'division by zero');
        return left % right;
    }
  }
  const a = Number(left);
  const b = Number(right);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    default:
      return a ** b;
  }
}

function stringOf(value: CypherValue): string {
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  return String(value);
}

function listIndex(list: CypherValue, index: CypherValue): CypherValue {
  if (list === null || index === null) return null;
  if (Array.isArray(list)) {
    if (typeof index !== 'bigint') throw runtimeError('TypeError', 'InvalidArgumentType', `list index must be an integer, got ${typeName(index)}`);
    const at = Number(index < 0n ? BigInt(list.length) + index : index);
    return list[at] ?? null;
  }
  if (isMap(list) || isNode(list) || isRel(list)) {
    if (typeof index !== 'string') throw runtimeError('TypeError', 'MapElementAccessByNonString', `map key must be a string, got ${typeName(index)}`);
    return propertyOf(list, index);
  }
  throw runtimeError('TypeError', 'InvalidArgumentType', `cannot index ${typeName(list)}`);
}

function sliceOf(list: CypherValue, from: CypherValue | undefined, to: CypherValue | undefined): CypherValue {
  if (list === null || from === null || to === null) return null;
  if (!Array.isArray(list)) throw runtimeError('TypeError', 'InvalidArgumentType', `cannot slice ${typeName(list)}`);
  const length = list.length;
  const clamp = (value: CypherValue | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'bigint') throw runtimeError('TypeError', 'InvalidArgumentType', 'slice bounds must be integers');
    const n = Number(value);
    return Math.max(0, Math.min(length, n < 0 ? length + n : n));
  };
  return list.slice(clamp(from, 0), clamp(to, length));
}

function inList(value: CypherValue, list: CypherValue): CypherValue {
  if (list === null) return null;
  if (!Array.isArray(list)) throw runtimeError('TypeError', 'InvalidArgumentType', `IN expects a list, got ${typeName(list)}`);
  let unknown = false;
  for (const item of list) {
    const result = equals(value, item);
    if (result === true) return true;
    if (result === null) unknown = true;
  }
  return unknown ? null : false;
}

function stringPredicate(op: string, left: CypherValue, right: CypherValue): CypherValue {
  if (typeof left !== 'string' || typeof right !== 'string') return null;
  if (op === 'STARTS WITH') return left.startsWith(right);
  if (op === 'ENDS WITH') return left.endsWith(right);
  return left.includes(right);
}

function comparison(op: string, left: CypherValue, right: CypherValue): CypherValue {
  if (op === '=') return equals(left, right);
  if (op === '<>') {
    const result = equals(left, right);
    return result === null ? null : !result;
  }
  const result = compare(left, right);
  if (result === null) return null;
  switch (op) {
    case '<':
      return result < 0;
    case '>':
      return result > 0;
    case '<=':
      return result <= 0;
    default:
      return result >= 0;
  }
}

function boolOperand(fn: Fn): (row: Row, env: Env) => boolean | null {
  return (row, env) => truthValue(fn(row, env));
}

export function compileExpr(expr: Expr, ctx: ExprContext): Fn {
  switch (expr.kind) {
    case 'literal': {
      const value = expr.value;
      return () => value;
    }
    case 'param': {
      const name = expr.name;
      return (_row, env) => {
        if (!Object.hasOwn(env.params, name)) throw runtimeError('ParameterMissing', 'MissingParameter', `parameter $${name} was not given`);
        return env.params[name];
      };
    }
    case 'var': {
      const info = ctx.scope.get(expr.name);
      if (!info) throw compileError('UndefinedVariable', `variable '${expr.name}' is not defined`, expr.pos);
      const slot = info.slot;
      return (row) => row[slot] ?? null;
    }
    case 'prop': {
      const target = compileExpr(expr.target, ctx);
      const key = expr.key;
      return (row, env) => propertyOf(target(row, env), key);
    }
    case 'index': {
      const target = compileExpr(expr.target, ctx);
      const index = compileExpr(expr.index, ctx);
      return (row, env) => listIndex(target(row, env), index(row, env));
    }
    case 'slice': {
      const target = compileExpr(expr.target, ctx);
      const from = expr.from ? compileExpr(expr.from, ctx) : undefined;
      const to = expr.to ? compileExpr(expr.to, ctx) : undefined;
      return (row, env) => sliceOf(target(row, env), from?.(row, env), to?.(row, env));
    }
    case 'list': {
      const items = expr.items.map((item) => compileExpr(item, ctx));
      return (row, env) => items.map((item) => item(row, env));
    }
    case 'map': {
      const entries = expr.entries.map(([key, value]) => [key, compileExpr(value, ctx)] as const);
      return (row, env) => {
        const map: CypherMap = {};
        for (const [key, value] of entries) map[key] = value(row, env);
        return map;
      };
    }
    case 'binary':
      return compileBinary(expr as Extract<Expr, { kind: 'binary' }>, ctx);
    case 'unary': {
      const operand = compileExpr(expr.operand, ctx);
      if (expr.op === 'NOT') {
        const bool = boolOperand(operand);
        return (row, env) => {
          const value = bool(row, env);
          return value === null ? null : !value;
        };
      }
      if (expr.op === '+') return operand;
      return (row, env) => {
        const value = operand(row, env);
        if (value === null) return null;
        if (typeof value === 'bigint') return checkedInteger(-value);
        if (typeof value === 'number') return -value;
        throw runtimeError('TypeError', 'InvalidArgumentType', `cannot negate ${typeName(value)}`);
      };
    }
    case 'isNull': {
      const operand = compileExpr(expr.operand, ctx);
      const negated = expr.negated;
      return (row, env) => (operand(row, env) === null) !== negated;
    }
    case 'labels': {
      const target = compileExpr(expr.target, ctx);
      const labels = expr.labels;
      return (row, env) => {
        const value = target(row, env);
        if (value === null) return null;
        if (!isNode(value)) throw runtimeError('TypeError', 'InvalidArgumentType', `label check on ${typeName(value)}`);
        return labels.every((label) => value.$node.labels.includes(label));
      };
    }
    case 'call':
      return compileCall(expr as Extract<Expr, { kind: 'call' }>, ctx);
    case 'case': {
      const subject = expr.subject ? compileExpr(expr.subject, ctx) : undefined;
      const whens = expr.whens.map(([when, then]) => [compileExpr(when, ctx), compileExpr(then, ctx)] as const);
      const otherwise = expr.otherwise ? compileExpr(expr.otherwise, ctx) : () => null;
      return (row, env) => {
        const value = subject?.(row, env);
        for (const [when, then] of whens) {
          const matched = subject ? equals(value!, when(row, env)) === true : when(row, env) === true;
          if (matched) return then(row, env);
        }
        return otherwise(row, env);
      };
    }
    case 'comprehension': {
      const source = compileExpr(expr.source, ctx);
      const slot = ctx.allocateSlot();
      const inner = { ...ctx, scope: new Map(ctx.scope).set(expr.variable, { slot, kind: 'any' as const }) };
      const where = expr.where ? compileExpr(expr.where, inner) : undefined;
      const map = expr.map ? compileExpr(expr.map, inner) : undefined;
      return (row, env) => {
        const list = source(row, env);
        if (list === null) return null;
        if (!Array.isArray(list)) throw runtimeError('TypeError', 'InvalidArgumentType', `list comprehension over ${typeName(list)}`);
        const result: CypherValue[] = [];
        for (const item of list) {
          row[slot] = item;
          if (where && where(row, env) !== true) continue;
          env.budget.checkCollection(result.push(map ? map(row, env) : item));
        }
        return result;
      };
    }
    case 'quantifier': {
      const source = compileExpr(expr.source, ctx);
      const slot = ctx.allocateSlot();
      const inner = { ...ctx, scope: new Map(ctx.scope).set(expr.variable, { slot, kind: 'any' as const }) };
      const where = boolOperand(compileExpr(expr.where, inner));
      const quantifier = expr.quantifier;
      return (row, env) => {
        const list = source(row, env);
        if (list === null) return null;
        if (!Array.isArray(list)) throw runtimeError('TypeError', 'InvalidArgumentType', `${quantifier}() over ${typeName(list)}`);
        let trues = 0;
        let nulls = 0;
        for (const item of list) {
          row[slot] = item;
          const result = where(row, env);
          if (result === true) trues++;
          else if (result === null) nulls++;
        }
        const falses = list.length - trues - nulls;
        switch (quantifier) {
          case 'all':
            return falses > 0 ? false : nulls > 0 ? null : true;
          case 'any':
            return trues > 0 ? true : nulls > 0 ? null : false;
          case 'none':
            return trues > 0 ? false : nulls > 0 ? null : true;
          default:
            return trues > 1 ? false : nulls > 0 ? null : trues === 1;
        }
      };
    }
    case 'pattern': {
      // a pattern predicate tests the row's own variables; only EXISTS { } may bring new ones
      const unbound = namesOf(expr.pattern).find(({ name }) => !ctx.scope.has(name));
      if (unbound) throw compileError('UndefinedVariable', `variable '${unbound.name}' is not defined: a pattern predicate cannot introduce a variable (use EXISTS { })`, unbound.pos);
      return ctx.testPattern(expr.pattern, ctx.scope);
    }
    case 'patternComprehension': {
      const scope = new Map(ctx.scope);
      const runner = ctx.compilePattern(expr.pattern, scope);
      const inner = { ...ctx, scope };
      const where = expr.where ? compileExpr(expr.where, inner) : undefined;
      const map = compileExpr(expr.map, inner);
      return (row, env) => {
        const result: CypherValue[] = [];
        runner(row.slice(), env, (matched) => {
          if (!where || where(matched, env) === true) env.budget.checkCollection(result.push(map(matched, env)));
        });
        return result;
      };
    }
    case 'patternSubquery':
      return compilePatternSubquery(expr.pattern, expr.where, ctx, expr.quantity, expr.returns);
  }
}

/**
 * COUNT { } and EXISTS { } over a pattern and its WHERE; also size() of a pattern comprehension
 * whose mapped value cannot fail, which counts the same matches. The pattern's own variables
 * are local to it; the ones bound outside are those of the row. What a RETURN inside the braces
 * projects (or the comprehension maps) is compiled, so that its errors are the query's, and never
 * evaluated.
 */
function compilePatternSubquery(pattern: PatternPart, where: Expr | undefined, ctx: ExprContext, quantity: 'count' | 'exists', returns: Expr[] = []): Fn {
  const scope = new Map(ctx.scope);
  const inner: ExprContext = { ...ctx, scope, aggregates: undefined, argumentScope: undefined };
  const checkReturns = () => returns.forEach((item) => compileExpr(item, inner));
  if (!where && quantity === 'count') {
    const count = ctx.countPattern(pattern, scope);
    checkReturns();
    return (row, env) => BigInt(count(row, env));
  }
  if (!where) {
    const test = ctx.testPattern(pattern, scope);
    checkReturns();
    return test;
  }
  const runner = ctx.compilePattern(pattern, scope);
  const passes = compileExpr(where, inner);
  checkReturns();
  if (quantity === 'exists') {
    return (row, env) => {
      let found = false;
      runner(row.slice(), env, (matched) => (found = passes(matched, env) === true));
      return found;
    };
  }
  return (row, env) => {
    let count = 0n;
    runner(row.slice(), env, (matched) => {
      if (passes(matched, env) === true) count++;
    }, true);
    return count;
  };
}

/**
 * A comprehension's mapped value that evaluates without error on every match, once compiled (a
 * variable it names is in scope): counting its list needs no list. A parameter is not one: a
 * missing one is an error only when evaluated.
 */
function evaluatesWithoutError(expr: Expr): boolean {
  return expr.kind === 'literal' || expr.kind === 'var';
}

function compileBinary(expr: Extract<Expr, { kind: 'binary' }>, ctx: ExprContext): Fn {
  const left = compileExpr(expr.left, ctx);
  const right = compileExpr(expr.right, ctx);
  const op = expr.op;
  switch (op) {
    case 'AND': {
      const l = boolOperand(left);
      const r = boolOperand(right);
      return (row, env) => {
        const a = l(row, env);
        if (a === false) return false;
        return and(a, r(row, env));
      };
    }
    case 'OR': {
      const l = boolOperand(left);
      const r = boolOperand(right);
      return (row, env) => {
        const a = l(row, env);
        if (a === true) return true;
        return or(a, r(row, env));
      };
    }
    case 'XOR': {
      const l = boolOperand(left);
      const r = boolOperand(right);
      return (row, env) => xor(l(row, env), r(row, env));
    }
    case '=':
    case '<>':
    case '<':
    case '>':
    case '<=':
    case '>=':
      return (row, env) => comparison(op, left(row, env), right(row, env));
    case 'IN':
      return (row, env) => inList(left(row, env), right(row, env));
    case 'STARTS WITH':
    case 'ENDS WITH':
    case 'CONTAINS':
      return (row, env) => stringPredicate(op, left(row, env), right(row, env));
    case '=~': {
      // the pattern is nearly always the same on every row (a literal or a parameter): compiled once while it stays so
      let compiled: { pattern: string; regex: RegExp } | undefined;
      return (row, env) => {
        const value = left(row, env);
        const pattern = right(row, env);
        if (typeof value !== 'string' || typeof pattern !== 'string') return null;
        if (compiled?.pattern !== pattern) compiled = { pattern, regex: regularExpression(pattern) };
        return compiled.regex.test(value);
      };
    }
    default:
      return (row, env) => {
        const value = arithmetic(op, left(row, env), right(row, env));
        // `WITH l + l AS l` doubles per clause: bound what concatenation builds
        if (Array.isArray(value)) env.budget.checkCollection(value.length);
        else if (typeof value === 'string') env.budget.checkValueBytes(value.length);
        return value;
      };
  }
}

function compileCall(expr: Extract<Expr, { kind: 'call' }>, ctx: ExprContext): Fn {
  const name = expr.name.toLowerCase();
  if (isAggregateFunction(name)) {
    if (!ctx.aggregates) throw compileError('InvalidAggregation', `aggregate ${expr.name}() is not allowed here`, expr.pos);
    const arity = expr.star ? 0 : name.startsWith('percentile') ? 2 : 1;
    if (expr.args.length !== arity) {
      throw compileError('InvalidNumberOfArguments', `${expr.name}() takes ${arity === 0 ? '*' : arity === 1 ? 'one argument' : 'two arguments'}, got ${expr.args.length}`, expr.pos);
    }
    const args = expr.args.map((arg) => compileExpr(arg, { ...ctx, scope: ctx.argumentScope ?? ctx.scope, aggregates: undefined }));
    const index = ctx.aggregates.length;
    ctx.aggregates.push({ name, distinct: expr.distinct, star: expr.star, args });
    // validate the aggregate name now, not on the first row
    createAccumulator(name, expr.distinct, expr.star);
    return (_row, env) => env.aggregateValues[index];
  }
  const [only] = expr.args;
  if (name === 'size' && expr.args.length === 1 && only.kind === 'patternComprehension' && evaluatesWithoutError(only.map)) {
    return compilePatternSubquery(only.pattern, only.where, ctx, 'count', [only.map]);
  }
  const args = expr.args.map((arg) => compileExpr(arg, ctx));
  const rule = ctx.rules?.predicate(expr.name, args.length);
  if (rule) {
    return (row, env) => callRule(rule, args.map((arg) => arg(row, env)), env);
  }
  const fn = scalarFunction(name);
  if (!fn) {
    const hidden = ctx.rules?.hidden(expr.name, args.length);
    if (hidden) {
      const indicator = `${expr.name}/${args.length}`;
      throw new QueryError('rule_predicate_not_exported', `${indicator} is not exported by ${hidden.modules.join(', ')}: WHERE may call ${hidden.exported.length > 0 ? hidden.exported.join(', ') : 'no predicate of the loaded modules'} (and the helper library's predicates)`, expr.pos.line, expr.pos.column, { predicate: indicator, modules: hidden.modules, exported: hidden.exported });
    }
    throw compileError('UnknownFunction', `unknown function ${expr.name}()`, expr.pos);
  }
  if (name === 'exists' && expr.args[0] && expr.args[0].kind !== 'prop' && expr.args[0].kind !== 'pattern') {
    throw compileError('InvalidArgumentType', 'exists() takes a property or a pattern', expr.pos);
  }
  if (args.length === 1) {
    // most calls take one argument (id(n), labels(n), size(l)): no mapping closure per row
    const [arg] = args;
    return (row, env) => fn([arg(row, env)], env);
  }
  return (row, env) => fn(args.map((arg) => arg(row, env)), env);
}

/**
 * The process cannot compile linear-time regular expressions: a fault of the runtime, not of a
 * query. Typed (kind 'runtime') so that it reaches the client as itself, from a worker too,
 * rather than as an internal error.
 */
class LinearRegExpUnavailable extends ParleyError {
  constructor(cause: unknown) {
    super('runtime', 'linear_regexp_unavailable', `this server's JavaScript runtime refused V8's linear-time RegExp engine (the 'l' flag) after --enable-experimental-regexp-engine, so =~ cannot run within a time limit: ${(cause as Error).message}`);
    this.cause = cause;
  }
}

let linearEngine = false;

/**
 * Turns on V8's linear-time RegExp engine (the `l` flag, off by default) and checks that it
 * took. Called where it is needed, before the first `=~` pattern compiles, rather than at
 * each place a process starts: V8 flags are per process, yet the processes and threads that
 * compile queries are many (the server and its worker pool, the CLI, benches, the TCK, test
 * and fuzz workers), and one left out would refuse every `=~` there as the user's error.
 */
function enableLinearRegExps(): void {
  if (linearEngine) return;
  v8.setFlagsFromString('--enable-experimental-regexp-engine');
  try {
    new RegExp('', 'l');
  } catch (error) {
    throw new LinearRegExpUnavailable(error);
  }
  linearEngine = true;
}

/**
 * The pattern of `=~`, matched whole, by V8's linear-time engine: a pattern that would
 * backtrack catastrophically (`(a+)+$`) cannot hold a thread past any time limit, since one
 * RegExp.test call cannot be interrupted. What that engine cannot run in linear time
 * (backreferences, lookaround) and patterns that do not compile are the query's error, as
 * are unicode property escapes (`\p{L}`): the engine has no unicode mode, and without it
 * they would silently match something else.
 */
function regularExpression(pattern: string): RegExp {
  const refuse = (reason: string) =>
    runtimeError('ArgumentError', 'InvalidRegularExpression', `'${pattern.slice(0, 100)}' is not a valid regular expression: ${reason}`);
  if (/\\[pP]\{|\\u\{/.test(pattern)) throw refuse('unicode property and code point escapes are not supported');
  enableLinearRegExps();
  try {
    return new RegExp('^(?:' + pattern + ')$', 'l');
  } catch (error) {
    throw refuse((error as Error).message);
  }
}
