/**
 * bench/batch-profile: where the main thread of a batch spends its time. The main thread
 * resolves each draft against the graph and commits it, one document after the other; its
 * CPU per document bounds the speed-up any pool of workers gives (bench/batch's "ceiling").
 * This samples the main thread (V8's sampling profiler, through the inspector) while
 * `ingestFolder` runs, and splits the samples by the part of the work they belong to, read
 * off each sample's stack. Sampling slows the code it samples, so read the shares, not the
 * milliseconds (bench/batch measures those).
 *
 * Each round ingests the corpus into a copy of the same store, which holds a generated graph
 * of --into-facts facts (bench/conflict-graph.ts), with a pool of --workers that drafted the
 * corpus twice before the first round (its code warm). With --copies N the corpus is read N times
 * over, as bench/batch reads it. With --top N it also lists the N functions with the most
 * samples of their own (self time), the parts' detail. --read-ahead and --gather gather the commits as
 * on many cores (bench/batch.ts says how).
 *
 * With --replay the main thread works alone, as it does where it bounds the pool: each file is
 * drafted by the pool once, in a first pass that commits into a copy of the store of its own, and
 * its draft kept as the worker's message (draft.ts draftMessage); the rounds then ingest with a
 * pipeline that hands each file's message back at once (readDraftMessage, as the pool's call does),
 * so the main thread never waits for a worker. On a few cores a batch's main thread mostly waits
 * for the workers, and each draft then finds it idle and its caches cold (other threads and
 * processes ran meanwhile): its CPU per document there holds what waking costs, which a main
 * thread kept busy by many workers does not pay. The replay prints that thread's own CPU per
 * document (bench/thread-cpu.ts, so whatever the machine's load) beside the shares. What it leaves
 * out: the pool's own per-task work (the call's gate, its message), about 0.1 ms a document for a
 * busy thread. A draft is made against the batch's log of names (known-names.ts), and the main
 * thread asks its names again unless it was made where the log ends: where the replay's log holds,
 * when a file is handed, exactly what the first pass's worker read, the draft is handed at the
 * replay's place in it (it is then the draft a worker would make); elsewhere as recorded, its names
 * asked again (the replay prints how many were handed at its place: 450 of 512 of the sample corpus
 * 8 times over, where a batch has its names asked again for a few drafts only). With --unsampled
 * there is no profiler: only the main thread's CPU per document, round by round.
 *
 * With --replicas N the store has a replica source on it, as a server's reasoning pool has, and N worker threads that
 * follow the graph (bench/replica-followers.ts: replicas without the Prolog engine), from the batch's first commit (or
 * before the clock, when the graph is generated): the main thread then posts every commit's delta. It prints the deltas'
 * bytes (serialised), records and provenance entries per document, and with --check-replicas whether each worker's
 * replica equals the store's graph after the round (a digest of every record) and whether each built one snapshot only
 * (the deltas kept it in step: a dropped replica is taken again, and would equal the store too); it exits 1 otherwise.
 *
 *   npm run bench:batch-profile [-- --workers 2 --rounds 3 --into-facts 100000 --corpus corpora/sudan-drc-2024 --copies 1 --top 0 --read-ahead 4 --gather 1 --replay --unsampled --replicas 0 --check-replicas]
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GCProfiler } from 'node:v8';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ingestFolder, listCorpus, READ_AHEAD_PER_WORKER, tierUpForBatch } from '../engine/ingest/batch.ts';
import { fileDraftMessage, readFileDraftMessage, type FileDraft } from '../engine/extract/draft.ts';
import type { KnownNamesPosition, KnownNamesRef } from '../engine/extract/known-names.ts';
import type { ExtractionPipeline } from '../engine/extract/pipeline.ts';
import { readSource } from '../engine/extract/source.ts';
import { ReplicaSource } from '../engine/reason/replicas.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { copiedCorpus } from './batch-corpus.ts';
import { writeInChunks } from './cold-start.ts';
import { generate } from './conflict-graph.ts';
import { profileTree, type Profile, type ProfileNode } from './long-turns.ts';
import { recordsDigest, ReplicaFollowers, type DeltasHeard } from './replica-followers.ts';
import { threadCpu } from './thread-cpu.ts';

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    corpus: { type: 'string', default: 'corpora/sudan-drc-2024' },
    copies: { type: 'string', default: '1' },
    'into-facts': { type: 'string', default: '100000' },
    top: { type: 'string', default: '0' },
    'read-ahead': { type: 'string', default: String(READ_AHEAD_PER_WORKER) },
    gather: { type: 'string', default: '1' },
    replay: { type: 'boolean', default: false },
    unsampled: { type: 'boolean', default: false },
    allocations: { type: 'boolean', default: false },
    'every-document': { type: 'string', default: '' },
    replicas: { type: 'string', default: '0' },
    'check-replicas': { type: 'boolean', default: false },
  },
});
/** Worker threads following the graph's replica (--replicas). */
const REPLICAS = Number(args.replicas);
// (a typo would read as NaN, which compares as no followers: the run would measure none, silently)
if (!Number.isInteger(REPLICAS) || REPLICAS < 0) throw new Error(`--replicas must be a whole number of worker threads, 0 or more: got ${JSON.stringify(args.replicas)}`);
const WORKERS = Number(args.workers);
const ROUNDS = Number(args.rounds);
const COPIES = Number(args.copies);
/** The corpus as given: what the workers draft to warm up (its copies would overflow the pool's queue). */
const ORIGINAL = path.resolve(args.corpus!);
/** A sentence each copy's documents add (--copies), naming one actor in every document: a long batch's longest provenance list. */
const EVERY_DOCUMENT = args['every-document']!;
const CORPUS = COPIES > 1 ? await copiedCorpus(ORIGINAL, COPIES, EVERY_DOCUMENT) : ORIGINAL;
const INTO_FACTS = Number(args['into-facts']);
const TOP = Number(args.top);
const REPLAY = args.replay!;
/** No sampling: only the main thread's CPU per document, round by round (for comparing code, alternated). */
const UNSAMPLED = args.unsampled!;
/** The main thread's allocations sampled instead of its time: bytes per document by part, whatever the load. */
const ALLOCATIONS = args.allocations!;
/** Bytes between a sampling heap profile's samples, on average. */
const ALLOCATION_SAMPLING_BYTES = 4096;
/** Microseconds between samples. */
const SAMPLING_US = 200;

/**
 * The parts, first match wins: a sample belongs to the first part one of whose functions is on
 * its stack. After an `await` a stack starts at the async function that resumed, so each part
 * names its inner async functions too; a sample whose stack names none goes by the file of its
 * innermost frame that some part names.
 */
const PARTS: { part: string; functions: string[]; files?: RegExp }[] = [
  { part: 'structuring again on the main thread (drafts the graph changes)', functions: ['structureDocument', 'extractAgainstGraph'] },
  {
    part: 'resolution against the graph (drafts, actors, names)',
    functions: ['resolveDraft', 'resolveAgainstGraph', 'withGraphActors', 'hold', 'putActor', 'takeGraphActors', 'directoryOf', 'actorDirectory', 'answers', 'carryOver'],
    files: /extract\/(graph-resolution|draft)\.ts|structure\/coreference\.ts|ingest\/commit\.ts/,
  },
  { part: 'store: merge and checks', functions: ['mergeWrites', 'mergeNodes', 'checkEdges', 'mergeEdges', 'changesOf', 'checkWrites'], files: /store\/(merge|validate|ids|shared-parts)\.ts/ },
  { part: 'store: encode and LevelDB batch', functions: ['commitGraph'], files: /store\/(record-codec|keys|level-backend)\.ts|classic-level|abstract-level/ },
  { part: 'store: apply to the in-memory graph', functions: ['applyToIndex', 'prepareInSlices', 'whileApplying'], files: /store\/(graph-index|adjacency|graph-changes|record-table|id-table|graph-cache)\.ts/ },
  { part: 'store: graph meta reads', functions: ['graphExists', 'getGraphMeta', 'loadGraph'], files: /store\// },
  { part: 'reading files and hashing', functions: ['readSource', 'checkText'], files: /ingest\/source\.ts/ },
  // a draft's JSON parsed where the pool's call resumes (symbolic/pool.ts draftFile, draft.ts readDraftMessage)
  { part: 'pool messages (drafts received and parsed, tasks sent)', functions: ['readDraftMessage', 'draftFile'], files: /piscina|node:internal\/worker/ },
];

/** The part (PARTS, else GC, idle, the rest) each leaf of a profile's tree belongs to, read off its stack. */
function partsOf(nodes: ProfileNode[]): { part: (leaf: number) => string; self: (leaf: number) => string } {
  const { byId, parent } = profileTree({ nodes });
  const partOf = new Map<number, string>();
  const part = (leaf: number): string => {
    const known = partOf.get(leaf);
    if (known) return known;
    const frames: ProfileNode['callFrame'][] = [];
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) frames.push(byId.get(id)!.callFrame);
    const names = new Set(frames.map((frame) => frame.functionName));
    const top = frames[0].functionName;
    const found =
      top === '(garbage collector)' ? 'garbage collection' :
      top === '(idle)' ? 'idle' :
      (PARTS.find(({ functions }) => functions.some((name) => names.has(name))) ?? frames.map((frame) => PARTS.find(({ files }) => files?.test(frame.url))).find(Boolean))?.part ?? 'the rest';
    partOf.set(leaf, found);
    return found;
  };
  const frameName = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) => `${functionName || '(anonymous)'} ${url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${lineNumber + 1}`;
  // a builtin (no file) is named with the function that called it: `next` or `split` alone says nothing of where
  const self = (leaf: number): string => {
    const { callFrame } = byId.get(leaf)!;
    const caller = parent.get(leaf);
    return callFrame.url === '' && caller !== undefined && byId.get(caller)!.callFrame.url !== '' ? `${frameName(callFrame)} in ${frameName(byId.get(caller)!.callFrame)}` : frameName(callFrame);
  };
  return { part, self };
}

/** Adds `amount` to `key`'s total in `into`. */
function tally(into: Map<string, number>, key: string, amount: number): void {
  into.set(key, (into.get(key) ?? 0) + amount);
}

/** Milliseconds per part (and GC, idle, the rest) of a profile's samples, and per function of their own (`selves`). */
function split(profile: Profile, into: Map<string, number>, selves: Map<string, number>): void {
  const { part, self } = partsOf(profile.nodes);
  profile.samples.forEach((sample, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    tally(into, part(sample), ms);
    tally(selves, self(sample), ms);
  });
}

/** A sampling heap profile's node (the inspector's HeapProfiler.SamplingHeapProfileNode). */
interface HeapProfileNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  children: HeapProfileNode[];
}

/** Bytes allocated per part of a sampling heap profile's samples (garbage too: the profile keeps what was collected), and per allocating function (`selves`). */
function splitAllocations(profile: { head: HeapProfileNode; samples: { size: number; nodeId: number }[] }, into: Map<string, number>, selves: Map<string, number>): void {
  const nodes: ProfileNode[] = [];
  const flatten = (node: HeapProfileNode): void => {
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((child) => child.id) });
    node.children.forEach(flatten);
  };
  flatten(profile.head);
  const { part, self } = partsOf(nodes);
  const known = new Set(nodes.map((node) => node.id));
  for (const { size, nodeId } of profile.samples) {
    // V8 may drop a sample's stack from the tree it returns (rare): its bytes still count, unplaced
    if (!known.has(nodeId)) {
      tally(into, '(no stack)', size);
      continue;
    }
    tally(into, part(nodeId), size);
    tally(selves, self(nodeId), size);
  }
}

/** A GC profile's entry (node:v8 GCProfiler): the heap's spaces before and after one collection. */
interface CollectionStatistics {
  gcType: string;
  beforeGC: { heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[] };
  afterGC: { heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[] };
}

/**
 * Bytes the main thread's scavenges promoted: what the old and large-object spaces gained across each.
 * What survives the young generation is copied again there: the bytes a commit keeps, at least for a
 * while (the records the graph holds, and the ones a later commit replaces), whatever the load.
 */
function promotedBytes(collections: readonly CollectionStatistics[]): number {
  const oldGeneration = (spaces: CollectionStatistics['afterGC']['heapSpaceStatistics']) =>
    spaces.filter(({ spaceName }) => spaceName === 'old_space' || spaceName === 'large_object_space').reduce((sum, space) => sum + space.spaceUsedSize, 0);
  return collections.filter(({ gcType }) => gcType === 'Scavenge').reduce((sum, { beforeGC, afterGC }) => sum + oldGeneration(afterGC.heapSpaceStatistics) - oldGeneration(beforeGC.heapSpaceStatistics), 0);
}

/** The main thread's CPU milliseconds so far (Linux; NaN elsewhere). */
function mainThreadMs(): number {
  return threadCpu()?.get(String(process.pid)) ?? NaN;
}

/**
 * A pipeline whose draftFile answers at once with the draft the pool made of the same file, as
 * the pool's message (--replay): every file drafted once by `pipeline`, committed into a copy of
 * the seed at `dir`, each draft kept as draftMessage wrote it in the worker.
 */
async function replaying(pipeline: ExtractionPipeline, dir: string, options: Parameters<typeof ingestFolder>[2]): Promise<ExtractionPipeline> {
  const recorded = new Map<string, RecordedDraft>();
  const recording: ExtractionPipeline = {
    ...pipeline,
    draftFile: async (folder, source, settings) => {
      const file = await pipeline.draftFile!(folder, source, settings);
      recorded.set(source, recordedDraft(fileDraftMessage(file), file, settings.names));
      return file;
    },
  };
  await cp(path.join(base, 'seed'), dir, { recursive: true });
  const store = await ParleyStore.open(dir);
  try {
    await ingestFolder({ store, pipeline: recording }, CORPUS, options);
  } finally {
    await store.close();
  }
  return { ...pipeline, draftFile: async (_folder, source, settings) => readFileDraftMessage(replayedMessage(recorded.get(source)!, settings.names)) };
}

/**
 * A draft as the first pass's worker sent it, with what that worker read of the batch's log of names
 * (known-names.ts): the log's text up to the draft's position, and the message cut around that position.
 */
interface RecordedDraft {
  message: string;
  against?: { text: string; before: string; after: string };
}

function recordedDraft(message: string, file: FileDraft, names: KnownNamesRef | undefined): RecordedDraft {
  const against = file.kind === 'read' ? file.draft?.questions.against : undefined;
  if (!against || !names || names.generation !== against.generation) return { message };
  const field = positionField(against);
  const at = message.indexOf(field);
  if (at < 0 || message.indexOf(field, at + 1) >= 0) return { message };
  return { message, against: { text: logText(names, against.bytes), before: message.slice(0, at), after: message.slice(at + field.length) } };
}

/**
 * The message a worker would send now: a draft is made from the text and the log as the worker reads
 * it, so where the log holds now exactly what the first pass's worker read, the draft is the same but
 * for the log's generation, which is the replay's. Elsewhere the recorded message, whose position the
 * thread that commits does not know: it asks the draft's names again (sameDirectoryAnswers), as it
 * would for a draft made against another log.
 */
function replayedMessage(recorded: RecordedDraft, names: KnownNamesRef | undefined): string {
  const { against } = recorded;
  if (!against || !names) return recorded.message;
  const written = Atomics.load(new Int32Array(names.buffer, 0, 1), 0);
  if (written !== Buffer.byteLength(against.text) || logText(names, written) !== against.text) return recorded.message;
  replayedAtPosition++;
  return against.before + positionField({ generation: names.generation, bytes: written }) + against.after;
}

/** Drafts the replay handed with their log position as the replay's own (replayedMessage). */
let replayedAtPosition = 0;

function positionField(position: KnownNamesPosition): string {
  return `"against":${JSON.stringify(position)}`;
}

/** The entries of a log of names (known-names.ts: after its 8-byte header) up to `bytes`. */
function logText(names: KnownNamesRef, bytes: number): string {
  return Buffer.from(names.buffer, 8, bytes).toString('utf8');
}

tierUpForBatch();
const base = await mkdtemp(path.join(tmpdir(), 'parley-bench-batch-profile-'));
const session = new Session();
const { pipeline } = await openExtractionPipeline({ symbolicWorkers: WORKERS });
try {
  const seeded = await ParleyStore.open(path.join(base, 'seed'));
  if (INTO_FACTS > 0) await writeInChunks(seeded, 'batch', generate(INTO_FACTS).write);
  await seeded.close();
  const corpus = await Promise.all((await listCorpus(ORIGINAL)).map((source) => readSource(ORIGINAL, source)));
  for (let pass = 0; pass < 2; pass++) await Promise.all(corpus.map((document) => pipeline.draft({ text: document.text, source: document.source }, { tier: 'full' })));
  const batchOptions = { tenant: 'bench', graphId: 'batch', workers: WORKERS, readAhead: Number(args['read-ahead']), gather: Number(args.gather) };
  const ingesting = REPLAY ? await replaying(pipeline, path.join(base, 'recorded'), batchOptions) : pipeline;
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  if (ALLOCATIONS) await session.post('HeapProfiler.enable');
  const allocated = new Map<string, number>();
  const allocators = new Map<string, number>();
  const parts = new Map<string, number>();
  const selves = new Map<string, number>();
  let documents = 0;
  let mainMs = 0;
  // the main thread's collections while the rounds ingest: how many a document costs is what it allocates, whatever the load
  const collections = { minor: 0, major: 0 };
  let collecting = false;
  const gcObserver = new PerformanceObserver((list) => {
    if (!collecting) return;
    for (const entry of list.getEntries()) {
      if ((entry as PerformanceEntry & { detail?: { kind: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) collections.minor++;
      else collections.major++;
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const roundsMs: number[] = [];
  /** Bytes the scavenges promoted per document, by round. */
  const promoted: number[] = [];
  /** What the replicas' deltas carried per document, by round (--replicas), and whether the replicas equalled the store (--check-replicas). */
  const deltas: DeltasHeard[] = [];
  const replicasEqual: boolean[] = [];
  /** The snapshots each follower built, by round (--check-replicas): 1 when the deltas kept its replica in step. */
  const snapshotsBuilt: number[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dir = path.join(base, `round-${round}`);
    await cp(path.join(base, 'seed'), dir, { recursive: true });
    const store = await ParleyStore.open(dir);
    const source = REPLICAS > 0 ? new ReplicaSource(store, `batch-profile-${process.pid}-${round}`) : undefined;
    const followers = source && new ReplicaFollowers(source.channelName, REPLICAS);
    try {
      // the graph in memory before the clock starts, as in a server that holds it
      if (INTO_FACTS > 0) await store.loadGraph('bench', 'batch');
      // the workers hold the graph's replica from the batch's first commit (or before it, when generated), as a server's do once a task named it
      let following: Promise<unknown> | undefined;
      await followers?.ready;
      if (source && INTO_FACTS > 0) await followers!.follow((await source.current('bench', 'batch')).at);
      else if (source) {
        following = new Promise<void>((resolve) => {
          const stop = store.onChange(() => {
            stop();
            resolve();
          });
        }).then(async () => followers!.follow((await source.current('bench', 'batch')).at));
      }
      if (ALLOCATIONS) await session.post('HeapProfiler.startSampling', { samplingInterval: ALLOCATION_SAMPLING_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      else if (!UNSAMPLED) await session.post('Profiler.start');
      collecting = true;
      const gcProfiler = new GCProfiler();
      gcProfiler.start();
      const cpuBefore = mainThreadMs();
      const summary = await ingestFolder({ store, pipeline: ingesting }, CORPUS, batchOptions);
      const roundMs = mainThreadMs() - cpuBefore;
      mainMs += roundMs;
      promoted.push(promotedBytes((gcProfiler.stop()?.statistics ?? []) as unknown as CollectionStatistics[]) / summary.ingested);
      // V8 sends each sample with its size and node (the protocol's `samples`), which Node's types leave out
      if (ALLOCATIONS) splitAllocations((await session.post('HeapProfiler.stopSampling')).profile as unknown as Parameters<typeof splitAllocations>[0], allocated, allocators);
      else if (!UNSAMPLED) split((await session.post('Profiler.stop')).profile as Profile, parts, selves);
      if (summary.failures.length > 0) throw new Error(`failures: ${JSON.stringify(summary.failures)}`);
      documents += summary.ingested;
      collecting = false;
      roundsMs.push(roundMs / summary.ingested);
      if (source) {
        // said now: the workers may take long to hear every delta (5e03357's whole lists at 5,120 documents: minutes)
        console.log(`round ${round}: main thread CPU ${(roundMs / summary.ingested).toFixed(3)} ms per document (unsampled: ${UNSAMPLED})`);
        await following;
        const { at, graph } = await source.current('bench', 'batch');
        const heard = await followers!.heard(at);
        deltas.push({ messages: heard.messages / summary.ingested, bytes: heard.bytes / summary.ingested, records: heard.records / summary.ingested, provenanceEntries: heard.provenanceEntries / summary.ingested });
        if (args['check-replicas']) {
          const expected = recordsDigest(graph);
          const followed = await followers!.followed(at);
          replicasEqual.push(followed.every(({ digest }) => digest === expected));
          snapshotsBuilt.push(followed.map(({ snapshots }) => snapshots));
        }
      }
      if (round === ROUNDS - 1) {
        let longest = 0;
        for (const node of (await store.loadGraph('bench', 'batch')).nodes.values()) longest = Math.max(longest, node.provenance.length);
        console.log(`the batch's longest provenance list: ${longest} entries`);
      }
    } finally {
      await followers?.close();
      source?.close();
      await store.close();
    }
  }
  parts.delete('idle');
  const busy = [...parts.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`bench:batch-profile${REPLAY ? ' --replay' : ''}  corpus ${args.corpus}${COPIES > 1 ? ` ${COPIES} times over` : ''} into a graph of ${INTO_FACTS} facts, pool of ${WORKERS} workers, ${args['read-ahead']} read ahead per worker, commits waiting for ${args.gather}, ${ROUNDS} rounds (${documents} documents); cores ${availableParallelism()}, load ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  gcObserver.disconnect();
  if (UNSAMPLED) console.log(`main thread CPU per document by round (unsampled): ${roundsMs.map((ms) => ms.toFixed(3)).join(' ')}`);
  console.log(`main thread collections per 100 documents: ${((100 * collections.minor) / documents).toFixed(1)} minor, ${((100 * collections.major) / documents).toFixed(1)} major and incremental`);
  if (REPLICAS > 0) {
    const perDocument = (heard: DeltasHeard) => `${(heard.bytes / 1024).toFixed(1)} KB, ${heard.records.toFixed(1)} records, ${heard.provenanceEntries.toFixed(1)} provenance entries (${heard.messages.toFixed(2)} messages)`;
    console.log(`replica deltas per document (${REPLICAS} workers following), serialised, by round: ${deltas.map(perDocument).join('; ')}`);
    if (args['check-replicas']) {
      console.log(`replicas equal the store's graph after each round: ${replicasEqual.map((equal) => (equal ? 'yes' : 'NO')).join(' ')}`);
      const kept = snapshotsBuilt.every((counts) => counts.every((count) => count === 1));
      console.log(`snapshots each follower built, by round: ${snapshotsBuilt.map((counts) => counts.join(',')).join('; ')} (${kept ? 'yes' : 'NO'}: one each, the deltas kept every replica)`);
      if (!kept || replicasEqual.includes(false)) process.exitCode = 1;
    }
  }
  console.log(`main thread promoted by its scavenges, by round: ${promoted.map((bytes) => `${(bytes / 1024).toFixed(1)} KB`).join(' ')} per document`);
  if (!UNSAMPLED && !ALLOCATIONS) console.log(`main thread sampled busy ${(busy / documents).toFixed(2)} ms per document (slowed by sampling every ${SAMPLING_US} µs: read the shares)`);
  if (REPLAY) console.log(`replayed: the main thread alone took ${(mainMs / documents).toFixed(2)} ms of CPU per document, ${UNSAMPLED || ALLOCATIONS ? 'CPU unsampled' : 'sampled'} (the first pass drafted every file once; ${replayedAtPosition} of ${documents} drafts handed at the replay's own position in the log of names)`);
  const print = ([name, ms]: [string, number]) => console.log(`${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${(ms / documents).toFixed(2).padStart(6)} ms/document  ${name}`);
  [...parts].sort((a, b) => b[1] - a[1]).forEach(print);
  if (ALLOCATIONS) {
    const total = [...allocated.values()].reduce((sum, bytes) => sum + bytes, 0);
    console.log(`main thread allocated ${(total / documents / 1024).toFixed(1)} KB per document (sampled every ${ALLOCATION_SAMPLING_BYTES} bytes, collected objects included), by part:`);
    const printBytes = ([name, bytes]: [string, number]) => console.log(`${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${(bytes / documents / 1024).toFixed(1).padStart(6)} KB/document  ${name}`);
    [...allocated].sort((a, b) => b[1] - a[1]).forEach(printBytes);
    if (TOP > 0) {
      console.log(`the ${TOP} functions that allocate the most:`);
      [...allocators].sort((a, b) => b[1] - a[1]).slice(0, TOP).forEach(printBytes);
    }
  }
  if (TOP > 0 && !UNSAMPLED && !ALLOCATIONS) {
    console.log(`the ${TOP} functions with the most self time:`);
    selves.delete('(idle) :0');
    [...selves].sort((a, b) => b[1] - a[1]).slice(0, TOP).forEach(print);
  }
} finally {
  session.disconnect();
  await pipeline.close();
  await rm(base, { recursive: true, force: true });
  if (COPIES > 1) await rm(CORPUS, { recursive: true, force: true });
}
