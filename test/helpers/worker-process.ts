import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server-process.ts';
import { spawnUntil } from './spawn-until.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** What it printed so far, stdout and stderr together (a line per document it finished). */
  output: () => string;
}

/** A `parley worker` process taking from `queue` (two documents at once), once it says it takes jobs. */
export async function startWorker(queue: string, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const { child, output } = await spawnUntil(process.execPath, [path.join(ROOT, 'packages/cli/bin/parley.mjs'), 'worker', '--queue', queue, '--concurrency', '2'], { cwd: ROOT, env }, 'the worker', (printed) =>
    printed.includes('taking jobs') || undefined,
  );
  return { child, output };
}
