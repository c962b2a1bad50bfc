/**
 * What the fuzz suite feeds the engine and the HTTP app: queries built from the
 * grammar (clauses, patterns, expressions, nesting), token soup and mutated valid
 * queries; import bodies taken from a valid one and mutated. The same generators
 * run at a small count in `npm test` (fuzz.test.ts) and at a million in `npm run fuzz`.
 */
import fc from 'fast-check';
import { ParleyError } from '../../engine/errors.ts';
import { runQuery } from '../../engine/query/index.ts';
import { checkParameters } from '../../engine/query/limits.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';
import { loadConfig, queryLimits } from '../../server/config.ts';
import { toProblem } from '../../server/problems.ts';
import { shapeAnswer } from '../../server/shape/query-answer.ts';

const NAMES = ['a', 'b', 'c', 'r', 'x', 'n', 'count', 'end', '`we ird`'];
const LABELS = ['Actor', 'Claim', 'Event', 'Location', 'Nope'];
const TYPES = ['ASSERTS', 'OPPOSES', 'ALLIED_WITH', 'TARGETS', 'X'];
const KEYS = ['label', 'type', 'role', 'text', 'confidence', 'missing', 'id'];
const FUNCTIONS = ['size', 'toUpper', 'toString', 'range', 'head', 'last', 'keys', 'labels', 'type', 'id', 'abs', 'coalesce', 'reverse', 'toInteger', 'split', 'substring', 'nope'];
const AGGREGATES = ['count', 'collect', 'sum', 'avg', 'min', 'max', 'stdev', 'percentileDisc'];
const OPERATORS = ['+', '-', '*', '/', '%', '^', '=', '<>', '<', '>=', 'AND', 'OR', 'XOR', 'IN', 'STARTS WITH', 'CONTAINS', '=~'];

const name = fc.constantFrom(...NAMES);
const literal = fc.oneof(
  fc.integer({ min: -5, max: 100_000 }).map(String),
  fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map((n) => (Number.isInteger(n) ? `${n}.0` : String(n))),
  fc.string({ maxLength: 8 }).map((s) => `'${s.replace(/['\\]/g, '')}'`),
  fc.constantFrom('null', 'true', 'false', '$p', '$list', '$missing', '9223372036854775807', '0x7f', '1e308'),
);

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    name,
    fc.tuple(name, fc.constantFrom(...KEYS)).map(([n, k]) => `${n}.${k}`),
    fc.tuple(tie('expr'), fc.constantFrom(...OPERATORS), tie('expr')).map(([l, op, r]) => `${l} ${op} ${r}`),
    fc.tuple(fc.constantFrom('NOT ', '-', ''), tie('expr')).map(([op, e]) => `${op}(${e})`),
    fc.tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie('expr'), { maxLength: 3 })).map(([f, args]) => `${f}(${args.join(', ')})`),
    fc.tuple(fc.constantFrom(...AGGREGATES), fc.boolean(), tie('expr')).map(([f, d, e]) => `${f}(${d ? 'DISTINCT ' : ''}${e})`),
    fc.array(tie('expr'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('expr')), { maxLength: 3 }).map((entries) => `{${entries.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    fc.tuple(name, tie('expr'), tie('expr')).map(([v, list, map]) => `[${v} IN ${list} WHERE ${v} IS NOT NULL | ${map}]`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([w, t, e]) => `CASE WHEN ${w} THEN ${t} ELSE ${e} END`),
    fc.tuple(tie('expr'), fc.integer({ min: -2, max: 3 })).map(([l, i]) => `${l}[${i}]`),
    fc.tuple(tie('expr'), fc.constantFrom('IS NULL', 'IS NOT NULL')).map(([e, p]) => `${e} ${p}`),
  ),
}));

const nodePattern = fc
  .tuple(fc.option(name, { nil: undefined }), fc.array(fc.constantFrom(...LABELS), { maxLength: 2 }), fc.option(fc.tuple(fc.constantFrom(...KEYS), literal), { nil: undefined }))
  .map(([v, labels, prop]) => `(${v ?? ''}${labels.map((l) => `:${l}`).join('')}${prop ? ` {${prop[0]}: ${prop[1]}}` : ''})`);

const relPattern = fc
  .tuple(fc.option(name, { nil: undefined }), fc.array(fc.constantFrom(...TYPES), { maxLength: 2 }), fc.constantFrom('', '*', '*1..3', '*2', '*..2', '*0..'), fc.constantFrom(['-', '->'], ['<-', '-'], ['-', '-']))
  .map(([v, types, range, [left, right]]) => `${left}[${v ?? ''}${types.length ? ':' + types.join('|') : ''}${range}]${right}`);

const pattern = fc
  .tuple(nodePattern, fc.array(fc.tuple(relPattern, nodePattern), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([r, n]) => r + n).join(''));

const projection = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(expr, fc.option(name, { nil: undefined })), { minLength: 1, maxLength: 3 }), fc.option(expr, { nil: undefined }), fc.option(fc.nat(20), { nil: undefined }))
  .map(([distinct, items, order, limit]) =>
    `${distinct ? 'DISTINCT ' : ''}${items.map(([e, as]) => (as ? `${e} AS ${as}` : e)).join(', ')}${order ? ` ORDER BY ${order}` : ''}${limit !== undefined ? ` LIMIT ${limit}` : ''}`,
  );

const clause = fc.oneof(
  fc.tuple(fc.boolean(), fc.array(pattern, { minLength: 1, maxLength: 2 }), fc.option(expr, { nil: undefined })).map(
    ([optional, patterns, where]) => `${optional ? 'OPTIONAL ' : ''}MATCH ${patterns.join(', ')}${where ? ` WHERE ${where}` : ''}`,
  ),
  fc.tuple(expr, name).map(([e, v]) => `UNWIND ${e} AS ${v}`),
  fc.tuple(projection, fc.option(expr, { nil: undefined })).map(([p, where]) => `WITH ${p}${where ? ` WHERE ${where}` : ''}`),
);

/** Queries shaped by the grammar: mostly valid syntax, with every kind of runtime type and limit error. */
export const grammarQuery = fc
  .tuple(fc.array(clause, { maxLength: 4 }), projection, fc.option(fc.constantFrom(' UNION ', ' UNION ALL '), { nil: undefined }))
  .map(([clauses, ret, union]) => {
    const query = [...clauses, `RETURN ${ret}`].join(' ');
    return union ? `${query}${union}${query}` : query;
  });

const FRAGMENTS = [
  'MATCH', 'OPTIONAL', 'WHERE', 'RETURN', 'WITH', 'UNWIND', 'AS', 'ORDER BY', 'SKIP', 'LIMIT', 'DISTINCT', '(', ')', '[', ']',
  '{', '}', '-', '->', '<-', ':', '|', '*', '..', ',', '.', '=', '<>', 'AND', 'OR', 'NOT', 'IN', 'IS NULL', 'count(*)', 'a', 'b',
  'Actor', "'x'", '1', '2.5', '$p', 'CASE', 'WHEN', 'THEN', 'END', 'STARTS WITH', '`q`', '"', '/*', '\n', 'UNION', 'range(0, 99999)',
];

export const tokenSoup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(' '));

/** A generated query with a character-level mutation, or deep nesting of a random bracket. */
export const anyQuery = fc.oneof(
  { weight: 6, arbitrary: grammarQuery },
  { weight: 2, arbitrary: tokenSoup },
  { weight: 2, arbitrary: fc.tuple(grammarQuery, fc.nat(), fc.nat(6), fc.string({ maxLength: 4, unit: 'binary' })).map(([q, at, cut, insert]) => q.slice(0, at % (q.length + 1)) + insert + q.slice((at % (q.length + 1)) + cut)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(', '[', '{a: ', 'NOT ', '-', 'CASE WHEN true THEN '), fc.integer({ min: 1, max: 400 })).map(([open, n]) => `RETURN ${open.repeat(n)}1`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80, unit: 'binary' }) },
);

export const PARAMETERS = { p: 1, list: [1, 'two', null, [3]] };

/** An error the engine may throw for a bad query: typed, and meant for the client (400 or 503). */
export function isTypedQueryError(error: unknown): boolean {
  return error instanceof ParleyError && (error.kind === 'query' || error.kind === 'validation' || error.kind === 'limit');
}

const ROUTE_LIMITS = { ...queryLimits(loadConfig({})), timeLimitMs: 50 };

/**
 * A query taken the way POST /v1/graph/query takes one that runs inline, without the
 * HTTP round trip: the parameters' input checks (engine/input-checks.ts), the engine under the server's default
 * limits (time 50 ms), the answer shaped into the body the client gets, and an error
 * mapped to its status by the one mapping (problems.ts). Undefined when the route would
 * answer well (200, or a typed 4xx / 503 limit); else what went wrong.
 */
export function answerLikeTheRoute(graph: GraphIndex, query: string): string | undefined {
  try {
    checkParameters(PARAMETERS);
    shapeAnswer(runQuery(graph, query, { parameters: PARAMETERS, limits: ROUTE_LIMITS }), graph, query, { includeProvenance: false });
    return undefined;
  } catch (error) {
    const { status, code } = toProblem(error);
    if (isTypedQueryError(error) && (status < 500 || (status === 503 && /limit|queue/.test(code)))) return undefined;
    return `${status} ${(error as Error)?.stack?.split('\n').slice(0, 3).join(' | ')}`;
  }
}

const VALID_IMPORT = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group', aliases: ['RSF'], confidence: 0.9,
      provenance: [{ source: 'doc-1', timestamp: '2023-06-01T10:00:00Z', quote: 'RSF said', span: { start: 1, end: 9 } }] },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party' },
    { kind: 'Claim', id: 'c1', type: 'RedLine', text: 'No talks', speaker: 'rsf' },
    { kind: 'Event', id: 'e1', event_type: 'ASSAULT', date: '2023-06-02', fatalities: 4 },
  ],
  edges: [
    { type: 'ASSERTS', from: 'rsf', to: 'c1', confidence: 0.8 },
    { type: 'OPPOSES', from: 'rsf', to: 'saf' },
    { type: 'PARTICIPATES_IN', from: 'rsf', to: 'e1', role: 'perpetrator' },
  ],
};

const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, '', 'x'.repeat(300), '\u0000', '\ud800', '2024-13-45T99:99:99Z', -1, 2, 1e308, [], {}, JSON.parse(`${'['.repeat(20)}1${']'.repeat(20)}`)),
  fc.integer({ min: 0, max: 50 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth) || 'null')),
);

/** The valid import with one record's member replaced, removed or added, or the body's shape broken. */
export const mutatedImport = fc.oneof(
  fc.tuple(fc.constantFrom('nodes', 'edges'), fc.nat(), fc.constantFrom('kind', 'id', 'label', 'role', 'type', 'from', 'to', 'confidence', 'provenance', 'recorded_at', 'date', 'fatalities', 'aliases', 'extra', '__proto__', 'labels'), oddValue, fc.boolean()).map(
    ([list, at, key, value, remove]) => {
      const body = structuredClone(VALID_IMPORT) as Record<string, Record<string, unknown>[]>;
      const record = body[list][at % body[list].length];
      if (remove) delete record[key];
      else record[key] = value;
      return JSON.stringify(body);
    },
  ),
  fc.tuple(fc.constantFrom('nodes', 'edges', 'other'), oddValue).map(([key, value]) => JSON.stringify({ ...VALID_IMPORT, [key]: value })),
  fc.tuple(fc.nat(), fc.nat(8), fc.string({ maxLength: 6, unit: 'binary' })).map(([at, cut, insert]) => {
    const text = JSON.stringify(VALID_IMPORT);
    const start = at % (text.length + 1);
    return text.slice(0, start) + insert + text.slice(start + cut);
  }),
);
