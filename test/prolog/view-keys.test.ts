/**
 * The view holds the properties of the keys the rules read (engine/prolog/bridge.ts viewKeys, lib/graph.pl
 * parley_read_keys/2), and every way a rule or a goal can name a key makes the view hold it: a key written in a
 * clause, taken from a list written there, passed through a predicate of the module, or computed (then all keys).
 * The keys a view holds only grow in a thread, and vitest gives each file one: the tests run in this order, the
 * first asserting the keys of a fresh thread, those after the first 'all' reading the scan (parley_read_keys/2),
 * which other modules do not change, not the keys held.
 */
import { describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { PrologBridge, propertyKeysHeld, startProlog } from '../../engine/prolog/bridge.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

await startProlog();

const recorded = '2024-01-01T00:00:00.000Z';
const node = (id: string, labels: string[], properties: NodeRecord['properties']): NodeRecord => ({ id, labels, properties, confidence: 1, provenance: [], recorded_at: recorded });
const edge = (id: string, from: string, to: string, properties: EdgeRecord['properties']): EdgeRecord => ({ id, type: 'ASSERTS', from, to, properties, confidence: 1, provenance: [], recorded_at: recorded });
const view = {
  graph: GraphIndex.fromRecords(
    [
      node('a1', ['Actor'], { label: 'RSF', actor_type: 'armed_group', colour: 'red', weight: 3 }),
      node('c1', ['Claim'], { type: 'Demand', text: 'We demand talks', timestamp: '2024-01-02T10:00:00Z', mood: 'calm' }),
      node('c2', ['Claim'], { type: 'Threat', text: 'We will strike', timestamp: '2024-01-03T10:00:00Z', mood: 'angry' }),
    ],
    [edge('e1', 'a1', 'c1', { weight: 2, tone: 'firm' })],
  ),
};

/** The view's facts per g_* predicate, asked without naming a property key (a goal naming one would have the view hold it). */
function clausesOf(bridge: PrologBridge): Record<string, number> {
  const [[counts]] = bridge.solve(
    'active_view(V), findall([N, C], ( view_fact(H), functor(H, N, _), predicate_property(V:H, number_of_clauses(C)) ), Counts)',
    ['Counts'],
    view,
  ) as [[[string, number][]]];
  return Object.fromEntries(counts);
}

describe('the property keys a view holds', () => {
  it('holds only the keys consulted rules read, and a key a rule consulted later reads from then on', () => {
    const bridge = new PrologBridge();
    bridge.consult('claim_type(C, T) :- prop(C, type, T).');
    expect(propertyKeysHeld()).toEqual(['type']);
    expect(bridge.solve("claim_type(c1, T)", ['T'], view)).toEqual([['Demand']]);
    // two type facts; none of label, actor_type, colour, weight, text, timestamp, mood, nor the edge's
    expect(clausesOf(bridge)).toMatchObject({ g_prop: 2, g_eprop: 0 });

    const later = new PrologBridge();
    later.consult('stamp(C, T) :- prop(C, timestamp, T).');
    expect(later.solve('stamp(c2, T)', ['T'], view)).toEqual([['2024-01-03T10:00:00Z']]);
    expect(clausesOf(later)).toMatchObject({ g_prop: 4 });
  });

  it('reads a key from each place a rule can write it', () => {
    const bridge = new PrologBridge();
    bridge.consult(`
      :- module(forms, [angry/1, heavy/1, light/1]).
      angry(Ids) :- nodes_where('Claim', mood, angry, Ids).
      heavy(Sum) :- nodes_where('Actor', _, _, As), sum_prop(As, weight, Sum).
      light(Kept) :- nodes_where('Claim', _, _, Cs), condition(C), filter_ids(Cs, C, Kept).
      condition(prop(type, 'Demand')).
      tone(E, T) :- member(K-_, [tone-edge]), prop(E, K, T).
      coloured(Id, V) :- passed(Id, colour, V).
      passed(Id, Key, V) :- prop(Id, Key, V).`);
    expect(propertyKeysHeld()).toEqual(expect.arrayContaining(['mood', 'weight', 'type', 'tone', 'colour']));
    expect(bridge.solve('angry(Ids)', ['Ids'], view)).toEqual([[['c2']]]);
    expect(bridge.solve('heavy(S)', ['S'], view)).toEqual([[3]]);
    expect(bridge.solve('light(K)', ['K'], view)).toEqual([[['c1']]]);
    expect(bridge.solve('tone(e1, T)', ['T'], view)).toEqual([['firm']]);
    expect(bridge.solve('coloured(a1, V)', ['V'], view)).toEqual([['red']]);
  });

  it('reads a key named in a goal solved directly', () => {
    const bridge = new PrologBridge();
    expect(bridge.solve("prop(a1, label, L)", ['L'], view)).toEqual([['RSF']]);
  });

  it('hands a key read by a module consulted later over into every slot, a graph grown by a write included', () => {
    const actor = (id: string, properties: NodeRecord['properties']) => node(id, ['Actor'], properties);
    const first = { graph: GraphIndex.fromRecords([actor('s1', { mood: 'calm', shade: 'pale' })], []) };
    const second = { graph: GraphIndex.fromRecords([actor('s2', { mood: 'angry', shade: 'dark' })], []) };
    const moods = new PrologBridge();
    moods.consult(':- module(moods, [m/2]).\nm(Id, V) :- prop(Id, mood, V).');
    expect(moods.solve('m(s1, V)', ['V'], first)).toEqual([['calm']]);
    expect(moods.solve('m(s2, V)', ['V'], second)).toEqual([['angry']]);
    putLogged(second.graph, [actor('s3', { mood: 'tired', shade: 'grey' })], []);
    expect(moods.solve('m(s3, V)', ['V'], second)).toEqual([['tired']]);
    expect(propertyKeysHeld()).not.toContain('shade');

    const shades = new PrologBridge();
    shades.consult(':- module(shades, [s/2]).\ns(Id, V) :- prop(Id, shade, V).');
    expect(propertyKeysHeld()).toContain('shade');
    expect(shades.solve('s(s1, V)', ['V'], first)).toEqual([['pale']]);
    expect(shades.solve('s(s2, V)', ['V'], second)).toEqual([['dark']]);
    expect(shades.solve('s(s3, V)', ['V'], second)).toEqual([['grey']]);
  });
});

/** The keys a module's clauses read (lib/graph.pl parley_read_keys/2), apart from what other tests have the view hold. */
function keysRead(program: string): string[] | 'all' {
  const bridge = new PrologBridge();
  bridge.consult(program);
  const [[keys]] = bridge.solve('context_module(M), parley_read_keys(M, Keys)', ['Keys'], view) as [[string[] | 'all']];
  return keys;
}

describe('the forms of a key read the scan must not miss', () => {
  it("reads a module's own reader passed by name as all: the key is then a list's element or a value", () => {
    const reader = 'get(Id, K, V) :- prop(Id, K, V).\n';
    expect(keysRead(`:- module(by_maplist, [r/1]).\ngv(K, V) :- prop(a1, K, V).\nr(Vs) :- maplist(gv, [colour], Vs).`)).toBe('all');
    expect(keysRead(`:- module(by_foldl, [r/1]).\nget(K, _, V) :- prop(a1, K, V).\nr(V) :- foldl(get, [tone], x, V).`)).toBe('all');
    expect(keysRead(`:- module(by_call, [r/1]).\n${reader}r(V) :- P = get, call(P, a1, mood, V).`)).toBe('all');
  });

  it('takes a listed key only from a member/2 run before the reader, in a conjunction with it', () => {
    expect(keysRead(':- module(listed, [r/2]).\nr(E, T) :- member(K-_, [tone-edge]), prop(E, K, T).')).toEqual(['tone']);
    expect(keysRead(':- module(listed_inside, [r/1]).\nr(Vs) :- findall(V, ( member(K, [mood, tone]), prop(a1, K, V) ), Vs).')).toEqual(['mood', 'tone']);
    expect(keysRead(':- module(negated, [r/1]).\nr(Ps) :- findall(K-V, ( prop(a1, K, V), \\+ member(K, [label]) ), Ps).')).toBe('all');
    expect(keysRead(':- module(after, [r/1]).\nr(V) :- prop(a1, K, V), member(K, [mood]).')).toBe('all');
    expect(keysRead(':- module(elsewhere, [r/1]).\nr(V) :- ( member(K, [mood]) ; true ), prop(a1, K, V).')).toBe('all');
  });

  it("reads prop(Id, Key) called as prop/3's closure by its key, and prop(Key, Value) as a condition by its key", () => {
    expect(keysRead(':- module(closure, [r/1]).\nr(V) :- call(prop(a1, mood), V).')).toEqual(['mood']);
    // the id a caller passes is no key: a computed one makes no key all
    expect(keysRead(':- module(closure_id, [s/1]).\nr(Id, V) :- call(prop(Id, mood), V).\ns(V) :- nodes_where(\'Actor\', _, _, [A | _]), r(A, V).')).toEqual(['mood']);
    // a condition whose key a caller passes: the caller's key is read
    expect(keysRead(`:- module(condition, [u/1]).\nwith(K, V, As) :- nodes_where('Actor', _, _, Ns), filter_ids(Ns, prop(K, V), As).\nu(As) :- with(colour, red, As).`)).toEqual(['colour']);
    // bound to a variable, either: both atoms are read
    expect(keysRead(':- module(either, [r/1]).\nr(V) :- C = prop(a1, mood), call(C, V).')).toEqual(['a1', 'mood']);
    expect(keysRead(':- module(either_computed, [r/1]).\nr(V) :- atom_concat(mo, od, K), C = prop(a1, K), call(C, V).')).toBe('all');
  });
});

describe('a key no clause writes', () => {
  it('has the view hold every key: a key computed, one a query passes to a rule WHERE may call', () => {
    // a header that exports passed/3: WHERE may call it with any key, so no key may be left out
    const open = ':- module(open_keys, [passed/3]).\npassed(Id, Key, V) :- prop(Id, Key, V).';
    expect(keysRead(open)).toBe('all');
    expect(keysRead(':- module(closed_keys, [r/1]).\npassed(Id, Key, V) :- prop(Id, Key, V).\nr(V) :- passed(c1, mood, V).')).toEqual(['mood']);
    const bridge = new PrologBridge();
    bridge.consult(open.replace('open_keys', 'open_keys_2'));
    expect(propertyKeysHeld()).toBe('all');
    expect(bridge.holds("passed(c1, mood, calm)", view)).toBe(true);
    expect(bridge.holds("passed(e1, weight, 2)", view)).toBe(true);
  });

  it('reads as all a key computed, a reader passing its head key in a module with no header, a reader named as an atom', () => {
    expect(keysRead(":- module(formatted, [r/1]).\nr(V) :- format(atom(K), '~w', [mood]), prop(c1, K, V).")).toBe('all');
    expect(keysRead('r(V) :- get(c1, mood, V).\nget(Id, K, V) :- prop(Id, K, V).')).toBe('all');
    expect(keysRead(':- module(by_name, [r/1]).\nr(V) :- call(prop, c1, mood, V).')).toBe('all');
  });

  it('answers a WHERE call of an exported reader with the key the query passes', () => {
    const registry = new RuleRegistry();
    registry.load('where_keys', ':- module(where_keys, [passed/3]).\npassed(Id, Key, V) :- prop(Id, Key, V).', 'where_keys.pl');
    expect(registry.predicate('passed', 3)!.holds(["'c2'", "'mood'", "'angry'"], view, {})).toBe(true);
    expect(registry.predicate('passed', 3)!.holds(["'a1'", "'colour'", "'blue'"], view, {})).toBe(false);
  });
});
