/**
 * A node's lowered text (lib/graph.pl node_text/2, which text_mentions/3 reads for a word the text index does not
 * cover) is the same whether the view holds it as a g_text fact or, where the view holds the text and label
 * properties, reads it back from them (engine/prolog/bridge.ts textReadBackFromProps): the values that are no text, or that
 * lower differently, keep their own fact or none. The keys a view holds only grow in a thread (vitest gives each
 * file one): the first test runs before any rule or goal names text or label, the later ones after.
 */
import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { PrologBridge, holdsWholeView, propertyKeysHeld, startProlog, viewImage } from '../../engine/prolog/bridge.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

await startProlog();

const recorded = '2024-01-01T00:00:00.000Z';
const claim = (id: string, properties: Record<string, unknown>): NodeRecord => ({ id, labels: ['Claim'], properties: { type: 'Demand', ...properties } as NodeRecord['properties'], confidence: 1, provenance: [], recorded_at: recorded });
const nodes = [
  claim('ascii', { text: 'We DEMAND Talks now' }),
  claim('labelled', { label: 'Rapid Support Forces' }),
  claim('curly', { text: 'We won\u2019t accept TALKS' }), // lowered and straightened: "we won't accept talks"
  claim('accented', { text: '\u00c9COLES and TALKS' }),
  claim('word_true', { text: 'true' }),
  claim('json_like', { text: '{talks}' }),
  claim('boolean', { text: true, label: 'talks' }), // text ?? label is the boolean: no text
  claim('number', { text: 5, label: 'talks' }),
  claim('object', { text: { talks: 1 }, label: 'talks' }),
  claim('listed', { text: ['talks'], label: 'talks' }),
  claim('null_text', { text: null, label: 'Talks Held' }), // null: the label
  claim('none', {}),
];
const ids = nodes.map((node) => node.id);
const EXPECTED: [string, string | boolean][] = [
  ['ascii', 'we demand talks now'],
  ['labelled', 'rapid support forces'],
  ['curly', "we won't accept talks"],
  ['accented', '\u00e9coles and talks'],
  ['word_true', true], // (the atom true, as answers give it)
  ['json_like', '{talks}'],
  ['null_text', 'talks held'],
];
/** The ids of EXPECTED, sorted: every node with a text, as g_text facts list them. */
const EXPECTED_IDS = EXPECTED.map(([id]) => id).sort();

const textsOf = (bridge: PrologBridge, view: { graph: GraphIndex }, of = ids) =>
  bridge.solve(`findall([I, L], ( member(I, [${of.join(', ')}]), node_text(I, L) ), Fs)`, ['Fs'], view)[0][0] as unknown as string[][];
const factsOf = (bridge: PrologBridge, view: { graph: GraphIndex }) =>
  (bridge.solve('findall(I, g_text(I, _), Is), msort(Is, Sorted)', ['Sorted'], view)[0][0] as string[]);
const mentioning = (bridge: PrologBridge, view: { graph: GraphIndex }, word: string) =>
  bridge.solve(`findall(I, ( member(I, [${ids.join(', ')}]), text_mentions(I, [${word}], _) ), Is)`, ['Is'], view)[0][0];

describe("a node's lowered text", () => {
  const view = { graph: GraphIndex.fromRecords(nodes, []) };
  const bridge = new PrologBridge();
  const reader = new PrologBridge();

  it('is a g_text fact of every node with a text while the view holds neither text nor label', () => {
    bridge.consult('claim_type(C, T) :- prop(C, type, T).');
    expect(propertyKeysHeld()).toEqual(['type']);
    expect(textsOf(bridge, view)).toEqual(EXPECTED);
    expect(factsOf(bridge, view)).toEqual(EXPECTED_IDS);
    expect(mentioning(bridge, view, 'talks')).toEqual(['ascii', 'curly', 'accented', 'json_like', 'null_text']);
  });

  it('is read back from the text or label property where it is ASCII, with the same answers', () => {
    reader.consult(':- module(texts, [t/2]).\nt(Id, T) :- prop(Id, text, T) ; prop(Id, label, T).');
    expect(propertyKeysHeld()).toEqual(expect.arrayContaining(['label', 'text', 'type']));
    expect(textsOf(bridge, view)).toEqual(EXPECTED);
    // the texts of ASCII only left out; a curly apostrophe, an accent, and the texts that are other values as atoms kept
    expect(factsOf(bridge, view)).toEqual(['accented', 'curly', 'json_like', 'word_true']);
    expect(mentioning(bridge, view, 'talks')).toEqual(['ascii', 'curly', 'accented', 'json_like', 'null_text']);
  });

  it('is read back for the nodes a write adds to the view held', () => {
    putLogged(view.graph, [claim('added', { text: 'Talks RESUMED' }), claim('added_curly', { text: 'Talks\u2019 end' })], []);
    expect(textsOf(bridge, view, ['added', 'added_curly'])).toEqual([['added', 'talks resumed'], ['added_curly', "talks' end"]]);
    expect(factsOf(bridge, view)).toEqual(['accented', 'added_curly', 'curly', 'json_like', 'word_true']);
  });

  it('is no image once the keys it was read back under are released, and a write then hands the view over whole: the texts left out are not the facts the image signs for', () => {
    const fresh = { graph: GraphIndex.fromRecords(nodes, []) };
    expect(textsOf(bridge, fresh)).toEqual(EXPECTED);
    expect(holdsWholeView(fresh.graph)).toBe(true);
    expect(viewImage(fresh.graph)).toBeDefined();
    reader.releaseKeys();
    expect(propertyKeysHeld()).not.toContain('text');
    expect(holdsWholeView(fresh.graph)).toBe(false);
    expect(viewImage(fresh.graph)).toBeUndefined();
    // its answers stay those of the facts it holds; a view handed over now holds every text in g_text
    expect(textsOf(bridge, fresh)).toEqual(EXPECTED);
    // a write to it hands it over whole: the added ASCII text has no text property held to be read back from
    putLogged(fresh.graph, [claim('added_ascii', { text: 'Talks AGAIN' })], []);
    expect(textsOf(bridge, fresh, [...ids, 'added_ascii'])).toEqual([...EXPECTED, ['added_ascii', 'talks again']]);
    expect(factsOf(bridge, fresh)).toEqual([...EXPECTED_IDS, 'added_ascii'].sort());
    const later = { graph: GraphIndex.fromRecords(nodes, []) };
    expect(textsOf(bridge, later)).toEqual(EXPECTED);
    expect(factsOf(bridge, later)).toEqual(EXPECTED_IDS);
  });
});
