import type { Command } from 'commander';

/** `startServer` starts the server as `npm start` does (bin/parley.mjs). */
export function register(program: Command, startServer: () => Promise<void>): void {
  program
    .command('serve')
    .description('serve the HTTP API (as npm start), with its store in PARLEY_DATA_DIR; the variables of docs/configuration.md apply')
    .option('--port <port>', 'HTTP port (PORT, default 8080)')
    .option('--host <host>', 'address to listen on (HOST, default 127.0.0.1)')
    .action(async (options: { port?: string; host?: string }) => {
      if (options.port) process.env.PORT = options.port;
      if (options.host) process.env.HOST = options.host;
      await startServer();
    });
}
