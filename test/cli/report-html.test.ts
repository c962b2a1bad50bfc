import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExtractionPipeline, type ExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { ingestFolder, type BatchSummary } from '../../engine/ingest/batch.ts';
import { assessGraph } from '../../engine/reason/assess.ts';
import { buildCorpusReport, type CorpusReport } from '../../packages/cli/src/report/corpus-report.ts';
import { ReasoningPool } from '../../engine/reason/pool.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { expectedMarks, renderReportHtml } from '../../packages/cli/src/report/html.ts';

/**
 * A corpus report built from a real batch (rule worker pool, LevelDB, reasoning
 * workers) and opened in headless Chromium: every chart must draw, with as many marks
 * as report.json says, and the page must fetch nothing.
 */

const CHROMIUM = '/usr/bin/chromium';
const SAMPLE = path.resolve(import.meta.dirname, '../../corpora/sudan-drc-2024');
/** Documents of the sample corpus that state oppositions and alliances, dated over three quarters. */
const DOCUMENTS = ['drc-01-sake-clashes.txt', 'drc-08-kanyabayonga.txt', 'drc-10-experts-report.txt', 'drc-12-wazalendo.md', 'sudan-12-khartoum-bridges.txt', 'sudan-13-kayka-defection.html'];

describe('report.html in headless Chromium', { timeout: 300_000 }, () => {
  let work: string;
  let store: ParleyStore;
  let pipeline: ExtractionPipeline;
  let reasoning: ReasoningPool;
  let summary: BatchSummary;
  let report: CorpusReport;
  let browser: BrowserContext;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is missing at ${CHROMIUM}: this test needs Debian's chromium package (apt-get install -y chromium); .ci/run installs it`);
    }
    work = await mkdtemp(path.join(tmpdir(), 'parley-report-'));
    const corpus = path.join(work, 'corpus');
    await mkdir(corpus);
    for (const name of DOCUMENTS) await copyFile(path.join(SAMPLE, name), path.join(corpus, name));
    await writeFile(path.join(corpus, 'scan.txt'), Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]));

    store = await ParleyStore.open(path.join(work, 'store'));
    ({ pipeline } = await openExtractionPipeline({ symbolicWorkers: 1 }));
    reasoning = await ReasoningPool.open(store, { workers: 1 });
    summary = await ingestFolder({ store, pipeline }, corpus, { tenant: 't', graphId: 'g', workers: 1 });
    const assessed = await assessGraph(reasoning, 't', 'g', { trajectory: { period: 'quarter' }, byConflict: true, limits: { inferenceLimit: 1_000_000, timeLimitMs: 20_000 } });
    report = buildCorpusReport(await store.loadGraph('t', 'g'), 'g', corpus, summary, assessed);
    await writeFile(path.join(work, 'report.html'), renderReportHtml(report));
    browser = await chromium.launchPersistentContext(path.join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await reasoning?.close();
    await pipeline?.close();
    await store?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the batch went past the bad file and the report lists it with its reason', () => {
    expect(summary.ingested).toBe(DOCUMENTS.length);
    expect(summary.failures).toEqual([{ source: 'scan.txt', code: 'source_not_text', reason: expect.stringContaining('binary') }]);
    expect(report.documents.map((document) => document.source)).toEqual([...DOCUMENTS].sort());
    expect(report.documents.every((document) => document.actors > 0 && document.published_at)).toBe(true);
    expect(report.red_lines.length).toBeGreaterThan(0);
    for (const line of report.red_lines) expect(line.sources.every((source) => DOCUMENTS.includes(source.source))).toBe(true);
  });

  it('every chart draws its marks, and the page loads nothing from outside', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`file://${path.join(work, 'report.html')}`);

    const expected = expectedMarks(report);
    // the Sudan and DRC documents are two conflicts, each with its stage and phase per quarter drawn
    expect(report.conflicts.length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(expected).filter((chart) => chart.startsWith('escalation-conflict_')).length).toBeGreaterThanOrEqual(2);
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll<SVGSVGElement>('svg[data-chart]')].map((svg) => {
        const box = svg.getBBox();
        const marks = [...svg.querySelectorAll<SVGGraphicsElement>('.mark')];
        return {
          chart: svg.dataset.chart!,
          width: box.width,
          height: box.height,
          marks: marks.length,
          // a mark with no area is not drawn (lines have zero width or height, not both)
          visible: marks.filter((mark) => { const b = mark.getBBox(); return b.width > 0 || b.height > 0; }).length,
        };
      }),
    );
    expect(drawn.map((chart) => chart.chart).sort()).toEqual(Object.keys(expected).sort());
    for (const chart of drawn) {
      expect(expected[chart.chart], chart.chart).toBeGreaterThan(0);
      expect(chart.marks, chart.chart).toBe(expected[chart.chart]);
      expect(chart.visible, chart.chart).toBe(chart.marks);
      expect(chart.width * chart.height, chart.chart).toBeGreaterThan(0);
    }
    expect(await page.locator('text=scan.txt').count()).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith('file://'))).toEqual([]);
    await page.close();
  });

  it("quotes the evidence of each framework's findings, with its source and date, beside the ranking", async () => {
    const page = await browser.newPage();
    await page.goto(`file://${path.join(work, 'report.html')}`);
    // the evidence column of the whole-graph table and of each conflict's table
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll('table')]
        .filter((table) => [...table.querySelectorAll('th')].at(-1)?.textContent === 'evidence')
        .flatMap((table) => [...table.querySelectorAll('tbody tr')].map((row) => row.lastElementChild!))
        .flatMap((cell) => [...cell.querySelectorAll('div')].map((entry) => ({ id: entry.querySelector('code')?.textContent ?? '', text: entry.textContent ?? '' }))),
    );
    const cited = new Map([...report.citations, ...report.conflicts.flatMap((conflict) => conflict.citations)].map((citation) => [citation.id, citation]));
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      const citation = cited.get(cell.id);
      expect(citation?.quote, cell.id).toBeTruthy();
      expect(cell.text).toContain(citation!.quote);
      expect(cell.text).toContain(citation!.source);
    }
    await page.close();
  });
});
