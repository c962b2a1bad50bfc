import { readdir } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { failureOf, TooLargeError, ValidationError } from '../errors.ts';
import { knownDocuments } from '../extract/draft.ts';
import { checkedInWorker, checkText, documentIdOf, type CheckedText } from '../extract/checked-text.ts';
import { KnownNamesLog } from '../extract/known-names.ts';
import { commitDrafts, draftAhead, knownEntries, type AddedCounts, type DraftedDocument, type CommitContext, type DocumentToExtract } from './commit.ts';
import { tierForGraph } from './ingest.ts';
import { readSource, SUPPORTED_EXTENSIONS, type SourceDocument } from '../extract/source.ts';

/**
 * Batch ingest of a folder: every supported document under it, in path order,
 * extracted through the pipeline's worker pools and committed to one graph.
 *
 * Resumable by content: a document whose text the graph already holds (its Document
 * node, id from the SHA-256 of the text, written in the same atomic batch as
 * everything extracted from it) is skipped, so a run stopped at any point (SIGINT or
 * SIGKILL) and started again commits each document exactly once. Documents are read
 * and structured ahead in the worker pools (drafts: the costly, graph-independent
 * part) but resolved against the graph and committed in path order, each against the
 * graph as the documents before it left it, so an interrupted and resumed run builds
 * the same graph as an uninterrupted one.
 */

/**
 * Documents read ahead per worker: enough to keep the pool busy while the main thread
 * commits, and to let the commits take several drafts in one batch when they fall behind.
 */
export const READ_AHEAD_PER_WORKER = 4;
/** The most a batch may be told to read ahead per worker (each draft held is a document's text and graph in memory). */
export const MAX_READ_AHEAD_PER_WORKER = 64;
/**
 * V8's tier-up budget (bytecode executed between a function's optimisation checks) for a
 * process that runs a batch: 16 times V8's default of 67,584. A batch runs a large,
 * varied body of code (the NLP library, the symbolic layer, structuring, the store) in fresh
 * worker isolates, and at the default V8 hands so much of it to its optimising compiler
 * that the compiler threads took as much CPU as the symbolic workers themselves (measured on
 * the sample corpus: 15-33 ms of compiling per document beside 17-34 ms in the symbolic
 * workers). At this budget only the code that stays hot is optimised: 2-5 ms of compiling
 * per document, the workers' own CPU per document about the same (within the shared
 * machines' noise), and 30-40% less CPU per document in all, which on a machine with few
 * cores is what leaves room for a second worker (bench/batch).
 */
export const BATCH_INTERRUPT_BUDGET = 16 * 67_584;

/**
 * Sets BATCH_INTERRUPT_BUDGET for the whole process (V8 flags are per process, so every
 * isolate, the main thread's too, tiers up at it). For processes that exist to run a batch
 * (`parley analyze-corpus`, bench/batch); the server keeps V8's default.
 */
export function tierUpForBatch(): void {
  v8.setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
}

/** Files a folder walk lists at most (a larger corpus is refused before any work: split it). */
export const MAX_BATCH_DOCUMENTS = 100_000;

export type BatchStatus = 'ingested' | 'skipped' | 'failed';

export interface BatchDocument {
  /** The path under the folder, with '/' separators: the source name provenance records carry. */
  source: string;
  status: BatchStatus;
  /** Sentences read (ingested documents). */
  sentences?: number;
  added?: AddedCounts;
  /** Why a document failed: the error's code and message. */
  code?: string;
  reason?: string;
}

export interface BatchProgress {
  done: number;
  total: number;
  sentences: number;
  document: BatchDocument;
}

export interface BatchOptions {
  tenant: string;
  graphId: string;
  /** Threads of the pipeline's symbolic pool: how many documents to read ahead is a multiple of it. */
  workers: number;
  /** Documents read ahead per worker, 1 to MAX_READ_AHEAD_PER_WORKER (READ_AHEAD_PER_WORKER when absent). */
  readAhead?: number;
  /**
   * Drafts a commit waits for before it starts, at most the documents read ahead (1 when absent: a
   * commit takes the next draft and every one ready behind it). Where the main thread keeps up with
   * the workers (few cores) its commits take a few drafts each; on many cores the drafts wait for it
   * and each commit takes all that are ready. Waiting for more lets a bench on few cores commit as
   * many cores would (bench/batch --gather), at the cost of the first commit's latency.
   */
  gather?: number;
  /** Called once the folder is listed, before any document is read. */
  onStart?: (total: number) => void;
  onDocument?: (progress: BatchProgress) => void;
  /** Stops the batch between commits; what is committed stays. */
  signal?: AbortSignal;
}

export interface BatchSummary {
  total: number;
  ingested: number;
  skipped: number;
  failures: { source: string; code: string; reason: string }[];
  sentences: number;
  ms: number;
  /** True when the signal stopped the batch before every document was seen. */
  interrupted: boolean;
  documents: BatchDocument[];
}

function isCorpusFile(name: string): boolean {
  // a folder's README describes the corpus; it is not part of it
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(path.extname(name).toLowerCase()) && !/^readme\./i.test(name);
}

/** The supported documents under `dir` (hidden entries left out), as sorted '/'-separated relative paths. */
export async function listCorpus(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (relative.some((part) => part.startsWith('.')) || !isCorpusFile(entry.name)) continue;
    files.push(relative.join('/'));
  }
  if (files.length > MAX_BATCH_DOCUMENTS) {
    throw new TooLargeError('corpus_too_large', `${dir} holds ${files.length} documents; a batch takes at most ${MAX_BATCH_DOCUMENTS}: split the folder`, { limit: MAX_BATCH_DOCUMENTS });
  }
  return files.sort();
}

type Prepared =
  | { kind: 'known'; source: string }
  | { kind: 'drafted'; document: DraftedDocument }
  | { kind: 'failed'; failure: BatchDocument };

/** A document that could not be read or extracted, with its error's code and message. */
export function batchFailure(source: string, error: unknown): BatchDocument {
  return { source, status: 'failed', ...failureOf(error) };
}

export async function ingestFolder(context: CommitContext, dir: string, options: BatchOptions): Promise<BatchSummary> {
  const started = performance.now();
  const { tenant, graphId } = options;
  const sources = await listCorpus(dir);
  options.onStart?.(sources.length);
  const tier = await tierForGraph(context.store, tenant, graphId);
  const graph = (await context.store.graphExists(tenant, graphId)) ? await context.store.loadGraph(tenant, graphId) : undefined;

  // where the pipeline can, a symbolic worker reads, checks, hashes and drafts each file, and this
  // thread (which commits, in order) only receives it; the graph's documents as they were at the
  // start tell the workers which they need not draft, and this thread checks them against the graph
  const { draftFile } = context.pipeline;
  const known = draftFile && knownDocuments(graph?.nodesWithLabel('Document') ?? []);
  // and its actors' names and memberships, with those the commits add, so that a draft is made against the documents before it (known-names.ts)
  const names = draftFile && new KnownNamesLog(graph ? knownEntries(graph) : []);
  const readHere = async (source: string): Promise<SourceDocument & { checked: CheckedText }> => {
    const read = await readSource(dir, source);
    return { ...read, checked: checkText(read.text) };
  };
  const prepare = async (source: string): Promise<Prepared> => {
    try {
      const file = draftFile ? await draftFile(dir, source, { tier, known: known!, names: names!.shared }) : undefined;
      if (file?.kind === 'failed') return { kind: 'failed', failure: { source, status: 'failed', code: file.code, reason: file.reason } };
      const read = file ? { ...file, checked: checkedInWorker(file) } : await readHere(source);
      if (graph?.node(documentIdOf(read.checked.sha256))) return { kind: 'known', source };
      const document: DocumentToExtract = { text: read.text, source: read.source, checked: read.checked, ...(read.title ? { title: read.title } : {}) };
      return { kind: 'drafted', document: { ...document, draft: file?.draft ?? (await draftAhead(context, document, tier)) } };
    } catch (error) {
      return { kind: 'failed', failure: batchFailure(source, error) };
    }
  };

  const documents: BatchDocument[] = [];
  let sentences = 0;
  const report = (result: BatchDocument) => {
    sentences += result.sentences ?? 0;
    documents.push(result);
    options.onDocument?.({ done: documents.length, total: sources.length, sentences, document: result });
  };
  const window: { prepared: Promise<Prepared>; ready: boolean }[] = [];
  const lookahead = Math.max(1, options.workers) * boundedSetting('readAhead', options.readAhead ?? READ_AHEAD_PER_WORKER, MAX_READ_AHEAD_PER_WORKER);
  const gather = boundedSetting('gather', options.gather ?? 1, lookahead);
  let next = 0;
  const fill = () => {
    while (window.length < lookahead && next < sources.length) {
      const slot = { prepared: prepare(sources[next++]), ready: false };
      void slot.prepared.then(() => (slot.ready = true));
      window.push(slot);
    }
  };
  fill();
  while (window.length > 0 && !options.signal?.aborted) {
    // the next document, and every one after it that is ready too: drafts that wait on the
    // commits go in together, so the commits keep up with the workers
    const run = [await window.shift()!.prepared];
    while (window.length > 0 && (window[0].ready || run.length < gather)) run.push(await window.shift()!.prepared);
    fill();
    for (let i = 0; i < run.length; ) {
      const prepared = run[i];
      if (prepared.kind !== 'drafted') {
        report(prepared.kind === 'known' ? { source: prepared.source, status: 'skipped' } : prepared.failure);
        i++;
        continue;
      }
      const drafted: DraftedDocument[] = [];
      for (; i < run.length && run[i].kind === 'drafted'; i++) drafted.push((run[i] as { document: DraftedDocument }).document);
      const outcomes = await commitDrafts(context, tenant, graphId, drafted, { tier, ...(names ? { knownNames: names } : {}) });
      outcomes.forEach((outcome, k) => {
        const { source } = drafted[k];
        if ('error' in outcome) return report(batchFailure(source, outcome.error));
        // a document whose text appeared earlier in this batch under another name is known by now
        const { committed } = outcome;
        report(committed.already_ingested ? { source, status: 'skipped' } : { source, status: 'ingested', sentences: committed.extraction.stats.sentences, added: committed.added! });
      });
    }
  }
  // drafts still in flight after an interruption finish in the pool before the batch returns
  await Promise.allSettled(window.map((slot) => slot.prepared));

  return batchSummary(documents, sources.length, sentences, Math.round(performance.now() - started), documents.length < sources.length);
}

/** `value` when it is a whole number from 1 to `max`; else a usage error naming `setting`. */
function boundedSetting(setting: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new ValidationError('invalid_batch_setting', `batch: ${setting} must be a whole number from 1 to ${max}, got ${value}`, { field: setting, limit: max });
  return value;
}

/** The summary of a batch from what became of its documents. */
export function batchSummary(documents: BatchDocument[], total: number, sentences: number, ms: number, interrupted: boolean): BatchSummary {
  return {
    total,
    ingested: documents.filter((document) => document.status === 'ingested').length,
    skipped: documents.filter((document) => document.status === 'skipped').length,
    failures: documents.filter((document) => document.status === 'failed').map(({ source, code, reason }) => ({ source, code: code!, reason: reason! })),
    sentences,
    ms,
    interrupted,
    documents,
  };
}
