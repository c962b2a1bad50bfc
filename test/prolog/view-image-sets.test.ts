import { describe, expect, it } from 'vitest';
import { generate, generatedIndex } from '../../bench/conflict-graph.ts';
import { loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework } from '../../engine/frameworks/run.ts';
import { handOverImage, startProlog, viewImage, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { copyOf } from '../helpers/kept-answers.ts';

// (a file of its own: the rule modules loaded here change the signature of the images test/prolog/view-image.test.ts makes)
await startProlog();
const recorded_at = '2024-01-01T00:00:00.000Z';

describe('a view image carrying the shared sets (lib/graph.pl parley_warm_sets/1)', async () => {
  const catalog = await loadRuleModules([]);
  const limits = { inferenceLimit: 20_000_000, timeLimitMs: 60_000 };
  const graph = generatedIndex(generate(3_000).write, recorded_at);
  /** Every answer the engine keeps over `on`'s view, Module:Key-Answer, sorted (the view's slot names left out), as text. */
  const keptAnswers = (on: GraphIndex) =>
    catalog.registry.solveLibrary('active_view(V), findall(K-A, ( V:g_memo(S), kept_copy(S, Es), member(K-r(A, _), Es) ), L), msort(L, Sorted), numbervars(Sorted, 0, _), format(string(T), "~q", [Sorted])', ['T'], { graph: on })[0][0];
  /** The inferences of the shared sets made for `on`'s view (RuleRegistry.prepare's last step). */
  const warmInferences = (on: GraphIndex) =>
    catalog.registry.solveLibrary('statistics(inferences, I0), parley_warm_sets(warm_view_sets), statistics(inferences, I1), I is I1 - I0', ['I'], { graph: on })[0][0] as number;
  /** Each framework's run over `on`, less its inferences (an engine reading kept sets counts fewer). */
  const runs = (on: GraphIndex) =>
    catalog.frameworks.flatMap((entry) => {
      if (entry.status !== 'loaded') return [];
      const { inferences, ...run } = runFramework(catalog.registry, entry.manifest, { graph: on }, limits);
      expect(run.error).toBeUndefined();
      return [run];
    });
  const computed = copyOf(graph);
  catalog.registry.handOver({ graph: computed });
  const computing = warmInferences(computed);
  const sets = keptAnswers(computed);
  const image = viewImage(computed)!;

  it('an engine loading it keeps the sets its maker computed, computes none, and answers every framework as an engine that computed them', () => {
    expect(computing).toBeGreaterThan(10_000);
    const loaded = copyOf(graph);
    const images = wholeHandOvers.images;
    expect(handOverImage({ graph: loaded }, image)).toBe(true);
    expect(wholeHandOvers.images - images).toBe(1);
    expect(warmInferences(loaded)).toBeLessThan(computing / 5);
    expect(keptAnswers(loaded)).toBe(sets);
    expect(warmInferences(loaded)).toBeLessThan(50); // kept: nothing to do a second time
    expect(runs(loaded)).toEqual(runs(computed));
  });

  it('leaves out a set holding a handle of the engine that made it (a trie, which would load as an atom), and the engine loading it computes that one', () => {
    const maker = copyOf(graph);
    catalog.registry.handOver({ graph: maker });
    warmInferences(maker);
    // a trie kept among the shared sets, as mentioned_trie/2 keeps one once a framework asks for it
    const kept = "active_view(V), g_shared_sets(V, _, [S-_|_]), atomic_list_concat(['$parley_memo_', V, '_'], P), atom_concat(P, Suffix, S), kept_copy(S, Es), trie_new(T), memo_store(S, [probe-r(trie(T), x)|Es])";
    const [[suffix]] = catalog.registry.solveLibrary(kept, ['Suffix'], { graph: maker }) as [[string]];
    const loaded = copyOf(graph);
    expect(handOverImage({ graph: loaded }, viewImage(maker)!)).toBe(true);
    warmInferences(loaded);
    const probe = `active_view(V), atomic_list_concat(['$parley_memo_', V, '_', '${suffix}'], S), kept_copy(S, Es), memberchk(probe-_, Es)`;
    expect(catalog.registry.solveLibrary(probe, [], { graph: loaded })).toHaveLength(0);
    expect(runs(loaded)).toEqual(runs(computed));
  });

  it('is the same image, byte for byte, whether the runs kept their answers before the sets or after them', () => {
    const setsFirst = copyOf(graph);
    catalog.registry.handOver({ graph: setsFirst });
    warmInferences(setsFirst);
    runs(setsFirst);
    // the server's first assess: the view handed over inside the task, the runs, then the sets kept once the worker is idle
    const runsFirst = copyOf(graph);
    catalog.registry.handOver({ graph: runsFirst });
    runs(runsFirst);
    warmInferences(runsFirst);
    const afterRuns = viewImage(runsFirst)!;
    expect(Buffer.compare(afterRuns, viewImage(setsFirst)!)).toBe(0);
    expect(Buffer.compare(afterRuns, image)).toBe(0);
    // the runs' own kept answers stay kept in the engine that made it, though its image leaves them out
    expect(String(keptAnswers(runsFirst)).length).toBeGreaterThan(String(sets).length);
  });

  it('carries none when they were not kept for the view\'s facts, and the engine loading it computes them', () => {
    const bare = copyOf(graph);
    catalog.registry.handOver({ graph: bare });
    const plain = viewImage(bare)!;
    expect(plain.length).toBeLessThan(image.length);
    const loaded = copyOf(graph);
    expect(handOverImage({ graph: loaded }, plain)).toBe(true);
    expect(warmInferences(loaded)).toBeGreaterThan(computing / 2); // (computed: a first call counts some more)
    expect(keptAnswers(loaded)).toBe(sets);
  });

  // a hand-over or a write (a worker's prepare) leaves the sets kept as they are; only a view about to be imaged has each
  // kept set computed again, to record the sets it was computed from (RuleRegistry.warmSets' forImage)
  it('after the runs and a write, the warm-up of a prepare computes what the write dropped alone; one before an image computes each kept set again, once', () => {
    // (a graph large enough that the sets a write leaves kept outweigh those it drops)
    const view = generatedIndex(generate(30_000).write, recorded_at);
    catalog.registry.handOver({ graph: view });
    runs(view);
    warmInferences(view);
    putLogged(view, [{ id: 'x-issue', labels: ['Issue'], properties: { label: 'x' }, confidence: 1, provenance: [], recorded_at }], []);
    const inferencesOf = (mode: string) =>
      catalog.registry.solveLibrary(`statistics(inferences, I0), parley_warm_sets(warm_view_sets, ${mode}), statistics(inferences, I1), I is I1 - I0`, ['I'], { graph: view })[0][0] as number;
    const kept = inferencesOf('kept');
    expect(inferencesOf('kept')).toBeLessThan(50); // (recorded: nothing to do a second time)
    const whole = inferencesOf('whole');
    expect(kept).toBeLessThan(whole / 3); // (46.8k against 206k here; at 100k facts 11k against 572k)
    expect(inferencesOf('whole')).toBeLessThan(50); // (recorded whole: asked for again by an image, nothing to do)
  });

  it('a write to a view loaded with its sets drops them: the next warm-up computes what the write changed', () => {
    const loaded = copyOf(graph);
    expect(handOverImage({ graph: loaded }, image)).toBe(true);
    putLogged(loaded, [{ id: 'x-event', labels: ['Event'], properties: { event_type: 'ASSAULT', label: 'x', date: '2030-01-01' }, confidence: 1, provenance: [], recorded_at }], []);
    expect(warmInferences(loaded)).toBeGreaterThan(50);
    const fresh = copyOf(loaded);
    catalog.registry.handOver({ graph: fresh });
    warmInferences(fresh);
    expect(runs(loaded)).toEqual(runs(fresh));
  });
});
