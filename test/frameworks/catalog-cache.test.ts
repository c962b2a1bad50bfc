import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogListing, loadRuleModules, type CatalogListing } from '../../engine/frameworks/loader.ts';
import { cachedCatalog, catalogKey } from '../../engine/frameworks/catalog-cache.ts';

describe('the rule-module catalog kept between starts', () => {
  let dir: string;
  let rules: string;
  let file: string;
  let listings = 0;
  const list = async (): Promise<CatalogListing> => {
    listings++;
    return catalogListing(await loadRuleModules([rules]));
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-catalog-cache-'));
    rules = path.join(dir, 'rules');
    await mkdir(rules);
    await writeFile(path.join(rules, 'alliances.pl'), 'ally(a, b).\n');
    file = path.join(dir, 'rule-catalog.json');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists from its file while nothing the listing is made from changed, and afresh when a rule module changes', async () => {
    const first = await cachedCatalog(file, [rules], list);
    expect(listings).toBe(1);
    expect(first.callable['ally/2']).toBe('alliances');
    expect(first.frameworks.filter((entry) => entry.status === 'loaded')).toHaveLength(15);

    expect(await cachedCatalog(file, [rules], list)).toEqual(first);
    expect(listings).toBe(1);

    // a module broken since the last start is still reported, with its file and line
    await writeFile(path.join(rules, 'broken.pl'), 'fine(1).\nbroken(:- .\n');
    const broken = await cachedCatalog(file, [rules], list);
    expect(listings).toBe(2);
    expect(broken.ruleFiles.find((entry) => entry.id === 'broken')).toMatchObject({ status: 'refused', problems: [expect.objectContaining({ line: 2 })] });
    expect(await cachedCatalog(file, [rules], list)).toEqual(broken);
    expect(listings).toBe(2);

    await writeFile(path.join(rules, 'alliances.pl'), 'ally(a, b).\nfoe(a, c).\n');
    expect((await cachedCatalog(file, [rules], list)).callable['foe/2']).toBe('alliances');
    expect(listings).toBe(3);

    // a damaged file is listed afresh and written whole again
    await writeFile(file, '{"key": ');
    await cachedCatalog(file, [rules], list);
    await cachedCatalog(file, [rules], list);
    expect(listings).toBe(4);
  });

  it('keys by every file under the rule directories, and by which directories', async () => {
    const before = catalogKey([rules]);
    expect(catalogKey([rules])).toBe(before);
    await mkdir(path.join(rules, 'nested'), { recursive: true });
    await writeFile(path.join(rules, 'nested', 'notes.txt'), 'x');
    expect(catalogKey([rules])).not.toBe(before);
    expect(catalogKey([])).not.toBe(catalogKey([rules]));
  });

  it('keys a rule directory holding a file this process may not read, rather than failing the start', async () => {
    const unreadable = path.join(dir, 'unreadable');
    await mkdir(unreadable);
    await writeFile(path.join(unreadable, 'private.pl'), 'secret(1).\n');
    await chmod(path.join(unreadable, 'private.pl'), 0o000);
    // root reads any file: then the key is taken by a child process running as nobody, as a server might
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chmod(dir, 0o755);
    const script = `import { catalogKey } from ${JSON.stringify(fileURLToPath(new URL('../../engine/frameworks/catalog-cache.ts', import.meta.url)))};
process.stdout.write(catalogKey([${JSON.stringify(unreadable)}]));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toMatch(/^[0-9a-f]{64}$/);
  });
});
