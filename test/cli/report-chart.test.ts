import { describe, expect, it } from 'vitest';
import { periodsBetween } from '../../engine/reason/tasks.ts';
import { GLASL_STAGES, KRIESBERG_PHASES, escalationOf, type EscalationPoint } from '../../packages/cli/src/report/escalation.ts';
import { CHAR_WIDTH_EM, CHART_FONT_PX, CHART_SMALL_FONT_PX, escalationChart } from '../../packages/cli/src/report/html.ts';

/**
 * The escalation chart's geometry, read from its SVG: every label inside the view box, whole, and
 * no two period labels on top of one another, however many periods (the screenshot in Chromium,
 * bench/report-screenshot.sh, is the look; this is what can be checked without a browser).
 */
interface Text {
  x: number;
  y: number;
  anchor: string;
  small: boolean;
  tick: boolean;
  content: string;
}

function texts(svg: string): Text[] {
  return [...svg.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)"(?: text-anchor="(\w+)")?(?: class="([\w ]+)")?>([^<]*)<\/text>/g)].map((match) => ({
    x: Number(match[1]),
    y: Number(match[2]),
    anchor: match[3] ?? 'start',
    small: (match[4] ?? '').split(' ').includes('small'),
    tick: (match[4] ?? '').split(' ').includes('tick'),
    content: match[5].replace(/&#39;/g, "'").replace(/&amp;/g, '&'),
  }));
}

/** Where a text runs from and to along x, at the widest its characters can be. */
function extent(text: Text): [number, number] {
  const width = text.content.length * (text.small ? CHART_SMALL_FONT_PX : CHART_FONT_PX) * CHAR_WIDTH_EM;
  const start = text.anchor === 'end' ? text.x - width : text.anchor === 'middle' ? text.x - width / 2 : text.x;
  return [start, start + width];
}

function rows(periods: string[]): EscalationPoint[] {
  return periods.map((period, index) => ({ period, stage: (index % 9) + 1, phase: KRIESBERG_PHASES[index % KRIESBERG_PHASES.length], other: {} }));
}

describe('the escalation chart', () => {
  for (const count of [1, 3, 14, 60]) {
    it(`${count} monthly periods: labels whole, inside the view box, period labels apart`, () => {
      const periods = periodsBetween('2020-01-01', '2030-12-31', 'month', count).map((period) => period.label);
      const svg = escalationChart('escalation', rows(periods), 'month');
      const [, width, height] = svg.match(/viewBox="0 0 ([\d.]+) ([\d.]+)"/)!.map(Number);
      const drawn = texts(svg);
      for (const text of drawn) {
        const [from, to] = extent(text);
        expect(from, text.content).toBeGreaterThanOrEqual(0);
        expect(to, text.content).toBeLessThanOrEqual(width);
        expect(text.y, text.content).toBeGreaterThan(0);
        expect(text.y, text.content).toBeLessThanOrEqual(height);
      }
      // every stage and phase named in full on the axes
      for (const [index, stage] of GLASL_STAGES.entries()) expect(drawn.map((text) => text.content)).toContain(`${index + 1} ${stage}`);
      for (const phase of KRIESBERG_PHASES) expect(drawn.map((text) => text.content)).toContain(phase.replace(/_/g, '-'));
      const ticks = drawn.filter((text) => text.tick).sort((a, b) => a.x - b.x);
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks[0].content).toBe(periods[0]);
      for (let i = 1; i < ticks.length; i++) expect(extent(ticks[i])[0], `${ticks[i - 1].content} / ${ticks[i].content}`).toBeGreaterThan(extent(ticks[i - 1])[1]);
      // one mark per stage and per phase concluded
      expect(svg.match(/class="mark"/g)).toHaveLength(2 * count);
    });
  }

  it('says so when no period has a stage or a phase', () => {
    expect(escalationChart('escalation', [{ period: '2024-01', other: {} }], 'month')).toContain('data-chart-empty="escalation"');
  });

  it("plots the trajectory's stage and phase from the first period that has one, the other conclusions beside them", () => {
    const point = (period: string, conclusions: { framework_id: string; key: string; value: string | number | boolean }[]) => ({ period, until: `${period}-28`, results: [], conclusions });
    const rows = escalationOf({
      period: 'month',
      truncated: 0,
      points: [
        point('2024-01', [{ framework_id: 'stedman', key: 'peace_process', value: 'yes' }]),
        point('2024-02', [{ framework_id: 'kriesberg', key: 'phase', value: 'emerging' }, { framework_id: 'kriesberg', key: 'trend', value: 'rising' }]),
        point('2024-03', [{ framework_id: 'glasl', key: 'stage', value: 4 }, { framework_id: 'kriesberg', key: 'phase', value: 'escalating' }]),
      ],
    });
    expect(rows).toEqual([
      { period: '2024-02', phase: 'emerging', other: { 'kriesberg.trend': 'rising' } },
      { period: '2024-03', stage: 4, phase: 'escalating', other: {} },
    ]);
  });
});
