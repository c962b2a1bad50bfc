import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

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
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${output}`)));
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const listening = /listening at (http:\/\/[\d.:]+)/.exec(output);
        if (listening) resolve(listening[1]);
      });
    }
  });
  child.removeAllListeners('exit');
  return { child, base, output: () => output };
}

/** SIGTERM, then its exit code once it has closed. */
export async function stopServer(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}
