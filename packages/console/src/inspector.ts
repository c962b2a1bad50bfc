// A node or edge as the server traces it: properties, every provenance record with its quote
// marked in the text it was read from, the corrections that touched it, and a form to correct it.
import { api } from './api.ts';
import { byId, clear, el, highlighted, show } from './dom.ts';
import type { Provenance } from './model.ts';

interface Correction {
  correction_id: string;
  op: string;
  reason: string;
  created_at: string;
  type?: string;
  previous_type?: string;
  undone_by?: string;
  undoes?: string;
}

interface Trace {
  retracted: boolean;
  aliases: string[];
  corrections: Correction[];
}

export interface NodeTrace extends Trace {
  node: { id: string; labels: string[]; properties: Record<string, unknown>; confidence: number; recorded_at: string; provenance?: Provenance };
}

export interface EdgeTrace extends Trace {
  edge: { id: string; type: string; from: string; to: string; properties: Record<string, unknown>; confidence: number; recorded_at: string; provenance?: Provenance };
}

export interface InspectorContext {
  graphId(): string;
  /** The relationship types the graph holds: retype's choices. */
  edgeTypes(): string[];
  /** Shows the node's neighbours (by one relationship type, or all; at most `limit`) as the query result. */
  expand(id: string, type: string | undefined, limit: number): void;
  /** After a correction: the views read the graph again. */
  corrected(message: string): void;
  failed(error: unknown): void;
}

/** How many neighbours an expansion shows unless asked, and at most (fewer than the 2,000 nodes bench/console.ts pans). */
const EXPAND_DEFAULT = 100;
const EXPAND_MAX = 1000;

const path = (graphId: string, what: 'nodes' | 'edges', id: string) => `/v1/graphs/${encodeURIComponent(graphId)}/${what}/${encodeURIComponent(id)}`;

export async function inspect(selection: { node: string } | { edge: string }, context: InspectorContext): Promise<void> {
  const panel = byId('inspector');
  clear(panel, el('p', { class: 'muted' }, 'Loading…'));
  try {
    if ('node' in selection) {
      const trace = await api<NodeTrace>('GET', path(context.graphId(), 'nodes', selection.node));
      const { node } = trace;
      const text = [node.properties.text, node.properties.label].find((value): value is string => typeof value === 'string');
      render(panel, trace, { id: node.id, heading: `${node.labels.join(':')} ${typeof node.properties.label === 'string' ? node.properties.label : node.id}`, properties: node.properties, confidence: node.confidence, recorded: node.recorded_at, provenance: node.provenance, text, isEdge: false }, context);
    } else {
      const trace = await api<EdgeTrace>('GET', path(context.graphId(), 'edges', selection.edge));
      const { edge } = trace;
      render(panel, trace, { id: edge.id, heading: `${edge.from} -[${edge.type}]-> ${edge.to}`, properties: { type: edge.type, from: edge.from, to: edge.to, ...edge.properties }, confidence: edge.confidence, recorded: edge.recorded_at, provenance: edge.provenance, text: undefined, isEdge: true }, context);
    }
  } catch (error) {
    clear(panel, el('p', { class: 'muted' }, 'Could not read this record.'));
    context.failed(error);
  }
}

interface Traced {
  id: string;
  heading: string;
  properties: Record<string, unknown>;
  confidence: number;
  recorded: string;
  provenance?: Provenance;
  /** The record's own text, where a quote is looked for (documents' bodies are not stored). */
  text: string | undefined;
  isEdge: boolean;
}

function render(panel: HTMLElement, trace: Trace, record: Traced, context: InspectorContext): void {
  const rows = Object.entries(record.properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => el('tr', {}, el('th', { scope: 'row' }, key), el('td', {}, show(value))));
  const sources = record.provenance?.sources ?? [];
  clear(
    panel,
    el('h3', {}, record.heading),
    trace.retracted ? el('p', { class: 'muted' }, 'Retracted: it has left every query, assess and export.') : null,
    el('table', { class: 'props', 'aria-label': 'Properties' }, el('tbody', {}, el('tr', {}, el('th', { scope: 'row' }, 'id'), el('td', {}, record.id)), ...rows, el('tr', {}, el('th', { scope: 'row' }, 'confidence'), el('td', {}, String(record.confidence))), el('tr', {}, el('th', { scope: 'row' }, 'recorded'), el('td', {}, record.recorded)))),
    trace.aliases.length > 0 ? el('p', {}, `Merged into it: ${trace.aliases.join(', ')}`) : null,
    el('h4', {}, `Provenance (${sources.length})`),
    sources.length === 0 ? el('p', { class: 'muted' }, 'No source recorded.') : null,
    ...sources.map((source) =>
      el(
        'div',
        { class: 'source' },
        el('div', { class: 'muted' }, [source.source ?? source.document_id ?? 'unknown source', source.timestamp, source.span ? `characters ${source.span.start}–${source.span.end}` : undefined, source.extractor].filter(Boolean).join(' · ')),
        source.quote ? el('blockquote', { class: 'quote' }, record.text && record.text.includes(source.quote) ? highlighted(record.text, source.quote) : el('mark', {}, source.quote)) : null,
      ),
    ),
    el('h4', {}, `Corrections (${trace.corrections.length})`),
    trace.corrections.length === 0 ? el('p', { class: 'muted' }, 'None.') : el('ul', {}, ...trace.corrections.map((correction) => el('li', {}, `${correction.created_at.slice(0, 16).replace('T', ' ')} ${correction.op}${correction.type ? ` → ${correction.type}` : ''}${correction.undone_by ? ' (undone)' : ''}: ${correction.reason}`))),
    trace.retracted || record.isEdge ? null : expandForm(record.id, context),
    trace.retracted ? null : correctionForm(record, context),
  );
}

function expandForm(id: string, context: InspectorContext): HTMLFormElement {
  const type = el('select', { 'aria-label': 'Relationship type to expand by' }, el('option', { value: '' }, 'any relationship'), ...context.edgeTypes().map((name) => el('option', { value: name }, name)));
  const limit = el('input', { type: 'number', min: '1', max: String(EXPAND_MAX), value: String(EXPAND_DEFAULT), required: '', 'aria-label': `At most this many neighbours (1 to ${EXPAND_MAX})`, title: 'at most' });
  const form = el('form', { class: 'expand-form', 'aria-label': 'Expand neighbours' }, type, limit, el('button', { type: 'submit' }, 'Expand neighbours'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    context.expand(id, type.value || undefined, Math.min(EXPAND_MAX, Math.max(1, Math.floor(Number(limit.value) || EXPAND_DEFAULT))));
  });
  return form;
}

function correctionForm(record: Traced, context: InspectorContext): HTMLFormElement {
  const ops = record.isEdge ? ['retract', 'retype', 'set'] : ['retract', 'merge', 'set'];
  const op = el('select', { id: 'correct-op', 'aria-label': 'Correction' }, ...ops.map((name) => el('option', { value: name }, name)));
  const types = el('select', { id: 'correct-type', 'aria-label': 'New relationship type' }, ...context.edgeTypes().map((type) => el('option', { value: type }, type)));
  const from = el('input', { id: 'correct-from', 'aria-label': 'Ids to merge into this node, comma-separated', placeholder: 'n_…, n_…' });
  const properties = el('textarea', { id: 'correct-properties', 'aria-label': 'Properties to set, as JSON', placeholder: '{"role": "mediator"}' });
  const reason = el('textarea', { id: 'correct-reason', 'aria-label': 'Reason for the correction', required: '' });
  const fields = {
    retype: el('label', {}, 'type'),
    merge: el('label', {}, 'merge'),
    set: el('label', {}, 'properties'),
  };
  const form = el(
    'form',
    { class: 'correct-form', 'aria-label': 'Correct this record' },
    el('label', { for: 'correct-op' }, 'correct'), op,
    fields.retype, types,
    fields.merge, from,
    fields.set, properties,
    el('label', { for: 'correct-reason' }, 'reason'), reason,
    el('button', { type: 'submit', id: 'correct-submit' }, 'Apply correction'),
  );
  const sync = () => {
    for (const [name, label] of Object.entries(fields)) {
      const input = { retype: types, merge: from, set: properties }[name as keyof typeof fields];
      label.hidden = input.hidden = op.value !== name;
    }
  };
  op.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let body: Record<string, unknown>;
    try {
      body = {
        retract: { op: 'retract', target: record.id },
        retype: { op: 'retype', edge: record.id, type: types.value },
        merge: { op: 'merge', into: record.id, from: from.value.split(',').map((id) => id.trim()).filter(Boolean) },
        set: { op: 'set', target: record.id, properties: JSON.parse(properties.value || '{}') as unknown },
      }[op.value]!;
    } catch {
      context.failed(new Error('the properties are not valid JSON'));
      return;
    }
    void api<{ correction_id: string; op: string }>('POST', `/v1/graphs/${encodeURIComponent(context.graphId())}/corrections`, { ...body, reason: reason.value }).then(
      (made) => context.corrected(`${made.op} of ${record.id} recorded (${made.correction_id}).`),
      (error: unknown) => context.failed(error),
    );
  });
  return form;
}
