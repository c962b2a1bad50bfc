/**
 * Warnings about a query against the graph's schema, as Neo4j gives them
 * (UnknownLabelWarning, UnknownRelationshipTypeWarning, UnknownPropertyKeyWarning): a
 * label or relationship type the graph holds none of, or a property key no node or edge
 * of it has ever held, matches nothing, and would otherwise answer 0 rows (or nulls)
 * without a word (a typo, or a kind the graph never had). Computed once per plan (index.ts
 * caches them with it, per schemaVersion, which changes when a label, type or key appears
 * or a label or type disappears), so a query pays nothing per row or per run.
 *
 * Property keys are checked where they are read of a node or relationship: a key of a
 * node or relationship pattern's map (`(a {nme: 'x'})`), and `v.key` where `v` is bound
 * by such a pattern; a key of a map the query builds itself is the query's own.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { Expr, Position, QueryAst } from './ast.ts';
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
export type GraphSchema = Pick<GraphIndex, 'labelCount' | 'edgeTypeCount' | 'hasHeldPropertyKey'>;

const WHAT_HOLDS: Record<QueryNotification['code'], string> = {
  unknown_label: 'node in this graph has the label',
  unknown_relationship_type: 'relationship in this graph has the type',
  unknown_property_key: 'node or relationship in this graph has ever held the property key',
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
  // the variables node and relationship patterns bind, wherever written: `v.key` reads a record's property only of those
  const recordVariables = new Set<string>();
  const bound = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(bound);
    if (value === null || typeof value !== 'object') return;
    const pattern = value as { variable?: unknown; labelsAt?: unknown; typesAt?: unknown };
    if (typeof pattern.variable === 'string' && (pattern.labelsAt || pattern.typesAt)) recordVariables.add(pattern.variable);
    for (const key in value) bound((value as Record<string, unknown>)[key]);
  };
  bound(ast.parts);
  const unknownKey = (key: string, position: Position) => !RECORD_FIELD_KEYS.has(key) && !graph.hasHeldPropertyKey(key) && warn('unknown_property_key', 'property key', key, position);
  // every node pattern, relationship pattern, label test and property read, wherever written (MATCH, WHERE, RETURN, pattern expressions, each UNION part)
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
    const expr = value as Expr;
    if (expr.kind === 'prop' && expr.target.kind === 'var' && recordVariables.has(expr.target.name)) unknownKey(expr.key, expr.keyAt);
    for (const key in value) if (key !== 'pos' && key !== 'labelsAt' && key !== 'typesAt' && key !== 'keyAt' && key !== 'keysAt') visit((value as Record<string, unknown>)[key]);
  };
  visit(ast.parts);
  notifications.sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
  return notifications;
}
