import { Piscina } from 'piscina';
import { TooLargeError } from '../../errors.ts';
import type { SymbolicLayer } from '../symbolic/layer.ts';
// transformers and ONNX (about 180 MB resident) load only when a claim model is configured: see createClaimTyper
import type { ClaimClassifier, ClaimModelKind, ClaimTypePrediction } from './claim-classifier.ts';
import { CallGate } from '../../gate.ts';
import { inspectNerModelDir, NerModelUnavailableError, type ModelPurpose, type NerModelFiles } from './model-dir.ts';
import type { ClaimTask } from './worker-task.ts';

/**
 * Optional model-based claim typing: a text classifier trained on the ontology's claim types,
 * or an NLI model used zero-shot, re-types the clauses the symbolic layer found as claims.
 * The symbolic layer still finds the claims and their spans; the model only judges their type.
 */

/** Claim typing is a few clauses per document: one worker is enough, and it leaves the cores to NER. */
export const DEFAULT_CLAIM_WORKERS = 1;
/** typeClaims() calls admitted at a time; more are refused with OverloadedError (HTTP 503). */
export const DEFAULT_CLAIM_MAX_QUEUE = 64;
/** Clauses in one call (TooLargeError beyond): far above the claims of the pipeline's largest document. */
export const DEFAULT_CLAIM_MAX_CLAUSES_PER_CALL = 2_000;
/** Wall-clock limit of one call (LimitError beyond); zero-shot typing makes 11 model sequences per clause. */
export const DEFAULT_CLAIM_TIMEOUT_MS = 2 * 60_000;
/** A model's type replaces the symbolic layer's type only when the model gives it at least this probability. */
export const DEFAULT_MIN_CLAIM_TYPE_SCORE = 0.6;
const CLAUSES_PER_TASK = 8;
const WARM_UP_TIMEOUT_MS = 120_000;

export const CLAIM_MODEL_PURPOSE: ModelPurpose = {
  role: 'claim typing',
  setting: 'the claim model directory (PARLEY_CLAIM_MODEL_DIR)',
  kind: 'a text-classification model over the claim types or an NLI model',
};

export interface ClaimTyper {
  readonly model: string;
  /** The model's claim type of each clause, or null where it names none. */
  typeClaims(clauses: readonly string[]): Promise<(ClaimTypePrediction | null)[]>;
  close(): Promise<void>;
}

export interface ClaimTyperOptions {
  modelDir: string;
  /** Worker threads with one ONNX thread each; 0 runs the model on the calling thread. Default DEFAULT_CLAIM_WORKERS. */
  workers?: number;
  maxQueue?: number;
  maxClausesPerCall?: number;
  timeoutMs?: number;
}

type RunClauses = (clauses: string[]) => Promise<(ClaimTypePrediction | null)[]>;

export class PooledClaimTyper implements ClaimTyper {
  private closed = false;

  constructor(
    readonly model: string,
    readonly kind: ClaimModelKind,
    private readonly runTask: RunClauses,
    private readonly shutdown: () => Promise<void>,
    private readonly gate: CallGate,
    readonly maxClausesPerCall: number,
  ) {}

  get pending(): number {
    return this.gate.pending;
  }

  async typeClaims(clauses: readonly string[]): Promise<(ClaimTypePrediction | null)[]> {
    if (this.closed) throw new Error('the claim typer is closed');
    if (clauses.length > this.maxClausesPerCall) {
      throw new TooLargeError('claim_typing_too_many_clauses', `claim typing takes at most ${this.maxClausesPerCall} clauses per request (got ${clauses.length})`, {
        limit: this.maxClausesPerCall,
      });
    }
    const tasks: string[][] = [];
    for (let i = 0; i < clauses.length; i += CLAUSES_PER_TASK) tasks.push(clauses.slice(i, i + CLAUSES_PER_TASK));
    return (await this.gate.run(tasks, this.runTask)).flat();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gate.drain();
    await this.shutdown();
  }
}

function inProcess(classifier: ClaimClassifier): RunClauses {
  // One model call at a time, as on one thread.
  let chain: Promise<unknown> = Promise.resolve();
  return (clauses) => {
    const result = chain.then(() => classifier.classify(clauses));
    chain = result.catch(() => undefined);
    return result;
  };
}

async function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks the folder and its labels, starts the workers and loads the model in each; NerModelUnavailableError when that fails. */
export async function createClaimTyper(options: ClaimTyperOptions): Promise<PooledClaimTyper> {
  const files: NerModelFiles = await inspectNerModelDir(options.modelDir, CLAIM_MODEL_PURPOSE);
  const { ClaimClassifier, claimModelKind } = await import('./claim-classifier.ts');
  const reading = claimModelKind(files.labels);
  if (!reading) {
    throw new NerModelUnavailableError(
      'invalid_config',
      files.dir,
      `claim model labels (${files.labels.join(', ')}) are neither claim types nor NLI labels with 'entailment'`,
    );
  }
  const workers = options.workers ?? DEFAULT_CLAIM_WORKERS;
  if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer (got ${workers})`);
  const gate = new CallGate(
    { name: 'claim typing', code: 'claim_typing' },
    options.maxQueue ?? DEFAULT_CLAIM_MAX_QUEUE,
    options.timeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS,
    Math.max(workers, 1),
  );

  let runTask: RunClauses;
  let shutdown: () => Promise<void>;
  if (workers === 0) {
    const classifier = await ClaimClassifier.load(files);
    runTask = inProcess(classifier);
    shutdown = () => classifier.dispose();
  } else {
    const pool = new Piscina<ClaimTask, (ClaimTypePrediction | null)[]>({
      filename: new URL('./worker.mjs', import.meta.url).href,
      name: 'typeClaims',
      minThreads: workers,
      maxThreads: workers,
    });
    runTask = (clauses) => pool.run({ files, clauses });
    shutdown = () => pool.close();
  }
  try {
    await withinTime(Promise.all(Array.from({ length: Math.max(workers, 1) }, () => runTask(['Warm up.']))), WARM_UP_TIMEOUT_MS, 'loading the claim model');
  } catch (cause) {
    await shutdown().catch(() => undefined);
    if (cause instanceof NerModelUnavailableError) throw cause;
    throw new NerModelUnavailableError('load_failed', files.dir, `claim model in ${files.dir} failed to run: ${(cause as Error).message}`, [], { cause });
  }
  return new PooledClaimTyper(files.model, reading.kind, runTask, shutdown, gate, options.maxClausesPerCall ?? DEFAULT_CLAIM_MAX_CLAUSES_PER_CALL);
}

/**
 * The symbolic layer with its claims re-typed by the model where the model is confident
 * (probability ≥ minScore) and names a claim type; the claim's confidence becomes the lower
 * of the symbolic layer's and the model's. For createExtractionPipeline({ symbolic }).
 */
export function withClaimTyping(layer: SymbolicLayer, typer: ClaimTyper, minScore = DEFAULT_MIN_CLAIM_TYPE_SCORE): SymbolicLayer {
  return {
    version: `${layer.version}+claims:${typer.model}`,
    async find(document) {
      const findings = await layer.find(document);
      if (findings.claims.length === 0) return findings;
      const predictions = await typer.typeClaims(findings.claims.map((claim) => claim.text));
      const claims = findings.claims.map((claim, i) => {
        const prediction = predictions[i];
        if (!prediction || prediction.score < minScore || prediction.type === claim.type) return claim;
        return { ...claim, type: prediction.type, confidence: Math.min(claim.confidence, prediction.score) };
      });
      return { ...findings, claims };
    },
  };
}

/** For the pipeline: a claim typer when a model folder is configured and works, otherwise null and the reason. */
export async function openClaimTyper(options: Partial<ClaimTyperOptions>): Promise<{ typer: PooledClaimTyper | null; status: string }> {
  if (!options.modelDir) return { typer: null, status: 'no claim model configured: claims typed by the rules' };
  try {
    const typer = await createClaimTyper({ ...options, modelDir: options.modelDir });
    return { typer, status: `claim model ${typer.model} (${typer.kind})` };
  } catch (error) {
    if (!(error instanceof NerModelUnavailableError)) throw error;
    return { typer: null, status: `${error.message}: claims typed by the rules` };
  }
}
