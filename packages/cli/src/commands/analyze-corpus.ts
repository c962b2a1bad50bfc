import { mkdir, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import { openExtractionPipeline } from '../../../../engine/extract/pipeline.ts';
import { ingestFolder, tierUpForBatch, type BatchProgress, type BatchSummary } from '../../../../engine/ingest/batch.ts';
import { assessGraph } from '../../../../engine/reason/assess.ts';
import { buildCorpusReport } from '../../../../engine/reason/corpus-report.ts';
import { ReasoningPool } from '../../../../engine/reason/pool.ts';
import { PERIODS, type Period } from '../../../../engine/reason/tasks.ts';
import { validateName } from '../../../../engine/store/validate.ts';
import { extractionOptions, frameworkLimits, loadConfig, reasoningOptions } from '../../../../server/config.ts';
import { openStore } from '../../../../server/open.ts';
import { EXIT } from '../exit.ts';
import { renderReportHtml } from '../report/html.ts';

/**
 * `parley analyze-corpus <dir> --graph <id>`: batch ingest of a folder into a graph in
 * the local store (PARLEY_DATA_DIR, opened directly: no server), then report.json and
 * report.html. Stopping it (Ctrl-C, or a killed process) loses nothing committed; the
 * next run skips what the graph holds.
 */

const PROGRESS_MODES = ['auto', 'bar', 'lines', 'none'] as const;
type ProgressMode = (typeof PROGRESS_MODES)[number];

interface Options {
  graph: string;
  out: string;
  tenant: string;
  workers?: number;
  period: Period;
  progress: ProgressMode;
  report: boolean;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return number;
}

function graphName(value: string): string {
  try {
    validateName('graph_id', value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

/** Progress as a bar (a terminal), one line per document (logs), or nothing. */
function progressReporter(mode: ProgressMode): { start(total: number): void; update(progress: BatchProgress): void; stop(): void } {
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

function printSummary(summary: BatchSummary): void {
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

async function analyzeCorpus(dir: string, options: Options): Promise<number> {
  const folder = path.resolve(dir);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) {
    console.error(`analyze-corpus: ${dir} is not a folder`);
    return EXIT.usage;
  }
  tierUpForBatch();
  const config = loadConfig();
  const store = await openStore(config);
  const workers = options.workers ?? config.ruleWorkers;
  const { pipeline } = await openExtractionPipeline({ ...extractionOptions(config), ...(workers !== undefined ? { ruleWorkers: workers } : {}) });
  let reasoning: ReasoningPool | undefined;
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
      if (!(await store.graphExists(options.tenant, options.graph))) {
        console.error(`analyze-corpus: nothing was ingested into graph '${options.graph}', so there is nothing to report`);
        return EXIT.failure;
      }
      reasoning = await ReasoningPool.open(store, reasoningOptions(config));
      const assessed = await assessGraph(reasoning, options.tenant, options.graph, {
        trajectory: { period: options.period },
        limits: frameworkLimits(config),
      });
      const graph = await store.loadGraph(options.tenant, options.graph);
      const report = buildCorpusReport(graph, options.graph, dir, summary, assessed);
      const out = path.resolve(options.out);
      await mkdir(out, { recursive: true });
      await writeFile(path.join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
      await writeFile(path.join(out, 'report.html'), renderReportHtml(report));
      console.log(`report: ${path.join(out, 'report.html')} and report.json`);
    }
    return summary.failures.length > 0 ? EXIT.partial : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
    await reasoning?.close();
    await pipeline.close();
    await store.close();
  }
}

export function register(program: Command): void {
  program
    .command('analyze-corpus')
    .description('ingest every .txt, .md and .html document under a folder into a graph (resumable: documents the graph holds are skipped), then write report.json and report.html')
    .argument('<dir>', 'folder of documents (walked recursively; README files and hidden entries are left out)')
    .requiredOption('-g, --graph <id>', 'graph to ingest into (created when missing)', graphName)
    .option('-o, --out <dir>', 'folder for report.json and report.html', 'report')
    .option('-w, --workers <n>', 'rule-layer worker threads (default: PARLEY_RULE_WORKERS, else one per core)', positiveInteger)
    .addOption(new Option('--period <period>', 'period of the escalation trajectory').choices(PERIODS).default('month'))
    .addOption(new Option('--progress <mode>', 'progress display: a bar when stdout is a terminal (auto), one line per document, or none').choices(PROGRESS_MODES).default('auto'))
    .option('--no-report', 'ingest only; write no report')
    .addHelpText('after', `
The store is opened directly in PARLEY_DATA_DIR (default ./data); no server is needed,
and none may have the store open; the graph belongs to --tenant. Exit codes: 0 done;
1 error; 2 bad arguments; 7 done, but some documents failed (listed with reasons);
130 interrupted (Ctrl-C): run the same command again to resume.`)
    .action(async (dir: string, options: Omit<Options, 'tenant'>, command: Command) => {
      const globals = command.optsWithGlobals<{ tenant: string; url?: string }>();
      if (globals.url) {
        process.stderr.write('parley: analyze-corpus opens the store in PARLEY_DATA_DIR itself; it does not run against --url\n');
        process.exitCode = EXIT.usage;
        return;
      }
      process.exitCode = await analyzeCorpus(dir, { ...options, tenant: globals.tenant });
    });
}
