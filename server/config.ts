import path from 'node:path';
import type { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { DEFAULT_MAX_FINDINGS, type RunLimits } from '../engine/frameworks/run.ts';
import type { QueryLimits } from '../engine/query/limits.ts';
import { DEFAULT_VIEW_FACTS } from '../engine/prolog/bridge.ts';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_PRELOAD_MAX_FACTS, DEFAULT_REASON_QUEUE, DEFAULT_REPLICA_GRAPHS, DEFAULT_VIEW_IMAGE_IDLE_MS, DEFAULT_WARM_FACTS, DEFAULT_WORKER_IDLE_MS, DEFAULT_WORKER_YOUNG_MB, MAX_CALL_TIMEOUT_MS, MAX_WORKER_YOUNG_MB, type ReasoningOptions } from '../engine/reason/pool.ts';
import { DEFAULT_VIEW_IMAGE_BYTES } from '../engine/reason/view-images.ts';
import { DEFAULT_SNAPSHOT_READ_BYTES } from '../engine/reason/replicas.ts';
import { DEFAULT_LIMITS, LIMIT_SETTINGS } from '../engine/query/limits.ts';
import { SHIPPED_NER_MODEL_DIR } from '../engine/extract/neural/model-dir.ts';
import { DEFAULT_CACHE_FACTS, DEFAULT_MIN_REVISION_WAIT_MS } from '../engine/store/store.ts';
import { ANSWER_SHAPER_URL } from './shape/query-answer.ts';
import { DEFAULT_QUEUE_SETTINGS } from '../engine/queue/settings.ts';

/**
 * Configuration from the environment, every limit with a safe default. docs/configuration.md
 * lists the same names, and test/docs checks that it does.
 */
export interface ParleyConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Where the records are kept: a PostgreSQL URL (postgres://…, several servers may share it), else the LevelDB directory dataDir/store. */
  store: string;
  /** How long a read naming a min_revision waits for this server to reach it (503 after). */
  minRevisionWaitMs: number;
  corporaDir: string;
  /** Supplies the admin key instead of generating one on first start. */
  adminKey?: string;
  /** Largest request body, in bytes (413 beyond). */
  bodyLimitBytes: number;
  /** Largest import body, in bytes: imports carry whole graphs. */
  importBodyLimitBytes: number;
  /** Wall-clock limit of one query or analysis (503 beyond). */
  queryTimeoutMs: number;
  /** Most rows one query may return (400 beyond: the client should add LIMIT). */
  queryRowLimit: number;
  /** Most elements of any one list a query builds: collect(), range(), comprehensions (400 beyond). */
  queryCollectionLimit: number;
  /** Largest query answer, in bytes of JSON, estimated while it is built (400 beyond). */
  queryResponseLimitBytes: number;
  /** Most Prolog inferences one query or analysis may run. */
  inferenceLimit: number;
  /** Per-actor findings one framework run keeps (the highest scores; the rest are counted in findings_omitted). */
  findingsLimit: number;
  /** Requests per key per minute (429 beyond); 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Requests per admin key per minute, apart from the tenants' limit; 0 = off. */
  adminRateLimitPerMinute: number;
  /** Requests without a key or with a wrong one, per source address per minute (429 beyond); 0 = off. */
  authFailuresPerMinute: number;
  /** Directory of a token-classification model (config.json, tokenizer.json, onnx/): PARLEY_NER_MODEL_DIR=shipped for the shipped one, a path for another; unset = symbolic layer only. */
  nerModelDir?: string;
  /** Directory of a text-classification or zero-shot model that re-types claims; unset = the symbolic layer types them. */
  claimModelDir?: string;
  /** Symbolic-layer worker threads; default one per core; 0 runs the symbolic layer on the event loop. */
  symbolicWorkers?: number;
  /** Symbolic-layer calls admitted at once (running or waiting for a worker); more are refused with 503. */
  symbolicMaxQueue: number;
  /** NER worker threads; default one per core. */
  nerWorkers?: number;
  /** NER calls admitted at once (running or waiting for a worker); more are refused with 503. */
  nerMaxQueue: number;
  /** Directories of third-party framework folders and plain .pl rule modules, loaded beside the 15 built-ins. */
  frameworkDirs: string[];
  /** Reasoning worker threads (queries, assess, analyze); default one per core. */
  reasonWorkers?: number;
  /** Queries and analyses admitted at once (running or waiting); more are refused with 503. */
  reasonMaxQueue: number;
  /** Milliseconds a reasoning worker with nothing to do lives before it stops (and its replicas and preloaded view with it). */
  reasonIdleMs: number;
  /** Wall-clock milliseconds one reasoning call (a query, an assess, an analysis) may take, its queueing and hand-overs included (PARLEY_REASON_CALL_TIMEOUT_MS). */
  reasonCallTimeoutMs: number;
  /** Graphs each reasoning worker keeps a replica of. */
  replicaGraphs: number;
  preloadMaxFacts: number;
  /** Facts of the graphs a restart loads and replicates in the background (PARLEY_WARM_FACTS; 0: none). */
  warmFacts: number;
  /** Facts of the graphs' views each reasoning worker's Prolog engine holds together (PARLEY_VIEW_FACTS). */
  viewFacts: number;
  /** Bytes the graphs' view images may take together beside their snapshots (PARLEY_VIEW_IMAGE_BYTES; 0: none). */
  viewImageBytes: number;
  /** How long a reasoning worker waits with no task before it makes a view image it was asked for (PARLEY_VIEW_IMAGE_IDLE_MS). */
  viewImageIdleMs: number;
  /** Bytes of graph snapshot files the reasoning workers read at once for their replicas (PARLEY_SNAPSHOT_READ_BYTES). */
  snapshotReadBytes: number;
  /** The most each reasoning worker's V8 young generation may take, in MB (PARLEY_HEAP_REASON_YOUNG_MB; 0: V8's own). */
  reasonYoungMb: number;
  /** Facts the store keeps loaded over all graphs (LRU beyond). */
  graphCacheFacts: number;
  /** Milliseconds a query may run on the event loop before it moves to a reasoning worker; 0 = always a worker. */
  queryInlineMs: number;
  /** The extraction queue (PARLEY_QUEUE): a redis:// or postgres:// URL; unset: none (health then says nothing of one). */
  queue?: string;
  /** Documents a `parley worker` process works on at once; default one per symbolic worker thread. */
  queueConcurrency?: number;
  /** Documents per minute taken over all workers; 0 = no limit. */
  queueRateLimitPerMinute: number;
  /** A worker's claim on a job; a dead worker's jobs are run again within about twice this. */
  queueLockMs: number;
  /** Tries per document before it ends in the failed list. */
  queueAttempts: number;
}

/** The extraction pipeline's options (openExtractionPipeline) from the configuration. */
export function extractionOptions(config: ParleyConfig): Parameters<typeof openExtractionPipeline>[0] {
  return {
    ...(config.nerModelDir ? { modelDir: config.nerModelDir } : {}),
    ...(config.nerWorkers !== undefined ? { workers: config.nerWorkers } : {}),
    maxQueue: config.nerMaxQueue,
    ...(config.claimModelDir ? { claimModelDir: config.claimModelDir } : {}),
    ...(config.symbolicWorkers !== undefined ? { symbolicWorkers: config.symbolicWorkers } : {}),
    symbolicMaxQueue: config.symbolicMaxQueue,
  };
}

/** The limits of one query, as the settings give them. */
export function queryLimits(config: ParleyConfig): Partial<QueryLimits> {
  return {
    timeLimitMs: config.queryTimeoutMs,
    rowCap: config.queryRowLimit,
    inferenceLimit: config.inferenceLimit,
    collectionLimit: config.queryCollectionLimit,
    responseBytes: config.queryResponseLimitBytes,
  };
}

/** The limits of one framework run (assess, analyze, the batch report): a query's time and inference limits, and the findings limit. */
export function frameworkLimits(config: ParleyConfig): RunLimits {
  return { inferenceLimit: config.inferenceLimit, timeLimitMs: config.queryTimeoutMs, maxFindings: config.findingsLimit };
}

/** The reasoning pool's settings (engine/reason/pool.ts) from the configuration. */
export function reasoningOptions(config: ParleyConfig): ReasoningOptions {
  return {
    ...(config.reasonWorkers !== undefined ? { workers: config.reasonWorkers } : {}),
    maxQueue: config.reasonMaxQueue,
    workerIdleMs: config.reasonIdleMs,
    callTimeoutMs: config.reasonCallTimeoutMs,
    frameworkDirs: config.frameworkDirs,
    maxGraphs: config.replicaGraphs,
    replicaFacts: config.graphCacheFacts,
    preloadMaxFacts: config.preloadMaxFacts,
    inlineBudgetMs: config.queryInlineMs,
    answerShaper: ANSWER_SHAPER_URL,
    catalogCache: path.join(config.dataDir, 'rule-catalog.json'),
    lastGraphFile: path.join(config.dataDir, 'last-preloaded-graph.json'),
    warmFacts: config.warmFacts,
    viewFacts: config.viewFacts,
    viewImageBytes: config.viewImageBytes,
    viewImageIdleMs: config.viewImageIdleMs,
    snapshotReadBytes: config.snapshotReadBytes,
    workerYoungMb: config.reasonYoungMb,
  };
}

/** A whole-number setting; `min` 1 for counts where 0 would mean nothing can run (worker pools, queues). */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Infinity): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  const range = max < Infinity ? `an integer from ${min} to ${max}` : min === 0 ? 'a non-negative integer' : `an integer of at least ${min}`;
  throw new Error(`${name} must be ${range} (got '${raw}')`);
}

/** Which of a setting's two names is set: `name`, else `former`, the deprecated name it replaces (read still; the new one wins). */
function settingName(env: NodeJS.ProcessEnv, name: string, former: string): string {
  return (env[name] === undefined || env[name] === '') && env[former] ? former : name;
}

/**
 * The neural layer is opt-in: `shipped` is the model in the repository, a path another model,
 * unset or `none` the symbolic layer alone. On the held-out sets the shipped model adds nothing
 * the symbolic layer does not find (issue 25: place span F1 0.853 → 0.840 on the held-out
 * documents, 0.901 → 0.897 on heldout-official), so it costs its warm-up for nothing by default.
 */
function nerModelDir(setting: string | undefined): { nerModelDir?: string } {
  if (!setting || setting === 'none') return {};
  return { nerModelDir: setting === 'shipped' ? SHIPPED_NER_MODEL_DIR : path.resolve(setting) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ParleyConfig {
  const nerWorkers = env.PARLEY_NER_WORKERS ? integer(env, 'PARLEY_NER_WORKERS', 1, 1) : undefined;
  const symbolicWorkers = settingName(env, 'PARLEY_SYMBOLIC_WORKERS', 'PARLEY_RULE_WORKERS');
  return {
    port: integer(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.PARLEY_DATA_DIR ?? './data'),
    store: env.PARLEY_STORE || path.join(path.resolve(env.PARLEY_DATA_DIR ?? './data'), 'store'),
    minRevisionWaitMs: integer(env, 'PARLEY_MIN_REVISION_WAIT_MS', DEFAULT_MIN_REVISION_WAIT_MS),
    corporaDir: path.resolve(env.PARLEY_CORPORA_DIR ?? './corpora'),
    ...(env.PARLEY_ADMIN_KEY ? { adminKey: env.PARLEY_ADMIN_KEY } : {}),
    bodyLimitBytes: integer(env, 'PARLEY_BODY_LIMIT_BYTES', 2 * 1024 * 1024),
    importBodyLimitBytes: integer(env, 'PARLEY_IMPORT_LIMIT_BYTES', 64 * 1024 * 1024),
    // the settings a limit error names (LIMIT_SETTINGS) and the engine's defaults
    queryTimeoutMs: integer(env, LIMIT_SETTINGS.timeLimitMs, DEFAULT_LIMITS.timeLimitMs),
    queryRowLimit: integer(env, LIMIT_SETTINGS.rowCap, DEFAULT_LIMITS.rowCap),
    queryCollectionLimit: integer(env, LIMIT_SETTINGS.collectionLimit, DEFAULT_LIMITS.collectionLimit),
    queryResponseLimitBytes: integer(env, LIMIT_SETTINGS.responseBytes, DEFAULT_LIMITS.responseBytes),
    inferenceLimit: integer(env, 'PARLEY_INFERENCE_LIMIT', DEFAULT_LIMITS.inferenceLimit),
    findingsLimit: integer(env, 'PARLEY_FINDINGS_LIMIT', DEFAULT_MAX_FINDINGS),
    rateLimitPerMinute: integer(env, 'PARLEY_RATE_LIMIT_PER_MINUTE', 600),
    adminRateLimitPerMinute: integer(env, 'PARLEY_ADMIN_RATE_LIMIT_PER_MINUTE', 6000),
    authFailuresPerMinute: integer(env, 'PARLEY_AUTH_FAILURES_PER_MINUTE', 100),
    ...nerModelDir(env.PARLEY_NER_MODEL_DIR),
    ...(env.PARLEY_CLAIM_MODEL_DIR ? { claimModelDir: path.resolve(env.PARLEY_CLAIM_MODEL_DIR) } : {}),
    ...(nerWorkers !== undefined ? { nerWorkers } : {}),
    ...(env[symbolicWorkers] ? { symbolicWorkers: integer(env, symbolicWorkers, 1) } : {}),
    symbolicMaxQueue: integer(env, settingName(env, 'PARLEY_SYMBOLIC_MAX_QUEUE', 'PARLEY_RULE_MAX_QUEUE'), 64, 1),
    nerMaxQueue: integer(env, 'PARLEY_NER_MAX_QUEUE', 64, 1),
    frameworkDirs: (env.PARLEY_FRAMEWORKS_DIR ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.resolve(dir)),
    ...(env.PARLEY_REASON_WORKERS ? { reasonWorkers: integer(env, 'PARLEY_REASON_WORKERS', 1, 1) } : {}),
    reasonMaxQueue: integer(env, 'PARLEY_REASON_MAX_QUEUE', DEFAULT_REASON_QUEUE, 1),
    reasonIdleMs: integer(env, 'PARLEY_REASON_IDLE_MS', DEFAULT_WORKER_IDLE_MS, 1),
    reasonCallTimeoutMs: integer(env, 'PARLEY_REASON_CALL_TIMEOUT_MS', DEFAULT_CALL_TIMEOUT_MS, 1, MAX_CALL_TIMEOUT_MS),
    replicaGraphs: integer(env, 'PARLEY_REPLICA_GRAPHS', DEFAULT_REPLICA_GRAPHS, 1),
    preloadMaxFacts: integer(env, 'PARLEY_PRELOAD_MAX_FACTS', DEFAULT_PRELOAD_MAX_FACTS),
    warmFacts: integer(env, 'PARLEY_WARM_FACTS', DEFAULT_WARM_FACTS),
    viewFacts: integer(env, 'PARLEY_VIEW_FACTS', DEFAULT_VIEW_FACTS),
    viewImageBytes: integer(env, 'PARLEY_VIEW_IMAGE_BYTES', DEFAULT_VIEW_IMAGE_BYTES),
    viewImageIdleMs: integer(env, 'PARLEY_VIEW_IMAGE_IDLE_MS', DEFAULT_VIEW_IMAGE_IDLE_MS),
    snapshotReadBytes: integer(env, 'PARLEY_SNAPSHOT_READ_BYTES', DEFAULT_SNAPSHOT_READ_BYTES),
    reasonYoungMb: integer(env, 'PARLEY_HEAP_REASON_YOUNG_MB', DEFAULT_WORKER_YOUNG_MB, 0, MAX_WORKER_YOUNG_MB),
    graphCacheFacts: integer(env, 'PARLEY_GRAPH_CACHE_FACTS', DEFAULT_CACHE_FACTS, 1),
    queryInlineMs: integer(env, 'PARLEY_QUERY_INLINE_MS', 10),
    ...(env.PARLEY_QUEUE ? { queue: env.PARLEY_QUEUE } : {}),
    ...(env.PARLEY_QUEUE_CONCURRENCY ? { queueConcurrency: integer(env, 'PARLEY_QUEUE_CONCURRENCY', 1, 1) } : {}),
    queueRateLimitPerMinute: integer(env, 'PARLEY_QUEUE_RATE_LIMIT_PER_MINUTE', DEFAULT_QUEUE_SETTINGS.rateLimitPerMinute),
    queueLockMs: integer(env, 'PARLEY_QUEUE_LOCK_MS', DEFAULT_QUEUE_SETTINGS.lockMs, 1),
    queueAttempts: integer(env, 'PARLEY_QUEUE_ATTEMPTS', DEFAULT_QUEUE_SETTINGS.attempts, 1),
  };
}
