import type { ParleyStore } from '../engine/store/store.ts';
import type { ParleyConfig } from './config.ts';

/** What the routes need from the engine; built once by main.ts (or a test) and handed to buildApp. */
export interface AppDeps {
  store: ParleyStore;
  config: ParleyConfig;
}
