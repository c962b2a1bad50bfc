import type { Command } from 'commander';
import type { Workspace, WorkspaceCreate } from '@parley/client';
import { output, table, withClient } from '../context.ts';

export function register(program: Command): void {
  const workspaces = program.command('workspaces').description('create, list and delete workspaces');
  workspaces
    .command('create')
    .description('create a workspace and its graph; prints its id')
    .argument('<name>', 'a name for people')
    .requiredOption('--domain <domain>', 'e.g. armed, political (docs/api.md lists them)')
    .requiredOption('--scale <scale>', 'micro, meso or macro')
    .option('--tier <tier>', 'essential, standard or full', 'full')
    .option('--graph <id>', 'the graph id (default: the workspace id)')
    .action(async (name: string, options: { domain: string; scale: string; tier: string; graph?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const created = await client.workspaces.create({
          name,
          // checked by the server, which names the allowed values when one is wrong
          domain: options.domain as WorkspaceCreate['domain'],
          scale: options.scale as WorkspaceCreate['scale'],
          tier: options.tier as WorkspaceCreate['tier'],
          ...(options.graph ? { graph_id: options.graph } : {}),
        });
        output(command, created, () => created.id);
      });
    });
  workspaces
    .command('list')
    .description("the tenant's workspaces")
    .action(async (_options: object, command: Command) => {
      await withClient(command, async (client) => {
        const all: Workspace[] = [];
        let page_token: string | undefined;
        do {
          const page = await client.workspaces.list({ page_size: 500, ...(page_token ? { page_token } : {}) });
          all.push(...page.workspaces);
          page_token = page.next_page_token;
        } while (page_token);
        output(command, all, () => table(['id', 'name', 'graph_id', 'domain', 'scale', 'tier'], all.map((w) => [w.id, w.name, w.graph_id, w.domain, w.scale, w.tier])));
      });
    });
  workspaces
    .command('delete')
    .description('delete a workspace (its graph stays)')
    .argument('<id>', 'the workspace id')
    .action(async (id: string, _options: object, command: Command) => {
      await withClient(command, async (client) => {
        await client.workspaces.delete(id);
        output(command, { deleted: id }, () => `deleted ${id}`);
      });
    });
}
