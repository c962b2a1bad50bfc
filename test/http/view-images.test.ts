import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../bench/conflict-graph.ts';
import { graphFile } from '../../engine/store/snapshot.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { until as untilHeld } from '../helpers/until.ts';

// A restarted server hands an untouched graph's view over from the view image a worker made beside the graph's
// snapshot (engine/reason/view-images.ts), and answers as it does from the records; a write, a corrupt image or
// a deletion leaves no image read. What was read is seen in the workers' count of views taken from an image
// (ReasoningPool.heldViews), not in timing.
const TENANT = 'tenant-a';
const QUESTION = 'What stage of escalation is this conflict in?';
/** A worker makes an image after a second with no task (30 s by default). */
const IMAGE_SOON = { viewImageIdleMs: 1_000 };

describe('view images across restarts of the server', () => {
  let dir: string;
  let key: string;
  let workspace: string;
  let t: TestApp | undefined;
  const imageFile = () => graphFile(path.join(dir, 'store', 'snapshots'), TENANT, 'g', 'view');
  const post = (url: string, payload: object) => t!.app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });
  /** The answers a client sees, less what differs from call to call (times, inferences, cache marks). */
  const answers = async () => {
    const assess = await post(`/v1/workspaces/${workspace}/assess`, {});
    const analyze = await post(`/v1/workspaces/${workspace}/analyze`, { query: QUESTION });
    expect([assess.statusCode, analyze.statusCode]).toEqual([200, 200]);
    return JSON.stringify([assess.json(), analyze.json()], (name, value) => (/^(elapsed_ms|inferences|duration_ms|cached|generated_at|run_ms)$/.test(name) ? undefined : value));
  };
  /** Whether an image other than `damaged` is on disk now: the damaged one refused, removed, and made again. */
  const remadeSince = (damaged: Buffer) => () => {
    try {
      return !readFileSync(imageFile()).equals(damaged);
    } catch {
      return false;
    }
  };
  const imagesRead = () => [...t!.deps.reasoning.heldViews().values()].reduce((sum, view) => sum + view.images, 0);
  const until = (done: () => boolean, ms = 90_000) => untilHeld(done, ms);
  /** A server on the data dir, its graphs warmed as after a start, once its worker's engine holds the graph's view. */
  const restart = async () => {
    await t?.close();
    t = await makeTestApp(IMAGE_SOON, { dir, keepData: true });
    await t.deps.reasoning.warmUp();
    expect(await t.deps.reasoning.viewsPrepared(TENANT, 'g', 120_000)).toBe(true);
  };

  beforeAll(async () => {
    t = await makeTestApp(IMAGE_SOON, { keepData: true });
    dir = t.dir;
    key = await t.keyFor(TENANT);
    await t.store.writeGraph(TENANT, 'g', generate(3_000).write);
    workspace = (await post('/v1/workspaces', { name: 'w', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'g' })).json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  let fromRecords: string;
  it('is made by the worker that took the view whole, once idle, and read in place of the records after a restart, the answers the same', { timeout: 300_000 }, async () => {
    fromRecords = await answers();
    expect(await until(() => existsSync(imageFile()))).toBe(true);
    await restart();
    expect(imagesRead()).toBe(1);
    expect(await answers()).toBe(fromRecords);
  });

  it('is read by an assess asked before any background hand-over of the view began, in place of the records', { timeout: 300_000 }, async () => {
    // no warm-up (as for a graph above its budget): the assess's task finds the engine holding no view, and the
    // hand-over its replica's snapshot asks for waits for the task; the task makes that hand-over, from the image
    // (and no runs stored by the assess before: the assess runs the frameworks)
    await t?.close();
    await rm(graphFile(path.join(dir, 'store', 'snapshots'), TENANT, 'g', 'runs'), { force: true });
    t = await makeTestApp(IMAGE_SOON, { dir, keepData: true });
    expect(await answers()).toBe(fromRecords);
    const [worker] = [...t.deps.reasoning.heldViews().values()];
    expect(worker).toMatchObject({ handOvers: 1, images: 1 });
    // (and /v1/health says so, by source, for a client that sees no pool)
    expect((await t.app.inject({ method: 'GET', url: '/v1/health' })).json().reasoning).toEqual({ workers: [{ hand_overs: { image: 1, records: 0, delta: 0 } }] });
    await restart();
  });

  it('is removed by a write, the view then handed over from the records, and made again of the new version', { timeout: 300_000 }, async () => {
    const write = await post('/v1/graphs/g/import', { nodes: [{ kind: 'Actor', id: 'late_actor', label: 'A late actor', role: 'party' }], edges: [] });
    expect(write.statusCode).toBe(200);
    expect(await until(() => !existsSync(imageFile()), 5_000)).toBe(true);
    await restart();
    expect(imagesRead()).toBe(0);
    expect((await t!.app.inject({ method: 'GET', url: '/v1/health' })).json().reasoning).toEqual({ workers: [{ hand_overs: { image: 0, records: 1, delta: 0 } }] });
    const written = await answers();
    expect(await until(() => existsSync(imageFile()))).toBe(true);
    await restart();
    expect(imagesRead()).toBe(1);
    expect(await answers()).toBe(written);
  });

  it('is refused when corrupt or torn: the view handed over from the records, the answers the same, and a new image made', { timeout: 300_000 }, async () => {
    const before = await answers();
    for (const damage of [(image: Buffer) => ((image[image.length - 50] ^= 0xff), image), (image: Buffer) => image.subarray(0, image.length >> 1)]) {
      await t!.close();
      t = undefined;
      const damaged = damage(await readFile(imageFile()));
      await writeFile(imageFile(), damaged);
      await restart();
      expect(imagesRead()).toBe(0);
      expect(await answers()).toBe(before);
      // (the refused image is removed at once, and the worker holding the view from the records makes the next)
      expect(await until(remadeSince(damaged))).toBe(true);
    }
  });

  it('is refused when its load throws, at the hand-over an assess makes before its runs: the answers the same, and a new image made', { timeout: 300_000 }, async () => {
    const before = await answers();
    // an image whose checks pass and whose load then throws: its header's name labels made a number, the digest made
    // again as the engine makes it (bridge.ts imageDigest: the header less the digest, a newline, the code)
    const file = await readFile(imageFile());
    const outer = file.indexOf(10);
    const inner = file.indexOf(10, outer + 1);
    const { sha256: _, ...header } = JSON.parse(file.subarray(outer + 1, inner).toString());
    const code = file.subarray(inner + 1);
    const broken = { ...header, names: 42 };
    const digest = createHash('sha256').update(JSON.stringify(broken)).update('\n').update(code).digest('hex');
    const damaged = Buffer.concat([file.subarray(0, outer + 1), Buffer.from(JSON.stringify({ ...broken, sha256: digest }) + '\n'), code]);
    await t!.close();
    await writeFile(imageFile(), damaged);
    await rm(graphFile(path.join(dir, 'store', 'snapshots'), TENANT, 'g', 'runs'), { force: true });
    // no warm-up: the assess's task hands the view over from the image before its runs (worker-entry.ts handOverBeforeTask)
    t = await makeTestApp(IMAGE_SOON, { dir, keepData: true });
    expect(await answers()).toBe(before);
    expect(imagesRead()).toBe(0);
    // (refused as one that does not load: removed at once, and the worker holding the view from the records makes the next)
    expect(await until(remadeSince(damaged))).toBe(true);
    await restart();
    expect(imagesRead()).toBe(1);
  });

  it('is removed with its graph', { timeout: 120_000 }, async () => {
    expect(existsSync(imageFile())).toBe(true);
    expect((await t!.app.inject({ method: 'DELETE', url: '/v1/graphs/g', headers: { 'x-api-key': key } })).statusCode).toBe(204);
    expect(await until(() => !existsSync(imageFile()), 5_000)).toBe(true);
  });
});
