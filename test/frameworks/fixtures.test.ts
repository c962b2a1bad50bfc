import { describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { fixtureFiles, runFixtures } from '../../engine/frameworks/fixtures.ts';

// Every built-in framework, through the loader the server uses, against its own fixture graphs.
const catalog = await loadRuleModules();

describe('built-in frameworks', () => {
  it('all load', () => {
    const refused = catalog.frameworks.filter((entry) => entry.status === 'refused');
    expect(refused).toEqual([]);
  });

  for (const entry of catalog.frameworks) {
    if (entry.status !== 'loaded') continue;
    describe(entry.id, () => {
      it('has a README for analysts and at least three fixtures, one of them without enough evidence', () => {
        expect(entry.readme.length).toBeGreaterThan(200);
        expect(fixtureFiles(entry.dir).length).toBeGreaterThanOrEqual(3);
      });

      it('concludes on its fixture graphs as expected', async () => {
        const outcomes = await runFixtures(catalog.registry, entry.manifest, entry.dir);
        const failures = outcomes.filter((outcome) => outcome.failures.length > 0).map((outcome) => ({ file: outcome.file, failures: outcome.failures }));
        expect(failures).toEqual([]);
        // fixtures cover both sides: one that applies with findings, one that does not apply
        expect(outcomes.some((outcome) => outcome.run?.applies && outcome.run.findings.length > 0)).toBe(true);
        expect(outcomes.some((outcome) => outcome.run && !outcome.run.applies && outcome.run.missing.length > 0)).toBe(true);
        // every finding rests on evidence that exists in its graph, with a readable trace
        for (const outcome of outcomes) {
          for (const finding of outcome.run?.findings ?? []) {
            expect(finding.evidence.length).toBeGreaterThan(0);
            expect(finding.trace.length).toBeGreaterThan(1);
          }
        }
      });
    });
  }
});
