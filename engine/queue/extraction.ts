import { DelayedError, FlowProducer, PRIORITY_LIMIT, UnrecoverableError, Worker, type IQueueBackend, type Job, type QueueEvents } from 'bullmq';
import { TooLargeError, ValidationError } from '../errors.ts';
import { checkText, sha256Of, type CheckedText } from '../extract/pipeline.ts';
import { commitDrafts, draftAhead, type AddedCounts, type CommitContext, type DocumentToExtract, type DraftedDocument } from '../ingest/commit.ts';
import { tierForGraph } from '../ingest/ingest.ts';
import type { DocumentDraft } from '../extract/pipeline.ts';
import { extractionEvents, extractionJobs, queueConnection, type ExtractionJobs } from './connection.ts';
import { DEFAULT_QUEUE_SETTINGS, EXTRACTION_QUEUE } from './settings.ts';

/**
 * Extraction fanned out over a BullMQ queue: one job per document under a parent job for the
 * corpus (a flow), taken by `parley worker` processes on any machine, each committing to the
 * shared store. Delivery is at least once (a job whose worker died is run again), so a job
 * is idempotent: a document the graph holds (its Document node, id from its text's hash)
 * adds nothing.
 *
 * Commits keep the corpus's path order, as analyze-corpus in one process does: extraction
 * resolves each document against the graph as the documents before it left it, so the
 * order decides which actor a name lands on. Workers draft in parallel (reading and
 * structuring, the costly part) and each commits once the document before it is settled
 * (committed, or failed for good), against the graph at that document's revision. A job
 * waiting for a document not yet taken (one retried, or one a dead worker held) gives its
 * place back (delayed, its draft kept in this process) rather than hold it: otherwise the
 * waiting jobs could fill every worker's places while the one they wait for waits for a place.
 * A job's priority is its place in the corpus, so a free place takes the earliest document
 * ready: a job a dead worker held comes back at the end of the queue's order, and without
 * priorities the later jobs, given back and taken again in turn, kept it waiting for good.
 */

/** How long a job waits for the document before it, not yet taken by any worker, before it gives its place back. */
const GIVE_BACK_AFTER_MS = 1_000;
/** How soon a job that gave its place back is taken again. */
const TAKE_AGAIN_AFTER_MS = 250;
/** How long a job waits for its store to reach the revision the document before it committed. */
const REACH_REVISION_MS = 60_000;
/** Drafts kept for jobs that gave their places back (one document each; a job taken elsewhere drafts again). */
const KEPT_DRAFTS = 64;

export interface DocumentJobData {
  tenant: string;
  graphId: string;
  source: string;
  text: string;
  title?: string;
  /** The job of the document before this one in the corpus's order: it commits first. */
  after: string | null;
}

export interface DocumentJobResult {
  source: string;
  status: 'ingested' | 'skipped';
  sentences?: number;
  added?: AddedCounts;
  /** The graph's revision once this document was in it: the next document's commit reads the graph at it. */
  revision: number;
}

export interface CorpusJobData {
  tenant: string;
  graphId: string;
  documents: number;
}

/** The corpus's outcome: each document job's result, and each failed one's error, by job id. */
export interface CorpusJobResult {
  results: Record<string, DocumentJobResult>;
  failures: Record<string, string>;
}

/** A document of a corpus, read where the corpus is (workers receive its text). */
export interface QueuedDocument {
  source: string;
  text: string;
  title?: string;
  /** checkText's result for the text, when the caller has it already: its hash is not computed again. */
  checked?: CheckedText;
}

/** The graph's part of its jobs' ids: a hash, as tenants and graph names may hold '.' and BullMQ ids no ':'. */
function graphPart(tenant: string, graphId: string): string {
  return sha256Of(`${tenant}\u0000${graphId}`).slice(0, 16);
}

/** A document job's id: its graph's part and its text's content hash, so the same document enqueued again for the same graph is the same job. */
export function documentJobId(tenant: string, graphId: string, text: string, checked?: CheckedText): string {
  return `${graphPart(tenant, graphId)}.${checked?.text === text ? checked.sha256 : sha256Of(text)}`;
}

/** A BullMQ key for a job (`queue:id`) back to the id. */
function jobIdOfKey(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

export interface EnqueuedCorpus {
  parentId: string;
  /** Each document's job, in the order given (documents with the same text share one). */
  jobIds: string[];
  /** The flow was there already (a rerun): nothing was added. */
  resumed: boolean;
}

/**
 * Puts a corpus on the queue: one job per distinct document (in the order given, each after
 * the one before it) under a parent for the corpus whose id names its documents, so the same
 * corpus enqueued again finds its flow and adds nothing.
 */
export async function enqueueCorpus(
  url: string,
  tenant: string,
  graphId: string,
  documents: readonly QueuedDocument[],
  settings: { attempts?: number; backoffMs?: number } = {},
): Promise<EnqueuedCorpus> {
  const jobIds = documents.map((document) => documentJobId(tenant, graphId, document.text, document.checked));
  const parentId = `corpus.${graphPart(tenant, graphId)}.${sha256Of(jobIds.join('\n'))}`;
  const connection = queueConnection(url);
  const queue = extractionJobs(connection);
  const flows = new FlowProducer({ connection: connection.connection }, connection.backend);
  try {
    if (await queue.getJob(parentId)) return { parentId, jobIds, resumed: true };
    const keep = { age: DEFAULT_QUEUE_SETTINGS.keepSeconds };
    const children: { name: string; queueName: string; data: DocumentJobData; opts: object }[] = [];
    let after: string | null = null;
    const seen = new Set<string>();
    documents.forEach((document, i) => {
      if (seen.has(jobIds[i])) return;
      seen.add(jobIds[i]);
      children.push({
        name: 'document',
        queueName: EXTRACTION_QUEUE,
        data: { tenant, graphId, source: document.source, text: document.text, ...(document.title ? { title: document.title } : {}), after },
        opts: {
          jobId: jobIds[i],
          priority: Math.min(children.length + 1, PRIORITY_LIMIT),
          attempts: settings.attempts ?? DEFAULT_QUEUE_SETTINGS.attempts,
          backoff: { type: 'exponential', delay: settings.backoffMs ?? DEFAULT_QUEUE_SETTINGS.backoffMs },
          // a failed document lets the corpus finish: the parent lists it with its error
          ignoreDependencyOnFailure: true,
          removeOnComplete: keep,
          removeOnFail: keep,
        },
      });
      after = jobIds[i];
    });
    const data: CorpusJobData = { tenant, graphId, documents: children.length };
    await flows.add({ name: 'corpus', queueName: EXTRACTION_QUEUE, data, opts: { jobId: parentId, attempts: settings.attempts ?? DEFAULT_QUEUE_SETTINGS.attempts, removeOnComplete: keep, removeOnFail: keep }, children });
    return { parentId, jobIds, resumed: false };
  } finally {
    await flows.close();
    await queue.close();
  }
}

export type DocumentOutcome = { result: DocumentJobResult } | { error: string };

/** The result BullMQ hands back: parsed already on one backend, JSON text on another. */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * Follows a corpus's flow until its parent job completes: `onDocument` once per document job
 * as it finishes (those finished before this call first: a resumed run counts them), then
 * the corpus's outcome and how long it took from its enqueueing to its end.
 */
export async function followCorpus(
  url: string,
  enqueued: EnqueuedCorpus,
  onDocument: (jobId: string, outcome: DocumentOutcome) => void,
): Promise<CorpusJobResult & { ms: number }> {
  const connection = queueConnection(url);
  const queue = extractionJobs(connection);
  const events = extractionEvents(connection);
  const ours = new Set(enqueued.jobIds);
  const seen = new Set<string>();
  const report = (jobId: string, outcome: DocumentOutcome) => {
    if (!ours.has(jobId) || seen.has(jobId)) return;
    seen.add(jobId);
    onDocument(jobId, outcome);
  };
  try {
    events.on('completed', ({ jobId, returnvalue }) => report(jobId, { result: parsed<DocumentJobResult>(returnvalue) }));
    events.on('failed', ({ jobId, failedReason }) => report(jobId, { error: failedReason }));
    await events.waitUntilReady();
    const parent = await queue.getJob(enqueued.parentId);
    if (!parent) throw new Error(`the corpus's job ${enqueued.parentId} is not on the queue (removed?)`);
    const reportAll = ({ results, failures }: CorpusJobResult) => {
      for (const [jobId, result] of Object.entries(results)) report(jobId, { result });
      for (const [jobId, error] of Object.entries(failures)) report(jobId, { error });
    };
    reportAll(await corpusOutcome(parent)); // what finished before the events were followed
    const outcome = parsed<CorpusJobResult>(await parent.waitUntilFinished(events));
    reportAll(outcome);
    // a job that had completed for an earlier corpus is not run again for this one: its document was in the graph already
    for (const jobId of enqueued.jobIds.filter((id) => !seen.has(id))) {
      const earlier = await queue.getJob(jobId);
      const result: DocumentJobResult = { source: (earlier?.data as DocumentJobData | undefined)?.source ?? '', status: 'skipped', revision: earlier?.returnvalue ? parsed<DocumentJobResult>(earlier.returnvalue).revision : 0 };
      outcome.results[jobId] = result;
      report(jobId, { result });
    }
    const finished = await queue.getJob(enqueued.parentId);
    return { ...outcome, ms: Math.max(0, (finished?.finishedOn ?? Date.now()) - parent.timestamp) };
  } finally {
    await events.close();
    await queue.close();
  }
}

export interface ExtractionWorkerSettings {
  /** Documents this process works on at once (drafting in the pipeline's pools, or waiting for their turn to commit). */
  concurrency: number;
  rateLimitPerMinute?: number;
  lockMs?: number;
  /** Told of each document job this worker finished: its result, or its error when it failed (for good or to be tried again). */
  onDocument?: (source: string, outcome: DocumentOutcome) => void;
}

export interface ExtractionWorker {
  /** Resolves once the worker is connected and taking jobs. */
  ready: Promise<void>;
  /** Stops taking jobs and waits for the ones it holds to finish. */
  close(): Promise<void>;
}

/** Takes document jobs and commits each through `context`'s store (the shared database). */
export function startExtractionWorker(url: string, context: CommitContext, settings: ExtractionWorkerSettings): ExtractionWorker {
  const connection = queueConnection(url);
  const queue = extractionJobs(connection);
  const drafts = new Map<string, Promise<DocumentDraft>>();
  const settled = new SettledJobs(extractionEvents(connection));
  const lockMs = settings.lockMs ?? DEFAULT_QUEUE_SETTINGS.lockMs;
  const rate = settings.rateLimitPerMinute ?? DEFAULT_QUEUE_SETTINGS.rateLimitPerMinute;
  const worker = new Worker(
    EXTRACTION_QUEUE,
    async (job: Job, token?: string) => {
      if (job.name === 'corpus') return corpusOutcome(job);
      return extractDocument(context, queue, settled, drafts, job as Job<DocumentJobData>, token);
    },
    {
      connection: connection.connection,
      concurrency: settings.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      ...(rate > 0 ? { limiter: { max: rate, duration: 60_000 } } : {}),
    },
    connection.backend,
  );
  if (settings.onDocument) {
    const told = settings.onDocument;
    worker.on('completed', (job, result) => {
      if (job.name === 'document') told((job.data as DocumentJobData).source, { result: result as DocumentJobResult });
    });
    worker.on('failed', (job, error) => {
      if (job?.name === 'document') told((job.data as DocumentJobData).source, { error: error.message });
    });
  }
  // a lost connection is retried by BullMQ; said on stderr rather than thrown from an emitter
  worker.on('error', (error) => process.stderr.write(`parley worker: ${error.message}\n`));
  return {
    ready: Promise.all([worker.waitUntilReady(), settled.events.waitUntilReady()]).then(() => undefined),
    async close() {
      await worker.close();
      await settled.events.close();
      await queue.close();
    },
  };
}

async function corpusOutcome(job: Job): Promise<CorpusJobResult> {
  const results: Record<string, DocumentJobResult> = {};
  const failures: Record<string, string> = {};
  for (const [key, value] of Object.entries(await job.getChildrenValues())) results[jobIdOfKey(key)] = parsed<DocumentJobResult>(value);
  for (const [key, reason] of Object.entries(await job.getIgnoredChildrenFailures())) failures[jobIdOfKey(key)] = reason;
  return { results, failures };
}

/**
 * A document's own fault (bad text, too large): trying again cannot help, so its job fails at
 * once. Anything else (the store busy or unreachable, a limit of the moment) is tried again.
 */
function unrecoverable(error: unknown): Error {
  const documentsFault = error instanceof ValidationError || error instanceof TooLargeError;
  return documentsFault ? new UnrecoverableError(`${error.message} (${error.code})`) : (error as Error);
}

/** What failed a document's job, from the failure text BullMQ keeps: `message (code)` for the document's own fault (unrecoverable), else the error's message. */
export function documentFailure(failure: string): { code: string; reason: string } {
  const coded = /^(.*) \(([a-z_]+)\)$/s.exec(failure);
  return coded ? { code: coded[2], reason: coded[1] } : { code: 'extraction_failed', reason: failure };
}

async function extractDocument(
  context: CommitContext,
  queue: ExtractionJobs,
  settled: SettledJobs,
  drafts: Map<string, Promise<DocumentDraft>>,
  job: Job<DocumentJobData>,
  token: string | undefined,
): Promise<DocumentJobResult> {
  const { tenant, graphId, source, text, title } = job.data;
  const document: DocumentToExtract = { text, source, ...(title ? { title } : {}) };
  let tier;
  try {
    document.checked = checkText(text);
    tier = await tierForGraph(context.store, tenant, graphId);
  } catch (error) {
    throw unrecoverable(error);
  }
  let draft = drafts.get(job.id!);
  if (!draft) {
    draft = draftAhead(context, document, tier);
    // a failed draft is not kept: the retry drafts again
    draft.catch(() => drafts.delete(job.id!));
    drafts.set(job.id!, draft);
    while (drafts.size > KEPT_DRAFTS) drafts.delete(drafts.keys().next().value!);
  }
  let drafted: DraftedDocument;
  try {
    drafted = { ...document, draft: await draft };
  } catch (error) {
    throw unrecoverable(error);
  }
  const revision = await awaitTurn(queue, settled, job, token);
  drafts.delete(job.id!);
  if (revision > 0) await context.store.reachRevision(tenant, graphId, revision, REACH_REVISION_MS);
  const [outcome] = await commitDrafts(context, tenant, graphId, [drafted], { tier });
  if ('error' in outcome) throw unrecoverable(outcome.error);
  const { committed } = outcome;
  const now = await context.store.graphRevision(tenant, graphId);
  return committed.already_ingested
    ? { source, status: 'skipped', revision: now }
    : { source, status: 'ingested', sentences: committed.extraction.stats.sentences, added: committed.added!, revision: now };
}

/**
 * Waits until the documents before `job` are settled; the revision the last committed one
 * left the graph at (0: none). Gives the job's place back (DelayedError) when the document
 * it waits for stays untaken.
 */
async function awaitTurn(queue: ExtractionJobs, settled: SettledJobs, job: Job<DocumentJobData>, token: string | undefined): Promise<number> {
  let after = job.data.after;
  let untakenSince: number | undefined;
  for (let pause = 5; after !== null; pause = Math.min(pause * 2, 200)) {
    const before = await queue.getJob(after);
    // gone: finished long ago (kept for DEFAULT_QUEUE_SETTINGS.keepSeconds)
    if (!before) return 0;
    const state = await before.getState();
    if (state === 'completed') return parsed<DocumentJobResult>(before.returnvalue).revision;
    if (state === 'failed') {
      // failed for good, perhaps before its own turn: wait for the one before it
      after = (before.data as DocumentJobData).after;
      continue;
    }
    if (state === 'active') untakenSince = undefined;
    else if ((untakenSince ??= Date.now()) + GIVE_BACK_AFTER_MS < Date.now()) {
      await job.moveToDelayed(Date.now() + TAKE_AGAIN_AFTER_MS, token);
      throw new DelayedError();
    }
    await settled.next(after, pause);
  }
  return 0;
}

/**
 * Wakes the jobs waiting for their turn as soon as the job they wait for completes or fails
 * (the queue's events), rather than at their next look: the commits of a corpus are a chain,
 * and each link's wait adds to every document after it. The look stays, in case an event is
 * missed (a reconnection).
 */
class SettledJobs {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(readonly events: QueueEvents<unknown, IQueueBackend, unknown>) {
    const wake = ({ jobId }: { jobId: string }) => {
      for (const resolve of this.waiting.get(jobId) ?? []) resolve();
      this.waiting.delete(jobId);
    };
    events.on('completed', wake);
    events.on('failed', wake);
    events.on('error', () => undefined);
  }

  /** Resolves when `jobId` settles, or after `ms` at the latest. */
  async next(jobId: string, ms: number): Promise<void> {
    let resolve!: () => void;
    const woken = new Promise<void>((done) => (resolve = done));
    const waiters = this.waiting.get(jobId) ?? new Set();
    waiters.add(resolve);
    this.waiting.set(jobId, waiters);
    const timer = setTimeout(resolve, ms);
    await woken;
    clearTimeout(timer);
    waiters.delete(resolve);
    if (waiters.size === 0 && this.waiting.get(jobId) === waiters) this.waiting.delete(jobId);
  }
}
