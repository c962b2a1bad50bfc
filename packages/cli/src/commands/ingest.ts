import path from 'node:path';
import type { Command } from 'commander';
import type { Ingestion } from '@parley/client';
import { output, tellCreatedGraph, withClient } from '../context.ts';

export function register(program: Command): void {
  program
    .command('ingest')
    .description('ingest documents (.txt, .md, .html) into a graph; a document ingested before adds nothing')
    .argument('<paths...>', 'document files')
    .requiredOption('-g, --graph <id>', 'the graph')
    .action(async (paths: string[], options: { graph: string }, command: Command) => {
      await withClient(command, async (client) => {
        const { readSource } = await import('@parley/engine/extract/source.ts');
        const results: Ingestion[] = [];
        for (const file of paths) {
          // read here, as the server's corpora root may be on another machine; named by the path as given
          const absolute = path.resolve(file);
          const document = await readSource(path.dirname(absolute), path.basename(absolute));
          const result = await client.ingest(options.graph, { source: file, text: document.text });
          if (result.graph_created) await tellCreatedGraph(client, options.graph);
          results.push(result);
        }
        output(command, results, () =>
          results
            .map((r) => `${r.document.source}: ${r.document.already_ingested ? 'already ingested' : `${r.added.nodes_created} nodes and ${r.added.edges_created} edges created, ${r.added.nodes_updated + r.added.edges_updated} updated`}`)
            .join('\n'),
        );
      });
    });
}
