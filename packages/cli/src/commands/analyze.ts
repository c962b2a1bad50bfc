import type { Command } from 'commander';
import { output, withClient } from '../context.ts';
import { evidenceLines, idsCited } from '../evidence.ts';
import { addScopeOptions, scopeOf, type ScopeOptions } from '../scope-options.ts';

export function register(program: Command): void {
  addScopeOptions(program
    .command('analyze'))
    .description('answer a question about the conflict with the frameworks it concerns, citing evidence')
    .argument('<workspace>', 'the workspace id')
    .argument('<question>', 'a question in plain language')
    .option('--frameworks <ids>', 'comma-separated framework ids')
    .option('--full', 'one sentence per finding instead of the short answer')
    .action(async (workspace: string, question: string, options: ScopeOptions & { frameworks?: string; full?: boolean }, command: Command) => {
      const scope = scopeOf(options);
      await withClient(command, async (client) => {
        const result = await client.analyze(workspace, {
          query: question,
          ...(options.frameworks ? { frameworks: options.frameworks.split(',').map((id) => id.trim()) } : {}),
          ...(options.full ? { detail: 'full' as const } : {}),
          ...(scope ? { scope } : {}),
        });
        output(command, result, () => {
          // the ids the answer cites, each with the words and source it rests on
          const evidence = evidenceLines(idsCited(result.answer), result.citations);
          const readings = options.full ? [] : result.readings.map((reading) => `  ${reading.summary}`);
          return [
            result.answer,
            ...(evidence.length ? ['', 'Evidence:', ...evidence] : []),
            ...(readings.length ? ['', 'Readings:', ...readings] : []),
          ].join('\n');
        });
      });
    });
}
