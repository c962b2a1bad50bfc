import { queueOptionsSymbol, type PiscinaTask } from 'piscina';
import { describe, expect, it } from 'vitest';
import { ENGINES_PER_GRAPH, ViewRouter } from '../../engine/reason/workers.ts';

// The choice of a worker for a task by the views its engine holds (engine/reason/workers.ts ViewRouter), over four
// workers standing in for piscina's: which are free, and which views each engine says it holds.
type Worker = Parameters<ViewRouter['choose']>[1][number];
const worker = (id: number, busy = false) => ({ id, currentUsage: busy ? 1 : 0, terminating: false, destroyed: false }) as unknown as Worker;
const readsView = (graph: string) => ({ [queueOptionsSymbol]: { graph } }) as unknown as PiscinaTask;
const query = { [queueOptionsSymbol]: null } as unknown as PiscinaTask;

describe('routing tasks by the views the engines hold', () => {
  const routerOver = (views: Record<number, string[]>, loading: Record<number, string> = {}, imaging: number[] = [], live = [1, 2, 3, 4]) =>
    new ViewRouter(
      (id) => new Set(views[id] ?? []),
      (id) => loading[id],
      () => live,
      (id) => imaging.includes(id),
    );

  it('gives a task a free worker holding its graph\'s view, and waits when every holder is busy and enough hold it', () => {
    expect(ENGINES_PER_GRAPH).toBe(2);
    const router = routerOver({ 1: ['a'], 2: ['a'], 3: ['b'] });
    expect(router.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4)])?.id).toBe(2);
    // both holders busy: the free ones (3, 4) do not take the view too
    expect(router.choose(readsView('a'), [worker(1, true), worker(2, true), worker(3), worker(4)])).toBeNull();
    expect(router.choose(readsView('a'), [worker(1, true), worker(2, true)])).toBeNull();
  });

  it('has the free worker holding the fewest views take a graph fewer than ENGINES_PER_GRAPH engines hold, and counts it as a holder until it says otherwise', () => {
    const router = routerOver({ 1: ['a'], 2: ['b', 'c'], 3: ['b'] });
    // worker 1, a's one holder, is busy: of the free, 4 holds no view
    expect(router.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4)])?.id).toBe(4);
    // 4 is taking a's view: with 1, two engines hold or take it, so the next task on a waits for one of them
    expect(router.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4, true)])).toBeNull();
    expect(router.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4)])?.id).toBe(4);
    // 4 said its engine holds none (its task was a cut of the view): a's next task takes the free one with the fewest views again
    router.heard(4);
    expect(router.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4, true)])?.id).toBe(3);
  });

  it('gives a task a free worker taking its graph\'s view in parts when none holds it free, and counts that worker among the engines taking it', () => {
    // 3 and 4 are taking views in the background (the warm-up's holds): 3 a's, 4 b's; 2 holds the fewest views
    const router = routerOver({ 1: ['c', 'd'], 2: [], 3: ['c', 'd'], 4: ['c', 'd'] }, { 3: 'a', 4: 'b' });
    // a's task goes to 3, which makes the parts left, not to 2 or 4, which would make a's whole hand-over
    expect(router.choose(readsView('a'), [worker(1), worker(2), worker(3), worker(4)])?.id).toBe(3);
    // a worker holding the view whole comes first
    expect(routerOver({ 1: ['a'], 3: [] }, { 3: 'a' }).choose(readsView('a'), [worker(1), worker(2), worker(3)])?.id).toBe(1);
    // with 3 busy, a free engine takes a too (one engine taking it is fewer than ENGINES_PER_GRAPH)...
    expect(router.choose(readsView('a'), [worker(1), worker(2), worker(3, true), worker(4)])?.id).toBe(2);
    // ...and with 2 now taking it as well, the next task on a waits for one of them
    expect(router.choose(readsView('a'), [worker(1), worker(2, true), worker(3, true), worker(4)])).toBeNull();
  });

  it('counts a worker making a view image as busy while another engine holding the view, or taking it, can take the task', () => {
    // 1 and 2 hold a; 1 is making an image (piscina sees it free): a's task goes to 2, or waits for 2 when 2 is busy
    const router = routerOver({ 1: ['a'], 2: ['a'], 3: ['b'] }, {}, [1]);
    expect(router.choose(readsView('a'), [worker(1), worker(2), worker(3), worker(4)])?.id).toBe(2);
    expect(router.choose(readsView('a'), [worker(1), worker(2, true), worker(3), worker(4)])).toBeNull();
    // one engine holds a, making an image: with fewer than ENGINES_PER_GRAPH holding it, a free engine takes the view
    expect(routerOver({ 1: ['a'], 3: ['b'] }, {}, [1]).choose(readsView('a'), [worker(1), worker(2), worker(3), worker(4)])?.id).toBe(2);
    // an engine taking a's view in parts comes before the one making an image
    expect(routerOver({ 1: ['a'] }, { 2: 'a' }, [1]).choose(readsView('a'), [worker(1), worker(2), worker(3, true), worker(4, true)])?.id).toBe(2);
    // a query waits for a busy worker rather than behind an image
    expect(router.choose(query, [worker(1), worker(2, true), worker(3, true), worker(4, true)])).toBeNull();
    expect(router.choose(query, [worker(1), worker(2, true), worker(3), worker(4, true)])?.id).toBe(3);
  });

  it('gives the task to a worker making a view image, as before, when every engine holding the view is making one, or the pool is that one worker', () => {
    const both = routerOver({ 1: ['a'], 2: ['a'] }, {}, [1, 2]);
    expect(both.choose(readsView('a'), [worker(1, true), worker(2), worker(3), worker(4)])?.id).toBe(2);
    const alone = routerOver({ 1: ['a'] }, {}, [1], [1]);
    expect(alone.choose(readsView('a'), [worker(1)])?.id).toBe(1);
    expect(alone.choose(query, [worker(1)])?.id).toBe(1);
    expect(alone.choose(readsView('b'), [worker(1)])?.id).toBe(1);
  });

  it('gives a query (which reads the replica, not the view) the free worker holding the fewest views, and nothing when none is free', () => {
    const router = routerOver({ 1: ['a', 'b'], 2: ['a'], 3: ['a', 'b', 'c'] });
    expect(router.choose(query, [worker(1), worker(2), worker(3)])?.id).toBe(2);
    expect(router.choose(query, [worker(1), worker(2, true), worker(3)])?.id).toBe(1);
    expect(router.choose(query, [worker(1, true), worker(2, true)])).toBeNull();
  });

  describe('a graph above the preload bound, whose replica only the workers that asked hold', () => {
    /**
     * A router over workers 1 and 2 that hold the replica of `big` (built in the ms given, ready since `since`: by default
     * long ago) or build it, as they said.
     */
    const replicaRouter = (held: Record<number, number>, building: number[] = [], retry: () => void = () => {}, since = 0) =>
      new ViewRouter(
        () => new Set(),
        () => undefined,
        () => [1, 2],
        () => false,
        {
          builtMs: (id, key) => (key === 'big' ? held[id] : undefined),
          heldSince: (id, key) => (key === 'big' && held[id] !== undefined ? since : undefined),
          builds: (id, key) => key === 'big' && building.includes(id),
        },
        retry,
      );
    const readsReplica = (queuedAt = Date.now()) => ({ [queueOptionsSymbol]: { replica: 'big', queuedAt } }) as unknown as PiscinaTask;

    it('gives its task the free worker holding the replica, or building it, before one with fewer views', () => {
      expect(replicaRouter({ 2: 1_000 }).choose(readsReplica(), [worker(1), worker(2)])?.id).toBe(2);
      expect(replicaRouter({}, [2]).choose(readsReplica(), [worker(1), worker(2)])?.id).toBe(2);
      // none holds it: any free worker, as a query on a graph every worker holds
      expect(replicaRouter({}).choose(readsReplica(), [worker(1), worker(2)])?.id).toBe(1);
    });

    it('has its task wait for the busy worker building the replica however long, rather than make a second copy', () => {
      const router = replicaRouter({}, [1]);
      expect(router.choose(readsReplica(Date.now() - 3_600_000), [worker(1, true), worker(2)])).toBeNull();
    });

    it('has its task wait for a busy holder as long as the replica took to build, then go to a free worker', async () => {
      let retried = 0;
      const router = replicaRouter({ 1: 200 }, [], () => retried++);
      const task = readsReplica();
      expect(router.choose(task, [worker(1, true), worker(2)])).toBeNull();
      // a nudge when the wait is up, for piscina to offer the task again
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(retried).toBe(1);
      expect(router.choose(task, [worker(1, true), worker(2)])?.id).toBe(2);
      // 2 makes a copy of its own now: the next task goes to it when it is free, and waits for it (or 1) when not
      expect(router.choose(readsReplica(), [worker(1, true), worker(2)])?.id).toBe(2);
      expect(router.choose(readsReplica(), [worker(1, true), worker(2, true)])).toBeNull();
    });

    it('has its task wait for a holder busy with a task this router gave it only as long as its copy took to build', () => {
      const router = replicaRouter({ 1: 100 });
      // 1 holds the copy and takes the first task, so counts as building it too: its build time still bounds the wait
      expect(router.choose(readsReplica(), [worker(1), worker(2)])?.id).toBe(1);
      expect(router.choose(readsReplica(), [worker(1, true), worker(2)])).toBeNull();
      expect(router.choose(readsReplica(Date.now() - 3_600_000), [worker(1, true), worker(2)])?.id).toBe(2);
    });

    it('counts the wait for a busy holder from when its copy was ready, not from while it was building', async () => {
      // a task that came an hour ago, while 1 built the copy it has held for a moment: it waits its build time from now
      const router = replicaRouter({ 1: 200 }, [], () => {}, Date.now());
      const task = readsReplica(Date.now() - 3_600_000);
      expect(router.choose(task, [worker(1, true), worker(2)])).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(router.choose(task, [worker(1, true), worker(2)])?.id).toBe(2);
    });

    it('counts the worker given a task on it as building its replica until the task ends, before the worker says so', () => {
      const router = replicaRouter({});
      const first = readsReplica();
      expect(router.choose(first, [worker(1), worker(2)])?.id).toBe(1);
      expect(router.choose(readsReplica(), [worker(1, true), worker(2)])).toBeNull();
      router.ended((first as unknown as Record<symbol, Parameters<ViewRouter['ended']>[0]>)[queueOptionsSymbol]);
      expect(router.choose(readsReplica(), [worker(1, true), worker(2)])?.id).toBe(2);
    });

    it('has a task that reads its view, which no free engine holds, go to a free worker holding the replica', () => {
      const router = replicaRouter({ 2: 1_000 });
      const readsBoth = { [queueOptionsSymbol]: { graph: 'big', replica: 'big', queuedAt: Date.now() } } as unknown as PiscinaTask;
      expect(router.choose(readsBoth, [worker(1), worker(2)])?.id).toBe(2);
    });
  });
});
