import { GraphIndex } from '../../engine/store/graph-index.ts';

/** A copy of `graph` no view slot holds: what a fresh engine would answer over. */
export const copyOf = (graph: GraphIndex) => GraphIndex.fromRecords(graph.nodes.values(), graph.edges.values());

/** A goal counting, as N, the engine's kept answers (lib/graph.pl view_memo/3) over the active view whose key (Module:Key) unifies with `key`. */
export const keptCountGoal = (key: string) => `aggregate_all(count, ( user:g_memo(S), memo_entries(S, Es), member((${key})-_, Es) ), N)`;

/**
 * A goal counting, as N, the engine's kept-answer records (lib/graph.pl memo_store/2) that neither a g_kept/2 reference names
 * nor a kept answer holds as one of its parts (its slot's summary lists them): records a limit cut off, which kept_erase/3
 * erases at the slot's next store.
 */
export const unreferencedRecordsGoal =
  "aggregate_all(count, ( current_key(K), atom(K), sub_atom(K, 0, _, _, '$parley_memo_'), recorded(K, _, R), \\+ user:g_kept(K, R), \\+ ( user:g_kept_summary(K, s(_, _, _, _, Ps)), memberchk(R, Ps) ) ), N)";
