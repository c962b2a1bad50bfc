/**
 * The child process that runs scenarios for run.ts, one at a time, reporting
 * each start and outcome over IPC. It is a separate process so that the
 * runner can kill a scenario that outlives its time limit, whatever the
 * engine is doing.
 */
import { executeScenario } from './execute.ts';
import { loadScenarios } from './features.ts';
import { planScenario } from './scenario.ts';

export interface WorkerRequest {
  root: string;
  ids: string[];
}

export type WorkerReport =
  | { type: 'start'; id: string }
  | { type: 'done'; id: string; passed: boolean; category?: string; reason?: string; ms: number }
  | { type: 'finished' };

function send(report: WorkerReport): Promise<void> {
  return new Promise((resolve, reject) => process.send!(report, (error: Error | null) => (error ? reject(error) : resolve())));
}

process.once('message', async (request: WorkerRequest) => {
  const byId = new Map(loadScenarios(request.root).map((scenario) => [scenario.id, scenario]));
  for (const id of request.ids) {
    const scenario = byId.get(id);
    if (!scenario) throw new Error(`no scenario ${id}`);
    await send({ type: 'start', id });
    const started = performance.now();
    let outcome;
    try {
      outcome = executeScenario(planScenario(scenario));
    } catch (error) {
      // a fault of the runner or an engine crash that is not a typed error
      outcome = { passed: false, category: 'crashed', reason: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    await send({ type: 'done', id, ...outcome, ms: performance.now() - started });
  }
  await send({ type: 'finished' });
  process.disconnect();
});
