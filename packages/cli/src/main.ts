import { Command, CommanderError, Option } from 'commander';
import { ParleyConnectionError, ParleyError, ParleyQueryError } from '@parley/client';
import { register as analyze } from './commands/analyze.ts';
import { register as analyzeCorpus } from './commands/analyze-corpus.ts';
import { register as assess } from './commands/assess.ts';
import { register as correct } from './commands/correct.ts';
import { register as conflicts } from './commands/conflicts.ts';
import { register as extract } from './commands/extract.ts';
import { register as ingest } from './commands/ingest.ts';
import { register as keys } from './commands/keys.ts';
import { register as query } from './commands/query.ts';
import { register as serve } from './commands/serve.ts';
import { register as transfer } from './commands/transfer.ts';
import { register as workspaces } from './commands/workspaces.ts';
import { register as worker } from './commands/worker.ts';
import { EXIT } from './exit.ts';

/** Statuses a later try may get past: busy, overloaded, timed out (a proxy's included). */
const RETRYABLE = new Set([408, 429, 502, 503, 504]);

/** The exit code for a command's error (exit.ts); a 500 is the server's fault, not worth retrying, so a failure. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof ParleyError) {
    if (error.status === 404) return EXIT.notFound;
    if (error.status === 401 || error.status === 403) return EXIT.denied;
    if (RETRYABLE.has(error.status)) return EXIT.unavailable;
    if (error.status >= 500) return EXIT.failure;
    return EXIT.invalid;
  }
  if (error instanceof ParleyConnectionError) return EXIT.unavailable;
  return EXIT.failure;
}

function describe(error: unknown): string {
  if (error instanceof ParleyQueryError) return `parley: ${error.detail} (${error.code}${error.field ? `, in ${error.field}` : ''}, line ${error.line}, column ${error.column})`;
  if (error instanceof ParleyError) return `parley: ${error.detail} (${error.status} ${error.code})`;
  return `parley: ${error instanceof Error ? error.message : String(error)}`;
}

function createProgram(startServer: () => Promise<void>): Command {
  const program = new Command('parley')
    .description('conflict analysis knowledge graph: embedded (the store in PARLEY_DATA_DIR) or against a server (--url)')
    .addOption(new Option('--url <url>', 'the server; without it the store is opened here').env('PARLEY_URL'))
    .addOption(new Option('--api-key <key>', 'the API key for --url').env('PARLEY_API_KEY'))
    .addOption(new Option('--tenant <tenant>', 'embedded mode: whose data to use').env('PARLEY_TENANT').default('default'))
    .option('--json', 'print JSON instead of text')
    .showHelpAfterError()
    .exitOverride(); // before the commands are added: they inherit it
  // one line per command file; each registers its commands with their options and --help
  serve(program, startServer);
  for (const register of [workspaces, query, extract, ingest, assess, analyze, analyzeCorpus, keys, transfer, correct, conflicts, worker]) register(program);
  return program;
}

async function main(argv: string[], startServer: () => Promise<void>): Promise<number> {
  try {
    await createProgram(startServer).parseAsync(argv);
    // a command that finished with something to say (partial, interrupted) set process.exitCode
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`${describe(error)}\n`);
    return exitCodeOf(error);
  }
}

/** The `parley` command (bin/parley.mjs); `startServer` starts the server for `parley serve`. */
export async function run(startServer: () => Promise<void>): Promise<void> {
  let serving = false;
  const code = await main(process.argv, async () => {
    serving = true;
    await startServer();
  });
  // a server started keeps running: its process ends on SIGINT/SIGTERM (server/main.ts)
  if (!serving || code !== EXIT.ok) process.exit(code);
}
