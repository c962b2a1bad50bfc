import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LimitError } from '../../engine/errors.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { loadRuleModules } from '../../engine/prolog/framework-loader.ts';
import { runFramework, type FrameworkRun } from '../../engine/prolog/framework-run.ts';
import { FIXTURE_LIMITS, fixtureFiles, type FixtureCase } from '../../engine/reason/fixtures.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { ParleyStore } from '../../engine/store/store.ts';

// RuleRegistry.prepare (what a reasoning worker does when a replica arrives, and after writes):
// every built-in framework answers over a prepared view exactly as over a fresh copy of the graph.
const catalog = await loadRuleModules();
const manifests = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry.manifest] : []));
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-prepared-'));
const store = await ParleyStore.open(storeDir);
afterAll(async () => {
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
});

const limits = { ...FIXTURE_LIMITS, maxFindings: Infinity };
const withoutCost = ({ inferences: _, ...run }: FrameworkRun) => run;
const fresh = (graph: GraphIndex) => ({ graph: GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values()) });

/** Every fixture graph of the built-ins in one graph (each framework meets the others' evidence too), made once. */
let fixtureRecords: Promise<{ nodes: NodeRecord[]; edges: EdgeRecord[] }> | undefined;
function allFixtures(): Promise<{ nodes: NodeRecord[]; edges: EdgeRecord[] }> {
  return (fixtureRecords ??= (async () => {
    const write: { nodes: NodeRecord[]; edges: EdgeRecord[] } = { nodes: [], edges: [] };
    let graphs = 0;
    for (const entry of catalog.frameworks) {
      if (entry.status !== 'loaded') continue;
      for (const file of fixtureFiles(entry.dir)) {
        const fixture = JSON.parse(readFileSync(file, 'utf8')) as FixtureCase;
        await store.writeGraph('t', `g${++graphs}`, await graphWriteFromJson(fixture.graph));
        const stored = await store.loadGraph('t', `g${graphs}`);
        // ids made unique per fixture
        for (const node of stored.nodes.values()) write.nodes.push({ ...node, id: `${graphs}:${node.id}` });
        for (const edge of stored.edges.values()) write.edges.push({ ...edge, id: `${graphs}:${edge.id}`, from: `${graphs}:${edge.from}`, to: `${graphs}:${edge.to}` });
      }
    }
    return write;
  })());
}

describe('a prepared view', () => {
  it('gives every framework the results of a fresh copy, and after records are added, those of a fresh copy of the grown graph', async () => {
    const write = await allFixtures();
    const half = Math.floor(write.nodes.length / 2);
    const firstNodes = new Set(write.nodes.slice(0, half).map((node) => node.id));
    const graph = GraphIndex.fromRecords(write.nodes.slice(0, half), write.edges.filter((edge) => firstNodes.has(edge.from) && firstNodes.has(edge.to)));
    const view = { graph };
    expect(catalog.registry.prepare(view)).toBe(true);
    expect(catalog.registry.prepare(view)).toBe(false); // held already: nothing to do
    const onPrepared = manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, view, limits)));
    expect(onPrepared).toEqual(manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, fresh(graph), limits))));
    expect(onPrepared.filter((run) => run.applies).length).toBeGreaterThan(5);

    // the rest of the records added to the prepared graph (a write to the replica), prepared again
    expect(catalog.registry.prepare(view)).toBe(true); // after the fresh copies, the engine holds another view: whole again
    putLogged(graph, write.nodes.slice(half), write.edges.filter((edge) => !(firstNodes.has(edge.from) && firstNodes.has(edge.to))));
    expect(catalog.registry.prepare(view)).toBe(true);
    const grown = manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, view, limits)));
    expect(grown).toEqual(manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, fresh(graph), limits))));
    expect(grown).not.toEqual(onPrepared);
  }, 120_000);

  it('computes the shared sets within the limit it is given: past it the preload stops, and every framework still answers as over a fresh copy', async () => {
    const write = await allFixtures();
    const view = { graph: GraphIndex.fromRecords(write.nodes, write.edges) };
    let stopped: unknown;
    try {
      catalog.registry.prepare(view, { inferenceLimit: 1_000 });
    } catch (error) {
      stopped = error;
    }
    expect(stopped).toBeInstanceOf(LimitError);
    expect((stopped as LimitError).code).toBe('query_inference_limit');
    expect(catalog.registry.prepare(view)).toBe(false); // the facts and their indexes were handed over before the sets
    const runs = manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, view, limits)));
    expect(runs).toEqual(manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, fresh(view.graph), limits))));
    expect(runs.filter((run) => run.applies).length).toBeGreaterThan(5);
  }, 120_000);
});
