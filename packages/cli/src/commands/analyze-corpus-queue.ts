import { stat } from 'node:fs/promises';
import path from 'node:path';
import { checkText } from '@parley/engine/extract/pipeline.ts';
import { batchFailure, batchSummary, listCorpus, type BatchDocument } from '@parley/engine/ingest/batch.ts';
import { readSource } from '@parley/engine/extract/source.ts';
import { documentFailure, enqueueCorpus, followCorpus, type DocumentOutcome, type QueuedDocument } from '@parley/engine/queue/extraction.ts';
import { isPostgresUrl } from '@parley/engine/store/store.ts';
import { loadConfig } from '@parley/server/config.ts';
import { openStore } from '@parley/server/open.ts';
import { EXIT } from '../exit.ts';
import type { AnalyzeCorpusOptions } from './analyze-corpus-options.ts';
import { printSummary, progressReporter, writeReport } from './analyze-corpus-run.ts';

/**
 * `parley analyze-corpus <dir> --queue <url>`: the documents are read here and put on the
 * queue as one flow (engine/queue/extraction.ts); `parley worker` processes extract and
 * commit them into the shared store; this command follows the flow and writes the report
 * when it completes. Stopped and run again, it finds its flow and follows it on.
 */

export async function analyzeCorpusOnQueue(dir: string, queue: string, options: AnalyzeCorpusOptions): Promise<number> {
  const folder = path.resolve(dir);
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) {
    console.error(`analyze-corpus: ${dir} is not a folder`);
    return EXIT.usage;
  }
  const config = loadConfig();
  if (!isPostgresUrl(config.store)) {
    console.error('analyze-corpus: --queue needs a store the workers share: set PARLEY_STORE=postgres://… here and for every worker');
    return EXIT.usage;
  }
  const sources = await listCorpus(folder);
  const unread = new Map<number, BatchDocument>();
  const documents: (QueuedDocument & { index: number })[] = [];
  for (const [index, source] of sources.entries()) {
    try {
      const read = await readSource(folder, source);
      const checked = checkText(read.text);
      documents.push({ index, source: read.source, text: read.text, checked, ...(read.title ? { title: read.title } : {}) });
    } catch (error) {
      unread.set(index, batchFailure(source, error));
    }
  }
  const enqueued = await enqueueCorpus(queue, options.tenant, options.graph, documents, { attempts: config.queueAttempts });
  console.log(`analyze-corpus: ${enqueued.resumed ? 'following the flow enqueued before' : 'enqueued'} (${new Set(enqueued.jobIds).size} document jobs, corpus job ${enqueued.parentId})`);

  // each job's documents in path order: the first is the job's, the others (the same text) are skipped
  const byJob = new Map<string, number[]>();
  enqueued.jobIds.forEach((jobId, i) => {
    const indexes = byJob.get(jobId);
    if (indexes) indexes.push(documents[i].index);
    else byJob.set(jobId, [documents[i].index]);
  });
  const outcomes: (BatchDocument | undefined)[] = sources.map((_, index) => unread.get(index));
  const progress = progressReporter(options.progress);
  progress.start(sources.length);
  let done = 0;
  let sentences = 0;
  const settle = (index: number, document: BatchDocument) => {
    outcomes[index] = document;
    sentences += document.sentences ?? 0;
    progress.update({ done: ++done, total: sources.length, sentences, document });
  };
  for (const [index, document] of unread) settle(index, document);
  const onDocument = (jobId: string, outcome: DocumentOutcome) => {
    const [first, ...same] = byJob.get(jobId) ?? [];
    if (first === undefined) return;
    settle(first, 'error' in outcome
      ? { source: sources[first], status: 'failed', ...documentFailure(outcome.error) }
      : { source: sources[first], status: outcome.result.status, ...(outcome.result.sentences !== undefined ? { sentences: outcome.result.sentences, added: outcome.result.added! } : {}) });
    for (const index of same) settle(index, { source: sources[index], status: 'skipped' });
  };

  const interrupted = new Promise<'interrupted'>((resolve) => process.once('SIGINT', () => resolve('interrupted')));
  const followed = await Promise.race([followCorpus(queue, enqueued, onDocument), interrupted]);
  progress.stop();
  if (followed === 'interrupted') {
    console.log('interrupted: the workers go on with the flow; run the same command again to follow it and write the report');
    return EXIT.interrupted;
  }
  const summary = batchSummary(outcomes.filter((document) => document !== undefined), sources.length, sentences, followed.ms, false);
  printSummary(summary);
  if (options.report) {
    const store = await openStore(config);
    try {
      const written = await writeReport(store, config, dir, options, summary);
      if (written !== EXIT.ok) return written;
    } finally {
      await store.close();
    }
  }
  return summary.failures.length > 0 ? EXIT.partial : EXIT.ok;
}
