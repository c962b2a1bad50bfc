import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../server/routes/console.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { HOSTILE, HOSTILE_DOCUMENT, seedGraph } from './hostile.ts';

/**
 * The console end to end: the real server listening on a loopback port over a temp store, driven
 * by headless Chromium (one browser, one page for all cases, in order). The graph's texts hold
 * script tags, event handlers and javascript: links; nothing may run, load or be asked for.
 */

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../.tmp/console-screenshots');
const ONE_EDGE = 'MATCH (a:Actor)-[r:OPPOSES]->(b:Actor)\nRETURN a, r, b';

describe('the web console in headless Chromium', { timeout: 300_000 }, () => {
  let test: TestApp;
  let base: string;
  let key: string;
  let keyId: string;
  let browser: BrowserContext;
  let page: Page;
  let work: string;
  let beforeRetraction = 0;
  const dialogs: string[] = [];
  const violations: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const unexpected: string[] = [];

  /** Replaces the editor's text as a user would: select all, delete, type. */
  const typeQuery = async (text: string) => {
    await page.locator('#editor .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
  };
  const shoot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  const message = () => page.locator('#message');
  const summary = () => page.locator('#result-summary');

  beforeAll(async () => {
    test = await makeTestApp();
    base = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const created = await test.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': test.adminKey }, payload: { tenant: 'analysts', scope: 'write' } });
    ({ api_key: key, key_id: keyId } = created.json());
    const headers = { 'x-api-key': key };
    const workspace = await test.app.inject({ method: 'POST', url: '/v1/workspaces', headers, payload: { name: 'Sudan', domain: 'armed', scale: 'macro', tier: 'full', graph_id: 'sudan' } });
    expect(workspace.statusCode).toBe(201);
    const imported = await test.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers, payload: seedGraph() });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    const ingested = await test.app.inject({ method: 'POST', url: '/v1/graphs/sudan/ingest', headers, payload: { source: 'hostile.txt', text: HOSTILE_DOCUMENT } });
    expect(ingested.statusCode, ingested.body).toBeLessThan(300);
    await mkdir(SCREENSHOTS, { recursive: true });
    work = await mkdtemp(path.join(tmpdir(), 'parley-console-'));
    browser = await launchChromium(path.join(work, 'profile'));
    page = await browser.newPage();
    await page.exposeFunction('reportViolation', (text: string) => violations.push(`${expect.getState().currentTestName} ${text}`));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) => (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample} ${(event.target as Element)?.outerHTML?.slice(0, 150)}`)),
    );
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (entry) => {
      if (entry.type() === 'error') consoleErrors.push(entry.text());
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      const ours = url.origin === base && (/^\/console(\/(console\.js|console\.css|countries-110m\.json))?$/.test(url.pathname) || url.pathname.startsWith('/v1/'));
      if (!ours && url.protocol !== 'blob:' && url.protocol !== 'data:') unexpected.push(request.url());
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await test?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('serves the page with a strict Content-Security-Policy, and only its own files', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/console' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(response.body).not.toMatch(/<script>|<style>| style=/);
    for (const name of ['..%2Fpackage.json', '.env', 'nothing.js']) {
      const refused = await test.app.inject({ method: 'GET', url: `/console/${name}` });
      expect(refused.statusCode, name).toBe(404);
      expect(refused.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('a wrong key shows a clear message and keeps the form', async () => {
    await page.goto(`${base}/console`);
    await page.getByLabel('API key').fill('pk_not_a_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => message().textContent()).toContain('not accepted');
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    await shoot('01-wrong-key');
  });

  it('enter the key, run a query, and see the graph and the table', async () => {
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#workbench').waitFor();
    await typeQuery('MATCH (a:Actor)-[r]->(b)\nRETURN a, r, b');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^\d+ nodes, \d+ edges/);
    const [nodes, edges] = (await summary().textContent())!.match(/\d+/g)!.map(Number);
    expect(nodes).toBeGreaterThanOrEqual(4);
    expect(edges).toBeGreaterThanOrEqual(3);
    // sigma drew into its WebGL canvases
    expect(await page.locator('#result-graph canvas').count()).toBeGreaterThan(0);
    // styled by kind and actor type, the colours named
    expect(await page.locator('#result-graph .graph-legend li').allTextContents()).toEqual(expect.arrayContaining(['Actor (armed_forces)', 'Actor (armed_group)', 'Claim']));
    // highlighted: keywords, labels and variables in their own spans
    expect(await page.locator('#editor .cm-line span').count()).toBeGreaterThan(2);
    await shoot('02-query-graph');
    await page.getByRole('tab', { name: 'Table result' }).click();
    const table = page.locator('#result-table');
    await expect.poll(() => table.textContent()).toContain('Rapid Support Forces');
    expect(await table.textContent()).toContain(HOSTILE.actor);
    expect(await table.locator('img, script').count()).toBe(0);
    await shoot('03-query-table');
    await page.getByRole('tab', { name: 'Plan result' }).click();
    await expect.poll(() => page.locator('#result-plan').textContent()).toContain('Goal');
    await shoot('04-query-plan');
    await page.getByRole('tab', { name: 'Graph result' }).click();
  });

  it('a query error is underlined at the line and column the server reports', async () => {
    await typeQuery('MATCH (a:Actor)\nRETRUN a');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => message().textContent()).toContain('line 2, column 1');
    expect(await message().textContent()).toContain('RETURN');
    await page.locator('.cm-lintRange-error').first().waitFor();
    expect(await page.locator('.cm-lintRange-error').first().textContent()).toBe('RETRUN');
    await shoot('05-query-error');
  });

  it('click an edge and read its quote, as written', async () => {
    await typeQuery(ONE_EDGE);
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^2 nodes, 1 edges/);
    // two nodes, one edge: the layout puts them level, either side of the canvas's centre
    const box = (await page.locator('#result-graph').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const inspector = page.locator('#inspector');
    await expect.poll(() => inspector.textContent()).toContain('Provenance (1)');
    expect(await inspector.locator('h3').textContent()).toBe('rsf -[OPPOSES]-> saf');
    expect(await inspector.locator('blockquote mark').textContent()).toBe(HOSTILE.quote);
    expect(await inspector.locator('img, a, script').count()).toBe(0);
    await shoot('06-edge-quote');
  });

  it('dragged or moved by the keys, the graph follows, and a click lands on what is under the pointer now', async () => {
    const EDGE = 'rsf -[OPPOSES]-> saf';
    const inspector = page.locator('#inspector');
    const graph = page.locator('#result-graph');
    // another record open first, so that opening the edge is news
    const openRsfFromTheTable = async () => {
      await page.getByRole('tab', { name: 'Table result' }).click();
      await page.locator('#result-table button.link', { hasText: 'Rapid Support Forces' }).first().click();
      await expect.poll(() => inspector.locator('h3').textContent()).toBe('Actor Rapid Support Forces');
      await page.getByRole('tab', { name: 'Graph result' }).click();
    };
    await openRsfFromTheTable();
    const box = (await graph.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    /** Where the picture of the last drawing is shown: its offset and scale, or null while sigma's own layers show. */
    const picture = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.querySelector('#result-graph .graph-picture')!);
        const { e: dx, f: dy, a: scale } = new DOMMatrixReadOnly(style.transform);
        return style.visibility === 'visible' ? { dx, dy, scale } : null;
      });
    // from above the edge, 120 px down: the edge, level through the centre, goes with it
    await page.mouse.move(centre.x, centre.y - 100);
    await page.mouse.down();
    for (let step = 1; step <= 6; step += 1) await page.mouse.move(centre.x, centre.y - 100 + step * 10);
    const halfway = await picture();
    for (let step = 7; step <= 12; step += 1) await page.mouse.move(centre.x, centre.y - 100 + step * 10);
    const moved = await picture();
    // mid-drag the picture of a drawing is shown, not drawn again, and moves as far as the pointer does
    if (!halfway || !moved) throw new Error(`the picture is not shown mid-drag: ${JSON.stringify({ halfway, moved })}`);
    expect(moved.scale).toBe(1);
    expect([moved.dx - halfway.dx, moved.dy - halfway.dy].map((value) => Math.round(value) + 0)).toEqual([0, 60]);
    await shoot('06b-graph-mid-drag');
    // held still before the release, so that the camera does not glide on; then past sigma's double-click time
    await page.waitForTimeout(250);
    await page.mouse.up();
    await page.waitForTimeout(400);
    await page.mouse.click(centre.x, centre.y + 120);
    await expect.poll(() => inspector.locator('h3').textContent()).toBe(EDGE);
    await shoot('06c-graph-after-drag');

    // an arrow key, and at once a click where the edge was: the picking buffers drawn before the
    // key still hold the edge there, so the click draws first, then finds nothing
    await openRsfFromTheTable();
    await graph.focus();
    await page.keyboard.press('ArrowDown');
    await page.mouse.click(centre.x, centre.y + 120);
    await page.waitForTimeout(500);
    expect(await inspector.locator('h3').textContent()).toBe('Actor Rapid Support Forces');
    // and hovering finds the edge where the camera put it (sigma picks edges at half resolution: every other pixel)
    const hoversEdgeAt = async (y: number) => {
      await page.mouse.move(centre.x, y);
      return (await graph.getAttribute('class'))?.includes('pointing') ?? false;
    };
    let found: number | undefined;
    for (let y = box.y + 4; y < box.y + box.height - 4 && found === undefined; y += 2) if (await hoversEdgeAt(y)) found = y;
    expect(found).toBeDefined();
    expect(Math.abs(found! - (centre.y + 120))).toBeGreaterThan(10);
    await page.mouse.click(centre.x, found!);
    await expect.poll(() => inspector.locator('h3').textContent()).toBe(EDGE);
  });

  it('retract it with a reason, and after a reload it is gone', async () => {
    const inspector = page.locator('#inspector');
    await inspector.getByLabel('Correction', { exact: true }).selectOption('retract');
    await inspector.getByLabel('Reason for the correction').fill('the report confuses the two forces');
    beforeRetraction = Date.now();
    await inspector.getByRole('button', { name: 'Apply correction' }).click();
    await expect.poll(() => message().textContent()).toContain('retract of fight recorded');
    await expect.poll(() => inspector.textContent()).toContain('Corrections (1)');
    expect(await inspector.textContent()).toContain('the report confuses the two forces');
    await page.reload();
    await expect.poll(() => summary().textContent()).toMatch(/^0 nodes, 0 edges/);
    const trace = await test.app.inject({ method: 'GET', url: '/v1/graphs/sudan/edges/fight', headers: { 'x-api-key': key } });
    expect(trace.json().retracted).toBe(true);
    await shoot('07-after-retract-reload');
  });

  it('the as_of slider replays the graph as it was: before the retraction the edge is back', async () => {
    const slider = page.getByLabel('As of: replay the graph as it was');
    // the step whose instant falls between the import and the retraction
    const step = await slider.evaluate((input: HTMLInputElement, before) => {
      const [from, to] = [Date.parse(input.dataset.from!), Date.parse(input.dataset.to!)];
      return Math.floor(((before - from) / (to - from)) * Number(input.max));
    }, beforeRetraction);
    await slider.evaluate((input: HTMLInputElement, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, step);
    await expect.poll(() => summary().textContent()).toMatch(/^2 nodes, 1 edges, \d+ rows as of /);
    expect(await page.locator('#as-of-value').textContent()).not.toBe('now');
    await shoot('08-as-of');
    // and by the keyboard, back to now
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => summary().textContent()).toMatch(/^0 nodes, 0 edges/);
    expect(await page.locator('#as-of-value').textContent()).toBe('now');
  });

  it('the timeline shows the events by month and by type, with the dead, their labels as text', async () => {
    await page.getByRole('tab', { name: 'Timeline view' }).click();
    const timeline = page.locator('#view-timeline');
    await expect.poll(() => timeline.locator('.month').count()).toBeGreaterThanOrEqual(3);
    expect(await timeline.locator('[aria-label="Events per month, by type"]').getAttribute('role')).toBe('list');
    // e1, and the attack the ingested document reports; then e3 and the militia's raid
    expect(await timeline.locator('.month[aria-label^="2024-03"]').getAttribute('aria-label')).toBe('2024-03: 2 events (2 ASSAULT), 12 killed');
    expect(await timeline.locator('.month[aria-label^="2024-04"]').getAttribute('aria-label')).toBe('2024-04: 2 events (2 ASSAULT), 8 killed');
    expect(await timeline.locator('[aria-label="Killed per month"] [role=listitem]').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(['2024-03: 12 killed', '2024-04: 8 killed', '2024-05: 0 killed']);
    const byType = timeline.getByRole('table', { name: 'Events by type' });
    expect(await byType.locator('tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLTableRowElement).innerText.split('\t').join(' ')))).toEqual(['ASSAULT 4 20', 'PROTEST 1 0']);
    expect(await timeline.textContent()).toContain(HOSTILE.event);
    expect(await timeline.textContent()).toContain(HOSTILE.raid);
    expect(await timeline.locator('b, img, script').count()).toBe(0);
    await shoot('09-timeline');
    // one type alone, chosen by the keyboard
    await byType.getByRole('button', { name: 'Show only PROTEST events' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => timeline.locator('.month').count()).toBe(1);
    expect(await timeline.getByLabel('Event type to show').inputValue()).toBe('PROTEST');
    expect(await timeline.getByRole('table', { name: 'Events', exact: true }).textContent()).toContain('march in Khartoum');
    expect(await timeline.getByRole('table', { name: 'Events', exact: true }).textContent()).not.toContain(HOSTILE.event);
    await shoot('09b-timeline-one-type');
    await timeline.getByLabel('Event type to show').selectOption('');
    await expect.poll(() => timeline.locator('.month').count()).toBe(3);
  });

  it('the escalation trajectory shows the stage and phase per period of each conflict, its names as text', async () => {
    await page.getByRole('tab', { name: 'Trajectory view' }).click();
    const view = page.locator('#view-trajectory');
    const table = view.locator('table.trajectory');
    await table.waitFor({ timeout: 120_000 });
    const groups = await table.locator('tbody th[scope=rowgroup]').allTextContents();
    expect(groups[0]).toBe('The whole graph');
    // the second conflict is named after its parties, whose labels are markup: shown as written
    const hostile = groups.find((name) => name.includes(HOSTILE.party));
    expect(hostile).toContain(HOSTILE.otherParty);
    expect(await table.locator('thead th').allTextContents()).toEqual(['conflict', '', '2024-03', '2024-04', '2024-05']);
    // the militia's raid (2024-04) escalated: a stage, coloured by Glasl's level
    const stage = table.getByRole('button', { name: `${hostile}, 2024-04: Glasl's stage, stage`, exact: false });
    expect(await stage.textContent()).toMatch(/^[1-9]$/);
    expect(await stage.getAttribute('class')).toMatch(/cell (win-win|win-lose|lose-lose)/);
    expect(await table.getByRole('button', { name: `${hostile}, 2024-04: Kriesberg's phase`, exact: false }).textContent()).toMatch(/^[a-z -]+$/);
    expect(await view.locator('script, img, a, b').count()).toBe(0);
    await shoot('09c-trajectory');
    // a period's statements, by the keyboard
    await stage.focus();
    await page.keyboard.press('Enter');
    const detail = view.locator('#trajectory-detail');
    await expect.poll(() => detail.locator('h3').textContent()).toBe(`${hostile}, 2024-04`);
    expect(await detail.textContent()).toMatch(/Glasl stage [1-9] of 9/);
    await shoot('09d-trajectory-period');
    // by quarter
    await view.getByLabel('Period of the trajectory').selectOption('quarter');
    await expect.poll(() => table.locator('thead th').allTextContents(), { timeout: 120_000 }).toEqual(['conflict', '', '2024-Q1', '2024-Q2']);
  });

  it('the map shades the countries with places, and one clicked filters the timeline, the query and the review queue under a chip that clears it', async () => {
    await page.getByRole('tab', { name: 'Map view' }).click();
    const sudan = page.locator('#view-map path[data-country="SD"]');
    await sudan.waitFor();
    expect(await page.locator('#view-map path').count()).toBeGreaterThan(150);
    expect(await sudan.getAttribute('fill')).not.toBe('#dfe6ee');
    await shoot('10-map');
    await sudan.click();
    await expect.poll(() => page.locator('.map-side h3').textContent()).toBe('Sudan (SD)');
    expect(await page.locator('.map-side').textContent()).toContain('Khartoum (city)');
    await shoot('11-map-sudan');
    await page.getByRole('tab', { name: 'Timeline view' }).click();
    await expect.poll(() => page.locator('#view-timeline').textContent()).toContain('Only events in SD');
    // e3 names no place: filtered out
    expect(await page.locator('#view-timeline').textContent()).not.toContain('attack on El Fasher');
    const chip = page.locator('#place-filter');
    expect(await chip.isVisible()).toBe(true);
    expect(await chip.textContent()).toContain('Only what is tied to Sudan (SD)');
    // the query: only the actors taking part in events in Khartoum, and those events
    await page.getByRole('tab', { name: 'Query view' }).click();
    await typeQuery('MATCH (a:Actor)-[r]->(b)\nRETURN a, r, b');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => summary().textContent()).toContain('tied to SD');
    await page.getByRole('tab', { name: 'Table result' }).click();
    const table = page.locator('#result-table');
    expect(await table.textContent()).toContain('Rapid Support Forces');
    expect(await table.textContent()).toContain(HOSTILE.actor);
    expect(await table.textContent()).not.toContain('Sudanese Armed Forces');
    expect(await table.locator('img, script').count()).toBe(0);
    await shoot('11-map-filtered-table');
    await page.getByRole('tab', { name: 'Review view' }).click();
    await expect.poll(() => page.locator('#view-review').textContent()).toContain('only what is tied to Sudan (SD)');
    expect(await page.locator('#view-review .review-unsure').textContent()).toContain(`PARTICIPATES_IN ${HOSTILE.actor} → march in Khartoum`);
    // cleared from the keyboard: every view shows everything again
    await page.getByRole('button', { name: 'Clear the filter: Sudan (SD)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => chip.isVisible()).toBe(false);
    await expect.poll(() => page.locator('#view-review').textContent()).not.toContain('tied to');
    await page.getByRole('tab', { name: 'Query view' }).click();
    expect(await summary().textContent()).not.toContain('tied to');
    expect(await table.textContent()).toContain('Sudanese Armed Forces');
    await page.getByRole('tab', { name: 'Graph result' }).click();
    await page.getByRole('tab', { name: 'Timeline view' }).click();
    await expect.poll(() => page.locator('#view-timeline').textContent()).toContain('attack on El Fasher');
  });

  it('ask a question and see the answer first, the readings below', async () => {
    await page.getByRole('tab', { name: 'Analyze view' }).click();
    await page.getByLabel('Question').fill('Who could spoil an agreement?');
    await page.getByRole('button', { name: 'Ask' }).click();
    const answer = page.locator('#answer');
    await answer.waitFor({ timeout: 120_000 });
    expect((await answer.textContent())!.length).toBeGreaterThan(20);
    const order = await page.locator('#analysis h3').allTextContents();
    expect(order).toEqual(['Answer', 'Readings']);
    await shoot('12-analyze');
    await page.getByRole('button', { name: 'Rank frameworks' }).click();
    await page.locator('#ranking li').first().waitFor({ timeout: 120_000 });
    const fits = await page.locator('#ranking > li > .muted:first-of-type').allTextContents();
    const values = fits.map((text) => Number(/fit ([\d.]+)/.exec(text)![1]));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    await shoot('13-assess');
  });

  it('the review queue lists the disputed and the least sure records newest first, with their dates, as text', async () => {
    // two disputes recorded a day apart (as an export writes recorded_at), beside the seeded graph
    const recorded = (day: string) => `2024-06-0${day}T08:30:00.000Z`;
    const disputes = {
      nodes: [
        { kind: 'Claim', id: 'truce-claim', type: 'Position', text: 'the truce holds in Sennar', recorded_at: recorded('1') },
        { kind: 'Event', id: 'sennar-clash', event_type: 'ASSAULT', label: 'clash in Sennar', recorded_at: recorded('1') },
        { kind: 'Claim', id: 'port-claim', type: 'Denial', text: 'no ship was seized at the port', recorded_at: recorded('2') },
        { kind: 'Event', id: 'port-seizure', event_type: 'ASSAULT', label: 'ship seized at the port', recorded_at: recorded('2') },
      ],
      edges: [
        { type: 'CONTRADICTS', from: 'truce-claim', to: 'sennar-clash', recorded_at: recorded('1') },
        { type: 'CONTRADICTS', from: 'port-claim', to: 'port-seizure', recorded_at: recorded('2') },
      ],
    };
    const imported = await test.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: disputes });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    await page.getByRole('tab', { name: 'Review view' }).click();
    const review = page.locator('#view-review');
    await expect.poll(() => review.textContent()).toContain('Least sure extractions');
    const listed = review.locator('.review-disputes > li');
    expect(await listed.locator('button').allTextContents()).toEqual(['Claim port-claim', 'Event port-seizure', 'Event sennar-clash', 'Claim truce-claim']);
    expect(await listed.locator('time').allTextContents()).toEqual(['2024-06-02 08:30', '2024-06-02 08:30', '2024-06-01 08:30', '2024-06-01 08:30']);
    // the least sure: the ingested document's records, then the seeded ones, each with its date; the hostile actor's name as written
    const unsure = review.locator('.review-unsure > li');
    const times = await unsure.locator('time').evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThan(1);
    expect(times).toEqual([...times].sort().reverse());
    const items = await unsure.allTextContents();
    expect(items.some((text) => text.includes(`PARTICIPATES_IN ${HOSTILE.actor} → march in Khartoum (0.30)`))).toBe(true);
    expect(items.some((text) => text.includes(`Actor ${HOSTILE.actor} (0.40)`))).toBe(true);
    expect(await review.locator('img, script, a, b').count()).toBe(0);
    await shoot('14-review');
    // a record opens in the inspector
    await listed.getByRole('button', { name: 'Event port-seizure' }).click();
    await expect.poll(() => page.locator('#inspector').textContent()).toContain('ship seized at the port');
  });

  it("a node's neighbours expand by relationship type", async () => {
    await page.getByRole('tab', { name: 'Query view' }).click();
    await typeQuery("MATCH (a:Actor) WHERE a.label = 'Sudanese Armed Forces' RETURN a");
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^1 nodes/);
    await page.getByRole('tab', { name: 'Table result' }).click();
    await page.locator('#result-table').getByRole('button', { name: 'Sudanese Armed Forces' }).click();
    const inspector = page.locator('#inspector');
    await inspector.getByLabel('Relationship type to expand by').selectOption('ASSERTS');
    await inspector.getByRole('button', { name: 'Expand neighbours' }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^2 nodes, 1 edges/);
    expect(await page.locator('#result-table').textContent()).toContain(HOSTILE.claim);
    await page.getByRole('tab', { name: 'Graph result' }).click();
  });

  it('find an actor, a place or a claim by name, and expand its neighbours within a bound', async () => {
    const inspector = page.locator('#inspector');
    const find = async (kind: string, words: string) => {
      await page.getByLabel('Kind to find').selectOption(kind);
      await page.getByLabel('Name or words to find').fill(words);
      await page.getByLabel('Name or words to find').press('Enter');
    };
    // a place, by part of its name: the one found opens at once
    await find('Location', 'khart');
    await expect.poll(() => inspector.locator('h3').textContent()).toBe('Location Khartoum');
    expect(await summary().textContent()).toMatch(/^1 nodes/);
    // an actor by an alias only (the ingested document's)
    await find('Actor', 'sudan army');
    await expect.poll(() => inspector.locator('h3').textContent()).toBe('Actor Sudanese Armed Forces');
    expect(await summary().textContent()).toMatch(/^1 nodes/);
    expect(await page.locator('#editor .cm-content').textContent()).toContain("CONTAINS 'sudan army'");
    await shoot('17-find-actor');
    // its neighbours, at most one
    await inspector.getByLabel('Relationship type to expand by').selectOption('');
    await inspector.getByLabel('At most this many neighbours (1 to 1000)').fill('1');
    await inspector.getByRole('button', { name: 'Expand neighbours' }).click();
    await expect.poll(() => summary().textContent()).toMatch(/^2 nodes, 1 edges, 1 rows/);
    expect(await page.locator('#editor .cm-content').textContent()).toContain('LIMIT 1');
    // any kind, by words of markup: the claim and the militia, as written
    await find('', '<script>');
    await expect.poll(() => summary().textContent()).toMatch(/^[2-9] nodes/);
    await page.getByRole('tab', { name: 'Table result' }).click();
    const table = page.locator('#result-table');
    await expect.poll(() => table.textContent()).toContain(HOSTILE.party);
    expect(await table.textContent()).toContain(HOSTILE.claim);
    expect(await table.locator('img, script, a, b').count()).toBe(0);
    await shoot('18-find-markup');
    await page.getByRole('tab', { name: 'Graph result' }).click();
    // nothing found says so
    await find('Claim', 'no such words anywhere');
    await expect.poll(() => message().textContent()).toContain('Nothing found for "no such words anywhere"');
  });

  it('export CSV of what is shown', async () => {
    await typeQuery('MATCH (a:Actor) RETURN a.label AS actor, a.role AS role ORDER BY actor');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => summary().textContent()).toContain('rows');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('sudan.csv');
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('actor,role');
    expect(lines).toContain(`"${HOSTILE.actor.replace(/"/g, '""')}",observer`);
    expect(lines).toContain('Rapid Support Forces,party');
  });

  it('a server error shows a clear message, not a blank view', async () => {
    await page.route('**/v1/graph/query', (route) =>
      route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ status: 500, code: 'internal_error', title: 'Internal Server Error', detail: 'the store failed' }) }),
    );
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => message().textContent()).toContain('The server failed to answer (500 internal_error): the store failed');
    await shoot('15-server-error');
    // a view that fails to read says so in itself too, not a blank page
    await page.getByRole('tab', { name: 'Timeline view' }).click();
    await expect.poll(() => page.locator('#view-timeline').textContent()).toContain('Could not read the events and places: The server failed to answer (500 internal_error)');
    await page.route('**/v1/workspaces/*/assess', (route) => route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ status: 503, code: 'busy', detail: 'every reasoning worker is busy' }) }));
    await page.getByRole('tab', { name: 'Trajectory view' }).click();
    await expect.poll(() => page.locator('#view-trajectory').textContent()).toContain('Could not draw the trajectory: The server failed to answer (503 busy): every reasoning worker is busy');
    expect(await message().textContent()).toContain('503 busy');
    await shoot('15b-server-error-trajectory');
    await page.unroute('**/v1/workspaces/*/assess');
    await page.getByRole('tab', { name: 'Query view' }).click();
    await page.unroute('**/v1/graph/query');
  });

  it('an expired session (the key revoked) says so and asks for a key again', async () => {
    const revoked = await test.app.inject({ method: 'DELETE', url: `/v1/keys/${keyId}`, headers: { 'x-api-key': test.adminKey } });
    expect(revoked.statusCode).toBeLessThan(300);
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => message().textContent()).toContain('Your session has expired');
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('parley.api_key'))).toBeNull();
    await shoot('16-session-expired');
  });

  it('nothing in the graph ran, loaded or asked: no dialog, no page error, no request elsewhere', () => {
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(violations).toEqual([]);
    // the refused key, the expired one and the failed requests log their status; nothing else (no CSP violation)
    expect(consoleErrors.filter((text) => !/status of (400|401|500|503)/.test(text))).toEqual([]);
  });
});
