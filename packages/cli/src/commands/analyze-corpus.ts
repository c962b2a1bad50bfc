import { Command, InvalidArgumentError, Option } from 'commander';
import { PERIODS } from '@parley/engine/reason/period.ts';
import { validateName } from '@parley/engine/store/validate.ts';
import { EXIT } from '../exit.ts';
import { queueUrl, wholeNumber } from './worker-options.ts';
import { PROGRESS_MODES, type AnalyzeCorpusOptions } from './analyze-corpus-options.ts';

/**
 * `parley analyze-corpus <dir> --graph <id>`: batch ingest of a folder into a graph in
 * the local store (PARLEY_DATA_DIR, opened directly: no server), then report.json and
 * report.html. Stopping it (Ctrl-C, or a killed process) loses nothing committed; the
 * next run skips what the graph holds.
 */

function graphName(value: string): string {
  try {
    validateName('graph_id', value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

export function register(program: Command): void {
  program
    .command('analyze-corpus')
    .description('ingest every .txt, .md and .html document under a folder into a graph (resumable: documents the graph holds are skipped), then write report.json and report.html')
    .argument('<dir>', 'folder of documents (walked recursively; README files and hidden entries are left out)')
    .requiredOption('-g, --graph <id>', 'graph to ingest into (created when missing)', graphName)
    .option('-o, --out <dir>', 'folder for report.json and report.html', 'report')
    .option('-w, --workers <n>', 'symbolic-layer worker threads (default: PARLEY_SYMBOLIC_WORKERS, else one per core)', wholeNumber(1))
    .addOption(new Option('--period <period>', 'period of the escalation trajectory').choices(PERIODS).default('month'))
    .addOption(new Option('--progress <mode>', 'progress display: a bar when stdout is a terminal (auto), one line per document, or none').choices(PROGRESS_MODES).default('auto'))
    .option('--no-report', 'ingest only; write no report')
    .addOption(new Option('--queue <url>', 'fan the documents out over this queue (redis:// or postgres://) to `parley worker` processes, which commit into the shared PARLEY_STORE; this command follows the flow and writes the report').argParser(queueUrl))
    .addHelpText('after', `
The store is opened directly in PARLEY_DATA_DIR (default ./data); no server is needed,
and none may have the store open; the graph belongs to --tenant. Exit codes: 0 done;
1 error; 2 bad arguments; 7 done, but some documents failed (listed with reasons);
130 interrupted (Ctrl-C): run the same command again to resume.`)
    .action(async (dir: string, options: Omit<AnalyzeCorpusOptions, 'tenant'> & { queue?: string }, command: Command) => {
      const globals = command.optsWithGlobals<{ tenant: string; url?: string }>();
      if (globals.url) {
        process.stderr.write('parley: analyze-corpus opens the store in PARLEY_DATA_DIR itself; it does not run against --url\n');
        process.exitCode = EXIT.usage;
        return;
      }
      if (options.queue) {
        const { analyzeCorpusOnQueue } = await import('./analyze-corpus-queue.ts');
        process.exitCode = await analyzeCorpusOnQueue(dir, options.queue, { ...options, tenant: globals.tenant });
        return;
      }
      const { analyzeCorpus } = await import('./analyze-corpus-run.ts');
      process.exitCode = await analyzeCorpus(dir, { ...options, tenant: globals.tenant });
    });
}
