import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { periodCount, periodsBetween, runTask, type ReasonTask, type Trajectory } from '../../engine/reason/tasks.ts';
import type { Period } from '../../engine/reason/period.ts';
import type { ParleyStore } from '../../engine/store/store.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { validTime } from '../../engine/store/view.ts';
import { openTempStore, type TempStore } from '../helpers/store.ts';

describe('trajectory periods over any span', () => {
  it('builds only the periods it keeps, the last ones, and counts them all', () => {
    expect(periodsBetween('0001-01-15', '9999-12-31', 'month', 3)).toEqual([
      { label: '9999-10', until: '9999-10-31' },
      { label: '9999-11', until: '9999-11-30' },
      { label: '9999-12', until: '9999-12-31' },
    ]);
    expect(periodCount('0001-01-15', '9999-12-31', 'month')).toBe(9999 * 12);
    expect(periodsBetween('2023-08-01', '2024-04-01', 'quarter', 2).map((p) => p.label)).toEqual(['2024-Q1', '2024-Q2']);
    expect(periodCount('2023-08-01', '2024-04-01', 'quarter')).toBe(4);
    // keeping more than there are keeps them all
    expect(periodsBetween('2022-05-05', '2024-01-01', 'year', 60).map((p) => p.label)).toEqual(['2022', '2023', '2024']);
  });

  it('gives the years before 100 their own last days (Date.UTC reads them as 1900-1999)', () => {
    expect(periodsBetween('0004-01-10', '0004-03-01', 'month')).toEqual([
      { label: '0004-01', until: '0004-01-31' },
      { label: '0004-02', until: '0004-02-29' },
      { label: '0004-03', until: '0004-03-31' },
    ]);
    expect(periodsBetween('0099-11-30', '0100-02-01', 'quarter')).toEqual([
      { label: '0099-Q4', until: '0099-12-31' },
      { label: '0100-Q1', until: '0100-03-31' },
    ]);
  });
});

describe('valid time', () => {
  const node = (properties: Record<string, string>, timestamp = '2024-01-01T00:00:00.000Z') => ({
    id: 'n', labels: ['Claim'], properties, confidence: 1, recorded_at: '2024-06-01T00:00:00.000Z', provenance: [{ source: 'doc', timestamp }],
  });

  it('is a real calendar day: a date-shaped value that names none is no valid time', () => {
    expect(validTime(node({ timestamp: '2020-02-29T10:00:00Z' }))).toBe('2020-02-29');
    for (const bogus of ['2020-00-15', '2020-13-01', '2021-02-29', '2020-04-31', '2020-01-00']) {
      // the next source of a valid time is read instead: here the provenance timestamp
      expect(validTime(node({ timestamp: bogus })), bogus).toBe('2024-01-01');
      expect(validTime(node({ date: bogus, valid_from: '2019-07-04' })), bogus).toBe('2019-07-04');
    }
  });
});

describe('a trajectory over dates the store does not check', () => {
  let temp: TempStore;
  let store: ParleyStore;
  const catalogLoading = loadRuleModules();
  beforeAll(async () => {
    temp = await openTempStore('parley-trajectory-');
    store = temp.store;
  });
  afterAll(async () => temp.close());

  // a Claim's `timestamp` is outside the ontology's typed properties: any string is written as it is
  const trajectory = async (graphId: string, claimTimestamps: string[], period: Period, maxPeriods: number, timeLimitMs = 20_000): Promise<Trajectory> => {
    const nodes = [
      { kind: 'Actor', id: 'army', label: 'Northern Army', role: 'party' },
      { kind: 'Actor', id: 'villagers', label: 'River Valley villagers', role: 'party' },
      { kind: 'Event', id: 'ev1', event_type: 'ASSAULT', date: '2020-02-10', label: 'shelling of the valley', fatalities: 4 },
      { kind: 'Event', id: 'ev2', event_type: 'ASSAULT', date: '2020-05-01', label: 'raid on the market', fatalities: 9 },
      ...claimTimestamps.map((timestamp, i) => ({ kind: 'Claim', id: `c${i}`, type: 'Grievance', text: 'we are denied access to water', timestamp })),
    ];
    const edges = [
      ...['ev1', 'ev2'].flatMap((event) => [
        { type: 'PARTICIPATES_IN', from: 'army', to: event, role: 'perpetrator' },
        { type: 'PARTICIPATES_IN', from: 'villagers', to: event, role: 'target' },
      ]),
      ...claimTimestamps.map((_, i) => ({ type: 'ASSERTS', from: 'villagers', to: `c${i}` })),
    ];
    await store.writeGraph('t', graphId, await graphWriteFromJson({ nodes, edges }), { createGraph: true });
    const graph = await store.loadGraph('t', graphId);
    const task: ReasonTask = { kind: 'trajectory', at: { key: `t\0${graphId}`, generation: 'g', version: 1 }, frameworkIds: ['glasl'], period, maxPeriods, limits: { inferenceLimit: 5_000_000, timeLimitMs } };
    const reply = runTask(task, graph, await catalogLoading);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.value as Trajectory;
  };

  it('leaves out a date that names no day, instead of making a period of it', async () => {
    const { points, truncated } = await trajectory('month-zero', ['2020-00-15'], 'quarter', 60);
    expect(points.map((point) => `${point.period}:${point.until}`)).toEqual(['2020-Q1:2020-03-31', '2020-Q2:2020-06-30']);
    expect(truncated).toBe(0);
  });

  it('runs the frameworks on the last periods of a span of millennia, counting the others', async () => {
    const { points, truncated } = await trajectory('millennia', ['0001-01-01', '9999-12-31'], 'month', 2);
    expect(points.map((point) => point.period)).toEqual(['9999-11', '9999-12']);
    expect(truncated).toBe(9999 * 12 - 2);
    expect(points[1].results).toEqual([expect.objectContaining({ framework_id: 'glasl', applies: true })]);
  });

  it('is bounded as a whole by what an assess of its frameworks may take: the periods past it, the earliest, say so', async () => {
    const months = Array.from({ length: 24 }, (_, i) => `${2018 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-15`);
    const { points } = await trajectory('bounded', months, 'month', 60, 1);
    expect(points.length).toBeGreaterThan(20);
    expect(points[0].results).toEqual([
      expect.objectContaining({ framework_id: 'glasl', applies: false, error: { code: 'query_time_limit', message: 'the trajectory ran past its time limit of 1 ms (1 ms per framework)' } }),
    ]);
    const unbounded = await trajectory('unbounded', months, 'month', 60);
    expect(unbounded.points.every((point) => point.results.every((result) => result.error === undefined))).toBe(true);
  });
});
