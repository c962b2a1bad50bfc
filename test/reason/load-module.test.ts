import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (the worker entries' loader)
import { loadModule } from '../../engine/load-module.mjs';

/** Worker entries load the engine's modules compiled when the compiled tree holds them, else its TypeScript. */
describe('loadModule', () => {
  // inside the repository, as the compiled tree is, so that a module there would find node_modules
  const dir = path.resolve(import.meta.dirname, '../../.tmp', `load-module-${process.pid}`);
  const base = pathToFileURL(path.join(dir, 'entry.mjs')).href;
  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'typed.ts'), "export const kind: string = 'typescript';\n");
    await writeFile(path.join(dir, 'both.ts'), "export const kind: string = 'typescript';\n");
    await writeFile(path.join(dir, 'both.js'), "export const kind = 'javascript';\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes the JavaScript beside a module when there is one, else loads the TypeScript through tsx', async () => {
    expect((await loadModule('./both.ts', base)).kind).toBe('javascript');
    expect((await loadModule('./typed.ts', base)).kind).toBe('typescript');
    expect((await loadModule(pathToFileURL(path.join(dir, 'both.js')).href, base)).kind).toBe('javascript');
  });
});
