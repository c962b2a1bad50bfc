/**
 * The store snapshot files the workers read at once for their replicas (replicas.ts ReplicaSource's snapshotReadBytes): a
 * read waits while the files read at once would pass the bound, and goes once the one before it is done; a stopped reader's
 * turn is freed, and so are a closed set's and, once it has made no progress for the replica wait, a hung read's (its bytes
 * counted until it returns); the wait counts as the build's progress, so that the task waiting is not given up and asked again. A reader
 * holding a turn is played here by the test on the source's channel (read-ask, read-done), as another worker's read under
 * way, so that how long it holds the turn does not hang on the machine.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplicaSet, ReplicaSource } from '../../engine/reason/replicas.ts';
import { snapshotFile } from '../../engine/store/snapshot.ts';
import { openTempStore, reopenTempStore, type TempStore } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

/**
 * The snapshot files being read now (readSnapshot called, not yet returned), the most read at once, and the reads begun;
 * `stall`: what the next read waits for before it reads (a file read that does not return: a stalled disk or mount), and
 * `stallProgressMs`: how often it says it goes on while it waits (a slow read, its chunks still coming), if it does.
 */
const reading = vi.hoisted(() => ({ now: 0, most: 0, begun: 0, stall: undefined as Promise<void> | undefined, stallProgressMs: undefined as number | undefined }));
vi.mock('../../engine/store/snapshot.ts', async (original) => {
  const snapshot = await original<typeof import('../../engine/store/snapshot.ts')>();
  return {
    ...snapshot,
    readSnapshot: async (...args: Parameters<typeof snapshot.readSnapshot>) => {
      reading.begun++;
      reading.most = Math.max(reading.most, ++reading.now);
      const stall = reading.stall;
      const progressing = reading.stallProgressMs === undefined ? undefined : setInterval(() => args[3]?.(), reading.stallProgressMs);
      reading.stall = undefined;
      reading.stallProgressMs = undefined;
      try {
        await stall;
        return await snapshot.readSnapshot(...args);
      } finally {
        clearInterval(progressing);
        reading.now--;
      }
    },
  };
});

describe('the snapshot files the workers read at once', () => {
  const closing: { close(): void }[] = [];
  let temp: TempStore | undefined;
  afterEach(async () => {
    closing.splice(0).forEach((item) => item.close());
    await temp?.close();
    temp = undefined;
    reading.most = 0;
    reading.begun = 0;
  });

  /**
   * Makes the next read of a snapshot file hang until the function returned is called (afterEach calls it too), saying it
   * goes on every `progressMs` if given.
   */
  const stallNextRead = (progressMs?: number) => {
    let release!: () => void;
    reading.stall = new Promise((resolve) => (release = resolve));
    reading.stallProgressMs = progressMs;
    closing.push({ close: release });
    return release;
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** `task` as settled within 10 s, or 'still waiting'. */
  const within10s = <T>(task: Promise<T>) => Promise.race([task, sleep(10_000).then(() => 'still waiting' as const)]);
  /** Runs `test` with stderr caught, `lines()` giving what was written of snapshot files. */
  const catchingLog = async (test: (lines: () => string[]) => Promise<void>) => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await test(() => logged.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('snapshot file')));
    } finally {
      logged.mockRestore();
    }
  };

  /**
   * A store whose graph t/g (`actors` actors in a chain) was written, closed and opened again, so that its snapshot file
   * holds it; a source on it whose workers read `readBytes(file's bytes)` of such files at once (`running`: which workers
   * the pool still runs), and what its channel heard.
   */
  const sourceOnFile = async (actors: number, readBytes: (fileBytes: number) => number, running?: (worker: number) => boolean) => {
    temp = await openTempStore('parley-replica-file-reads-');
    const ids = Array.from({ length: actors }, (_, i) => `n${i}`);
    const edges = ids.slice(1).map((id, i) => ({ id: `e${i}`, type: 'OPPOSES', from: ids[i], to: id }));
    await temp.store.writeGraph('t', 'g', { nodes: ids.map((id) => ({ id, labels: ['Actor'], properties: { label: id } })), edges });
    temp = await reopenTempStore(temp);
    const fileBytes = (await stat(snapshotFile(path.join(temp.dir, 'store', 'snapshots'), 't', 'g'))).size;
    const name = `replica-file-reads-test-${Math.random()}`;
    const source = new ReplicaSource(temp.store, name, undefined, Infinity, undefined, readBytes(fileBytes), running);
    const channel = new BroadcastChannel(name);
    const heard: { type: string; to?: string; read?: number }[] = [];
    channel.onmessage = (event) => heard.push((event as { data: (typeof heard)[number] }).data);
    closing.push(source, channel);
    const { graph, at } = await source.current('t', 'g');
    /**
     * Another reader's ask to read `bytes` (as worker `worker`): whether it was granted yet, done() to end its read, and
     * stalled() to say, as its reader would, that it has made no progress for the replica wait.
     */
    const askRead = (bytes: number, worker = threadId) => {
      const to = `other-${Math.random()}`;
      channel.postMessage({ type: 'read-ask', to, read: 1, worker, bytes });
      return {
        granted: () => heard.some((message) => message.type === 'read-slot' && message.to === to),
        done: () => channel.postMessage({ type: 'read-done', to, read: 1 }),
        stalled: () => channel.postMessage({ type: 'read-stalled', to, read: 1, key: at.key }),
      };
    };
    /** Another reader's read of `bytes` (as worker `worker`), granted before any ask that follows: done() ends it. */
    const otherRead = async (bytes: number, worker = threadId) => {
      const other = askRead(bytes, worker);
      expect(await until(other.granted, 5_000)).toBe(true);
      return other;
    };
    const set = (waitMs?: number) => {
      const replicas = new ReplicaSet(name, 4, undefined, undefined, waitMs);
      closing.push(replicas);
      return replicas;
    };
    /** A worker's replica asked for (`asked`), its read of the file waiting for its turn: the replica is not built half a second on. */
    const waitingReplica = async () => {
      const replicas = set();
      let built = false;
      const asked = replicas.graph(at).then((replica) => ((built = true), replica));
      expect(await until(() => replicas.builds(at.key), 5_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(built).toBe(false);
      return { replicas, asked, built: () => built };
    };
    /**
     * A worker's replica a hold asks for (no task waits on it, to give its build up), its read of the file granted and hung
     * (`waitMs`: its replica wait; `progressMs`: how often it says it goes on, if it does): its set, and release() to let the
     * read return.
     */
    const hungRead = async (waitMs?: number, progressMs?: number) => {
      const release = stallNextRead(progressMs);
      const replicas = set(waitMs);
      await source.hold('t', 'g');
      expect(await until(() => reading.now === 1, 5_000)).toBe(true);
      return { replicas, release };
    };
    return { source, graph, at, fileBytes, heard, askRead, otherRead, set, waitingReplica, hungRead };
  };

  it('lets a read wait while the files read at once would pass the bound, and go once the one before it is done', async () => {
    const { graph, fileBytes, otherRead, waitingReplica } = await sourceOnFile(300, (bytes) => 2 * bytes - 1);
    const other = await otherRead(fileBytes);
    const { asked } = await waitingReplica();
    other.done();
    expect((await asked).factCount).toBe(graph.factCount);
  }, 30_000);

  it('reads beside another read under way while both files fit the bound', async () => {
    const { graph, at, fileBytes, otherRead, set } = await sourceOnFile(300, (bytes) => 2 * bytes);
    const other = await otherRead(fileBytes);
    expect((await set().graph(at)).factCount).toBe(graph.factCount);
    other.done();
  }, 30_000);

  it('has two workers asking for one graph at once read its file one after the other when two copies pass the bound', async () => {
    const { graph, at, heard, set } = await sourceOnFile(20_000, (bytes) => 2 * bytes - 1);
    const [one, two] = await Promise.all([set().graph(at), set().graph(at)]);
    expect([one.factCount, two.factCount]).toEqual([graph.factCount, graph.factCount]);
    expect(one).not.toBe(two);
    expect(reading.most).toBe(1);
    expect(await until(() => heard.filter(({ type }) => type === 'read-done').length === 2, 5_000)).toBe(true);
  }, 60_000);

  it('reads the files one at a time at a bound of 0: a read alone always goes', async () => {
    const { graph, at, set } = await sourceOnFile(300, () => 0);
    const [one, two] = await Promise.all([set().graph(at), set().graph(at)]);
    expect([one.factCount, two.factCount]).toEqual([graph.factCount, graph.factCount]);
    expect(reading.most).toBe(1);
  }, 30_000);

  it('frees the turn of a reader whose worker stopped, which never says it is done', async () => {
    const { source, graph, fileBytes, otherRead, waitingReplica } = await sourceOnFile(300, (bytes) => bytes);
    await otherRead(fileBytes, threadId + 1_000);
    const { asked } = await waitingReplica();
    // (piscina ended that worker's thread: the pool tells the source which threads still run)
    source.forgetPrepared(new Set([threadId]));
    expect((await asked).factCount).toBe(graph.factCount);
  }, 30_000);

  it('never grants the ask of a worker heard only after the worker stopped, which would hold its turn for ever', async () => {
    const stopped = threadId + 1_000;
    const running = new Set([threadId, stopped]);
    const { source, graph, at, fileBytes, heard, otherRead, set } = await sourceOnFile(300, (bytes) => bytes, (worker) => running.has(worker));
    // piscina ended the worker (workerDestroy) while its read-ask, posted just before, was still on the channel
    running.delete(stopped);
    source.forgetPrepared(new Set(running));
    const late = `stopped-${Math.random()}`;
    const channel = new BroadcastChannel(source.channelName);
    closing.push(channel);
    channel.postMessage({ type: 'read-ask', to: late, read: 1, worker: stopped, bytes: fileBytes });
    // (a read of no bytes, asked after it on the same channel, is heard after it: once granted, the late ask was heard)
    (await otherRead(0)).done();
    expect((await set().graph(at)).factCount).toBe(graph.factCount);
    expect(heard.some((message) => message.type === 'read-slot' && message.to === late)).toBe(false);
  }, 30_000);

  it('frees the turn of a read that finds the file unreadable (its build goes on from chunks)', async () => {
    const { graph, at, fileBytes, otherRead, set } = await sourceOnFile(300, (bytes) => bytes);
    // one byte of the body changed: its digest no longer matches the header's
    const file = await open(snapshotFile(path.join(temp!.dir, 'store', 'snapshots'), 't', 'g'), 'r+');
    const [last] = (await file.read(Buffer.alloc(1), 0, 1, fileBytes - 1)).buffer;
    await file.write(Buffer.from([last ^ 0xff]), 0, 1, fileBytes - 1);
    await file.close();
    const begun = reading.begun; // (the store's own load read the file whole)
    expect((await set().graph(at)).factCount).toBe(graph.factCount);
    expect(reading.begun).toBe(begun + 1);
    // a read of the whole bound goes only once no other holds a turn
    await otherRead(fileBytes);
  }, 30_000);

  it('does not read the file for a build let go while it waited for its turn', async () => {
    const { fileBytes, otherRead, waitingReplica } = await sourceOnFile(300, (bytes) => bytes);
    const other = await otherRead(fileBytes);
    const { replicas } = await waitingReplica();
    const begun = reading.begun; // (the store's own load read the file)
    replicas.close();
    other.done();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reading.begun).toBe(begun);
  }, 30_000);

  it('ends the wait for a turn when its set closes: the task waiting is no longer kept going by it', async () => {
    const { at, fileBytes, otherRead, set } = await sourceOnFile(300, (bytes) => bytes);
    await otherRead(fileBytes);
    // a task that gives a build up with no news of it for 600 ms: only the wait for its turn keeps it going
    const replicas = set(600);
    const asked = replicas.graph(at).then(() => 'built', () => 'ended');
    expect(await until(() => replicas.builds(at.key), 5_000)).toBe(true);
    replicas.close();
    expect(await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting'))])).toBe('ended');
  }, 30_000);

  it('keeps the turn of a reader whose worker still runs when another worker stops', async () => {
    const { source, graph, fileBytes, otherRead, waitingReplica } = await sourceOnFile(300, (bytes) => bytes);
    const other = await otherRead(fileBytes);
    const { asked, built } = await waitingReplica();
    source.forgetPrepared(new Set([threadId]));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(built()).toBe(false);
    other.done();
    expect((await asked).factCount).toBe(graph.factCount);
  }, 30_000);

  it('never grants the waiting ask of a worker that stopped', async () => {
    const stopped = threadId + 1_000;
    const running = new Set([threadId, stopped]);
    const asksHeard: number[] = [];
    const { source, fileBytes, askRead, otherRead } = await sourceOnFile(300, (bytes) => bytes, (worker) => (asksHeard.push(worker), running.has(worker)));
    const other = await otherRead(fileBytes);
    const waiting = askRead(fileBytes, stopped);
    expect(await until(() => asksHeard.includes(stopped), 5_000)).toBe(true);
    running.delete(stopped);
    source.forgetPrepared(new Set(running));
    other.done();
    (await otherRead(fileBytes)).done();
    expect(waiting.granted()).toBe(false);
  }, 30_000);

  it('grants the asks in the order asked: a small file does not pass a large one waiting before it', async () => {
    const asksHeard: number[] = [];
    const { askRead } = await sourceOnFile(300, () => 100, (worker) => (asksHeard.push(worker), true));
    const first = askRead(60, 1);
    const large = askRead(500, 2);
    const small = askRead(10, 3);
    expect(await until(() => asksHeard.includes(3) && first.granted(), 5_000)).toBe(true);
    expect([large.granted(), small.granted()]).toEqual([false, false]);
    first.done();
    expect(await until(large.granted, 5_000)).toBe(true);
    // (the large file is read alone)
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(small.granted()).toBe(false);
    large.done();
    expect(await until(small.granted, 5_000)).toBe(true);
  }, 30_000);

  it('lets the reads waiting go once a read granted makes no progress for the replica wait, its bytes counted until it returns', async () => {
    const { fileBytes, askRead, hungRead } = await sourceOnFile(300, (bytes) => 2 * bytes);
    await catchingLog(async (lines) => {
      const { release } = await hungRead(3_000);
      // a read that does not fit beside it waits for it, while it may yet go on ...
      const next = askRead(fileBytes + 1);
      await sleep(1_500);
      expect(next.granted()).toBe(false);
      // ... and goes (alone) once it made no progress for the replica wait, which is logged once, with its graph and bytes
      expect(await until(next.granted, 10_000)).toBe(true);
      expect(lines()).toHaveLength(1);
      expect(lines()[0]).toContain(`graph 'g' (tenant 't', ${fileBytes} bytes)`);
      // the hung read's bytes still count (its file's buffer is held): a read that would fit beside `next` alone waits
      const beside = askRead(fileBytes - 1);
      await sleep(500);
      expect(beside.granted()).toBe(false);
      // until the hung read returns
      release();
      expect(await until(beside.granted, 5_000)).toBe(true);
    });
  }, 30_000);

  it('keeps the turn of a read that says it goes on for longer than the replica wait: its silence frees the turn, not its age', async () => {
    const { fileBytes, askRead, hungRead } = await sourceOnFile(300, (bytes) => 2 * bytes);
    await catchingLog(async (lines) => {
      // a slow read, its chunks coming every sixth of the replica wait, held for twice that wait after its grant
      const { release } = await hungRead(3_000, 500);
      const next = askRead(fileBytes + 1);
      await sleep(6_000);
      expect(next.granted()).toBe(false);
      expect(lines()).toEqual([]);
      release();
      expect(await until(next.granted, 5_000)).toBe(true);
    });
  }, 30_000);

  it('lets no read go alone once the stalled reads hold the bound, logged once, until one of them returns', async () => {
    const { askRead } = await sourceOnFile(300, () => 100);
    await catchingLog(async (lines) => {
      const first = askRead(60);
      expect(await until(first.granted, 5_000)).toBe(true);
      first.stalled();
      // the first stalled read leaves the bound room: a read too large to fit beside it goes, alone
      const second = askRead(60);
      expect(await until(second.granted, 5_000)).toBe(true);
      second.stalled();
      // the two stalled hold 120 bytes of the bound's 100: no read goes until one of them returns
      const held = askRead(10);
      const heldToo = askRead(10);
      await sleep(1_000);
      expect([held.granted(), heldToo.granted()]).toEqual([false, false]);
      // one line for the first stall, and one for the hold, with the stalled reads and their bytes
      expect(lines()).toHaveLength(2);
      expect(lines()[0]).toContain('(tenant \'t\', 60 bytes) has made no progress');
      expect(lines()[1]).toContain('2 stalled reads of snapshot files hold 120 bytes');
      first.done();
      expect(await until(() => held.granted() && heldToo.granted(), 5_000)).toBe(true);
      // the hold lifted: a later one is logged again
      held.done();
      heldToo.done();
      const third = askRead(60);
      expect(await until(third.granted, 5_000)).toBe(true);
      third.stalled();
      const heldAgain = askRead(10);
      await sleep(500);
      expect(heldAgain.granted()).toBe(false);
      expect(lines()).toHaveLength(3);
      second.done();
      expect(await until(heldAgain.granted, 5_000)).toBe(true);
    });
  }, 30_000);

  it('forgets a hung read whose worker stopped: its bytes no longer count', async () => {
    const other = threadId + 1_000;
    const { source, fileBytes, askRead, hungRead } = await sourceOnFile(300, (bytes) => 2 * bytes);
    await catchingLog(async () => {
      await hungRead(1_500);
      // (other workers' reads: the stall lets the first go, the hung read's bytes keep the second waiting)
      expect(await until(askRead(fileBytes + 1, other).granted, 10_000)).toBe(true);
      const beside = askRead(fileBytes - 1, other);
      await sleep(500);
      expect(beside.granted()).toBe(false);
      // piscina ended the hung reader's thread
      source.forgetPrepared(new Set([other]));
      expect(await until(beside.granted, 5_000)).toBe(true);
    });
  }, 30_000);

  it('lets a read go once a set closed with its ask waiting, an ask it will never read for', async () => {
    const { graph, at, fileBytes, otherRead, set, waitingReplica } = await sourceOnFile(300, (bytes) => bytes);
    const other = await otherRead(fileBytes);
    const { replicas } = await waitingReplica();
    replicas.close();
    other.done();
    expect(await within10s(set().graph(at).then((replica) => replica.factCount))).toBe(graph.factCount);
  }, 30_000);

  it('frees the turn of a read under way when its set closes, before the read returns', async () => {
    const { graph, at, set, hungRead } = await sourceOnFile(300, (bytes) => bytes);
    const { replicas } = await hungRead();
    replicas.close();
    expect(await within10s(set().graph(at).then((replica) => replica.factCount))).toBe(graph.factCount);
  }, 30_000);

  it('counts the wait for its turn as the build going on: the task is not given up, nor the graph asked for again', async () => {
    const { graph, at, fileBytes, heard, otherRead, set } = await sourceOnFile(300, (bytes) => bytes);
    const other = await otherRead(fileBytes);
    // a task that gives a build up with no news of it for 600 ms, made to wait some four times that
    const replicas = set(600);
    const asked = replicas.graph(at);
    expect(await until(() => replicas.builds(at.key), 5_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    other.done();
    expect((await asked).factCount).toBe(graph.factCount);
    expect(heard.filter(({ type }) => type === 'need')).toHaveLength(1);
  }, 30_000);
});
