import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from '@huggingface/transformers';
import { CLAIM_TYPES, type ClaimType } from '../../ontology/index.ts';
import { NerModelUnavailableError, type NerModelFiles } from './model-dir.ts';
// Importing the token classifier applies its offline settings (no remote models) to this thread too.
import './token-classifier.ts';

/**
 * Claim typing with a sequence-classification model, in a pool worker. Two kinds of model:
 * a text classifier whose labels are the ontology's claim types (fine-tuned for this), or an
 * NLI model used zero-shot: each clause is paired with one hypothesis per claim type and the
 * types are ranked by the softmax of the entailment logits, as transformers.js's zero-shot
 * pipeline does, but in one batched model call per clause batch.
 */

export interface ClaimTypePrediction {
  type: ClaimType;
  score: number;
}

export type ClaimModelKind = 'classifier' | 'zero-shot';

/** Hypotheses for NLI models, written from the ontology's definitions. */
export const CLAIM_HYPOTHESES: Readonly<Record<ClaimType, string>> = {
  RedLine: 'This statement sets a condition as non-negotiable.',
  Demand: 'This statement demands something from someone.',
  Offer: 'This statement offers something to the other side.',
  Concession: 'This statement concedes or gives something up.',
  Commitment: 'This statement pledges to take an action.',
  Threat: 'This statement threatens someone.',
  Accusation: 'This statement accuses someone of wrongdoing.',
  Denial: 'This statement denies an allegation.',
  Grievance: 'This statement complains about an injustice suffered.',
  Justification: 'This statement justifies an action.',
  Position: 'This statement states a position on an issue.',
  Dehumanization: 'This statement describes a group of people as vermin, animals or less than human.',
};

/** Clauses per model call; NLI models make CLAIM_TYPES.length sequences of each. */
const CLAUSES_PER_BATCH = 8;
const ONNX_THREADS = 1;

const bare = (label: string) => label.toLowerCase().replace(/[^a-z]/g, '');
const CLAIM_TYPE_BY_BARE_NAME = new Map(CLAIM_TYPES.map((type) => [bare(type), type]));

/** How a model's labels serve claim typing, or null when they do not ("red_line" and "RED LINE" name RedLine). */
export function claimModelKind(labels: readonly string[]): { kind: 'zero-shot'; entailment: number } | { kind: 'classifier'; types: (ClaimType | null)[] } | null {
  const entailment = labels.findIndex((label) => bare(label) === 'entailment');
  if (entailment >= 0) return { kind: 'zero-shot', entailment };
  const types = labels.map((label) => CLAIM_TYPE_BY_BARE_NAME.get(bare(label)) ?? null);
  return types.filter((t) => t !== null).length >= 2 ? { kind: 'classifier', types } : null;
}

function softmax(values: ArrayLike<number>, from: number, count: number, stride = 1): number[] {
  let max = -Infinity;
  for (let i = 0; i < count; i++) max = Math.max(max, values[from + i * stride]!);
  const exps = Array.from({ length: count }, (_, i) => Math.exp(values[from + i * stride]! - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export class ClaimClassifier {
  private constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly model: PreTrainedModel,
    private readonly reading: NonNullable<ReturnType<typeof claimModelKind>>,
  ) {}

  static async load(files: NerModelFiles): Promise<ClaimClassifier> {
    const reading = claimModelKind(files.labels);
    if (!reading) {
      throw new NerModelUnavailableError('invalid_config', files.dir, `the labels of ${files.dir} are neither claim types nor NLI labels (entailment)`);
    }
    try {
      const tokenizer = await AutoTokenizer.from_pretrained(files.dir, { local_files_only: true });
      const model = await AutoModelForSequenceClassification.from_pretrained(files.dir, {
        local_files_only: true,
        dtype: files.dtype,
        session_options: { intraOpNumThreads: ONNX_THREADS, interOpNumThreads: ONNX_THREADS },
      });
      return new ClaimClassifier(tokenizer, model, reading);
    } catch (cause) {
      throw new NerModelUnavailableError('load_failed', files.dir, `claim model in ${files.dir} failed to load: ${(cause as Error).message}`, [], { cause });
    }
  }

  private async logits(texts: string[], pairs?: string[]): Promise<{ data: Float32Array; width: number }> {
    const inputs = this.tokenizer(texts, { ...(pairs ? { text_pair: pairs } : {}), padding: true, truncation: true });
    const output = await this.model(inputs);
    const logits = output.logits as Tensor;
    return { data: logits.data as Float32Array, width: logits.dims[1]! };
  }

  private async classifyBatch(clauses: string[]): Promise<(ClaimTypePrediction | null)[]> {
    const reading = this.reading;
    if (reading.kind === 'classifier') {
      const { data, width } = await this.logits(clauses);
      return clauses.map((_, row) => {
        const probabilities = softmax(data, row * width, width);
        const best = probabilities.indexOf(Math.max(...probabilities));
        const type = reading.types[best];
        return type ? { type, score: probabilities[best]! } : null;
      });
    }
    const premises = clauses.flatMap((clause) => CLAIM_TYPES.map(() => clause));
    const hypotheses = clauses.flatMap(() => CLAIM_TYPES.map((type) => CLAIM_HYPOTHESES[type]));
    const { data, width } = await this.logits(premises, hypotheses);
    return clauses.map((_, row) => {
      const probabilities = softmax(data, row * CLAIM_TYPES.length * width + reading.entailment, CLAIM_TYPES.length, width);
      const best = probabilities.indexOf(Math.max(...probabilities));
      return { type: CLAIM_TYPES[best]!, score: probabilities[best]! };
    });
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }

  /** The most likely type of each clause; null when a classifier's best label is not a claim type ("none", "other"). */
  async classify(clauses: readonly string[]): Promise<(ClaimTypePrediction | null)[]> {
    const predictions: (ClaimTypePrediction | null)[] = [];
    for (let i = 0; i < clauses.length; i += CLAUSES_PER_BATCH) {
      predictions.push(...(await this.classifyBatch(clauses.slice(i, i + CLAUSES_PER_BATCH))));
    }
    return predictions;
  }
}
