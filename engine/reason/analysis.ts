/**
 * Theory assessment and conflict analysis from framework runs (api.md "Analyze and
 * theory assessment"). The frameworks decide everything they conclude; this module
 * ranks them by fit, routes a question to the ones it concerns (intents.ts), has
 * answer.ts write the answer first and the readings beside it (or, on request, one
 * sentence per finding), each citing its evidence, and resolves the citations to the
 * records, quotes and sources they point at. Deterministic: the same
 * runs and question give the same bytes.
 */
import type { FrameworkEntry } from '../frameworks/loader.ts';
import type { FrameworkRun } from '../frameworks/run.ts';
import type { GraphIndex } from '../store/graph-index.ts';
import { INTENT_RULES, type Routing } from '../frameworks/intents.ts';
import { ANSWER_WORDS, byRank, capitalise, wordCount, writeAnswer, type Reading } from './answer.ts';
import { disputeNotes, type ArgumentStatuses } from './disputes.ts';

export interface Assessment {
  framework_id: string;
  name: string;
  fit: number;
  applies: boolean;
  /** Weighted share of the framework's indicators present, 0..1 (what fit was before it weighed the conclusion). */
  coverage: number;
  indicators_present: string[];
  indicators_missing: string[];
  explanation: string;
  evidence: string[];
  evidence_total: number;
  findings: { key: string; value: unknown; statement: string; evidence: string[]; evidence_total: number }[];
  /** Per-actor findings the findings limit left out. */
  findings_omitted: number;
  error?: { code: string; message: string };
}

/** All runs ranked by fit: frameworks that apply first, then by score, then by id. */
export function rankAssessments(runs: FrameworkRun[]): Assessment[] {
  return [...runs]
    .sort(byRank)
    .map((run) => ({
      framework_id: run.framework_id,
      name: run.name,
      fit: run.applies ? run.score : 0,
      applies: run.applies,
      coverage: run.coverage,
      indicators_present: run.indicators_present.map((indicator) => indicator.name),
      indicators_missing: run.indicators_missing.map((indicator) => indicator.name),
      explanation: explain(run),
      evidence: run.evidence,
      evidence_total: run.evidence_total,
      findings: run.findings.map(({ key, value, statement, evidence, evidence_total }) => ({ key, value, statement, evidence, evidence_total })),
      findings_omitted: run.findings_omitted,
      ...(run.error ? { error: run.error } : {}),
    }));
}

function explain(run: FrameworkRun): string {
  if (run.error) return `Stopped before it finished: ${run.error.message}.`;
  if (!run.applies) return `Does not apply: not enough evidence: ${run.missing.join('; ')}.`;
  const present = run.indicators_present.map((indicator) => `${indicator.name} (${indicator.evidence_total})`);
  const missing = run.indicators_missing.map((indicator) => indicator.name);
  const conclusions = run.findings.map((finding) => finding.statement).join(' ');
  return [
    `Fit ${run.score.toFixed(2)}${run.strongest ? `, from its conclusion ${run.strongest}` : ''}; coverage ${run.coverage.toFixed(2)}: ${present.length} of ${present.length + missing.length} indicators present${present.length ? ` (${present.join(', ')})` : ''}${missing.length ? `; missing: ${missing.join(', ')}` : ''}.`,
    conclusions,
  ].filter(Boolean).join(' ');
}

/** The loaded frameworks a question concerns, in intent order; all of them for a general question. */
export function frameworksFor(routing: Routing, loaded: Extract<FrameworkEntry, { status: 'loaded' }>[]): string[] {
  if (routing.kind === 'unrelated') return [];
  if (routing.kind === 'general') return loaded.map((entry) => entry.id);
  const ids: string[] = [];
  for (const intent of routing.intents) {
    for (const entry of loaded) if (entry.manifest.answers.includes(intent) && !ids.includes(entry.id)) ids.push(entry.id);
  }
  return ids;
}

export interface Citation {
  id: string;
  kind: string;
  label: string;
  source?: string;
  timestamp?: string;
  quote?: string;
}

export interface Analysis {
  question: string;
  answer: string;
  intents: string[];
  readings: Reading[];
  frameworks: {
    id: string;
    name: string;
    applies: boolean;
    score: number;
    missing: string[];
    findings: FrameworkRun['findings'];
    findings_omitted: number;
    evidence: string[];
    evidence_total: number;
    trace: string[];
    error?: { code: string; message: string };
  }[];
  citations: Citation[];
  /** The cited claims and events the weighed evidence does not let stand (disputed or rejected), each dispute told once. */
  disputes: { id: string; sentence: string }[];
}

/** The contradicted records weighed over the whole graph (disputes.ts), to say which cited accounts are disputed. */
export interface WeighedGraph {
  statuses: ArgumentStatuses;
  graph: GraphIndex;
}

/**
 * How much `answer` says: the direct answer (answer.ts), the readings beside it; or, `full`, one
 * sentence per finding with the ids it rests on, and the frameworks that cannot say, and why.
 */
export type AnalysisDetail = 'answer' | 'full';

export function writeAnalysis(question: string, routing: Routing, runs: FrameworkRun[], graph: GraphIndex, detail: AnalysisDetail = 'answer', weighed?: WeighedGraph): Analysis {
  const intents = routing.kind === 'intents' ? routing.intents : routing.kind === 'general' ? ['general'] : [];
  if (routing.kind === 'unrelated') {
    return {
      question,
      answer: `No framework addresses this question. The questions understood are: ${INTENT_RULES.map((rule) => rule.asks).join(' ')} A general question about the conflict ("Analyse this conflict") runs every framework.`,
      intents,
      readings: [],
      frameworks: [],
      citations: [],
      disputes: [],
    };
  }
  if (runs.length === 0) {
    // the question's kind is understood, but no framework loaded now answers it (a module refused at start-up)
    return { question, answer: `No loaded framework answers questions of this kind (${intents.join(', ')}); GET /v1/frameworks lists what is loaded and what was refused.`, intents, readings: [], frameworks: [], citations: [], disputes: [] };
  }
  // a general question (no intents) is answered from the best ranked readings
  const written = writeAnswer(routing.kind === 'intents' ? routing.intents : [], runs, graph);
  // every id a finding lists is resolved, whichever answer cites it
  const cited = new Set<string>([...written.cited, ...runs.flatMap((run) => run.findings.flatMap((finding) => finding.evidence))]);
  // the answer's own ids first, so that the dispute it rests on is the one it tells
  const disputes = weighed ? disputeNotes([...written.cited, ...[...cited].sort()], weighed.graph, weighed.statuses) : [];
  const answer = detail === 'full' ? fullAnswer(runs) : withDispute(written.answer, disputes);
  return {
    question,
    answer,
    intents,
    readings: written.readings,
    frameworks: runs.map((run) => ({
      id: run.framework_id,
      name: run.name,
      applies: run.applies,
      score: run.score,
      missing: run.missing,
      findings: run.findings,
      findings_omitted: run.findings_omitted,
      evidence: run.evidence,
      evidence_total: run.evidence_total,
      trace: run.trace,
      ...(run.error ? { error: run.error } : {}),
    })),
    citations: citations([...cited], graph),
    disputes,
  };
}

/** Words the dispute sentence may add to the answer: a disputed account it rests on is part of how sure it is. */
const DISPUTE_WORDS = 40;

/** The answer with the first dispute among what it cites told, or counted when the sentence would run too long. */
function withDispute(answer: string, disputes: { sentence: string }[]): string {
  if (disputes.length === 0) return answer;
  const [first] = disputes;
  const more = disputes.length > 1 ? ` ${disputes.length - 1} more of the cited accounts are disputed (disputes).` : '';
  if (wordCount(first.sentence) <= DISPUTE_WORDS && wordCount(answer) + wordCount(first.sentence) <= ANSWER_WORDS + DISPUTE_WORDS) return `${answer} ${capitalise(first.sentence)}${more}`;
  return `${answer} ${disputes.length === 1 ? 'One of the cited accounts is' : `${disputes.length} of the cited accounts are`} disputed (disputes).`;
}


/** One sentence per finding, with the ids it rests on; frameworks that cannot say, and why. */
function fullAnswer(runs: FrameworkRun[]): string {
  const sentences: string[] = [];
  const applying = runs.filter((run) => run.applies && run.findings.length > 0 && !run.error);
  for (const run of applying) {
    for (const finding of run.findings) {
      sentences.push(`${run.name}: ${finding.statement} [${citeList(finding.evidence, finding.evidence_total)}]`);
    }
  }
  const silent = runs.filter((run) => !applying.includes(run));
  for (const run of silent) {
    sentences.push(
      run.error ? `${run.name} could not finish: ${run.error.message}.` : `${run.name} cannot say: not enough evidence: ${run.missing.join('; ') || 'no finding rests on evidence in the graph'}.`,
    );
  }
  if (applying.length === 0) sentences.unshift('The graph does not yet hold the evidence these frameworks need to answer.');
  return sentences.join('\n');
}

/**
 * Ids cited in a sentence: the first few, then how many more the finding rests on. `citations`
 * resolves the ids the finding lists (the first MAX_EVIDENCE_LISTED); when it rests on more, the
 * sentence says how many of the rest are there.
 */
const IDS_PER_SENTENCE = 8;
function citeList(listed: string[], total: number): string {
  const shown = listed.slice(0, IDS_PER_SENTENCE);
  const more = total - shown.length;
  if (more <= 0) return shown.join(', ');
  const moreCited = listed.length - shown.length;
  return `${shown.join(', ')} and ${more} more${moreCited < more ? ` (${moreCited} of them in citations)` : ''}`;
}

/** The citations of ids, each once, in id order. */
export function citations(ids: Iterable<string>, graph: GraphIndex): Citation[] {
  return [...new Set(ids)].sort().map((id) => citation(id, graph));
}

/** What an evidence id points at: the record's kind and label, and its first source. */
export function citation(id: string, graph: GraphIndex): Citation {
  const node = graph.node(id);
  const edge = node ? undefined : graph.edge(id);
  const record = node ?? edge;
  if (!record) return { id, kind: 'unknown', label: id };
  const properties = record.properties;
  const nameOf = (end: string) => String(graph.node(end)?.properties.label ?? end);
  const label = String(properties.label ?? properties.text ?? (edge ? `${nameOf(edge.from)} ${edge.type} ${nameOf(edge.to)}` : id));
  const provenance = record.provenance[0];
  return {
    id,
    kind: node ? node.labels[0] : edge!.type,
    label,
    ...(provenance?.source ? { source: provenance.source } : {}),
    ...(provenance?.timestamp ? { timestamp: provenance.timestamp } : {}),
    ...(typeof provenance?.quote === 'string' ? { quote: provenance.quote } : {}),
  };
}
