/**
 * What the HTTP benchmarks share: /v1/health latency sampled while other work runs,
 * the event loop's own delay over that time, and a JSON POST. Loops are bounded in
 * count and time; every address is 127.0.0.1.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { Agent, get, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ServerProcess {
  process: ChildProcess;
  base: string;
  port: number;
}

/**
 * The server as `npm start` runs it (server/start.mjs: the compiled tree, brought up to date
 * first), in a child process on 127.0.0.1 (port 0), with `env` over this process's environment;
 * resolves once it listens. `nodeArgs` go before the script (e.g. --cpu-prof; a TypeScript
 * module given to --import needs `--import tsx` before it); `entry`, the script (server/main.ts with
 * `--import tsx`: the server from its sources, as a process running them in place has its code).
 */
export async function startServer(env: Record<string, string>, nodeArgs: string[] = [], entry = 'server/start.mjs'): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, entry], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = await new Promise<string>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited: ${code}`)));
    const watch = (chunk: string) => {
      const match = /listening at (http:\/\/[\d.:]+)/.exec(chunk);
      if (match) resolve(match[1]);
    };
    child.stdout!.setEncoding('utf8').on('data', watch);
    child.stderr!.setEncoding('utf8').on('data', watch);
  });
  return { process: child, base, port: Number(new URL(base).port) };
}

/** Stops a server process (SIGTERM: a clean close; SIGKILL: a crash) and waits for it to exit. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.on('exit', resolve));
  server.process.kill(signal);
  await exited;
}

/** Sequential GET /v1/health until `stop()` says so, or `samples` or `maxMs` run out; latencies in ms. */
export async function healthUntil(base: string, stop: () => boolean, samples: number, maxMs = 120_000): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = Date.now() + maxMs;
  while (!stop() && latencies.length < samples && Date.now() < deadline) {
    const started = performance.now();
    const response = await fetch(`${base}/v1/health`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/v1/health answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/**
 * GET /v1/health every `intervalMs` whether or not the last one answered, until `stop()`
 * says so: a stall of the server delays every request sent during it, where sequential
 * sampling would count it once. Latencies in ms from when each request was due; requests
 * that failed (connection reset, not 200) counted in `errors`.
 */
export async function healthEvery(base: string, stop: () => boolean, intervalMs = 10, maxMs = 600_000): Promise<number[] & { errors: number }> {
  const latencies = Object.assign([] as number[], { errors: 0 });
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  for (let i = 0; !stop() && performance.now() - started < maxMs; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const request: Promise<void> = getStatus(`${base}/v1/health`)
      .then((status) => {
        if (status !== 200) throw new Error(`/v1/health answered ${status}`);
        latencies.push(performance.now() - due);
      })
      .catch(() => {
        latencies.errors++;
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  }
  await Promise.all(pending);
  return latencies;
}

const keepAlive = new Agent({ keepAlive: true });

/**
 * A GET's status, its body read and dropped, over kept-alive connections: node:http costs
 * the prober a fraction of what fetch does, so under load its own CPU delays the probes less.
 */
function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: keepAlive }, (response) => {
      response.on('end', () => resolve(response.statusCode ?? 0)).on('error', reject).resume();
    }).on('error', reject);
  });
}

/**
 * `healthEvery` run from a process of its own (bench/health-probe.ts), so that the
 * benchmark's own work does not delay the probes; resolves once probing has begun.
 * `stop()` ends it and gives the latencies.
 */
export async function probeHealth(base: string, intervalMs = 10, maxMs = 600_000): Promise<{ stop: () => Promise<number[] & { errors: number }> }> {
  const child = fork(new URL('./health-probe.ts', import.meta.url).pathname, [base, String(intervalMs), String(maxMs)], { execArgv: ['--import', 'tsx'] });
  const result = new Promise<number[] & { errors: number }>((resolve, reject) => {
    child.on('message', (message: { latencies?: number[]; errors: number }) => {
      if (message.latencies) resolve(Object.assign(message.latencies, { errors: message.errors }));
    });
    child.on('exit', (code) => reject(new Error(`health prober exited: ${code}`)));
  });
  await new Promise((resolve) => child.once('message', resolve));
  return {
    stop: () => {
      child.send('stop');
      return result;
    },
  };
}

/** The event loop's own delay (perf_hooks) over `work`: its stalls, apart from what the HTTP client adds. */
export async function loopDelay<T>(work: () => Promise<T>): Promise<{ value: T; p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const value = await work();
    return { value, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

/** The time until `ask` is answered 200, asking again a second after each refusal; minus the last status when it is not within `ms`. */
export async function answeredWithin(ms: number, ask: () => Promise<{ status: number }>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { status } = await ask();
    if (status === 200) return performance.now() - started;
    if (performance.now() - started > ms) return -status;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

export async function postJson(url: string, key: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

/**
 * Requests to one port on 127.0.0.1 over kept-alive node:http connections (fetch alone
 * costs more than a point query's target); the body comes back as text.
 */
export function keepAliveClient(port: number, maxSockets = 1): { send(method: string, url: string, key?: string, body?: string): Promise<{ status: number; body: string }>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send: (method, url, key, body) =>
      new Promise((resolve, reject) => {
        const headers: Record<string, string> = { ...(key ? { 'x-api-key': key } : {}), ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) };
        const sent = request({ host: '127.0.0.1', port, method, path: url, agent, headers }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, body: text }));
        });
        sent.on('error', reject);
        sent.end(body);
      }),
    close: () => agent.destroy(),
  };
}
