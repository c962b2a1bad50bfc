import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_FACTS, PrologBridge, handOverImage, holdsGraph, setViewBound, startProlog, viewImage, wholeHandOvers } from '../../engine/prolog/bridge.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { copyOf } from '../helpers/kept-answers.ts';
import { VIEW_FACT_KINDS, viewFactsOf } from '../helpers/view-facts.ts';

await startProlog();

const recorded_at = '2024-01-01T00:00:00.000Z';
/** Actors asserting claims that name two places, one claim of a later day (the reference date), some claims supporting the next (sources). */
const claimsGraph = (count: number) => {
  const actors = Array.from({ length: count }, (_, i) => ({ id: `a${i}`, labels: ['Actor'], properties: { label: `Actor ${i}`, actor_type: i % 2 ? 'state' : 'armed_group' }, confidence: 1, provenance: [], recorded_at }));
  const claims = Array.from({ length: count }, (_, i) => ({
    id: `c${i}`,
    labels: ['Claim'],
    properties: { type: 'Demand', text: `claim ${i} on ${i % 3 ? 'land' : 'water'}`, valid_from: i === count >> 1 ? '2024-03-01' : '2024-01-02' },
    confidence: 1,
    provenance: [{ source: 'feed', document_id: `doc-${i % 7}`, timestamp: recorded_at }],
    recorded_at,
  }));
  const places = ['Land', 'Water'].map((label) => ({ id: label, labels: ['Location'], properties: { label }, confidence: 1, provenance: [], recorded_at }));
  const edges = Array.from({ length: count }, (_, i) => ({ id: `e${i}`, type: 'ASSERTS', from: `a${i}`, to: `c${i}`, properties: { role: 'speaker' }, confidence: 0.8, provenance: [], recorded_at }));
  const supports = Array.from({ length: Math.floor((count - 1) / 10) }, (_, k) => ({ id: `s${k}`, type: 'SUPPORTS', from: `c${10 * k}`, to: `c${10 * k + 1}`, properties: {}, confidence: 1, provenance: [], recorded_at }));
  return GraphIndex.fromRecords([...actors, ...claims, ...places], [...edges, ...supports]);
};

const RULES = `
name_keywords('Location').
keywords(water_claims, [water]).
typed(A, T) :- nodes_where('Actor', actor_type, T, As), member(A, As).`;

const kinds = [...VIEW_FACT_KINDS, 'findall(A, typed(A, state), Fs)'];

describe('a view image (the view\'s facts as quick-load code)', () => {
  const bridge = new PrologBridge();
  bridge.consult(RULES);
  const factsOf = (graph: GraphIndex) => viewFactsOf(bridge, graph, kinds);
  /** An image of `graph` under the rules consulted so far. */
  const imageOf = (graph: GraphIndex) => {
    factsOf(graph); // (the engine holds its view)
    return viewImage(graph)!;
  };
  const graph = claimsGraph(300);
  const image = imageOf(graph);

  it('is handed over in place of the records: the same facts, in the same order, as a fresh hand-over, and a write is added to it as to any view', () => {
    expect(image.length).toBeGreaterThan(1_000);
    const fresh = factsOf(copyOf(graph));
    expect(fresh.map((facts) => facts.length > 0)).toEqual(kinds.map(() => true));
    expect(fresh.slice(6, 9)).toEqual([['land', 'water'], expect.any(Array), ['2024-03-01']]);
    const restarted = copyOf(graph);
    const [count, images] = [wholeHandOvers.count, wholeHandOvers.images];
    expect(handOverImage({ graph: restarted }, image)).toBe(true);
    expect(holdsGraph(restarted)).toBe(true);
    expect(factsOf(restarted)).toEqual(fresh);
    expect([wholeHandOvers.count - count, wholeHandOvers.images - images]).toEqual([1, 1]); // the image, and no hand-over after it
    // a write after the image: a claim naming water on a later day, and its assertion
    const written = copyOf(graph);
    for (const target of [restarted, written]) {
      putLogged(target, [{ id: 'c_new', labels: ['Claim'], properties: { type: 'Demand', text: 'new water claim', valid_from: '2024-04-01' }, confidence: 1, provenance: [], recorded_at }], [{ id: 'e_new', type: 'ASSERTS', from: 'a1', to: 'c_new', properties: {}, confidence: 1, provenance: [], recorded_at }]);
    }
    const count2 = wholeHandOvers.count;
    expect(factsOf(restarted)).toEqual(factsOf(written));
    expect(wholeHandOvers.count - count2).toBe(1); // the fresh copy's alone: the image's view took the write as an addition
    // facts a write was added to are in another order than a whole hand-over's: no image of them
    expect(viewImage(restarted)).toBeUndefined();
  });

  it('is refused when torn, corrupt, of another graph\'s size or made under other rules, and the view is then handed over whole', () => {
    const flipped = Buffer.from(image);
    flipped[flipped.length - 100] ^= 0xff;
    const torn = image.subarray(0, image.length - 10);
    const other = claimsGraph(301);
    const refused = [flipped, torn, Buffer.from('not an image')];
    // its header edited, the JSON kept valid: a later reference date (a write would keep it), a held name dropped
    const newline = image.indexOf(10);
    const header = JSON.parse(image.subarray(0, newline).toString());
    expect([header.latest, header.names]).toEqual(['2024-03-01', ['land', 'water']]);
    for (const edit of [{ latest: '2030-03-01' }, { names: ['land'] }]) refused.push(Buffer.concat([Buffer.from(JSON.stringify({ ...header, ...edit }) + '\n'), image.subarray(newline + 1)]));
    for (const bad of refused) expect(handOverImage({ graph: copyOf(graph) }, bad)).toBe(false);
    expect(handOverImage({ graph: other }, image)).toBe(false);
    // code whose digest matches but that does not load: the slot is left empty, and a call hands the view over
    const junk = Buffer.from('junk that is no quick-load code');
    const { sha256: _, ...digested } = { ...header, bytes: junk.length };
    const loadsNot = Buffer.concat([Buffer.from(JSON.stringify({ ...digested, sha256: createHash('sha256').update(JSON.stringify(digested)).update('\n').update(junk).digest('hex') }) + '\n'), junk]);
    const target = copyOf(graph);
    expect(handOverImage({ graph: target }, loadsNot)).toBe(false);
    expect(holdsGraph(target)).toBe(false);
    const count = wholeHandOvers.count;
    expect(factsOf(target)).toEqual(factsOf(copyOf(graph)));
    expect(wholeHandOvers.count - count).toBe(2); // each copy handed over whole
    // a module consulted since declares a keyword the image's mentions do not cover
    new PrologBridge().consult('keywords(land_claims, [land]).');
    expect(handOverImage({ graph: copyOf(graph) }, image)).toBe(false);
  });

  it('is refused when made under other code or of another format: its signature names the digest of the helper library (lib/*.pl) and the bridge, and the format', () => {
    const digest = (...parts: (string | Uint8Array)[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');
    const fresh = claimsGraph(50);
    const image = imageOf(fresh);
    const newline = image.indexOf(10);
    const { sha256: _, ...header } = JSON.parse(image.subarray(0, newline).toString());
    const library = (file: string) => readFileSync(new URL(`../../engine/prolog/${file}`, import.meta.url));
    const helpers = readdirSync(new URL('../../engine/prolog/lib/', import.meta.url)).filter((file) => file.endsWith('.pl')).sort();
    expect(helpers).toEqual(expect.arrayContaining(['argumentation.pl', 'conflict.pl', 'graph.pl']));
    const signature = JSON.parse(header.signature);
    expect(signature.code).toBe(digest(...helpers.flatMap((file) => [file, library(`lib/${file}`)]), library('bridge.ts')));
    expect(signature.format).toBe(4);
    // the image's facts under a signature changed by `change`, its digest whole (as an engine so made would write it)
    const qlf = image.subarray(newline + 1);
    const signed = (change: object) => {
      const made = { ...header, signature: JSON.stringify({ ...signature, ...change }) };
      return Buffer.concat([Buffer.from(JSON.stringify({ ...made, sha256: digest(JSON.stringify(made), '\n', qlf) }) + '\n'), qlf]);
    };
    expect(handOverImage({ graph: copyOf(fresh) }, signed({ code: digest('other code') }))).toBe(false);
    // format 2 held valid times as g_valid facts of their own: refused by its number before its predicates are read
    expect(handOverImage({ graph: copyOf(fresh) }, signed({ format: 2 }))).toBe(false);
    expect(handOverImage({ graph: copyOf(fresh) }, signed({}))).toBe(true);
  });

  it('loads only when it holds every view fact predicate (parley_load_image/2): one made before a view fact was added does not', () => {
    // a source file in the form of parley_write_image/2's: the dynamic declarations, the list of predicates held, the facts
    const predicates = 'g_node/3, g_prop/3, g_eprop/3, g_edge/6, g_text/2, g_ref/2, g_mention/2, g_named/1, g_source/2, g_text_in_props/0';
    const loads = (held: string) =>
      bridge.solve(
        `F = '/tmp/image-probe.pl', setup_call_cleanup(open(F, write, S), format(S, ':- ~q.~n:- ~q.~n~q.~n~q.~n', [dynamic(g_node/3), dynamic('$parley_image_of'/1), g_node(n1, actor, []), '$parley_image_of'([${held}])]), close(S)), ( parley_load_image(probe_view, F) -> findall(N, probe_view:g_node(N, _, _), Loaded) ; Loaded = refused )`,
        ['Loaded'],
        { graph: copyOf(graph) },
      )[0][0];
    expect(loads(predicates)).toEqual(['n1']);
    expect(loads(predicates.replace(', g_source/2', ''))).toBe('refused');
    // one of format 2, whose valid times were g_valid facts of their own and not in g_node/3
    expect(loads(predicates.replace('g_node/3', 'g_node/2, g_valid/3'))).toBe('refused');
  });

  it('loads into two slots of one engine, one load leaving the other\'s facts', () => {
    const image = imageOf(graph);
    const [first, second] = [copyOf(graph), copyOf(graph)];
    const fresh = factsOf(copyOf(graph));
    expect(handOverImage({ graph: first }, image)).toBe(true);
    expect(handOverImage({ graph: second }, image)).toBe(true);
    const count = wholeHandOvers.count;
    expect(factsOf(first)).toEqual(fresh);
    expect(factsOf(second)).toEqual(fresh);
    expect(wholeHandOvers.count - count).toBe(0); // both read from their images' slots
  });

  it('has its clause indexes built ahead, or left to the reads when a task hands it over itself: the same facts either way', () => {
    const image = imageOf(graph);
    const fresh = factsOf(copyOf(graph));
    const [ahead, left] = [copyOf(graph), copyOf(graph)];
    let indexes = wholeHandOvers.indexes;
    expect(handOverImage({ graph: ahead }, image)).toBe(true);
    expect(wholeHandOvers.indexes - indexes).toBeGreaterThan(5); // (one per lookup the frameworks make: lib/graph.pl parley_warm/3)
    indexes = wholeHandOvers.indexes;
    expect(handOverImage({ graph: left }, image, { indexes: false })).toBe(true);
    expect(wholeHandOvers.indexes).toBe(indexes);
    expect(factsOf(left)).toEqual(fresh);
    expect(factsOf(ahead)).toEqual(fresh);
  });

  it('is read last of the views held when loaded, its load timed: the next hand-over past the bound drops an older view, not it', () => {
    const image = imageOf(graph);
    const [older, loaded, next] = [copyOf(graph), copyOf(graph), copyOf(graph)];
    setViewBound(2 * graph.factCount);
    try {
      factsOf(older);
      const imageMs = wholeHandOvers.imageMs;
      wholeHandOvers.clock = (() => { let tick = 0; return () => ++tick; })(); // (a clock that always moves)
      expect(handOverImage({ graph: loaded }, image)).toBe(true);
      expect(wholeHandOvers.imageMs).toBeGreaterThan(imageMs);
      factsOf(next);
      expect([holdsGraph(older), holdsGraph(loaded), holdsGraph(next)]).toEqual([false, true, true]);
    } finally {
      setViewBound(DEFAULT_VIEW_FACTS);
      wholeHandOvers.clock = () => performance.now();
    }
  });
});

