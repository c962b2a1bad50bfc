import type { ExtractionPipeline } from '../engine/extract/pipeline.ts';
import type { ParleyStore } from '../engine/store/store.ts';
import type { ReasoningPool } from '../engine/reason/pool.ts';
import type { ParleyConfig } from './config.ts';

/** What the routes need from the engine; built once by main.ts (or a test) and handed to buildApp. */
export interface AppDeps {
  store: ParleyStore;
  config: ParleyConfig;
  /** Text → conflict entities with provenance (NER worker pool when a model is configured, the symbolic layer always). */
  extraction: ExtractionPipeline;
  /** Queries and framework runs in worker threads over graph replicas; the loaded rule modules. */
  reasoning: ReasoningPool;
}
