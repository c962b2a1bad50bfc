import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { Parley } from '@parley/client';

/** The options every command inherits from the program (main.ts). */
export interface GlobalOptions {
  url?: string;
  apiKey?: string;
  tenant: string;
  json?: boolean;
}

export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * A client for the command: against the server at --url (PARLEY_URL), or embedded:
 * the store in PARLEY_DATA_DIR opened in this process and the same app the server
 * runs called in-process (app.inject), so both modes take one code path. Embedded
 * calls act as an admin of --tenant.
 */
export async function withClient<T>(command: Command, run: (client: Parley) => Promise<T>): Promise<T> {
  const options = globals(command);
  if (options.url) return run(new Parley({ baseUrl: options.url, ...(options.apiKey ? { apiKey: options.apiKey } : {}) }));

  // loaded only here: a command against a server starts without the engine
  const [{ buildApp }, { loadConfig }, { openEngine, DataDirInUseError }] = await Promise.all([
    import('@parley/server/app.ts'),
    import('@parley/server/config.ts'),
    import('@parley/server/open.ts'),
  ]);
  const config = loadConfig();
  const existed = existsSync(config.dataDir);
  const engine = await openEngine(config).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new Error(`${error.message}. Run the command against that server with --url <url> (or PARLEY_URL), or stop the server first.`);
  });
  // named on every call: a command run from another folder, or with PARLEY_DATA_DIR unset, opens another store than the one meant
  process.stderr.write(`parley: ${existed ? 'using the' : 'created a new'} data directory ${config.dataDir}\n`);
  try {
    const app = await buildApp(engine.deps, { localPrincipal: { tenant: options.tenant, key_id: 'embedded', scope: 'write', admin: true } });
    const inject: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      const response = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: url.pathname + url.search,
        headers: init?.headers as Record<string, string>,
        ...(init?.body !== undefined ? { payload: init.body as string } : {}),
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, String(value));
      return new Response(response.statusCode === 204 ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
    };
    // an embedded call waits as long as the work takes: the limits of the configuration still bound it
    return await run(new Parley({ baseUrl: 'http://embedded', fetch: inject, timeoutMs: 0 }));
  } finally {
    await engine.close();
  }
}

/**
 * Says on standard error that a write created its graph, naming the graphs there were
 * already: a misspelled graph id would otherwise fill a new graph without a word.
 */
export async function tellCreatedGraph(client: Parley, graphId: string): Promise<void> {
  const others: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await client.graphs.list(pageToken ? { page_size: 500, page_token: pageToken } : { page_size: 500 });
    for (const graph of page.graphs) if (graph.graph_id !== graphId) others.push(graph.graph_id);
    pageToken = page.next_page_token;
  } while (pageToken);
  process.stderr.write(`parley: created graph '${graphId}' (existing graphs: ${others.length > 0 ? others.join(', ') : 'none'})\n`);
}

/** JSON with --json, otherwise the human form. */
export function output(command: Command, value: unknown, human: () => string): void {
  process.stdout.write(`${globals(command).json ? JSON.stringify(value, null, 2) : human()}\n`);
}

/** A file's text, or standard input for '-'. */
export async function readInput(file: string): Promise<string> {
  if (file !== '-') {
    const { readFile } = await import('node:fs/promises');
    return readFile(file, 'utf8');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Rows as an aligned text table. */
export function table(columns: string[], rows: unknown[][]): string {
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && 'properties' in (value as object)) {
      const node = value as { id: string; properties: { label?: unknown; text?: unknown } };
      return String(node.properties.label ?? node.properties.text ?? node.id);
    }
    return JSON.stringify(value);
  };
  const cells = rows.map((row) => row.map(cell));
  const widths = columns.map((column, i) => Math.min(60, Math.max(column.length, ...cells.map((row) => row[i].length))));
  const line = (values: string[]) => values.map((value, i) => (value.length > widths[i] ? `${value.slice(0, widths[i] - 1)}…` : value.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(columns), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
