/**
 * Scalar functions and aggregate accumulators with openCypher semantics
 * (null in → null out unless the function says otherwise).
 */
import type { GraphIndex } from '../store/graph-index.ts';
import { approximateBytes, type Budget } from './limits.ts';
import {
  type CypherValue, INT64_MAX, INT64_MIN, equivalenceKey, fromProperty, isMap, isNode, isNumber, isPath, isRel,
  orderCompare, runtimeError, typeName,
} from './values.ts';

export interface FunctionEnv {
  graph: GraphIndex;
  budget: Budget;
}

type ScalarFunction = (args: CypherValue[], env: FunctionEnv) => CypherValue;

/** openCypher names a conversion's, type()'s and labels()'s refused argument a value, not a type (the TCK's TypeConversion, Graph3, Graph4). */
const REFUSING_VALUES: ReadonlySet<string> = new Set(['toBoolean', 'toInteger', 'toFloat', 'toString', 'type', 'labels']);

function invalid(name: string, value: CypherValue): never {
  throw runtimeError('TypeError', REFUSING_VALUES.has(name) ? 'InvalidArgumentValue' : 'InvalidArgumentType', `${name}() does not accept ${typeName(value)}`);
}

export function checkedInteger(value: bigint): bigint {
  if (value > INT64_MAX || value < INT64_MIN) throw runtimeError('ArithmeticError', 'IntegerOverflow', 'integer overflow');
  return value;
}

function toNumber(name: string, value: CypherValue): number {
  if (!isNumber(value)) invalid(name, value);
  return Number(value);
}

function mathFunction(name: string, fn: (x: number) => number): ScalarFunction {
  return ([value]) => (value === null ? null : fn(toNumber(name, value)));
}

function stringFunction(name: string, fn: (s: string) => CypherValue): ScalarFunction {
  return ([value]) => {
    if (value === null) return null;
    if (typeof value !== 'string') invalid(name, value);
    return fn(value);
  };
}

function toInteger(value: CypherValue): CypherValue {
  if (value === null) return null;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? checkedInteger(BigInt(Math.trunc(value))) : null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^[+-]?\d+$/.test(trimmed)) return checkedInteger(BigInt(trimmed));
    const parsed = Number(trimmed);
    return trimmed !== '' && Number.isFinite(parsed) ? BigInt(Math.trunc(parsed)) : null;
  }
  if (typeof value === 'boolean') return value ? 1n : 0n;
  return invalid('toInteger', value);
}

function toFloat(value: CypherValue): CypherValue {
  if (value === null) return null;
  if (isNumber(value)) return Number(value);
  if (typeof value === 'string') {
    const parsed = Number(value.trim());
    return value.trim() !== '' && !Number.isNaN(parsed) ? parsed : null;
  }
  return invalid('toFloat', value);
}

export function formatFloat(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return value.toFixed(1);
  return String(value);
}

function toStringValue(value: CypherValue): CypherValue {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return formatFloat(value);
  if (typeof value === 'boolean') return String(value);
  return invalid('toString', value);
}

function toBoolean(value: CypherValue): CypherValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : null;
  }
  if (typeof value === 'bigint') return value !== 0n;
  return invalid('toBoolean', value);
}

function range([start, end, step = 1n]: CypherValue[], budget: Budget): CypherValue {
  if (typeof start !== 'bigint' || typeof end !== 'bigint' || typeof step !== 'bigint') {
    throw runtimeError('ArgumentError', 'InvalidArgumentType', 'range() takes integer arguments');
  }
  if (step === 0n) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'range() step must not be 0');
  const result: CypherValue[] = [];
  const count = step > 0n ? (end - start) / step + 1n : (start - end) / -step + 1n;
  if (count > 0n) budget.checkCollection(count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(count));
  if (step > 0n) for (let i = start; i <= end; i += step) result.push(i);
  else for (let i = start; i >= end; i += step) result.push(i);
  return result;
}

function size(value: CypherValue): CypherValue {
  if (value === null) return null;
  if (typeof value === 'string') return BigInt([...value].length);
  if (Array.isArray(value)) return BigInt(value.length);
  return invalid('size', value);
}

function length(value: CypherValue): CypherValue {
  if (value === null) return null;
  if (isPath(value)) return BigInt(value.$path.rels.length);
  return invalid('length', value);
}

function round([value, precisionValue, modeValue]: CypherValue[]): CypherValue {
  if (value === null) return null;
  const x = toNumber('round', value);
  if (precisionValue === undefined || precisionValue === null) return roundHalfAwayFromZero(x);
  const precision = Number(precisionValue);
  const factor = 10 ** precision;
  const mode = typeof modeValue === 'string' ? modeValue.toUpperCase() : 'HALF_UP';
  const scaled = x * factor;
  const rounded = mode === 'FLOOR' ? Math.floor(scaled) : mode === 'CEILING' ? Math.ceil(scaled) : mode === 'DOWN' ? Math.trunc(scaled) : roundHalfAwayFromZero(scaled);
  return rounded / factor;
}

function roundHalfAwayFromZero(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

const SCALAR_FUNCTIONS: Record<string, ScalarFunction> = {
  id: ([value]) => (value === null ? null : isNode(value) ? value.$node.id : isRel(value) ? value.$rel.id : invalid('id', value)),
  elementid: ([value]) => (value === null ? null : isNode(value) ? value.$node.id : isRel(value) ? value.$rel.id : invalid('elementId', value)),
  labels: ([value]) => (value === null ? null : isNode(value) ? [...value.$node.labels] : invalid('labels', value)),
  type: ([value]) => (value === null ? null : isRel(value) ? value.$rel.type : invalid('type', value)),
  properties: ([value]) => {
    if (value === null) return null;
    if (isNode(value)) return fromProperty(value.$node.properties);
    if (isRel(value)) return fromProperty(value.$rel.properties);
    if (isMap(value)) return value;
    return invalid('properties', value);
  },
  keys: ([value]) => {
    if (value === null) return null;
    if (isNode(value)) return Object.keys(value.$node.properties).filter((key) => value.$node.properties[key] !== null);
    if (isRel(value)) return Object.keys(value.$rel.properties).filter((key) => value.$rel.properties[key] !== null);
    if (isMap(value)) return Object.keys(value);
    return invalid('keys', value);
  },
  startnode: ([value], env) => {
    if (value === null) return null;
    if (!isRel(value)) return invalid('startNode', value);
    const node = env.graph.node(value.$rel.from);
    return node ? { $node: node } : null;
  },
  endnode: ([value], env) => {
    if (value === null) return null;
    if (!isRel(value)) return invalid('endNode', value);
    const node = env.graph.node(value.$rel.to);
    return node ? { $node: node } : null;
  },
  nodes: ([value]) => (value === null ? null : isPath(value) ? value.$path.nodes.map((node) => ({ $node: node })) : invalid('nodes', value)),
  relationships: ([value]) => (value === null ? null : isPath(value) ? value.$path.rels.map((rel) => ({ $rel: rel })) : invalid('relationships', value)),
  length: ([value]) => length(value),
  size: ([value]) => size(value),
  head: ([value]) => (value === null ? null : Array.isArray(value) ? (value[0] ?? null) : invalid('head', value)),
  last: ([value]) => (value === null ? null : Array.isArray(value) ? (value[value.length - 1] ?? null) : invalid('last', value)),
  tail: ([value]) => (value === null ? null : Array.isArray(value) ? value.slice(1) : invalid('tail', value)),
  reverse: ([value]) => {
    if (value === null) return null;
    if (typeof value === 'string') return [...value].reverse().join('');
    if (Array.isArray(value)) return [...value].reverse();
    return invalid('reverse', value);
  },
  range: (args, env) => range(args, env.budget),
  coalesce: (args) => args.find((value) => value !== null) ?? null,
  tointeger: ([value]) => toInteger(value),
  tofloat: ([value]) => toFloat(value),
  tostring: ([value]) => toStringValue(value),
  toboolean: ([value]) => toBoolean(value),
  abs: ([value]) => (value === null ? null : typeof value === 'bigint' ? checkedInteger(value < 0n ? -value : value) : Math.abs(toNumber('abs', value))),
  ceil: mathFunction('ceil', Math.ceil),
  floor: mathFunction('floor', Math.floor),
  round: (args) => round(args),
  sign: ([value]) => (value === null ? null : typeof value === 'bigint' ? (value > 0n ? 1n : value < 0n ? -1n : 0n) : BigInt(Math.sign(toNumber('sign', value)))),
  sqrt: mathFunction('sqrt', Math.sqrt),
  exp: mathFunction('exp', Math.exp),
  log: mathFunction('log', Math.log),
  log10: mathFunction('log10', Math.log10),
  sin: mathFunction('sin', Math.sin),
  cos: mathFunction('cos', Math.cos),
  tan: mathFunction('tan', Math.tan),
  asin: mathFunction('asin', Math.asin),
  acos: mathFunction('acos', Math.acos),
  atan: mathFunction('atan', Math.atan),
  atan2: ([y, x]) => (y === null || x === null ? null : Math.atan2(toNumber('atan2', y), toNumber('atan2', x))),
  degrees: mathFunction('degrees', (x) => (x * 180) / Math.PI),
  radians: mathFunction('radians', (x) => (x * Math.PI) / 180),
  pi: () => Math.PI,
  e: () => Math.E,
  rand: () => Math.random(),
  toupper: stringFunction('toUpper', (s) => s.toUpperCase()),
  tolower: stringFunction('toLower', (s) => s.toLowerCase()),
  trim: stringFunction('trim', (s) => s.trim()),
  ltrim: stringFunction('lTrim', (s) => s.trimStart()),
  rtrim: stringFunction('rTrim', (s) => s.trimEnd()),
  split: ([value, separator]) => {
    if (value === null || separator === null) return null;
    if (typeof value !== 'string' || typeof separator !== 'string') return invalid('split', value);
    return value.split(separator);
  },
  replace: ([value, search, replacement]) => {
    if (value === null || search === null || replacement === null) return null;
    if (typeof value !== 'string' || typeof search !== 'string' || typeof replacement !== 'string') return invalid('replace', value);
    return value.split(search).join(replacement);
  },
  substring: ([value, start, count]) => {
    if (value === null) return null;
    if (typeof value !== 'string') return invalid('substring', value);
    const from = Number(start);
    return count === undefined || count === null ? value.slice(from) : value.slice(from, from + Number(count));
  },
  left: ([value, count]) => (value === null ? null : typeof value === 'string' ? value.slice(0, Number(count)) : invalid('left', value)),
  right: ([value, count]) => (value === null ? null : typeof value === 'string' ? (Number(count) === 0 ? '' : value.slice(-Number(count))) : invalid('right', value)),
  exists: ([value]) => value !== null,
};

export function isScalarFunction(name: string): boolean {
  return Object.hasOwn(SCALAR_FUNCTIONS, name.toLowerCase());
}

export function scalarFunction(name: string): ScalarFunction | undefined {
  return SCALAR_FUNCTIONS[name.toLowerCase()];
}

// ---- aggregates ----

export const AGGREGATE_FUNCTIONS = ['count', 'collect', 'min', 'max', 'avg', 'sum', 'percentiledisc', 'percentilecont', 'stdev', 'stdevp'];

export function isAggregateFunction(name: string): boolean {
  return AGGREGATE_FUNCTIONS.includes(name.toLowerCase());
}

/** A plain count(*): the one aggregate the planner may count inside the match, and the executor then keeps as flat counts. */
export function isCountStar(call: { name: string; star: boolean; distinct: boolean }): boolean {
  return call.star && !call.distinct && call.name.toLowerCase() === 'count';
}

export interface Accumulator {
  add(values: CypherValue[]): void;
  result(): CypherValue;
}

/** `budget` bounds what collect() holds; without one (a compile-time arity check) nothing is added. */
export function createAccumulator(name: string, distinct: boolean, star: boolean, budget?: Budget): Accumulator {
  const seen = distinct ? new Set<string>() : undefined;
  const inner = baseAccumulator(name.toLowerCase(), star, budget);
  if (!seen) return inner;
  return {
    add(values) {
      if (values[0] === null) return;
      const key = equivalenceKey(values[0]);
      if (seen.has(key)) return;
      seen.add(key);
      inner.add(values);
    },
    result: () => inner.result(),
  };
}

function baseAccumulator(name: string, star: boolean, budget: Budget | undefined): Accumulator {
  switch (name) {
    case 'count': {
      let count = 0n;
      return { add: (values) => void (star || values[0] !== null ? count++ : 0), result: () => count };
    }
    case 'collect': {
      const list: CypherValue[] = [];
      let bytes = 0;
      return {
        add: ([value]) => {
          if (value === null) return;
          budget!.checkCollection(list.push(value));
          bytes += approximateBytes(value, budget!.limits.responseBytes);
          budget!.checkValueBytes(bytes);
        },
        result: () => list,
      };
    }
    case 'min':
    case 'max': {
      let best: CypherValue = null;
      const sign = name === 'min' ? -1 : 1;
      return {
        add: ([value]) => {
          if (value === null) return;
          if (best === null || Math.sign(orderCompare(value, best)) === sign) best = value;
        },
        result: () => best,
      };
    }
    case 'sum': {
      let integer = 0n;
      let float = 0;
      let anyFloat = false;
      return {
        add: ([value]) => {
          if (value === null) return;
          if (typeof value === 'bigint') integer = checkedInteger(integer + value);
          else if (typeof value === 'number') {
            float += value;
            anyFloat = true;
          } else invalid('sum', value);
        },
        result: () => (anyFloat ? float + Number(integer) : integer),
      };
    }
    case 'avg': {
      let total = 0;
      let count = 0;
      return {
        add: ([value]) => {
          if (value === null) return;
          total += toNumber('avg', value);
          count++;
        },
        result: () => (count === 0 ? null : total / count),
      };
    }
    case 'stdev':
    case 'stdevp': {
      const values: number[] = [];
      return {
        add: ([value]) => void (value !== null && values.push(toNumber(name, value))),
        result: () => {
          const n = values.length;
          if (n === 0) return 0;
          const mean = values.reduce((a, b) => a + b, 0) / n;
          const squares = values.reduce((a, b) => a + (b - mean) ** 2, 0);
          const divisor = name === 'stdev' ? n - 1 : n;
          return divisor <= 0 ? 0 : Math.sqrt(squares / divisor);
        },
      };
    }
    case 'percentiledisc':
    case 'percentilecont': {
      const values: number[] = [];
      let percentile: number | undefined;
      let integers = true;
      return {
        add: ([value, p]) => {
          if (percentile === undefined) {
            if (p === null || !isNumber(p)) return invalid(name, p ?? null);
            percentile = Number(p);
            if (percentile < 0 || percentile > 1) throw runtimeError('ArgumentError', 'NumberOutOfRange', `${name}() percentile must be between 0 and 1`);
          }
          if (value === null) return;
          if (typeof value !== 'bigint') integers = false;
          values.push(toNumber(name, value));
        },
        result: () => {
          if (values.length === 0 || percentile === undefined) return null;
          values.sort((a, b) => a - b);
          if (name === 'percentiledisc') {
            const index = percentile === 0 ? 0 : Math.ceil(percentile * values.length) - 1;
            const value = values[Math.max(0, index)];
            return integers ? BigInt(value) : value;
          }
          const position = percentile * (values.length - 1);
          const lower = Math.floor(position);
          const upper = Math.ceil(position);
          return values[lower] + (values[upper] - values[lower]) * (position - lower);
        },
      };
    }
  }
  throw runtimeError('SyntaxError', 'UnknownFunction', `unknown aggregate ${name}`);
}
