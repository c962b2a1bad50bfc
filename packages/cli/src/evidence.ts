import type { Citation } from '@parley/client';

/** Evidence lines printed per command before "and N more (--json lists them all)". */
export const EVIDENCE_LINES = 12;

/** One cited id as a person checks it: the quote (or the record's label), its source and date. */
export function citationLine(citation: Citation): string {
  // an edge's label names its ends and type already; a node's is said with its kind
  const said = citation.quote ? `"${citation.quote.replace(/\s+/g, ' ').trim()}"` : citation.label.includes(citation.kind) ? citation.label : `${citation.kind} ${citation.label}`;
  const where = [citation.source, citation.timestamp?.slice(0, 10)].filter(Boolean).join(', ');
  return `[${citation.id}] ${said}${where ? ` (${where})` : ' (no source recorded)'}`;
}

/** The citations of the ids given, in their order, one line each, at most `limit`. */
export function evidenceLines(ids: string[], citations: Citation[], limit = EVIDENCE_LINES, indent = '  '): string[] {
  const byId = new Map(citations.map((citation) => [citation.id, citation]));
  const found = [...new Set(ids)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const lines = found.slice(0, limit).map((citation) => `${indent}${citationLine(citation)}`);
  if (found.length > limit) lines.push(`${indent}and ${found.length - limit} more (--json lists them all)`);
  return lines;
}

/** The ids an answer cites, in order: each sentence ends with them in brackets, "and N more" after the first few. */
export function idsCited(answer: string): string[] {
  return [...answer.matchAll(/\[([^\]]+)\]/g)].flatMap(([, list]) => list.replace(/ and \d+ more.*$/, '').split(', '));
}
