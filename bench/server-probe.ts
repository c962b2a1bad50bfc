/**
 * Reading a server's memory by part, for the benchmarks that start one (bench:soak, bench/store): its smaps by kind
 * (bench/stats.ts residentByKind) and the lines of the probe it was started with (bench/soak-probe.cjs, loaded by
 * `probeArgs` and writing to the file named by PARLEY_SOAK_PROBE): each isolate's heap, young generation and buffers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { processTree, residentByKind, type ResidentParts } from './stats.ts';

/** The node arguments that load the probe into the server (and, through server/heap.mjs, into the server it re-executes). */
export const probeArgs = ['--require', path.join(import.meta.dirname, 'soak-probe.cjs')];

/** One line of the probe's (bench/soak-probe.cjs), in bytes. */
export interface ProbeLine {
  /** When it was written (ms since the epoch). */
  at: number;
  pid: number;
  main: Isolate;
  /** Each live worker, with its isolate as it last answered (none yet: a worker at work on its first task). */
  workers: ({ kind: keyof WorkerCounts; worker: number } & Partial<Isolate & { heardMsAgo: number }>)[];
  live: WorkerCounts;
  started: WorkerCounts;
  ended: WorkerCounts;
}
export interface Isolate {
  heapUsed: number;
  heapCommitted: number;
  /** Of heapCommitted, the young generation's: V8 grows it while the isolate allocates fast and shrinks it when it idles. */
  young: number;
  external: number;
  arrayBuffers: number;
}
export interface WorkerCounts {
  reasoning: number;
  extraction: number;
}

/** The process that serves, of the server started as `pid`: its tree's last (npm start re-executes the server for its heap settings, server/heap.mjs). */
export async function servingPid(pid: number): Promise<number> {
  return (await processTree(pid)).at(-1)!;
}

/** The server's parts now: its smaps by kind and the probe's last line. */
export async function partsOf(pid: number, probeFile: string): Promise<{ resident: ResidentParts; probe: ProbeLine | undefined }> {
  const serving = await servingPid(pid);
  const resident = await residentByKind(serving);
  const lines = (await readFile(probeFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const probe = lines.map((line) => JSON.parse(line) as ProbeLine).filter((line) => line.pid === serving).at(-1);
  return { resident, probe };
}
