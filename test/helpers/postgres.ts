/**
 * A throwaway PostgreSQL server for the tests: Debian's `postgresql` binaries (.ci/run installs
 * the package), a cluster initialised in a temporary folder, listening on a free loopback port,
 * trust authentication, fsync off. PostgreSQL refuses to run as root, so as root the cluster is
 * made and run by the `postgres` user the package creates (runuser). A run killed before its
 * teardown leaves its server running: the next run stops it (removeOrphanedClusters). Test files each take a
 * database of their own (freshDatabase) on the one server the run starts (test/setup/postgres.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** The server's `postgres` database, where test databases are created. */
  url: string;
  stop(): void;
}

/** The folder of PostgreSQL's programs: PARLEY_PG_BIN, else the newest Debian installs, else the PATH's. */
function binDir(): string {
  if (process.env.PARLEY_PG_BIN) return process.env.PARLEY_PG_BIN;
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).filter((name) => existsSync(path.join(debian, name, 'bin', 'initdb'))) : [];
  if (versions.length > 0) return path.join(debian, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error("PostgreSQL's initdb was not found: install Debian's postgresql package (.ci/run does), or set PARLEY_PG_BIN");
  return path.dirname(found);
}

async function freePort(): Promise<number> {
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

/**
 * Stops and removes the clusters of test runs that were killed before their teardown (a
 * timeout, SIGKILL), left running: those whose starting process is gone. Another run's live
 * cluster is left alone.
 */
function removeOrphanedClusters(run: (program: string, args: string[]) => void): void {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(CLUSTER_PREFIX))) {
    const root = path.join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(path.join(root, OWNER_FILE), 'utf8'));
    } catch {
      continue; // being made right now, or not one of ours
    }
    if (alive(owner)) continue;
    try {
      run('pg_ctl', ['-D', path.join(root, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running
    }
    rmSync(root, { recursive: true, force: true });
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = mkdtempSync(path.join(tmpdir(), CLUSTER_PREFIX));
  const asRoot = process.getuid?.() === 0;
  // the postgres user must reach and own its folders
  if (asRoot) {
    chmodSync(root, 0o755);
    execFileSync('chown', ['postgres:postgres', root]);
  }
  const run = (program: string, args: string[]) => {
    const [command, full] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
    execFileSync(command, full, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  removeOrphanedClusters(run);
  const data = path.join(root, 'data');
  run('initdb', ['-D', data, '-U', 'parley', '--auth=trust', '--encoding=UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(root, 'server.log'), '-w', 'start']);
  writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  return {
    url: `postgres://parley@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
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
