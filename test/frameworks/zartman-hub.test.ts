import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework } from '../../engine/frameworks/run.ts';
import { FIXTURE_LIMITS } from '../../engine/frameworks/fixtures.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import type { GraphWrite } from '../../engine/store/validate.ts';

// zartman on a hub: one actor's assaults on many opponents that attack it back. Every pair of the hub
// and an opponent is a state whose attacks hold the hub's assaults, so the violence indicators and
// the stalemate read the union of many long lists: they read each side's assaults once instead.
const catalog = await loadRuleModules();
const zartman = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' && entry.id === 'zartman' ? [entry.manifest] : []))[0]!;
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-zartman-hub-'));
const store = await ParleyStore.open(storeDir);
afterAll(async () => {
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
});

const HUB_ASSAULTS = 1_000;
const OPPONENTS = 100;
const day = (offset: number) => new Date(Date.UTC(2024, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** Adds to `write` the assault `id` of `by` on `on` at `date`. */
function addAssault(write: GraphWrite, id: string, date: string, by: string, on: string): void {
  write.nodes.push({ id, labels: ['Event'], properties: { event_type: 'ASSAULT', date, label: id } });
  write.edges.push({ id: `${id}-by`, type: 'PARTICIPATES_IN', from: by, to: id, properties: { role: 'perpetrator' } });
  write.edges.push({ id: `${id}-on`, type: 'PARTICIPATES_IN', from: on, to: id, properties: { role: 'target' } });
}

/** The hub's assaults spread over 100 days on the opponents in turn, and one assault of each opponent on the hub. */
function hubGraph(): GraphWrite {
  const write: GraphWrite = { nodes: [{ id: 'hub', labels: ['Actor'], properties: { label: 'Hub' } }], edges: [] };
  for (let i = 0; i < OPPONENTS; i++) write.nodes.push({ id: `x${i}`, labels: ['Actor'], properties: { label: `Opponent ${i}` } });
  for (let i = 0; i < HUB_ASSAULTS; i++) addAssault(write, `h${i}`, day(i % 100), 'hub', `x${i % OPPONENTS}`);
  for (let i = 0; i < OPPONENTS; i++) addAssault(write, `r${i}`, day(60 + (i % 40)), `x${i}`, 'hub');
  return write;
}

/** One more opponent, assaulted by the hub and assaulting it back: a write that grows the hub's side and adds a state. */
function newOpponent(): GraphWrite {
  const write: GraphWrite = { nodes: [{ id: 'x_new', labels: ['Actor'], properties: { label: 'Opponent new' } }], edges: [] };
  addAssault(write, 'h_new', day(98), 'hub', 'x_new');
  addAssault(write, 'r_new', day(99), 'x_new', 'hub');
  return write;
}

describe('zartman on a hub', () => {
  it('finds the sustained violence of every pair, read once per side', async () => {
    await store.writeGraph('t', 'hub', hubGraph());
    const run = runFramework(catalog.registry, zartman, { graph: await store.loadGraph('t', 'hub') }, FIXTURE_LIMITS);
    expect(run.error).toBeUndefined();
    // every pair attacks both ways over 100 days up to the reference date, and nobody yields or speaks of the cost
    const present = new Map(run.indicators_present.map((indicator) => [indicator.name, indicator]));
    for (const name of ['sustained_violence', 'no_side_gaining']) {
      expect(present.get(name)?.evidence_total, name).toBe(HUB_ASSAULTS + OPPONENTS);
      expect(present.get(name)?.evidence, name).toEqual([...Array.from({ length: HUB_ASSAULTS }, (_, i) => `h${i}`), ...Array.from({ length: OPPONENTS }, (_, i) => `r${i}`)].sort().slice(0, present.get(name)!.evidence.length));
    }
    const stalemate = run.findings.find((finding) => finding.key === 'hurting_stalemate');
    expect(stalemate?.value).toBe('no');
    expect(stalemate?.evidence_total).toBe(HUB_ASSAULTS + 1); // the closest pair: the hub and its first opponent
    expect(stalemate?.trace.join('\n')).toMatch(/indicator sustained_violence .* and 1075 more\n.*indicator no_side_gaining .* and 1075 more/s);
    // a union of the pairs' lists copied the hub's assaults once per pair, in each of the dozen reads of them
    // (1,233,167 inferences at 286c659); read once per side, the run takes 233,633
    expect(run.inferences).toBeLessThan(400_000);
  }, 60_000);

  it('answers after a write to the hub as a fresh run over the same graph does', async () => {
    // (the first test's run left the view and its kept states in the engine: the write grows them)
    const held = await store.loadGraph('t', 'hub');
    await store.writeGraph('t', 'hub', newOpponent());
    const grown = await store.loadGraph('t', 'hub');
    expect(grown).toBe(held); // the same view, a write added to it
    const afterWrite = runFramework(catalog.registry, zartman, { graph: grown }, FIXTURE_LIMITS);
    await store.writeGraph('t', 'hub-fresh', { nodes: [...hubGraph().nodes, ...newOpponent().nodes], edges: [...hubGraph().edges, ...newOpponent().edges] });
    const fresh = runFramework(catalog.registry, zartman, { graph: await store.loadGraph('t', 'hub-fresh') }, FIXTURE_LIMITS);
    expect(afterWrite.error).toBeUndefined();
    expect(fresh.error).toBeUndefined();
    expect(afterWrite.indicators_present.find((indicator) => indicator.name === 'sustained_violence')?.evidence_total).toBe(HUB_ASSAULTS + OPPONENTS + 2);
    // the states kept from the first run grown, not found again (54,542 inferences against the fresh run's 232,255 at 7305d2f)
    expect(afterWrite.inferences).toBeLessThan(fresh.inferences / 2);
    expect(afterWrite.indicators_present).toEqual(fresh.indicators_present);
    expect(afterWrite.findings).toEqual(fresh.findings);
  }, 60_000);
});
