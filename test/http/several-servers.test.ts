/**
 * Several `parley` server processes on one PostgreSQL database, over loopback: a write through
 * one is read through the other at its revision, concurrent writes to one graph through both are
 * serialised with none lost, and a server killed mid-write leaves the graph to the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase } from '../helpers/postgres.ts';
import { spawnServer, stopServer, type ServerProcess } from '../helpers/server-process.ts';

const ADMIN_KEY = 'pk_several_servers_admin_key_0123456789abcdef';
let dir: string;
let store: string;
const servers: ServerProcess[] = [];
let key: string;

function startServer(name: string): Promise<ServerProcess> {
  return spawnServer(['--import', 'tsx', 'server/main.ts'], {
    PARLEY_STORE: store,
    PARLEY_DATA_DIR: path.join(dir, name),
    PARLEY_ADMIN_KEY: ADMIN_KEY,
    PARLEY_NER_MODEL_DIR: 'none',
    PARLEY_REASON_WORKERS: '1',
    PARLEY_SYMBOLIC_WORKERS: '0',
    PARLEY_RATE_LIMIT_PER_MINUTE: '0',
  });
}

async function call(server: ServerProcess, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.base + url, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const actors = (prefix: string, count: number) => ({ nodes: Array.from({ length: count }, (_, i) => ({ kind: 'Actor', id: `${prefix}-${i}`, label: `Actor ${prefix} ${i}` })), edges: [] });

/** Imports into graph g through `server`; the revision it answers. */
async function importThrough(server: ServerProcess, body: unknown): Promise<number> {
  const response = await call(server, 'POST', '/v1/graphs/g/import', body);
  expect(response.status, await response.clone().text()).toBe(200);
  return Number(response.headers.get('parley-revision'));
}

/** The ids of graph g's nodes as `server` exports them at `revision` or later. */
async function nodeIds(server: ServerProcess, revision: number): Promise<string[]> {
  const response = await call(server, 'GET', '/v1/graphs/g/export', undefined, { 'parley-min-revision': String(revision) });
  expect(response.status).toBe(200);
  return (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line)).filter((record) => record.node).map((record) => record.node.id);
}

/** Resolves once some server holds a graph's advisory lock (a write in progress). */
async function untilAdvisoryLockHeld(): Promise<void> {
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  try {
    for (let tries = 0; tries < 3000; tries++) {
      const { rows } = await client.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted");
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('no write took the advisory lock');
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-servers-'));
  store = await freshDatabase(inject('postgresUrl'));
  // one after the other: the first migrates the database, the second finds it done
  servers.push(await startServer('a'));
  servers.push(await startServer('b'));
  const created = await fetch(servers[0].base + '/v1/keys', { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'acme', scope: 'write' }) });
  key = ((await created.json()) as { api_key: string }).api_key;
  // two servers starting (tsx compiling, workers warming) take minutes on a loaded 2-core machine
}, 300_000);

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) await stopServer(server.child);
  await rm(dir, { recursive: true, force: true });
});

it('a write through one server is read through the other at the revision it answered', async () => {
  const [a, b] = servers;
  await importThrough(a, actors('first', 3));
  expect(await nodeIds(b, 0)).toHaveLength(3); // b has the graph loaded now
  const revision = await importThrough(a, actors('second', 2));
  expect((await nodeIds(b, revision)).filter((id) => id.startsWith('second'))).toEqual(['second-0', 'second-1']);
});

it('concurrent writes to one graph through both servers are serialised: each its own revision, none lost', async () => {
  const [a, b] = servers;
  const before = (await nodeIds(a, 0)).length;
  const revisions = await Promise.all(Array.from({ length: 16 }, (_, i) => importThrough(i % 2 === 0 ? a : b, actors(`w${i}`, 50))));
  expect(new Set(revisions).size).toBe(16);
  const last = Math.max(...revisions);
  const [throughA, throughB] = [await nodeIds(a, last), await nodeIds(b, last)];
  expect(throughA).toHaveLength(before + 16 * 50);
  expect(throughB).toEqual(throughA);
});

it("the writer's server killed mid-write: the other server goes on writing the graph, the killed write wholly there or absent", async () => {
  const [a, b] = servers;
  const before = (await nodeIds(b, 0)).length;
  // a large import through a, killed while it holds the graph's lock
  const writing = call(a, 'POST', '/v1/graphs/g/import', actors('killed', 20_000)).catch(() => undefined);
  await untilAdvisoryLockHeld();
  a.child.kill('SIGKILL');
  await writing;
  const revision = await importThrough(b, actors('after', 5));
  const ids = await nodeIds(b, revision);
  const killed = ids.filter((id) => id.startsWith('killed')).length;
  expect([0, 20_000]).toContain(killed);
  expect(ids.filter((id) => id.startsWith('after'))).toHaveLength(5);
  expect(ids).toHaveLength(before + killed + 5);
});
