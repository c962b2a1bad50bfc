import type { Command } from 'commander';
import { output, table, withClient } from '../context.ts';

export function register(program: Command): void {
  const keys = program.command('keys').description('manage API keys (admin)');
  keys
    .command('create')
    .description('create a key for a tenant; its secret is printed once')
    .requiredOption('--for <tenant>', 'the tenant the key belongs to')
    .option('--scope <scope>', 'read or write', 'write')
    .option('--name <name>', 'a note on what the key is for')
    .action(async (options: { for: string; scope: 'read' | 'write'; name?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const created = await client.keys.create({ tenant: options.for, scope: options.scope, ...(options.name ? { name: options.name } : {}) });
        output(command, created, () => created.api_key);
      });
    });
  keys
    .command('list')
    .description('list keys (never their secrets)')
    .action(async (_options: object, command: Command) => {
      await withClient(command, async (client) => {
        const listed = await client.keys.list();
        output(command, listed, () =>
          table(['key_id', 'tenant', 'scope', 'admin', 'name', 'created_at', 'revoked_at'], listed.keys.map((k) => [k.key_id, k.tenant, k.scope, k.admin ? 'yes' : '', k.name, k.created_at, k.revoked_at])),
        );
      });
    });
  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<key_id>', 'the key id (keys list)')
    .action(async (keyId: string, _options: object, command: Command) => {
      await withClient(command, async (client) => {
        await client.keys.revoke(keyId);
        output(command, { revoked: keyId }, () => `revoked ${keyId}`);
      });
    });
}
