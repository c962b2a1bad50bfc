import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../helpers/app.ts';

const run = promisify(execFile);
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
/** Without the npm_* variables `npm test` sets, which would tie the consumer's npm to this repository. */
const OUTSIDE_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

describe('@parley/client as installed', () => {
  it('resolves to the ESM build with its type declarations (npm install runs the build)', async () => {
    const installed = await import('@parley/client');
    expect(typeof installed.Parley).toBe('function');
    expect(new installed.ParleyQueryError({ type: 't', title: 'Bad Request', status: 400, detail: 'd', code: 'unexpected_syntax', line: 2, column: 3 })).toBeInstanceOf(installed.ParleyError);
    const { existsSync } = await import('node:fs');
    expect(existsSync(new URL('../../packages/client/dist/index.d.ts', import.meta.url))).toBe(true);
  });

  /**
   * What a user outside this repository gets: the packed tarball installed offline into a
   * fresh folder (so it can depend on nothing to download and reach nothing of the
   * repository), a one-file TypeScript consumer type-checked strictly against its
   * declarations and compiled, then run against a live server.
   */
  it('packs, installs offline into a folder outside the repository, type-checks a consumer and queries a live server', { timeout: 120_000 }, async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'parley-client-consumer-'));
    const t = await makeTestApp();
    try {
      const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: path.join(REPO_ROOT, 'packages/client'), env: OUTSIDE_ENV });
      const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
      expect(files.map((file) => file.path).filter((file) => !file.startsWith('dist/')).sort()).toEqual(['package.json']);
      for (const declarations of files.filter((file) => file.path.endsWith('.d.ts'))) {
        const text = await readFile(path.join(REPO_ROOT, 'packages/client', declarations.path), 'utf8');
        expect(text, declarations.path).not.toMatch(/from '\.\.\/|import\('\.\.\/|reference (path|types)=/);
      }

      const consumer = path.join(work, 'consumer');
      await mkdir(consumer);
      await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(work, filename)], { cwd: consumer, env: OUTSIDE_ENV });

      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const apiKey = await t.keyFor('consumer');
      await writeFile(
        path.join(consumer, 'main.ts'),
        `import { Parley, ParleyQueryError, type GraphImport, type GraphQueryResult, type WorkspaceCreate } from '@parley/client';

const client = new Parley({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(apiKey)} });
const graph: GraphImport = {
  nodes: [
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group' },
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', actor_type: 'state' },
  ],
  edges: [{ type: 'OPPOSES', from: 'saf', to: 'rsf' }],
};
// @ts-expect-error the types are the API's: a workspace's tier is essential, standard or full
const premium: WorkspaceCreate = { name: 'x', domain: 'armed', scale: 'macro', tier: 'premium' };
const imported = await client.graphs.import('sudan', graph);
const result: GraphQueryResult = await client.query('sudan', 'MATCH (a:Actor)-[:OPPOSES]->(b:Actor) RETURN a.label AS from, b.label AS to');
const failure: unknown = await client.query('sudan', 'MATCH (a:Actor RETURN a').catch((error: unknown) => error);
console.log(JSON.stringify({
  created: imported.nodes_created,
  columns: result.columns,
  rows: result.rows,
  queryError: failure instanceof ParleyQueryError ? [failure.status, failure.line] : String(failure),
  premium: premium.tier,
}));
`,
      );
      await writeFile(
        path.join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { strict: true, noUncheckedIndexedAccess: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], outDir: 'out' },
          files: ['main.ts'],
        }),
      );
      await run(process.execPath, [TSC, '-p', consumer], { cwd: consumer }).catch((error: { stdout: string }) => {
        throw new Error(`the consumer does not type-check against the packed client:\n${error.stdout}`);
      });

      const { stdout } = await run(process.execPath, [path.join(consumer, 'out/main.js')], { cwd: consumer });
      expect(JSON.parse(stdout)).toEqual({
        created: 2,
        columns: ['from', 'to'],
        rows: [['Sudanese Armed Forces', 'Rapid Support Forces']],
        queryError: [400, 1],
        premium: 'premium',
      });
    } finally {
      await t.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
