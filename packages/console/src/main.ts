// The console: sign in with a key, pick a graph, then query, explore, correct, and read the
// conflict over time, on a map, and through the frameworks. Every request goes to the public
// /v1 API with the key kept in this tab's sessionStorage.
import { api, ApiError, describe, session } from './api.ts';
import { renderAnalysis, renderAssessment, type Analysis, type Assessment } from './analyze.ts';
import { byId, clear, el, show } from './dom.ts';
import { createEditor, type Vocabulary } from './editor.ts';
import { EVENTS_QUERY, PLACES_QUERY, rowsOf, type EventRow, type PlaceRow } from './events.ts';
import { createGraphView } from './graph-view.ts';
import { inspect, type InspectorContext } from './inspector.ts';
import { renderMap } from './map.ts';
import { graphMl, jsonLines, nodeLabel, shownCsv, shownOf, type QueryAnswer, type Shown } from './model.ts';
import { filterRows, filterShown, renderFilterChip, tiedTo, type PlaceFilter } from './place-filter.ts';
import { renderReview } from './review.ts';
import { literal, SEARCH_LIMIT, searchQuery, type SearchKind } from './search.ts';
import { stored } from './stored.ts';
import { renderTimeline } from './timeline.ts';
import { renderTrajectory, trajectoryRequest, type Period } from './trajectory.ts';

interface GraphDetail {
  graph_id: string;
  created_at: string;
  updated_at: string;
  nodes: Record<string, number>;
  edges: Record<string, number>;
}

const GRAPH_ITEM = 'parley.graph';
const DEFAULT_QUERY = 'MATCH (a:Actor)-[r]->(b)\nRETURN a, r, b\nLIMIT 200';
/** The slider's steps between the graph's creation and now. */
const AS_OF_STEPS = 1000;

const state = {
  graphId: '',
  workspaceId: undefined as string | undefined,
  asOf: undefined as string | undefined,
  asOfRange: [0, 0] as [number, number],
  /** What is tied to the country chosen on the map: the other views show only that. */
  place: null as PlaceFilter | null,
  answer: undefined as QueryAnswer | undefined,
  /** The answer's rows the place filter keeps: the table and the CSV export. */
  shownAnswer: undefined as QueryAnswer | undefined,
  shown: { nodes: [], edges: [] } as Shown,
  view: 'query',
  period: 'month' as Period,
};
const vocabulary: Vocabulary = { labels: [], types: [], properties: new Set(['id', 'label', 'text', 'type', 'role', 'actor_type', 'event_type', 'date', 'fatalities', 'country_code', 'source']) };

// ---- messages and failures -------------------------------------------------------------

function say(text: string, kind: 'error' | 'info' = 'error'): void {
  const box = byId('message');
  box.className = kind === 'info' ? 'info' : '';
  box.textContent = text;
  box.hidden = false;
}

function quiet(): void {
  byId('message').hidden = true;
}

/** A failed request: a refused key ends the session; anything else is said where the user looks. */
function failed(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    session.forget();
    showSignIn();
  }
  say(describe(error));
}

// ---- sign in -------------------------------------------------------------------------------

function showSignIn(): void {
  byId('sign-in').hidden = false;
  for (const id of ['workbench', 'graph-picker', 'as-of-box', 'sign-out']) byId(id).hidden = true;
  byId<HTMLInputElement>('api-key').focus();
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('api-key');
  const key = input.value.trim();
  api<{ graphs: { graph_id: string }[] }>('GET', '/v1/graphs?page_size=500', undefined, key).then(
    async (list) => {
      session.keep(key);
      input.value = '';
      quiet();
      await start(list.graphs.map((graph) => graph.graph_id));
    },
    (error: unknown) => say(describe(error, true)),
  );
});

byId('sign-out').addEventListener('click', () => {
  session.forget();
  showSignIn();
  say('Signed out: the key is gone from this tab.', 'info');
});

// ---- the workbench -------------------------------------------------------------------------

const editor = createEditor(byId('editor'), vocabulary, () => void runQuery(), stored.history()[0] ?? DEFAULT_QUERY);
const graphView = createGraphView(byId('result-graph'), (selection) => void openRecord(selection));

async function start(graphIds: string[]): Promise<void> {
  byId('sign-in').hidden = true;
  for (const id of ['workbench', 'graph-picker', 'as-of-box', 'sign-out']) byId(id).hidden = false;
  const picker = byId<HTMLSelectElement>('graph');
  clear(picker, ...graphIds.map((id) => el('option', { value: id }, id)));
  if (graphIds.length === 0) {
    say('This tenant has no graph yet: ingest or import documents first (see the README).', 'info');
    return;
  }
  const remembered = localStorage.getItem(GRAPH_ITEM);
  picker.value = remembered && graphIds.includes(remembered) ? remembered : graphIds[0];
  await chooseGraph(picker.value);
  // the query view with its result drawn: bench/console.ts reads this mark
  requestAnimationFrame(() => performance.mark('parley:query-view'));
}

async function chooseGraph(graphId: string): Promise<void> {
  state.graphId = graphId;
  state.place = null;
  renderFilterChip(null, clearPlace);
  localStorage.setItem(GRAPH_ITEM, graphId);
  try {
    const [detail, workspaces] = await Promise.all([
      api<GraphDetail>('GET', `/v1/graphs/${encodeURIComponent(graphId)}`),
      api<{ workspaces: { id: string; graph_id: string }[] }>('GET', '/v1/workspaces?page_size=500'),
    ]);
    vocabulary.labels = Object.keys(detail.nodes).sort();
    vocabulary.types = Object.keys(detail.edges).sort();
    state.workspaceId = workspaces.workspaces.find((workspace) => workspace.graph_id === graphId)?.id;
    state.asOfRange = [Date.parse(detail.created_at), Math.max(Date.now(), Date.parse(detail.updated_at))];
    setAsOf(undefined);
    await refresh();
  } catch (error) {
    failed(error);
  }
}

byId<HTMLSelectElement>('graph').addEventListener('change', (event) => void chooseGraph((event.target as HTMLSelectElement).value));

// ---- as_of -----------------------------------------------------------------------------------

const slider = byId<HTMLInputElement>('as-of');

function setAsOf(instant: string | undefined): void {
  state.asOf = instant;
  if (!instant) slider.value = String(AS_OF_STEPS);
  const text = instant ? `${instant.slice(0, 19).replace('T', ' ')} UTC` : 'now';
  byId('as-of-value').textContent = text;
  slider.setAttribute('aria-valuetext', text);
  // the instants the ends stand for, for whoever drives the slider by its value
  slider.dataset.from = new Date(state.asOfRange[0]).toISOString();
  slider.dataset.to = new Date(state.asOfRange[1]).toISOString();
}

function sliderInstant(): string | undefined {
  const step = Number(slider.value);
  if (step >= AS_OF_STEPS) return undefined;
  const [from, to] = state.asOfRange;
  return new Date(from + ((to - from) * step) / AS_OF_STEPS).toISOString();
}

/** A slider held down (arrow keys, a drag) reads the graph once it rests, not at every step. */
const AS_OF_SETTLE_MS = 250;
let settling: ReturnType<typeof setTimeout> | undefined;
slider.addEventListener('input', () => setAsOf(sliderInstant()));
slider.addEventListener('change', () => {
  setAsOf(sliderInstant());
  clearTimeout(settling);
  settling = setTimeout(() => void refresh(), AS_OF_SETTLE_MS);
});

/** Reads the current view again (after a new graph, an as_of, a correction); `ties: false` keeps the place filter's ties as read (a tab switched: the graph is as it was). */
async function refresh({ ties = true } = {}): Promise<void> {
  if (ties && state.place) {
    // the ties as the graph now is (another as_of, a correction)
    try {
      state.place = await tiedTo(state.graphId, state.place.country, state.place.name, state.asOf);
      renderFilterChip(state.place, clearPlace);
    } catch (error) {
      return failed(error);
    }
  }
  if (state.view === 'query') await runQuery();
  else if (state.view === 'timeline' || state.view === 'map') await drawPlaces();
  else if (state.view === 'trajectory') await drawTrajectory();
  else if (state.view === 'review') {
    await renderReview(state.graphId, state.asOf, state.place, (selection) => void openRecord(selection)).catch((error: unknown) => {
      clear(byId('view-review'), el('p', { class: 'muted' }, `Could not read the review queue: ${describe(error)}`));
      failed(error);
    });
  }
}

// ---- views and tabs --------------------------------------------------------------------------

function tabs(listId: string, onChoose: (name: string) => void): void {
  const list = byId(listId);
  const all = [...list.querySelectorAll<HTMLButtonElement>('[role=tab]')];
  const choose = (tab: HTMLButtonElement) => {
    for (const other of all) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId(other.getAttribute('aria-controls')!).hidden = !selected;
    }
    onChoose(tab.id.replace(/^tab-/, ''));
  };
  for (const [i, tab] of all.entries()) {
    tab.addEventListener('click', () => choose(tab));
    tab.addEventListener('keydown', (event) => {
      const next = event.key === 'ArrowRight' ? all[(i + 1) % all.length] : event.key === 'ArrowLeft' ? all[(i - 1 + all.length) % all.length] : undefined;
      if (next) {
        next.focus();
        choose(next);
      }
    });
  }
}

tabs('views', (name) => {
  state.view = name;
  quiet();
  if (name === 'query') graphView.refresh();
  else void refresh({ ties: false });
});
tabs('result-tabs', (name) => {
  if (name === 'graph') graphView.refresh();
});

// ---- query -----------------------------------------------------------------------------------

/** Counts the queries run: an answer that arrives after a later query was started is dropped. */
let queriesRun = 0;

/** Runs the editor's query and shows its answer (undefined: it failed, or a later query overtook it). */
async function runQuery(): Promise<QueryAnswer | undefined> {
  const query = editor.text().trim();
  if (!query || !state.graphId) return;
  const run = (queriesRun += 1);
  quiet();
  byId('result-summary').textContent = 'Running…';
  try {
    const answer = await api<QueryAnswer>('POST', '/v1/graph/query', { graph_id: state.graphId, query, explain: true, ...(state.asOf ? { as_of: state.asOf } : {}) });
    if (run !== queriesRun) return;
    stored.remember(query);
    fillHistory();
    editor.mark((answer.notifications ?? []).map((note) => ({ ...note.position, message: `${note.title}: ${note.description}`, severity: 'warning' as const })));
    showAnswer(answer);
    return answer;
  } catch (error) {
    if (run !== queriesRun) return;
    byId('result-summary').textContent = '';
    if (error instanceof ApiError && error.problem.line !== undefined && error.problem.column !== undefined) {
      editor.mark([{ line: error.problem.line, column: error.problem.column, message: error.message, severity: 'error' }]);
      say(`The query does not compile, at line ${error.problem.line}, column ${error.problem.column}: ${error.message}`);
    } else failed(error);
  }
}

function showAnswer(answer: QueryAnswer): void {
  state.answer = answer;
  const whole = shownOf(answer);
  state.shown = filterShown(whole, state.place);
  state.shownAnswer = filterRows(answer, state.place);
  for (const node of answer.nodes) for (const key of Object.keys(node.properties)) vocabulary.properties.add(key);
  const filtered = state.place ? ` tied to ${state.place.country} (of ${whole.nodes.length} nodes, ${answer.rows.length} rows)` : '';
  byId('result-summary').textContent = `${state.shown.nodes.length} nodes, ${state.shown.edges.length} edges, ${state.shownAnswer.rows.length} rows${filtered}${state.asOf ? ` as of ${state.asOf.slice(0, 16).replace('T', ' ')}` : ''}`;
  graphView.show(state.shown);
  renderTable(state.shownAnswer);
  clear(byId('result-plan'), el('h4', {}, 'Goal'), el('pre', {}, answer.goal ?? ''), el('h4', {}, 'Plan'), el('pre', {}, JSON.stringify(answer.plan ?? null, null, 2)));
}

function renderTable(answer: QueryAnswer): void {
  const ids = new Set([...state.shown.nodes.map((node) => node.id), ...state.shown.edges.map((edge) => edge.id)]);
  const edgeIds = new Set(state.shown.edges.map((edge) => edge.id));
  const cell = (value: unknown) => {
    const record = value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string; type?: unknown; properties?: Record<string, unknown>; labels?: string[] }) : undefined;
    const id = typeof value === 'string' ? value : record?.id;
    if (id && ids.has(id)) {
      const text = record ? (typeof record.type === 'string' ? `${record.type} ${id}` : nodeLabel(record.labels?.[0] ?? '', record.properties ?? {}, id)) : id;
      const button = el('button', { type: 'button', class: 'link' }, text);
      button.addEventListener('click', () => void openRecord(edgeIds.has(id) ? { edge: id } : { node: id }));
      return el('td', {}, button);
    }
    return el('td', {}, show(value));
  };
  const [columns, rows] = answer.columns.length > 0 ? [answer.columns, answer.rows] : [['id', 'kind', 'label'], state.shown.nodes.map((node) => [node.id, node.kind, node.label])];
  clear(
    byId('result-table'),
    el('table', { 'aria-label': 'Result rows' }, el('thead', {}, el('tr', {}, ...columns.map((column) => el('th', { scope: 'col' }, column)))), el('tbody', {}, ...rows.slice(0, 2000).map((row) => el('tr', {}, ...row.map(cell))))),
    rows.length > 2000 ? el('p', { class: 'muted' }, `The first 2,000 of ${rows.length} rows; export CSV for all.`) : null,
  );
}

function expand(id: string, type: string | undefined, limit: number): void {
  const relationship = type && /^[A-Za-z_][A-Za-z0-9_]*$/.test(type) ? `:${type}` : '';
  editor.setText(`MATCH (n)-[r${relationship}]-(m)\nWHERE id(n) = ${literal(id)}\nRETURN n, r, m\nLIMIT ${limit}`);
  void runQuery();
}

async function openRecord(selection: { node: string } | { edge: string }): Promise<void> {
  if (state.view !== 'query') byId('tab-query').click();
  const context: InspectorContext = {
    graphId: () => state.graphId,
    edgeTypes: () => vocabulary.types,
    expand,
    // the views read the graph as corrected, then the record shows its correction
    corrected: (text) =>
      void refresh().then(() => {
        say(text, 'info');
        return inspect(selection, context);
      }),
    failed,
  };
  await inspect(selection, context);
}

byId('run').addEventListener('click', () => void runQuery());

// ---- find by name ----------------------------------------------------------------------------

byId<HTMLFormElement>('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const words = byId<HTMLInputElement>('search-name').value.trim();
  if (!words) return;
  editor.setText(searchQuery(byId<HTMLSelectElement>('search-kind').value as SearchKind, words));
  void runQuery().then((answer) => {
    if (!answer) return;
    const found = state.shown.nodes;
    // one record found: it is what was sought, read at once
    if (found.length === 1) void openRecord({ node: found[0].id });
    else if (found.length === 0) say(`Nothing found for "${words}": try part of the name, or another kind.`, 'info');
    else if (found.length >= SEARCH_LIMIT) say(`The first ${SEARCH_LIMIT} found: add words to narrow it.`, 'info');
  });
});

// ---- history and saved queries ---------------------------------------------------------------

function fillHistory(): void {
  const label = (query: string) => (query.length > 60 ? `${query.slice(0, 57)}…` : query).replace(/\s+/g, ' ');
  clear(byId('history'), el('option', { value: '' }, `${stored.history().length} recent`), ...stored.history().map((query) => el('option', { value: query }, label(query))));
  const saved = stored.saved();
  clear(byId('saved'), el('option', { value: '' }, `${Object.keys(saved).length} saved`), ...Object.keys(saved).sort().map((name) => el('option', { value: saved[name] }, name)));
}
for (const id of ['history', 'saved']) {
  byId<HTMLSelectElement>(id).addEventListener('change', (event) => {
    const select = event.target as HTMLSelectElement;
    if (select.value) editor.setText(select.value);
    select.value = '';
  });
}
byId('save').addEventListener('click', () => {
  const name = byId<HTMLInputElement>('save-name');
  if (!name.value.trim()) return say('Give the query a name to save it under.');
  stored.save(name.value.trim(), editor.text());
  name.value = '';
  fillHistory();
  say('Saved.', 'info');
});
fillHistory();

// ---- export ----------------------------------------------------------------------------------

function download(name: string, type: string, text: string): void {
  const link = document.createElement('a');
  link.download = name;
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
const exportName = (extension: string) => `${state.graphId}${state.asOf ? `-as-of-${state.asOf.slice(0, 10)}` : ''}.${extension}`;
byId('export-csv').addEventListener('click', () => download(exportName('csv'), 'text/csv', shownCsv(state.shown, state.shownAnswer)));
byId('export-graphml').addEventListener('click', () => download(exportName('graphml'), 'application/graphml+xml', graphMl(state.shown)));
byId('export-jsonl').addEventListener('click', () => download(exportName('jsonl'), 'application/x-ndjson', jsonLines(state.shown)));

// ---- timeline and map ------------------------------------------------------------------------

async function drawPlaces(): Promise<void> {
  const view = state.view;
  try {
    const asOf = state.asOf ? { as_of: state.asOf } : {};
    const [events, places] = await Promise.all([
      api<QueryAnswer>('POST', '/v1/graph/query', { graph_id: state.graphId, query: EVENTS_QUERY, ...asOf }),
      view === 'map' ? api<QueryAnswer>('POST', '/v1/graph/query', { graph_id: state.graphId, query: PLACES_QUERY, ...asOf }) : undefined,
    ]);
    const eventRows = rowsOf<EventRow>(events);
    const chooseCountry = (country: string | null, name: string) => void (country ? choosePlace(country, name).then(drawPlaces, failed) : clearPlace());
    if (view === 'timeline') renderTimeline(eventRows, state.place?.country ?? null, clearPlace, (id) => void openRecord({ node: id }));
    else await renderMap(rowsOf<PlaceRow>(places!), eventRows, state.place?.country ?? null, chooseCountry);
  } catch (error) {
    clear(byId(`view-${view}`), el('p', { class: 'muted' }, `Could not read the events and places: ${describe(error)}`));
    failed(error);
  }
}

// ---- escalation trajectory -------------------------------------------------------------------

/** Counts the trajectories asked for: one that arrives after a later one was asked is dropped. */
let trajectoriesAsked = 0;

async function drawTrajectory(): Promise<void> {
  const workspace = needWorkspace();
  if (!workspace) return clear(byId('view-trajectory'), el('h2', {}, 'Escalation trajectory'), el('p', { class: 'muted' }, 'It needs a workspace that reads this graph.'));
  const asked = (trajectoriesAsked += 1);
  clear(byId('view-trajectory'), el('h2', {}, 'Escalation trajectory'), el('p', { class: 'muted' }, `Running Glasl and Kriesberg for each ${state.period}, for the graph and each conflict…`));
  try {
    const assessment = await api<Assessment>('POST', `/v1/workspaces/${encodeURIComponent(workspace)}/assess`, trajectoryRequest(state.period, state.asOf));
    if (asked !== trajectoriesAsked || state.view !== 'trajectory') return;
    renderTrajectory(assessment, state.period, (period) => {
      state.period = period;
      void drawTrajectory();
    });
  } catch (error) {
    if (asked !== trajectoriesAsked) return;
    clear(byId('view-trajectory'), el('h2', {}, 'Escalation trajectory'), el('p', { class: 'muted' }, `Could not draw the trajectory: ${describe(error)}`));
    failed(error);
  }
}

// ---- analyze and assess ----------------------------------------------------------------------

function needWorkspace(): string | undefined {
  if (!state.workspaceId) say(`No workspace reads graph ${state.graphId}: create one with "graph_id": "${state.graphId}" to analyze it (docs/api.md).`);
  return state.workspaceId;
}

byId<HTMLFormElement>('analyze-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const question = byId<HTMLInputElement>('question').value.trim();
  const workspace = needWorkspace();
  if (!question || !workspace) return;
  quiet();
  clear(byId('analysis'), el('p', { class: 'muted' }, 'Thinking through the frameworks…'));
  api<Analysis>('POST', `/v1/workspaces/${encodeURIComponent(workspace)}/analyze`, { query: question, ...(state.asOf ? { as_of: state.asOf } : {}) }).then(renderAnalysis, (error: unknown) => {
    clear(byId('analysis'));
    failed(error);
  });
});

byId('assess').addEventListener('click', () => {
  const workspace = needWorkspace();
  if (!workspace) return;
  quiet();
  clear(byId('analysis'), el('p', { class: 'muted' }, 'Running every framework…'));
  api<Assessment>('POST', `/v1/workspaces/${encodeURIComponent(workspace)}/assess`, state.asOf ? { as_of: state.asOf } : {}).then(renderAssessment, (error: unknown) => {
    clear(byId('analysis'));
    failed(error);
  });
});

// ---- start -----------------------------------------------------------------------------------

if (session.key()) {
  api<{ graphs: { graph_id: string }[] }>('GET', '/v1/graphs?page_size=500').then((list) => start(list.graphs.map((graph) => graph.graph_id)), failed);
} else showSignIn();

// ---- the place chosen on the map -------------------------------------------------------------

/** Filters the views by a country: what is tied to it is read, the chip shows it, the query's answer is shown again. */
async function choosePlace(country: string, name: string): Promise<void> {
  const place = await tiedTo(state.graphId, country, name, state.asOf);
  state.place = place;
  renderFilterChip(place, clearPlace);
  if (state.answer) showAnswer(state.answer);
}

function clearPlace(): void {
  state.place = null;
  renderFilterChip(null, clearPlace);
  if (state.answer) showAnswer(state.answer);
  if (state.view !== 'query') void refresh();
}
