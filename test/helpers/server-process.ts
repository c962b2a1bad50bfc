import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { spawnUntil } from './spawn-until.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** `http://host:port` the server said it listens at. */
  base: string;
  /** What it printed so far, stdout and stderr together. */
  output: () => string;
}

/** A server in a process of its own (`node ...args`, in the repository), once it says it listens. */
export async function spawnServer(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const { child, output, found: base } = await spawnUntil(process.execPath, args, { cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env } }, 'the server', (printed) =>
    /listening at (http:\/\/[\d.:]+)/.exec(printed)?.[1],
  );
  return { child, base, output };
}

/** SIGTERM, then its exit code once it has closed. */
export async function stopServer(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}
