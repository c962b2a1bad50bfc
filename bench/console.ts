/**
 * The web console (docs/console.md): its bundle, raw and gzipped; the first meaningful paint of
 * the query view on loopback (the page loaded with a key, the default query's result drawn:
 * the `parley:query-view` mark the console sets on the frame after it draws it); and the frame
 * rate while panning a 2,000-node result, from the browser's own frame timing
 * (requestAnimationFrame timestamps) in Debian's headless Chromium, twice: compositing on
 * SwiftShader as the tests' Chromium does, then in software as Chromium does without a GPU;
 * each time dragged without a pause, then with rests between drags (in which the console draws
 * the graph again where the camera stopped).
 * The server runs as `npm start` runs it, in a child process on 127.0.0.1.
 *
 *   npm run bench:console [-- --nodes 2000 --runs 5]
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/chromium.ts';
import { postJson, startServer, stopServer } from './http.ts';
import { median, percentile } from './stats.ts';

const { values: args } = parseArgs({ options: { nodes: { type: 'string', default: '2000' }, runs: { type: 'string', default: '5' } } });
const NODES = Number(args.nodes);
const RUNS = Number(args.runs);
const DIST = path.resolve(import.meta.dirname, '../packages/console/dist');

/** Long enough for the camera to rest and the graph to be drawn again (graph-pan.ts rests after 120 ms). */
const REST_BETWEEN_DRAGS_MS = 300;
/** Between two loads of the first-paint series: graph-pan.ts takes the graph's picture a second after its first drawing, work that would delay the next load's paint. */
const AFTER_FIRST_COPY_MS = 2_000;

console.log('## bundle\n\n| file | bytes | gzipped |\n|---|---|---|');
for (const name of (await readdir(DIST)).sort()) {
  const body = await readFile(path.join(DIST, name));
  console.log(`| ${name} | ${(await stat(path.join(DIST, name))).size} | ${gzipSync(body).length} |`);
}

/** A ring with chords: every actor has edges, so a query of edges binds all of them. Seeded: the same graph each run. */
function ringGraph(count: number) {
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const nodes = Array.from({ length: count }, (_, i) => ({ kind: 'Actor', id: `a${i}`, label: `Actor ${i}`, role: 'party', actor_type: i % 7 === 0 ? 'state' : 'armed_group', confidence: 0.5 + random() / 2 }));
  const edges = nodes.flatMap((_, i) => [
    { type: 'OPPOSES', from: `a${i}`, to: `a${(i + 1) % count}` },
    { type: 'ALLIED_WITH', from: `a${i}`, to: `a${Math.floor(random() * count)}` },
  ]).filter((edge) => edge.from !== edge.to);
  return { nodes, edges };
}

const dir = await mkdtemp(path.join(tmpdir(), 'parley-bench-console-'));
const adminKey = 'pk_bench_console_admin_key_0123456789abcdef';
const server = await startServer({ PARLEY_DATA_DIR: path.join(dir, 'data'), PARLEY_ADMIN_KEY: adminKey, PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_NER_MODEL_DIR: 'none' });
const browser = await launchChromium(path.join(dir, 'profile'));
try {
  const base = server.base;
  const key = (await postJson(`${base}/v1/keys`, adminKey, { tenant: 'bench', scope: 'write' })).json.api_key as string;
  const imported = await postJson(`${base}/v1/graphs/g/import`, key, ringGraph(NODES));
  if (imported.status >= 300) throw new Error(`import failed: ${JSON.stringify(imported.json)}`);

  const page = await browser.newPage();
  await page.addInitScript((secret) => sessionStorage.setItem('parley.api_key', secret), key);
  const paints: number[] = [];
  const contentful: number[] = [];
  for (let run = 0; run <= RUNS; run += 1) {
    if (run > 0) await page.waitForTimeout(AFTER_FIRST_COPY_MS);
    await page.goto(`${base}/console`);
    await page.waitForFunction(() => performance.getEntriesByName('parley:query-view').length > 0, undefined, { timeout: 60_000 });
    const [meaningful, firstContentful] = await page.evaluate(() => [performance.getEntriesByName('parley:query-view')[0].startTime, performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN]);
    // the first load warms the server's graph and the browser's cache: reported apart
    if (run === 0) console.log(`\n## first meaningful paint of the query view\n\nfirst load (cold): ${meaningful.toFixed(0)} ms`);
    else {
      paints.push(meaningful);
      contentful.push(firstContentful);
    }
  }
  console.log(`then ${RUNS} loads: median ${median(paints).toFixed(0)} ms, worst ${Math.max(...paints).toFixed(0)} ms (first contentful paint: median ${median(contentful).toFixed(0)} ms)`);

  await panResult(page, 'compositing on SwiftShader, as the tests run Chromium');
  // a second browser composites in software, as Chromium does on a machine without a GPU
  // (--ignore-gpu-blocklist above lets it composite on SwiftShader instead); WebGL is SwiftShader's in both
  const software = await launchChromium(path.join(dir, 'profile-software'), ['--disable-gpu-compositing']);
  try {
    const softwarePage = await software.newPage();
    await softwarePage.addInitScript((secret) => sessionStorage.setItem('parley.api_key', secret), key);
    await softwarePage.goto(`${base}/console`);
    await panResult(softwarePage, 'software compositing (--disable-gpu-compositing)');
  } finally {
    await software.close();
  }
} finally {
  await browser.close();
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
}

/** Runs the whole ring as the page's query, then drags the graph for three seconds, counting the frames. */
async function panResult(page: Page, compositing: string): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('parley:query-view').length > 0, undefined, { timeout: 60_000 });
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(`MATCH (a:Actor)-[r]->(b:Actor) RETURN a, r, b LIMIT ${NODES * 3}`);
  const started = Date.now();
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.waitForFunction((count) => document.getElementById('result-summary')?.textContent?.startsWith(`${count} nodes`), NODES, { timeout: 120_000 });
  const drawn = Date.now() - started;
  const summary = await page.locator('#result-summary').textContent();
  console.log(`\n## panning a ${NODES}-node result: ${compositing}\n\nresult: ${summary}; run to drawn (query, layout, WebGL upload): ${drawn} ms`);
  const box = (await page.locator('#result-graph').boundingBox())!;
  console.log(`dragged without a pause (the first drags after the result): ${await dragFrames(page, box, 0)}`);
  // the console draws the graph again once the camera rests (docs/console.md): these frames include those drawings
  console.log(`dragged with ${REST_BETWEEN_DRAGS_MS} ms at rest between drags: ${await dragFrames(page, box, REST_BETWEEN_DRAGS_MS)}`);
  // Chromium draws with SwiftShader here: the frames are the CPU's, and a loaded machine's frames are slower
  console.log(`machine load (1-minute average) while panning: ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);
}

/** Drags the graph around for three seconds, `rest` ms still between drags, and sums up the frames the page saw meanwhile. */
async function dragFrames(page: Page, box: { x: number; y: number; width: number; height: number }, rest: number): Promise<string> {
  // a string, not a function: tsx would wrap a function's inner names in a helper the page lacks
  const frames = page.evaluate(`new Promise((resolve) => {
    const stamps = [];
    const tick = (time) => {
      stamps.push(time);
      if (time - stamps[0] < 3000) requestAnimationFrame(tick);
      else resolve(stamps);
    };
    requestAnimationFrame(tick);
  })`) as Promise<number[]>;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    for (let step = 0; step < 20; step += 1) await page.mouse.move(centre.x + Math.sin(step / 3) * 200, centre.y + Math.cos(step / 3) * 120);
    await page.mouse.up();
    if (rest > 0) await page.waitForTimeout(rest);
  }
  const stamps = await frames;
  const intervals = stamps.slice(1).map((time, i) => time - stamps[i]);
  const seconds = (stamps[stamps.length - 1] - stamps[0]) / 1000;
  return `${intervals.length} frames in ${seconds.toFixed(2)} s = ${(intervals.length / seconds).toFixed(1)} fps; frame time median ${median(intervals).toFixed(1)} ms, p95 ${percentile(intervals, 95).toFixed(1)} ms, worst ${Math.max(...intervals).toFixed(1)} ms`;
}
