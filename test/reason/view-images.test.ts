import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ViewImages, readViewImage, writeViewImage } from '../../engine/reason/view-images.ts';
import { graphKey } from '../../engine/store/graph-cache.ts';
import { graphFile } from '../../engine/store/snapshot.ts';

// The files of view images (engine/reason/view-images.ts): read only for the graph and version their header names,
// kept one per graph within a bound on bytes, never outside the snapshot folder whatever the ids.
describe('view image files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'parley-view-images-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const of = { tenant: 't', graphId: 'g', generation: 'gen1', revision: 4 };
  const image = Buffer.from('{"signature":"x"}\nbody of the image');
  /** A graph's image and snapshot in the folder (the snapshot's content does not matter here), written at `second`. */
  const placed = async (tenant: string, graphId: string, bytes: Buffer, second: number) => {
    const file = graphFile(dir, tenant, graphId, 'view');
    await writeViewImage(file, { ...of, tenant, graphId }, bytes);
    await writeFile(graphFile(dir, tenant, graphId, 'snapshot'), 'snapshot');
    await utimes(file, 1_700_000_000 + second, 1_700_000_000 + second);
    return file;
  };

  it('is read only for the tenant, graph, generation and revision its header names', async () => {
    const file = graphFile(dir, 't', 'g', 'view');
    await writeViewImage(file, of, image);
    expect(Buffer.from(readViewImage(file, of)!)).toEqual(image);
    for (const other of [{ tenant: 'u' }, { graphId: 'h' }, { generation: 'gen2' }, { revision: 5 }]) expect(readViewImage(file, { ...of, ...other })).toBeUndefined();
    await writeFile(file, 'no header at all');
    expect(readViewImage(file, of)).toBeUndefined();
    expect(readViewImage(path.join(dir, 'absent.view'), of)).toBeUndefined();
  });

  it('lives in the snapshot folder whatever the ids, one name per tenant and graph', () => {
    for (const [tenant, graphId] of [['..', '..'], ['../..', 'x'], ['t', '../../etc/passwd'], ['a/b', 'c']]) expect(path.dirname(graphFile(dir, tenant, graphId, 'view'))).toBe(dir);
    expect(graphFile(dir, 't', 'g', 'view')).not.toBe(graphFile(dir, 'u', 'g', 'view'));
  });

  it('is kept within the bound on bytes, the oldest removed first, and one beside no snapshot or naming another graph is removed', async () => {
    const big = Buffer.alloc(1_000, 1);
    await placed('t', 'old', big, 1);
    await placed('t', 'mid', big, 2);
    await placed('t', 'new', big, 3);
    // another tenant's file holding t/new's image (a copy, as if named alike): never kept for u
    await copyFile(graphFile(dir, 't', 'new', 'view'), graphFile(dir, 'u', 'new', 'view'));
    await writeFile(graphFile(dir, 'u', 'new', 'snapshot'), 'snapshot');
    // an image whose graph was deleted while no server ran (no snapshot beside it)
    await writeViewImage(graphFile(dir, 't', 'gone', 'view'), { ...of, graphId: 'gone' }, big);
    const images = await ViewImages.open(dir, 2_300, 1_000_000);
    const views = (await readdir(dir)).filter((name) => name.endsWith('.view')).sort();
    expect(views).toEqual([path.basename(graphFile(dir, 't', 'mid', 'view')), path.basename(graphFile(dir, 't', 'new', 'view'))]);
    expect(images.has(graphKey('t', 'new'), of.generation, of.revision)).toBe(true);
    expect(images.has(graphKey('t', 'new'), of.generation, of.revision + 1)).toBe(false);
    expect(images.has(graphKey('u', 'new'), of.generation, of.revision)).toBe(false);
    // a new image past the bound removes the oldest; a write removes the graph's own
    await placed('t', 'newest', big, 4);
    await images.made(graphKey('t', 'newest'), of.generation, of.revision, 1_050, true);
    expect(existsSync(graphFile(dir, 't', 'mid', 'view'))).toBe(false);
    expect(existsSync(graphFile(dir, 't', 'new', 'view'))).toBe(true);
    await images.remove(graphKey('t', 'new'));
    expect(existsSync(graphFile(dir, 't', 'new', 'view'))).toBe(false);
    // an image the graph moved past while it was made is removed, not kept
    await placed('t', 'moved', big, 5);
    await images.made(graphKey('t', 'moved'), of.generation, of.revision, 1_050, false);
    expect(existsSync(graphFile(dir, 't', 'moved', 'view'))).toBe(false);
  });

  it('asks for one image per graph version, none of a graph over the bounds on facts or bytes', async () => {
    await mkdir(dir, { recursive: true });
    const images = await ViewImages.open(dir, 48_000, 500);
    const key = graphKey('t', 'g');
    expect(images.toMake(key, 'gen1', 1, 400)).toBe(true);
    expect(images.toMake(key, 'gen1', 1, 400)).toBe(false); // (being made)
    expect(images.toMake(key, 'gen1', 2, 400)).toBe(true); // (a newer version)
    await images.made(key, 'gen1', 2, 0, true); // (the worker could not)
    expect(images.toMake(key, 'gen1', 2, 400)).toBe(true);
    expect(images.toMake(graphKey('t', 'large'), 'gen1', 1, 501)).toBe(false);
    const small = await ViewImages.open(dir, 10_000, 500);
    expect(small.toMake(key, 'gen1', 1, 400)).toBe(false); // (some 48 bytes a fact: past 10,000 bytes)
  });
});
