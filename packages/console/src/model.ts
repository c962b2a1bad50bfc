// What a query answer holds, as the views draw it and the exports write it. No DOM here: the
// exports are tested under Node (test/console/export.test.ts).

export interface Provenance {
  source: string;
  timestamp: string;
  sources: { source?: string; timestamp?: string; document_id?: string; span?: { start: number; end: number }; quote?: string; extractor?: string }[];
}

export interface QueryAnswer {
  actors: { id: string; label: string; role: string; confidence: number }[];
  claims: { id: string; type: string; text: string; status?: string }[];
  edges: { id: string; from: string; to: string; type: string; confidence: number }[];
  nodes: { id: string; kind: string; labels: string[]; properties: Record<string, unknown>; confidence: number; status?: string }[];
  columns: string[];
  rows: unknown[][];
  goal?: string;
  plan?: unknown;
  notifications?: { code: string; title: string; description: string; position: { line: number; column: number } }[];
}

export interface ShownNode {
  id: string;
  kind: string;
  label: string;
  properties: Record<string, unknown>;
  confidence: number;
}

export interface ShownEdge {
  id: string;
  from: string;
  to: string;
  type: string;
  confidence: number;
}

export interface Shown {
  nodes: ShownNode[];
  edges: ShownEdge[];
}

/** The name a node is drawn and listed by. */
export function nodeLabel(kind: string, properties: Record<string, unknown>, id: string): string {
  const text = (key: string) => (typeof properties[key] === 'string' && properties[key] !== '' ? (properties[key] as string) : undefined);
  if (kind === 'Claim') return `${text('type') ?? 'Claim'}: ${text('text') ?? id}`;
  return text('label') ?? text('title') ?? text('source') ?? text('event_type') ?? id;
}

/** Every node and edge an answer binds, each once, sorted by id (the same answer, the same picture). */
export function shownOf(answer: QueryAnswer): Shown {
  const nodes = new Map<string, ShownNode>();
  // `actors` carries label and role only; a node returned whole in the rows has every property (its actor_type, its aliases)
  const returned = new Map<string, Record<string, unknown>>();
  for (const row of answer.rows) {
    for (const cell of row) {
      const node = cell as { id?: unknown; labels?: unknown; properties?: unknown } | null;
      if (node && typeof node === 'object' && typeof node.id === 'string' && Array.isArray(node.labels) && node.properties && typeof node.properties === 'object') returned.set(node.id, node.properties as Record<string, unknown>);
    }
  }
  for (const actor of answer.actors) {
    const { id, confidence, ...properties } = actor;
    nodes.set(id, { id, kind: 'Actor', label: actor.label, properties: { ...returned.get(id), ...properties }, confidence });
  }
  for (const claim of answer.claims) {
    const { id, status: _computed, ...properties } = claim;
    nodes.set(id, { id, kind: 'Claim', label: nodeLabel('Claim', properties, id), properties, confidence: 1 });
  }
  for (const node of answer.nodes) nodes.set(node.id, { id: node.id, kind: node.kind, label: nodeLabel(node.kind, node.properties, node.id), properties: node.properties, confidence: node.confidence });
  const edges = answer.edges.filter((edge) => nodes.has(edge.from) && nodes.has(edge.to));
  const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { nodes: [...nodes.values()].sort(byId), edges: [...edges].sort(byId) };
}

// ---- exports ----------------------------------------------------------------------------

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR
 * first) gets a leading apostrophe: the texts come from documents someone else wrote.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** What is shown as CSV: the table when the query returned columns, otherwise nodes then edges. */
export function shownCsv(shown: Shown, answer?: Pick<QueryAnswer, 'columns' | 'rows'>): string {
  if (answer && answer.columns.length > 0) return csv(answer.columns, answer.rows);
  return (
    csv(['id', 'kind', 'label', 'confidence'], shown.nodes.map((node) => [node.id, node.kind, node.label, node.confidence])) +
    '\r\n' +
    csv(['id', 'type', 'from', 'to', 'confidence'], shown.edges.map((edge) => [edge.id, edge.type, edge.from, edge.to, edge.confidence]))
  );
}

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function graphMl(shown: Shown): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    '  <key id="kind" for="node" attr.name="kind" attr.type="string"/>',
    '  <key id="label" for="node" attr.name="label" attr.type="string"/>',
    '  <key id="type" for="edge" attr.name="type" attr.type="string"/>',
    '  <key id="confidence" for="all" attr.name="confidence" attr.type="double"/>',
    '  <graph id="parley" edgedefault="directed">',
  ];
  for (const node of shown.nodes) {
    lines.push(`    <node id="${xml(node.id)}"><data key="kind">${xml(node.kind)}</data><data key="label">${xml(node.label)}</data><data key="confidence">${node.confidence}</data></node>`);
  }
  for (const edge of shown.edges) {
    lines.push(`    <edge id="${xml(edge.id)}" source="${xml(edge.from)}" target="${xml(edge.to)}"><data key="type">${xml(edge.type)}</data><data key="confidence">${edge.confidence}</data></edge>`);
  }
  lines.push('  </graph>', '</graphml>');
  return lines.join('\n') + '\n';
}

/** JSON Lines in import's record format: one {"node": …} or {"edge": …} per line. */
export function jsonLines(shown: Shown): string {
  const lines = [
    ...shown.nodes.map((node) => JSON.stringify({ node: { kind: node.kind, id: node.id, ...node.properties, confidence: node.confidence } })),
    ...shown.edges.map((edge) => JSON.stringify({ edge: { type: edge.type, id: edge.id, from: edge.from, to: edge.to, confidence: edge.confidence } })),
  ];
  return lines.map((line) => `${line}\n`).join('');
}
