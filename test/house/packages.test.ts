import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, importSpecifiers, sourceFiles } from './source-imports.ts';

/**
 * packages/cli and packages/client reach the engine, the server and each other through
 * package names (@parley/engine, @parley/server, @parley/client), never by a relative
 * path out of their folder: the client is installed alone, outside this repository.
 */

const PACKAGES = ['packages/cli', 'packages/client'];

/** The relative import, export-from and import() specifiers of `text` that leave `packageDir`. */
function importsLeaving(packageDir: string, file: string, text: string): string[] {
  return importSpecifiers(text).filter((specifier) => specifier.startsWith('.') && path.relative(packageDir, path.resolve(path.dirname(file), specifier)).startsWith('..'));
}

describe('package boundaries', () => {
  it.each(PACKAGES)('%s imports nothing by a relative path outside its folder', (pkg) => {
    const dir = path.join(REPO_ROOT, pkg);
    const files = sourceFiles(dir);
    expect(files.length).toBeGreaterThan(3);
    const leaving = files.flatMap((file) => importsLeaving(dir, file, readFileSync(file, 'utf8')).map((specifier) => `${path.relative(REPO_ROOT, file)}: ${specifier}`));
    expect(leaving).toEqual([]);
  });

  it('sees static, type-only, re-exported and dynamic imports that leave the folder, and lets those inside pass', () => {
    const dir = path.join(REPO_ROOT, 'packages/cli');
    const file = path.join(dir, 'src/commands/example.ts');
    const text = [
      "import { a } from '../context.ts';",
      "import type { B } from '../../../../engine/store/store.ts';",
      "export { c } from '../../../client/src/index.ts';",
      "const d = await import('../../../../server/app.ts');",
      "import e from '@parley/engine/ingest/batch.ts';",
      "import './sibling.ts';",
    ].join('\n');
    expect(importsLeaving(dir, file, text)).toEqual(['../../../../engine/store/store.ts', '../../../client/src/index.ts', '../../../../server/app.ts']);
  });
});
