import type { Command } from 'commander';
import { output, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('conflicts')
    .description('list the separate conflicts of a graph, each named by its main parties and places (its id scopes assess and analyze: --conflict)')
    .argument('<graph>', 'the graph id')
    .action(async (graph: string, _options: object, command: Command) => {
      await withClient(command, async (client) => {
        const result = await client.graphs.conflicts(graph);
        output(command, result, () =>
          result.conflicts.map((conflict) => `${conflict.id}  ${conflict.name}: ${conflict.actors.length} actors, ${conflict.events} events, ${conflict.claims} claims${conflict.first ? `, ${conflict.first} to ${conflict.last}` : ''}`).join('\n') || 'no conflict found',
        );
      });
    });
}
