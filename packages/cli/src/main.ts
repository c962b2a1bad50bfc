import { Command, CommanderError } from 'commander';
import { register as analyzeCorpus } from './commands/analyze-corpus.ts';
import { EXIT } from './exit.ts';

/** `parley`: the command line. Each command lives in commands/<name>.ts and registers itself. */
const program = new Command('parley')
  .description('parley: conflict-analysis knowledge graph (extraction, graph queries, framework reasoning)')
  .showHelpAfterError()
  .exitOverride();

analyzeCorpus(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end with code 0; anything else commander refuses is a usage error
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  throw error;
}
