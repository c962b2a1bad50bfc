import type { Command } from 'commander';
import { output, table, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('query')
    .description('run a graph query in the pattern language and print its rows as a table')
    .argument('<graph>', 'the graph id')
    .argument('<pattern>', 'the query, e.g. "MATCH (a:Actor)-[:ASSERTS]->(c:Claim) RETURN a.label, c.text"')
    .option('--provenance', 'include provenance (with --json)')
    .option('--params <json>', 'values of $name parameters, as a JSON object')
    .option('--as-of <instant>', 'see the graph as it was at this instant (ISO 8601)')
    .action(async (graph: string, pattern: string, options: { provenance?: boolean; params?: string; asOf?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const result = await client.query(graph, pattern, {
          ...(options.provenance ? { include_provenance: true } : {}),
          ...(options.params ? { parameters: JSON.parse(options.params) } : {}),
          ...(options.asOf ? { as_of: options.asOf } : {}),
        });
        for (const { title, position } of result.notifications ?? []) process.stderr.write(`parley: warning: ${title} (line ${position.line}, column ${position.column})\n`);
        output(command, result, () => `${table(result.columns, result.rows)}\n(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`);
      });
    });
}
