/**
 * Warnings about a query against the graph's schema, as Neo4j gives them
 * (UnknownLabelWarning, UnknownRelationshipTypeWarning): a label or relationship type
 * the graph holds none of matches nothing, and would otherwise answer 0 rows without a
 * word (a typo, or a kind the graph never had). Computed once per plan (index.ts caches
 * them with it, per schemaVersion, which changes when a label or type appears or
 * disappears), so a query pays nothing per row or per run.
 */
import type { GraphIndex } from '../store/graph-index.ts';
import type { Position, QueryAst } from './ast.ts';

export interface QueryNotification {
  code: 'unknown_label' | 'unknown_relationship_type';
  severity: 'warning';
  title: string;
  description: string;
  /** Where the name is written in the query text. */
  position: Position;
}

/** What the graph holds of each name a query may use. */
export type GraphSchema = Pick<GraphIndex, 'labelCount' | 'edgeTypeCount'>;

/** A warning per label and relationship type named in `ast` that no node or edge of `graph` has, in the order written. */
export function schemaNotifications(ast: QueryAst, graph: GraphSchema): QueryNotification[] {
  const notifications: QueryNotification[] = [];
  const warn = (code: QueryNotification['code'], kind: string, name: string, position: Position) =>
    notifications.push({
      code,
      severity: 'warning',
      title: `The ${kind} \`${name}\` is not in the graph`,
      description: `No ${kind === 'label' ? 'node in this graph has the label' : 'relationship in this graph has the type'} ${name}, so the part of the query naming it matches nothing: is it spelled as the graph spells it?`,
      position,
    });
  // every node pattern, relationship pattern and label test, wherever written (MATCH, WHERE, pattern expressions, each UNION part)
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const named = value as { labels?: string[]; labelsAt?: Position[]; types?: string[]; typesAt?: Position[] };
    named.labelsAt?.forEach((position, i) => graph.labelCount(named.labels![i]) === 0 && warn('unknown_label', 'label', named.labels![i], position));
    named.typesAt?.forEach((position, i) => graph.edgeTypeCount(named.types![i]) === 0 && warn('unknown_relationship_type', 'relationship type', named.types![i], position));
    for (const key in value) if (key !== 'pos' && key !== 'labelsAt' && key !== 'typesAt') visit((value as Record<string, unknown>)[key]);
  };
  visit(ast.parts);
  notifications.sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
  return notifications;
}
