/**
 * Equivalent forms, read before planning (plan.ts planPart): a question written one way is
 * rewritten to the form the planner's paths recognise, so that its speed does not hang on its
 * spelling. A rewrite is made only where it changes no answer, no column and no error: names are
 * checked against their scope when the rewritten clauses are planned, so no rewrite brings a name
 * into scope or takes one out, and none drops an expression that could fail. Two exceptions, as the
 * planner's own: a list only counted is not built, so the collection limit does not stop it; and a
 * condition moved into a MATCH's pattern or WHERE (a type, a WITH's WHERE) may drop rows before
 * another conjunct of that WHERE that could fail is evaluated on them, as a label or an equality
 * in WHERE already does (openCypher leaves the order of a WHERE's conjuncts open).
 * - `count(1)` (any literal but null) and `sum(1)` are `count(*)`: they count every row (`sum(1)` of no row is 0);
 * - `size(collect(x))` is `count(x)`, DISTINCT kept: both leave nulls out;
 * - `x IN [e]` in a MATCH's WHERE is `x = e`, which an index may answer;
 * - two MATCH clauses in a row whose relationships share no type are one MATCH of both patterns
 *   (`MATCH (a)-[:ASSERTS]->(c) MATCH (c)-[:SUPPORTS]->(d)` is `MATCH (a)-[:ASSERTS]->(c),
 *   (c)-[:SUPPORTS]->(d)`): one MATCH walks an edge once, and no edge can be walked by both;
 * - a WITH after a MATCH that only names the MATCH's nodes and relationships, or properties of them,
 *   for the RETURN right after it, is read into that RETURN: `WITH a, c RETURN a, count(c)` is
 *   `RETURN a, count(c)`, and `WITH c.type AS type RETURN type, count(*)` groups by `c.type`;
 * - the nodes a pattern predicate holds for, counted, are the distinct nodes of the MATCH that
 *   walks the pattern: `MATCH (c:Claim) WHERE (c)<-[:ASSERTS]-() RETURN count(c)` is
 *   `MATCH (c:Claim)<-[:ASSERTS]-() RETURN count(DISTINCT c)`, which is counted without rows;
 * - `WITH DISTINCT c` right after a MATCH that binds c, then only counted, is `count(DISTINCT c)`; and
 *   `WITH DISTINCT c.type AS type, a RETURN type, count(*)` is `WITH c.type AS type, a RETURN type,
 *   count(DISTINCT a)`: per group of the other names, the rows are a's distinct nodes;
 * - `count(id(n))` and `count(DISTINCT id(n))` of a node or relationship the MATCH before names are
 *   `count(n)` and `count(DISTINCT n)`: an id stands for one element, and is null only where n is;
 * - `WITH a, collect(c) AS cs RETURN a, size(cs)`, where every read of the list is its size, is
 *   `WITH a, count(c) AS cs RETURN a, cs`;
 * - `type(r) = 'T'` in a MATCH's WHERE is `[r:T]` in its pattern;
 * - a WITH that only passes on the MATCH's nodes and relationships, with a WHERE that cannot fail
 *   (comparisons of their properties, labels, nulls), is the MATCH with that WHERE: the same rows;
 * - `NOT a = b` is `a <> b`, `COUNT { p } > 0` (no WHERE, property maps of literals) is `EXISTS { p }`, and
 *   `c.type = 'A' OR c.type = 'B'` is `c.type IN ['A', 'B']`;
 * - `count(p)` of a path the query reads nowhere else is `count(*)`, the path not built;
 * - a pattern of the MATCH's nodes counted or collected in a WITH (`WITH a, [(a)-->(c) | c] AS cs`)
 *   is read into the RETURN right after it as the WITH's other names are; and a WITH that
 *   aggregates, whose every name the RETURN hands on as it is (`WITH id(a) AS actor, count(c) AS n
 *   RETURN actor, n ORDER BY n DESC`), is that RETURN;
 * - `WITH DISTINCT x AS n, y AS m RETURN n, m …` (the RETURN naming each of the WITH's names once, as they are) is
 *   `RETURN DISTINCT x AS n, y AS m …`: the same rows, each once;
 * - `RETURN DISTINCT k…` right after a MATCH is a grouping by k… whose count is dropped.
 */
import { argumentOf, type Clause, type Expr, exprKey, forEachChild, mapChildren, namesOf, type NodePattern, type PatternPart, type Projection, type ProjectionItem, projectedName } from './ast.ts';
import { conjuncts, variablesOf } from './bind.ts';
import { containsAggregate } from './expressions.ts';
import { isCountStar } from './functions.ts';

/** `parameters`: the names of the parameters the query is given (the plan cache keys plans by them). */
export function normaliseClauses(clauses: Clause[], parameters: ReadonlySet<string>): Clause[] {
  const forms = clauses.map(equivalentForms);
  const rewritten = distinctWithAsCount(whereOfPassingWith(collectedSizesAsCounts(idsCountedAsElements(pathsCountedAsRows(matchesAsOne(forms)))), parameters));
  return distinctReturnAsGroups(countedPredicateAsMatch(readWithIntoReturn(distinctWithAsReturn(rewritten), parameters)), parameters);
}

/**
 * Each run of MATCH clauses (not optional) whose relationships' types are written and none shared, as one
 * MATCH; not where the first reads a name the second brings (its WHERE or property maps: an undefined
 * name, or one local to an EXISTS { } or comprehension there, which the merge would bind) or the two name
 * one relationship (a second MATCH may bind it again; one pattern may not).
 */
function matchesAsOne(clauses: Clause[]): Clause[] {
  const merged: Clause[] = [];
  for (const clause of clauses) {
    const last = merged[merged.length - 1];
    if (last?.kind === 'match' && clause.kind === 'match' && !last.optional && !clause.optional && typesApart(last.patterns, clause.patterns) && scopesApart(last, clause)) {
      const where = both(last.where, clause.where);
      merged[merged.length - 1] = { ...last, patterns: [...last.patterns, ...clause.patterns], ...(where ? { where } : {}) };
    } else merged.push(clause);
  }
  return merged;
}

type MatchClause = Extract<Clause, { kind: 'match' }>;

/** The names a MATCH's patterns give its nodes and relationships. */
function namedBy(match: MatchClause): Set<string> {
  return new Set(match.patterns.flatMap((part) => namesOf(part).map(({ name }) => name)));
}

/** The nodes and the one-hop relationships a MATCH names: elements, where a variable-length relationship is a list. */
function elementsOf(match: MatchClause): { nodes: Set<string>; relationships: Set<string> } {
  const nodes = new Set(match.patterns.flatMap((part) => part.nodes.flatMap((node) => (node.variable ? [node.variable] : []))));
  const relationships = new Set(match.patterns.flatMap((part) => part.relationships.flatMap((rel) => (rel.variable && !rel.range ? [rel.variable] : []))));
  return { nodes, relationships };
}

/** Whether a projection hands on its rows as they come: no `*` (each name written), no ORDER BY, SKIP or LIMIT. */
function asTheyCome(projection: Projection): boolean {
  return !projection.star && !projection.orderBy?.length && !projection.skip && !projection.limit;
}

/** `item` with `expr` in its place, known by the same column name. */
function withExpr(item: ProjectionItem, expr: Expr): ProjectionItem {
  return expr === item.expr ? item : { ...item, expr, alias: projectedName(item) };
}

/** `left AND right`, or either alone when the other is missing. */
function both(left: Expr | undefined, right: Expr | undefined): Expr | undefined {
  return left && right ? { kind: 'binary', op: 'AND', left, right, pos: right.pos } : (left ?? right);
}

/** Whether the first MATCH reads no name the second brings, and the two name no relationship alike. */
function scopesApart(first: MatchClause, second: MatchClause): boolean {
  const [before, after] = [namedBy(first), namedBy(second)];
  const read = first.where ? variablesOf(first.where) : new Set<string>();
  for (const element of first.patterns.flatMap((part) => [...part.nodes, ...part.relationships])) if (element.properties) variablesOf(element.properties, read);
  if ([...read].some((name) => after.has(name) && !before.has(name))) return false;
  const relationships = (match: MatchClause) => match.patterns.flatMap((part) => part.relationships.flatMap((rel) => (rel.variable ? [rel.variable] : [])));
  const firstRelationships = new Set(relationships(first));
  return !relationships(second).some((name) => firstRelationships.has(name));
}

/** Whether every relationship of both has its types written, and no type is written in both. */
function typesApart(first: PatternPart[], second: PatternPart[]): boolean {
  const typesOf = (patterns: PatternPart[]) => patterns.flatMap((part) => part.relationships).map((rel) => rel.types);
  const [before, after] = [typesOf(first), typesOf(second)];
  if ([...before, ...after].some((types) => types.length === 0)) return false;
  const written = new Set(before.flat());
  return after.every((types) => types.every((type) => !written.has(type)));
}

/** What each clause writes in a form the planner knows better. */
function equivalentForms(clause: Clause): Clause {
  switch (clause.kind) {
    case 'match':
      return clause.where ? typesOfWhere({ ...clause, where: rewrite(inOneAsEquality(clause.where), testByMeaning) }) : clause;
    case 'with':
      return { ...clause, projection: mapProjection(clause.projection, countByMeaning), where: clause.where && rewrite(rewrite(clause.where, countByMeaning), testByMeaning) };
    case 'return':
      return { ...clause, projection: mapProjection(clause.projection, countByMeaning) };
    default:
      return clause;
  }
}

/**
 * `MATCH (a)-[r]->(c) WHERE type(r) = 'T'` as `MATCH (a)-[r:T]->(c)` (and `type(r) IN ['T', 'U']` as `[r:T|U]`): the
 * same edges, found by their type instead of filtered after every edge is walked. Only for a relationship of one
 * hop (a variable-length one is a list) whose written types, if any, hold every type named.
 */
function typesOfWhere(match: MatchClause): MatchClause {
  const relationships = new Map(match.patterns.flatMap((part) => part.relationships.flatMap((rel) => (rel.variable && !rel.range ? [[rel.variable, rel] as const] : []))));
  const typed = new Map<string, { types: string[]; at: Expr['pos'] }>();
  const kept = conjuncts(match.where).filter((condition) => {
    const named = typesNamed(condition);
    const rel = named && relationships.get(named.variable);
    if (!named || !rel || typed.has(named.variable) || (rel.types.length > 0 && !named.types.every((type) => rel.types.includes(type)))) return true;
    typed.set(named.variable, { types: named.types, at: condition.pos });
    return false;
  });
  if (typed.size === 0) return match;
  const patterns = match.patterns.map((part) => ({
    ...part,
    relationships: part.relationships.map((rel) => {
      const named = rel.variable === undefined ? undefined : typed.get(rel.variable);
      return named ? { ...rel, types: named.types, typesAt: named.types.map(() => named.at) } : rel;
    }),
  }));
  const where = kept.reduce<Expr | undefined>(both, undefined);
  const { where: _, ...rest } = match;
  return { ...rest, patterns, ...(where ? { where } : {}) };
}

/** The relationship and types of `type(r) = 'T'`, `'T' = type(r)` or `type(r) IN ['T', …]` (string literals). */
function typesNamed(condition: Expr): { variable: string; types: string[] } | undefined {
  if (condition.kind !== 'binary' || (condition.op !== '=' && condition.op !== 'IN')) return undefined;
  const [call, value] = condition.op === '=' && condition.right.kind === 'call' ? [condition.right, condition.left] : [condition.left, condition.right];
  const rel = argumentOf(call, 'type');
  if (rel?.kind !== 'var') return undefined;
  const values = condition.op === '=' ? [value] : value.kind === 'list' ? value.items : [];
  if (values.length === 0 || !values.every((item) => item.kind === 'literal' && typeof item.value === 'string')) return undefined;
  return { variable: rel.name, types: [...new Set(values.map((item) => (item as { value: string }).value))] };
}

/** `count(1)` and `sum(1)` as `count(*)`; `size(collect(x))` as `count(x)`. */
function countByMeaning(expr: Expr): Expr | undefined {
  if (expr.kind !== 'call' || expr.args.length !== 1) return undefined;
  const [only] = expr.args;
  const name = expr.name.toLowerCase();
  if (name === 'count' && !expr.distinct && only.kind === 'literal' && only.value !== null) return { ...expr, star: true, args: [] };
  if (name === 'sum' && !expr.distinct && only.kind === 'literal' && only.value === 1n) return { ...expr, name: 'count', star: true, args: [] };
  if (name === 'size' && argumentOf(only, 'collect')) return { ...(only as Extract<Expr, { kind: 'call' }>), name: 'count' };
  return undefined;
}

/** The tests a WHERE writes one way as the form the planner knows: negatedEquality, countAboveZeroAsExists, equalitiesAsIn. */
function testByMeaning(expr: Expr): Expr | undefined {
  return negatedEquality(expr) ?? countAboveZeroAsExists(expr) ?? equalitiesAsIn(expr);
}

/**
 * `c.type = 'RedLine' OR c.type = 'Demand'` as `c.type IN ['RedLine', 'Demand']` (equalities or IN lists of literals,
 * one property of one variable): openCypher defines IN as those equalities joined by OR, null included.
 */
function equalitiesAsIn(expr: Expr): Expr | undefined {
  if (expr.kind !== 'binary' || expr.op !== 'OR') return undefined;
  const disjuncts = (e: Expr): Expr[] => (e.kind === 'binary' && e.op === 'OR' ? [...disjuncts(e.left), ...disjuncts(e.right)] : [e]);
  let property: Extract<Expr, { kind: 'prop' }> | undefined;
  const values: Expr[] = [];
  for (const test of disjuncts(expr)) {
    if (test.kind !== 'binary' || (test.op !== '=' && test.op !== 'IN')) return undefined;
    const [prop, value] = test.op === '=' && test.right.kind === 'prop' ? [test.right, test.left] : [test.left, test.right];
    if (prop.kind !== 'prop' || prop.target.kind !== 'var' || (property && exprKey(prop) !== exprKey(property))) return undefined;
    const listed = test.op === '=' ? [value] : value.kind === 'list' ? value.items : [];
    if (listed.length === 0 || !listed.every((item) => item.kind === 'literal')) return undefined;
    property = prop;
    values.push(...listed);
  }
  return { kind: 'binary', op: 'IN', left: property!, right: { kind: 'list', items: values, pos: expr.pos }, pos: expr.pos };
}

/** `NOT a = b` as `a <> b` (and `NOT a <> b` as `a = b`): openCypher defines `<>` as the negated `=`, null included. */
function negatedEquality(expr: Expr): Expr | undefined {
  if (expr.kind !== 'unary' || expr.op !== 'NOT' || expr.operand.kind !== 'binary' || (expr.operand.op !== '=' && expr.operand.op !== '<>')) return undefined;
  return { ...expr.operand, op: expr.operand.op === '=' ? '<>' : '=', pos: expr.pos };
}

/**
 * `COUNT { p } > 0` (`>= 1`, `<> 0`, or written the other way round) as `EXISTS { p }`: a count is never null; only
 * where the subquery has no WHERE and its property maps hold literals, so that the matches `EXISTS` no longer walks
 * past the first could not have failed.
 */
function countAboveZeroAsExists(expr: Expr): Expr | undefined {
  if (expr.kind !== 'binary') return undefined;
  const [subquery, bound, op] = expr.left.kind === 'patternSubquery' ? [expr.left, expr.right, expr.op] : [expr.right, expr.left, MIRRORED[expr.op]];
  if (subquery.kind !== 'patternSubquery' || subquery.quantity !== 'count' || subquery.returns || subquery.where || !literalMaps(subquery.pattern)) return undefined;
  const some = bound.kind === 'literal' && (((op === '>' || op === '<>') && bound.value === 0n) || (op === '>=' && bound.value === 1n));
  return some ? { ...subquery, quantity: 'exists', pos: expr.pos } : undefined;
}

/** Each comparison's operator with its operands swapped (`0 < n` is `n > 0`). */
const MIRRORED: Partial<Record<string, string>> = { '>': '<', '<': '>', '>=': '<=', '<=': '>=', '<>': '<>', '=': '=' };

/** Whether every property map of a pattern holds literals alone (no value that could fail). */
function literalMaps(pattern: PatternPart): boolean {
  return [...pattern.nodes, ...pattern.relationships].every(({ properties }) =>
    properties === undefined || (properties.kind === 'map' && properties.entries.every(([, value]) => value.kind === 'literal')));
}

/** The conjuncts `x IN [e]` of a WHERE as `x = e`: the same truth value, null included. */
function inOneAsEquality(where: Expr): Expr {
  if (where.kind !== 'binary') return where;
  if (where.op === 'AND') return { ...where, left: inOneAsEquality(where.left), right: inOneAsEquality(where.right) };
  if (where.op === 'IN' && where.right.kind === 'list' && where.right.items.length === 1) return { ...where, op: '=', right: where.right.items[0] };
  return where;
}

/**
 * `MATCH … WITH <names> RETURN …` as `MATCH … RETURN …` with each name read as what the WITH gave it,
 * where that cannot change a row, an answer or an error: the WITH keeps every row as it is (no
 * DISTINCT, aggregate, WHERE or page) and gives each name a node or relationship the MATCH names, a
 * property of one, or a pattern of the MATCH's nodes counted or collected (each defined, never failing,
 * the same wherever it is read, so a value the RETURN does not read lost no error); the RETURN reads no
 * other name, and binds none of its own inside an expression (a comprehension's variable could capture
 * one). A WITH that aggregates is read into the RETURN where the RETURN hands on its groups as they are
 * (groupsReturned).
 */
function readWithIntoReturn(clauses: Clause[], parameters: ReadonlySet<string>): Clause[] {
  const at = clauses.findIndex((clause, i) => clause.kind === 'with' && clauses[i + 1]?.kind === 'return' && clauses[i - 1]?.kind === 'match');
  if (at < 0) return clauses;
  const [match, withClause, returnClause] = clauses.slice(at - 1, at + 2) as [MatchClause, Extract<Clause, { kind: 'with' }>, Extract<Clause, { kind: 'return' }>];
  const { projection } = withClause;
  const passes = asTheyCome(projection) && !projection.distinct && !withClause.where;
  const read = returnClause.projection;
  if (!passes || read.star) return clauses;
  if (projection.items.some((item) => containsAggregate(item.expr))) return groupsReturned(clauses, at);
  const matched = namedBy(match);
  const { nodes, relationships } = elementsOf(match);
  // a property of a variable-length relationship (a list) fails
  // a counted pattern only where the MATCH's WHERE cannot fail: the RETURN's counted path may begin the MATCH at that
  // node and evaluate the WHERE on rows no full match reaches
  const counted = (expr: Expr) => at === 1 && countedFromNodes(expr, matched, nodes) && (!match.where || cannotFail(match.where, { nodes, relationships, parameters }));
  const element = (expr: Expr) =>
    (expr.kind === 'var' && matched.has(expr.name)) || (expr.kind === 'prop' && expr.target.kind === 'var' && (nodes.has(expr.target.name) || relationships.has(expr.target.name))) ||
    counted(expr);
  if (!projection.items.every((item) => element(item.expr))) return clauses;
  const values = new Map(projection.items.map((item) => [projectedName(item), item.expr]));
  // ORDER BY reads the RETURN's own names first
  const returned = new Set(read.items.map(projectedName));
  const readsOnlyWith = (expr: Expr, own = new Set<string>()) => [...variablesOf(expr)].every((name) => values.has(name) || own.has(name));
  if (!read.items.every((item) => readsOnlyWith(item.expr)) || !(read.orderBy ?? []).every((sort) => readsOnlyWith(sort.expr, returned))) return clauses;
  if ([...read.items.map((item) => item.expr), ...(read.orderBy ?? []).map((sort) => sort.expr)].some(bindsNames)) return clauses;
  // a pattern read into ORDER BY binds names of its own, which the RETURN's names (read there first) would capture
  const capturing = (name: string) => !returned.has(name) && bindsNames(values.get(name)!);
  if ((read.orderBy ?? []).some((sort) => [...variablesOf(sort.expr)].some(capturing))) return clauses;
  const valueOf = (expr: Expr) => (expr.kind === 'var' ? values.get(expr.name) : undefined);
  const sortValueOf = (expr: Expr) => (expr.kind === 'var' && returned.has(expr.name) ? expr : valueOf(expr));
  const items = read.items.map((item) => withExpr(item, rewrite(item.expr, valueOf)));
  const orderBy = read.orderBy?.map((sort) => ({ ...sort, expr: rewrite(sort.expr, sortValueOf) }));
  const merged: Clause = { ...returnClause, projection: { ...read, items, ...(orderBy ? { orderBy } : {}) } };
  return [...clauses.slice(0, at), merged, ...clauses.slice(at + 2)];
}

/**
 * `MATCH (c:L) WHERE <pattern from c> [AND <checks of c>] RETURN <c's keys>, count(c)` as
 * `MATCH (c:L)<pattern from c> WHERE <checks of c> RETURN <c's keys>, count(DISTINCT c)`: each node the
 * first MATCH keeps is one row, and the second's rows for it are as many as the pattern's matches
 * from it, one node. Only as the part's first clause (each node once before it), where the pattern
 * (a predicate, or EXISTS { } without WHERE) starts or ends at c, written bare, and names nothing
 * else, and the aggregation counts c's rows alone and reads nothing but c.
 */
function countedPredicateAsMatch(clauses: Clause[]): Clause[] {
  const [match, next] = clauses;
  if (match?.kind !== 'match' || match.optional || match.patterns.length !== 1 || !match.where || (next?.kind !== 'with' && next?.kind !== 'return')) return clauses;
  const [part] = match.patterns;
  const node = part.nodes[0];
  const v = node.variable;
  if (v === undefined || part.relationships.length > 0 || part.pathVariable !== undefined) return clauses;
  const conditions = conjuncts(match.where);
  const predicates = conditions.filter((condition) => predicatePattern(condition) !== undefined);
  if (predicates.length !== 1 || conditions.some((condition) => [...variablesOf(condition)].some((name) => name !== v))) return clauses;
  const pattern = predicatePattern(predicates[0])!;
  const ends = [pattern.nodes[0], pattern.nodes[pattern.nodes.length - 1]];
  const at = ends[0].variable === v ? 0 : ends[1].variable === v ? pattern.nodes.length - 1 : -1;
  const inner = [...pattern.nodes.filter((_, i) => i !== at), ...pattern.relationships];
  const bare = (n: NodePattern) => n.labels.length === 0 && n.properties === undefined;
  if (at < 0 || !bare(pattern.nodes[at]) || pattern.pathVariable !== undefined || inner.some((element) => element.variable !== undefined)) return clauses;
  const counting = countingDistinct(next.projection, v);
  if (!counting) return clauses;
  const walked: Clause = {
    ...match,
    patterns: [{ ...pattern, nodes: pattern.nodes.map((n, i) => (i === at ? node : n)) }],
    where: conditions.filter((condition) => condition !== predicates[0]).reduce<Expr | undefined>(both, undefined),
  };
  return [walked, { ...next, projection: counting }, ...clauses.slice(2)];
}

/**
 * `WITH id(a) AS actor, count(c) AS n RETURN actor, n ORDER BY n DESC LIMIT 10` as `RETURN id(a) AS actor,
 * count(c) AS n ORDER BY n DESC LIMIT 10`: the RETURN hands on each name of the WITH once, under its own name, and
 * sorts by those names alone, so it keeps the WITH's groups and columns as they are.
 */
function groupsReturned(clauses: Clause[], at: number): Clause[] {
  const [withClause, returnClause] = clauses.slice(at, at + 2) as [Extract<Clause, { kind: 'with' }>, Extract<Clause, { kind: 'return' }>];
  const names = withClause.projection.items.map(projectedName);
  const read = returnClause.projection;
  const returned = read.items.map((item) => (item.expr.kind === 'var' && projectedName(item) === item.expr.name ? item.expr.name : undefined));
  const handsOn = returned.length === names.length && new Set(returned).size === names.length && names.every((name) => returned.includes(name));
  if (!handsOn || !sortsByOwnNames(read, names)) return clauses;
  const items = returned.map((name) => withClause.projection.items[names.indexOf(name!)]);
  return [...clauses.slice(0, at), { ...returnClause, projection: { ...read, items } }, ...clauses.slice(at + 2)];
}

/**
 * `WITH DISTINCT x AS n, y AS m RETURN m, n ORDER BY n LIMIT 10` as `RETURN DISTINCT y AS m, x AS n ORDER BY n LIMIT
 * 10`: where the WITH only makes its rows distinct (no aggregate, WHERE, sort or page) and the RETURN names each of
 * its names once, as they are, and nothing else, the RETURN's rows are the WITH's distinct rows, the same expressions
 * evaluated on the same rows. Not where the RETURN's ORDER BY reads another name: after the WITH it sees the WITH's
 * names alone (another is undefined), after RETURN DISTINCT it would see the names before it too.
 */
function distinctWithAsReturn(clauses: Clause[]): Clause[] {
  const [withClause, last] = clauses.slice(-2);
  if (withClause?.kind !== 'with' || last?.kind !== 'return') return clauses;
  const { projection } = withClause;
  const read = last.projection;
  if (!projection.distinct || withClause.where || projection.orderBy?.length || projection.skip || projection.limit || projection.star || read.star || read.distinct) return clauses;
  if (projection.items.some((item) => containsAggregate(item.expr))) return clauses;
  const values = new Map(projection.items.map((item) => [projectedName(item), item.expr]));
  const named = read.items.map((item) => (item.expr.kind === 'var' && projectedName(item) === item.expr.name ? item.expr.name : undefined));
  if (named.some((name) => name === undefined || !values.has(name)) || new Set(named).size !== values.size || named.length !== values.size) return clauses;
  // ORDER BY after the WITH sees its names alone; after RETURN DISTINCT it would also see the WITH's input
  if ((read.orderBy ?? []).some((sort) => [...variablesOf(sort.expr)].some((name) => !values.has(name)))) return clauses;
  const items = read.items.map((item, i) => ({ ...item, expr: values.get(named[i]!)!, alias: named[i] }));
  return [...clauses.slice(0, -2), { ...last, projection: { ...read, distinct: true, items } }];
}

/**
 * `MATCH … RETURN DISTINCT c.type AS type ORDER BY type` as `MATCH … WITH c.type AS type, count(*) AS ` distinct`
 * RETURN type ORDER BY type`: the distinct rows are the groups (both told apart by the same equivalence), so the
 * paths that count a MATCH's rows without making them find them. Right after a MATCH; not where the RETURN keeps a
 * page or a SKIP without sorting (DISTINCT stops reading rows once it has the page, and its first rows are the
 * scan's: the groups read every row, from the counted node), nor where its
 * ORDER BY reads more than its own names (the WITH hides the rest), nor where an item counts a pattern per row
 * (countsOfSubqueriesPerNode in plan.ts counts those for a projection that aggregates nothing), nor where the MATCH's
 * WHERE could fail. Only for keys of one node. Ties under ORDER BY … LIMIT may come in another order, as for the
 * grouped form written out.
 */
function distinctReturnAsGroups(clauses: Clause[], parameters: ReadonlySet<string>): Clause[] {
  const [match, last] = clauses.slice(-2);
  if (last?.kind !== 'return' || match?.kind !== 'match') return clauses;
  const { projection } = last;
  const names = projection.items.map(projectedName);
  const sorted = (projection.orderBy?.length ?? 0) > 0;
  if (!projection.distinct || projection.star || ((projection.limit || projection.skip) && !sorted) || new Set(names).size !== names.length || names.includes(HIDDEN_COUNT)) return clauses;
  // keys of one node (which the MATCH's rest is counted per), or of the two ends of the query's one MATCH of one
  // relationship (counted per pair, plan.ts countPerPair; keys of two nodes anywhere else have no counted path, and
  // the groups then cost more than DISTINCT's rows), each the node, a property, id(), type() or labels() of it: values
  // with no twin that the groups would keep in place of DISTINCT's (1 and 1.0, 0.0 and -0.0)
  const read = new Set<string>();
  for (const item of projection.items) variablesOf(item.expr, read);
  const counted = read.size === 1 || (read.size === 2 && clauses.length === 2 && [...read].every((name) => endsOfOneRelationship(match).includes(name)));
  if (!counted || !projection.items.every((item) => keyOfElement(item.expr)) || !sortsByOwnNames(projection, names)) return clauses;
  // the counted path may begin the MATCH at the node and evaluate its WHERE on rows no full match reaches
  if (match.where && !cannotFail(match.where, { ...elementsOf(match), parameters })) return clauses;
  const { pos } = projection;
  const groups: Clause = {
    kind: 'with', pos: last.pos,
    projection: {
      distinct: false, star: false, pos,
      items: [
        ...projection.items.map((item, i) => ({ ...item, alias: names[i] })),
        { expr: { kind: 'call', name: 'count', distinct: false, star: true, args: [], pos }, alias: HIDDEN_COUNT, text: HIDDEN_COUNT, pos },
      ],
    },
  };
  const rows: Clause = { ...last, projection: { ...projection, distinct: false, items: projection.items.map((item, i) => ({ expr: { kind: 'var', name: names[i], pos: item.pos }, text: names[i], pos: item.pos })) } };
  return [...clauses.slice(0, -1), groups, rows];
}

/** The count distinctReturnAsGroups adds and drops: a name a user can write only between backticks. */
const HIDDEN_COUNT = ' distinct';

/** The names of the two different nodes a MATCH of one directed, single-hop relationship joins; none for any other MATCH. */
function endsOfOneRelationship(match: MatchClause): string[] {
  const [part, ...others] = match.patterns;
  if (others.length > 0 || part.pathVariable !== undefined || part.relationships.length !== 1) return [];
  const [rel] = part.relationships;
  const [from, to] = part.nodes.map((node) => node.variable);
  return rel.range || rel.direction === 'both' || from === undefined || to === undefined || from === to ? [] : [from, to];
}

/** A variable, or a property, id(), type() or labels() of one. */
function keyOfElement(expr: Expr): boolean {
  const of = ['id', 'type', 'labels'].map((fn) => argumentOf(expr, fn)).find((arg) => arg !== undefined) ?? (expr.kind === 'prop' ? expr.target : expr);
  return of.kind === 'var';
}

/**
 * Whether a projection's ORDER BY reads only `names` (the projected ones, after a rewrite the only ones in scope) and
 * no aggregate: one written beside a projection that aggregates nothing is refused, and must stay so once the
 * rewritten projection aggregates.
 */
function sortsByOwnNames(projection: Projection, names: readonly string[]): boolean {
  return (projection.orderBy ?? []).every((sort) => !bindsNames(sort.expr) && !containsAggregate(sort.expr) && [...variablesOf(sort.expr)].every((name) => names.includes(name)));
}

/**
 * Whether `expr` counts or collects a pattern from nodes of a MATCH (the query's first clause: its names are all
 * the names in scope) and cannot fail: `COUNT { }`, `EXISTS { }` (neither with RETURN), a pattern predicate, a
 * pattern comprehension that maps to a literal or a node of its own, or `size()` of one; no WHERE, property maps of
 * literals, one-hop relationships without names (a variable-length one may reach the traversal limit), and every
 * name the pattern shares with the MATCH one of its nodes (a null one, from OPTIONAL MATCH, matches nothing).
 */
function countedFromNodes(expr: Expr, matched: ReadonlySet<string>, nodes: ReadonlySet<string>): boolean {
  const of = argumentOf(expr, 'size');
  const target = of?.kind === 'patternComprehension' ? of : expr;
  const pattern = target.kind === 'patternComprehension' || target.kind === 'pattern' || (target.kind === 'patternSubquery' && !target.returns) ? target.pattern : undefined;
  if (!pattern || ('where' in target && target.where) || pattern.pathVariable !== undefined || !literalMaps(pattern)) return false;
  if (pattern.relationships.some((rel) => rel.range || rel.variable !== undefined)) return false;
  const own = new Set(pattern.nodes.flatMap((node) => (node.variable && !matched.has(node.variable) ? [node.variable] : [])));
  const shared = pattern.nodes.flatMap((node) => (node.variable && matched.has(node.variable) ? [node.variable] : []));
  if (shared.length === 0 || !shared.every((name) => nodes.has(name))) return false;
  return target.kind !== 'patternComprehension' || target.map.kind === 'literal' || (target.map.kind === 'var' && own.has(target.map.name));
}

/**
 * `MATCH … WITH a, c WHERE <p> …` as `MATCH … WHERE <p> WITH a, c …`: the WITH passes on nodes and relationships of the
 * MATCH (not optional) under their own names, and p reads only the MATCH's names and cannot fail, so it keeps the
 * same rows wherever the MATCH evaluates it.
 */
function whereOfPassingWith(clauses: Clause[], parameters: ReadonlySet<string>): Clause[] {
  const result = [...clauses];
  for (let i = 0; i + 1 < result.length; i++) {
    const [match, withClause] = [result[i], result[i + 1]];
    if (match.kind !== 'match' || withClause.kind !== 'with' || !passedOnWhere(match, withClause, parameters)) continue;
    const { where, ...passing } = withClause;
    result[i] = { ...match, where: both(match.where, where) };
    result[i + 1] = passing;
  }
  return result;
}

/** Whether the WITH's WHERE may be the MATCH's (whereOfPassingWith). */
function passedOnWhere(match: MatchClause, withClause: Extract<Clause, { kind: 'with' }>, parameters: ReadonlySet<string>): boolean {
  const { projection, where } = withClause;
  if (!where || match.optional || projection.distinct || !asTheyCome(projection)) return false;
  const matched = namedBy(match);
  if (!projection.items.every((item) => item.expr.kind === 'var' && matched.has(item.expr.name) && projectedName(item) === item.expr.name)) return false;
  // a WITH's WHERE also sees the names bound before it (openCypher's WithWhere7)
  return [...variablesOf(where)].every((name) => matched.has(name)) && cannotFail(where, { ...elementsOf(match), parameters });
}

/**
 * Whether a condition never raises an error, its names being the MATCH's elements: comparisons of literals,
 * parameters the query is given, those names, and properties of nodes and one-hop relationships (a comparison of
 * unlike values is null), label tests of nodes and null tests, joined by AND, OR, XOR or NOT (of such conditions:
 * true, false or null). Not `=~` (a pattern may be invalid); not a property of a variable-length relationship (a
 * list), a label test of a relationship, or a parameter not given, each of which fails.
 */
function cannotFail(expr: Expr, scope: { nodes: Set<string>; relationships: Set<string>; parameters: ReadonlySet<string> }): boolean {
  const { nodes, relationships, parameters } = scope;
  const operand = (e: Expr): boolean =>
    e.kind === 'literal' || e.kind === 'var' || (e.kind === 'param' && parameters.has(e.name)) ||
    (e.kind === 'prop' && e.target.kind === 'var' && (nodes.has(e.target.name) || relationships.has(e.target.name)));
  switch (expr.kind) {
    case 'binary':
      if (expr.op === 'AND' || expr.op === 'OR' || expr.op === 'XOR') return cannotFail(expr.left, scope) && cannotFail(expr.right, scope);
      if (['=', '<>', '<', '>', '<=', '>=', 'STARTS WITH', 'ENDS WITH', 'CONTAINS'].includes(expr.op)) return operand(expr.left) && operand(expr.right);
      return expr.op === 'IN' && operand(expr.left) && expr.right.kind === 'list' && expr.right.items.every((item) => item.kind === 'literal');
    case 'unary':
      return expr.op === 'NOT' && cannotFail(expr.operand, scope);
    case 'isNull':
      return operand(expr.operand);
    case 'labels':
      return expr.target.kind === 'var' && nodes.has(expr.target.name);
    default:
      return false;
  }
}

/**
 * `MATCH … WITH DISTINCT c RETURN c.type, count(*)` as `MATCH … RETURN c.type, count(DISTINCT c)`: after a
 * MATCH (not optional, so c is never null) that names c, the rows of c's distinct nodes, counted.
 */
function distinctWithAsCount(clauses: Clause[]): Clause[] {
  const at = clauses.findIndex((clause, i) => clause.kind === 'with' && clause.projection.distinct && i > 0 && clauses[i + 1] !== undefined);
  if (at < 0) return clauses;
  const [match, withClause, next] = clauses.slice(at - 1, at + 2);
  if (match.kind !== 'match' || match.optional || withClause.kind !== 'with' || (next.kind !== 'with' && next.kind !== 'return')) return clauses;
  const { projection } = withClause;
  if (!asTheyCome(projection) || withClause.where) return clauses;
  if (projection.items.length > 1) return distinctKeysAsCount(clauses, at, match, withClause, next);
  const [item] = projection.items;
  const v = item.expr.kind === 'var' ? item.expr.name : undefined;
  if (v === undefined || projectedName(item) !== v || !namedBy(match).has(v)) return clauses;
  const counting = countingDistinct(next.projection, v);
  return counting ? [...clauses.slice(0, at), { ...next, projection: counting }, ...clauses.slice(at + 2)] : clauses;
}

/**
 * `MATCH … WITH DISTINCT k1, …, v RETURN k1, …, count(*)` as `MATCH … WITH k1, …, v RETURN k1, …, count(DISTINCT
 * v)`: v is a node or relationship of the MATCH (never null), the RETURN groups by every other name, each written
 * bare (other keys may read only those names and v), and counts v's rows; the distinct rows of one group are then
 * its distinct v.
 */
function distinctKeysAsCount(clauses: Clause[], at: number, match: MatchClause, withClause: Extract<Clause, { kind: 'with' }>, next: Extract<Clause, { kind: 'with' | 'return' }>): Clause[] {
  const { projection } = withClause;
  const read = next.projection;
  if (next.kind !== 'return' || read.star || read.distinct) return clauses;
  const names = projection.items.map(projectedName);
  const keyNames = new Set(read.items.flatMap((item) => (!containsAggregate(item.expr) && item.expr.kind === 'var' ? [item.expr.name] : [])));
  const counted = projection.items.filter((item) => !keyNames.has(projectedName(item)));
  if (counted.length !== 1 || ![...keyNames].every((name) => names.includes(name)) || new Set(names).size !== names.length) return clauses;
  const [item] = counted;
  const v = item.expr.kind === 'var' ? item.expr.name : undefined;
  if (v === undefined || projectedName(item) !== v || !namedBy(match).has(v)) return clauses;
  const counting = countingDistinct(read, v, keyNames);
  if (!counting) return clauses;
  return [...clauses.slice(0, at), { ...withClause, projection: { ...projection, distinct: false } }, { ...next, projection: counting }, ...clauses.slice(at + 2)];
}

/**
 * `count(id(n))` and `count(DISTINCT id(n))` as `count(n)` and `count(DISTINCT n)` in the WITH or RETURN right after
 * a MATCH that names n: its node or one-hop relationship (or null, where the MATCH is optional), whose id never
 * fails (a variable-length relationship's, a list's, does).
 */
function idsCountedAsElements(clauses: Clause[]): Clause[] {
  return clauses.map((clause, i) => {
    const match = clauses[i - 1];
    if ((clause.kind !== 'with' && clause.kind !== 'return') || match?.kind !== 'match') return clause;
    const { nodes, relationships } = elementsOf(match);
    const idCounted = (expr: Expr): Expr | undefined => {
      const counted = argumentOf(expr, 'count');
      const target = counted && argumentOf(counted, 'id');
      return target?.kind === 'var' && (nodes.has(target.name) || relationships.has(target.name)) ? { ...(expr as Extract<Expr, { kind: 'call' }>), args: [target] } : undefined;
    };
    return rewriteClause(clause, idCounted);
  });
}

/**
 * `MATCH p = (a)-->(c) RETURN a, count(p)` as `MATCH (a)-->(c) RETURN a, count(*)`: a MATCH that is not optional
 * binds no null path, so its paths counted are its rows; only where the query reads p nowhere else, so that the
 * path need not be built.
 */
function pathsCountedAsRows(clauses: Clause[]): Clause[] {
  const result = [...clauses];
  for (let i = 0; i + 1 < result.length; i++) {
    const [match, next] = [result[i], result[i + 1]];
    if (match.kind !== 'match' || match.optional || (next.kind !== 'with' && next.kind !== 'return') || next.projection.star) continue;
    for (const path of match.patterns.flatMap((part) => (part.pathVariable ? [part.pathVariable] : []))) {
      // bound elsewhere too, the query is refused as written (the name bound twice): left to say so
      if (bindings(result, path) !== 1) continue;
      let counted = 0;
      const rowCount = (expr: Expr): Expr | undefined => {
        const of = argumentOf(expr, 'count');
        if (of?.kind !== 'var' || of.name !== path || (expr as Extract<Expr, { kind: 'call' }>).distinct) return undefined;
        counted++;
        return { ...(expr as Extract<Expr, { kind: 'call' }>), star: true, args: [] };
      };
      const rewritten = rewriteClause(result[i + 1] as typeof next, rowCount);
      const current = result[i] as MatchClause;
      if (counted === 0 || counted !== occurrences([current.where, current.patterns, result.slice(i + 1)], path)) continue;
      const unnamed = ({ pathVariable: _, ...part }: PatternPart): PatternPart => part;
      result[i] = { ...current, patterns: current.patterns.map((part) => (part.pathVariable === path ? unnamed(part) : part)) };
      result[i + 1] = rewritten;
    }
  }
  return result;
}

/**
 * `WITH <keys>, collect(x) AS xs [WHERE …] RETURN …` where every read of xs (in the WITH's WHERE and ORDER BY,
 * and in the clause after it) is `size(xs)`: the list as `count(x)` (DISTINCT kept; both leave nulls out), each
 * `size(xs)` as xs. Not where the clause after passes xs on whole (`*`), or the WITH is DISTINCT.
 */
function collectedSizesAsCounts(clauses: Clause[]): Clause[] {
  const result = [...clauses];
  for (let i = 0; i + 1 < result.length; i++) {
    const [clause, next] = [result[i], result[i + 1]];
    if (clause.kind !== 'with' || clause.projection.distinct || (next.kind !== 'with' && next.kind !== 'return') || next.projection.star) continue;
    for (const item of clause.projection.items) {
      const list = item.expr;
      if (item.alias === undefined || !argumentOf(list, 'collect')) continue;
      const xs = item.alias;
      const current = result[i] as typeof clause;
      const after = result[i + 1] as typeof next;
      // the reads that may see xs: the WITH's own WHERE and ORDER BY, and the clause after it whole
      const reads = [current.where, current.projection.orderBy, after];
      let sizes = 0;
      const sizeAsCount = (expr: Expr): Expr | undefined => {
        const of = argumentOf(expr, 'size');
        if (of?.kind !== 'var' || of.name !== xs) return undefined;
        sizes++;
        return of;
      };
      const rewritten = {
        where: current.where && rewrite(current.where, sizeAsCount),
        orderBy: current.projection.orderBy?.map((sort) => ({ ...sort, expr: rewrite(sort.expr, sizeAsCount) })),
        after: rewriteClause(after, sizeAsCount),
      };
      if (sizes === 0 || sizes !== occurrences(reads, xs)) continue;
      const items = current.projection.items.map((other) => (other === item ? { ...item, expr: { ...(list as Extract<Expr, { kind: 'call' }>), name: 'count' } } : other));
      result[i] = { ...current, projection: { ...current.projection, items, ...(rewritten.orderBy ? { orderBy: rewritten.orderBy } : {}) }, ...(rewritten.where ? { where: rewritten.where } : {}) };
      result[i + 1] = rewritten.after;
    }
  }
  return result;
}

/** A WITH or RETURN with `by` applied to its projection and WHERE, each changed item keeping its column name. */
function rewriteClause<C extends Extract<Clause, { kind: 'with' | 'return' }>>(clause: C, by: (expr: Expr) => Expr | undefined): C {
  const { projection } = clause;
  const items = projection.items.map((item) => withExpr(item, rewrite(item.expr, by)));
  const orderBy = projection.orderBy && { orderBy: projection.orderBy.map((sort) => ({ ...sort, expr: rewrite(sort.expr, by) })) };
  const where = clause.kind === 'with' && clause.where ? { where: rewrite(clause.where, by) } : {};
  return { ...clause, projection: { ...projection, items, ...orderBy }, ...where };
}

/** How many times `name` is bound anywhere in `value`: a pattern's element or path, an alias (WITH, RETURN, UNWIND). */
function bindings(value: unknown, name: string): number {
  return tally(value, (node) => (node.variable === name ? 1 : 0) + (node.pathVariable === name ? 1 : 0) + (node.alias === name ? 1 : 0));
}

/** How many times `name` is read as a variable anywhere in `value` (inside comprehensions and patterns' expressions too). */
function occurrences(value: unknown, name: string): number {
  return tally(value, (node) => (node.kind === 'var' && node.name === name ? 1 : 0));
}

/** The sum of `count` over every object in `value`, however deep (clauses' syntax trees, walked whole). */
function tally(value: unknown, count: (node: Record<string, unknown>) => number): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + tally(item, count), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((sum: number, child) => sum + tally(child, count), count(value as Record<string, unknown>));
}

/**
 * A projection that counts the rows of `v` (`count(*)`, `count(v)`, `count(DISTINCT v)`) and reads nothing
 * but `v` and `keys` otherwise, with those counts as `count(DISTINCT v)`; undefined for any other projection.
 */
function countingDistinct(projection: Projection, v: string, keys: ReadonlySet<string> = new Set()): Projection | undefined {
  const counted = (expr: Expr) => expr.kind === 'call' && expr.name.toLowerCase() === 'count' && (isCountStar(expr) || (expr.args.length === 1 && expr.args[0].kind === 'var' && expr.args[0].name === v));
  const items = projection.items.map((item) => item.expr);
  if (projection.star || !items.some(containsAggregate) || !items.every((expr) => (containsAggregate(expr) ? counted(expr) : [...variablesOf(expr)].every((name) => name === v || keys.has(name))))) return undefined;
  if ((projection.orderBy ?? []).some((sort) => containsAggregate(sort.expr) && !counted(sort.expr))) return undefined;
  return mapProjection(projection, (expr) => (expr.kind === 'call' && counted(expr) ? { ...expr, distinct: true, star: false, args: [{ kind: 'var', name: v, pos: expr.pos }] } : undefined));
}

/** The pattern of a pattern predicate, or of EXISTS { } without WHERE; undefined for anything else. */
function predicatePattern(expr: Expr): PatternPart | undefined {
  if (expr.kind === 'pattern') return expr.pattern;
  return expr.kind === 'patternSubquery' && expr.quantity === 'exists' && !expr.where && !expr.returns ? expr.pattern : undefined;
}

/** The expressions that bind names of their own. */
const BINDING: ReadonlySet<Expr['kind']> = new Set(['comprehension', 'quantifier', 'pattern', 'patternComprehension', 'patternSubquery']);

/** Whether an expression binds names of its own (where a name read into it could mean something else). */
function bindsNames(expr: Expr): boolean {
  if (BINDING.has(expr.kind)) return true;
  let binds = false;
  forEachChild(expr, (child) => (binds ||= bindsNames(child)));
  return binds;
}

function mapProjection(projection: Projection, by: (expr: Expr) => Expr | undefined): Projection {
  return {
    ...projection,
    items: projection.items.map((item) => ({ ...item, expr: rewrite(item.expr, by) })),
    ...(projection.orderBy ? { orderBy: projection.orderBy.map((sort) => ({ ...sort, expr: rewrite(sort.expr, by) })) } : {}),
  };
}

/** `expr` with each sub-expression `by` answers for replaced, outermost first; inside an expression that binds names, nothing. */
function rewrite(expr: Expr, by: (expr: Expr) => Expr | undefined): Expr {
  const replaced = by(expr);
  if (replaced) return replaced;
  if (BINDING.has(expr.kind)) return expr;
  return mapChildren(expr, (child) => rewrite(child, by));
}
