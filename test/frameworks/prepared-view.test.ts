import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LimitError } from '../../engine/errors.ts';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework, type FrameworkRun } from '../../engine/frameworks/run.ts';
import { FIXTURE_LIMITS, fixtureFiles, type FixtureCase } from '../../engine/frameworks/fixtures.ts';
import { runTask, type ReasonTask, type Trajectory } from '../../engine/reason/tasks.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';
import { validTime } from '../../engine/store/view.ts';
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
    expect(catalog.registry.prepare(view)).toBe(false); // the fresh copies' views were held besides it (engine/prolog/bridge.ts): still held
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

// A trajectory's periods are views of one graph at valid-time cuts, the engine keeping the last one's facts
// between them (bridge.ts): each must give what a fresh copy cut there gives, in every byte, whatever
// order the cuts come in.
describe('a view at one valid-time cut after another', () => {
  const cutRuns = (view: { graph: GraphIndex; validUntil?: string }) => manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, view, limits)));

  it('gives every framework the results of a fresh copy cut there, the cuts going back and forth', async () => {
    const write = await allFixtures();
    const graph = GraphIndex.fromRecords(write.nodes, write.edges);
    const days = [...new Set(write.nodes.map((node) => validTime(node)).filter((day): day is string => day !== undefined))].sort();
    expect(days.length).toBeGreaterThan(20);
    const at = (share: number) => days[Math.floor((days.length - 1) * share)];
    // from the whole graph (an assess's view) on: earlier, later, the same day as an instant, uncut again
    const cuts = [undefined, at(1), at(0.8), at(0.55), at(0.3), at(0.05), at(0.5), at(0.9), `${at(0.9)}T12:00:00Z`, at(0.2), undefined, at(0.6)];
    // one cut after another on the graph held, then each on a fresh copy (a run on a copy hands its view over)
    const held = cuts.map((validUntil) => cutRuns({ graph, validUntil }));
    cuts.forEach((validUntil, i) => expect(held[i], validUntil).toEqual(cutRuns({ graph: fresh(graph).graph, validUntil })));
    expect(new Set(held.map((runs) => JSON.stringify(runs))).size).toBeGreaterThan(5); // the cuts show different graphs
  }, 120_000);

  // french_raven cites the first five alliances of the communities (lib/conflict.pl allied/3 reads a
  // node's edges in the order the facts were asserted): an alliance of a later valid time, earlier in the
  // graph than the others, must come first when its cut shows it
  it('keeps the facts in the order a whole hand-over gives them, which the rules read', () => {
    const record = (id: string, properties: Record<string, string | number>) => ({ id, confidence: 1, provenance: [], recorded_at: '2022-01-01T00:00:00.000Z', properties });
    const actor = (id: string, actor_type: string) => ({ ...record(id, { label: `Actor ${id}`, role: 'party', actor_type }), labels: ['Actor'] });
    const alliance = (i: number, properties: Record<string, string> = {}) => ({ ...record(`e${i}`, properties), type: 'ALLIED_WITH', from: 'community', to: `x${i}` });
    const nodes = [
      actor('community', 'community'),
      ...[1, 2, 3, 4, 5, 6].map((i) => actor(`x${i}`, 'armed_group')),
      { ...record('talks', { event_type: 'CONSULT', date: '2021-01-10', label: 'talks' }), labels: ['Event'] },
      { ...record('raid', { event_type: 'ASSAULT', date: '2021-05-20', label: 'raid' }), labels: ['Event'] },
    ];
    const edges = [alliance(1, { valid_from: '2021-05-01' }), ...[2, 3, 4, 5, 6].map((i) => alliance(i))];
    const graph = GraphIndex.fromRecords(nodes, edges);
    const referent = (runs: Omit<FrameworkRun, 'inferences'>[]) => runs.find((run) => run.framework_id === 'french_raven')!.indicators_present.find((indicator) => indicator.name === 'referent')!.evidence;
    const cuts = ['2021-03-31', '2021-06-30', '2021-03-31', '2021-06-30'];
    const held = cuts.map((validUntil) => cutRuns({ graph, validUntil }));
    cuts.forEach((validUntil, i) => {
      expect(held[i], validUntil).toEqual(cutRuns({ graph: fresh(graph).graph, validUntil }));
      expect(referent(held[i])).toEqual(validUntil === '2021-03-31' ? ['community', 'e2', 'e3', 'e4', 'e5', 'e6'] : ['community', 'e1', 'e2', 'e3', 'e4', 'e5']);
    });
  });

  it('gives a trajectory, period by period, what the cut of each period gives a fresh copy', async () => {
    const write = await allFixtures();
    const graph = GraphIndex.fromRecords(write.nodes, write.edges);
    catalog.registry.prepare({ graph }); // as a worker holds it, for an assess before the trajectory
    const frameworkIds = manifests.map((manifest) => manifest.id);
    const task: ReasonTask = { kind: 'trajectory', at: { key: 't\0all', generation: 'g', version: 1 }, frameworkIds, period: 'year', maxPeriods: 60, limits };
    const reply = runTask(task, graph, catalog);
    if (!reply.ok) throw new Error(reply.error.message);
    const { points } = reply.value as Trajectory;
    expect(points.length).toBeGreaterThan(2);
    for (const point of points) {
      // each period on a fresh copy, a whole hand-over
      const alone = manifests.map((manifest) => {
        const { framework_id, applies, score, findings, findings_omitted, missing, error } = runFramework(catalog.registry, manifest, { ...fresh(graph), validUntil: point.until }, limits);
        return { framework_id, applies, score, findings, findings_omitted, missing, ...(error ? { error } : {}) };
      });
      expect(point.results, point.period).toEqual(alone);
    }
  }, 120_000);
});

describe('a framework run over a view the engine does not hold yet', () => {
  it('has its whole time limit for its rules: the view is handed over before its clock starts', async () => {
    // a framework whose finding takes some 100k inferences (past the heartbeat that checks the time), over
    // 40k actors (some 160k facts) whose hand-over takes longer than the run's limit, as a 1M-fact graph's
    // did for the first run of every reasoning worker
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-handover-'));
    try {
      const folder = path.join(dir, 'counting');
      mkdirSync(folder);
      const manifest = { id: 'counting', name: 'Counting', citation: 'Hand-over test (2026).', question: 'Is there an actor?', version: '1.0.0', reads: { nodes: ['Actor'], edges: [] }, answers: ['negotiation'] };
      writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
      writeFileSync(path.join(folder, 'README.md'), '# Counting\n\nCounts to thirty thousand and names an actor.\n');
      writeFileSync(
        path.join(folder, 'rules.pl'),
        [
          "indicator(counted, 1, 'an actor, and a count').",
          "present(counted, [Id]) :- node(Id, 'Actor'), !.",
          "finding(counted, N, 'counted', [Id], [counted]) :- count_to(0, N), node(Id, 'Actor'), !.",
          // (a built-in besides arithmetic in the loop: the heartbeat that checks the time is reached only through one)
          'count_to(N, N) :- N >= 30000, !.',
          'count_to(I, N) :- atom_length(abc, _), J is I + 1, count_to(J, N).',
        ].join('\n'),
      );
      const counting = await loadRuleModules([dir]);
      const entry = counting.frameworks.find((candidate) => candidate.id === 'counting');
      if (entry?.status !== 'loaded') throw new Error('the counting framework did not load');
      const actors: NodeRecord[] = Array.from({ length: 40_000 }, (_, i) => ({
        id: `actor-${i}`,
        labels: ['Actor'],
        properties: { label: `Actor ${i}`, actor_type: 'armed_group', role: 'party' },
        confidence: 0.9,
        provenance: [],
        recorded_at: '2024-01-01T00:00:00.000Z',
      }));
      const timeLimitMs = 200;
      const started = performance.now();
      const run = runFramework(counting.registry, entry.manifest, { graph: GraphIndex.fromRecords(actors, []) }, { inferenceLimit: 1_000_000, timeLimitMs });
      expect(performance.now() - started).toBeGreaterThan(timeLimitMs); // the hand-over alone took longer
      expect(run.error).toBeUndefined();
      expect(run.findings).toEqual([expect.objectContaining({ key: 'counted', value: 30_000 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The sets the frameworks keep for a view (view_set/3) record what they read, and a write keeps those it
// cannot change (lib/graph.pl read_note/1): after each kind of write, every framework must answer over the
// view held exactly as over a fresh copy of the written graph, in every byte.
describe('a view held across writes of each kind', () => {
  const runsOf = (view: { graph: GraphIndex; validUntil?: string }) => JSON.stringify(manifests.map((manifest) => withoutCost(runFramework(catalog.registry, manifest, view, limits))));
  const recorded_at = '2024-06-01T00:00:00.000Z';

  it('gives every framework the results of a fresh copy after a node of each label, an edge of each type, a property change, a new reference date and a valid-time cut', async () => {
    const write = await allFixtures();
    const graph = GraphIndex.fromRecords(write.nodes, write.edges);
    const view = { graph };
    const days = write.nodes.map((node) => validTime(node)).filter((day): day is string => day !== undefined).sort();
    const labels = [...new Set(write.nodes.flatMap((node) => node.labels))].sort();
    const types = [...new Set(write.edges.map((edge) => edge.type))].sort();
    expect(labels.length).toBeGreaterThan(5);
    expect(types.length).toBeGreaterThan(10);
    let written = 0;
    // a copy of a record of the graph under a new id: a node as the graph holds them, an edge joining the start of one edge of its type to the end of another
    const nodeLike = (label: string): NodeRecord => {
      const model = write.nodes.filter((node) => node.labels.includes(label))[written % 3] ?? write.nodes.find((node) => node.labels.includes(label))!;
      return { ...model, id: `written-${++written}`, recorded_at };
    };
    const edgeLike = (type: string): EdgeRecord => {
      const same = write.edges.filter((edge) => edge.type === type);
      return { ...same[0], id: `written-${++written}`, from: same[0].from, to: same[same.length - 1].to, recorded_at };
    };
    const writes: { name: string; put: () => void; view?: { graph: GraphIndex; validUntil?: string } }[] = [
      ...labels.map((label) => ({ name: `a node of label ${label}`, put: () => putLogged(graph, [nodeLike(label)], []) })),
      ...types.map((type) => ({ name: `an edge of type ${type}`, put: () => putLogged(graph, [], [edgeLike(type)]) })),
      {
        name: 'a claim asserted by a new actor, about an issue held',
        put: () => {
          const actor = nodeLike('Actor');
          const claim = nodeLike('Claim');
          putLogged(graph, [actor, claim], [{ ...edgeLike('ASSERTS'), from: actor.id, to: claim.id }, { ...edgeLike('ABOUT'), from: claim.id }]);
        },
      },
      {
        name: 'a new reference date (an event after every other)',
        put: () => putLogged(graph, [{ ...nodeLike('Event'), properties: { event_type: 'ASSAULT', date: '2031-01-01', label: 'a later assault', fatalities: 2 } }], []),
      },
      {
        name: 'a property changed (a claim replaced)',
        put: () => {
          const claim = graph.node(write.nodes.find((node) => node.labels.includes('Claim'))!.id)!;
          putLogged(graph, [{ ...claim, properties: { ...claim.properties, type: 'Threat', text: 'we will strike and never negotiate' } }], []);
        },
      },
      { name: 'a valid-time cut', put: () => {}, view: { graph, validUntil: days[Math.floor(days.length / 2)] } },
    ];
    for (const { name, put, view: after = view } of writes) {
      runsOf(view); // the graph held, the sets of every framework computed
      put();
      expect(runsOf(after), name).toBe(runsOf({ ...after, graph: fresh(graph).graph }));
    }
  }, 600_000);

  it('gives a run again, spending no inference, when a write added nothing it read, and runs it again when it did', async () => {
    const write = await allFixtures();
    const graph = GraphIndex.fromRecords(write.nodes, write.edges);
    const runs = () => manifests.map((manifest) => runFramework(catalog.registry, manifest, { graph }, limits));
    runs(); // every run kept
    const issue: NodeRecord = { id: 'written-issue', labels: ['Issue'], properties: { label: 'grazing rights' }, confidence: 0.9, provenance: [], recorded_at };
    putLogged(graph, [issue], []);
    const after = runs();
    const again = (id: string) => after.find((run) => run.framework_id === id)!.inferences === 0;
    expect(again('fearon')).toBe(false); // it reads the issues' names
    expect(manifests.filter((manifest) => again(manifest.id)).length).toBeGreaterThan(5);
    expect(runs().every((run) => run.inferences === 0)).toBe(true); // nothing added since
  }, 120_000);

  it('is read by the built-in rule modules only through the graph predicates, which note what a set reads', () => {
    const factsNamed = (file: string) => [...new Set(readFileSync(file, 'utf8').match(/\bg_[a-z]+(?=\()/g) ?? [])];
    for (const entry of catalog.frameworks) expect(factsNamed(path.join(entry.dir, 'rules.pl')), entry.id).toEqual([]);
    const library = new URL('../../engine/prolog/lib/', import.meta.url);
    expect(factsNamed(new URL('argumentation.pl', library).pathname)).toEqual([]);
    expect(factsNamed(new URL('conflict.pl', library).pathname)).toEqual([]);
  });
});
