/**
 * A reasoning worker: consults the rule modules once at start, keeps graph
 * replicas in step with the store (replicas.ts), and runs each task on the replica
 * at the version the task names. A replica a snapshot has just made is handed to the
 * Prolog engine at once, in the background, and so is the replica of a graph a client is at
 * work on when the main thread asks (ReasoningPool.preload), and the records a write adds to the
 * graph whose view the engine holds, so that the next assess finds the facts and the shared
 * sets there rather than paying for them. The engine holds one view at a time: the latest
 * replica a snapshot made replaces the view it held, unless that view is this worker's part of
 * the warm-up's spread (warm.ts); a replica warmed after a restart is handed over only by the
 * worker the warm-up names.
 */
import { holdsGraph } from '../prolog/bridge.ts';
import { type FrameworkCatalog, loadRuleModules } from '../frameworks/loader.ts';
import { ParleyError } from '../errors.ts';
import { catalogKey } from '../frameworks/catalog-cache.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { ReplicaSet, type GraphVersion, type ReplicaEvent } from './replicas.ts';
import { runTask, serialise, type AnswerShaper, type ReasonReply, type ReasonTask, type START_TASK } from './tasks.ts';

export interface WorkerSetup {
  channelName: string;
  frameworkDirs: string[];
  /** The hash of the rule files as the main thread listed them (engine/frameworks/catalog-cache.ts catalogKey). */
  catalogSourceKey: string;
  maxGraphs: number;
  /** Facts a worker's replicas may hold together (ReasoningOptions.replicaFacts). */
  maxReplicaFacts: number;
  /** Largest graph (facts) handed to the engine ahead of a task (ReasoningOptions.preloadMaxFacts). */
  preloadMaxFacts: number;
  /** URL of a module exporting `shapeAnswer` (an AnswerShaper), for query tasks that ask for a shaped answer. */
  answerShaper?: string;
}

/**
 * How long a worker waits, after a write to a graph whose view its engine holds, before it hands
 * the records added over: the writes of one import come in quick succession, and are handed over
 * once, after the last.
 */
const PREPARE_AFTER_WRITE_MS = 200;

export async function startWorker(setup: WorkerSetup, shaper?: AnswerShaper): Promise<(task: ReasonTask | typeof START_TASK) => Promise<ReasonReply | null>> {
  // the replica whose view the engine is to take next, and when
  let toPrepare: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let catalog: FrameworkCatalog | undefined; // set once the rule modules are loaded
  const prepareIn = (delayMs: number) => {
    clearTimeout(timer);
    // (a timer, not at once: a task waiting for this replica runs first, and hands the view over itself)
    timer = setTimeout(prepare, delayMs).unref();
  };
  const prepare = () => {
    const key = toPrepare;
    if (!catalog || key === undefined) return;
    toPrepare = undefined;
    const replica = replicas.held(key);
    if (!replica || replica.graph.factCount > setup.preloadMaxFacts) return;
    try {
      catalog.registry.prepare({ graph: replica.graph });
    } catch {
      return; // the next task on the graph hands it over again and reports what broke
    }
    announce(replica.at, replica.graph);
  };
  // the replica whose view this worker last said its engine holds, and how many views it took whole (a
  // replica other than the one announced last: a write to that one is handed over as an addition)
  let announced: GraphIndex | undefined;
  let handOvers = 0;
  // the warm-up's part of the spread (ReplicaSource.hold): kept until a client's preload or a task has the engine take another view
  let pinned: GraphIndex | undefined;
  const announce = (at: GraphVersion, graph: GraphIndex) => {
    if (announced !== graph) handOvers++;
    announced = graph;
    if (pinned !== graph) pinned = undefined;
    replicas.announcePrepared(at, handOvers);
  };
  // the replicas before the rule modules: a snapshot another worker asked for while this one
  // starts is kept, and handed to the engine once the modules are loaded
  const replicas = new ReplicaSet(setup.channelName, setup.maxGraphs, onReplica, setup.maxReplicaFacts);
  function onReplica(at: GraphVersion, graph: GraphIndex, by: ReplicaEvent): void {
    // a graph above the bound is never handed over ahead: it neither arms a timer nor displaces
    // a pending smaller one (prepare checks again, as the graph can grow until the timer fires)
    if (graph.factCount > setup.preloadMaxFacts) return;
    // a replica warmed after a restart (warm.ts) is kept, not handed over: the warm-up names the worker that is to take its view (a preload)
    if (by === 'warm') return;
    // nor does a replica another worker's task asked for displace the warm-up's part of the spread
    if (by === 'snapshot' && pinned !== undefined && holdsGraph(pinned)) return;
    if (by === 'hold') pinned = graph;
    if (by === 'snapshot' || by === 'preload' || by === 'hold') {
      toPrepare = at.key; // the engine's view is replaced by the newest replica's, or the one a client is at work on
      prepareIn(0);
    } else if ((toPrepare === undefined || toPrepare === at.key) && holdsGraph(graph)) {
      toPrepare = at.key;
      prepareIn(PREPARE_AFTER_WRITE_MS);
    }
  }
  catalog = await loadRuleModules(setup.frameworkDirs);
  const loadedCatalog = catalog;
  // rules are consulted once, at start-up, and GET /v1/frameworks lists those: a worker started since
  // (after an idle stop, or a crash) that finds other files would answer with rules nobody listed
  const rulesChanged =
    catalogKey(setup.frameworkDirs) === setup.catalogSourceKey
      ? undefined
      : new ParleyError('runtime', 'rule_modules_changed', 'the rule modules changed on disk since the server started (they are consulted once, at start-up, and GET /v1/frameworks lists those): restart the server to load them');
  prepare();
  return async (task) => {
    if (task.kind === 'start') return null;
    if (rulesChanged && task.kind !== 'query') return { ok: false, error: serialise(rulesChanged) };
    if (toPrepare !== undefined && toPrepare !== task.at.key) {
      // a call on another graph came first: the engine is to hold that one, not be switched between its tasks
      toPrepare = undefined;
      clearTimeout(timer);
    }
    let graph;
    try {
      graph = await replicas.graph(task.at);
    } catch (error) {
      return { ok: false, error: serialise(error) }; // a graph deleted since the task was given out: 404, typed
    }
    const reply = runTask(task, graph, loadedCatalog, shaper);
    // what the engine holds now, so that a preload of a view it no longer holds is not taken as done
    // (a framework run brings the engine to the task's version; a query only when it calls a rule)
    if (task.kind !== 'query' && holdsGraph(graph)) announce(task.at, graph);
    else if (announced && !holdsGraph(announced)) {
      announced = undefined;
      replicas.announceReleased();
    }
    return reply;
  };
}
