/**
 * Warnings about a query against the graph's schema, as Neo4j gives them
 * (UnknownLabelWarning, UnknownRelationshipTypeWarning, UnknownPropertyKeyWarning): a
 * label or relationship type the graph holds none of, or a property key no node or edge
 * of it has held since it was loaded, matches nothing, and would otherwise answer 0 rows
 * (or nulls) without a word (a typo, or a kind the graph never had). Computed once per plan (index.ts
 * caches them with it, per schemaVersion, which changes when a label, type or key appears
 * or a label or type disappears), so a query pays nothing per row or per run.
 *
 * Property keys are checked where they are read of a node or relationship: a key of a
 * node or relationship pattern's map (`(a {nme: 'x'})`), and `v.key` where `v` is bound
 * by such a pattern; a key of a map the query builds itself is the query's own.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import { WHERE_WRITTEN, type Expr, type PatternPart, type Position, type Projection, type QueryAst, type SingleQuery } from './ast.ts';
import { RECORD_FIELD_KEYS } from './values.ts';

export interface QueryNotification {
  code: 'unknown_label' | 'unknown_relationship_type' | 'unknown_property_key';
  severity: 'warning';
  title: string;
  description: string;
  /** Where the name is written in the query text. */
  position: Position;
}

/** What the graph holds of each name a query may use. */
type GraphSchema = Pick<GraphIndex, 'labelCount' | 'edgeTypeCount' | 'hasHeldPropertyKey'>;

const WHAT_HOLDS: Record<QueryNotification['code'], string> = {
  unknown_label: 'node in this graph has the label',
  unknown_relationship_type: 'relationship in this graph has the type',
  unknown_property_key: 'node or relationship in this graph has held the property key',
};

/** A warning per label, relationship type and property key named in `ast` that no node or edge of `graph` has, in the order written. */
export function schemaNotifications(ast: QueryAst, graph: GraphSchema): QueryNotification[] {
  const notifications: QueryNotification[] = [];
  const warn = (code: QueryNotification['code'], kind: string, name: string, position: Position) =>
    notifications.push({
      code,
      severity: 'warning',
      title: `The ${kind} \`${name}\` is not in the graph`,
      description: `No ${WHAT_HOLDS[code]} ${name}, so the part of the query naming it matches nothing: is it spelled as the graph spells it?`,
      position,
    });
  const unknownKey = (key: string, position: Position) => !RECORD_FIELD_KEYS.has(key) && !graph.hasHeldPropertyKey(key) && warn('unknown_property_key', 'property key', key, position);
  // every node pattern, relationship pattern and label test, wherever written (MATCH, WHERE, pattern expressions, each UNION part)
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const named = value as { labels?: string[]; labelsAt?: Position[]; types?: string[]; typesAt?: Position[]; properties?: Expr };
    named.labelsAt?.forEach((position, i) => graph.labelCount(named.labels![i]) === 0 && warn('unknown_label', 'label', named.labels![i], position));
    named.typesAt?.forEach((position, i) => graph.edgeTypeCount(named.types![i]) === 0 && warn('unknown_relationship_type', 'relationship type', named.types![i], position));
    if ((named.labelsAt || named.typesAt) && named.properties?.kind === 'map') {
      const { entries, keysAt } = named.properties;
      entries.forEach(([key], i) => unknownKey(key, keysAt[i]));
    }
    for (const key in value) if (!WHERE_WRITTEN.has(key)) visit((value as Record<string, unknown>)[key]);
  };
  visit(ast.parts);
  for (const part of ast.parts) recordPropertyReads(part, unknownKey);
  notifications.sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
  return notifications;
}

/**
 * Calls `read` for each `v.key` where `v` is, in that place, a node or relationship: bound by
 * a pattern in scope and not rebound since (WITH or RETURN ... AS v, UNWIND ... AS v, a list
 * comprehension or quantifier over v). Other reads are of maps the query builds: their keys
 * are the query's own.
 */
function recordPropertyReads(part: SingleQuery, read: (key: string, at: Position) => void): void {
  const walk = (value: unknown, records: ReadonlySet<string>): void => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, records));
    if (value === null || typeof value !== 'object') return;
    const expr = value as Expr;
    if (expr.kind === 'prop' && expr.target.kind === 'var' && records.has(expr.target.name)) read(expr.key, expr.keyAt);
    if (expr.kind === 'comprehension' || expr.kind === 'quantifier') {
      walk(expr.source, records);
      walk([expr.where, expr.kind === 'comprehension' ? expr.map : undefined], without(records, expr.variable));
      return;
    }
    const inner = expr.kind === 'pattern' || expr.kind === 'patternComprehension' || expr.kind === 'patternSubquery' ? boundBy([expr.pattern], records) : records;
    for (const key in value) if (!WHERE_WRITTEN.has(key)) walk((value as Record<string, unknown>)[key], inner);
  };
  let records: ReadonlySet<string> = new Set();
  for (const clause of part.clauses) {
    switch (clause.kind) {
      case 'match':
      case 'create':
        records = boundBy(clause.patterns, records);
        walk(clause, records);
        break;
      case 'unwind':
        walk(clause.expr, records);
        records = without(records, clause.alias);
        break;
      case 'with':
      case 'return': {
        const { items, orderBy, skip, limit } = clause.projection;
        walk(items, records);
        records = projected(clause.projection, records);
        walk([orderBy, skip, limit, clause.kind === 'with' ? clause.where : undefined], records);
        break;
      }
      case 'write':
        break;
    }
  }
}

/** `records` and the variables the node and relationship patterns of `patterns` bind. */
function boundBy(patterns: readonly PatternPart[], records: ReadonlySet<string>): ReadonlySet<string> {
  const next = new Set(records);
  for (const pattern of patterns) for (const element of [...pattern.nodes, ...pattern.relationships]) if (element.variable) next.add(element.variable);
  return next;
}

function without(records: ReadonlySet<string>, variable: string): ReadonlySet<string> {
  if (!records.has(variable)) return records;
  const next = new Set(records);
  next.delete(variable);
  return next;
}

/** What a WITH or RETURN leaves in scope: the names it projects a node or relationship variable to. */
function projected(projection: Projection, records: ReadonlySet<string>): ReadonlySet<string> {
  const next = new Set(projection.star ? records : []);
  for (const item of projection.items) {
    const name = item.alias ?? (item.expr.kind === 'var' ? item.expr.name : undefined);
    if (name === undefined) continue;
    if (item.expr.kind === 'var' && records.has(item.expr.name)) next.add(name);
    else next.delete(name);
  }
  return next;
}
