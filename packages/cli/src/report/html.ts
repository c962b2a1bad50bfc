import type { CorpusReport } from './corpus-report.ts';
import { conclusionsOf } from '@parley/engine/reason/tasks.ts';
import { GLASL_STAGES, KRIESBERG_PHASES, type EscalationPoint } from './escalation.ts';

/**
 * report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched)
 * so it opens offline and can be mailed as a file. Every chart is an <svg data-chart>
 * whose drawn marks carry class "mark": the number a reader (or a test) can check
 * against report.json.
 */

const escape = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
/** Actor types: no red or green, which mark opposition and alliance. */
const TYPE_PALETTE = ['#1f77b4', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const colourOf = (key: string, keys: string[], palette = PALETTE) => palette[Math.max(0, keys.indexOf(key)) % palette.length];
const round = (value: number) => Math.round(value * 10) / 10;

/** How many marks each chart draws, from the report alone: what the page must show. */
export function expectedMarks(report: CorpusReport): Record<string, number> {
  return {
    network: report.network.nodes.length + report.network.edges.length,
    events: report.events_by_month.filter((month) => month.count > 0).length,
    ...escalationMarks('escalation', report.escalation),
    ...Object.assign({}, ...report.conflicts.map((conflict) => escalationMarks(`escalation-${conflict.id}`, conflict.escalation))),
    fit: report.assessment.length,
    claims: report.claim_types.length,
  };
}

/** The escalation chart's marks (a stage and a phase per period that has them), keyed by its id when it draws any. */
function escalationMarks(id: string, rows: EscalationPoint[]): Record<string, number> {
  const marks = rows.filter((row) => row.stage !== undefined).length + rows.filter((row) => row.phase !== undefined).length;
  return marks > 0 ? { [id]: marks } : {};
}

function empty(id: string, message: string): string {
  return `<p class="empty" data-chart-empty="${id}">${escape(message)}</p>`;
}

/** Horizontal bars, one per item, with its label and value. */
function barChart(id: string, title: string, items: { label: string; value: number; colour?: string }[], format = (value: number) => String(value)): string {
  if (items.length === 0) return empty(id, `${title}: nothing found`);
  const rowHeight = 22;
  // the longest label whole (framework names run to 40 characters), the value after the longest bar
  const labelWidth = Math.ceil(Math.max(...items.map((item) => textWidth(item.label, CHART_FONT_PX)))) + 12;
  const width = labelWidth + 450;
  const max = Math.max(...items.map((item) => item.value), 1e-9);
  const bars = items.map((item, index) => {
    const y = index * rowHeight + 4;
    const length = Math.max(2, ((width - labelWidth - 60) * item.value) / max);
    return `<text x="${labelWidth - 6}" y="${y + 14}" text-anchor="end">${escape(item.label)}</text>`
      + `<rect class="mark" x="${labelWidth}" y="${y}" width="${round(length)}" height="${rowHeight - 6}" fill="${item.colour ?? PALETTE[0]}"><title>${escape(item.label)}: ${escape(format(item.value))}</title></rect>`
      + `<text x="${round(labelWidth + length + 4)}" y="${y + 14}">${escape(format(item.value))}</text>`;
  });
  return `<svg data-chart="${id}" role="img" aria-label="${escape(title)}" viewBox="0 0 ${width} ${items.length * rowHeight + 8}" width="${width}">${bars.join('')}</svg>`;
}

/** Events per month: vertical bars over every month between the first and the last event. */
function eventsChart(report: CorpusReport): string {
  const months = report.events_by_month;
  if (months.length === 0) return empty('events', 'No dated events found');
  const width = 760;
  const height = 220;
  const left = 36;
  const bottom = 40;
  const step = (width - left - 10) / months.length;
  const max = Math.max(...months.map((month) => month.count));
  const scale = (height - bottom - 10) / max;
  const axis = `<line x1="${left}" y1="${height - bottom}" x2="${width - 6}" y2="${height - bottom}" stroke="#444"/>`
    + `<text x="${left - 6}" y="${height - bottom}" text-anchor="end">0</text><text x="${left - 6}" y="16" text-anchor="end">${max}</text>`;
  // the whole month (2024-03), on every k-th bar so that no label overlaps the next
  const every = Math.max(1, Math.ceil((textWidth('0000-00', CHART_SMALL_FONT_PX) + 8) / step));
  const bars = months.map((month, index) => {
    const x = left + index * step + 2;
    const label = index % every === 0 ? `<text x="${round(x + step / 2 - 2)}" y="${height - bottom + 14}" text-anchor="middle" class="small tick">${escape(month.month)}</text>` : '';
    if (month.count === 0) return label;
    const barHeight = month.count * scale;
    const types = Object.entries(month.by_type).sort((a, b) => b[1] - a[1]).map(([type, count]) => `${type} ${count}`).join(', ');
    return `<rect class="mark" x="${round(x)}" y="${round(height - bottom - barHeight)}" width="${round(Math.max(2, step - 4))}" height="${round(barHeight)}" fill="${PALETTE[3]}"><title>${escape(month.month)}: ${month.count} events (${escape(types)})</title></rect>${label}`;
  });
  return `<svg data-chart="events" role="img" aria-label="Events per month" viewBox="0 0 ${width} ${height}" width="${width}">${axis}${bars.join('')}</svg>`;
}

/** The actor network on a circle: red lines oppose, green lines ally; node colour by actor type. */
function networkChart(report: CorpusReport): string {
  const { nodes, edges } = report.network;
  if (nodes.length === 0) return empty('network', 'No opposition or alliance between actors found');
  // an ellipse wide enough for the longest name whole on either side, however long ("Armed Forces of the Democratic Republic of the Congo")
  const longest = Math.max(...nodes.map((node) => textWidth(node.label, CHART_SMALL_FONT_PX)));
  const height = 600;
  const radiusY = height / 2 - 40;
  const radiusX = Math.max(radiusY, 900 / 2 - longest - 24);
  const width = Math.ceil(2 * (radiusX + longest + 24));
  const types = [...new Set(nodes.map((node) => node.actor_type ?? 'unknown'))].sort();
  const position = new Map(nodes.map((node, index) => {
    const angle = (2 * Math.PI * index) / nodes.length - Math.PI / 2;
    return [node.id, { x: width / 2 + radiusX * Math.cos(angle), y: height / 2 + radiusY * Math.sin(angle), angle }];
  }));
  const lines = edges.map((edge) => {
    const a = position.get(edge.from)!;
    const b = position.get(edge.to)!;
    const colour = edge.type === 'OPPOSES' ? '#d62728' : '#2ca02c';
    return `<line class="mark" x1="${round(a.x)}" y1="${round(a.y)}" x2="${round(b.x)}" y2="${round(b.y)}" stroke="${colour}" stroke-width="1.6" stroke-opacity="0.7"><title>${escape(edge.type === 'OPPOSES' ? 'opposes' : 'allied with')}</title></line>`;
  });
  const circles = nodes.map((node) => {
    const { x, y, angle } = position.get(node.id)!;
    const right = Math.cos(angle) >= 0;
    const lx = x + (right ? 9 : -9);
    return `<circle class="mark" cx="${round(x)}" cy="${round(y)}" r="6" fill="${colourOf(node.actor_type ?? 'unknown', types, TYPE_PALETTE)}"><title>${escape(node.label)} (${escape(node.actor_type ?? 'unknown')})</title></circle>`
      + `<text x="${round(lx)}" y="${round(y + 4)}" text-anchor="${right ? 'start' : 'end'}" class="small">${escape(node.label)}</text>`;
  });
  const legend = [['#d62728', 'opposes'], ['#2ca02c', 'allied with'], ...types.map((type) => [colourOf(type, types, TYPE_PALETTE), type])]
    .map(([colour, name], index) => `<rect x="8" y="${8 + index * 16}" width="10" height="10" fill="${colour}"/><text x="24" y="${17 + index * 16}" class="small">${escape(name)}</text>`);
  return `<svg data-chart="network" role="img" aria-label="Actor network" viewBox="0 0 ${width} ${height}" width="${width}">${lines.join('')}${circles.join('')}${legend.join('')}</svg>`;
}

/** Font sizes the charts' text is drawn at (STYLE), and the widest a character of system-ui is at them (a digit or a lower-case letter is narrower): what the layout keeps text apart and inside the chart by. */
export const CHART_FONT_PX = 11;
export const CHART_SMALL_FONT_PX = 10;
export const CHAR_WIDTH_EM = 0.62;
const textWidth = (text: string, fontPx: number) => text.length * fontPx * CHAR_WIDTH_EM;

const phaseLabel = (phase: string) => phase.replace(/_/g, '-');
const stageColour = (stage: number) => (stage <= 3 ? '#2ca02c' : stage <= 6 ? '#ff7f0e' : '#d62728');

/**
 * Where the conflict stood per period: Glasl's stage (1-9, coloured by its level: win-win, win-lose,
 * lose-lose) above Kriesberg's phase, on one time axis. The left margin fits the longest stage or phase
 * name; the period labels are thinned to every k-th so that none overlaps the next.
 */
export function escalationChart(id: string, rows: EscalationPoint[], period: string): string {
  if (!rows.some((row) => row.stage !== undefined || row.phase !== undefined)) return empty(id, 'No escalation stage or phase concluded for any period: the graph holds too few dated records');
  const stageLabels = GLASL_STAGES.map((name, index) => `${index + 1} ${name}`);
  const phaseLabels = KRIESBERG_PHASES.map(phaseLabel);
  const width = 900;
  const left = Math.ceil(Math.max(...[...stageLabels, ...phaseLabels].map((label) => textWidth(label, CHART_SMALL_FONT_PX)))) + 16;
  const right = 24;
  const row = 20;
  const plotWidth = width - left - right;
  const step = plotWidth / rows.length;
  const x = (index: number) => left + step * (index + 0.5);
  const longestPeriod = Math.max(...rows.map((point) => textWidth(point.period, CHART_SMALL_FONT_PX)));
  const every = Math.max(1, Math.ceil((longestPeriod + 8) / step));
  const panel = (top: number, title: string, labels: string[], value: (point: EscalationPoint) => number | undefined, colour: (level: number) => string, describe: (point: EscalationPoint) => string) => {
    const height = labels.length * row;
    // level 1 at the bottom: up the chart is further into the conflict's course
    const y = (level: number) => top + 22 + height - (level - 0.5) * row;
    const grid = labels.map((label, index) =>
      `<line x1="${left}" y1="${round(y(index + 1))}" x2="${width - right}" y2="${round(y(index + 1))}" stroke="#e4e4e4"/>`
      + `<text x="${left - 8}" y="${round(y(index + 1) + 3.5)}" text-anchor="end" class="small">${escape(label)}</text>`,
    );
    const present = rows.map((point, index) => ({ index, level: value(point), point })).filter((mark): mark is { index: number; level: number; point: EscalationPoint } => mark.level !== undefined);
    // a line joins periods that follow one another; a period without a conclusion breaks it
    const segments: string[][] = [];
    present.forEach((mark, order) => {
      if (order === 0 || present[order - 1].index !== mark.index - 1) segments.push([]);
      segments[segments.length - 1].push(`${round(x(mark.index))},${round(y(mark.level))}`);
    });
    const lines = segments.filter((points) => points.length > 1).map((points) => `<polyline points="${points.join(' ')}" fill="none" stroke="#888" stroke-width="1.5"/>`);
    const dots = present.map((mark) =>
      `<circle class="mark" cx="${round(x(mark.index))}" cy="${round(y(mark.level))}" r="4.5" fill="${colour(mark.level)}"><title>${escape(`${mark.point.period}: ${describe(mark.point)}`)}</title></circle>`,
    );
    const heading = `<text x="${left}" y="${top + 12}" class="heading">${escape(title)}</text>`;
    return { svg: heading + grid.join('') + lines.join('') + dots.join(''), bottom: top + 22 + height };
  };
  const stages = panel(0, "Glasl's escalation stage (1 to 9; green win-win, orange win-lose, red lose-lose)", stageLabels, (point) => point.stage, stageColour, (point) => `stage ${point.stage} (${GLASL_STAGES[point.stage! - 1]})`);
  const phases = panel(stages.bottom + 20, "Kriesberg's phase of the conflict's life cycle", phaseLabels, (point) => (point.phase === undefined ? undefined : KRIESBERG_PHASES.indexOf(point.phase as (typeof KRIESBERG_PHASES)[number]) + 1 || undefined), () => PALETTE[0], (point) => phaseLabel(point.phase!));
  const axisY = phases.bottom;
  const ticks = rows.map((point, index) =>
    `<line x1="${round(x(index))}" y1="${axisY}" x2="${round(x(index))}" y2="${axisY + 4}" stroke="#444"/>`
    + (index % every === 0 ? `<text x="${round(x(index))}" y="${axisY + 16}" text-anchor="middle" class="small tick">${escape(point.period)}</text>` : ''),
  );
  const axis = `<line x1="${left}" y1="${axisY}" x2="${width - right}" y2="${axisY}" stroke="#444"/>`
    + `<text x="${round(left + plotWidth / 2)}" y="${axisY + 34}" text-anchor="middle" class="small">${escape(`${period}, each seeing what had happened by its end`)}</text>`;
  const height = axisY + 42;
  return `<svg data-chart="${escape(id)}" role="img" aria-label="Escalation stage and phase per ${escape(period)}" viewBox="0 0 ${width} ${height}" width="${width}">${stages.svg}${phases.svg}${axis}${ticks.join('')}</svg>`;
}

/** The other time-aware conclusions per period (Kriesberg's trend, Deutsch's interaction, Zartman's ripeness, ...), one column each. */
function conclusionsTable(rows: EscalationPoint[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row.other)))].sort();
  if (columns.length === 0) return '';
  return `<details><summary>Other conclusions per period</summary>${table(['period', ...columns.map((column) => column.replace('.', ': ').replace(/_/g, ' '))], rows.map((row) => [escape(row.period), ...columns.map((column) => escape(String(row.other[column] ?? '—').replace(/_/g, ' ')))]))}</details>`;
}

/** What a framework concluded of the conflict as a whole, in its own sentences (the findings conclusionsOf keeps: one per key, a plain value). */
function conclusionStatements(assessment: CorpusReport['assessment'][number]): string {
  const kept = new Set(conclusionsOf(assessment).map((conclusion) => conclusion.key));
  return assessment.findings.filter((finding) => kept.has(finding.key)).map((finding) => finding.statement).join(' ');
}

/** Findings quoted per framework in the report's tables (report.json has every citation). */
const QUOTES_PER_FRAMEWORK = 2;

/** The evidence of a framework's findings as a reader checks it: the first records they rest on, each with its quote, source and date. */
function evidenceQuotes(assessment: CorpusReport['assessment'][number], citations: CorpusReport['citations']): string {
  const byId = new Map(citations.map((citation) => [citation.id, citation]));
  const ids = [...new Set(assessment.findings.flatMap((finding) => finding.evidence.slice(0, 1)))].filter((id) => byId.get(id)?.quote).slice(0, QUOTES_PER_FRAMEWORK);
  return ids
    .map((id) => {
      const citation = byId.get(id)!;
      return `<div><blockquote>“${escape(citation.quote!)}”</blockquote><span class="muted">${escape(citation.source ?? '')}${citation.timestamp ? `, ${escape(citation.timestamp.slice(0, 10))}` : ''} · <code>${escape(id)}</code></span></div>`;
    })
    .join('');
}

/** One conflict: who, where and when, its escalation per period, and the frameworks that read it best. */
function conflictSection(report: CorpusReport, conflict: CorpusReport['conflicts'][number]): string {
  const top = conflict.assessment.slice(0, 5);
  return `<section class="conflict" data-conflict="${escape(conflict.id)}">
<h3>${escape(conflict.name)}</h3>
<p><b>Parties:</b> ${escape(conflict.actors.join(', '))}${conflict.third_parties.length ? `<br><b>Third parties:</b> ${escape(conflict.third_parties.join(', '))}` : ''}<br>
<span class="muted">${conflict.events} events, ${conflict.claims} claims${conflict.first ? `, ${escape(conflict.first)} to ${escape(conflict.last ?? '')}` : ''}; id <code>${escape(conflict.id)}</code></span></p>
${escalationChart(`escalation-${conflict.id}`, conflict.escalation, report.trajectory?.period ?? 'period')}
${conclusionsTable(conflict.escalation)}
${table(['framework', 'fit', 'what it concludes', 'evidence'], top.map((assessment) => [escape(assessment.name), assessment.applies ? assessment.fit.toFixed(2) : '<span class="muted">n/a</span>', escape(conclusionStatements(assessment) || '—'), evidenceQuotes(assessment, conflict.citations)]))}
</section>`;
}

function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p class="empty">None.</p>';
  return `<table><thead><tr>${headers.map((header) => `<th>${escape(header)}</th>`).join('')}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;color:#222;padding:0 16px}
h1{font-size:24px;margin-bottom:4px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
.summary{display:flex;gap:12px;flex-wrap:wrap}.summary div{background:#f4f6f8;border-radius:6px;padding:8px 14px}.summary b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}th{background:#fafafa}
svg{max-width:100%;height:auto;font-size:11px;fill:#222}svg .small{font-size:10px}svg .heading{font-weight:600}
.conflict{border-left:3px solid #ddd;padding-left:12px;margin:16px 0}h3{font-size:16px;margin-bottom:4px}details{margin:8px 0}.empty{color:#777;font-style:italic}.failed{color:#b00}
blockquote{margin:2px 0;color:#555;font-style:italic}.muted{color:#777}
`;

export function renderReportHtml(report: CorpusReport): string {
  const { corpus } = report;
  const fitItems = report.assessment.map((assessment) => ({ label: assessment.name, value: assessment.fit, colour: assessment.applies ? PALETTE[0] : '#bbb' }));
  const sourcesList = (sources: { source: string; timestamp: string; quote?: string }[]) =>
    sources.map((source) => `<div><span class="muted">${escape(source.source)}, ${escape(source.timestamp.slice(0, 10))}</span>${source.quote ? `<blockquote>“${escape(source.quote)}”</blockquote>` : ''}</div>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Corpus report: ${escape(report.graph_id)}</title><style>${STYLE}</style></head>
<body>
<h1>Corpus report: graph <code>${escape(report.graph_id)}</code></h1>
<p class="muted">${escape(corpus.dir)}${corpus.interrupted ? ' (run interrupted: the report covers what was committed)' : ''}</p>
<section class="summary">
<div><b>${corpus.total}</b>documents</div><div><b>${corpus.ingested}</b>ingested now</div><div><b>${corpus.skipped}</b>skipped (already in the graph)</div>
<div><b class="${corpus.failed ? 'failed' : ''}">${corpus.failed}</b>failed</div><div><b>${Object.values(report.graph.nodes).reduce((a, b) => a + b, 0)}</b>nodes</div>
<div><b>${Object.values(report.graph.edges).reduce((a, b) => a + b, 0)}</b>edges</div><div><b>${report.red_lines.length}</b>red lines</div>
</section>
${report.failures.length ? `<h2>Failures</h2>${table(['document', 'code', 'reason'], report.failures.map((failure) => [escape(failure.source), `<code>${escape(failure.code)}</code>`, escape(failure.reason)]))}` : ''}
<h2>Actor network</h2>
<p class="muted">Who opposes and allies with whom, as the documents state it${report.network.left_out ? `; ${report.network.left_out} less connected actors left out` : ''}.</p>
${networkChart(report)}
<h2>Events over time</h2>
${eventsChart(report)}
<h2>Conflicts</h2>
<p class="muted">${report.conflicts.length ? `The graph holds ${report.conflicts.length} separate conflicts (groups of actors linked by opposition, alliance, shared events and claims), each assessed on its own, the largest first.` : 'No conflict found: no two actors are linked by opposition, alliance, shared events or claims.'}</p>
${report.conflicts.map((conflict) => conflictSection(report, conflict)).join('\n')}
<h2>Escalation trajectory, all conflicts together</h2>
<p class="muted">Glasl's stage and Kriesberg's phase per ${escape(report.trajectory?.period ?? 'period')} over the whole graph, each period seeing only what had happened by its end.</p>
${escalationChart('escalation', report.escalation, report.trajectory?.period ?? 'period')}
${conclusionsTable(report.escalation)}
<h2>Framework assessment</h2>
${barChart('fit', 'Framework fit', fitItems, (value) => value.toFixed(2))}
${table(['framework', 'fit', 'explanation', 'evidence'], report.assessment.map((assessment) => [escape(assessment.name), assessment.applies ? assessment.fit.toFixed(2) : '<span class="muted">n/a</span>', escape(assessment.explanation), evidenceQuotes(assessment, report.citations)]))}
<h2>Claims by type</h2>
${barChart('claims', 'Claims by type', report.claim_types.map((item) => ({ label: item.type, value: item.count, colour: PALETTE[4] })))}
<h2>Red lines</h2>
${table(['red line', 'stated by', 'against', 'sources'], report.red_lines.map((line) => [escape(line.text), escape(line.speakers.join(', ') || '—'), escape(line.targets.join(', ') || '—'), sourcesList(line.sources)]))}
<h2>Actors</h2>
${table(['actor', 'type', 'role', 'documents', 'mentions', 'sources'], report.actors.map((actor) => [escape(actor.label), escape(actor.actor_type ?? ''), escape(actor.role ?? ''), String(actor.documents.length), String(actor.mentions), `<span class="muted">${escape(actor.documents.join(', '))}</span>`]))}
<h2>Documents</h2>
${table(['document', 'date', 'status', 'sentences', 'actors', 'claims', 'events', 'places'], report.documents.map((document) => [
  `${escape(document.title ?? document.source)}<br><span class="muted">${escape(document.source)}</span>`, escape(document.published_at ?? ''), escape(document.status ?? ''),
  document.sentences === undefined ? '' : String(document.sentences), String(document.actors), String(document.claims), String(document.events), String(document.locations),
]))}
</body></html>
`;
}
