import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogKey } from '../../engine/frameworks/catalog-cache.ts';
import type { FrameworkRun, RunLimits } from '../../engine/frameworks/run.ts';
import { MAX_STORED_RUN_BYTES, StoredRuns, storedRunsKey } from '../../engine/reason/stored-runs.ts';
import { graphFile } from '../../engine/store/snapshot.ts';

// The runs kept on disk for a graph version (engine/reason/stored-runs.ts) are read back only for that version,
// code and rules, and limits; test/http/stored-runs.test.ts restarts a server on them.
const AT = { tenant: 't', graphId: 'g', generation: 'gen1', revision: 7 };
const LIMITS: RunLimits = { inferenceLimit: 1_000_000, timeLimitMs: 5_000, maxFindings: 25 };
const runOf = (id: string, score: number): FrameworkRun => ({
  framework_id: id, name: id, applies: true, missing: [], score, strongest: 'high', coverage: 0.5,
  indicators_present: [{ name: 'i', description: 'an indicator', weight: 1, evidence: ['a'], evidence_total: 1 }], indicators_missing: [],
  findings: [{ key: 'stage', value: ['x', 2], statement: 'a stage', evidence: ['a'], evidence_total: 1, trace: ['stage = x'] }],
  findings_omitted: 0, evidence: ['a'], evidence_total: 1, trace: ['stage = x'], inferences: 1234,
});

describe('framework runs stored on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-stored-runs-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('are read back as kept, for any subset of them, and only for the version, code and limits that made them', async () => {
    const stored = await StoredRuns.open(dir, 'code-1');
    await stored.keep(AT, LIMITS, [runOf('glasl', 0.8)]);
    await stored.keep(AT, LIMITS, [runOf('zartman', 0.3)]); // added beside the first
    expect(await stored.read(AT, LIMITS, ['zartman', 'glasl'])).toEqual([runOf('zartman', 0.3), runOf('glasl', 0.8)]);
    expect(await stored.read(AT, LIMITS, ['glasl', 'azar'])).toBeUndefined();
    expect(await stored.read({ ...AT, revision: 8 }, LIMITS, ['glasl'])).toBeUndefined();
    expect(await stored.read({ ...AT, generation: 'gen2' }, LIMITS, ['glasl'])).toBeUndefined();
    expect(await stored.read({ ...AT, tenant: 'u' }, LIMITS, ['glasl'])).toBeUndefined();
    expect(await stored.read(AT, { ...LIMITS, maxFindings: 3 }, ['glasl'])).toBeUndefined();
    expect(await stored.read(AT, { inferenceLimit: LIMITS.inferenceLimit, timeLimitMs: LIMITS.timeLimitMs }, ['glasl'])).toEqual([runOf('glasl', 0.8)]); // (25, the default)
    expect(await (await StoredRuns.open(dir, 'code-2')).read(AT, LIMITS, ['glasl'])).toBeUndefined();
    // a later version replaces them
    await stored.keep({ ...AT, revision: 8 }, LIMITS, [runOf('azar', 0.1)]);
    expect(await stored.read(AT, LIMITS, ['glasl'])).toBeUndefined();
    expect(await stored.read({ ...AT, revision: 8 }, LIMITS, ['azar'])).toEqual([runOf('azar', 0.1)]);
  });

  it('are not read when torn or past their bound, and removed at start when beside no snapshot', async () => {
    const stored = await StoredRuns.open(dir, 'code-1');
    await stored.keep(AT, LIMITS, [runOf('glasl', 0.8)]);
    const file = graphFile(dir, AT.tenant, AT.graphId, 'runs');
    const content = await readFile(file);
    await writeFile(file, content.subarray(0, content.length - 10));
    expect(await stored.read(AT, LIMITS, ['glasl'])).toBeUndefined();
    // nor one past the bound, though whole (none larger is written)
    const [header, runs] = content.toString().split('\n');
    await writeFile(file, `${header}\n${runs}`);
    expect(await stored.read(AT, LIMITS, ['glasl'])).toEqual([runOf('glasl', 0.8)]);
    await writeFile(file, `${header}\n${runs}${' '.repeat(MAX_STORED_RUN_BYTES)}`);
    expect(await stored.read(AT, LIMITS, ['glasl'])).toBeUndefined();
    await writeFile(graphFile(dir, AT.tenant, AT.graphId, 'snapshot'), 'a snapshot');
    await StoredRuns.open(dir, 'code-1');
    expect(existsSync(file)).toBe(true);
    await rm(graphFile(dir, AT.tenant, AT.graphId, 'snapshot'));
    await StoredRuns.open(dir, 'code-1');
    expect(existsSync(file)).toBe(false);
  });

  it('are pinned to the rule files: a rule changed in place changes their key', async () => {
    const rules = path.join(dir, 'rules');
    await mkdir(path.join(rules, 'probe'), { recursive: true });
    await writeFile(path.join(rules, 'probe', 'rules.pl'), "finding(k, v, 'first', [], []).");
    const before = storedRunsKey(catalogKey([rules]));
    expect(storedRunsKey(catalogKey([rules]))).toBe(before);
    await writeFile(path.join(rules, 'probe', 'rules.pl'), "finding(k, v, 'second', [], []).");
    expect(storedRunsKey(catalogKey([rules]))).not.toBe(before);
  });
});
