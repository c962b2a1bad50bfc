import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (npm's prepare and start run it)
import { build } from '../../scripts/build.mjs';
import { SUDAN_SENTENCE } from '../extract/structure/fixtures.ts';
import { ROOT, spawnServer, stopServer } from '../helpers/server-process.ts';

const ADMIN_KEY = 'pk_compiled_server_admin_key_0123456789abcdef';
const REACHES = `
reaches(X, Y) :- edge(_, 'ALLIED_WITH', X, Y, _).
reaches(X, Z) :- edge(_, 'ALLIED_WITH', X, Y, _), reaches(Y, Z).
`;
const graph = {
  nodes: [
    { kind: 'Actor', id: 'igad', label: 'IGAD', role: 'mediator' },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party' },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party' },
  ],
  edges: [
    { type: 'ALLIED_WITH', from: 'igad', to: 'saf' },
    { type: 'ALLIED_WITH', from: 'saf', to: 'rsf' },
  ],
};
const REACHABLE = 'MATCH (a:Actor), (b:Actor) WHERE reaches(a, b) RETURN a.label AS a, b.label AS b ORDER BY a, b';

/** Files under `dir` whose names end with `suffix`, symlinks not followed. */
function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesEndingWith(full, suffix);
    return entry.isFile() && entry.name.endsWith(suffix) ? [full] : [];
  });
}

/**
 * The server as `npm start` runs it: the compiled tree (scripts/build.mjs) in a process of its
 * own, its worker threads and child processes loading compiled modules, its assets (Prolog
 * libraries, frameworks, the shipped NER model) found through the tree's links.
 */
describe('the compiled server', () => {
  const outDir = path.join(ROOT, '.tmp', `compiled-server-${process.pid}`);
  let dataDir: string;
  let rulesDir: string;

  beforeAll(async () => {
    await build({ outDir, clean: true, log: () => undefined });
    dataDir = await mkdtemp(path.join(tmpdir(), 'parley-compiled-data-'));
    rulesDir = await mkdtemp(path.join(tmpdir(), 'parley-compiled-rules-'));
    await writeFile(path.join(rulesDir, 'alliances.pl'), REACHES);
    await writeFile(path.join(rulesDir, 'broken.pl'), 'fine(1).\nbroken(:- .\n');
  }, 300_000);
  afterAll(async () => {
    for (const dir of [outDir, dataDir, rulesDir]) await rm(dir, { recursive: true, force: true });
  });

  const start = () =>
    spawnServer([path.join(outDir, 'server', 'main.js')], {
      PARLEY_DATA_DIR: dataDir, PARLEY_ADMIN_KEY: ADMIN_KEY, PARLEY_FRAMEWORKS_DIR: rulesDir, PARLEY_REASON_WORKERS: '1', PARLEY_NER_MODEL_DIR: 'shipped', PARLEY_NER_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '1', PARLEY_RATE_LIMIT_PER_MINUTE: '0',
    });

  const call = async (base: string, method: string, url: string, key: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, { method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, json: await response.json() };
  };

  it('holds JavaScript only where the sources hold TypeScript', () => {
    expect(filesEndingWith(outDir, '.ts')).toEqual([]);
    const sources = ['engine', 'server'].flatMap((dir) => filesEndingWith(path.join(ROOT, dir), '.ts'));
    expect(sources.length).toBeGreaterThan(100);
    for (const source of sources) expect(existsSync(path.join(outDir, path.relative(ROOT, source)).replace(/\.ts$/, '.js')), source).toBe(true);
  });

  it('runs rule calls and extraction in its workers, reports a broken module at start, and a restart lists the modules from the data dir', async () => {
    const first = await start();
    let key: string;
    try {
      expect(first.output()).toMatch(/rule module 'broken' refused: \S*broken\.pl:2/);
      key = (await call(first.base, 'POST', '/v1/keys', ADMIN_KEY, { tenant: 'compiled', scope: 'write' })).json.api_key;
      expect((await call(first.base, 'POST', '/v1/graphs/sudan/import', key, graph)).status).toBe(200);
      // a rule predicate is solved in a reasoning worker only
      const reachable = await call(first.base, 'POST', '/v1/graph/query', key, { graph_id: 'sudan', query: REACHABLE });
      expect(reachable.json.rows).toEqual([
        ['IGAD', 'Rapid Support Forces'],
        ['IGAD', 'Sudanese Armed Forces'],
        ['Sudanese Armed Forces', 'Rapid Support Forces'],
      ]);
      // the shipped model (opt-in), warmed up in a child process and run in a worker thread, beside the rule workers
      const workspace = (await call(first.base, 'POST', '/v1/workspaces', key, { name: 'Sudan', domain: 'armed', scale: 'macro', tier: 'full' })).json;
      const extracted = await call(first.base, 'POST', `/v1/workspaces/${workspace.id}/extract`, key, { text: SUDAN_SENTENCE, source: 'wire/sudan-1.txt' });
      expect(extracted.status).toBe(200);
      expect(extracted.json.extractor.transformer).toBe(true);
      expect(extracted.json.actors.map((actor: { label: string }) => actor.label)).toContain('Rapid Support Forces');
      expect(first.output()).toMatch(/parley: extraction: NER model /);
    } finally {
      expect(await stopServer(first.child)).toBe(0);
    }
    expect(existsSync(path.join(dataDir, 'rule-catalog.json'))).toBe(true);

    const second = await start();
    try {
      expect(second.output()).toMatch(/rule module 'broken' refused: \S*broken\.pl:2/);
      const reachable = await call(second.base, 'POST', '/v1/graph/query', key, { graph_id: 'sudan', query: REACHABLE });
      expect(reachable.json.rows).toHaveLength(3);
    } finally {
      expect(await stopServer(second.child)).toBe(0);
    }
  }, 300_000);

  it('compiles nothing when the tree is up to date, and starts afresh when what the build depends on changed', async () => {
    expect(await build({ outDir, log: () => undefined })).toBe(0);
    // a stamp from another build script, TypeScript or chevrotain bundle
    await writeFile(path.join(outDir, '.stamp'), 'from another build');
    const compiled = await build({ outDir, log: () => undefined });
    expect(compiled).toBe(filesEndingWith(outDir, '.js').length + filesEndingWith(outDir, '.mjs').length);
    expect(compiled).toBeGreaterThan(100);
    expect(await build({ outDir, log: () => undefined })).toBe(0);
  }, 300_000);
});
