import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface SpawnedUntil<T> {
  child: ChildProcess;
  /** What it printed so far, stdout and stderr together. */
  output: () => string;
  /** What `ready` found in the output. */
  found: T;
}

/**
 * A process started once what it prints (stdout and stderr together) satisfies `ready`, which
 * returns what it found there (undefined: not yet); a process that exits or fails to start first
 * rejects with what it printed.
 */
export async function spawnUntil<T>(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  name: string,
  ready: (output: string) => T | undefined,
): Promise<SpawnedUntil<T>> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const found = await new Promise<T>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${output}`)));
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const value = ready(output);
        if (value !== undefined) resolve(value);
      });
    }
  });
  child.removeAllListeners('exit');
  child.removeAllListeners('error');
  return { child, output: () => output, found };
}
