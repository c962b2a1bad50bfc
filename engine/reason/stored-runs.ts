/**
 * Stored runs: the frameworks' runs over a whole graph (no as_of, no scope) at one graph version, kept on disk
 * beside the graph's snapshot, so that the first assess of an untouched graph after a restart is answered from
 * them rather than by fresh runs (at 1M facts, some 15 s of a core after a hand-over of 2.3 s per engine).
 *
 * One file per graph (snapshot.ts graphFile, `.runs`), whose first line names the version it is of: the tenant,
 * graph, generation and store revision (a write or a correction moves the revision, the graph deleted and made
 * again has a new generation), and what else a run's answer depends on: the code and rules that made it (the
 * catalog's source key, engine/frameworks/catalog-cache.ts: every rule module file, the framework, Prolog and
 * ontology code, the engine's version; with the reasoning and store code) and the run's limits. A whole graph's
 * reference date is its latest valid time, so the revision pins it. A file that names anything else is never read,
 * and is replaced by the next runs stored. The runs are those a fresh run would give: only runs that concluded are kept, none
 * stopped by a time limit (where it stops depends on the machine) or by an error (a rule's, or the engine's
 * resource or stack errors, which depend on what the engine holds), as a worker keeps none of those either.
 *
 * Bounded: one file per graph, of at most MAX_STORED_RUN_BYTES; removed when its graph is deleted (and at start
 * when beside no snapshot: its graph deleted while no server ran), and never read for another version. Written whole or not at all (replaceFile).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashTree } from '../frameworks/catalog-cache.ts';
import { DEFAULT_MAX_FINDINGS, type FrameworkRun, type RunLimits } from '../frameworks/run.ts';
import { replaceFile } from '../files.ts';
import { graphFile } from '../store/snapshot.ts';
import type { ImageOf } from './view-images.ts';

/** Bytes of one graph's stored runs at most: runs whose file would be larger are not kept (the 15 of a generated conflict graph took 349 KB at 10k facts, 431 KB at 100k). */
export const MAX_STORED_RUN_BYTES = 4 * 2 ** 20;
const FORMAT = 1;
/** The code beyond the catalog's source key that shapes a run: how a task reaches the engine, and the view it reads. */
const CODE_DIRS = ['./', '../store/'].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

interface Header extends ImageOf {
  format: number;
  /** storedRunsKey's: the code and rules that made the runs. */
  code: string;
  /** limitsKey's. */
  limits: unknown[];
}

/** The limits a run's answer depends on, in one order (a missing findings limit is the default one). */
const limitsKey = (limits: RunLimits) => [limits.inferenceLimit, limits.timeLimitMs, limits.maxFindings ?? DEFAULT_MAX_FINDINGS];

/** What stored runs are pinned to beyond the graph's version: `catalogKey` (the rule modules' source key) and the reasoning and store code. */
export function storedRunsKey(catalogKey: string): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\0catalog ${catalogKey}\0`);
  for (const dir of CODE_DIRS) {
    hash.update(`dir ${dir}\0`);
    hashTree(hash, dir, '');
  }
  return hash.digest('hex');
}

export class StoredRuns {
  /** Per file, the last keep or removal under way: they read and replace the file one at a time. */
  private readonly writing = new Map<string, Promise<void>>();

  private constructor(
    private readonly dir: string,
    /** storedRunsKey's. */
    private readonly code: string,
  ) {}

  /** The stored runs in `dir` (a store's snapshot folder), those beside no snapshot removed (their graph was deleted while no server ran). */
  static async open(dir: string, code: string): Promise<StoredRuns> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const snapshots = new Set(names.filter((name) => name.endsWith('.snapshot')));
    for (const name of names) if (name.endsWith('.runs') && !snapshots.has(name.replace(/\.runs$/, '.snapshot'))) await rm(path.join(dir, name), { force: true });
    return new StoredRuns(dir, code);
  }

  /** The runs of `frameworkIds` (in that order) kept for the graph at `of` under `limits`; undefined unless every one of them is. */
  async read(of: ImageOf, limits: RunLimits, frameworkIds: string[]): Promise<FrameworkRun[] | undefined> {
    const runs = await this.runsOf(this.fileOf(of), of, limits);
    const found = frameworkIds.map((id) => runs?.get(id));
    return found.every((run) => run !== undefined) ? (found as FrameworkRun[]) : undefined;
  }

  /** Removes the runs kept for a graph (deleted: they name its actors and evidence), after any keep of them under way. */
  remove(tenant: string, graphId: string): Promise<void> {
    return this.queue(graphFile(this.dir, tenant, graphId, 'runs'), (file) => rm(file, { force: true }));
  }

  /** Keeps `runs` (all concluded, none stopped by an error) as those of the graph at `of` under `limits`, beside the ones kept for that version. */
  keep(of: ImageOf, limits: RunLimits, runs: FrameworkRun[]): Promise<void> {
    return this.queue(this.fileOf(of), async (file) => {
      const all = (await this.runsOf(file, of, limits)) ?? new Map<string, FrameworkRun>();
      for (const run of runs) all.set(run.framework_id, run);
      const header: Header = { format: FORMAT, tenant: of.tenant, graphId: of.graphId, generation: of.generation, revision: of.revision, code: this.code, limits: limitsKey(limits) };
      const content = `${JSON.stringify(header)}\n${JSON.stringify([...all.values()])}`;
      if (Buffer.byteLength(content) > MAX_STORED_RUN_BYTES) return;
      await mkdir(this.dir, { recursive: true }); // (the store makes its snapshot folder at its first close)
      await replaceFile(file, content);
    });
  }

  /** Runs `change` on `file` after the changes to it under way. */
  private queue(file: string, change: (file: string) => Promise<void>): Promise<void> {
    const changed = (this.writing.get(file) ?? Promise.resolve()).then(() => change(file));
    // a failed write costs the next restart fresh runs, nothing more
    const settled = changed.catch(() => {});
    this.writing.set(file, settled);
    void settled.then(() => this.writing.get(file) === settled && this.writing.delete(file));
    return settled;
  }

  /** Resolves once the keeps under way are written (or failed). */
  async written(): Promise<void> {
    await Promise.all(this.writing.values());
  }

  private fileOf(of: ImageOf): string {
    return graphFile(this.dir, of.tenant, of.graphId, 'runs');
  }

  /** The runs in `file` by framework id, when its header names `of`, `limits` and this code; else undefined. */
  private async runsOf(file: string, of: ImageOf, limits: RunLimits): Promise<Map<string, FrameworkRun> | undefined> {
    // (none larger is written: a file past the bound was put there by something else, and is not parsed)
    const bytes = await stat(file).then((found) => found.size, () => undefined);
    if (bytes === undefined || bytes > MAX_STORED_RUN_BYTES) return undefined;
    const content = await readFile(file, 'utf8').catch(() => undefined);
    const newline = content?.indexOf('\n') ?? -1;
    if (content === undefined || newline < 0) return undefined;
    try {
      const header = JSON.parse(content.slice(0, newline)) as Partial<Header>;
      const same =
        header.format === FORMAT &&
        header.code === this.code &&
        header.tenant === of.tenant &&
        header.graphId === of.graphId &&
        header.generation === of.generation &&
        header.revision === of.revision &&
        JSON.stringify(header.limits) === JSON.stringify(limitsKey(limits));
      return same ? new Map((JSON.parse(content.slice(newline + 1)) as FrameworkRun[]).map((run) => [run.framework_id, run])) : undefined;
    } catch {
      return undefined; // torn or edited: fresh runs
    }
  }
}
