/**
 * What `parley analyze-corpus` is asked, shared by the command (which parses it) and its run
 * (which the command imports only when it runs: the pipeline, store and pool cost seconds of start-up).
 */
import type { Period } from '../../../../engine/reason/period.ts';

export const PROGRESS_MODES = ['auto', 'bar', 'lines', 'none'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

export interface AnalyzeCorpusOptions {
  graph: string;
  out: string;
  tenant: string;
  workers?: number;
  period: Period;
  progress: ProgressMode;
  report: boolean;
}
