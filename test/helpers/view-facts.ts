import type { PrologBridge } from '../../engine/prolog/bridge.ts';
import type { GraphIndex } from '../../engine/store/graph-index.ts';

/** Every kind of fact a hand-over makes, one kind a goal (the answers of one call together would grow the engine's stacks). */
export const VIEW_FACT_KINDS = [
  'findall(f(I, T, F, D, C), edge(I, T, F, D, C), Fs)',
  'findall(n(I, L), node(I, L), Fs)',
  'findall(p(I, K, V), prop(I, K, V), Fs)',
  'findall(v(I, V), valid_time(I, V), Fs)',
  'findall(t(I, T), ( distinct(I, g_node(I, _)), node_text(I, T) ), Fs)', // (g_text, or the text properties where it leaves them out)
  'findall(w(W, I), g_mention(W, I), Fs)',
  'findall(W, g_named(W), Fs)',
  'findall(s(I, S), argument_source(I, S), Fs)',
  'findall(R, reference_date(R), Fs)',
];

/** The facts of each of `kinds` that `bridge` reads over `graph`'s view, in the engine's order. */
export const viewFactsOf = (bridge: PrologBridge, graph: GraphIndex, kinds = VIEW_FACT_KINDS) =>
  kinds.map((kind) => bridge.solve(kind, ['Fs'], { graph })[0][0] as unknown[]);
