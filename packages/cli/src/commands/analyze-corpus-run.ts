import { mkdir, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { openExtractionPipeline } from '@parley/engine/extract/pipeline.ts';
import { ingestFolder, tierUpForBatch, type BatchProgress, type BatchSummary } from '@parley/engine/ingest/batch.ts';
import { assessGraph } from '@parley/engine/reason/assess.ts';
import { ReasoningPool } from '@parley/engine/reason/pool.ts';
import { extractionOptions, frameworkLimits, loadConfig, reasoningOptions, type ParleyConfig } from '@parley/server/config.ts';
import type { ParleyStore } from '@parley/engine/store/store.ts';
import { openStore } from '@parley/server/open.ts';
import { EXIT } from '../exit.ts';
import { buildCorpusReport } from '../report/corpus-report.ts';
import { renderReportHtml } from '../report/html.ts';
import type { AnalyzeCorpusOptions, ProgressMode } from './analyze-corpus-options.ts';

/**
 * What `parley analyze-corpus` does, loaded only when the command runs: the extraction
 * pipeline, the store and the reasoning pool it imports cost seconds of start-up that
 * every other command (and --help) would otherwise pay.
 */

/** Progress as a bar (a terminal), one line per document (logs), or nothing. */
export function progressReporter(mode: ProgressMode): { start(total: number): void; update(progress: BatchProgress): void; stop(): void } {
  const resolved = mode === 'auto' ? (process.stdout.isTTY ? 'bar' : 'none') : mode;
  const started = performance.now();
  const rate = (sentences: number) => (sentences / Math.max(0.001, (performance.now() - started) / 1000)).toFixed(1);
  if (resolved === 'bar') {
    const bar = new cliProgress.SingleBar(
      { format: '{bar} {value}/{total} documents | {rate} sentences/s | ETA {eta_formatted} | {source}', hideCursor: true, stream: process.stdout, etaBuffer: 8 },
      cliProgress.Presets.shades_classic,
    );
    return {
      start: (total) => bar.start(total, 0, { rate: '0.0', source: '' }),
      update: (progress) => bar.update(progress.done, { rate: rate(progress.sentences), source: progress.document.source }),
      stop: () => bar.stop(),
    };
  }
  if (resolved === 'lines') {
    return {
      start: (total) => console.log(`analyze-corpus: ${total} documents`),
      update: ({ done, total, sentences, document }) =>
        console.log(`[${done}/${total}] ${document.status} ${document.source}${document.status === 'failed' ? `: ${document.reason}` : ''} (${rate(sentences)} sentences/s)`),
      stop: () => undefined,
    };
  }
  return { start: () => undefined, update: () => undefined, stop: () => undefined };
}

export function printSummary(summary: BatchSummary): void {
  const seconds = summary.ms / 1000;
  console.log(
    `${summary.total} documents: ${summary.ingested} ingested, ${summary.skipped} skipped (already in the graph), ${summary.failures.length} failed; `
      + `${summary.sentences} sentences in ${seconds.toFixed(1)} s (${(summary.ingested / Math.max(seconds, 0.001)).toFixed(2)} documents/s, ${(summary.sentences / Math.max(seconds, 0.001)).toFixed(1)} sentences/s)`,
  );
  if (summary.failures.length > 0) {
    console.log('failed:');
    for (const failure of summary.failures) console.log(`  ${failure.source}: ${failure.reason} (${failure.code})`);
  }
}

export async function analyzeCorpus(dir: string, options: AnalyzeCorpusOptions): Promise<number> {
  const folder = path.resolve(dir);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) {
    console.error(`analyze-corpus: ${dir} is not a folder`);
    return EXIT.usage;
  }
  tierUpForBatch();
  const config = loadConfig();
  const store = await openStore(config);
  const workers = options.workers ?? config.symbolicWorkers;
  const { pipeline } = await openExtractionPipeline({ ...extractionOptions(config), ...(workers !== undefined ? { symbolicWorkers: workers } : {}) });
  const stop = new AbortController();
  const onSigint = () => {
    // the first Ctrl-C lets the current commit finish; a second one leaves at once (commits are atomic either way)
    if (stop.signal.aborted) process.exit(EXIT.interrupted);
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const progress = progressReporter(options.progress);
    const summary = await ingestFolder({ store, pipeline }, folder, {
      tenant: options.tenant,
      graphId: options.graph,
      workers: workers ?? availableParallelism(),
      signal: stop.signal,
      onStart: (total) => progress.start(total),
      onDocument: (event) => progress.update(event),
    });
    progress.stop();
    printSummary(summary);
    if (summary.interrupted) {
      console.log(`interrupted: what was committed stays; run the same command again to resume`);
      return EXIT.interrupted;
    }
    if (options.report) {
      const written = await writeReport(store, config, dir, options, summary);
      if (written !== EXIT.ok) return written;
    }
    return summary.failures.length > 0 ? EXIT.partial : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
    await pipeline.close();
    await store.close();
  }
}

/** Assesses the graph and writes report.json and report.html for a batch's summary. */
export async function writeReport(store: ParleyStore, config: ParleyConfig, dir: string, options: AnalyzeCorpusOptions, summary: BatchSummary): Promise<number> {
  if (!(await store.graphExists(options.tenant, options.graph))) {
    console.error(`analyze-corpus: nothing was ingested into graph '${options.graph}', so there is nothing to report`);
    return EXIT.failure;
  }
  const reasoning = await ReasoningPool.open(store, reasoningOptions(config));
  try {
    const assessed = await assessGraph(reasoning, options.tenant, options.graph, {
      trajectory: { period: options.period },
      byConflict: true,
      limits: frameworkLimits(config),
    });
    const graph = await store.loadGraph(options.tenant, options.graph);
    const report = buildCorpusReport(graph, options.graph, dir, summary, assessed);
    const out = path.resolve(options.out);
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    await writeFile(path.join(out, 'report.html'), renderReportHtml(report));
    console.log(`report: ${path.join(out, 'report.html')} and report.json`);
    return EXIT.ok;
  } finally {
    await reasoning.close();
  }
}
