import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { output, readInput, tellCreatedGraph, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('export')
    .description('write a graph as JSON Lines (to standard output, or --out)')
    .argument('<graph>', 'the graph id')
    .option('-o, --out <file>', 'the file to write')
    .action(async (graph: string, options: { out?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const lines = await client.graphs.export(graph);
        if (options.out) await writeFile(options.out, lines);
        else process.stdout.write(lines);
      });
    });
  program
    .command('import')
    .description("import nodes and edges into a graph from a JSON Lines or JSON file ('-' for standard input); all or nothing")
    .argument('<graph>', 'the graph id')
    .argument('<file>', "a .jsonl file as export writes it, a JSON {nodes, edges} file, or '-'")
    .action(async (graph: string, file: string, _options: object, command: Command) => {
      const text = await readInput(file);
      await withClient(command, async (client) => {
        const isJson = text.trimStart().startsWith('{') && /^\s*\{\s*"(nodes|edges)"/.test(text);
        const summary = await client.graphs.import(graph, isJson ? JSON.parse(text) : text);
        if (summary.graph_created) await tellCreatedGraph(client, graph);
        output(command, summary, () => `${graph}: ${summary.nodes_created} nodes and ${summary.edges_created} edges created, ${summary.nodes_updated + summary.edges_updated} updated`);
      });
    });
}
