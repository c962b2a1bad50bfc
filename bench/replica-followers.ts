/**
 * bench/replica-followers: worker threads that follow a store's graph through its replica channel (ReplicaSource), each
 * holding a replica (ReplicaSet) as a server's reasoning worker does, without its Prolog engine: what the main thread pays
 * for the workers to stay in step with a batch (bench/batch-profile.ts --replicas). The first also counts the deltas it
 * hears: their messages' bytes as V8 serialises them (what a post clones), records and provenance entries. At the end
 * each says the digest of its replica, to be compared with the store's (recordsDigest), and how many snapshots it built:
 * one, when the deltas kept its first replica in step (a replica a delta dropped is taken again when asked, and the
 * digest alone would not tell).
 */
import { createHash } from 'node:crypto';
import { serialize } from 'node:v8';
import { BroadcastChannel, isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ReplicaSet, type GraphVersion } from '../engine/reason/replicas.ts';
import type { GraphIndex } from '../engine/store/graph-index.ts';

/** What the first follower heard of the deltas. */
export interface DeltasHeard {
  messages: number;
  bytes: number;
  records: number;
  provenanceEntries: number;
}

/** A digest of every record of `graph`, each serialised as it is (its keys in their order), in the order of their ids. */
export function recordsDigest(graph: GraphIndex): string {
  const hash = createHash('sha256');
  for (const records of [[...graph.nodes.values()], [...graph.edges.values()]]) {
    records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const record of records) hash.update(JSON.stringify(record)).update('\n');
  }
  return hash.digest('hex');
}

/** A follower's replica at the end: its digest (recordsDigest) and the snapshots it built to hold it. */
export interface Followed {
  digest: string;
  snapshots: number;
}

type Asked = { type: 'follow' | 'followed' | 'heard'; at: GraphVersion };

/** `count` followers on the replica channel `channel`. */
export class ReplicaFollowers {
  private readonly workers: Worker[];

  /** Resolves once every follower listens on the channel. */
  readonly ready: Promise<unknown[]>;

  constructor(channel: string, count: number) {
    // (a worker thread does not inherit the parent's loader: this file is loaded as the reasoning workers load theirs)
    const boot = `import(${JSON.stringify(new URL('../engine/load-module.mjs', import.meta.url).href)}).then(({ loadModule }) => loadModule(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
    this.workers = Array.from({ length: count }, (_, i) => new Worker(boot, { eval: true, workerData: { channel, counts: i === 0 } }));
    this.ready = Promise.all(this.workers.map((worker) => new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    })));
  }

  /** Has each follower hold the graph's replica at `at` or newer (its snapshot asked for), and resolves once they do. */
  follow(at: GraphVersion): Promise<unknown[]> {
    return this.askAll({ type: 'follow', at });
  }

  /** Each follower's replica at `at` or newer: its digest and the snapshots it built. */
  followed(at: GraphVersion): Promise<Followed[]> {
    return this.askAll({ type: 'followed', at }) as Promise<Followed[]>;
  }

  /** What the first follower heard of the deltas, once its replica is at `at` or newer (every delta up to it heard). */
  async heard(at: GraphVersion): Promise<DeltasHeard> {
    return (await this.ask(this.workers[0], { type: 'heard', at })) as DeltasHeard;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private askAll(asked: Asked): Promise<unknown[]> {
    return Promise.all(this.workers.map((worker) => this.ask(worker, asked)));
  }

  private ask(worker: Worker, asked: Asked): Promise<unknown> {
    return new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(asked);
    });
  }
}

if (!isMainThread && (workerData as { channel?: string } | undefined)?.channel) {
  const { channel, counts } = workerData as { channel: string; counts: boolean };
  // a delta moves the replica on in place: a graph not seen before is a snapshot's
  let snapshots = 0;
  let built: GraphIndex | undefined;
  const replicas = new ReplicaSet(channel, 4, (_at, graph) => {
    if (graph !== built) snapshots++;
    built = graph;
  });
  const heard: DeltasHeard = { messages: 0, bytes: 0, records: 0, provenanceEntries: 0 };
  if (counts) {
    const listener = new BroadcastChannel(channel);
    listener.unref();
    listener.onmessage = (event) => {
      const message = (event as { data: { type: string; nodes?: { provenance: unknown[] }[]; edges?: { provenance: unknown[] }[] } }).data;
      if (message.type !== 'delta' && message.type !== 'delta-part') return;
      heard.messages++;
      heard.bytes += serialize(message).byteLength;
      for (const record of [...message.nodes!, ...message.edges!]) {
        heard.records++;
        heard.provenanceEntries += record.provenance.length;
      }
    };
  }
  parentPort!.postMessage('ready');
  parentPort!.on('message', async (asked: Asked) => {
    const graph = await replicas.graph(asked.at);
    parentPort!.postMessage(asked.type === 'heard' ? heard : asked.type === 'followed' ? ({ digest: recordsDigest(graph), snapshots } satisfies Followed) : 'held');
  });
}
