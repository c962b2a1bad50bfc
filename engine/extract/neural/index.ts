/**
 * The neural extraction layer: token classification in a worker pool (entities with offsets
 * into each text) and, optionally, model-based claim typing.
 */
export {
  createNerBackend,
  DEFAULT_NER_MAX_QUEUE,
  DEFAULT_NER_MAX_SENTENCES_PER_CALL,
  DEFAULT_NER_TIMEOUT_MS,
  openNerBackend,
  PooledNerBackend,
  type NerBackendOptions,
  type NerBackendStatus,
} from './backend.ts';
export { groupEntities, parseLabel, type WordPrediction } from './bio.ts';
export { inspectNerModelDir, NerModelUnavailableError, type NerModelFiles, type NerModelProblem } from './model-dir.ts';
export { splitSentences } from './sentences.ts';
export { splitWords } from './words.ts';
export { CLAIM_HYPOTHESES, claimModelKind, type ClaimTypePrediction } from './claim-classifier.ts';
export {
  createClaimTyper,
  openClaimTyper,
  DEFAULT_MIN_CLAIM_TYPE_SCORE,
  PooledClaimTyper,
  withClaimTyping,
  type ClaimTyper,
  type ClaimTyperOptions,
} from './claim-typer.ts';
export { CallGate } from '../../gate.ts';
