/**
 * Runs one framework module over a graph view and reads its answers through the
 * contract (frameworks/README.md):
 *
 *   missing(Reason)                                  why it does not apply (none: it applies)
 *   indicator(Name, Weight, Description)             the indicators it weighs
 *   present(Name, Evidence)                          an indicator holds, on these ids
 *   finding(Key, Value, Sentence, Evidence, Because) a conclusion, its sentence, the ids it
 *                                                    rests on, the indicators and rules behind it
 *   strength(Conclusion, Score, Evidence)            optional: how strongly the graph supports a
 *                                                    conclusion, 0..1, on these ids
 *
 * Everything a framework concludes is decided in its Prolog rules; this module only
 * reads the answers, takes the fit from the strongest conclusion (strength/3; a framework
 * without it is scored by its coverage, the weighted share of indicators present), drops
 * evidence that is not in the view (no finding without evidence in the graph), and
 * renders the derivation as readable lines. One inference budget and one time limit
 * cover the whole run; a run that spends either is reported, not thrown. They cover its
 * rules, not the hand-over of the view to the engine, done before the clock starts (some
 * seconds at 1M facts, paid once per view by whichever run or preload comes first: counted
 * in a run, it left the first run of each reasoning worker nothing of its limit).
 * A run over a whole graph that read nothing the records added since changed (lib/graph.pl
 * read_note/1: labels, edge types, mentions, the reference date) is given again, as it concluded,
 * with no inference spent.
 */
import { LimitError, ParleyError } from '../errors.ts';
import { handOverNow, unchangedSince, type GraphView, type PrologBridge, type PrologValue } from '../prolog/bridge.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import type { RuleRegistry } from '../prolog/registry.ts';
import type { FrameworkManifest } from './manifest.ts';
import { inView } from '../store/view.ts';

/** Evidence ids listed per finding or indicator; the total is reported beside the list. */
export const MAX_EVIDENCE_LISTED = 25;

/**
 * Evidence ids a run lists for all its findings and indicators together (the first, sorted);
 * the total is reported beside the list. A run's evidence grows with the graph (hundreds of
 * ids at 10k facts) and every assess and analyze returns it, per framework.
 */
export const MAX_RUN_EVIDENCE_LISTED = 100;

/** Per-actor (ranked) findings one framework run keeps, the highest scores first; the rest are counted in findings_omitted. */
export const DEFAULT_MAX_FINDINGS = 25;

export interface RunLimits {
  inferenceLimit: number;
  timeLimitMs: number;
  /** Ranked findings kept per run (DEFAULT_MAX_FINDINGS when absent). */
  maxFindings?: number;
}

export interface IndicatorResult {
  name: string;
  description: string;
  weight: number;
  evidence: string[];
  evidence_total: number;
}

export interface Finding {
  key: string;
  value: PrologValue;
  statement: string;
  evidence: string[];
  evidence_total: number;
  trace: string[];
}

export interface FrameworkRun {
  framework_id: string;
  name: string;
  applies: boolean;
  /** Why it does not apply: which evidence is missing. */
  missing: string[];
  /**
   * The fit, 0..1: how strongly and specifically the graph supports the framework's conclusion, the
   * highest Score of its strength/3 answers (0 when it does not apply); its coverage when it defines
   * no strength/3.
   */
  score: number;
  /** The conclusion the score is read from (strength/3's Conclusion), when there is one. */
  strongest?: string;
  /** Weighted share of the indicators present, 0..1. */
  coverage: number;
  indicators_present: IndicatorResult[];
  indicators_missing: Omit<IndicatorResult, 'evidence' | 'evidence_total'>[];
  findings: Finding[];
  /** Per-actor findings the run's findings limit left out (the framework ranks them: rank/3). */
  findings_omitted: number;
  /** The first MAX_RUN_EVIDENCE_LISTED of the ids the findings and present indicators rest on, sorted. */
  evidence: string[];
  /** How many ids the findings and present indicators rest on. */
  evidence_total: number;
  trace: string[];
  inferences: number;
  /** Set when the run was stopped (inference or time limit, rule error): what it had found is kept. */
  error?: { code: string; message: string };
}

export function runFramework(registry: RuleRegistry, manifest: FrameworkManifest, view: GraphView, limits: RunLimits): FrameworkRun {
  const bridge = registry.module(manifest.id);
  if (!bridge) throw new Error(`framework '${manifest.id}' is not loaded`);
  registry.handOver(view);
  const whole = view.asOf === undefined && view.validUntil === undefined && bridge.readsReported();
  const findingsKey = String(limits.maxFindings ?? DEFAULT_MAX_FINDINGS);
  const kept = whole ? keptRuns.get(bridge)?.get(findingsKey) : undefined;
  if (kept && kept.graph.deref() === view.graph && kept.run.inferences <= limits.inferenceLimit && unchangedSince(view.graph, kept.at, kept.reads)) {
    kept.at = handOverNow();
    return { ...structuredClone(kept.run), inferences: 0 };
  }
  const at = handOverNow();
  const deadline = Date.now() + limits.timeLimitMs;
  let inferences = 0;
  const reads = new Set<string>();
  const solve = (goal: string, template: string[]): PrologValue[][] => {
    try {
      return bridge.solve(goal, template, view, {
        inferenceLimit: Math.max(1, limits.inferenceLimit - inferences),
        timeLimitMs: Math.max(1, deadline - Date.now()),
      });
    } finally {
      inferences += bridge.lastUsage.inferences;
      for (const read of bridge.lastUsage.reads) reads.add(read);
    }
  };
  const run: FrameworkRun = {
    framework_id: manifest.id,
    name: manifest.name,
    applies: false,
    missing: [],
    score: 0,
    coverage: 0,
    indicators_present: [],
    indicators_missing: [],
    findings: [],
    findings_omitted: 0,
    evidence: [],
    evidence_total: 0,
    trace: [],
    inferences: 0,
  };
  /** Whether evidence named an id the graph does not hold: records added later may (the run is then not kept). */
  let unknownEvidence = false;
  const exists = (id: PrologValue): id is string => {
    if (typeof id !== 'string') return false;
    const record = view.graph.node(id) ?? view.graph.edge(id);
    if (record === undefined) unknownEvidence = true;
    return record !== undefined && inView(record, view);
  };
  /** The ids of an answer's evidence that are in the view, in the answer's order (repeats kept). */
  const citedInView = (value: PrologValue): string[] => (Array.isArray(value) ? value : [value]).filter(exists);
  const listed = (ids: ReadonlySet<string>) => ({ evidence: firstSorted(ids, MAX_EVIDENCE_LISTED), evidence_total: ids.size });
  const allEvidence = new Set<string>();
  try {
    if (bridge.defines('missing', 1)) run.missing = [...new Set(solve('missing(R)', ['R']).map(([reason]) => text(reason)))];
    const declared = solve('indicator(N, W, D)', ['N', 'W', 'D']).map(([name, weight, description]) => ({
      name: text(name),
      weight: typeof weight === 'number' && weight > 0 ? weight : 1,
      description: text(description),
    }));
    const presentEvidence = new Map<string, Set<string>>();
    if (bridge.defines('present', 2)) {
      for (const [name, evidence] of solve('present(N, E)', ['N', 'E'])) {
        const ids = citedInView(evidence);
        if (ids.length === 0) continue; // an indicator is present only on evidence in the graph
        const held = presentEvidence.get(text(name));
        if (held) ids.forEach((id) => held.add(id));
        else presentEvidence.set(text(name), new Set(ids));
      }
    }
    for (const indicator of declared) {
      const ids = presentEvidence.get(indicator.name);
      if (ids) {
        ids.forEach((id) => allEvidence.add(id));
        run.indicators_present.push({ ...indicator, ...listed(ids) });
      } else run.indicators_missing.push(indicator);
    }
    const totalWeight = declared.reduce((sum, indicator) => sum + indicator.weight, 0);
    const presentWeight = run.indicators_present.reduce((sum, indicator) => sum + indicator.weight, 0);
    run.coverage = totalWeight === 0 ? 0 : round(presentWeight / totalWeight);
    run.applies = run.missing.length === 0;
    if (run.applies) {
      const byName = new Map([...run.indicators_present.map((indicator) => [indicator.name, indicator] as const)]);
      const seen = new Set<string>();
      const cap = Math.max(0, Math.floor(limits.maxFindings ?? DEFAULT_MAX_FINDINGS));
      // kept/2 in the framework's ranked finding clauses reads the cap (lib/conflict.pl); an infinite one keeps them all
      const capped = Number.isFinite(cap) && bridge.defines('rank', 3);
      const found = solve(`${capped ? `b_setval(parley_findings_cap, ${cap}), ` : ''}finding(K, V, S, E, B)`, ['K', 'V', 'S', 'E', 'B']);
      if (capped) run.findings_omitted = Number(solve(`findings_omitted(${cap}, N)`, ['N'])[0]?.[0] ?? 0);
      for (const [key, value, sentence, evidence, because] of found) {
        const all = new Set(citedInView(evidence));
        if (all.size === 0) continue; // no finding without evidence that exists in the graph
        const identity = JSON.stringify([key, value]);
        if (seen.has(identity)) continue;
        seen.add(identity);
        all.forEach((id) => allEvidence.add(id));
        const statement = text(sentence);
        const trace = [`${text(key)} = ${render(value)}: ${statement}`];
        for (const reason of Array.isArray(because) ? because : [because]) {
          const indicator = byName.get(text(reason));
          trace.push(
            indicator
              ? `  because indicator ${indicator.name} (${indicator.description}) holds on ${indicator.evidence.join(', ')}${indicator.evidence_total > indicator.evidence.length ? ` and ${indicator.evidence_total - indicator.evidence.length} more` : ''}`
              : `  because ${text(reason)}`,
          );
        }
        run.findings.push({ key: text(key), value, statement, ...listed(all), trace });
      }
      run.trace = run.findings.flatMap((finding) => finding.trace);
      if (bridge.defines('strength', 3)) {
        for (const [conclusion, score, evidence] of solve('strength(C, S, E)', ['C', 'S', 'E'])) {
          // a strength rests on evidence in the view, like a finding
          if (typeof score !== 'number' || citedInView(evidence).length === 0) continue;
          const value = round(Math.min(1, Math.max(0, score)));
          if (run.strongest === undefined || value > run.score) [run.score, run.strongest] = [value, render(conclusion)];
        }
      } else run.score = run.coverage;
    } else {
      run.trace = run.missing.map((reason) => `does not apply: ${reason}`);
    }
  } catch (error) {
    // a rule that breaks the engine (a JavaScript stack overflow deep in a term) stops its own run only
    run.error = stopOf(error, limits);
    run.trace.push(`stopped: ${run.error.message}`);
  }
  run.evidence = firstSorted(allEvidence, MAX_RUN_EVIDENCE_LISTED);
  run.evidence_total = allEvidence.size;
  run.inferences = inferences;
  if (whole && !run.error && !unknownEvidence) {
    let byFindings = keptRuns.get(bridge);
    if (!byFindings) keptRuns.set(bridge, (byFindings = new Map()));
    byFindings.set(findingsKey, { graph: new WeakRef(view.graph), at, reads, run: structuredClone(run) });
  }
  return run;
}

/** Each framework module's last concluded run over a whole graph, per findings limit, with what it read and the hand-over it read it at. */
const keptRuns = new WeakMap<PrologBridge, Map<string, { graph: WeakRef<GraphIndex>; at: number; reads: ReadonlySet<string>; run: FrameworkRun }>>();

/** Why a run stopped; a limit is named as the run's (the solve call that met it had only what earlier calls left). */
function stopOf(error: unknown, limits: RunLimits): { code: string; message: string } {
  if (!(error instanceof ParleyError)) return { code: 'rule_error', message: `rule evaluation failed: ${(error as Error).message}` };
  if (error instanceof LimitError && error.code === 'query_time_limit') return { code: error.code, message: `the framework ran past its time limit of ${limits.timeLimitMs} ms` };
  if (error instanceof LimitError && error.code === 'query_inference_limit') return { code: error.code, message: `the framework used more than its ${limits.inferenceLimit} inferences` };
  return { code: error.code, message: error.message };
}

/**
 * The first `count` of `ids` (each once) as Array.prototype.sort orders them (UTF-16 code units), without sorting them all:
 * at 1M facts a run's answers cite tens of thousands of ids (galtung's some 77k), of which it lists 25 per finding and 100
 * in all: sorting every list whole was over a third of run.ts's work on the 15 runs after a write (docs/operations.md).
 */
export function firstSorted(ids: Iterable<string>, count: number): string[] {
  const first: string[] = [];
  for (const id of ids) {
    if (first.length === count && !(id < first[count - 1])) continue;
    let low = 0;
    let high = first.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (first[middle] < id) low = middle + 1;
      else high = middle;
    }
    if (first[low] === id) continue;
    first.splice(low, 0, id);
    if (first.length > count) first.pop();
  }
  return first;
}

function text(value: PrologValue): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(text).join('');
  return String(value);
}

function render(value: PrologValue): string {
  if (Array.isArray(value)) return `[${value.map(render).join(', ')}]`;
  return String(value);
}


function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
