import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');
const moduleUrl = (path: string) => pathToFileURL(join(PROJECT_ROOT, path)).href;

/**
 * The service runs from its TypeScript sources under tsx (`npm run dev`, the CLI), the tests under
 * vitest: the worker entry must load under both (compiled, as `npm start` runs it:
 * test/http/compiled-server.test.ts). This runs the pool in a fresh Node process started the way
 * `npm run dev` starts one.
 */
describe('worker pool under tsx', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-ner-tsx-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('recognises entities with 2 workers in a process started with --import tsx', async () => {
    const script = join(dir, 'run.mts');
    await writeFile(
      script,
      [
        `import { buildTinyNerModel } from '${moduleUrl('test/helpers/tiny-ner-model.ts')}';`,
        `import { createNerBackend } from '${moduleUrl('engine/extract/neural/backend.ts')}';`,
        `const model = await buildTinyNerModel({ taggedWords: { Goma: 'B-LOC' }, noise: 0 });`,
        `const backend = await createNerBackend({ modelDir: model.dir, workers: 2 });`,
        `const result = await backend.recognise(['M23 entered Goma.', 'Goma fell. Then Goma again.']);`,
        `await backend.close();`,
        `await model.remove();`,
        `console.log(JSON.stringify(result));`,
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: PROJECT_ROOT, timeout: 30_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { label: string; start: number; text: string }[][];
    expect(result.map((entities) => entities.map((e) => `${e.label}:${e.text}@${e.start}`))).toEqual([
      ['LOC:Goma@12'],
      ['LOC:Goma@0', 'LOC:Goma@16'],
    ]);
  });
});
