import { ClaimClassifier, type ClaimTypePrediction } from './claim-classifier.ts';
import type { NerModelFiles } from './model-dir.ts';
import { TokenClassifier, type SentenceLabels } from './token-classifier.ts';

/** What the pool sends a worker: the model (checked by the main thread) and sentences as words. */
export interface NerTask {
  files: NerModelFiles;
  sentences: string[][];
}

/** Each worker loads the model once, on its first task (the pool sends a warm-up task per worker). */
let classifier: Promise<TokenClassifier> | undefined;

export default async function runNerTask(task: NerTask): Promise<SentenceLabels[]> {
  classifier ??= TokenClassifier.load(task.files);
  return (await classifier).classify(task.sentences);
}

/** What the claim-typing pool sends a worker: the model and the claims' clauses. */
export interface ClaimTask {
  files: NerModelFiles;
  clauses: string[];
}

let claimClassifier: Promise<ClaimClassifier> | undefined;

export async function typeClaims(task: ClaimTask): Promise<(ClaimTypePrediction | null)[]> {
  claimClassifier ??= ClaimClassifier.load(task.files);
  return (await claimClassifier).classify(task.clauses);
}
