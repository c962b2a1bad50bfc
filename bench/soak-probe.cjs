// bench:soak's probe inside the server (node --require, which, unlike --import, runs in every worker thread
// too; server/heap.mjs passes it on to the server it re-executes): what each isolate holds, so that the soak can
// tell which part of the server's RSS moves. CommonJS, since it runs before any loader in the compiled server.
//
// - In the main thread of the process that serves (the one with PARLEY_SOAK_PROBE and MALLOC_ARENA_MAX set, as
//   server/heap.mjs sets it for the server it re-executes, or as the soak's environment does), it counts the worker
//   threads started and ended by kind (reasoning: the workers whose setup names a replica channel; extraction: the
//   others) and every PROBE_EVERY_MS appends one JSON line to the file PARLEY_SOAK_PROBE names: its pid, its own
//   isolate, each live worker's as it last answered (and how long ago), and the counts.
// - In a worker thread, it answers the main thread's question on a BroadcastChannel with its isolate. A worker
//   parked between tasks (piscina's Atomics.wait: the extraction workers) does not answer until its next task.
'use strict';
const { appendFile } = require('node:fs/promises');
const { getHeapSpaceStatistics, getHeapStatistics } = require('node:v8');
const workerThreads = require('node:worker_threads');

const CHANNEL = 'parley-soak-probe';
const PROBE_EVERY_MS = 10_000;
const ANSWER_WITHIN_MS = 1_000;

/** What this thread's isolate holds, in bytes; young: of the committed heap, the young generation's (V8 sizes it to the allocation rate). */
function isolate() {
  const { used_heap_size: heapUsed, total_heap_size: heapCommitted } = getHeapStatistics();
  const young = getHeapSpaceStatistics().reduce((sum, space) => sum + (space.space_name.startsWith('new_') ? space.space_size : 0), 0);
  const { external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, heapCommitted, young, external, arrayBuffers };
}

if (!workerThreads.isMainThread) {
  const channel = new workerThreads.BroadcastChannel(CHANNEL);
  channel.unref();
  // (the channel carries the other workers' answers too: only a question is answered)
  channel.onmessage = ({ data }) => {
    if (data.type === 'ask') channel.postMessage({ type: 'isolate', worker: workerThreads.threadId, ...isolate() });
  };
} else if (process.env.PARLEY_SOAK_PROBE && process.env.MALLOC_ARENA_MAX) {
  const file = process.env.PARLEY_SOAK_PROBE;
  const kindOf = new Map();
  const started = { reasoning: 0, extraction: 0 };
  const ended = { reasoning: 0, extraction: 0 };
  // the pools (piscina) look the class up on the module at each start
  const { Worker } = workerThreads;
  workerThreads.Worker = class ProbedWorker extends Worker {
    constructor(filename, options) {
      super(filename, options);
      const kind = options?.workerData?.channelName ? 'reasoning' : 'extraction';
      started[kind]++;
      const { threadId } = this;
      kindOf.set(threadId, kind);
      this.once('exit', () => {
        ended[kind]++;
        kindOf.delete(threadId);
        lastHeard.delete(threadId);
      });
    }
  };
  // each worker's last answer: a worker at work on a long task answers only after it (a minute, for an ingest's)
  const lastHeard = new Map();
  const channel = new workerThreads.BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = ({ data }) => {
    if (data.type === 'isolate' && kindOf.has(data.worker)) lastHeard.set(data.worker, { at: Date.now(), ...data });
  };
  setInterval(async () => {
    channel.postMessage({ type: 'ask' });
    await new Promise((resolve) => setTimeout(resolve, ANSWER_WITHIN_MS));
    const workers = [...kindOf].map(([worker, kind]) => {
      const heard = lastHeard.get(worker);
      return heard ? { kind, worker, heapUsed: heard.heapUsed, heapCommitted: heard.heapCommitted, young: heard.young, external: heard.external, arrayBuffers: heard.arrayBuffers, heardMsAgo: Date.now() - heard.at } : { kind, worker };
    });
    const live = { reasoning: 0, extraction: 0 };
    for (const kind of kindOf.values()) live[kind]++;
    const line = { at: Date.now(), pid: process.pid, main: isolate(), workers, live, started: { ...started }, ended: { ...ended } };
    await appendFile(file, `${JSON.stringify(line)}\n`).catch(() => {});
  }, PROBE_EVERY_MS).unref();
}
