/**
 * The conflict vignettes (corpora/vignettes/*.json) run through every framework: per vignette,
 * the assess ranking's top 3 against the readings an expert expects, Glasl's stage against its
 * expected range, the home framework's expected conclusions, how many frameworks share the top
 * score, and whether analyze's answer to the vignette's question names the expected concept.
 * The totals are what the scoring is calibrated on (test/frameworks/vignettes.test.ts), always
 * over the whole set at once.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { FrameworkCatalog } from '../../engine/frameworks/loader.ts';
import { routeQuestion } from '../../engine/frameworks/intents.ts';
import { frameworksFor, rankAssessments, writeAnalysis, type Assessment } from '../../engine/reason/analysis.ts';
import { runFramework, type FrameworkRun } from '../../engine/frameworks/run.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import { generate } from '../conflict-graph.ts';
import { graphWriteFromJson } from '../../engine/store/transfer.ts';

export const VIGNETTES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../corpora/vignettes');
const LIMITS = { inferenceLimit: 5_000_000, timeLimitMs: 30_000 };

export interface Vignette {
  description: string;
  literature: string;
  /** Frameworks an expert expects among the strongest readings. */
  expected: string[];
  why: string;
  /** Glasl's stage range [lo, hi]; 0 stands for no stage (before stage 1). */
  glasl_stage: [number, number];
  home: string;
  home_conclusions: { key: string; value?: unknown }[];
  question: string;
  /** A word (stem) the answer to the question should contain. */
  concept: string;
  as_of?: string;
  graph: { nodes: unknown[]; edges: unknown[] };
}

export interface VignetteResult {
  file: string;
  expected: string[];
  top3: { id: string; fit: number }[];
  expectedInTop3: number;
  glaslStage: number;
  glaslRange: [number, number];
  glaslInRange: boolean;
  homeConclusions: boolean;
  /** The home framework ranks first. */
  homeFirst: boolean;
  /** Frameworks whose fit equals the top fit. */
  sharingTop: number;
  conceptNamed: boolean;
  /** analyze's answer to the vignette's question. */
  answer: string;
  ranking: Assessment[];
}

export interface VignetteTotals {
  vignettes: number;
  expectedReadings: number;
  expectedInTop3: number;
  glaslInRange: number;
  homeConclusions: number;
  homeFirst: number;
  conceptNamed: number;
  /** Mean number of frameworks sharing the top score. */
  meanSharingTop: number;
}

export async function loadVignettes(dir = VIGNETTES_DIR): Promise<{ file: string; vignette: Vignette }[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => ({ file, vignette: JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Vignette })));
}

export async function evaluateVignettes(catalog: FrameworkCatalog, dir = VIGNETTES_DIR): Promise<{ results: VignetteResult[]; totals: VignetteTotals }> {
  const loaded = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [entry] : []));
  const storeDir = await mkdtemp(path.join(tmpdir(), 'parley-vignettes-'));
  const store = await ParleyStore.open(storeDir);
  const results: VignetteResult[] = [];
  try {
    for (const [i, { file, vignette }] of (await loadVignettes(dir)).entries()) {
      await store.writeGraph('vignettes', `v${i}`, await graphWriteFromJson(vignette.graph));
      const graph = await store.loadGraph('vignettes', `v${i}`);
      const view = { graph, ...(vignette.as_of ? { asOf: vignette.as_of } : {}) };
      const runs: FrameworkRun[] = loaded.map((entry) => runFramework(catalog.registry, entry.manifest, view, LIMITS));
      const ranking = rankAssessments(runs);
      const top3 = ranking.slice(0, 3).map((assessment) => ({ id: assessment.framework_id, fit: assessment.fit }));
      const glasl = runs.find((run) => run.framework_id === 'glasl');
      const stage = glasl?.findings.find((finding) => finding.key === 'stage')?.value;
      const glaslStage = typeof stage === 'number' ? stage : 0;
      const home = runs.find((run) => run.framework_id === vignette.home);
      const homeConclusions = vignette.home_conclusions.every((expected) =>
        (home?.findings ?? []).some((finding) => finding.key === expected.key && (!('value' in expected) || isDeepStrictEqual(finding.value, expected.value))),
      );
      const routing = routeQuestion(vignette.question);
      const asked = new Set(frameworksFor(routing, loaded));
      const analysis = writeAnalysis(vignette.question, routing, runs.filter((run) => asked.has(run.framework_id)), graph);
      results.push({
        file,
        expected: vignette.expected,
        top3,
        expectedInTop3: vignette.expected.filter((id) => top3.some((top) => top.id === id)).length,
        glaslStage,
        glaslRange: vignette.glasl_stage,
        glaslInRange: glaslStage >= vignette.glasl_stage[0] && glaslStage <= vignette.glasl_stage[1],
        homeConclusions,
        homeFirst: ranking[0]?.framework_id === vignette.home,
        sharingTop: ranking.filter((assessment) => assessment.fit === ranking[0]!.fit).length,
        conceptNamed: analysis.answer.toLowerCase().includes(vignette.concept.toLowerCase()),
        answer: analysis.answer,
        ranking,
      });
    }
  } finally {
    await store.close();
    await rm(storeDir, { recursive: true, force: true });
  }
  const sum = (pick: (result: VignetteResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    results,
    totals: {
      vignettes: results.length,
      expectedReadings: sum((result) => result.expected.length),
      expectedInTop3: sum((result) => result.expectedInTop3),
      glaslInRange: sum((result) => Number(result.glaslInRange)),
      homeConclusions: sum((result) => Number(result.homeConclusions)),
      homeFirst: sum((result) => Number(result.homeFirst)),
      conceptNamed: sum((result) => Number(result.conceptNamed)),
      meanSharingTop: Math.round((sum((result) => result.sharingTop) / Math.max(1, results.length)) * 100) / 100,
    },
  };
}

/** The table bench/vignettes.ts prints (markdown). */
export function vignetteTable(results: VignetteResult[], totals: VignetteTotals): string {
  const rows = results.map((result) =>
    [
      result.file.replace(/\.json$/, ''),
      result.expected.join(', '),
      result.top3.map((top) => `${top.id} ${top.fit.toFixed(2)}`).join(', '),
      `${result.expectedInTop3}/${result.expected.length}`,
      `${result.glaslStage || '-'} in ${result.glaslRange.join('-')}${result.glaslInRange ? '' : ' ✗'}`,
      String(result.sharingTop),
      result.homeConclusions ? 'yes' : 'no',
      result.conceptNamed ? 'yes' : 'no',
    ].join(' | '),
  );
  return [
    '| vignette | expected | top 3 (fit) | expected in top 3 | Glasl stage | share top | home conclusion | answer names concept |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
    `expected readings in top 3: ${totals.expectedInTop3} of ${totals.expectedReadings} (${pct(totals.expectedInTop3, totals.expectedReadings)}); ` +
      `Glasl in range: ${totals.glaslInRange} of ${totals.vignettes} (${pct(totals.glaslInRange, totals.vignettes)}); ` +
      `home conclusions: ${totals.homeConclusions} of ${totals.vignettes}; home framework first: ${totals.homeFirst} of ${totals.vignettes}; answer names the concept: ${totals.conceptNamed} of ${totals.vignettes}; ` +
      `frameworks sharing the top score: ${totals.meanSharingTop} on average`,
  ].join('\n');
}

function pct(part: number, whole: number): string {
  return `${Math.round((100 * part) / Math.max(1, whole))}%`;
}

/** How many frameworks share the top fit on a generated graph of about `size` facts (bench/conflict-graph.ts). */
export async function topScoreSharing(catalog: FrameworkCatalog, size: number): Promise<{ sharing: number; ranking: Assessment[] }> {
  const storeDir = await mkdtemp(path.join(tmpdir(), 'parley-vignettes-generated-'));
  const store = await ParleyStore.open(storeDir);
  try {
    await store.writeGraph('generated', 'g', generate(size).write);
    const graph = await store.loadGraph('generated', 'g');
    const limits = { inferenceLimit: 200_000_000, timeLimitMs: 600_000 };
    const runs = catalog.frameworks.flatMap((entry) => (entry.status === 'loaded' ? [runFramework(catalog.registry, entry.manifest, { graph }, limits)] : []));
    const ranking = rankAssessments(runs);
    return { sharing: ranking.filter((assessment) => assessment.fit === ranking[0]!.fit).length, ranking };
  } finally {
    await store.close();
    await rm(storeDir, { recursive: true, force: true });
  }
}
