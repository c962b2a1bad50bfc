import type { Command } from 'commander';
import { output, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('analyze')
    .description('answer a question about the conflict with the frameworks it concerns, citing evidence')
    .argument('<workspace>', 'the workspace id')
    .argument('<question>', 'a question in plain language')
    .option('--frameworks <ids>', 'comma-separated framework ids')
    .action(async (workspace: string, question: string, options: { frameworks?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const result = await client.analyze(workspace, {
          query: question,
          ...(options.frameworks ? { frameworks: options.frameworks.split(',').map((id) => id.trim()) } : {}),
        });
        output(command, result, () => result.answer);
      });
    });
}
