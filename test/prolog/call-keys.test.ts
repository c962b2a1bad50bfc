/**
 * The keys a goal reads, by where it comes from (engine/prolog/bridge.ts solve and holdsCall, lib/graph.pl
 * parley_goal_keys/3 and parley_call_keys/3): a goal solved directly is code, and every reader it names reads; a
 * call from WHERE passes data, which reads a key only when it is a reader's name the predicate calls.
 * The tests run in this order in a thread of their own (vitest runs each file apart): the third has the view
 * hold every key, which the ones before assert it does not, and the fourth unloads the module that made it.
 */
import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { propertyKeysHeld, startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

await startProlog();

const node = (id: string, properties: NodeRecord['properties']): NodeRecord => ({ id, labels: ['Actor'], properties, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' });
const view = { graph: GraphIndex.fromRecords([node('a1', { label: 'RSF', mood: 'calm', shade: 'dark' })], []) };

const registry = new RuleRegistry();
registry.load('readers', ':- module(readers, [same/1, apply/2]).\nget(Id, K, V) :- prop(Id, K, V).\nsame(X) :- X == X.\napply(P, V) :- call(P, a1, mood, V).', 'readers.pl');

describe('the keys a goal reads', () => {
  it("reads the key a goal solved directly passes to a module's own reader", () => {
    expect(registry.solve('readers', 'get(a1, shade, V)', ['V'], view)).toEqual([['dark']]);
    expect(propertyKeysHeld()).toContain('shade');
  });

  it("reads no key from a WHERE call's data, a reader's name among it included, when the predicate calls none", () => {
    expect(registry.predicate('same', 1)!.holds(["'prop'"], view, {})).toBe(true);
    expect(propertyKeysHeld()).not.toBe('all');
  });

  it("has the view hold every key when a WHERE call gives a reader's name to an argument the predicate calls", () => {
    expect(registry.predicate('apply', 2)!.holds(["'get'", "'calm'"], view, {})).toBe(true);
    expect(propertyKeysHeld()).toBe('all');
  });

  it("takes a module's keys, its goals' and calls' included, out of those views hold when it is unloaded", () => {
    registry.load('moods', ':- module(moods, [m/1]).\nm(V) :- prop(a1, mood, V).', 'moods.pl');
    registry.unload('readers');
    const held = propertyKeysHeld();
    expect(held).not.toBe('all');
    expect(held).toContain('mood');
    expect(held).not.toContain('shade');
    registry.unload('moods');
    expect(propertyKeysHeld()).not.toContain('mood');
  });
});

describe("a module's key readers", () => {
  it("are its own and its library's: another module's predicate of the same name reads no key", () => {
    registry.load('getter', ':- module(getter, [g/1]).\nget(Id, K, V) :- prop(Id, K, V).\ng(V) :- get(a1, label, V).', 'getter.pl');
    registry.load('pairs', ':- module(pairs, [get/3, p/1]).\nget(X, Y, X-Y).\np(V) :- get(a1, shade, V).', 'pairs.pl');
    const keysOf = (id: string) => registry.solve(id, 'context_module(M), parley_read_keys(M, Keys)', ['Keys'], view)[0][0];
    expect(keysOf('getter')).toEqual(['label']);
    expect(keysOf('pairs')).toEqual([]);
  });
});
