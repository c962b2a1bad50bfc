import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parley, ParleyError } from '../../packages/client/src/index.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/** Corrections and traces through the client library, and through `parley correct` / `parley trace` embedded. */

const graph = {
  nodes: [
    { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', provenance: [{ source: 'a.txt', timestamp: '2024-03-03T10:00:00Z', quote: 'the army shelled' }] },
    { kind: 'Actor', id: 'saf-dup', label: 'SAF' },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces' },
  ],
  edges: [{ id: 'e1', type: 'OPPOSES', from: 'saf-dup', to: 'rsf' }],
};

describe('the client', () => {
  let t: TestApp;
  let client: Parley;
  beforeAll(async () => {
    t = await makeTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    client = new Parley({ baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, apiKey: await t.keyFor('acme') });
    await client.graphs.import('g', graph);
  });
  afterAll(async () => t.close());

  it('corrects, lists, traces and undoes; a refusal is a ParleyError with its code', async () => {
    const merge = await client.correct('g', { op: 'merge', into: 'saf', from: ['saf-dup'], reason: 'same army' });
    expect(merge).toMatchObject({ op: 'merge', into: 'saf', from: ['saf-dup'] });
    const node = await client.node('g', 'saf-dup');
    expect(node.node.id).toBe('saf');
    expect(node.node.provenance?.sources[0].quote).toBe('the army shelled');
    expect((await client.edge('g', 'e1')).edge.from).toBe('saf');
    const undo = await client.undoCorrection('g', merge.correction_id);
    expect(undo).toMatchObject({ op: 'undo', undoes: merge.correction_id });
    expect((await client.listCorrections('g', { page_size: 1 })).corrections.map((c) => c.op)).toEqual(['undo']);
    expect((await client.edge('g', 'e1')).edge.from).toBe('saf-dup');
    const refused = await client.correct('g', { op: 'retype', edge: 'e1', type: 'FRIENDS', reason: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ParleyError);
    expect((refused as ParleyError).code).toBe('invalid_value');
  });
});

describe('parley correct and trace, embedded', () => {
  const BIN = fileURLToPath(new URL('../../packages/cli/bin/parley.mjs', import.meta.url));
  let dir: string;
  const parley = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...process.env, PARLEY_DATA_DIR: path.join(dir, 'data'), PARLEY_REASON_WORKERS: '1', PARLEY_SYMBOLIC_WORKERS: '0' }, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-correct-'));
    await writeFile(path.join(dir, 'graph.json'), JSON.stringify(graph));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('merges, retypes, lists, undoes and traces; an unknown id exits 3 naming it', { timeout: 240_000 }, async () => {
    expect((await parley('import', 'g', path.join(dir, 'graph.json'))).code).toBe(0);
    const merged = await parley('correct', 'merge', 'g', 'saf', 'saf-dup', '--reason', 'same army');
    expect(merged.stdout, merged.stderr).toMatch(/^cor_\w+ {2}merge saf-dup into saf\n$/);
    const retyped = await parley('--json', 'correct', 'retype', 'g', 'e1', 'ALLIED_WITH', '--reason', 'allies');
    const retype = JSON.parse(retyped.stdout);
    expect(retype).toMatchObject({ op: 'retype', previous_type: 'OPPOSES', type: 'ALLIED_WITH' });
    expect((await parley('correct', 'undo', 'g', retype.correction_id)).stdout).toContain(`undo ${retype.correction_id}`);
    const listed = JSON.parse((await parley('--json', 'correct', 'list', 'g')).stdout);
    expect(listed.corrections.map((c: { op: string }) => c.op)).toEqual(['undo', 'retype', 'merge']);
    expect(listed.corrections[1].undone_by).toBe(listed.corrections[0].correction_id);
    const traced = await parley('trace', 'g', 'saf-dup');
    expect(traced.stdout).toContain('aliases: saf-dup');
    expect(traced.stdout).toContain('2024-03-03T10:00:00Z  a.txt  "the army shelled"');
    const unknown = await parley('correct', 'retract', 'g', 'nobody', '--reason', 'x');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("'nobody' is no node or edge of this graph (400 unknown_record)");
  });
});
