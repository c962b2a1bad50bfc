import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework, type FrameworkRun } from '../../engine/frameworks/run.ts';
import { FIXTURE_LIMITS, fixtureFiles, type FixtureCase } from '../../engine/frameworks/fixtures.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { ParleyStore } from '../../engine/store/store.ts';

// The findings limit on every built-in framework's fixture graphs: a run capped at one ranked
// finding says the same as the whole run, less the findings it counts as left out.
const catalog = await loadRuleModules();
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-findings-limit-'));
const store = await ParleyStore.open(storeDir);
afterAll(async () => {
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
});

const sameConclusions = (run: FrameworkRun) => ({
  applies: run.applies,
  missing: run.missing,
  score: run.score,
  indicators_present: run.indicators_present,
  indicators_missing: run.indicators_missing,
  error: run.error,
});

describe('the findings limit', () => {
  it('keeps the fit, the indicators and every finding it keeps as they are, and counts the ones it leaves out', async () => {
    let graphs = 0;
    const omittedBy = new Map<string, number>();
    for (const entry of catalog.frameworks) {
      if (entry.status !== 'loaded') continue;
      for (const file of fixtureFiles(entry.dir)) {
        const fixture = JSON.parse(readFileSync(file, 'utf8')) as FixtureCase;
        const graphId = `g${++graphs}`;
        await store.writeGraph('t', graphId, await graphWriteFromJson(fixture.graph));
        const view = { graph: await store.loadGraph('t', graphId), ...(fixture.as_of ? { asOf: fixture.as_of } : {}) };
        const whole = runFramework(catalog.registry, entry.manifest, view, { ...FIXTURE_LIMITS, maxFindings: Infinity });
        const capped = runFramework(catalog.registry, entry.manifest, view, { ...FIXTURE_LIMITS, maxFindings: 1 });
        const where = `${entry.id} ${path.basename(file)}`;
        expect(whole.findings_omitted, where).toBe(0);
        expect(sameConclusions(capped), where).toEqual(sameConclusions(whole));
        expect(capped.findings.length + capped.findings_omitted, where).toBe(whole.findings.length);
        // the kept findings are findings of the whole run, unchanged and in its order
        const positions = capped.findings.map((finding) => whole.findings.findIndex((other) => JSON.stringify(other) === JSON.stringify(finding)));
        expect(positions.every((at) => at >= 0), where).toBe(true);
        expect(positions, where).toEqual([...positions].sort((a, b) => a - b));
        for (const finding of capped.findings) expect(finding.evidence.length, where).toBeGreaterThan(0);
        if (capped.findings_omitted > 0) omittedBy.set(entry.id, (omittedBy.get(entry.id) ?? 0) + capped.findings_omitted);
      }
    }
    // the frameworks that conclude per actor, pair or spoiler left some out on their fixtures
    expect([...omittedBy.keys()].sort()).toEqual(['burton', 'deutsch', 'fisher_ury', 'french_raven', 'stedman', 'thomas_kilmann']);
  }, 120_000);
});
