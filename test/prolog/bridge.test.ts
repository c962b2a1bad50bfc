import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { DEFAULT_VIEW_FACTS, PrologBridge, handOverInParts, holdsGraph, setViewBound, startProlog, viewFits, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { conflictGraph } from '../query/fixtures.ts';
import { copyOf, keptCountGoal } from '../helpers/kept-answers.ts';
import { VIEW_FACT_KINDS, viewFactsOf } from '../helpers/view-facts.ts';

await startProlog();

const REACHES = `
reaches(X, Y) :- reach(X, Y, [X]).
reach(X, Y, _) :- edge(_, _, X, Y, _).
reach(X, Z, Seen) :- edge(_, _, X, Y, _), \\+ seen(Y, Seen), reach(Y, Z, [Y|Seen]).
seen(X, [X|_]).
seen(X, [_|T]) :- seen(X, T).
loop(X) :- loop(X).
spin(N) :- N >= 0, M is N + 1, spin(M).
`;

/** Rules that count how often each set is computed: count_up(Name) in a set's computation, computed_now(Name, N) to read it. */
const COUNTED = `
:- dynamic computed/2.
count_up(Name) :- ( retract(computed(Name, N0)) -> true ; N0 = 0 ), N is N0 + 1, assertz(computed(Name, N)).
computed_now(Name, N) :- ( computed(Name, N) -> true ; N = 0 ).`;

const view = { graph: conflictGraph() };
/** The claims mentioning the words of `first` (in order), and of `second` (in reverse order), as A and B. */
const mentionGoal = (first: string, second: string) => `nodes_where('Claim', _, _, Cs), reverse(Cs, Rs), filter_ids(Cs, mentions([${first}]), A), filter_ids(Rs, mentions([${second}]), B)`;
/** A record added after the fixture's, on 9 January. */
const addedRecord = (id: string, labels: string[], properties: Record<string, string>) => ({ id, labels, properties, confidence: 0.9, recorded_at: '2024-01-09T00:00:00.000Z', provenance: [{ source: `doc-${id}`, timestamp: '2024-01-09T00:00:00.000Z' }] });

describe('Prolog bridge', () => {
  it('answers base predicates from the graph view', () => {
    const bridge = new PrologBridge();
    const claims = bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C'], view).map(([id]) => id).sort();
    expect(claims).toEqual(['c1', 'c3']);
    const asserted = bridge.solve("edge(E, 'ASSERTS', rsf, C, _)", ['E', 'C'], view);
    expect(asserted).toEqual([['e1', 'c1'], ['e2', 'c2']]);
  });

  it("holds a node's valid time in the fact of its first label (g_node/3 in the slot), read once a node by valid_time/2, added nodes' too", () => {
    const dated = (id: string, labels: string[], date?: string): NodeRecord => ({ id, labels, properties: date ? { date } : {}, confidence: 1, recorded_at: '2024-01-09T00:00:00.000Z', provenance: [] });
    const graph = GraphIndex.fromRecords([dated('n1', ['Claim', 'Event'], '2024-01-03'), dated('n2', ['Actor']), dated('n3', ['Event'], '2024-01-05')], []);
    const bridge = new PrologBridge();
    // the valid times as valid_time/2 and valid_days/2 read them; the slot's node facts holding one, by id and label; whether the slot has g_valid facts
    const read = () =>
      bridge.solve(
        "findall([I, D, N], ( valid_time(I, D), valid_days(I, N) ), Vs), active_view(V), findall([I, L], V:g_node(I, L, v(_, _)), Ws), aggregate_all(count, V:g_node(_, _, _), C), ( current_predicate(V:g_valid/3), \\+ predicate_property(V:g_valid(_, _, _), imported_from(_)) -> Own = yes ; Own = no )",
        ['Vs', 'Ws', 'C', 'Own'],
        { graph },
      )[0];
    expect(read()).toEqual([[['n1', '2024-01-03', 19725], ['n3', '2024-01-05', 19727]], [['n1', 'Claim'], ['n3', 'Event']], 4, 'no']);
    putLogged(graph, [dated('n4', ['Event', 'Claim'], '2024-01-07')], []);
    expect(read()).toEqual([[['n1', '2024-01-03', 19725], ['n3', '2024-01-05', 19727], ['n4', '2024-01-07', 19729]], [['n1', 'Claim'], ['n3', 'Event'], ['n4', 'Event']], 6, 'no']);
    expect(bridge.solve('findall(L, node(n4, L), Ls)', ['Ls'], { graph })).toEqual([[['Event', 'Claim']]]);
    // a node of no label (the store refuses one) has no fact to hold its valid time: an error, not a valid time lost
    expect(() => bridge.solve('true', [], { graph: GraphIndex.fromRecords([dated('n0', [], '2024-01-02')], []) })).toThrow(/labelled_node/);
  });

  it('runs a consulted rule module over the graph', () => {
    const bridge = new PrologBridge();
    expect(bridge.consult(REACHES)).toEqual(expect.arrayContaining(['reaches/2', 'loop/1']));
    expect(bridge.defines('reaches', 2)).toBe(true);
    expect(bridge.holds('reaches(igad, rsf)', view)).toBe(true); // igad -ALLIED_WITH-> saf -ALLIED_WITH-> rsf
    expect(bridge.holds('reaches(c1, rsf)', view)).toBe(false);
    const fromIgad = new Set(bridge.solve('reaches(igad, Y)', ['Y'], view).map(([y]) => y));
    // the graph has a cycle (rsf <-> saf): the rule's visited list keeps the search finite
    expect([...fromIgad].sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'rsf', 'saf']);
  });

  it('sees only records visible at as_of', () => {
    const bridge = new PrologBridge();
    expect(bridge.solve("node(C, 'Claim'), prop(C, type, 'RedLine')", ['C'], { ...view, asOf: '2024-01-02T00:00:00.000Z' })).toEqual([['c1']]);
  });

  it('stops a runaway rule at the inference limit and at the time limit', () => {
    const bridge = new PrologBridge();
    bridge.consult(REACHES);
    expect(() => bridge.holds('loop(a)', view, { inferenceLimit: 5_000 })).toThrow(/inferences/);
    // the time limit is checked every few thousand inferences (SWI-Prolog's heartbeat), which a loop of bare self-calls
    // and arithmetic (loop/1) never reaches: that one stops at the inference limit
    expect(() => bridge.holds('loop(a)', view, { inferenceLimit: 200_000 })).toThrow(/inferences/);
    expect(() => bridge.holds('spin(0)', view, { timeLimitMs: 50, inferenceLimit: 1_000_000_000 })).toThrow(/time limit/);
    // the session stays usable afterwards
    expect(bridge.holds('reaches(igad, saf)', view)).toBe(true);
  });

  it('takes the records added to a graph it holds, and answers as over a fresh copy of the graph', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    const goal =
      "findall(N-L, node(N, L), Ns), findall(I-K-V, prop(I, K, V), Ps), findall(E-T-F-D, edge(E, T, F, D, _), Es), reference_date(R), " +
      "nodes_where('Claim', _, _, Cs), filter_ids(Cs, window(0, 3), W), group_by_edge(Cs, 'ASSERTS', in, participant, G)";
    const names = ['Ns', 'Ps', 'Es', 'R', 'W', 'G'];
    const before = bridge.solve(goal, names, { graph });
    expect(before[0][3]).toBe('2024-01-05');
    const later = '2024-01-09T00:00:00.000Z';
    putLogged(
      graph,
      [{ id: 'c5', labels: ['Claim'], properties: { type: 'Threat', text: 'We will take the port' }, confidence: 0.9, recorded_at: later, provenance: [{ source: 'doc-c5', timestamp: later }] }],
      [{ id: 'e8', type: 'ASSERTS', from: 'saf', to: 'c5', properties: {}, confidence: 0.8, recorded_at: later, provenance: [{ source: 'doc-e8', timestamp: later }] }],
    );
    const after = bridge.solve(goal, names, { graph });
    expect(after[0][3]).toBe('2024-01-09'); // the reference date moved, and with it every node's age
    expect(after[0][4]).toEqual(['c5']);
    expect(after).toEqual(bridge.solve(goal, names, { graph: copyOf(graph) }));

    // only the added records are handed over: a record changed behind the log's back is not seen...
    expect(bridge.solve(goal, names, { graph })).toEqual(after);
    (graph.node('c4')!.properties as Record<string, unknown>).type = 'Demand';
    putLogged(graph, [{ ...graph.node('c1')!, id: 'c6' }], []);
    expect(bridge.solve("nodes_where('Claim', type, 'Demand', Ds)", ['Ds'], { graph })).toEqual([[['c2']]]);
    // ...until a record is replaced, and the whole graph is handed over again
    putLogged(graph, [graph.node('c2')!], []);
    expect(bridge.solve("nodes_where('Claim', type, 'Demand', Ds)", ['Ds'], { graph })).toEqual([[['c2', 'c4']]]);
  });

  it('reads mentions of declared keywords from the text index, as a scan of the texts would, and after additions', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult("keywords(refusal, ['no negotiation', 'army', talks]).");
    const goal = mentionGoal("army, 'no negotiation'", 'talks');
    // the same words, one of them undeclared: the texts are scanned
    const scanned = mentionGoal("army, 'no negotiation', undeclared", 'talks, undeclared');
    expect(bridge.solve(goal, ['A', 'B'], { graph })).toEqual([[['c1', 'c3'], ['c4']]]);
    expect(bridge.solve('g_mention(W, c1)', ['W'], { graph }).map(([word]) => word).sort()).toEqual(['army', 'no negotiation']);
    putLogged(graph, [addedRecord('c7', ['Claim'], { type: 'Position', text: 'Talks resume; the ARMY withdraws' })], []);
    expect(bridge.solve(goal, ['A', 'B'], { graph })).toEqual([[['c1', 'c3', 'c7'], ['c7', 'c4']]]);
    expect(bridge.solve(scanned, ['A', 'B'], { graph })).toEqual(bridge.solve(goal, ['A', 'B'], { graph }));
  });

  it('indexes the names of the nodes of a name_keywords label, as a scan of the texts would find them, and after additions', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult("name_keywords('Location').");
    const goal = mentionGoal('khartoum', 'jeddah');
    const scanned = mentionGoal('khartoum, undeclared', 'jeddah, undeclared');
    expect(bridge.solve(goal, ['A', 'B'], { graph })).toEqual([[['c1'], ['c4']]]);
    expect(bridge.holds('g_named(khartoum), g_mention(khartoum, c1)', { graph })).toBe(true);
    // Jeddah is no Location node yet: its mentions come from the scan
    expect(bridge.holds('g_named(jeddah)', { graph })).toBe(false);
    // a claim naming a known place is indexed with the records added; a new place is looked for in the texts held already, and in the ones added with it
    putLogged(graph, [addedRecord('c7', ['Claim'], { type: 'Position', text: 'Khartoum and Jeddah both' })], []);
    expect(bridge.solve(goal, ['A', 'B'], { graph })).toEqual([[['c1', 'c7'], ['c7', 'c4']]]);
    // a fact of no record, in the view's slot, marks the facts held: a whole hand-over would drop it
    expect(bridge.holds('active_view(V), assertz(V:g_node(marker, x, []))', { graph })).toBe(true);
    putLogged(graph, [addedRecord('jeddah', ['Location'], { label: 'Jeddah' }), addedRecord('c8', ['Claim'], { type: 'Position', text: 'Back to Jeddah' })], []);
    expect(bridge.holds('g_named(jeddah), g_mention(jeddah, c4), g_mention(jeddah, c7), g_mention(jeddah, c8)', { graph })).toBe(true);
    expect(bridge.holds('active_view(V), retract(V:g_node(marker, x, []))', { graph })).toBe(true);
    expect(bridge.solve(goal, ['A', 'B'], { graph })).toEqual([[['c1', 'c7'], ['c8', 'c7', 'c4']]]);
    expect(bridge.solve(scanned, ['A', 'B'], { graph })).toEqual(bridge.solve(goal, ['A', 'B'], { graph }));
    // the facts after those additions are the facts of the same graph handed over whole
    const facts = "findall(F, ( member(F, [g_node(_, _), g_prop(_, _, _), g_eprop(_, _, _), g_edge(_, _, _, _, _, _), g_valid(_, _, _), g_text(_, _), g_ref(_, _), g_mention(_, _), g_named(_)]), call(user:F) ), Fs), msort(Fs, Sorted)";
    const added = bridge.solve(facts, ['Sorted'], { graph });
    const whole = bridge.solve(facts, ['Sorted'], { graph: copyOf(graph) });
    expect((added[0][0] as string[]).length).toBeGreaterThan(50);
    expect(added).toEqual(whole);
  });

  it('takes out of a view it holds the records a valid-time cut hides, leaving the facts of a whole hand-over in its order', () => {
    const base = conflictGraph();
    const at = (day: number) => `2024-01-0${day}T00:00:00.000Z`;
    const later = (id: string, labels: string[], properties: Record<string, string>, day: number) => ({ id, labels, properties, confidence: 0.9, recorded_at: at(day), provenance: [{ source: `doc-${id}`, timestamp: at(day) }] });
    // first in the graph, later in valid time: a place named in a held claim (c4), and an edge recorded before its claim
    const graph = GraphIndex.fromRecords(
      [later('jeddah', ['Location'], { label: 'Jeddah' }, 6), ...base.nodes.values(), later('c9', ['Claim'], { type: 'Threat', text: 'Jeddah talks are a trap' }, 8)],
      [{ id: 'e0', type: 'ASSERTS', from: 'saf', to: 'c9', properties: {}, confidence: 0.8, recorded_at: at(2), provenance: [] }, ...base.edges.values()],
    );
    const bridge = new PrologBridge();
    bridge.consult("name_keywords('Location').");
    const facts = "findall(F, ( member(F, [g_node(_, _), g_prop(_, _, _), g_eprop(_, _, _), g_edge(_, _, _, _, _, _), g_valid(_, _, _), g_text(_, _), g_ref(_, _), g_mention(_, _), g_named(_)]), call(user:F) ), Fs)";
    const asOf = at(3);
    const views = [
      { graph },
      { graph, validUntil: '2024-01-07' },
      { graph, validUntil: '2024-01-05' },
      { graph, validUntil: '2024-01-04T10:00:00Z' },
      { graph, validUntil: '2024-01-02' },
      { graph, asOf },
      { graph, asOf, validUntil: '2024-01-06' },
      { graph, asOf, validUntil: '2023-12-31' },
    ];
    // a fact of no record, in the view's slot, marks the facts held: a whole hand-over would drop it
    const held = views.map((view, i) => {
      if (i > 0) expect(bridge.holds('active_view(V), retract(V:g_node(marker, x, []))', view), JSON.stringify(view)).toBe(i !== 5);
      const answer = bridge.solve(facts, ['Fs'], view)[0][0] as string[];
      bridge.holds('active_view(V), assertz(V:g_node(marker, x, []))', view);
      return answer;
    });
    const whole = views.map((view) => bridge.solve(facts, ['Fs'], { ...view, graph: copyOf(graph) })[0][0]);
    expect(held).toEqual(whole);
    expect(held[1].length).toBeGreaterThan(held[2].length);
    expect(new Set(held.map((f) => JSON.stringify(f))).size).toBe(views.length);
  });

  it('keeps a view_memo answer per module for the rest of the view, and computes it again for a new view', () => {
    const program = (answer: string) => `:- dynamic computed/1.\ncomputed(0).\nctx(V) :- view_memo(ctx, V, compute(V)).\ncompute(${answer}-N) :- retract(computed(N0)), N is N0 + 1, assertz(computed(N)).`;
    const first = new PrologBridge();
    const second = new PrologBridge();
    first.consult(program('first'));
    second.consult(program('second'));
    const graph = conflictGraph();
    expect(first.solve('ctx(A), ctx(B)', ['A', 'B'], { graph })).toEqual([['first-1', 'first-1']]);
    expect(second.solve('ctx(A)', ['A'], { graph })).toEqual([['second-1']]);
    expect(first.solve('ctx(A)', ['A'], { graph })).toEqual([['first-1']]);
    putLogged(graph, [graph.node('c2')!], []);
    expect(first.solve('ctx(A)', ['A'], { graph })).toEqual([['first-2']]);
  });

  it('keeps a set once when the keys of other kept answers name it, also from a loop that backtracks', () => {
    const bridge = new PrologBridge();
    // ids/1 keeps a list of 20k ids; part/2 keeps one answer per I, keyed by that list
    bridge.consult(`${COUNTED}
ids(L) :- view_memo(ids, L, numlist(1, 20000, L)).
part(I, N) :- ids(L), view_memo(part(L, I), N, ( count_up(part), length(L, N0), N is N0 + I )).`);
    // read from another module: the copies of kept answers the module's calls read are let go then
    const other = new PrologBridge();
    other.consult('other.');
    const graph = conflictGraph();
    const live = () => other.solve('garbage_collect, statistics(globalused, U)', ['U'], { graph })[0][0] as number;
    bridge.solve('ids(_)', [], { graph });
    const before = live();
    // a failure-driven loop: each part/2 is kept while member/2 leaves a choice point that is backtracked into
    bridge.solve('forall(member(I, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]), part(I, _))', [], { graph });
    const grown = live() - before;
    // a copy of the 20k-id list (480 kB on the global stack: 3 cells of 8 bytes an element) in each of the 30 keys
    // would be 14.4 MB; the keys and answers themselves are a few kB
    expect(grown).toBeLessThan(480_000);
    // the keys still find their answers: none computed again, each the one for its I
    expect(bridge.solve('part(7, A), part(30, B), computed_now(part, N)', ['A', 'B', 'N'], { graph })).toEqual([[20007, 20030, 30]]);
  });

  it('holds no kept answer on the global stack once another module is called, and reads one a run copies once', () => {
    const bridge = new PrologBridge();
    bridge.consult(`${COUNTED}
ids(L) :- view_memo(ids, L, ( count_up(ids), numlist(1, 100000, L) )).`);
    const other = new PrologBridge();
    other.consult('other.');
    const graph = conflictGraph();
    const live = () => other.solve('garbage_collect, statistics(globalused, U)', ['U'], { graph })[0][0] as number;
    const before = live();
    bridge.solve('ids(_)', [], { graph });
    // 100k integers are 2.4 MB as a list on the global stack (3 cells of 8 bytes an element): kept in a global
    // variable they would stay there, below every later call's work
    expect(live() - before).toBeLessThan(240_000);
    // read in a loop, and by the module's next call, the set is one copy: the same term each time, none computed again
    expect(bridge.solve('ids(A), nb_linkval(first_read, A), forall(between(1, 50, _), ( ids(B), same_term(A, B) )), sum_list(A, S), computed_now(ids, N)', ['S', 'N'], { graph })).toEqual([[5000050000, 1]]);
    expect(bridge.solve('ids(A), nb_getval(first_read, B), ( same_term(A, B) -> Same = yes ; Same = no ), nb_delete(first_read)', ['Same'], { graph })).toEqual([['yes']]);
    expect(live() - before).toBeLessThan(240_000);
  });

  it('keeps, after records are added, the graph predicates\' answers they cannot change, and answers as over the whole graph', () => {
    const day = (n: number) => `2024-02-${String(n).padStart(2, '0')}T00:00:00.000Z`;
    const record = (id: string, labels: string[], properties: Record<string, string>, n = 1) => ({ id, labels, properties, confidence: 0.9, recorded_at: day(n), provenance: [{ source: `doc-${id}`, timestamp: day(n) }] });
    const link = (id: string, type: string, from: string, to: string) => ({ id, type, from, to, properties: {}, confidence: 0.8, recorded_at: day(1), provenance: [{ source: `doc-${id}`, timestamp: day(1) }] });
    // 80 claims (a set large enough to be kept for the view) said by four actors over ten days
    const claims = Array.from({ length: 80 }, (_, i) => record(`c${i}`, ['Claim'], { type: 'Position', text: `claim ${i}` }, 1 + (i % 10)));
    const graph = GraphIndex.fromRecords(
      [...['a0', 'a1', 'a2', 'a3'].map((id) => record(id, ['Actor'], { label: id })), ...claims],
      claims.map((claim, i) => link(`s${i}`, 'ASSERTS', `a${i % 4}`, claim.id)),
    );
    const bridge = new PrologBridge();
    bridge.consult(':- dynamic computed/1.\ncomputed(0).\nctx(N) :- view_memo(ctx, N, ( retract(computed(N0)), N is N0 + 1, assertz(computed(N)) )).');
    // the 80 claims as a fixed list (the same key before and after additions) and as the view's set
    const goal = "numlist(0, 79, Is), maplist([I, C]>>format(atom(C), 'c~w', [I]), Is, Cs0), sort(Cs0, Cs), nodes_where('Claim', _, _, All), nodes_where('Actor', _, _, As), group_by_edge(Cs, 'ASSERTS', in, _, G), filter_ids(Cs, window(0, 3), W), filter_ids(Cs, dated, D), group_by_edge(All, 'ASSERTS', in, _, GA), filter_ids(All, window(0, 3), WA), nodes_where('Claim', type, 'Position', P), nodes_where('Claim', type, 'Demand', Dm), ctx(N)";
    const template = ['All', 'As', 'G', 'W', 'D', 'GA', 'WA', 'P', 'Dm', 'N'];
    const slots = "aggregate_all(count, user:g_memo(_), N)";
    const whole = () => bridge.solve(goal, template.slice(0, 9), { graph: copyOf(graph) });
    // each addition to a view whose answers are kept (a whole hand-over of the copy drops them: the graph's is made again first)
    const afterAdding = (nodes: ReturnType<typeof record>[], edges: ReturnType<typeof link>[]) => {
      bridge.solve(goal, template, { graph });
      putLogged(graph, nodes, edges);
      const added = bridge.solve(goal, template.slice(0, 9), { graph });
      expect(added).toEqual(whole());
      return added;
    };
    expect(bridge.solve(goal, template, { graph })[0][9]).toBe(1);
    const before = Number(bridge.solve(slots, ['N'], { graph })[0][0]);
    // an actor: the claim sets, their grouping and their filters stay, and the module's own answer, which read no graph record;
    // the actors' set takes the new one (grown at the write, not dropped to be found again over every actor)
    putLogged(graph, [record('a4', ['Actor'], { label: 'a4' })], []);
    expect(Number(bridge.solve(slots, ['N'], { graph })[0][0])).toBe(before);
    expect(bridge.solve('ctx(N)', ['N'], { graph })).toEqual([[1]]);
    expect(bridge.solve(goal, template.slice(0, 9), { graph })).toEqual(whole());
    // a later claim, its edge and one to a claim held: a new reference date, the claims and the ASSERTS groupings change; the sets
    // of claims (all of them, of its type, of another type) are grown, not dropped
    const claimSets = Number(bridge.solve(slots, ['N'], { graph })[0][0]);
    putLogged(graph, [record('c80', ['Claim'], { type: 'Position', text: 'claim 80' }, 20)], [link('s80', 'ASSERTS', 'a4', 'c80'), link('s81', 'ASSERTS', 'a4', 'c0')]);
    const kept = bridge.solve(keptCountGoal("user:nodes_where('Claim', _, _)"), ['N'], { graph })[0][0];
    expect(kept).toBe(3);
    expect(Number(bridge.solve(slots, ['N'], { graph })[0][0])).toBeLessThan(claimSets);
    const later = bridge.solve(goal, template.slice(0, 9), { graph });
    expect(later).toEqual(whole());
    expect((later[0][0] as string[]).length).toBe(81);
    expect(later[0][3]).toEqual([]);
    expect(later[0][7]).toContain('c80');
    // an edge of another type keeps the ASSERTS groupings, and an actor's edge the claims
    afterAdding([], [link('o1', 'OPPOSES', 'a0', 'a1')]);
  });

  it('refuses a module that does not parse', () => {
    const bridge = new PrologBridge();
    expect(() => bridge.consult('ok(1).\nbroken(:- .\n', 'mine/rules.pl')).toThrow(
      expect.objectContaining({ code: 'rule_module_invalid', details: expect.objectContaining({ file: 'mine/rules.pl', line: 2 }) }),
    );
  });
  // view_set/3 answers record what they read (lib/graph.pl read_note/1): a write keeps those it cannot change
  it('keeps a set after a write that cannot change what it read, nested sets included, and computes it again after one that can', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult(`${COUNTED}
claims(Cs) :- view_set(claims, claims_, Cs).
claims_(Cs) :- count_up(claims), findall(C, node(C, 'Claim'), Cs0), sort(Cs0, Cs).
asserted(Ps) :- view_set(asserted, asserted_, Ps).
asserted_(Ps) :- count_up(asserted), nodes_where('Actor', _, _, As), findall(A-C, ( member(A, As), edge(_, 'ASSERTS', A, C, _) ), Ps0), sort(Ps0, Ps).
dated(D) :- view_set(dated, dated_, D).
dated_(D) :- count_up(dated), ( reference_date(D) -> true ; D = none ).
outer(N) :- view_set(outer, outer_, N).
outer_(N) :- count_up(outer), claims(Cs), length(Cs, N).`);
    // the claims first, so that the outer set finds them kept: their reads must count for it too
    const goal = 'claims(Cs), asserted(Ps), dated(D), outer(N)';
    const template = ['Cs', 'Ps', 'D', 'N'];
    const counts = () => Object.fromEntries(['claims', 'asserted', 'dated', 'outer'].map((name) => [name, Number(bridge.solve(`computed_now(${name}, N)`, ['N'], { graph })[0][0])]));
    const undated = (id: string, labels: string[], properties: Record<string, string>) => ({ ...addedRecord(id, labels, properties), provenance: [] });
    /** The sets computed again over the graph held after the write, which must answer as a fresh copy does. */
    const afterWrite = (nodes: ReturnType<typeof addedRecord>[], edges: { id: string; type: string; from: string; to: string }[]) => {
      bridge.solve(goal, template, { graph }); // the graph held, its sets computed
      const before = counts();
      putLogged(graph, nodes, edges.map((edge) => ({ ...edge, properties: {}, confidence: 0.8, recorded_at: '2024-01-09T00:00:00.000Z', provenance: [] })));
      const held = bridge.solve(goal, template, { graph });
      const after = counts();
      expect(held).toEqual(bridge.solve(goal, template, { graph: copyOf(graph) }));
      return Object.keys(after).filter((name) => after[name] !== before[name]);
    };
    const [a0, a1] = [...graph.nodesWithLabel('Actor')].sort();
    // an undated Issue node and an OPPOSES edge: no set read either
    expect(afterWrite([undated('w-issue', ['Issue'], { label: 'water' })], [])).toEqual([]);
    expect(afterWrite([], [{ id: 'w-opp', type: 'OPPOSES', from: a0, to: a1 }])).toEqual([]);
    // an actor: the set that enumerates the actors only
    expect(afterWrite([undated('w-actor', ['Actor'], { label: 'Written Front' })], [])).toEqual(['asserted']);
    // an ASSERTS edge to a claim held: the set that walks those edges only
    expect(afterWrite([], [{ id: 'w-asserts', type: 'ASSERTS', from: 'w-actor', to: [...graph.nodesWithLabel('Claim')].sort()[0] }])).toEqual(['asserted']);
    // an undated claim: the claims, and the set that found them kept
    expect(afterWrite([undated('w-claim', ['Claim'], { type: 'Demand', text: 'we demand water' })], [])).toEqual(['claims', 'outer']);
    // a later event: a new reference date, and the set that read it only
    expect(afterWrite([undated('w-event', ['Event'], { event_type: 'AGREE', label: 'talks', date: '2030-01-01' })], [])).toEqual(['dated']);
  });
  it('drops at a write the sets over a list that no call asked for in the last two generations of calls between writes, and counts no generation for writes with no call between them', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult(`${COUNTED}
sized(L, N) :- view_set(sized(L), sized_(L), N).
sized_(L, N) :- count_up(L), length(L, N).`);
    const computed = (list: string) => Number(bridge.solve(`computed_now(${list}, N)`, ['N'], { graph })[0][0]);
    let n = 0;
    /** A write that changes nothing the sets read (an undated Issue node). */
    const write = () => putLogged(graph, [{ ...addedRecord(`w-issue-${n++}`, ['Issue'], { label: 'water' }), provenance: [] }], []);
    bridge.solve('sized([a, b], _), sized([c], _), sized([d], _)', [], { graph });
    write(); // the write keeps all three
    bridge.solve('sized([a, b], _)', [], { graph });
    write();
    bridge.solve('sized([a, b], _), sized([d], _)', [], { graph });
    write(); // [c]: no call for two generations
    write(); // no call since the write before: no generation, nothing more swept
    bridge.solve('sized([a, b], _), sized([c], _), sized([d], _)', [], { graph });
    expect([computed('[a, b]'), computed('[c]'), computed('[d]')]).toEqual([1, 2, 1]);
    // the marks of which generation used a set go with the sets: writes that empty a slot leave none of this view's behind
    const leftMarks = () => Number(bridge.solve("nb_getval(parley_view, V), atomic_list_concat(['$parley_memo_', V, '_'], P), aggregate_all(count, ( user:g_memo_used(S, _), sub_atom(S, 0, _, _, P), \\+ user:g_memo(S) ), N)", ['N'], { graph })[0][0]);
    for (let round = 0; round < 6; round++) {
      bridge.solve(`sized([r${round}], _)`, [], { graph });
      write();
      write();
    }
    expect(leftMarks()).toBe(0);
  });
  it('drops, while a table is held, every set of the rule modules at a write: a table hides what it read from a set that found it filled', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult(`
:- table claim_count/1.
claim_count(N) :- aggregate_all(count, node(_, 'Claim'), N).
counted(N) :- view_set(counted, counted_, N).
counted_(N) :- claim_count(N).`);
    const goal = 'claim_count(_), counted(N)';
    expect(bridge.solve(goal, ['N'], { graph })).toEqual([[graph.nodesWithLabel('Claim').size]]);
    putLogged(graph, [{ ...addedRecord('w-claim', ['Claim'], { type: 'Demand', text: 'we demand water' }), provenance: [] }], []);
    expect(bridge.solve(goal, ['N'], { graph })).toEqual([[graph.nodesWithLabel('Claim').size]]);
  });
  it('keeps no set across a write for a module that reads the g_* facts themselves, past the notes of what it read', () => {
    const graph = conflictGraph();
    const bridge = new PrologBridge();
    bridge.consult("claim_count(N) :- view_set(claim_count, claim_count_, N).\nclaim_count_(N) :- aggregate_all(count, g_node(_, 'Claim'), N).");
    expect(bridge.readsReported()).toBe(false);
    expect(bridge.solve('claim_count(N)', ['N'], { graph })).toEqual([[graph.nodesWithLabel('Claim').size]]);
    expect(bridge.lastUsage.reads).toEqual([]); // what it read went unnoted
    putLogged(graph, [{ ...addedRecord('w-claim', ['Claim'], { type: 'Demand', text: 'we demand water' }), provenance: [] }], []);
    expect(bridge.solve('claim_count(N)', ['N'], { graph })).toEqual([[graph.nodesWithLabel('Claim').size]]);
  });
});

describe('views of several graphs held on one engine', () => {
  /** A rule module whose answers are kept per view: a memoised set, a table, and a plain read. */
  const RULES = `
:- table tabled_claims/1.
tabled_claims(N) :- aggregate_all(count, node(_, 'Claim'), N).
kept_claims(N) :- view_set(kept_claims, kept_claims_, N).
kept_claims_(N) :- nodes_where('Claim', _, _, Cs), length(Cs, N).
answers(Kept, Tabled, Actors) :- kept_claims(Kept), tabled_claims(Tabled), findall(A, node(A, 'Actor'), As), sort(As, Actors).`;
  const goal = 'answers(K, T, A)';
  const template = ['K', 'T', 'A'];
  /** A second graph of other content: the fixture's actors and claims under other ids, one claim fewer. */
  const otherGraph = () => {
    const base = conflictGraph();
    const nodes = [...base.nodes.values()].filter((node) => node.id !== 'c2').map((node) => ({ ...node, id: `o-${node.id}` }));
    const edges = [...base.edges.values()].filter((edge) => edge.from !== 'c2' && edge.to !== 'c2').map((edge) => ({ ...edge, id: `o-${edge.id}`, from: `o-${edge.from}`, to: `o-${edge.to}` }));
    return GraphIndex.fromRecords(nodes, edges);
  };

  it('switches between the views it holds without handing either over again, each call answering as over its own graph alone', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [mine, theirs] = [conflictGraph(), otherGraph()];
    const [expectedMine, expectedTheirs] = [bridge.solve(goal, template, { graph: copyOf(mine) }), bridge.solve(goal, template, { graph: copyOf(theirs) })];
    expect(expectedTheirs).not.toEqual(expectedMine);
    const before = wholeHandOvers.count;
    expect(bridge.solve(goal, template, { graph: mine })).toEqual(expectedMine);
    expect(bridge.solve(goal, template, { graph: theirs })).toEqual(expectedTheirs);
    expect(wholeHandOvers.count - before).toBe(2);
    for (let round = 0; round < 3; round++) {
      expect(bridge.solve(goal, template, { graph: mine })).toEqual(expectedMine);
      expect(bridge.solve(goal, template, { graph: theirs })).toEqual(expectedTheirs);
    }
    expect(wholeHandOvers.count - before).toBe(2); // the switches handed nothing over
    expect(holdsGraph(mine) && holdsGraph(theirs)).toBe(true);
  });

  it('adds a write to its own graph\'s view only', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [mine, theirs] = [conflictGraph(), otherGraph()];
    bridge.solve(goal, template, { graph: mine });
    const expectedTheirs = bridge.solve(goal, template, { graph: theirs });
    const before = wholeHandOvers.count;
    putLogged(mine, [addedRecord('w-claim', ['Claim'], { type: 'Demand', text: 'we demand water' })], []);
    expect(bridge.solve(goal, template, { graph: mine })).toEqual(bridge.solve(goal, template, { graph: copyOf(mine) }));
    expect(wholeHandOvers.count - before).toBe(1); // (the fresh copy's): the write was added to the view held
    expect(bridge.solve(goal, template, { graph: theirs })).toEqual(expectedTheirs);
    expect(bridge.holds("node('w-claim', _)", { graph: theirs })).toBe(false);
    expect(bridge.holds("node('w-claim', 'Claim')", { graph: mine })).toBe(true);
  });

  it('drops the view read least recently when another would pass the bound on facts, and hands it over again when asked', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const graphs = [conflictGraph(), otherGraph(), conflictGraph()];
    setViewBound(graphs[0]!.factCount * 2);
    try {
      const expected = graphs.map((graph) => bridge.solve(goal, template, { graph: copyOf(graph) }));
      for (const graph of graphs) bridge.solve(goal, template, { graph });
      expect(graphs.map(holdsGraph)).toEqual([false, true, true]);
      const before = wholeHandOvers.count;
      expect(bridge.solve(goal, template, { graph: graphs[1]! })).toEqual(expected[1]);
      expect(wholeHandOvers.count - before).toBe(0);
      expect(bridge.solve(goal, template, { graph: graphs[0]! })).toEqual(expected[0]);
      expect(wholeHandOvers.count - before).toBe(1);
      expect(graphs.map(holdsGraph)).toEqual([true, true, false]);
      // the slot freed by the drop is no room: the third view would drop another again
      expect(graphs.map(viewFits)).toEqual([true, true, false]);
    } finally {
      setViewBound(DEFAULT_VIEW_FACTS);
    }
  });
});

describe('a whole hand-over made in parts (a worker\'s, in the background)', () => {
  const RULES = `
kept_claims(N) :- view_set(kept_claims, kept_claims_, N).
kept_claims_(N) :- nodes_where('Claim', _, _, Cs), length(Cs, N).
answers(Kept, Asserted, Last) :- kept_claims(Kept), aggregate_all(count, edge(_, 'ASSERTS', _, _, _), Asserted), findall(C, ( node(C, 'Claim'), prop(C, text, T), sub_atom(T, _, _, _, water) ), Cs), last(Cs, Last).`;
  const goal = 'answers(K, A, L)';
  const template = ['K', 'A', 'L'];
  /**
   * A graph of `count` actors each asserting a claim: some 20 list elements per pair, several parts of a hand-over;
   * two places the claims name, a claim of a later day in the middle (the reference date), and a claim in a hundred
   * supporting the next (the sources of arguments).
   */
  const claimsGraph = (count: number, prefix: string) => {
    const recorded_at = '2024-01-01T00:00:00.000Z';
    const actors = Array.from({ length: count }, (_, i) => ({ id: `${prefix}a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}` }, confidence: 1, provenance: [], recorded_at }));
    const claims = Array.from({ length: count }, (_, i) => ({
      id: `${prefix}c${i}`,
      labels: ['Claim'],
      properties: { type: 'Demand', text: `claim ${i} on ${i % 3 ? 'land' : 'water'}`, valid_from: i === count >> 1 ? '2024-03-01' : '2024-01-02' },
      confidence: 1,
      provenance: [{ source: 'feed', document_id: `doc-${i % 7}`, timestamp: recorded_at }],
      recorded_at,
    }));
    const places = ['Land', 'Water'].map((label) => ({ id: `${prefix}${label}`, labels: ['Location'], properties: { label }, confidence: 1, provenance: [], recorded_at }));
    const edges = Array.from({ length: count }, (_, i) => ({ id: `${prefix}e${i}`, type: 'ASSERTS', from: `${prefix}a${i}`, to: `${prefix}c${i}`, properties: {}, confidence: 1, provenance: [], recorded_at }));
    const supports = Array.from({ length: Math.floor((count - 1) / 100) }, (_, k) => ({ id: `${prefix}s${k}`, type: 'SUPPORTS', from: `${prefix}c${100 * k}`, to: `${prefix}c${100 * k + 1}`, properties: {}, confidence: 1, provenance: [], recorded_at }));
    return GraphIndex.fromRecords([...actors, ...claims, ...places], [...edges, ...supports]);
  };
  /** Resumes a hand-over in parts to its end: how many times it yielded, and what it returned. */
  const runParts = (parts: Generator<void, boolean>) => {
    let yields = 0;
    for (let step = parts.next(); ; step = parts.next(), yields++) if (step.done) return { yields, handedOver: step.value };
  };

  it('lets a call on another graph run between two parts, on that graph\'s whole view, and goes on after it; a call on its own graph makes the rest first', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [small, large] = [claimsGraph(10, 's'), claimsGraph(6_000, 'l')];
    const [expectedSmall, expectedLarge] = [bridge.solve(goal, template, { graph: copyOf(small) }), bridge.solve(goal, template, { graph: copyOf(large) })];
    expect(bridge.solve(goal, template, { graph: small })).toEqual(expectedSmall);
    const before = wholeHandOvers.count;
    const parts = handOverInParts({ graph: large });
    expect(parts.next().done).toBe(false);
    expect(holdsGraph(large)).toBe(false); // (in part)
    // the call between two parts: its own view, whole, answering as on a fresh engine
    expect(bridge.solve(goal, template, { graph: small })).toEqual(expectedSmall);
    expect(parts.next().done).toBe(false);
    expect(holdsGraph(large)).toBe(false); // the hand-over went on after the call, not made whole by it
    // a call on the graph under way: the rest is made first, and it reads the whole view
    expect(bridge.solve(goal, template, { graph: large })).toEqual(expectedLarge);
    expect(holdsGraph(large)).toBe(true);
    let step = parts.next();
    while (!step.done) step = parts.next();
    expect(step.value).toBe(true);
    expect(wholeHandOvers.count - before).toBe(1); // one hand-over, made partly in parts and finished by the call
    expect(bridge.solve(goal, template, { graph: small })).toEqual(expectedSmall);
  });

  it('ends when a call\'s hand-over takes its slot, and a call on its graph later hands it over whole', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [small, large] = [claimsGraph(10, 's'), claimsGraph(6_000, 'l')];
    const [expectedSmall, expectedLarge] = [bridge.solve(goal, template, { graph: copyOf(small) }), bridge.solve(goal, template, { graph: copyOf(large) })];
    setViewBound(0); // one view at a time
    try {
      const parts = handOverInParts({ graph: large });
      expect(parts.next().done).toBe(false);
      expect(bridge.solve(goal, template, { graph: small })).toEqual(expectedSmall);
      const step = parts.next();
      expect(step).toEqual({ done: true, value: false });
      expect(holdsGraph(large)).toBe(false);
      expect(bridge.solve(goal, template, { graph: large })).toEqual(expectedLarge);
    } finally {
      setViewBound(DEFAULT_VIEW_FACTS);
    }
  });

  it('holds the same facts, in the same order, as a hand-over made at once', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES + "\nname_keywords('Location').");
    const large = claimsGraph(6_000, 'l');
    const factsOf = (graph: GraphIndex) => viewFactsOf(bridge, graph);
    const whole = factsOf(copyOf(large));
    expect(whole.map((facts) => facts.length > 0)).toEqual(VIEW_FACT_KINDS.map(() => true));
    expect(whole.slice(6)).toEqual([['land', 'water'], expect.any(Array), ['2024-03-01']]);
    expect(runParts(handOverInParts({ graph: large })).yields).toBeGreaterThan(2);
    const before = wholeHandOvers.count;
    expect(factsOf(large)).toEqual(whole);
    expect(wholeHandOvers.count).toBe(before); // held: the call handed nothing over
  });

  it('takes a write made between two parts, a record added or one replaced, as a fresh engine would over the written graph', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const facts = "findall(n(I, L), node(I, L), Ns), findall(p(I, K, V), ( node(I, _), prop(I, K, V) ), Ps), findall(e(I, T, F, D), edge(I, T, F, D, _), Es)";
    const write = {
      added: (graph: GraphIndex) => putLogged(graph, [{ ...graph.node('wc0')!, id: 'wnew', properties: { type: 'Demand', text: 'new claim on water', valid_from: '2024-01-02' } }], [{ ...graph.edge('we0')!, id: 'wenew', to: 'wnew' }]),
      replaced: (graph: GraphIndex) => putLogged(graph, [{ ...graph.node('wc5999')!, properties: { type: 'Offer', text: 'changed to water' } }], []),
    };
    for (const [kind, apply] of Object.entries(write)) {
      const graph = claimsGraph(6_000, 'w');
      const parts = handOverInParts({ graph });
      expect(parts.next().done).toBe(false);
      apply(graph);
      runParts(parts);
      expect([kind, bridge.solve(`${facts}, ${goal}`, ['Ns', 'Ps', 'Es', ...template], { graph })]).toEqual([kind, bridge.solve(`${facts}, ${goal}`, ['Ns', 'Ps', 'Es', ...template], { graph: copyOf(graph) })]);
    }
  });

  it('drops the facts handed over so far when a part throws, and a later hand-over in the background is made in parts again', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [small, broken, other] = [claimsGraph(10, 's'), claimsGraph(6_000, 'x'), claimsGraph(100, 'o')];
    // a record the second part or a later one reads throws (as an engine's resource error would in that part)
    Object.defineProperty(broken.node('xc5999')!, 'properties', { get: () => { throw new Error('unreadable record'); } });
    bridge.solve(goal, template, { graph: small });
    setViewBound(small.factCount + broken.factCount); // room for the small view and the broken one, not for a third beside them
    try {
      const parts = handOverInParts({ graph: broken });
      expect(parts.next().done).toBe(false);
      expect(() => runParts(parts)).toThrow('unreadable record');
      expect([holdsGraph(broken), holdsGraph(small)]).toEqual([false, true]);
      // its slot counts against the bound no more
      expect(viewFits(other)).toBe(true);
      // the next hand-over in the background is made in parts, not at once
      const { yields, handedOver } = runParts(handOverInParts({ graph: other }));
      expect([yields > 0, handedOver, holdsGraph(other), holdsGraph(small)]).toEqual([true, true, true, true]);
      expect(bridge.solve(goal, template, { graph: other })).toEqual(bridge.solve(goal, template, { graph: copyOf(other) }));
      // and no fact of the broken graph is left in any slot
      const leftOver = "aggregate_all(count, ( current_module(M), sub_atom(M, 0, _, _, parley_view_), current_predicate(M:g_node/3), M:g_node(I, _, _), sub_atom(I, 0, 1, _, x) ), N)";
      expect(bridge.solve(leftOver, ['N'], { graph: small })).toEqual([[0]]);
    } finally {
      setViewBound(DEFAULT_VIEW_FACTS);
    }
  });

  it('drops the facts handed over so far when its caller gives up on it (return())', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    const [small, large] = [claimsGraph(10, 's'), claimsGraph(6_000, 'y')];
    bridge.solve(goal, template, { graph: small });
    const parts = handOverInParts({ graph: large });
    expect(parts.next().done).toBe(false);
    expect(parts.return(false)).toEqual({ done: true, value: false });
    const leftOver = "aggregate_all(count, ( current_module(M), sub_atom(M, 0, _, _, parley_view_), current_predicate(M:g_node/3), M:g_node(I, _, _), sub_atom(I, 0, 1, _, y) ), N)";
    expect(bridge.solve(leftOver, ['N'], { graph: small })).toEqual([[0]]);
    expect(holdsGraph(large)).toBe(false);
    expect(runParts(handOverInParts({ graph: claimsGraph(100, 'o') })).yields).toBeGreaterThan(0);
  });

  it('says it handed nothing over when a call between two parts leaves a cut or an as_of view of its graph in the slot', () => {
    const bridge = new PrologBridge();
    bridge.consult(RULES);
    for (const cut of [{ validUntil: '2024-01-02' }, { asOf: '2024-01-01T00:00:00.000Z' }]) {
      const large = claimsGraph(6_000, 'l');
      const parts = handOverInParts({ graph: large });
      expect(parts.next().done).toBe(false);
      // the call makes the rest of the hand-over, then takes its view of the graph: the later claim out, or as recorded then
      const view = { graph: large, ...cut };
      expect(bridge.solve(goal, template, view)).toEqual(bridge.solve(goal, template, { graph: copyOf(large), ...cut }));
      expect(runParts(parts).handedOver).toBe(false);
      expect(holdsGraph(large)).toBe(false);
    }
  });
});

describe('a whole hand-over of a large view', () => {
  it('hands over every record in parts, the facts in the graph\'s order, without growing the engine\'s stacks to the size of the view', () => {
    const recorded_at = '2024-01-01T00:00:00.000Z';
    const count = 30_000;
    const nodes = Array.from({ length: count }, (_, i) => ({ id: `a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}`, role: i % 2 ? 'party' : 'ally' }, confidence: 1, provenance: [], recorded_at }));
    // the edges from a0 lie far apart in the graph's order, so that they reach the engine in different parts
    const edges = Array.from({ length: count }, (_, i) => ({ id: `e${i}`, type: 'OPPOSES', from: i % 1_000 === 0 ? 'a0' : `a${i}`, to: `a${(i + 1) % count}`, properties: {}, confidence: 1, provenance: [], recorded_at }));
    const large = { graph: GraphIndex.fromRecords(nodes, edges) };
    const bridge = new PrologBridge();
    const [[actors, parties, opposes, last]] = bridge.solve("nodes_where('Actor', _, _, As), length(As, A), nodes_where('Actor', role, party, Ps), length(Ps, P), findall(E, edge(E, 'OPPOSES', _, _, _), Es), length(Es, O), once(prop(a29999, label, L))", ['A', 'P', 'O', 'L'], large);
    expect([actors, parties, opposes, last]).toEqual([count, count / 2, count, 'Actor 29999']);
    const fromFirst = bridge.solve("edge(E, 'OPPOSES', a0, _, _)", ['E'], large).map(([id]) => id);
    expect(fromFirst).toEqual(Array.from({ length: count / 1_000 }, (_, k) => `e${k * 1_000}`));
    // the lists of the whole view in one call (some 300k elements) grew the global stack to 32 MB; parts of 60k elements keep it near 8 MB
    const [[stack]] = bridge.solve('statistics(global_stack, [Used, Free]), Stack is Used + Free', ['Stack'], large);
    expect(stack).toBeLessThan(16 * 2 ** 20);
  });
});
