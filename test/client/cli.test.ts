import { execFile } from 'node:child_process';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyStore } from '../../engine/store/store.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { ROOT, spawnServer, stopServer } from '../helpers/server-process.ts';

/** The `parley` command as a real child process, embedded (its own store) and against a listening server. */

const BIN = fileURLToPath(new URL('../../packages/cli/bin/parley.mjs', import.meta.url));

interface Run { code: number; stdout: string; stderr: string }

function parley(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, PARLEY_REASON_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '0', ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

const graph = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party' },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party' },
  ],
  edges: [{ type: 'OPPOSES', from: 'saf', to: 'rsf' }],
};
const OPPOSES = 'MATCH (a:Actor)-[:OPPOSES]->(b:Actor) RETURN a.label AS who, b.label AS whom';

describe('parley, embedded', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-cli-'));
    env = { PARLEY_DATA_DIR: path.join(dir, 'data') };
    await writeFile(path.join(dir, 'graph.json'), JSON.stringify(graph));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('imports into the store in PARLEY_DATA_DIR and queries it as a table; a broken query exits 3 with line and column', { timeout: 240_000 }, async () => {
    const imported = await parley(['import', 'sudan', path.join(dir, 'graph.json')], env);
    expect(imported, imported.stderr).toMatchObject({ code: 0, stdout: 'sudan: 2 nodes and 1 edges created, 0 updated\n' });

    const queried = await parley(['query', 'sudan', OPPOSES], env);
    expect(queried.code, queried.stderr).toBe(0);
    const lines = queried.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^who\s+whom$/);
    expect(lines[2]).toMatch(/^Sudanese Armed Forces\s+Rapid Support Forces$/);
    expect(lines[3]).toBe('(1 row)');

    const broken = await parley(['query', 'sudan', 'MATCH (a:Actor RETURN a'], env);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('unexpected_syntax, line 1, column 16');
  });

  it('answers --help on every command, and a usage error exits 2', { timeout: 240_000 }, async () => {
    const help = await parley(['keys', 'create', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--for <tenant>');
    const usage = await parley(['query', 'sudan'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("missing required argument 'pattern'");
  });
});

describe('parley, embedded: no silent traps', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-cli-traps-'));
    // two reasoning workers: a call starts the second after its answer, and the command closes the pool while it starts
    env = { PARLEY_DATA_DIR: path.join(dir, 'data'), PARLEY_REASON_WORKERS: '2', PARLEY_NER_MODEL_DIR: 'none' };
    await writeFile(path.join(dir, 'fasher.txt'), 'The Rapid Support Forces attacked El Fasher on 10 May 2024. The Sudanese Armed Forces demanded that the RSF withdraw from the city.\n');
    await writeFile(path.join(dir, 'talks.txt'), 'The African Union called for a ceasefire between the SAF and the RSF in Khartoum. The RSF rejected talks in Jeddah.\n');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  const noTrace = (run: Run) => expect(run.stderr).not.toMatch(/Error|\n\s+at /);

  it('every command exits 0 on success, analyze included, and names the data directory it uses', { timeout: 900_000 }, async () => {
    const created = await parley(['workspaces', 'create', 'Sudan', '--domain', 'armed', '--scale', 'macro'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`created a new data directory ${env.PARLEY_DATA_DIR}`);
    const workspace = created.stdout.trim();

    const ingested = await parley(['ingest', '-g', workspace, path.join(dir, 'fasher.txt'), path.join(dir, 'talks.txt')], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(ingested.stderr).toContain(`using the data directory ${env.PARLEY_DATA_DIR}`);
    expect(ingested.stderr).not.toContain('created graph'); // the workspace made its graph
    expect(ingested.stdout).toMatch(/fasher\.txt: \d+ nodes and \d+ edges created/);

    // the question no framework can answer yet answered fastest, and exited 1 after its answer every time
    for (const [question, answer] of [['Who could spoil an agreement?', 'Stedman'], ['What stage of escalation is the conflict in?', 'Glasl'], ['Analyse this conflict', 'Azar']]) {
      const analyzed = await parley(['analyze', workspace, question], env);
      expect(analyzed.code, analyzed.stderr).toBe(0);
      expect(analyzed.stdout).toContain(answer);
      noTrace(analyzed);
    }
    const assessed = await parley(['assess', workspace, '--frameworks', 'glasl,stedman'], env);
    expect(assessed.code, assessed.stderr).toBe(0);
    noTrace(assessed);
    const queried = await parley(['query', workspace, 'MATCH (a:Actor) RETURN a.label'], env);
    expect(queried.code, queried.stderr).toBe(0);
    expect(queried.stderr).not.toContain('warning');
    const exported = await parley(['export', workspace, '--out', path.join(dir, 'sudan.jsonl')], env);
    expect(exported.code, exported.stderr).toBe(0);
    const listed = await parley(['workspaces', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(workspace);

    // a misspelled graph id: the import works (SEED.md's ingest into a new graph), and says it made a new graph beside the one meant
    const misspelled = await parley(['import', `${workspace}x`, path.join(dir, 'sudan.jsonl')], env);
    expect(misspelled.code, misspelled.stderr).toBe(0);
    expect(misspelled.stderr).toContain(`parley: created graph '${workspace}x' (existing graphs: ${workspace})`);
    const intoIt = await parley(['ingest', '-g', `${workspace}x`, path.join(dir, 'talks.txt')], env);
    expect(intoIt.code, intoIt.stderr).toBe(0);
    expect(intoIt.stderr).not.toContain('created graph');

    // a query naming a label the graph never held: its (empty) table, and a warning naming the label where it is written
    const unknown = await parley(['query', workspace, 'MATCH (a:Actr) RETURN a.label'], env);
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stdout).toContain('(0 rows)');
    expect(unknown.stderr).toContain('parley: warning: The label `Actr` is not in the graph (line 1, column 10)');
  });

  it('refuses a store another process holds, naming it and what to do', { timeout: 240_000 }, async () => {
    const held = await ParleyStore.open(path.join(env.PARLEY_DATA_DIR, 'store'));
    try {
      const refused = await parley(['workspaces', 'list'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the data directory ${env.PARLEY_DATA_DIR} is in use by another process (a parley server?)`);
      expect(refused.stderr).toContain('--url');
      expect(refused.stderr).not.toContain('Database failed to open');
      expect(refused.stdout).toBe('');
    } finally {
      await held.close();
    }
  });
});

describe('parley serve', () => {
  it('serves as npm start does: the compiled tree, brought up to date first; SIGTERM closes it', { timeout: 240_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parley-serve-'));
    try {
      // a source newer than its compiled file (its content unchanged): only server/start.mjs's build compiles it
      const now = new Date();
      await utimes(path.join(ROOT, 'server', 'main.ts'), now, now);
      const admin = 'pk_cli_serve_admin_key_0123456789abcdef';
      const server = await spawnServer([BIN, 'serve', '--port', '0'], { PARLEY_DATA_DIR: dir, PARLEY_ADMIN_KEY: admin, PARLEY_NER_MODEL_DIR: 'none', PARLEY_REASON_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '0' });
      let statuses: number[];
      try {
        statuses = [(await fetch(`${server.base}/v1/health`)).status, (await fetch(`${server.base}/v1/keys`, { headers: { 'x-api-key': admin } })).status];
      } finally {
        expect(await stopServer(server.child)).toBe(0);
      }
      expect(server.output()).toMatch(/parley: compiled \d+ source files? into \.build\//);
      expect(statuses).toEqual([200, 200]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('parley --url', () => {
  let t: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await makeTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await t.keyFor('acme');
    await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: graph });
    env = { PARLEY_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, PARLEY_API_KEY: key, PARLEY_DATA_DIR: path.join(t.dir, 'unused') };
  });
  afterAll(async () => t.close());

  it('queries the server with --json, and exits 4 on a missing graph and 5 without admin rights', { timeout: 240_000 }, async () => {
    const queried = await parley(['--json', 'query', 'sudan', OPPOSES], env);
    expect(queried.code, queried.stderr).toBe(0);
    expect(JSON.parse(queried.stdout)).toMatchObject({ columns: ['who', 'whom'], rows: [['Sudanese Armed Forces', 'Rapid Support Forces']] });

    const missing = await parley(['query', 'nowhere', OPPOSES], env);
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining('graph_not_found') });
    const denied = await parley(['keys', 'list'], env);
    expect(denied).toMatchObject({ code: 5, stderr: expect.stringContaining('admin_required') });
    const created = await parley(['--api-key', t.adminKey, 'keys', 'create', '--for', 'beta', '--scope', 'read'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^pk_\S+\n$/);
  });
});
