import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import type { FrameworkManifest } from '../../engine/frameworks/manifest.ts';
import { firstSorted, MAX_EVIDENCE_LISTED, MAX_RUN_EVIDENCE_LISTED, runFramework } from '../../engine/frameworks/run.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';

// A run lists the first ids of each finding's and indicator's evidence, and of the run's, in sort order, and counts them
// all (engine/frameworks/run.ts): what the whole list sorted, its repeats and the ids not in the graph taken out, gives.

/** What a run reports of a list of evidence: its distinct ids that are in the graph, sorted, the first `count` listed, the rest counted. */
const reported = (ids: string[], inGraph: (id: string) => boolean, count: number) => {
  const all = [...new Set(ids.filter(inGraph))].sort();
  return { evidence: all.slice(0, count), evidence_total: all.length };
};

describe('firstSorted', () => {
  /** Ids in an order of their own, a fifth of them repeated, some alike but for their case or a character beyond the first 65,536. */
  const shuffledIds = (count: number, seed: number) => {
    let state = seed;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
    const ids = Array.from({ length: count }, (_, i) => [`e${next() % 1000}`, `E${i}`, `n\u{1F600}${i % 7}`, `n\uFFFD${i % 5}`, `n${i}`][i % 5]);
    for (let i = 0; i < count / 5; i++) ids.push(ids[next() % ids.length]);
    return ids.sort(() => (next() % 3) - 1);
  };

  it('gives the first ids of a list in the order sort() gives them, each once, however the list comes', () => {
    for (const [seed, count, listed] of [
      [1, 400, 25],
      [2, 400, 100],
      [3, 60, 100],
      [4, 1, 25],
      [5, 0, 25],
    ]) {
      const ids = shuffledIds(count, seed);
      for (const order of [ids, [...ids].sort(), [...ids].sort().reverse()]) {
        expect(firstSorted(order, listed)).toEqual([...new Set(order)].sort().slice(0, listed));
        expect(firstSorted(new Set(order), listed)).toEqual([...new Set(order)].sort().slice(0, listed));
      }
    }
  });

  it('orders as sort() does, by UTF-16 code units (a character beyond the first 65,536 before U+FFFD), not by code points as Prolog does', () => {
    expect(firstSorted(['a\uFFFD', 'a\u{1F600}', 'B', 'a'], 3)).toEqual(['B', 'a', 'a\u{1F600}']);
  });
});

describe('a run\'s evidence, listed and counted', () => {
  // n000…n149 in the graph; the rules also cite ids the graph lacks (ghost…) and repeat ids, in descending and mixed orders
  const inGraph = Array.from({ length: 150 }, (_, i) => `n${String(i).padStart(3, '0')}`);
  const held = new Set(inGraph);
  const descending = [...inGraph].reverse();
  /** Every third id from the end, then every id from the middle down: repeats, and an order that is not the ids'. */
  const mixed = [...descending.filter((_, i) => i % 3 === 0), ...inGraph.slice(40, 90).reverse(), 'ghost1'];
  const atoms = (ids: string[]) => `[${ids.map((id) => `'${id}'`).join(', ')}]`;
  const RULES = [
    "indicator(many, 1, 'cited by two answers').",
    "indicator(few, 1, 'cited once').",
    "indicator(absent, 1, 'on no id in the graph').",
    `present(many, ${atoms(descending.slice(0, 70))}).`,
    `present(many, ${atoms([...descending.slice(60, 120), 'ghost2'])}).`,
    `present(few, ${atoms(['n149', 'n003', 'n003', 'n077'])}).`,
    "present(absent, ['ghost3']).",
    `finding(wide, yes, 'rests on many ids', ${atoms(mixed)}, [many]).`,
    `finding(narrow, yes, 'rests on few ids', ${atoms(['n120', 'n005', 'n120'])}, [few]).`,
    "finding(unfounded, yes, 'rests on no id in the graph', ['ghost4'], [many]).",
    `strength(wide, 0.7, ${atoms(['ghost5', 'n010'])}).`,
    "strength(unfounded, 0.9, ['ghost6']).",
  ].join('\n');
  const manifest: FrameworkManifest = {
    id: 'evidence_probe',
    name: 'Evidence probe',
    citation: 'the tests of engine/frameworks/run.ts',
    question: 'Which ids does a run list?',
    version: '1.0.0',
    reads: { nodes: ['Actor'], edges: [] },
    answers: ['escalation'],
  };
  const at = '2024-05-01T00:00:00.000Z';
  const actor = (id: string): NodeRecord => ({ id, labels: ['Actor'], properties: { label: id }, confidence: 0.9, recorded_at: at, provenance: [{ source: `doc-${id}`, timestamp: at }] });

  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-run-evidence-'));
  let store: ParleyStore;
  let graph: GraphIndex;
  let registry: RuleRegistry;
  beforeAll(async () => {
    await startProlog();
    registry = new RuleRegistry();
    registry.load(manifest.id, RULES, 'evidence_probe.pl');
    store = await ParleyStore.open(storeDir);
    await store.writeGraph('t', 'g', { nodes: inGraph.map(actor), edges: [] });
    graph = await store.loadGraph('t', 'g');
  });
  afterAll(async () => {
    await store.close();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('lists the first ids of each indicator, finding and the run, sorted, each once, the ids not in the graph left out, and counts them all', () => {
    const run = runFramework(registry, manifest, { graph }, { inferenceLimit: 1_000_000, timeLimitMs: 60_000 });
    expect(run.error).toBeUndefined();
    const has = (id: string) => held.has(id);
    const many = [...descending.slice(0, 70), ...descending.slice(60, 120), 'ghost2'];
    const few = ['n149', 'n003', 'n003', 'n077'];
    expect(run.indicators_present.map(({ name, evidence, evidence_total }) => ({ name, evidence, evidence_total }))).toEqual([
      { name: 'many', ...reported(many, has, MAX_EVIDENCE_LISTED) },
      { name: 'few', ...reported(few, has, MAX_EVIDENCE_LISTED) },
    ]);
    expect(run.indicators_present[0].evidence_total).toBe(120);
    expect(run.indicators_missing.map(({ name }) => name)).toEqual(['absent']);
    expect(run.findings.map(({ key, evidence, evidence_total }) => ({ key, evidence, evidence_total }))).toEqual([
      { key: 'wide', ...reported(mixed, has, MAX_EVIDENCE_LISTED) },
      { key: 'narrow', ...reported(['n120', 'n005', 'n120'], has, MAX_EVIDENCE_LISTED) },
    ]);
    expect(run.findings[1]).toMatchObject({ evidence: ['n005', 'n120'], evidence_total: 2 });
    // the run's: the union of the findings' and the present indicators' ids, the first hundred listed
    const cited = [...many, ...few, ...mixed, 'n120', 'n005'];
    expect({ evidence: run.evidence, evidence_total: run.evidence_total }).toEqual(reported(cited, has, MAX_RUN_EVIDENCE_LISTED));
    expect(run.evidence).toHaveLength(MAX_RUN_EVIDENCE_LISTED);
    expect(run.evidence_total).toBe(new Set(cited.filter(has)).size);
    // a strength counts only on evidence in the graph: the one on ghost6 alone scores nothing
    expect([run.strongest, run.score]).toEqual(['wide', 0.7]);
  });

  it('does not keep a run whose only id the graph lacks is the last of a strength\'s list, after an id in the view', () => {
    // records added later may hold that id, so the run is worked out again; a strength on ids all held is kept (the control)
    const limits = { inferenceLimit: 1_000_000, timeLimitMs: 60_000 };
    const strengthOn = (id: string, ids: string[]) => {
      const probe = { ...manifest, id };
      registry.load(id, `indicator(cited, 1, 'cited by the strength').\nfinding(tail, yes, 'rests on n010', ['n010'], [cited]).\nstrength(tail, 0.5, ${atoms(ids)}).`, `${id}.pl`);
      const first = runFramework(registry, probe, { graph }, limits);
      return { first, second: runFramework(registry, probe, { graph }, limits) };
    };
    const unknownLast = strengthOn('strength_unknown_last', ['n010', 'n011', 'ghost7']);
    const allHeld = strengthOn('strength_all_held', ['n010', 'n011']);
    for (const { first } of [unknownLast, allHeld]) expect([first.error, first.strongest, first.score]).toEqual([undefined, 'tail', 0.5]);
    expect(allHeld.first.inferences).toBeGreaterThan(0);
    expect(allHeld.second.inferences).toBe(0);
    expect(unknownLast.second.inferences).toBeGreaterThan(0);
    expect({ ...unknownLast.second, inferences: 0 }).toEqual({ ...unknownLast.first, inferences: 0 });
  });
});
