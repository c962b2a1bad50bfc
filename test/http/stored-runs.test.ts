import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import { graphFile } from '../../engine/store/snapshot.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { writeModule } from '../helpers/rule-module.ts';
import { until } from '../helpers/until.ts';

// A restarted server answers the first assess of an untouched graph from the whole graph's runs stored beside its
// snapshot (engine/reason/stored-runs.ts), as fresh runs answer it; a write (here one that moves the reference
// date), a changed rule module or other limits between the store and the restart give fresh runs. What was read is
// seen in the pool's count of runs read from stored ones, not in timing.
const TENANT = 'tenant-a';

describe('framework runs stored across restarts of the server', () => {
  let dir: string;
  let rulesDir: string;
  let key: string;
  let workspace: string;
  let t: TestApp | undefined;
  const runsFile = () => graphFile(path.join(dir, 'store', 'snapshots'), TENANT, 'g', 'runs');
  const post = (url: string, payload: object) => t!.app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });
  /** The assessment a client sees, less what differs from call to call (inferences). */
  const assess = async () => {
    const response = await post(`/v1/workspaces/${workspace}/assess`, {});
    expect(response.statusCode).toBe(200);
    return JSON.stringify(response.json(), (name, value) => (name === 'inferences' ? undefined : value));
  };
  const probe = (assessed: string) => (JSON.parse(assessed) as { assessments: { framework_id: string; findings: { value: unknown; statement: string }[] }[] }).assessments.find((a) => a.framework_id === 'probe')!.findings[0];
  const loaded = () => t!.deps.reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded').length;
  const stored = () => until(() => existsSync(runsFile()), 30_000);
  /** The stored runs' first line: the version, code and limits they are of. */
  const header = () => (existsSync(runsFile()) ? (JSON.parse(readFileSync(runsFile(), 'utf8').split('\n')[0]) as { revision: number; code: string }) : undefined);
  /** Whether runs of the graph's version now come to be stored (by this assess or an earlier one at this version). */
  const storedNow = async () => {
    const revision = await t!.store.graphRevision(TENANT, 'g');
    return until(() => header()?.revision === revision, 30_000);
  };
  const restart = async (overrides = {}) => {
    await t?.close();
    t = await makeTestApp({ frameworkDirs: [rulesDir], ...overrides }, { dir, keepData: true });
  };
  const folders: string[] = [];
  /** A folder of rule modules holding the probe framework, beside the built-in ones: it concludes the reference date, in `words`. */
  const probeFolder = async (words: string) => {
    const folder = await mkdtemp(path.join(tmpdir(), 'parley-stored-runs-rules-'));
    folders.push(folder);
    const probe = await writeModule(folder, 'probe', [`finding(reference, D, '${words}', Ids, [actors]) :- reference_date(D), nodes_where('Actor', _, _, Ids), Ids \\== [].`]);
    return path.dirname(probe);
  };

  beforeAll(async () => {
    rulesDir = await probeFolder('The reference date, first words');
    t = await makeTestApp({ frameworkDirs: [rulesDir] }, { keepData: true });
    dir = t.dir;
    key = await t.keyFor(TENANT);
    await t.store.writeGraph(TENANT, 'g', generate(3_000).write);
    workspace = (await post('/v1/workspaces', { name: 'w', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' })).json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('are kept after an assess and answer the first assess after a restart, as the fresh runs did', { timeout: 300_000 }, async () => {
    const fresh = await assess();
    expect(t!.deps.reasoning.storedRunsRead).toBe(0);
    expect(await stored()).toBe(true);
    await restart();
    expect(await assess()).toBe(fresh);
    expect(t!.deps.reasoning.storedRunsRead).toBe(loaded());
    // and the same once more with none kept: fresh runs on a server that never assessed
    await t!.close();
    t = undefined;
    await rm(runsFile());
    await restart();
    expect(await assess()).toBe(fresh);
    expect(t!.deps.reasoning.storedRunsRead).toBe(0);
  });

  it('are not read after a write: one that moves the reference date gives fresh runs that conclude it', { timeout: 300_000 }, async () => {
    const before = await assess();
    // runs of the version before the write stored (the test before stored them, at this version)
    expect(await storedNow()).toBe(true);
    const write = await post('/v1/graphs/g/import', { nodes: [{ kind: 'Event', id: 'late_event', label: 'A late event', event_type: 'ASSAULT', date: '2026-01-01' }], edges: [] });
    expect(write.statusCode).toBe(200);
    await restart();
    const after = await assess();
    expect(t!.deps.reasoning.storedRunsRead).toBe(0);
    expect(probe(before).value).not.toBe('2026-01-01');
    expect(probe(after).value).toBe('2026-01-01');
  });

  it('are not read under other rules or other limits', { timeout: 300_000 }, async () => {
    expect(await storedNow()).toBe(true);
    const code = header()!.code;
    // other rules: a process makes its rule modules' key once (engine/frameworks/catalog.ts), so here another folder
    // of them; test/reason/stored-runs.test.ts changes a file in place
    rulesDir = await probeFolder('The reference date, second words');
    await restart();
    expect(probe(await assess()).statement).toBe('The reference date, second words');
    expect(t!.deps.reasoning.storedRunsRead).toBe(0);
    expect(await until(() => header()?.code !== code, 30_000)).toBe(true);
    // those runs stored in turn, a restart with another findings limit runs afresh, and one with the same reads them
    await restart({ findingsLimit: 3 });
    await assess();
    expect(t!.deps.reasoning.storedRunsRead).toBe(0);
    await restart({ findingsLimit: 3 });
    await assess();
    expect(t!.deps.reasoning.storedRunsRead).toBe(loaded());
  });
});
