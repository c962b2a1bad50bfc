/**
 * Graph replicas in worker threads. Queries and framework runs execute in workers
 * so that the HTTP event loop stays responsive; each worker keeps its own copy of
 * the graphs it has been asked about and follows the store through one
 * BroadcastChannel:
 *
 *   main → workers  delta      {key, generation, version, nodes, edges}   every committed write; a large one
 *                  delta-part …                                          first goes out in parts, the delta last
 *   main → workers  drop       {key}                                     a deleted graph
 *   worker → main   need       {key, generation, to, worker, records?}    a replica is missing or has a gap; to: the
 *                                                                        channel only this worker's replica set listens on;
 *                                                                        records: it could not read the store's snapshot
 *                                                                        file of the graph (stored, below): send chunks
 *   main → workers  gone       {key, generation}                          the answer to a need of a generation deleted
 *                                                                        since: the task waiting for it fails (404)
 *   worker → main   replicas   {worker, held, building}                 the replicas a worker holds (each with the ms its
 *                                                                        snapshot took) and those it asked for or is
 *                                                                        building changed: what the pool routes the tasks of a
 *                                                                        graph above the preload bound by (workers.ts)
 *   worker → main   started    {}                                        a new worker: it is sent the replica of the
 *                                                                        graph last asked about (as a snapshot)
 *   main → workers  snapshot   begin {id, version, total, warm} · chunk {id, nodes, edges}… · end {id}
 *                                                                        (id: this try's, one of its own per try: a
 *                                                                        worker builds one try at a time, and takes no
 *                                                                        other's chunks or end into it)
 *                                                                        (a chunk's records are read when it goes;
 *                                                                        a renumbering meanwhile starts it again)
 *                                                                        (warm: sent after a restart, unasked, engine/reason/
 *                                                                        warm.ts; the replica is kept, its view not handed over)
 *                                                                        (image: the graph's view image on disk, view-
 *                                                                        images.ts, of the snapshot's version: its file and
 *                                                                        revision; a worker hands the view over from it)
 *                                                                        (stored: the store's snapshot file of the graph at
 *                                                                        the revision of the snapshot's version, no correction
 *                                                                        in force: no chunk follows, the end comes at once;
 *                                                                        the worker reads the file itself, and asks again
 *                                                                        with `records` when it cannot)
 *                                                                        (a graph above the preload bound goes on the asking
 *                                                                        worker's own channel, `to`, not on this one: only that
 *                                                                        worker reads its chunks, SNAPSHOT_WINDOW of them at most
 *                                                                        unacknowledged, each acknowledged there:
 *                                                                        snapshot-ack {key, id, chunks}; either side ends
 *                                                                        the try there with snapshot-stop {key, id}: the
 *                                                                        sender heard no ack for REPLICA_WAIT_MS, or the
 *                                                                        worker will not build it (its replica is as
 *                                                                        fresh, or its build stalled and it asks again))
 *   worker → main   read-ask   {to, read, worker, bytes}                 it is to read a store snapshot file (stored, above)
 *   main → workers  read-slot  {to, read}                                of `bytes`: it reads once the main thread grants it,
 *   worker → main   read-done  {to, read}                                and says when it is done (to and read name the ask:
 *                                                                        its replica set's own channel, its count there); the
 *                                                                        main thread grants the asks in order while the files
 *                                                                        read at once fit snapshotReadBytes together (one larger
 *                                                                        is read alone), and frees a stopped worker's turn
 *                                                                        (forgetPrepared) and never grants its late ask; a
 *                                                                        set that closes says done each ask it made, granted
 *                                                                        or not
 *   worker → main   read-stalled {to, read, key}                         its read granted has made no progress for the
 *                                                                        replica wait (a stalled disk or mount): the main
 *                                                                        thread logs it, and grants the reads after it as
 *                                                                        though it were done, its bytes counted until its
 *                                                                        read-done (once the stalled reads' bytes reach
 *                                                                        snapshotReadBytes, none goes alone until one
 *                                                                        returns)
 *   main → workers  preload    {key, generation, version, hold?}         a client is at work on the graph: each worker
 *                                                                        hands its replica to its engine now (one without
 *                                                                        the replica asks for a snapshot); hold: the
 *                                                                        warm-up's (warm.ts), which drops no view held
 *   worker → main   prepared   {key, generation, version, worker,       worker (its thread id) has handed a replica to
 *                               views, handOvers}                        its Prolog engine (worker-entry.ts); views: the
 *                                                                        graphs whose whole views the engine holds now
 *                                                                        (several, within its bound on facts: a view
 *                                                                        dropped is one it no longer holds); handOvers
 *                                                                        counts the views it took whole
 *                                                                        (images: of them from a view image; imageable:
 *                                                                        it holds the version's whole view, as one whole
 *                                                                        hand-over made it; imageRefused: the image the
 *                                                                        snapshot named was refused, the view made from
 *                                                                        the records)
 *   worker → main   views      {worker, views, handOvers, imaging?}     the views held changed otherwise (a task left
 *                                                                        a cut of one, or took another's); imaging: it
 *                                                                        is about to make a view image, one synchronous
 *                                                                        call (until its next word)
 *   main → workers  image      {key, generation, version, revision,      `worker` is to make the view image of that version
 *                               worker, file}                            (the first to say imageable), once idle
 *   worker → main   imaged     {key, generation, version, revision,      it wrote it (bytes; 0: it could not, its engine no
 *                               bytes}                                   longer holding that whole view)
 *   main → workers  abandon    {worker, key, task}                        the call of the task `worker` runs on a graph above
 *                                                                        the bound has passed its deadline while the worker
 *                                                                        builds that replica: the task (its serial, GraphVersion
 *                                                                        task) ends, the build goes on
 *   main → workers  memory     {collect}                                 a diagnostic (bench/server-memory): each worker
 *   worker → main   memory-of  {worker, heapUsed, heapCommitted,         says what its isolate holds, after a full
 *                               arrayBuffers}                            collection when `collect` and gc is exposed
 *
 * Versions count the commits to a graph since this process loaded it, so a task
 * that names (generation, version) runs on a replica at least that fresh: a client
 * reads its own writes. Snapshots go out in chunks with the event loop turning
 * between them; deltas that arrive while a snapshot is being built are applied
 * after it, in order.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { BroadcastChannel, resourceLimits, threadId } from 'node:worker_threads';
import { NotFoundError } from '../errors.ts';
import type { EdgeRecord, NodeRecord } from '../ontology/index.ts';
import { graphKey, splitGraphKey } from '../store/graph-cache.ts';
import { GraphIndex } from '../store/graph-index.ts';
import { isSnapshotFileOf, readSnapshot } from '../store/snapshot.ts';
import { putLogged } from '../store/graph-changes.ts';
import type { GraphChange, ParleyStore } from '../store/store.ts';
import { yieldToLoop } from '../turns.ts';
import type { ViewImages } from './view-images.ts';

/** Records per snapshot message: small enough that building one never holds the main loop for long. */
export const SNAPSHOT_CHUNK = 5_000;
/** Records per message of a warm snapshot (sent unasked, in the background: no task waits for it, requests may). */
export const WARM_CHUNK = 1_000;
/**
 * How long a worker waits for a replica before the task fails, counted from the last chunk of its snapshot to arrive (a build
 * making progress is waited for); and how long a read of a store snapshot file granted may make no progress before the
 * reads waiting for its turn go (FileReads).
 */
export const REPLICA_WAIT_MS = 60_000;
/**
 * Chunks of a snapshot sent to one worker's own channel (a graph above the preload bound) that may be on their way
 * unacknowledged: the main thread makes the next only when the worker has built enough of the earlier ones, so at
 * most this many chunks (16 x 5,000 records) wait in its queue, however loaded it is, and a task it is given is read
 * after them, not after hundreds. A window of 4 left the worker waiting for the next chunk under load (bench/first-heavy-query
 * at 1M facts, load 12: the snapshot took 14.8-19.9 s against 11.0-12.9 s unpaced); 16 was within the noise of unpaced.
 */
export const SNAPSHOT_WINDOW = 16;
/**
 * Bytes of store snapshot files the workers read at once (ReplicaSource's snapshotReadBytes; PARLEY_SNAPSHOT_READ_BYTES): a
 * worker reading one holds the whole file and every record decoded from it until its replica is built, where chunks held a
 * window of records. At 10M facts (a 285 MB file) one worker reading it peaked at 1.37 GB of heap and 0.31 GB of buffers
 * against the chunks' 0.74 and 0.19, and two reading at once each held that at once: the process's peak 4.9 GB against the
 * chunks' 4.5, and 4.5 with the second read after the first (bench/first-heavy-query --askers 2, docs/operations.md).
 * 512 MiB lets 23 files of 1M facts (22.9 MB each) be read at once, as every worker reads the graph a restart warms, and
 * files of 10M facts one at a time.
 */
export const DEFAULT_SNAPSHOT_READ_BYTES = 512 * 2 ** 20;
/** Deleted generations a worker remembers (a task naming one fails at once); the oldest are forgotten. */
const GONE_KEPT = 256;
/**
 * Deltas a worker keeps of a graph whose snapshot it asked for and that has not begun (ReplicaSet early); the oldest are
 * dropped. Those newer than the snapshot are applied after it; one dropped leaves a gap, and the replica is then behind
 * the version a task names, which asks again: a bound on memory, not on correctness. A 10M-fact graph's snapshot begins
 * within about a minute of its need (its load from the store's snapshot), far fewer writes than this at any rate seen.
 */
export const EARLY_KEPT = 256;

export interface GraphVersion {
  key: string;
  generation: string;
  version: number;
}

/** The version a task reads, with the serial the pool gave a task on a graph above the preload bound (what an abandon names). */
export interface TaskVersion extends GraphVersion {
  task?: number;
}

/**
 * A record as a delta carries it: whole, or, when its provenance list is the long one the replica holds (of
 * `provenanceFrom` entries) with entries appended, with those entries alone as its `provenance`. A batch that names one
 * actor in every document sent that actor's whole list at each commit: bytes cloned on the main thread, and decoded by
 * each worker, that grow with the square of the batch (docs/batch.md). A worker whose record has another length drops
 * its replica (the next task takes a snapshot), never making a wrong list.
 */
export type DeltaRecord<R extends NodeRecord | EdgeRecord> = R & { provenanceFrom?: number };

export type ReplicaMessage =
  | { type: 'delta'; key: string; generation: string; version: number; nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] }
  | { type: 'delta-part'; key: string; generation: string; version: number; nodes: DeltaRecord<NodeRecord>[]; edges: DeltaRecord<EdgeRecord>[] }
  | { type: 'drop'; key: string }
  | { type: 'need'; key: string; generation: string; to?: string; worker?: number; records?: true }
  | { type: 'started' }
  | ({ type: 'replicas' } & WorkerReplicas)
  | { type: 'snapshot-begin'; key: string; generation: string; id: number; version: number; total: number; warm?: boolean; image?: ImageOnDisk; stored?: StoredSnapshot }
  | { type: 'snapshot-chunk'; key: string; generation: string; id: number; nodes: NodeRecord[]; edges: EdgeRecord[] }
  | { type: 'snapshot-end'; key: string; generation: string; id: number }
  | { type: 'snapshot-ack'; key: string; id: number; chunks: number }
  | { type: 'snapshot-stop'; key: string; id: number }
  | { type: 'abandon'; worker: number; key: string; task: number }
  | { type: 'read-ask'; to: string; read: number; worker: number; bytes: number }
  | { type: 'read-slot'; to: string; read: number }
  | { type: 'read-done'; to: string; read: number }
  | { type: 'read-stalled'; to: string; read: number; key: string }
  | { type: 'preload'; key: string; generation: string; version: number; hold?: boolean }
  | { type: 'gone'; key: string; generation: string }
  | ({ type: 'prepared'; key: string; generation: string; version: number; worker: number; views: string[]; handOvers: number; loading?: string; imageable?: true; imageRefused?: true } & ImageCount)
  | ({ type: 'views'; worker: number; views: string[]; handOvers: number; loading?: string; imaging?: true } & ImageCount)
  | { type: 'image'; key: string; generation: string; version: number; revision: number; worker: number; file: string }
  | { type: 'imaged'; key: string; generation: string; version: number; revision: number; bytes: number }
  | { type: 'memory'; request: number; collect: boolean }
  | ({ type: 'memory-of'; request: number } & WorkerMemory);

/** A graph's view image on disk (view-images.ts): its file, and the store revision of the graph it is of. */
export interface ImageOnDisk {
  file: string;
  revision: number;
}

/** The store's snapshot file of a graph (engine/store/snapshot.ts), and the revision a snapshot's version is of: a worker reads it itself, in place of chunks. */
export type StoredSnapshot = ImageOnDisk;

/**
 * What a worker's engine holds, and how it came to (the count of a cold call's hand-overs by source): the graphs whose whole
 * views it holds, the views it has taken whole since it started (`handOvers`), `images` of them from a view image (the rest
 * from the records), the hand-overs of only the records writes added to a view held (`additions`), and whether it is making
 * a view image.
 */
export interface HeldViews {
  graphs: { tenant: string; graphId: string }[];
  handOvers: number;
  images: number;
  additions: number;
  imaging: boolean;
}

/** Of a worker's whole hand-overs, those from a view image (said when any). */
interface ImageCount {
  images?: number;
  /** Hand-overs of only the records writes added to a view held (bridge.ts addedHandOvers). */
  additions?: number;
}

/**
 * The replicas a worker (thread id) holds, each with the milliseconds its snapshot took to arrive and be built (what a
 * copy of its own would cost another worker), and the graphs it has asked a snapshot of or is building one of.
 */
export interface WorkerReplicas {
  worker: number;
  held: { key: string; builtMs: number }[];
  building: string[];
}

/** A replica a worker holds (ReplicaSource.heldReplicas): its graph, and the ms its snapshot took from beginning to end. */
export interface HeldReplica {
  tenant: string;
  graphId: string;
  builtMs: number;
}

/** What a worker's isolate holds, in bytes (the 'memory' diagnostic): its V8 heap used and committed, and its ArrayBuffers (typed arrays). */
export interface WorkerMemory {
  worker: number;
  heapUsed: number;
  heapCommitted: number;
  /** Of heapCommitted, the young generation's (its semi-spaces, kept committed once grown). */
  youngCommitted: number;
  /** The most the young generation may take, in MB (the worker's resourceLimits; 0 on the main thread, which has none). */
  youngLimitMb: number;
  arrayBuffers: number;
}

/** What this thread's isolate holds (WorkerMemory, less the thread id). */
export function isolateMemory(): Omit<WorkerMemory, 'worker'> {
  const { used_heap_size: heapUsed, total_heap_size: heapCommitted } = getHeapStatistics();
  const youngCommitted = getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
    .reduce((sum, space) => sum + space.space_size, 0);
  return { heapUsed, heapCommitted, youngCommitted, youngLimitMb: resourceLimits.maxYoungGenerationSizeMb ?? 0, arrayBuffers: process.memoryUsage().arrayBuffers };
}


const NO_VIEWS: ReadonlySet<string> = new Set();

/** The main thread's side: versions of the loaded graphs, deltas out, snapshots on request. */
export class ReplicaSource {
  private readonly channel: BroadcastChannel;
  private readonly versions = new Map<string, { generation: string; version: number }>();
  /** Graphs whose snapshot is going out (a paced one: with the asking worker's channel). */
  private readonly snapshotting = new Set<string>();
  /** Snapshot tries made: the last one's id (each begin, chunk, end, ack and stop names its try). */
  private snapshotTries = 0;
  /** The paced snapshots going out: ended at once when their worker stops or this source closes, not after REPLICA_WAIT_MS. */
  private readonly pacedSends = new Set<PacedChannel>();
  private closed = false;
  private readonly unsubscribe: () => void;
  /** Per graph, the workers that last said their engine holds its view, at which version (a newer version starts the set again). */
  private readonly preparedBy = new Map<string, { generation: string; version: number; workers: Set<number> }>();
  private readonly preparedWaiters = new Set<() => void>();
  /** The graph a task was last about: a worker that starts is sent its replica, so that it is ready (and its view preloaded) when the next task comes. */
  private lastAsked: string | undefined;
  /**
   * Per worker (thread id), the graphs whose whole views its engine holds (at whatever version: a write is handed
   * over as an addition), the graph whose view it is taking in parts in the background, whether it is making a view
   * image, and how many views it has taken whole: what the pool routes a graph's tasks by.
   */
  private readonly views = new Map<number, Omit<HeldViews, 'graphs'> & { keys: ReadonlySet<string>; loading?: string }>();
  /**
   * Called with a worker's thread id when it says the views its engine holds, the one it is taking in parts, or whether it is making an image, changed
   * (the pool routes tasks by them); `held`: the views it holds changed, not only the one it is taking.
   */
  onViewChanged: (worker: number, held: boolean) => void = () => {};
  /** Workers that said they started, and the callers waiting for a number of them (workersStarted). */
  private started = 0;
  private readonly startedWaiters = new Set<() => void>();
  // called when a worker says which replicas it holds (held)
  private readonly heldWaiters = new Set<() => void>();
  /** Per 'memory' diagnostic asked (workerMemory), by its number, what takes the workers' answers while it waits for them. */
  private readonly memoryHeard = new Map<number, (memory: WorkerMemory) => void>();
  private memoryRequests = 0;
  /** Facts above which a graph's replica is made only by the workers that ask for it (the constructor's preloadMaxFacts). */
  private readonly askedOnlyAbove: number;
  /**
   * Per worker (thread id), the replicas it said it holds (each with the ms it took to build and when this thread first
   * heard of it) and builds: where a graph above the bound has a copy (onlyAsked).
   */
  private readonly replicasBy = new Map<number, { held: Map<string, { builtMs: number; since: number }>; building: ReadonlySet<string> }>();
  /** The workers' reads of store snapshot files: granted while their bytes fit snapshotReadBytes together. */
  private readonly fileReads: FileReads;

  constructor(
    private readonly store: ParleyStore,
    readonly channelName: string,
    /** The graphs' view images on disk (none: the workers neither make nor read any). */
    private readonly images?: ViewImages,
    /**
     * Largest graph (facts) every worker makes a replica of when one asks for its snapshot (ReasoningOptions.preloadMaxFacts).
     * No engine takes a larger graph's view ahead of a task, so another worker's copy would only wait for a query that may
     * never come to it: at 10M facts some 90 bytes a fact of each worker's heap. Such a graph is made into a replica only by
     * the workers that asked (a later task on another worker waits for a snapshot of its own), and is not sent to a worker
     * that starts. 0, preloads off, bounds nothing: every graph's replica is made by every worker, as before the bound, rather
     * than each worker pulling a whole snapshot of its own at its first task.
     */
    preloadMaxFacts = Infinity,
    /** How long a paced snapshot waits for its worker's next acknowledgement before it gives up (the tests shorten it). */
    private readonly ackWaitMs = REPLICA_WAIT_MS,
    /** Bytes of store snapshot files the workers read at once (DEFAULT_SNAPSHOT_READ_BYTES); a larger file is read alone. */
    snapshotReadBytes = DEFAULT_SNAPSHOT_READ_BYTES,
    /**
     * Whether the worker (thread id) still runs (the pool's threads; with no pool every reader is taken as running). A
     * read-ask still on the channel when its worker was ended is heard after forgetPrepared: granted, its turn would
     * never be freed, since no read-done comes from a thread that no longer runs.
     */
    running: (worker: number) => boolean = () => true,
  ) {
    this.askedOnlyAbove = preloadMaxFacts === 0 ? Infinity : preloadMaxFacts;
    this.channel = new BroadcastChannel(channelName);
    this.channel.unref();
    this.fileReads = new FileReads(snapshotReadBytes, running, ({ to, read }) => {
      if (!this.closed) this.channel.postMessage({ type: 'read-slot', to, read } satisfies ReplicaMessage);
    });
    this.channel.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if (message.type === 'need') void this.answerNeed(message.key, message.generation, message.to === undefined ? undefined : { to: message.to, worker: message.worker }, message.records === true);
      else if (message.type === 'started') this.workerStarted();
      else if (message.type === 'replicas') this.noteReplicas(message);
      else if (message.type === 'prepared') this.notePrepared(message);
      else if (message.type === 'views') this.noteViews(message);
      else if (message.type === 'memory-of') this.memoryHeard.get(message.request)?.(message);
      else if (message.type === 'read-ask') this.fileReads.ask(message);
      else if (message.type === 'read-done') this.fileReads.done(message);
      else if (message.type === 'read-stalled') this.fileReads.stall(message);
      else if (message.type === 'imaged') void this.images?.made(message.key, message.generation, message.revision, message.bytes, this.revisionAt(message) === message.revision);
    };
    this.unsubscribe = store.onChange((change) => this.onChange(change));
  }

  /**
   * Asks the running workers to hand the graph's view to their Prolog engines now, ahead of the
   * assess a client at work on it may ask for (those without its replica ask for a snapshot, and
   * a worker that starts is sent it, as the graph last asked about); a worker whose engine holds
   * the view already has nothing to do. Nothing is asked when the graph is larger than `maxFacts`:
   * it does not become the graph last asked about (a worker that starts is not sent it), nor one the
   * workers follow. Returns whether the graph is one to preload; rejects (NotFoundError) when it is absent.
   */
  async preload(tenant: string, graphId: string, maxFacts: number): Promise<boolean> {
    const graph = await this.store.loadGraph(tenant, graphId);
    if (this.closed || graph.factCount > maxFacts) return false;
    const at = await this.askPreload(tenant, graphId);
    if (!at) return false;
    this.lastAsked = at.key;
    return true;
  }

  /**
   * Asks every worker, in one message, to hand the graph's view to its engine now where that drops no view it
   * holds (the warm-up's, warm.ts). Rejects (NotFoundError) when the graph is absent.
   */
  async hold(tenant: string, graphId: string): Promise<void> {
    await this.askPreload(tenant, graphId, true);
  }

  /** Asks the workers to hand the graph's view, at its version now, to their engines (`hold`: the warm-up's); the version asked for, unless closed meanwhile. */
  private async askPreload(tenant: string, graphId: string, hold = false): Promise<GraphVersion | undefined> {
    const at = await this.versionOf(tenant, graphId);
    if (this.closed) return undefined;
    this.channel.postMessage({ type: 'preload', ...at, ...(hold ? { hold } : {}) } satisfies ReplicaMessage);
    return at;
  }

  /** The graphs whose whole views the engine of `worker` holds (their keys), as the worker last said. */
  viewsOf(worker: number): ReadonlySet<string> {
    return this.views.get(worker)?.keys ?? NO_VIEWS;
  }

  /** The graph (its key) whose view the engine of `worker` is taking in parts in the background, as the worker last said. */
  loadingOf(worker: number): string | undefined {
    return this.views.get(worker)?.loading;
  }

  /** Whether `worker` said it is making a view image (a synchronous call: a task given to it waits for the image). */
  imagingOf(worker: number): boolean {
    return this.views.get(worker)?.imaging ?? false;
  }

  /** Per worker (thread id): HeldViews. */
  heldViews(): Map<number, HeldViews> {
    return new Map([...this.views].map(([worker, { keys, loading: _, ...counts }]) => [worker, { graphs: [...keys].sort().map(splitGraphKey), ...counts }]));
  }

  /** Forgets which workers hold which view and replica: a worker has stopped, and piscina does not say which; `live`, the thread ids still running, keep theirs. */
  forgetPrepared(live: Set<number>): void {
    this.preparedBy.clear();
    for (const worker of this.views.keys()) if (!live.has(worker)) this.views.delete(worker);
    for (const worker of this.replicasBy.keys()) if (!live.has(worker)) this.replicasBy.delete(worker);
    for (const paced of this.pacedSends) if (paced.worker !== undefined && !live.has(paced.worker)) paced.end();
    // (a worker ended inside its read, at a call's deadline, never says it is done)
    this.fileReads.keepOnly(live);
  }

  /** The ms the replica of `key` held by `worker` took to build, as the worker said; undefined when it holds none. */
  replicaBuiltMs(worker: number, key: string): number | undefined {
    return this.replicasBy.get(worker)?.held.get(key)?.builtMs;
  }

  /** When (Date.now()) this thread first heard that `worker` holds the replica of `key`; undefined when it holds none. */
  replicaHeldSince(worker: number, key: string): number | undefined {
    return this.replicasBy.get(worker)?.held.get(key)?.since;
  }

  /**
   * Resolves once `workers` workers have said they hold the replica of `key` (true), or false after `timeoutMs` or once
   * this source is closed: how the warm-up sends the next graph only once the workers hold the one before (warm.ts).
   */
  async held(key: string, workers: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.holders(key) < workers) {
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) return false;
      await waitForMessage(this.heldWaiters, Math.min(left, 1_000));
    }
    return true;
  }

  /** How many workers said they hold the replica of `key`. */
  private holders(key: string): number {
    let count = 0;
    for (const { held } of this.replicasBy.values()) if (held.has(key)) count++;
    return count;
  }

  /** Per worker (thread id), the graphs whose replicas it said it holds, each with the ms its snapshot took: where the copies of a graph above the preload bound are. */
  heldReplicas(): Map<number, HeldReplica[]> {
    return new Map([...this.replicasBy].map(([worker, { held }]) => [worker, [...held].sort(([a], [b]) => a.localeCompare(b)).map(([key, { builtMs }]) => ({ ...splitGraphKey(key), builtMs }))]));
  }

  /**
   * Tells `worker` to end its task `task` (the pool's serial) on `key`, a graph above the bound whose replica it is building:
   * the task's call has passed its deadline, and ending the thread would lose the copy partway (ReasoningWorkers.run).
   */
  abandon(worker: number, key: string, task: number): void {
    if (!this.closed) this.channel.postMessage({ type: 'abandon', worker, key, task } satisfies ReplicaMessage);
  }

  /** Whether `worker` said it has asked for, or is building, the replica of `key`. */
  buildsReplica(worker: number, key: string): boolean {
    return this.replicasBy.get(worker)?.building.has(key) ?? false;
  }

  /** The facts of the graph under `key` when the graph cache holds it. */
  private loadedFacts(key: string): number | undefined {
    const { tenant, graphId } = splitGraphKey(key);
    return this.store.loadedGraph(tenant, graphId)?.index.factCount;
  }

  private noteReplicas({ worker, held, building }: WorkerReplicas): void {
    const before = this.replicasBy.get(worker)?.held;
    this.replicasBy.set(worker, { held: new Map(held.map(({ key, builtMs }) => [key, { builtMs, since: before?.get(key)?.since ?? Date.now() }])), building: new Set(building) });
    // a task waiting for that worker's copy may go now, or go elsewhere
    this.onViewChanged(worker, false);
    for (const waiter of [...this.heldWaiters]) waiter();
  }

  /** Loads the graph (404 when absent) and names the version a task on it must see; it becomes the graph last asked about. */
  async current(tenant: string, graphId: string): Promise<{ graph: GraphIndex; at: GraphVersion }> {
    const loaded = await this.loaded(tenant, graphId);
    this.lastAsked = loaded.at.key;
    return loaded;
  }

  /**
   * current() without waiting, for a graph in memory with no write being applied to it (a graph
   * in use: the store's loadedGraph); undefined otherwise, when current() is to be awaited.
   */
  currentNow(tenant: string, graphId: string): { graph: GraphIndex; at: GraphVersion } | undefined {
    const loaded = this.store.loadedGraph(tenant, graphId);
    if (!loaded) return undefined;
    const at = this.versionAt(graphKey(tenant, graphId), loaded.generation);
    this.lastAsked = at.key;
    return { graph: loaded.index, at };
  }

  /** Loads the graph (404 when absent) and names its current version. */
  private async loaded(tenant: string, graphId: string): Promise<{ graph: GraphIndex; at: GraphVersion }> {
    const graph = await this.store.loadGraph(tenant, graphId);
    return { graph, at: await this.versionOf(tenant, graphId) };
  }

  /** The version a task on a loaded graph must see (the graph's versions are followed from now on). */
  private async versionOf(tenant: string, graphId: string): Promise<GraphVersion> {
    // (evicted from the store's cache meanwhile by another graph's load: the generation is in its metadata)
    const generation = this.store.loadedGeneration(tenant, graphId) ?? (await this.store.getGraphMeta(tenant, graphId)).generation;
    return this.versionAt(graphKey(tenant, graphId), generation);
  }

  /**
   * The store revision of the graph at `at`, when it is loaded and `at` is its version now (versions and revisions
   * move together, the store telling this source of a write as soon as it holds it): what an image of it, and its
   * stored framework runs (stored-runs.ts), are tied to.
   */
  revisionAt(at: GraphVersion): number | undefined {
    const entry = this.versions.get(at.key);
    if (!entry || entry.generation !== at.generation || entry.version !== at.version) return undefined;
    const { tenant, graphId } = splitGraphKey(at.key);
    return this.store.loadedGeneration(tenant, graphId) === at.generation ? this.store.loadedRevision(tenant, graphId) : undefined;
  }

  /** The view image on disk of the graph at `at` (its version now), when there is one. */
  private imageAt(at: GraphVersion): ImageOnDisk | undefined {
    const revision = this.images && this.revisionAt(at);
    return revision !== undefined && this.images!.has(at.key, at.generation, revision) ? { file: this.images!.fileOf(at.key), revision } : undefined;
  }

  /** The version of the graph under `key` at `generation` (a new generation starts again at 0). */
  private versionAt(key: string, generation: string): GraphVersion {
    let entry = this.versions.get(key);
    if (!entry || entry.generation !== generation) this.versions.set(key, (entry = { generation, version: 0 }));
    return { key, generation, version: entry.version };
  }

  /**
   * Sends a committed change to the workers. A large delta goes in parts of
   * SNAPSHOT_CHUNK records with the event loop turning between them (copying 87k
   * records into one message held it for half a second); the store waits for the
   * last part before readers see the write, so a task names a version the workers get.
   */
  private async onChange(change: GraphChange): Promise<void> {
    if (this.closed) return;
    const key = graphKey(change.tenant, change.graphId);
    // (the image on disk is of the graph before: written, corrected or deleted, it is never read again)
    void this.images?.remove(key);
    if (change.kind === 'delete') {
      this.versions.delete(key);
      this.preparedBy.delete(key);
      for (const [worker, view] of this.views) if (view.keys.has(key)) this.views.set(worker, { ...view, keys: new Set([...view.keys].filter((held) => held !== key)) });
      if (this.lastAsked === key) this.lastAsked = undefined;
      this.channel.postMessage({ type: 'drop', key } satisfies ReplicaMessage);
      return;
    }
    if (change.kind === 'replace') {
      // a correction: records may have left the graph, which a delta cannot say; the workers drop their
      // replicas, and the next task, naming the next version, has them take a snapshot of the graph as corrected
      const entry = this.versions.get(key);
      if (entry && entry.generation === change.generation) entry.version++;
      this.preparedBy.delete(key);
      this.channel.postMessage({ type: 'drop', key } satisfies ReplicaMessage);
      return;
    }
    let entry = this.versions.get(key);
    if (!entry || entry.generation !== change.generation) {
      // a graph no task has asked about yet: workers have no replica to keep in step
      this.versions.set(key, { generation: change.generation, version: 0 });
      return;
    }
    const version = ++entry.version;
    const { generation } = change;
    // whole while a snapshot of the graph goes out: its chunks are read as they go, so a chunk read after this write
    // holds a longer list than `provenanceFrom` names; the whole record sets it back to this version, and later deltas
    // move it on
    const grown = change.provenanceFrom && change.provenanceFrom.size > 0 && !this.snapshotGoingOut(key) ? change.provenanceFrom : undefined;
    const nodes = grown ? change.nodes.map((record) => sentForm(record, grown)) : change.nodes;
    const edges = grown ? change.edges.map((record) => sentForm(record, grown)) : change.edges;
    // parts of SNAPSHOT_CHUNK records, nodes first, walked by offset (the rest is never copied)
    let node = 0;
    let edge = 0;
    while (nodes.length - node + edges.length - edge > SNAPSHOT_CHUNK) {
      const nodeEnd = Math.min(nodes.length, node + SNAPSHOT_CHUNK);
      const edgeEnd = edge + SNAPSHOT_CHUNK - (nodeEnd - node);
      this.channel.postMessage({ type: 'delta-part', key, generation, version, nodes: nodes.slice(node, nodeEnd), edges: edges.slice(edge, edgeEnd) } satisfies ReplicaMessage);
      node = nodeEnd;
      edge = edgeEnd;
      await yieldToLoop();
      if (this.closed) return;
    }
    if (this.closed) return; // (the store still waits for this listener: the write is committed, the workers are gone)
    this.channel.postMessage({ type: 'delta', key, generation, version, nodes: nodes.slice(node), edges: edges.slice(edge) } satisfies ReplicaMessage);
  }

  /** Whether a snapshot of the graph under `key` is going out, to every worker or to one (sendSnapshot). */
  private snapshotGoingOut(key: string): boolean {
    if (this.snapshotting.has(key)) return true;
    for (const sending of this.snapshotting) if (sending.startsWith(`${key}\u0000`)) return true;
    return false;
  }

  /** The worker's engine holds the whole views of `keys` now, and has taken `handOvers` views whole since it started. */
  private noteViews(message: Extract<ReplicaMessage, { type: 'views' | 'prepared' }>): void {
    const { worker, views: keys, handOvers, images = 0, additions = 0, loading } = message;
    const imaging = message.type === 'views' && message.imaging === true;
    const held = new Set(keys);
    for (const [key, entry] of this.preparedBy) {
      if (held.has(key)) continue;
      entry.workers.delete(worker);
      if (entry.workers.size === 0) this.preparedBy.delete(key);
    }
    const before = this.views.get(worker);
    const heldBefore = before?.keys ?? NO_VIEWS;
    this.views.set(worker, { keys: held, handOvers, images, additions, imaging, ...(loading !== undefined ? { loading } : {}) });
    const heldChanged = held.size !== heldBefore.size || keys.some((key) => !heldBefore.has(key));
    if (heldChanged || loading !== before?.loading || imaging !== (before?.imaging ?? false)) this.onViewChanged(worker, heldChanged);
  }

  private notePrepared(message: Extract<ReplicaMessage, { type: 'prepared' }>): void {
    const { key, generation, version, worker } = message;
    this.noteViews(message);
    const entry = this.preparedBy.get(key);
    if (entry && entry.generation === generation && entry.version === version) entry.workers.add(worker);
    else if (!entry || entry.generation !== generation || entry.version < version) this.preparedBy.set(key, { generation, version, workers: new Set([worker]) });
    for (const waiter of [...this.preparedWaiters]) waiter();
    // (a refused image is never read again: the worker holding the view from the records makes the next)
    if (message.imageRefused) void this.images?.remove(key);
    if (message.imageable) this.askImage(message);
  }

  /** Asks `worker`, whose engine holds the whole view of the graph at `at`, to make its image when none is on disk or being made. */
  private askImage({ worker, ...at }: GraphVersion & { worker: number }): void {
    const revision = this.images && this.revisionAt(at);
    if (revision === undefined) return;
    const { tenant, graphId } = splitGraphKey(at.key);
    const facts = this.store.loadedGraph(tenant, graphId)?.index.factCount;
    if (facts === undefined || !this.images!.toMake(at.key, at.generation, revision, facts)) return;
    this.channel.postMessage({ type: 'image', key: at.key, generation: at.generation, version: at.version, revision, worker, file: this.images!.fileOf(at.key) } satisfies ReplicaMessage);
  }

  /**
   * Resolves once `workers` workers have said they hold the graph's view, at its current
   * version or newer, in their engines (false after `timeoutMs`): how a caller (bench/frameworks,
   * the tests) knows the preload a replica starts has finished.
   */
  async prepared(tenant: string, graphId: string, workers: number, timeoutMs: number): Promise<boolean> {
    const key = graphKey(tenant, graphId);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = this.versions.get(key);
      const entry = this.preparedBy.get(key);
      if (current && entry && entry.generation === current.generation && entry.version >= current.version && entry.workers.size >= workers) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await waitForMessage(this.preparedWaiters, Math.min(left, 1_000));
    }
  }

  private workerStarted(): void {
    this.started++;
    for (const waiter of [...this.startedWaiters]) waiter();
    if (this.lastAsked !== undefined && this.sentOnStart(this.lastAsked)) void this.sendSnapshot(this.lastAsked);
  }

  /**
   * Whether a worker that starts is sent the snapshot of the graph under `key`: the graph is in the graph cache, within the
   * preload bound. One the cache dropped is not read back from disk for it (a graph of 10M facts took tens of seconds, and
   * then went to no worker, being above the bound); the worker asks for it at its first task on it.
   */
  private sentOnStart(key: string): boolean {
    const facts = this.loadedFacts(key);
    return facts !== undefined && facts <= this.askedOnlyAbove;
  }

  /** Resolves once `workers` workers have started since this source was made (false after `timeoutMs`). */
  async workersStarted(workers: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.started < workers) {
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) return false;
      await waitForMessage(this.startedWaiters, Math.min(left, 1_000));
    }
    return true;
  }

  /**
   * What each running worker's isolate holds (a diagnostic: bench/server-memory), after a full collection in each
   * when `collect` and the process runs with --expose-gc: the answers heard within `waitMs`, one per worker. Calls
   * at the same time each hear the answers to their own request.
   */
  async workerMemory(collect: boolean, waitMs: number): Promise<WorkerMemory[]> {
    const heard: WorkerMemory[] = [];
    const request = ++this.memoryRequests;
    this.memoryHeard.set(request, ({ worker, heapUsed, heapCommitted, youngCommitted, youngLimitMb, arrayBuffers }) => heard.push({ worker, heapUsed, heapCommitted, youngCommitted, youngLimitMb, arrayBuffers }));
    this.channel.postMessage({ type: 'memory', request, collect } satisfies ReplicaMessage);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    this.memoryHeard.delete(request);
    return heard;
  }

  /**
   * Sends the running workers a replica of the graph, unasked (engine/reason/warm.ts, after a
   * restart), without making it the graph last asked about; the workers keep it without handing
   * its view to their engines. Resolves once the last chunk is posted; a graph absent meanwhile
   * is dropped from the workers instead.
   */
  warm(tenant: string, graphId: string): Promise<void> {
    return this.sendSnapshot(graphKey(tenant, graphId), true);
  }

  /**
   * A snapshot for a worker that lacks a replica, unless the generation it asks for is no more (the
   * graph was deleted, or deleted and made again, since its task was given out): then the worker is
   * told so, and its task fails with 404, rather than taking the new generation's snapshot, finding
   * it is not the one its task names, and asking again, snapshot after snapshot, until it times out.
   */
  private async answerNeed(key: string, generation: string, asker: OwnChannel | undefined, records: boolean): Promise<void> {
    const { tenant, graphId } = splitGraphKey(key);
    let current: { graph: GraphIndex; at: GraphVersion } | undefined;
    try {
      current = await this.current(tenant, graphId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) return; // (the store closing): the worker asks again, or its task times out
    }
    if (this.closed) return;
    if (current?.at.generation !== generation) return this.channel.postMessage({ type: 'gone', key, generation } satisfies ReplicaMessage);
    // (above the bound by the facts of the version loaded to answer, as a task on it is routed: pool.ts runAll)
    return this.sendSnapshot(key, false, current.graph.factCount > this.askedOnlyAbove ? asker : undefined, records);
  }

  /**
   * Sends the graph's replica to the workers in chunks. A request while one goes out is served by it;
   * a worker that started after its beginning (and so could not build it) asks again once it ends.
   * A graph above the preload bound goes instead to the asking worker alone, on its own channel (`own`,
   * PacedChannel): no other worker reads its chunks, and they go only as fast as the worker builds them.
   * Such a snapshot may go out while a shared one of the same graph does (a warm one, or another worker's
   * own): each try has an id, and a worker builds the chunks of the one it began alone (ReplicaSet).
   * A graph whose store snapshot file holds it as it is goes as that file's name instead of chunks, unless
   * `records` (a worker could not read the file).
   */
  private async sendSnapshot(key: string, warm = false, own?: OwnChannel, records = false): Promise<void> {
    const sending = own === undefined ? key : `${key}\u0000${own.to}`;
    if (this.snapshotting.has(sending)) return;
    this.snapshotting.add(sending);
    try {
      const { tenant, graphId } = splitGraphKey(key);
      while (!(await this.sendSnapshotOnce(tenant, graphId, key, warm, own, records)));
    } finally {
      this.snapshotting.delete(sending);
    }
  }

  /**
   * sendSnapshot's chunks, each made from the graph as it is when it goes (the records of a plain
   * edge are made again at each read: capturing them all at the start cost the main thread 35-40
   * bytes a fact at once). A write between two chunks is applied whole before the next is made,
   * and its delta posted before it: the workers apply it after the snapshot, so a record read
   * before or after the write comes out the same, and records it added past the places walked
   * come with it. False when the records were renumbered meanwhile (or the graph loaded anew,
   * or deleted): it goes again from the start.
   */
  private async sendSnapshotOnce(tenant: string, graphId: string, key: string, warm: boolean, own: OwnChannel | undefined, records: boolean): Promise<boolean> {
    const { graph, at } = await (warm ? this.loaded(tenant, graphId) : this.current(tenant, graphId)).catch(() => ({ graph: undefined, at: undefined }));
    if (this.closed) return true;
    if (!graph || !at) {
      this.channel.postMessage({ type: 'drop', key } satisfies ReplicaMessage);
      return true;
    }
    const id = ++this.snapshotTries;
    const paced = own && new PacedChannel(own, key, id, this.ackWaitMs);
    if (paced) this.pacedSends.add(paced);
    try {
      return await this.sendChunks(graph, at, id, warm, paced, records ? undefined : this.storedAt(at));
    } finally {
      if (paced) this.pacedSends.delete(paced);
      paced?.close();
    }
  }

  /**
   * sendSnapshotOnce's messages, on `paced` (one worker's channel) or else to every worker; with `stored`, the store's
   * snapshot file of the graph as it is, no chunk: the workers read it themselves (at 1M facts, bench/cold-image.ts `sent`:
   * 0.43-0.50 s of the worker thread's CPU against 0.68-0.73 s for the chunks, and 0-10 ms of this thread's against the
   * chunks' 590-610 ms; docs/operations.md).
   */
  private async sendChunks(graph: GraphIndex, at: GraphVersion, id: number, warm: boolean, paced: PacedChannel | undefined, stored: StoredSnapshot | undefined): Promise<boolean> {
    const { key, generation } = at;
    const { tenant, graphId } = splitGraphKey(key);
    const post = (message: ReplicaMessage) => (paced ?? this.channel).postMessage(message);
    const layout = graph.layout;
    const nodeSpan = graph.nodes.span;
    const edgeSpan = graph.edges.span;
    const image = this.imageAt(at);
    post({ type: 'snapshot-begin', key, generation, id, version: at.version, total: graph.nodeCount + graph.edgeCount, ...(warm ? { warm } : {}), ...(image ? { image } : {}), ...(stored ? { stored } : {}) });
    if (stored) {
      post({ type: 'snapshot-end', key, generation, id });
      return true;
    }
    const chunk = warm ? WARM_CHUNK : SNAPSHOT_CHUNK;
    let sent = 0;
    for (let from = 0; from < nodeSpan + edgeSpan; from += chunk) {
      // (the worker will not build it, stopped, or acknowledged nothing for REPLICA_WAIT_MS: it asks again if it still wants the graph)
      if (paced && !(await paced.room(sent))) return true;
      if (this.closed) return true;
      const { nodes, edges } = snapshotChunk(graph, from, chunk, nodeSpan, edgeSpan);
      post({ type: 'snapshot-chunk', key, generation, id, nodes, edges });
      sent++;
      await yieldToLoop();
      if (this.closed) return true;
      // (waits for a write being applied)
      const now = await this.store.loadGraph(tenant, graphId).catch(() => undefined);
      if (this.closed) return true; // (the channel closed meanwhile: posting on it would throw, and nothing awaits this)
      if (now !== graph || graph.layout !== layout) return false;
    }
    post({ type: 'snapshot-end', key, generation, id });
    return true;
  }

  /** The store's snapshot file of the graph at `at`, when it holds the graph as it is at that version (ParleyStore.currentSnapshot). */
  private storedAt(at: GraphVersion): StoredSnapshot | undefined {
    const revision = this.revisionAt(at);
    const { tenant, graphId } = splitGraphKey(at.key);
    const stored = revision === undefined ? undefined : this.store.currentSnapshot(tenant, graphId);
    return stored?.revision === revision ? stored : undefined;
  }

  close(): void {
    this.closed = true;
    for (const paced of this.pacedSends) paced.end();
    for (const waiter of [...this.heldWaiters]) waiter();
    this.unsubscribe();
    this.channel.close();
  }
}

/** A worker's read of a store snapshot file, as it asked for it (read-ask). */
type FileRead = Omit<Extract<ReplicaMessage, { type: 'read-ask' }>, 'type'>;

/** A read's key among those granted: the asking replica set's channel and its count there name it. */
const fileReadId = ({ to, read }: { to: string; read: number }): string => `${to}\u0000${read}`;

/**
 * The workers' reads of store snapshot files, granted in the order asked while the bytes of the files read at once fit
 * `maxBytes` together; a file larger than that is read once no other is. A reader that stopped is forgotten (keepOnly).
 * A read its reader says has stalled (read-stalled: no progress for the replica wait, a file read that does not return from
 * a stalled disk or mount) no longer holds the turn: the reads after it go as though it were done, or every one would wait
 * for it, each kept going by its wait (graph()'s progress), for ever. Its bytes stay counted until its read-done: its file's
 * buffer is held while the read hangs, and its records are decoded when it returns. Once the stalled reads' bytes alone
 * reach `maxBytes`, no read goes alone until one of them returns: on a dead mount each read granted would hang in its turn,
 * and one more would go every replica wait, each holding its file's buffer, without end. The bytes granted at once are so at
 * most `maxBytes` and one file.
 */
class FileReads {
  private readonly waiting: FileRead[] = [];
  /** The reads granted and not done, with when each was granted; `stalled`: those of them their readers said stalled. */
  private readonly reading = new Map<string, FileRead & { grantedAt: number }>();
  private readonly stalled = new Map<string, FileRead & { grantedAt: number }>();
  private bytes = 0;
  /** Whether the stalled reads' hold on the reads waiting was logged (once a hold, until it lifts). */
  private holdLogged = false;

  constructor(
    private readonly maxBytes: number,
    /** Whether the reader's worker (thread id) still runs: a stopped worker's ask, heard late, is never granted. */
    private readonly running: (worker: number) => boolean,
    private readonly grant: (read: FileRead) => void,
  ) {}

  ask({ to, read, worker, bytes }: FileRead): void {
    if (!this.running(worker)) return;
    this.waiting.push({ to, read, worker, bytes });
    this.next();
  }

  /** The read's end, or an ask its set no longer wants (it closed): not granted yet, it never is. */
  done(ended: { to: string; read: number }): void {
    const id = fileReadId(ended);
    const granted = this.reading.get(id) ?? this.stalled.get(id);
    if (granted) {
      this.reading.delete(id);
      this.stalled.delete(id);
      this.bytes -= granted.bytes;
    } else {
      const waiting = this.waiting.findIndex((read) => fileReadId(read) === id);
      if (waiting < 0) return;
      this.waiting.splice(waiting, 1);
    }
    this.next();
  }

  /**
   * The reader of a read granted says it has made no progress for the replica wait, and the reads after it go. The first of
   * the reads stalled at once is logged; the others (on a mount that stays stalled, every read after it stalls) are counted in
   * the line of the hold they lead to (next()).
   */
  stall({ to, read, key }: { to: string; read: number; key: string }): void {
    const id = fileReadId({ to, read });
    const granted = this.reading.get(id);
    if (!granted) return;
    this.reading.delete(id);
    if (this.stalled.size === 0) {
      const { tenant, graphId } = splitGraphKey(key);
      const heldS = Math.round((Date.now() - granted.grantedAt) / 1_000);
      process.stderr.write(
        `parley: a reasoning worker's read of the snapshot file of graph '${graphId}' (tenant '${tenant}', ${granted.bytes} bytes) has made no progress ` +
          `for the replica wait (its turn held ${heldS} s): a stalled disk or mount? The reads waiting for it go; its bytes stay counted until it ends\n`,
      );
    }
    this.stalled.set(id, granted);
    this.next();
  }

  /** Forgets the reads of the workers (thread ids) not in `live`, granted, stalled or waiting. */
  keepOnly(live: Set<number>): void {
    for (const granted of [this.reading, this.stalled]) {
      for (const [id, read] of granted) {
        if (live.has(read.worker)) continue;
        granted.delete(id);
        this.bytes -= read.bytes;
      }
    }
    this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((read) => live.has(read.worker)));
    this.next();
  }

  private next(): void {
    while (this.waiting.length > 0 && (this.bytes + this.waiting[0].bytes <= this.maxBytes || (this.reading.size === 0 && !this.stalledFill()))) {
      const read = this.waiting.shift()!;
      this.reading.set(fileReadId(read), { ...read, grantedAt: Date.now() });
      this.bytes += read.bytes;
      this.grant(read);
    }
    const held = this.waiting.length > 0 && this.reading.size === 0;
    if (held && !this.holdLogged) {
      process.stderr.write(
        `parley: ${this.stalled.size} stalled reads of snapshot files hold ${this.bytes} bytes, the bound on the files read at once (PARLEY_SNAPSHOT_READ_BYTES, ` +
          `${this.maxBytes}): the ${this.waiting.length} reads waiting go once one of them returns\n`,
      );
    }
    this.holdLogged = held;
  }

  /**
   * Whether the stalled reads' bytes alone have reached maxBytes: a read that does not fit beside them then waits for one to
   * return. None stalled fills nothing, so that at a maxBytes of 0 a read alone still goes (one stalled then holds the rest).
   */
  private stalledFill(): boolean {
    let bytes = 0;
    for (const read of this.stalled.values()) bytes += read.bytes;
    return this.stalled.size > 0 && bytes >= this.maxBytes;
  }
}

/** Where the snapshot of a graph above the preload bound goes: the asking worker's own channel, and the worker (its thread id, when it said). */
interface OwnChannel {
  to: string;
  worker?: number;
}

/**
 * One worker's own channel, for one try of the snapshot of a graph above the preload bound: the chunks posted on it wait,
 * at most SNAPSHOT_WINDOW unacknowledged, for the worker to say it has built the earlier ones of this try (snapshot-ack
 * naming its id: a late ack of an earlier try widens nothing).
 */
class PacedChannel {
  private readonly channel: BroadcastChannel;
  readonly worker: number | undefined;
  private acked = 0;
  /** No more chunks go: the worker said it will not build this try, it stopped, or the source closed. */
  private ended = false;
  private readonly waiters = new Set<() => void>();

  constructor(
    own: OwnChannel,
    private readonly key: string,
    private readonly id: number,
    private readonly waitMs: number,
  ) {
    this.worker = own.worker;
    this.channel = new BroadcastChannel(own.to);
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      if ((message.type !== 'snapshot-ack' && message.type !== 'snapshot-stop') || message.key !== key || message.id !== id) return;
      if (message.type === 'snapshot-stop') this.ended = true;
      else this.acked = Math.max(this.acked, message.chunks);
      this.wake();
    };
  }

  postMessage(message: ReplicaMessage): void {
    this.channel.postMessage(message);
  }

  /**
   * Whether another chunk may go, `sent` having gone: once the window has room; false once ended, or when no acknowledgement
   * came for `waitMs`: the worker is then told the try is over (snapshot-stop), so that it drops what it built and asks again.
   */
  async room(sent: number): Promise<boolean> {
    let heard = this.acked;
    let heardAt = Date.now();
    while (!this.ended && sent - this.acked >= SNAPSHOT_WINDOW) {
      if (this.acked !== heard) [heard, heardAt] = [this.acked, Date.now()];
      const left = heardAt + this.waitMs - Date.now();
      if (left <= 0) {
        this.channel.postMessage({ type: 'snapshot-stop', key: this.key, id: this.id } satisfies ReplicaMessage);
        return false;
      }
      await waitForMessage(this.waiters, Math.min(left, 1_000));
    }
    return !this.ended;
  }

  /** No more chunks go (its worker stopped, or the source closed): a wait for room ends now. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  close(): void {
    this.channel.close();
  }
}

/** What made or moved a replica (ReplicaSet's onReplica). */
export type ReplicaEvent = 'snapshot' | 'warm' | 'delta' | 'preload' | 'hold';

interface Replica {
  generation: string;
  version: number;
  graph: GraphIndex;
  lastUsed: number;
  /** How long its snapshot took from its beginning to its end, ms: what another worker's copy would cost (WorkerReplicas). */
  builtMs: number;
  /** The view image on disk of the graph at this version (the snapshot's, no delta applied since). */
  image?: ImageOnDisk;
}

interface Building {
  /** Its snapshot try's (ReplicaSource): the chunks and end of another try are not taken into it. */
  id: number;
  /** It came on this worker's own channel (it asked, the graph is above the bound): a shared snapshot does not replace it. */
  own: boolean;
  generation: string;
  version: number;
  graph: GraphIndex;
  pending: Extract<ReplicaMessage, { type: 'delta' }>[];
  /** When its snapshot began (Date.now()). */
  begun: number;
  /** When its last chunk came (Date.now(); begun before the first): a task waits for it while chunks keep coming. */
  lastChunkAt: number;
  /** Chunks built so far: what this worker acknowledges on its own channel (snapshot-ack). */
  chunks: number;
  /** A snapshot sent unasked after a restart (ReplicaSource.warm). */
  warm: boolean;
  /** The warm-up asked the workers to hand it over once made (ReplicaSource.hold). */
  held?: boolean;
  /** A preload asked for it (ReplicaSource.preload): handed over once made, like a replica held. */
  preloaded?: boolean;
  /** This worker asked for it to hand its view over (onSnapshotBegin's `asked`). */
  asked?: boolean;
  image?: ImageOnDisk;
  /** Its snapshot named the store's snapshot file (StoredSnapshot): being read, its end heard while being read, read, or not readable (its end not yet heard). */
  stored?: 'reading' | 'ended' | 'read' | 'unread';
}

/** Resolves when a message calls one of `waiters` (each removes itself), or after `timeoutMs`. */
function waitForMessage(waiters: Set<() => void>, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs).unref(); // a wait keeps no process alive: its caller does, if anything
    waiters.add(done);
  });
}

/** A worker's side: the replicas it holds (least recently used dropped beyond `maxGraphs`, or `maxFacts` over all of them). */
export class ReplicaSet {
  private readonly channel: BroadcastChannel;
  private readonly replicas = new Map<string, Replica>();
  private readonly building = new Map<string, Building>();
  /** The parts of a large delta received so far, per graph. */
  private readonly parts = new Map<string, Extract<ReplicaMessage, { type: 'delta-part' }>>();
  private readonly waiters = new Set<() => void>();
  private readonly requested = new Map<string, number>();
  private readonly behindSince = new Map<string, number>();
  /** Per graph, the generation the main thread said is no more (a task naming it fails). */
  private readonly gone = new Map<string, string>();
  /**
   * Graphs this worker asked a snapshot of and has not received, each with whether a task that asked reads its view (a
   * framework run: the engine's memory is grown for the view as the snapshot begins; a query, which hands a view over only
   * when it calls a rule, leaves that to the hand-over, if any: grown for a view never handed over, it would stay counted).
   */
  private readonly wanted = new Map<string, boolean>();
  /**
   * Graphs whose store snapshot file this worker could not read (absent, stale, corrupt): it asks for their records instead,
   * until a replica of the graph is made (a later need, once that one is let go, names the file again: a failed read, say
   * out of file descriptors, is not held against the graph for good), or the graph is dropped or gone.
   */
  private readonly recordsFor = new Set<string>();
  /** Graphs a preload or a hold named while this worker had no replica of them: what their snapshot is reported as once made. */
  private readonly askedAhead = new Map<string, 'preload' | 'hold'>();
  /**
   * Per graph asked for (wanted) whose snapshot has not begun, or whose build is of another generation, the deltas heard
   * meanwhile (EARLY_KEPT at most): a snapshot on this worker's own channel may begin after a delta newer than it that came
   * on the shared one (which is read first). A begin takes its generation's; another generation's stay for that one's
   * begin, until a task holds what it asked for with no build under way, or the graph is dropped or gone.
   */
  private readonly early = new Map<string, Extract<ReplicaMessage, { type: 'delta' }>[]>();
  /**
   * The serial of the last task the main thread abandoned at its call's deadline (ReplicaSource.abandon): that task ends, the
   * build goes on. One task runs at a time, and the main thread names them in order: an older word matters no more.
   */
  private abandonedTask: number | undefined;
  /** The channel only this replica set listens on: a snapshot of a graph above the preload bound comes on it, paced by its acknowledgements. */
  private readonly own: BroadcastChannel;
  /** The replicas message last posted (WorkerReplicas, as JSON): another is posted only when they change. */
  private replicasSaid = '';
  /**
   * The reads of store snapshot files this set has asked the main thread for (read-ask): how many, what each one's grant
   * wakes, and those not yet said done (read-done), which a set that closes says done.
   */
  private readsAsked = 0;
  private readonly readGrants = new Map<number, () => void>();
  private readonly readsOpen = new Set<number>();
  private closed = false;
  /** Called when the main thread asks this worker to make a graph's view image (ReplicaSource 'image'). */
  onImageAsked: (asked: Extract<ReplicaMessage, { type: 'image' }>) => void = () => {};
  /**
   * Called when this worker begins a replica from a snapshot: the replica's graph (empty yet), its records (nodes and
   * edges), whether it is a warm one (sent unasked), whether this worker asked for it to hand its view over (the need of a
   * task that reads the view, graph()'s readsView; a hold or a preload), and the graph's key, generation and view image on disk.
   */
  onSnapshotBegin: (graph: GraphIndex, records: number, warm: boolean, asked: boolean, begun: { key: string; generation: string; image?: ImageOnDisk }) => void = () => {};
  /** Called when the graph onSnapshotBegin was given (empty) is replaced by the one read from the store's snapshot file. */
  onSnapshotRead: (begun: GraphIndex, read: GraphIndex) => void = () => {};
  /** Called when the build of `key` is let go unfinished: its graph dropped, its try stopped or given up, its snapshot file unread. */
  onBuildLeft: (key: string) => void = () => {};

  constructor(
    channelName: string,
    private readonly maxGraphs: number,
    /**
     * Called when a snapshot has made a replica (a warm one: sent unasked after a restart), a delta
     * moved one on, or the main thread asked for a preload of one held (the worker hands it to its
     * engine ahead of the next task; 'hold': the warm-up's, ReplicaSource.hold).
     */
    private readonly onReplica: (at: GraphVersion, graph: GraphIndex, by: ReplicaEvent) => void = () => {},
    /** Facts the replicas may hold together (the one used last stays, however large: a task needs it). */
    private readonly maxFacts = Infinity,
    /** How long a task waits with no chunk of its snapshot coming, after which the build is given up and asked again (the tests shorten it). */
    private readonly waitMs = REPLICA_WAIT_MS,
  ) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => this.onMessage((event as { data: ReplicaMessage }).data);
    this.own = new BroadcastChannel(`${channelName}:${randomUUID()}`);
    this.own.unref();
    this.own.onmessage = (event) => {
      const message = (event as { data: ReplicaMessage }).data;
      this.onMessage(message, true);
      const building = message.type === 'snapshot-chunk' && this.building.get(message.key);
      // acknowledged once built: the main thread makes the next chunks only as this worker takes them
      if (building && building.id === message.id) this.own.postMessage({ type: 'snapshot-ack', key: message.key, id: message.id, chunks: building.chunks } satisfies ReplicaMessage);
    };
    this.channel.postMessage({ type: 'started' } satisfies ReplicaMessage);
  }

  /**
   * The replica of `at.key` at `at.version` or newer, asking the main thread for a snapshot when needed. Fails when no
   * chunk of its snapshot has come for REPLICA_WAIT_MS (a build making progress is waited for, however long it takes), or
   * when the main thread abandons the task `at.task` (its call passed its deadline: the build goes on for the next task).
   * A build that no chunk has come to for that long, counted from this call at the earliest (chunks queued while this
   * worker was busy are read first), is given up and asked for again: its sender stopped, and would send no more.
   * `readsView`: the task hands the graph's view to the engine (a query does only when it calls a rule: false).
   */
  async graph(at: TaskVersion, readsView = true): Promise<GraphIndex> {
    const called = Date.now();
    let deadline = called + this.waitMs;
    for (;;) {
      const replica = this.replicas.get(at.key);
      if (replica && replica.generation === at.generation && replica.version >= at.version) {
        replica.lastUsed = Date.now();
        this.behindSince.delete(at.key);
        // (a snapshot asked for while behind, caught up by deltas since, or another generation's deltas kept past the
        // build that made this replica: not waited for, nor those deltas kept)
        if (!this.building.has(at.key)) {
          this.early.delete(at.key);
          if (this.wanted.delete(at.key)) this.announceReplicas();
        }
        return replica.graph;
      }
      if (this.gone.get(at.key) === at.generation) throw new NotFoundError('graph', splitGraphKey(at.key).graphId);
      // (a replica of another generation stays: it may be the newer one; a snapshot of the task's replaces it)
      if (at.task !== undefined && this.abandonedTask === at.task) throw new Error('the call passed its deadline while this graph\'s replica was being built; the build goes on');
      let building = this.building.get(at.key);
      if (building && Date.now() - Math.max(building.lastChunkAt, called) > this.waitMs) {
        this.giveUp(at.key, building);
        building = undefined;
      }
      if (!building) this.request(at, readsView);
      else {
        this.behindSince.delete(at.key);
        deadline = Math.max(deadline, building.lastChunkAt + this.waitMs);
      }
      if (Date.now() > deadline) throw new Error(`graph replica of version ${at.version} did not arrive: nothing of it came for ${this.waitMs} ms`);
      await waitForMessage(this.waiters, Math.min(1_000, this.waitMs));
    }
  }

  /** Drops a build whose snapshot stopped coming, and tells its sender (snapshot-stop), which frees its place for the need that follows. */
  private giveUp(key: string, building: Building): void {
    if (building.own) this.own.postMessage({ type: 'snapshot-stop', key, id: building.id } satisfies ReplicaMessage);
    this.leave(key);
  }

  /** Lets the build of `key` go unfinished (onBuildLeft), and forgets when the graph was last asked for: the next need goes at once. */
  private leave(key: string): void {
    this.building.delete(key);
    this.requested.delete(key);
    this.onBuildLeft(key);
  }

  /** Whether this set is building the replica of `key` (its snapshot has begun and not ended). */
  builds(key: string): boolean {
    return this.building.has(key);
  }

  /**
   * Asks for a snapshot at once when there is no replica; a replica that is behind is
   * given half a second for the deltas already posted to arrive. At most once a second.
   */
  private request(at: GraphVersion, readsView = false): void {
    const now = Date.now();
    if (this.replicas.get(at.key)?.generation === at.generation) {
      const since = this.behindSince.get(at.key);
      if (since === undefined) this.behindSince.set(at.key, now);
      if (since === undefined || now - since < 500) return;
    }
    this.wanted.set(at.key, readsView || this.wanted.get(at.key) === true);
    this.announceReplicas();
    const last = this.requested.get(at.key);
    if (last !== undefined && now - last < 1_000) return;
    this.requested.set(at.key, now);
    this.channel.postMessage({ type: 'need', key: at.key, generation: at.generation, to: this.own.name, worker: threadId, ...(this.recordsFor.has(at.key) ? { records: true as const } : {}) } satisfies ReplicaMessage);
  }

  /** The parts received so far of `message`'s delta, its records appended; undefined when none came before it. */
  private joinParts(message: Extract<ReplicaMessage, { type: 'delta' | 'delta-part' }>): Extract<ReplicaMessage, { type: 'delta-part' }> | undefined {
    const sofar = this.parts.get(message.key);
    if (!sofar || sofar.generation !== message.generation || sofar.version !== message.version) return undefined;
    sofar.nodes.push(...message.nodes);
    sofar.edges.push(...message.edges);
    return sofar;
  }

  /** A message from the main thread; `own`: it came on this worker's own channel. */
  private onMessage(message: ReplicaMessage, own = false): void {
    switch (message.type) {
      case 'delta-part': {
        if (!this.joinParts(message)) this.parts.set(message.key, message);
        return;
      }
      case 'delta': {
        const sofar = this.joinParts(message);
        this.parts.delete(message.key);
        if (sofar) message = { ...message, nodes: sofar.nodes, edges: sofar.edges };
        const building = this.building.get(message.key);
        if (building && building.generation === message.generation) {
          if (message.version > building.version) building.pending.push(message);
          break;
        }
        const replica = this.replicas.get(message.key);
        // (kept while a build of another generation goes on too: the delta may be of the one whose begin comes next)
        if (this.wanted.has(message.key) && !(replica && replica.generation === message.generation && message.version <= replica.version)) {
          const early = this.early.get(message.key);
          if (!early) this.early.set(message.key, [message]);
          else if (early.push(message) > EARLY_KEPT) early.shift();
        }
        if (!replica || replica.generation !== message.generation || message.version <= replica.version) break;
        if (message.version !== replica.version + 1) {
          this.replicas.delete(message.key); // a gap: the next task asks for a snapshot
          break;
        }
        if (!applyDelta(replica.graph, message.nodes, message.edges)) {
          this.replicas.delete(message.key); // as a gap: the next task asks for a snapshot
          break;
        }
        replica.version = message.version;
        replica.image = undefined;
        this.onReplica({ key: message.key, generation: replica.generation, version: replica.version }, replica.graph, 'delta');
        break;
      }
      case 'drop':
        this.wanted.delete(message.key);
        this.askedAhead.delete(message.key);
        this.early.delete(message.key);
        this.parts.delete(message.key);
        this.replicas.delete(message.key);
        this.recordsFor.delete(message.key);
        if (this.building.delete(message.key)) this.onBuildLeft(message.key);
        break;
      case 'snapshot-begin': {
        // every worker hears a snapshot one of them asked for: one whose replica is as fresh keeps it, and with it the Prolog facts made from it (a new graph is handed to the engine whole)
        const replica = this.replicas.get(message.key);
        if (replica && replica.generation === message.generation && replica.version >= message.version) {
          // what it asked for, if anything, it holds: nothing more is awaited, and the sender of its own frees its place now
          this.wanted.delete(message.key);
          this.early.delete(message.key);
          if (own) this.own.postMessage({ type: 'snapshot-stop', key: message.key, id: message.id } satisfies ReplicaMessage);
          break;
        }
        // a snapshot this worker asked for on its own channel is built to its end: a shared one (a warm-up's) neither replaces it nor is mixed into it
        if (!own && this.building.get(message.key)?.own) break;
        const ahead = this.askedAhead.get(message.key);
        this.askedAhead.delete(message.key);
        const asked = ahead !== undefined || this.wanted.get(message.key) === true;
        const reading = this.building.get(message.key);
        if (message.stored && reading?.stored && reading.stored !== 'unread' && reading.generation === message.generation && reading.version === message.version) {
          // the same file of the same version, read already (a worker that starts and asks at once hears two begins, the
          // graph last asked about and its need's): that read serves this one too, rather than a second of some 0.7 s at 1M
          reading.warm &&= message.warm === true && ahead === undefined;
          reading.held ||= ahead === 'hold';
          reading.preloaded ||= ahead === 'preload';
          if (asked && !reading.asked) {
            reading.asked = true;
            this.onSnapshotBegin(reading.graph, message.total, reading.warm, true, message);
          }
          break;
        }
        const { generation, version } = message;
        // the deltas heard before this begin, and those the build it replaces held (a warm one, an earlier try): the shared
        // channel is read before this worker's own, so a write may be heard before a begin posted ahead of it
        const replaced = this.building.get(message.key)?.pending ?? [];
        const early = this.early.get(message.key) ?? [];
        const pending = [...early, ...replaced].filter((delta) => delta.generation === generation && delta.version > version);
        // another generation's, kept for its own begin: the shared channel may bring a newer generation's write before
        // this worker's own channel brings an older generation's begin (a build it will replace)
        const others = early.filter((delta) => delta.generation !== generation);
        if (others.length > 0) this.early.set(message.key, others);
        else this.early.delete(message.key);
        const begun = Date.now();
        const building: Building = { id: message.id, own, generation: message.generation, version: message.version, graph: new GraphIndex(), pending, begun, lastChunkAt: begun, chunks: 0, warm: message.warm === true && ahead === undefined, held: ahead === 'hold', preloaded: ahead === 'preload', asked, ...(message.image ? { image: message.image } : {}) };
        this.building.set(message.key, building);
        this.onSnapshotBegin(building.graph, message.total, building.warm, asked, message);
        if (message.stored) void this.readStored(message.key, building, message.stored);
        break;
      }
      case 'snapshot-chunk': {
        const building = this.building.get(message.key);
        if (!building || building.id !== message.id) break;
        putLogged(building.graph, message.nodes, []);
        // a snapshot's edges are distinct and new to the replica: their ids are hashed at the first lookup (a delta), as a restart's are
        building.graph.adoptEdges(message.edges);
        building.chunks++;
        building.lastChunkAt = Date.now();
        break;
      }
      case 'snapshot-end': {
        const building = this.building.get(message.key);
        if (building && building.id !== message.id) break; // (another try's end: this one goes on)
        if (building?.stored === 'reading') {
          building.stored = 'ended'; // (built once the file is read)
          return;
        }
        if (building?.stored === 'unread') {
          this.unread(message.key, building);
          break;
        }
        if (!building) {
          // a snapshot this worker heard only the end of (it started after the beginning): asked again when wanted
          const replica = this.replicas.get(message.key);
          const fresh = this.replicas.size === 0 && this.building.size === 0; // a worker just started: the snapshot was meant for it
          if ((this.wanted.has(message.key) || fresh) && !(replica && replica.generation === message.generation)) {
            this.requested.delete(message.key);
            this.request({ key: message.key, generation: message.generation, version: 0 });
          }
          break;
        }
        this.built(message.key, building);
        break;
      }
      case 'preload': {
        const building = this.building.get(message.key);
        if (building) {
          // the snapshot's end hands the replica over, a warm one included
          building.warm = false;
          building.held ||= message.hold === true;
          building.preloaded ||= message.hold !== true;
          return;
        }
        const replica = this.replicas.get(message.key);
        if (replica && replica.generation === message.generation && replica.version >= message.version) {
          replica.lastUsed = Date.now();
          this.onReplica({ key: message.key, generation: replica.generation, version: replica.version }, replica.graph, message.hold ? 'hold' : 'preload');
        } else {
          // none, or of a deleted graph's generation (the deltas of this one came before this message: no replica is merely behind)
          this.replicas.delete(message.key);
          this.askedAhead.set(message.key, message.hold ? 'hold' : 'preload');
          this.request(message);
        }
        return;
      }
      case 'gone': {
        this.wanted.delete(message.key);
        this.early.delete(message.key);
        this.askedAhead.delete(message.key);
        this.recordsFor.delete(message.key);
        this.gone.set(message.key, message.generation);
        if (this.gone.size > GONE_KEPT) this.gone.delete(this.gone.keys().next().value!);
        break;
      }
      case 'memory': {
        // a diagnostic of the worker's isolate, not of its replicas: answered here as this channel is the one every
        // worker listens on, busy or not, and the main thread reaches all of them at once on it
        if (message.collect) (globalThis as { gc?: () => void }).gc?.();
        this.channel.postMessage({ type: 'memory-of', request: message.request, worker: threadId, ...isolateMemory() } satisfies ReplicaMessage);
        return;
      }
      case 'image': {
        if (message.worker === threadId) this.onImageAsked(message);
        return;
      }
      case 'read-slot': {
        if (message.to !== this.own.name) return;
        this.readGrants.get(message.read)?.();
        this.readGrants.delete(message.read);
        return;
      }
      case 'abandon': {
        if (message.worker !== threadId) return;
        this.abandonedTask = message.task;
        break;
      }
      case 'snapshot-stop': {
        // (on this worker's own channel: its sender gave up waiting for its acknowledgements; the task waiting asks again)
        const building = this.building.get(message.key);
        if (!own || !building || building.id !== message.id) return;
        this.leave(message.key);
        break;
      }
      case 'need':
      case 'started':
      case 'prepared':
      case 'views':
      case 'memory-of':
      case 'imaged':
      case 'replicas':
      case 'snapshot-ack':
      case 'read-ask':
      case 'read-done':
      case 'read-stalled':
        return; // other workers' messages: nothing a waiter re-checks has changed
    }
    this.changed();
  }

  /** After what may change a replica or a build: says so to the main thread (when it did), and wakes the tasks waiting, each to check again. */
  private changed(): void {
    this.announceReplicas();
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Tells the main thread the replicas this worker holds and builds (WorkerReplicas), when they changed since it last said. */
  private announceReplicas(): void {
    const said: ReplicaMessage = {
      type: 'replicas',
      worker: threadId,
      held: [...this.replicas].map(([key, { builtMs }]) => ({ key, builtMs })),
      building: [...new Set([...this.building.keys(), ...this.wanted.keys()])],
    };
    const text = JSON.stringify(said);
    if (text === this.replicasSaid) return;
    this.replicasSaid = text;
    this.channel.postMessage(said);
  }

  /** Makes `building`, its snapshot ended (and its file read, when it named one), the replica of `key`, the deltas heard meanwhile applied. */
  private built(key: string, building: Building): void {
    this.gone.delete(key);
    this.wanted.delete(key);
    this.recordsFor.delete(key);
    this.building.delete(key);
    let version = building.version;
    for (const delta of building.pending.sort((a, b) => a.version - b.version)) {
      if (delta.version !== version + 1) continue;
      if (!applyDelta(building.graph, delta.nodes, delta.edges)) {
        this.leave(key); // the graph is asked for again
        return;
      }
      version = delta.version;
    }
    const image = version === building.version ? building.image : undefined;
    this.replicas.set(key, { generation: building.generation, version, graph: building.graph, lastUsed: Date.now(), builtMs: Date.now() - building.begun, ...(image ? { image } : {}) });
    this.requested.delete(key);
    this.evict();
    if (this.replicas.has(key)) this.onReplica({ key, generation: building.generation, version }, building.graph, building.held ? 'hold' : building.preloaded ? 'preload' : building.warm ? 'warm' : 'snapshot');
  }

  /**
   * Reads the replica `building` begins from the store's snapshot file it names, in place of chunks (the deltas heard
   * meanwhile are its pending, as a snapshot's): only a file of this graph's own name (snapshot.ts), of the begin's
   * generation and revision, whole. One it cannot read drops the build, and the graph is asked for again as records.
   */
  private async readStored(key: string, building: Building, stored: StoredSnapshot): Promise<void> {
    building.stored = 'reading';
    const { tenant, graphId } = splitGraphKey(key);
    // (a read goes on as chunks do: a long one is not given up and asked for again, graph()'s wait on lastChunkAt)
    const progress = () => void (building.lastChunkAt = Date.now());
    const read = isSnapshotFileOf(stored.file, tenant, graphId) ? await this.readGranted(key, building, stored, progress) : undefined;
    if (this.closed || this.building.get(key) !== building) return; // (dropped, replaced or given up meanwhile)
    const ended = (building.stored as Building['stored']) === 'ended'; // (set by the end heard meanwhile)
    if (!read) {
      // (asked again once the end is heard: the end of a try this worker no longer builds would ask a second time)
      if (!ended) return void (building.stored = 'unread');
      this.unread(key, building);
    } else {
      this.onSnapshotRead(building.graph, read);
      building.graph = read;
      building.lastChunkAt = Date.now();
      this.recordsFor.delete(key);
      building.stored = 'read';
      if (ended) this.built(key, building);
    }
    this.changed();
  }

  /**
   * readSnapshot of the file `building` names, once the main thread grants the read (read-ask: the files the workers read at
   * once fit its snapshotReadBytes together); the wait counts as the build's progress, as the reads before it make theirs.
   * A read granted that makes no progress for waitMs (the silence after which a task waiting gives a build up: a file read
   * that does not return, from a stalled disk or mount) says so once (read-stalled), and the reads waiting for its turn go.
   * Undefined when the file cannot be read, or the build was let go while it waited (the file is then not read).
   */
  private async readGranted(key: string, building: Building, stored: StoredSnapshot, progress: () => void): Promise<GraphIndex | undefined> {
    const bytes = await stat(stored.file).then((stats) => stats.size, () => undefined);
    const current = () => !this.closed && this.building.get(key) === building;
    if (bytes === undefined || !current()) return undefined;
    const read = ++this.readsAsked;
    const granted = new Promise<void>((resolve) => this.readGrants.set(read, resolve));
    this.readsOpen.add(read);
    this.channel.postMessage({ type: 'read-ask', to: this.own.name, read, worker: threadId, bytes } satisfies ReplicaMessage);
    const checkMs = Math.min(1_000, this.waitMs / 3);
    const waiting = setInterval(progress, checkMs).unref();
    await granted;
    clearInterval(waiting);
    progress(); // (its silence counted from the grant)
    const stalled = setInterval(() => {
      if (Date.now() - building.lastChunkAt <= this.waitMs) return;
      clearInterval(stalled);
      if (!this.closed) this.channel.postMessage({ type: 'read-stalled', to: this.own.name, read, key } satisfies ReplicaMessage);
    }, checkMs).unref();
    try {
      return current() ? await readSnapshot(stored.file, building.generation, stored.revision, progress) : undefined;
    } finally {
      clearInterval(stalled);
      // (a set that closed said it done)
      if (this.readsOpen.delete(read)) this.channel.postMessage({ type: 'read-done', to: this.own.name, read } satisfies ReplicaMessage);
    }
  }

  /** Drops `building`, whose snapshot file could not be read, its end heard: the graph is asked for again as records, by the task waiting as it wakes, or here for a preload or a hold. */
  private unread(key: string, building: Building): void {
    this.leave(key);
    this.recordsFor.add(key);
    if (building.held || building.preloaded) {
      this.askedAhead.set(key, building.held ? 'hold' : 'preload');
      this.request({ key, generation: building.generation, version: building.version });
    }
  }

  /** The replica of `key` as it is now, when this set holds one, and the view image on disk of that version, when known. */
  held(key: string): { graph: GraphIndex; at: GraphVersion; image?: ImageOnDisk } | undefined {
    const replica = this.replicas.get(key);
    return replica && { graph: replica.graph, at: { key, generation: replica.generation, version: replica.version }, ...(replica.image ? { image: replica.image } : {}) };
  }

  /**
   * Tells the main thread which graphs' whole views this worker's engine holds (`views`, their keys), which one
   * it is taking in parts in the background (`loading`), having taken `handOvers.whole` views whole since it started
   * (and `handOvers.additions` times only the records writes added to a view held);
   * with `at`, that it has handed that version over (ReplicaSource.prepared); `images`: how many of those views it took
   * from a view image, whether it holds `at`'s whole view as one whole hand-over made it (one to make an image of), and
   * whether it refused the image the snapshot named; `imaging` (without `at`): it is about to make a view image.
   */
  announceViews(views: string[], handOvers: { whole: number; additions: number }, loading: string | undefined, at?: GraphVersion, images: { count?: number; imageable?: boolean; refused?: boolean } = {}, imaging = false): void {
    const said = { worker: threadId, views, handOvers: handOvers.whole, ...(handOvers.additions ? { additions: handOvers.additions } : {}), ...(images.count ? { images: images.count } : {}), ...(loading !== undefined ? { loading } : {}) };
    const message: ReplicaMessage = at
      ? { type: 'prepared', key: at.key, generation: at.generation, version: at.version, ...said, ...(images.imageable ? { imageable: true as const } : {}), ...(images.refused ? { imageRefused: true as const } : {}) }
      : { type: 'views', ...said, ...(imaging ? { imaging: true as const } : {}) };
    this.channel.postMessage(message);
  }

  /** Tells the main thread this worker made the view image it asked for (`bytes`; 0: it could not). */
  imaged(asked: Extract<ReplicaMessage, { type: 'image' }>, bytes: number): void {
    this.channel.postMessage({ type: 'imaged', key: asked.key, generation: asked.generation, version: asked.version, revision: asked.revision, bytes } satisfies ReplicaMessage);
  }

  /** The keys of the replicas held. */
  keys(): string[] {
    return [...this.replicas.keys()];
  }

  private evict(): void {
    const byUse = [...this.replicas].sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    let facts = byUse.reduce((total, [, replica]) => total + replica.graph.factCount, 0);
    for (const [key, replica] of byUse.slice(0, -1)) {
      if (this.replicas.size <= this.maxGraphs && facts <= this.maxFacts) break;
      this.replicas.delete(key);
      facts -= replica.graph.factCount;
    }
  }

  close(): void {
    this.closed = true;
    // (a read waiting for its grant ends unread; one under way is dropped as it returns: neither holds a turn on)
    for (const grant of this.readGrants.values()) grant();
    this.readGrants.clear();
    for (const read of this.readsOpen) this.channel.postMessage({ type: 'read-done', to: this.own.name, read } satisfies ReplicaMessage);
    this.readsOpen.clear();
    this.channel.close();
    this.own.close();
  }
}

/**
 * The records of one snapshot chunk: those at places `from` to `from + chunk` of `graph`, its nodes' places first,
 * then its edges' (a place left empty by a removal sends nothing); the spans are those the sender read when it began.
 */
export function snapshotChunk(
  graph: GraphIndex,
  from: number,
  chunk: number,
  nodeSpan = graph.nodes.span,
  edgeSpan = graph.edges.span,
): { nodes: NodeRecord[]; edges: EdgeRecord[] } {
  const nodes: NodeRecord[] = [];
  const edges: EdgeRecord[] = [];
  for (let place = from; place < Math.min(from + chunk, nodeSpan); place++) {
    const node = graph.nodes.at(place);
    if (node) nodes.push(node);
  }
  for (let place = Math.max(from, nodeSpan); place < Math.min(from + chunk, nodeSpan + edgeSpan); place++) {
    const edge = graph.edges.at(place - nodeSpan);
    if (edge) edges.push(edge);
  }
  return { nodes, edges };
}

/**
 * Puts a delta's records into `graph`; false, nothing put, when a record carries entries to append to a list `graph`
 * does not hold at the length it names (DeltaRecord).
 */
function applyDelta(graph: GraphIndex, nodes: DeltaRecord<NodeRecord>[], edges: DeltaRecord<EdgeRecord>[]): boolean {
  const wholeNodes = wholeRecords(nodes, (id) => graph.node(id));
  const wholeEdges = wholeNodes && wholeRecords(edges, (id) => graph.edge(id));
  if (!wholeNodes || !wholeEdges) return false;
  // logged, so that the worker's Prolog facts take the additions rather than the whole graph again
  putLogged(graph, wholeNodes, wholeEdges);
  return true;
}

/** The main thread's form of `record` in a delta (DeltaRecord): its provenance after the first `grown.get(record)` entries, when noted there. */
function sentForm<R extends NodeRecord | EdgeRecord>(record: R, grown: ReadonlyMap<NodeRecord | EdgeRecord, number>): DeltaRecord<R> {
  const from = grown.get(record);
  // (the record's keys in their order, provenance among them: a worker's answers serialise records as the store's)
  return from === undefined ? record : ({ ...record, provenance: record.provenance.slice(from), provenanceFrom: from } as DeltaRecord<R>);
}

/** `records` made whole from the lists `held` has (the array itself when none needs it); undefined when a list held has not the length a record names. */
function wholeRecords<R extends NodeRecord | EdgeRecord>(records: DeltaRecord<R>[], held: (id: string) => R | undefined): R[] | undefined {
  let whole: R[] | undefined;
  for (let i = 0; i < records.length; i++) {
    if (records[i].provenanceFrom === undefined) continue;
    const { provenanceFrom, ...record } = records[i];
    const list = held(record.id)?.provenance;
    if (!list || list.length !== provenanceFrom) return undefined;
    record.provenance = list.concat(record.provenance);
    whole ??= records.slice();
    whole[i] = record as unknown as R;
  }
  return whole ?? records;
}
