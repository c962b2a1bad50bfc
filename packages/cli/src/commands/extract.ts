import type { Command } from 'commander';
import { output, readInput, tellCreatedGraph, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('extract')
    .description("extract actors, claims, events, locations and edges from a text file (or '-' for standard input), merging them into the workspace's graph")
    .argument('<file>', "a text file, or '-' for standard input")
    .requiredOption('-w, --workspace <id>', 'the workspace')
    .option('--no-commit', 'only show what would be extracted')
    .option('--source <name>', 'the name provenance gives the document (default: the file name)')
    .option('--date <YYYY-MM-DD>', 'when the document was written')
    .action(async (file: string, options: { workspace: string; commit: boolean; source?: string; date?: string }, command: Command) => {
      const text = await readInput(file);
      await withClient(command, async (client) => {
        const source = options.source ?? (file === '-' ? undefined : file);
        const result = await client.extract(options.workspace, {
          text,
          commit: options.commit,
          ...(source ? { source } : {}),
          ...(options.date ? { document_date: options.date } : {}),
        });
        if (result.graph_created) await tellCreatedGraph(client, result.graph_id);
        output(command, result, () => {
          const lines = [`${result.committed ? 'merged into' : 'not committed to'} graph ${result.graph_id} (${result.extractor.rules}${result.extractor.model ? `, ${result.extractor.model}` : ''})`];
          for (const kind of ['actors', 'claims', 'events', 'locations', 'issues'] as const) {
            const names = result[kind].map((node) => String(node.label ?? (node as { text?: string }).text ?? node.id));
            lines.push(`${kind}: ${names.length}${names.length ? `  ${names.join('; ')}` : ''}`);
          }
          lines.push(`edges: ${result.edges.length}`);
          return lines.join('\n');
        });
      });
    });
}
