// The escalation trajectory: where each conflict stood, period by period, as the time-aware
// frameworks concluded: Glasl's stage (1-9) and Kriesberg's phase, for the whole graph and for
// each conflict the server finds. One assess with `trajectory` and `by_conflict` (docs/api.md):
// each period sees only what had happened by its end.
import type { Assessment, AssessRequest, Trajectory } from '@parley/client';
import { byId, clear, el } from './dom.ts';

export type Period = NonNullable<AssessRequest['trajectory']>['period'];

/** The frameworks whose conclusions the trajectory draws: stage, then phase. */
const STAGE = { framework: 'glasl', key: 'stage', name: "Glasl's stage" };
const PHASE = { framework: 'kriesberg', key: 'phase', name: "Kriesberg's phase" };
/** The latest periods drawn at most (the server's own bound is 60). */
export const TRAJECTORY_PERIODS = 36;

export function trajectoryRequest(period: Period, asOf: string | undefined): AssessRequest {
  const frameworks = [STAGE.framework, PHASE.framework];
  return { frameworks, by_conflict: true, trajectory: { period, frameworks, max_periods: TRAJECTORY_PERIODS }, ...(asOf ? { as_of: asOf } : {}) };
}

interface Cell {
  value?: string | number | boolean;
  /** What the framework said of the period, in its own sentences. */
  statements: string[];
  /** Why the framework did not run for the period. */
  error?: string;
}

/** One conclusion per period of a trajectory, with the statements behind it. */
function cellsOf(trajectory: Trajectory | undefined, which: typeof STAGE): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const point of trajectory?.points ?? []) {
    const run = point.results.find((result) => result.framework_id === which.framework);
    const value = point.conclusions.find((conclusion) => conclusion.framework_id === which.framework && conclusion.key === which.key)?.value;
    cells.set(point.period, { value, statements: run?.findings.map((finding) => finding.statement) ?? [], error: run?.error?.message });
  }
  return cells;
}

/** Green, orange or red: Glasl's win-win (1-3), win-lose (4-6) and lose-lose (7-9) levels. */
const stageLevel = (stage: number) => (stage <= 3 ? 'win-win' : stage <= 6 ? 'win-lose' : 'lose-lose');

export function renderTrajectory(assessment: Assessment, period: Period, choosePeriod: (period: Period) => void): void {
  const view = byId('view-trajectory');
  const rows = [
    { id: 'graph', name: 'The whole graph', trajectory: assessment.trajectory },
    ...(assessment.conflicts ?? []).map((entry) => ({ id: entry.conflict.id, name: entry.conflict.name, trajectory: entry.trajectory })),
  ];
  const periods = [...new Set(rows.flatMap((row) => row.trajectory?.points.map((point) => point.period) ?? []))].sort();
  const truncated = Math.max(0, ...rows.map((row) => row.trajectory?.truncated ?? 0));
  const detail = el('div', { id: 'trajectory-detail', 'aria-live': 'polite' }, el('p', { class: 'muted' }, 'Choose a period of a conflict to read what the frameworks concluded of it.'));

  const cell = (row: (typeof rows)[number], which: typeof STAGE, cells: Map<string, Cell>, at: string) => {
    const found = cells.get(at);
    if (!found) return el('td', { class: 'empty' });
    const text = found.error ? '×' : found.value === undefined ? '–' : String(found.value).replace(/_/g, ' ');
    const said = found.error ? `did not run: ${found.error}` : found.value === undefined ? 'nothing concluded' : `${which.key} ${String(found.value).replace(/_/g, ' ')}`;
    const button = el('button', { type: 'button', class: 'cell', 'aria-label': `${row.name}, ${at}: ${which.name}, ${said}` }, text);
    if (which === STAGE && typeof found.value === 'number') button.classList.add(stageLevel(found.value));
    button.addEventListener('click', () => {
      clear(
        detail,
        el('h3', {}, `${row.name}, ${at}`),
        el('h4', {}, which.name),
        found.error ? el('p', {}, `The framework did not run for this period: ${found.error}`) : null,
        found.statements.length === 0 && !found.error ? el('p', { class: 'muted' }, 'Nothing concluded: too few dated records by the end of the period.') : el('ul', {}, ...found.statements.map((statement) => el('li', {}, statement))),
      );
    });
    return el('td', {}, button);
  };

  const periodChoice = el('select', { id: 'trajectory-period', 'aria-label': 'Period of the trajectory' }, ...(['month', 'quarter', 'year'] as const).map((name) => el('option', { value: name }, name)));
  periodChoice.value = period;
  periodChoice.addEventListener('change', () => choosePeriod(periodChoice.value as Period));

  clear(
    view,
    el('h2', {}, 'Escalation trajectory'),
    el('div', { class: 'timeline-bar' }, el('label', {}, 'Period ', periodChoice), el('span', { class: 'muted' }, `Per period, each seeing only what had happened by its end: ${STAGE.name} (1-9; green win-win, orange win-lose, red lose-lose) and ${PHASE.name}; for the whole graph and each conflict found in it.`)),
    periods.length === 0
      ? el('p', { class: 'muted' }, 'No period to draw: the graph holds no dated record at this time.')
      : el(
          'div',
          { class: 'scroll trajectory-box' },
          el(
            'table',
            { class: 'trajectory', 'aria-label': `Escalation stage and phase per ${period}, per conflict` },
            el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'conflict'), el('th', { scope: 'col' }, ''), ...periods.map((at) => el('th', { scope: 'col' }, at)))),
            ...rows.map((row) => {
              const stages = cellsOf(row.trajectory, STAGE);
              const phases = cellsOf(row.trajectory, PHASE);
              return el(
                'tbody',
                {},
                el('tr', {}, el('th', { scope: 'rowgroup', rowspan: '2' }, row.name), el('th', { scope: 'row' }, 'stage'), ...periods.map((at) => cell(row, STAGE, stages, at))),
                el('tr', {}, el('th', { scope: 'row' }, 'phase'), ...periods.map((at) => cell(row, PHASE, phases, at))),
              );
            }),
          ),
        ),
    truncated > 0 ? el('p', { class: 'muted' }, `The latest ${TRAJECTORY_PERIODS} periods are drawn; ${truncated} earlier ones are not.`) : null,
    assessment.conflicts_omitted ? el('p', { class: 'muted' }, `${assessment.conflicts_omitted} smaller conflicts are not drawn (the 10 largest are).`) : null,
    detail,
  );
}
