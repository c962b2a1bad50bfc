import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server-process.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** What it printed so far, stdout and stderr together (a line per document it finished). */
  output: () => string;
}

/** A `parley worker` process taking from `queue` (two documents at once), once it says it takes jobs. */
export async function startWorker(queue: string, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'packages/cli/bin/parley.mjs'), 'worker', '--queue', queue, '--concurrency', '2'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}): ${output}`)));
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('taking jobs')) resolve();
      });
    }
  });
  child.removeAllListeners('exit');
  return { child, output: () => output };
}
