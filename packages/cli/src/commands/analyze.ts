import type { Command } from 'commander';
import { output, withClient } from '../context.ts';
import { addScopeOptions, scopeOf, type ScopeOptions } from '../scope-options.ts';

export function register(program: Command): void {
  addScopeOptions(program
    .command('analyze'))
    .description('answer a question about the conflict with the frameworks it concerns, citing evidence')
    .argument('<workspace>', 'the workspace id')
    .argument('<question>', 'a question in plain language')
    .option('--frameworks <ids>', 'comma-separated framework ids')
    .action(async (workspace: string, question: string, options: ScopeOptions & { frameworks?: string }, command: Command) => {
      const scope = scopeOf(options);
      await withClient(command, async (client) => {
        const result = await client.analyze(workspace, {
          query: question,
          ...(options.frameworks ? { frameworks: options.frameworks.split(',').map((id) => id.trim()) } : {}),
          ...(scope ? { scope } : {}),
        });
        output(command, result, () => result.answer);
      });
    });
}
