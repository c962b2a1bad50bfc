import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunLimits } from '../../engine/frameworks/run.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { graphFile } from '../../engine/store/snapshot.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { writeModule } from '../helpers/rule-module.ts';
import { until } from '../helpers/until.ts';

// Which assesses the pool stores the runs of (engine/reason/stored-runs.ts), seen through a restart of the pool and
// its store: only a whole graph's (no as_of, no scope), only runs that concluded, only of the version still current;
// and a deleted graph's are removed. test/http/stored-runs.test.ts restarts a whole server on them.
const LIMITS: RunLimits = { inferenceLimit: 1e12, timeLimitMs: 60_000 };
const actor = (id: string, label: string) => ({ id, labels: ['Actor'], properties: { label, role: 'party' } });
/** Counts to `n` through a built-in besides arithmetic (the heartbeat that checks the time is reached only through one). */
const counting = (n: number) => [`finding(k, v, s, [], []) :- spin(0).`, `spin(N) :- N >= ${n}, !.`, 'spin(N) :- atom_length(abc, _), M is N + 1, spin(M).'];
/** Runs for `seconds` of wall time, however fast the machine: long enough for a write to land while it runs. */
const lasting = (seconds: number) => [
  'finding(k, v, s, [], []) :- get_time(T0), wait_from(T0).',
  `wait_from(T0) :- get_time(T), T - T0 >= ${seconds}, !.`,
  'wait_from(T0) :- atom_length(abc, _), wait_from(T0).',
];

describe('the runs a pool stores for a restart', () => {
  let dir: string;
  let store: ParleyStore;
  let pool: ReasoningPool;
  const runsFile = () => graphFile(store.snapshotDir, 't', 'g', 'runs');
  const revisionIn = async (file: string) => (JSON.parse((await readFile(file, 'utf8')).split('\n')[0]) as { revision: number }).revision;
  const open = async () => {
    store = await ParleyStore.open(path.join(dir, 'store'));
    pool = await ReasoningPool.open(store, { workers: 1, frameworkDirs: [path.join(dir, 'modules')], viewImageBytes: 0 });
  };
  /** Closes the pool (it waits for the runs being stored) and the store, and opens both again. */
  const restart = async () => {
    await pool.close();
    await store.close();
    await open();
  };
  /** Runs `ids` over graph g and says how many runs were read from stored ones. */
  const assess = async (ids: string[], options: { asOf?: string; limits?: RunLimits; scoped?: boolean } = {}) => {
    const before = pool.storedRunsRead;
    const scope = options.scoped ? await pool.scope('t', 'g', { actors: ['Alpha'] }) : undefined;
    const { runs } = await pool.frameworks('t', 'g', ids, { limits: options.limits ?? LIMITS, ...(options.asOf ? { asOf: options.asOf } : {}), ...(scope ? { scope } : {}) });
    return { runs, read: pool.storedRunsRead - before };
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-stored-runs-pool-'));
    await writeModule(dir, 'fine', ["finding(k, v, 'actors there', Ids, [actors]) :- nodes_where('Actor', _, _, Ids), Ids \\== []."]);
    await writeModule(dir, 'broken', ["finding(k, V, 'a rule error', [], []) :- V is foo + 1."]);
    await writeModule(dir, 'spinner', counting(1e12));
    await writeModule(dir, 'slow', lasting(3));
    await open();
    await store.writeGraph('t', 'g', { nodes: [actor('a', 'Alpha')], edges: [] });
  });
  afterEach(async () => {
    await pool.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps only runs that concluded: one a rule error or a time limit stopped runs again after a restart', { timeout: 120_000 }, async () => {
    expect((await assess(['fine'])).read).toBe(0);
    const broken = await assess(['broken']);
    expect(broken.runs[0].error?.code).toBe('rule_error');
    const timed = await assess(['spinner'], { limits: { inferenceLimit: 1e12, timeLimitMs: 300 } });
    expect(timed.runs[0].error?.code).toBe('query_time_limit');
    await restart();
    expect((await assess(['fine'])).read).toBe(1);
    const again = await assess(['broken']);
    expect(again.read).toBe(0);
    expect(again.runs[0].error).toEqual(broken.runs[0].error);
    expect((await assess(['spinner'], { limits: { inferenceLimit: 1e12, timeLimitMs: 300 } })).read).toBe(0);
  });

  it('keeps none of an as_of or scoped assess, and answers neither from a whole graph\'s runs', { timeout: 120_000 }, async () => {
    const asOf = new Date().toISOString();
    await assess(['fine'], { asOf });
    await assess(['fine'], { scoped: true });
    await restart();
    expect(existsSync(runsFile())).toBe(false);
    await assess(['fine']);
    await restart();
    expect((await assess(['fine'], { asOf })).read).toBe(0);
    expect((await assess(['fine'], { scoped: true })).read).toBe(0);
    expect((await assess(['fine'])).read).toBe(1);
  });

  it('keeps no runs of a version a write replaced while they ran', { timeout: 120_000 }, async () => {
    let answered = false;
    const assessed = assess(['slow']).then((done) => ((answered = true), done));
    // the write lands while the run is under way (it lasts 3 s)
    await new Promise((resolve) => setTimeout(resolve, 500));
    await store.writeGraph('t', 'g', { nodes: [actor('b', 'Beta')], edges: [] });
    expect(answered).toBe(false);
    expect((await assessed).runs[0].error).toBeUndefined();
    await restart();
    // none, or (a later assess's) of the version after the write
    if (existsSync(runsFile())) expect(await revisionIn(runsFile())).toBe(await store.graphRevision('t', 'g'));
    expect((await assess(['slow'])).read).toBe(0);
  });

  it('removes a deleted graph\'s runs', { timeout: 120_000 }, async () => {
    await assess(['fine']);
    expect(await until(() => existsSync(runsFile()), 10_000)).toBe(true);
    await store.deleteGraph('t', 'g');
    expect(existsSync(runsFile())).toBe(false);
  });
});
