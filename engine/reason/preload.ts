/**
 * The preload: the workers hand the view of the graph a client is at work on to their Prolog
 * engines ahead of an assess, one graph at a time, and a file names the graph last preloaded or
 * assessed, so that a restart preloads it again.
 */
import { readFile } from 'node:fs/promises';
import { replaceFile } from '../files.ts';
import { graphKey } from '../store/graph-cache.ts';
import type { ReplicaSource } from './replicas.ts';

/**
 * A preload waits for a pause this long in the requests about a graph (an import in parts, a
 * client paging through a graph), so that it is asked for once, after the last ...
 */
const PRELOAD_PAUSE_MS = 100;
/** ... but never longer than this after the first of them. */
const PRELOAD_MAX_WAIT_MS = 1_000;
/**
 * How long after a call on a graph, or its preload, a preload of another waits: a background
 * hand-over costs seconds of CPU at 100k facts, taken from the calls on the graph in use, and
 * past the engines' bound on views (PARLEY_VIEW_FACTS) it hands that graph's view out, paid
 * again by its next assess. So background hand-overs happen at most once in this long; a call
 * never waits for one.
 */
const VIEW_IN_USE_MS = 10_000;
/** How long a graph stays in use: VIEW_IN_USE_MS while a call on it runs, else what is left of it after the last. */
const inUseLeft = (use: { running: number; ended: number }, now: number) => (use.running > 0 ? VIEW_IN_USE_MS : use.ended + VIEW_IN_USE_MS - now);

export class Preloads {
  private readonly source: ReplicaSource;
  private readonly maxFacts: number;
  private readonly lastGraphFile: string | undefined;
  /** Called once the workers are to take a preloaded view: they may need starting. */
  private readonly preloaded: () => void;
  /** The preload waiting for a pause in the requests about its graph (PRELOAD_PAUSE_MS): when they began, when the last came. */
  private ahead: { key: string; tenant: string; graphId: string; since: number; last: number; timer: NodeJS.Timeout } | undefined;
  /** Per graph, the calls running on it and when the last one ended (kept VIEW_IN_USE_MS). */
  private readonly inUse = new Map<string, { running: number; ended: number }>();
  private closed = false;
  /** What lastGraphFile says now, or is being made to say, and the write under way (one at a time, in order). */
  private lastGraph: string | undefined;
  private lastGraphWrite: Promise<void> = Promise.resolve();

  /** Preloads graphs of at most `maxFacts` (0: none); `lastGraphFile` names the last (none: a restart preloads nothing). */
  constructor(source: ReplicaSource, maxFacts: number, lastGraphFile: string | undefined, preloaded: () => void) {
    this.source = source;
    this.maxFacts = maxFacts;
    this.lastGraphFile = lastGraphFile;
    this.preloaded = preloaded;
  }

  /** Asks for the preload of a graph (ReasoningPool.preload says when). */
  request(tenant: string, graphId: string): void {
    if (this.closed || this.maxFacts === 0) return;
    const key = graphKey(tenant, graphId);
    const now = Date.now();
    if (this.ahead?.key === key) {
      this.ahead.last = now; // (its timer looks again when it fires: a point query pays no timer of its own)
      return;
    }
    clearTimeout(this.ahead?.timer);
    this.ahead = { key, tenant, graphId, since: now, last: now, timer: setTimeout(() => this.due(), PRELOAD_PAUSE_MS).unref() };
  }

  /** The pending preload, asked now unless its requests have not paused yet or another graph is in use. */
  private due(): void {
    const ahead = this.ahead;
    if (this.closed || !ahead) return;
    const { key, tenant, graphId } = ahead;
    const now = Date.now();
    const wait = Math.max(Math.min(ahead.last + PRELOAD_PAUSE_MS, ahead.since + PRELOAD_MAX_WAIT_MS) - now, this.inUseElsewhere(key));
    if (wait > 0) {
      ahead.timer = setTimeout(() => this.due(), wait).unref();
      return;
    }
    this.ahead = undefined;
    this.source.preload(tenant, graphId, this.maxFacts).then(
      (worth) => {
        if (!worth || this.closed) return;
        this.used(key).ended = Date.now(); // the engines take this view: no other preload for VIEW_IN_USE_MS
        this.preloaded();
        this.remember(tenant, graphId);
      },
      () => {}, // the graph was deleted meanwhile: nothing to preload
    );
  }

  /** The graph lastGraphFile names (the one last preloaded or assessed before a restart), if any. */
  async lastNamed(): Promise<{ tenant: string; graphId: string } | undefined> {
    if (!this.lastGraphFile) return undefined;
    const named = await readFile(this.lastGraphFile, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined); // none yet, or damaged: nothing to preload
    if (!Array.isArray(named) || named.length !== 2 || !named.every((part) => typeof part === 'string')) return undefined;
    const [tenant, graphId] = named as [string, string];
    this.lastGraph = JSON.stringify(named);
    return { tenant, graphId };
  }

  /** Writes lastGraphFile when the graph it names changes (a failed write costs only the preload after a restart). */
  remember(tenant: string, graphId: string): void {
    const named = JSON.stringify([tenant, graphId]);
    if (!this.lastGraphFile || this.maxFacts === 0 || named === this.lastGraph) return;
    this.lastGraph = named;
    const file = this.lastGraphFile;
    this.lastGraphWrite = this.lastGraphWrite.then(() => replaceFile(file, named)).catch(() => {});
  }

  /** Marks a call on the graph `key` running, so that no preload of another hands its view out; the function returned marks it ended. */
  callOn(key: string): () => void {
    const use = this.used(key);
    use.running++;
    return () => {
      use.running--;
      use.ended = Date.now();
    };
  }

  /** How long until no other graph than `key` has been in use for VIEW_IN_USE_MS (0: none is). */
  private inUseElsewhere(key: string): number {
    this.dropUnused();
    const now = Date.now();
    let wait = 0;
    for (const [other, use] of this.inUse) if (other !== key) wait = Math.max(wait, inUseLeft(use, now));
    return wait;
  }

  /** Forgets the graphs no longer in use. */
  private dropUnused(): void {
    const now = Date.now();
    for (const [key, use] of this.inUse) if (inUseLeft(use, now) <= 0) this.inUse.delete(key);
  }

  /** The use entry of `key` (made when absent). */
  private used(key: string): { running: number; ended: number } {
    this.dropUnused();
    let use = this.inUse.get(key);
    if (!use) this.inUse.set(key, (use = { running: 0, ended: 0 }));
    return use;
  }

  /** Asks for no more preloads. */
  close(): void {
    this.closed = true;
    clearTimeout(this.ahead?.timer);
  }

  /** Resolves once lastGraphFile says what it is being made to say. */
  lastGraphWritten(): Promise<void> {
    return this.lastGraphWrite;
  }
}
