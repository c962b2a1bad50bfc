import type { CorpusReport } from './corpus-report.ts';

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
    trajectory: (report.trajectory?.points ?? []).reduce((sum, point) => sum + point.results.length, 0),
    fit: report.assessment.length,
    claims: report.claim_types.length,
  };
}

function empty(id: string, message: string): string {
  return `<p class="empty" data-chart-empty="${id}">${escape(message)}</p>`;
}

/** Horizontal bars, one per item, with its label and value. */
function barChart(id: string, title: string, items: { label: string; value: number; colour?: string }[], format = (value: number) => String(value)): string {
  if (items.length === 0) return empty(id, `${title}: nothing found`);
  const rowHeight = 22;
  const labelWidth = 190;
  const width = 640;
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
  const bars = months.map((month, index) => {
    const x = left + index * step + 2;
    const label = `<text x="${round(x + step / 2 - 2)}" y="${height - bottom + 14}" text-anchor="middle" class="small">${escape(month.month.slice(2))}</text>`;
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
  const width = 900;
  const height = 600;
  const radius = height / 2 - 40;
  const types = [...new Set(nodes.map((node) => node.actor_type ?? 'unknown'))].sort();
  const position = new Map(nodes.map((node, index) => {
    const angle = (2 * Math.PI * index) / nodes.length - Math.PI / 2;
    return [node.id, { x: width / 2 + radius * Math.cos(angle), y: height / 2 + radius * Math.sin(angle), angle }];
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

/** The time-aware frameworks' score per period, one line per framework. */
function trajectoryChart(report: CorpusReport): string {
  const points = report.trajectory?.points ?? [];
  if (points.length === 0) return empty('trajectory', 'No trajectory: the graph holds no dated records');
  const width = 760;
  const height = 260;
  const left = 36;
  const right = 170;
  const bottom = 40;
  const frameworks = [...new Set(points.flatMap((point) => point.results.map((result) => result.framework_id)))].sort();
  const step = points.length > 1 ? (width - left - right) / (points.length - 1) : 0;
  const x = (index: number) => left + 10 + index * step;
  const y = (score: number) => height - bottom - score * (height - bottom - 14);
  const axis = `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#444"/>`
    + `<text x="${left - 4}" y="${y(0) + 4}" text-anchor="end">0</text><text x="${left - 4}" y="${y(1) + 4}" text-anchor="end">1</text>`
    + points.map((point, index) => `<text x="${round(x(index))}" y="${height - bottom + 14}" text-anchor="middle" class="small">${escape(point.period)}</text>`).join('');
  const series = frameworks.map((framework, order) => {
    const colour = PALETTE[order % PALETTE.length];
    const marks = points.flatMap((point, index) => {
      const result = point.results.find((candidate) => candidate.framework_id === framework);
      if (!result) return [];
      const score = result.applies ? result.score : 0;
      return [{ x: x(index), y: y(score), title: `${framework}, ${point.period}: ${result.applies ? `fit ${score.toFixed(2)}` : 'does not apply'}${result.error ? ` (stopped: ${result.error.message})` : ''}` }];
    });
    const path = marks.length > 1 ? `<polyline points="${marks.map((mark) => `${round(mark.x)},${round(mark.y)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="1.8"/>` : '';
    const dots = marks.map((mark) => `<circle class="mark" cx="${round(mark.x)}" cy="${round(mark.y)}" r="3.5" fill="${colour}"><title>${escape(mark.title)}</title></circle>`).join('');
    const legend = `<rect x="${width - right + 30}" y="${10 + order * 16}" width="10" height="10" fill="${colour}"/><text x="${width - right + 44}" y="${19 + order * 16}" class="small">${escape(framework)}</text>`;
    return path + dots + legend;
  });
  return `<svg data-chart="trajectory" role="img" aria-label="Escalation trajectory" viewBox="0 0 ${width} ${height}" width="${width}">${axis}${series.join('')}</svg>`;
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
svg{max-width:100%;height:auto;font-size:11px;fill:#222}svg .small{font-size:10px}.empty{color:#777;font-style:italic}.failed{color:#b00}
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
<h2>Escalation trajectory</h2>
<p class="muted">Fit of each time-aware framework per ${escape(report.trajectory?.period ?? 'period')}, each seeing only what had happened by the period's end.</p>
${trajectoryChart(report)}
<h2>Framework assessment</h2>
${barChart('fit', 'Framework fit', fitItems, (value) => value.toFixed(2))}
${table(['framework', 'fit', 'explanation'], report.assessment.map((assessment) => [escape(assessment.name), assessment.applies ? assessment.fit.toFixed(2) : '<span class="muted">n/a</span>', escape(assessment.explanation)]))}
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
