/**
 * A reasoning worker: consults the rule modules once at start, keeps graph
 * replicas in step with the store (replicas.ts), and runs each task on the replica
 * at the version the task names. A replica a snapshot has just made is handed to the
 * Prolog engine at once, in the background, and so is the replica of a graph a client is at
 * work on when the main thread asks (ReasoningPool.preload, or the warm-up's holds after a
 * restart, warm.ts), and the records a write adds to a graph whose view the engine holds, so
 * that the next assess finds the facts and the shared sets there rather than paying for them.
 * The engine holds the views of several graphs, within its bound on facts (setViewBound, the
 * least recently read dropped first): a replica a snapshot made for another worker's task, and a
 * graph the warm-up holds, are handed over only where they drop no other graph's view (checked
 * when the hand-over is made, as a client's task or preload may have come first). A whole hand-over in
 * the background is made in parts, a turn of the event loop between two, so that a task that comes
 * meanwhile runs between them rather than after the whole (about a second of a core at 100k facts); one whose
 * replica is dropped or replaced meanwhile is abandoned, its facts so far dropped, and so is one whose slot a task
 * on another graph took (or dropped to fit the bound), at the end of that task.
 *
 * A replica whose snapshot named the graph's view image on disk (view-images.ts: an untouched graph after a restart)
 * is handed over from it, in one part, rather than from the records, and so by a framework task that comes before that
 * hand-over began (an assess asked as a restart's warm-up starts). The worker the main thread asks makes the image
 * of a whole view its engine holds once it has had no task for a while (setup.imageAfterIdleMs) and has nothing else to hand over,
 * saying so first: the router counts it busy meanwhile (workers.ts ViewRouter).
 * Once it has nothing else to do, the garbage a hand-over or a task left is collected when there is much of it, and after a whole hand-over (idle-collection.ts).
 * The engine's global stack is collected then too, after a hand-over of any kind that left much garbage on it, so that
 * the next task's first framework run does not grow the stack by copying it (idle-collection.ts stackCollection).
 */
import { addedHandOvers, holdsGraph, holdsWholeView, reserveViewMemoryAhead, reservedAheadFor, setViewBound, takingInParts, viewFits, viewFitsBeside, viewImage, wholeHandOvers, type SolveLimits } from '../prolog/bridge.ts';
import { type FrameworkCatalog, loadRuleModules } from '../frameworks/loader.ts';
import { ParleyError } from '../errors.ts';
import { catalogKey } from '../frameworks/catalog-cache.ts';
import { splitGraphKey } from '../store/graph-cache.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { ReplicaSet, type GraphVersion, type ImageOnDisk, type ReplicaEvent, type ReplicaMessage } from './replicas.ts';
import { collectEngineStacks, collectGarbage, collectionDueAt, replicaHandedOver, stackCollectionDue } from './idle-collection.ts';
import { readViewImage, writeViewImage } from './view-images.ts';
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
  /** Facts of the views the engine holds together (ReasoningOptions.viewFacts). */
  viewFacts: number;
  /** How long a worker asked to make a view image waits with no task before it makes it (ReasoningOptions.viewImageIdleMs). */
  imageAfterIdleMs: number;
  /** Inferences the shared sets of a background hand-over may take (ReasoningOptions.backgroundSetsInferences). */
  backgroundSetsInferences: number;
  /** URL of a module exporting `shapeAnswer` (an AnswerShaper), for query tasks that ask for a shaped answer. */
  answerShaper?: string;
}

/**
 * How long a worker waits, after a write to a graph whose view its engine holds, before it hands
 * the records added over: the writes of one import come in quick succession, and are handed over
 * once, after the last.
 */
const PREPARE_AFTER_WRITE_MS = 200;
/**
 * How long after a task the hand-overs waiting in the background wait: the tasks of one call (an
 * assess's frameworks, handed out one after another) run first, rather than each waiting for a
 * hand-over of another graph (about 1 s of a core at 100k facts) made between them.
 */
const BACKGROUND_AFTER_TASK_MS = 200;
/**
 * How long a worker waits, once it has said it is making a view image, before it makes it: the word crosses to the main
 * thread, and a task the router gave this worker before it heard comes first (the image then waits for the worker to be idle).
 */
const IMAGE_NOTICE_MS = 50;
/**
 * The wall time the shared sets of a background hand-over may take (its last part, one call), beside their inferences
 * (setup.backgroundSetsInferences), which bound the work: no client waits on them, and the 5 s of a client's rule query
 * (DEFAULT_RULE_TIME_LIMIT_MS) were passed at 1M facts on a loaded machine, so that the view was never said prepared and
 * its image never asked for. This only ends an engine stalled far past what its inferences take (some 2.3 s of a core at 1M).
 */
const BACKGROUND_SETS_MS = 10 * 60_000;

export async function startWorker(setup: WorkerSetup, shaper?: AnswerShaper): Promise<(task: ReasonTask | typeof START_TASK) => Promise<ReasonReply | null>> {
  setViewBound(setup.viewFacts);
  const backgroundSetsLimits = { inferenceLimit: setup.backgroundSetsInferences, timeLimitMs: BACKGROUND_SETS_MS };
  // the replicas whose views the engine is to take (or take the records added to), in order: when each is due, and
  // whether it is to drop no view held (a background hand-over: a snapshot for another worker's task, a warm-up's hold)
  const toPrepare = new Map<string, { due: number; dropsNone: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let lastTask = 0;
  // tasks under way, a task waiting for its replica's snapshot (in parts) among them: no collection meanwhile
  let inTask = 0;
  // the background hand-over under way, made in parts (registry.prepareInParts), and the replica's version it is of
  // (imagesBefore: the whole hand-overs from an image before it, when it was given the image on disk: one more, or it was refused)
  let underWay: { at: GraphVersion; graph: GraphIndex; parts: Generator<void, boolean>; imagesBefore?: number } | undefined;
  let catalog: FrameworkCatalog | undefined; // set once the rule modules are loaded
  // the view image the main thread asked this worker to make, and whether one is being made or written
  let imageAsked: Extract<ReplicaMessage, { type: 'image' }> | undefined;
  let makingImage = false;
  // the view image on disk of the last replica whose snapshot began, read as it began (onSnapshotBegin), until its hand-over
  // takes it; one at most, let go when another snapshot with an image begins, when that replica's build is let go or ends
  // without the image (a delta applied), and before the worker's idle collection unless that replica is still building
  // (a worker that built the replica but hands nothing over holds it no longer than it has garbage to collect)
  let imageReadAhead: { key: string; generation: string; revision: number; bytes: Uint8Array | undefined } | undefined;
  const prepareIn = (key: string, delayMs: number, dropsNone: boolean) => {
    const waiting = toPrepare.get(key);
    toPrepare.delete(key); // (a write's delay starts again at the next write)
    toPrepare.set(key, { due: Date.now() + delayMs, dropsNone: dropsNone && (waiting?.dropsNone ?? true) });
    schedule();
  };
  // when the garbage is to be collected: once nothing else is to be done (a hand-over's parts and writes'
  // additions make more) and no task is under way, when there is enough of it or a whole hand-over came, and the
  // engine's stack after a hand-over of any kind (idle-collection.ts)
  const collectAt = () => (!underWay && toPrepare.size === 0 && !makingImage && inTask === 0 ? (stackCollectionDue() ? Date.now() : collectionDueAt()) : Infinity);
  // one part of a hand-over per turn of the event loop, by a timer, not at once: a task that comes meanwhile runs
  // between two parts (on its own graph's view, whole: bridge.ts handOverInParts), a task waiting for this
  // replica makes the rest of its hand-over itself
  const schedule = () => {
    clearTimeout(timer);
    const imageDue = imageAsked && !makingImage ? lastTask + setup.imageAfterIdleMs : Infinity;
    const collectDue = collectAt();
    const next = underWay ? Date.now() : Math.min(...[...toPrepare.values()].map((entry) => entry.due), imageDue, collectDue);
    const due = Math.max(next, lastTask + BACKGROUND_AFTER_TASK_MS);
    if (due !== Infinity) timer = setTimeout(prepare, Math.max(0, due - Date.now())).unref();
  };
  const prepare = () => {
    if (!catalog) return; // (the rule modules loaded, the worker schedules what came meanwhile)
    const now = Date.now();
    if (now < lastTask + BACKGROUND_AFTER_TASK_MS) return schedule();
    if (!underWay) {
      const [next, entry] = [...toPrepare].find(([, { due }]) => due <= now) ?? [];
      if (next !== undefined) {
        toPrepare.delete(next);
        const replica = replicas.held(next);
        if (replica && replica.graph.factCount <= setup.preloadMaxFacts && (!entry?.dropsNone || viewFits(replica.graph))) {
          underWay = beginHandOver(next, replica, catalog);
          announce(); // (loading: the router sends a task on this graph here, to make only the rest)
        }
      }
    }
    if (underWay) prepareAPart(underWay);
    else if (toPrepare.size === 0 && imageAsked && !makingImage && now >= lastTask + setup.imageAfterIdleMs) void makeImage(imageAsked);
    else if (collectAt() <= Date.now()) {
      // (the engine's stack first: its garbage is what the next task's first run would pay for, where V8's costs only
      // memory; one collection a turn, so a task that comes meanwhile waits for one at most)
      if (stackCollectionDue()) {
        try {
          collectEngineStacks();
        } catch {
          // (an engine error in the collection must not end the worker and lose the views it holds: the stack is looked
          // at again after the next hand-over, and the engine collects it itself meanwhile)
        }
      } else {
        // (a preload's replica still building keeps its image: read again after the build, it would bring back the
        // collection inside the hand-over that reading it ahead avoids)
        if (imageReadAhead && !replicas.builds(imageReadAhead.key)) imageReadAhead = undefined;
        collectGarbage();
      }
    }
    schedule();
  };
  /**
   * Makes and writes the view image asked for, when the engine still holds that version's whole view; says what it wrote.
   * Making it is one synchronous call (some 22 s of a core at 1M facts) that piscina, seeing no task, counts as free time:
   * the worker first says it is making one, so that the router gives the tasks on the view to another engine holding it
   * (ViewRouter), and waits IMAGE_NOTICE_MS for that word to reach it; a task given meanwhile (or a hand-over due) defers the image
   * until the worker is idle again.
   */
  const makeImage = async (asked: NonNullable<typeof imageAsked>) => {
    imageAsked = undefined;
    makingImage = true;
    const before = lastTask;
    announce(undefined, false, true);
    await new Promise((resolve) => setTimeout(resolve, IMAGE_NOTICE_MS));
    if (inTask > 0 || lastTask !== before || underWay || toPrepare.size > 0) {
      imageAsked ??= asked;
      makingImage = false;
      announce();
      return schedule();
    }
    const replica = replicas.held(asked.key);
    const current = replica && replica.at.generation === asked.generation && replica.at.version === asked.version;
    if (current && holdsWholeView(replica.graph)) keepSets(replica.graph);
    const image = current ? viewImage(replica.graph) : undefined;
    announce(); // (the image made: the worker's loop turns again while it is written)
    let written = 0;
    try {
      if (image) {
        await writeViewImage(asked.file, { ...splitGraphKey(asked.key), generation: asked.generation, revision: asked.revision }, image);
        written = image.length;
      }
    } catch {
      // (a full disk, a folder removed: the next restart hands the view over from the records)
    } finally {
      makingImage = false;
    }
    replicas.imaged(asked, written);
    schedule();
  };
  /**
   * The shared sets of the whole view the engine holds of `graph`, kept before its image is made, so that the image carries
   * them: a view a task handed over itself (a graph's first assess) holds only those its runs computed, and an engine
   * loading an image without them computes them all (some 2.3 s of a core at 1M facts). Under the background's limits;
   * past them the image holds the view without the sets.
   */
  const keepSets = (graph: GraphIndex) => {
    try {
      catalog!.registry.warmSets({ graph }, backgroundSetsLimits);
    } catch {
      // (stopped at the limits: the image is made without the sets)
    }
  };
  /** The bytes of `image`, the view image on disk of the graph under `key` at `generation` (view-images.ts readViewImage). */
  const readImageOf = (key: string, generation: string, image: ImageOnDisk) => readViewImage(image.file, { ...splitGraphKey(key), generation, revision: image.revision });
  /**
   * The hand-over of `replica`'s view to the engine, in parts: from its view image on disk when its snapshot named one
   * and the engine holds no view of it yet (a second preload of the replica has nothing to hand over), else from the records.
   * Its shared sets run under `setsLimits`: the background's, or the limits of the task that waits for them. Without
   * `forTask`, the clause indexes of a view from the image are built now, ahead of any run; a task's own hand-over leaves
   * them to its runs, which build those they read (an engine of many may run one framework: bridge.ts handOverImage).
   */
  const beginHandOver = (key: string, replica: NonNullable<ReturnType<ReplicaSet['held']>>, rules: FrameworkCatalog, setsLimits: SolveLimits = backgroundSetsLimits, forTask = false): NonNullable<typeof underWay> => {
    const onDisk = replica.image && !holdsGraph(replica.graph) ? replica.image : undefined;
    const readAhead = imageReadAhead;
    // (taken or not needed: this graph's view is handed over now; another graph's read ahead is kept for its own)
    if (readAhead?.key === key) imageReadAhead = undefined;
    const ahead = readAhead?.key === key && readAhead.generation === replica.at.generation && readAhead.revision === onDisk?.revision ? readAhead.bytes : undefined;
    const image = onDisk && (ahead ?? readImageOf(key, replica.at.generation, onDisk));
    const parts = rules.registry.prepareInParts({ graph: replica.graph }, setsLimits, image, { imageIndexes: !forTask });
    return { at: replica.at, graph: replica.graph, parts, ...(onDisk ? { imagesBefore: wholeHandOvers.images } : {}) };
  };
  /**
   * Before a task that reads the whole view of a graph the engine holds no view of: the hand-over its replica's view image
   * allows (an untouched graph after a restart, whose background hand-over, a hold or a preload, has not begun), made now,
   * whole, so that the task's run does not hand the view over from the records instead (at 1M facts some 8 s of a core
   * against 4.5). One under way of that graph is left to the run, which makes its rest (bridge.ts loadView); without an
   * image the run hands the view over itself, as before. Its shared sets run under the task's limits, not the background's:
   * a client waits for them. Returns whether the image was refused (the view then handed over from the records, as the run
   * would have).
   */
  const handOverBeforeTask = (task: ReasonTask, graph: GraphIndex, rules: FrameworkCatalog): boolean => {
    if (task.kind !== 'frameworks' || task.asOf !== undefined || task.scope !== undefined || holdsGraph(graph) || underWay?.graph === graph) return false;
    const replica = replicas.held(task.at.key);
    if (replica?.graph !== graph || !replica.image) return false;
    toPrepare.delete(task.at.key);
    const now = beginHandOver(task.at.key, replica, rules, { inferenceLimit: task.limits.inferenceLimit, timeLimitMs: task.limits.timeLimitMs }, true);
    try {
      for (const _ of now.parts);
    } catch {
      // (the shared sets stopped at the task's limits, or the hand-over broke: the run hands the view over again where it
      // must and reports what broke; an image refused before that is reported all the same, or it is read again)
    }
    return wholeHandOvers.images === now.imagesBefore;
  };
  const prepareAPart = (preparing: NonNullable<typeof underWay>) => {
    // a replica dropped (its graph deleted, or evicted) or replaced (a new generation's snapshot) meanwhile: no task will
    // read this view, so the rest is not made, the facts so far are dropped (handOverInParts) and nothing is announced
    if (replicas.held(preparing.at.key)?.graph !== preparing.graph) {
      underWay = undefined;
      preparing.parts.return(false);
      announce();
      return;
    }
    try {
      if (!preparing.parts.next().done) return;
    } catch {
      // the shared sets stopped at their limits, the view held whole without them (each framework computes what it reads
      // within its own limits; the image is made all the same), or the hand-over broke (the next task on the graph hands
      // it over again and reports what broke)
    }
    underWay = undefined;
    const refused = preparing.imagesBefore !== undefined && wholeHandOvers.images === preparing.imagesBefore;
    announce(holdsGraph(preparing.graph) ? preparing.at : undefined, refused);
  };
  // the graphs whose views this worker last said its engine holds, and the one it said it was taking in parts
  let announced: { views: string[]; imaging: boolean; loading?: string } = { views: [], imaging: false };
  /**
   * Tells the main thread the views the engine holds now, the one it is taking in parts in the background, and whether
   * it is about to make a view image (`imaging`) (and, with `at`, that it holds that version; `imageRefused`: the graph's
   * view image on disk was refused, unread or corrupt, and the view handed over from the records), when they changed or
   * `at` is given.
   */
  const announce = (at?: GraphVersion, imageRefused = false, imaging = false) => {
    const views = replicas.keys().filter((key) => holdsGraph(replicas.held(key)!.graph));
    const loading = underWay && !holdsGraph(underWay.graph) ? underWay.at.key : undefined;
    if (!at && loading === announced.loading && imaging === announced.imaging && views.length === announced.views.length && views.every((key, i) => key === announced.views[i])) return;
    announced = { views, imaging, ...(loading !== undefined ? { loading } : {}) };
    const replica = at && replicas.held(at.key);
    const imageable = replica !== undefined && replica.at.version === at?.version && holdsWholeView(replica.graph);
    replicas.announceViews(views, { whole: wholeHandOvers.count, additions: addedHandOvers.count }, loading, at, { count: wholeHandOvers.images, imageable, refused: imageRefused }, imaging);
  };
  // the replicas before the rule modules: a snapshot another worker asked for while this one
  // starts is kept, and handed to the engine once the modules are loaded
  const replicas = new ReplicaSet(setup.channelName, setup.maxGraphs, onReplica, setup.maxReplicaFacts);
  replicas.onImageAsked = (asked) => {
    imageAsked = asked;
    schedule();
  };
  // the engine's memory for the view of a replica about to be built, grown before the replica fills this thread's heap
  // (bridge.ts reserveViewMemoryAhead), and its view image on disk read then too, where this worker will hand that view
  // over: one a framework task, a preload or a hold asked for (a query's is grown by its hand-over, when it calls a rule), or
  // one every worker takes ahead (onReplica) that fits beside the views held (a record is at least a fact); not for one
  // sent unasked after a restart, kept unless the warm-up holds it. WebAssembly memory is never
  // given back: grown for a view never handed over, V8 would count it for good. The image read after the replica was
  // built, its bytes (48.8 MB at 1M facts) started a full collection of the heap the replica fills inside most hand-overs
  // (99-303 ms, docs/operations.md)
  replicas.onSnapshotBegin = (graph, records, warm, asked, { key, generation, image }) => {
    if (warm || !(asked || (records <= setup.preloadMaxFacts && viewFitsBeside(records)))) return;
    reserveViewMemoryAhead(graph, records);
    // (at most one held: the view about to be built is the next handed over)
    if (image) imageReadAhead = { key, generation, revision: image.revision, bytes: readImageOf(key, generation, image) };
    else if (imageReadAhead?.key === key) imageReadAhead = undefined;
  };
  replicas.onSnapshotRead = reservedAheadFor;
  replicas.onBuildLeft = (key) => {
    if (imageReadAhead?.key === key) imageReadAhead = undefined;
  };
  function onReplica(at: GraphVersion, graph: GraphIndex, by: ReplicaEvent): void {
    // a graph above the bound is never handed over ahead (prepare checks again, as the graph can grow until the timer fires),
    // and a replica warmed after a restart (warm.ts) is kept, not handed over: the warm-up asks the workers to take its view
    // (a hold); the garbage its snapshot left is collected once idle
    if (by !== 'delta') replicaHandedOver(graph);
    // (a delta came during the build: the view is handed over from the records, not the image read ahead)
    if (by !== 'delta' && imageReadAhead?.key === at.key && !replicas.held(at.key)?.image) imageReadAhead = undefined;
    if (graph.factCount > setup.preloadMaxFacts || by === 'warm') return schedule();
    // nor does a replica another worker's task asked for, or the warm-up's hold, drop a view the engine holds
    if (by === 'snapshot' || by === 'hold') prepareIn(at.key, 0, true);
    else if (by === 'preload') prepareIn(at.key, 0, false);
    else if (holdsGraph(graph)) prepareIn(at.key, PREPARE_AFTER_WRITE_MS, true);
  }
  catalog = await loadRuleModules(setup.frameworkDirs);
  const loadedCatalog = catalog;
  // rules are consulted once, at start-up, and GET /v1/frameworks lists those: a worker started since
  // (after an idle stop, or a crash) that finds other files would answer with rules nobody listed
  const rulesChanged =
    catalogKey(setup.frameworkDirs) === setup.catalogSourceKey
      ? undefined
      : new ParleyError('runtime', 'rule_modules_changed', 'the rule modules changed on disk since the server started (they are consulted once, at start-up, and GET /v1/frameworks lists those): restart the server to load them');
  schedule();
  return async (task) => {
    if (task.kind === 'start') return null;
    if (rulesChanged && task.kind !== 'query') return { ok: false, error: serialise(rulesChanged) };
    let graph;
    inTask++;
    try {
      graph = await replicas.graph(task.at, task.kind !== 'query');
    } catch (error) {
      return { ok: false, error: serialise(error) }; // a graph deleted since the task was given out: 404, typed
    } finally {
      inTask--;
    }
    const imageRefused = handOverBeforeTask(task, graph, loadedCatalog);
    const reply = runTask(task, graph, loadedCatalog, shaper);
    lastTask = Date.now();
    // a task on another graph that took or dropped the slot being filled in parts ended that hand-over: the worker
    // stops saying it is taking that view now, not at the next part, which waits while tasks keep coming
    if (underWay && !takingInParts(underWay.graph) && !holdsGraph(underWay.graph)) {
      underWay.parts.return(false);
      underWay = undefined;
    }
    schedule(); // (what is to be prepared, or the task's garbage collected, once idle)
    // what the engine holds now, so that a preload of a view it no longer holds is not taken as done
    // (a framework run brings the engine to the task's version; a query only when it calls a rule)
    announce(task.kind !== 'query' && holdsGraph(graph) ? task.at : undefined, imageRefused);
    return reply;
  };
}
