import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SentenceBatcher } from '../../../engine/extract/neural/sentence-batcher.ts';
import type { SentenceLabels } from '../../../engine/extract/neural/token-classifier.ts';

/** A runner whose batches the test answers or fails one by one; a sentence's label is its first word. */
function heldRunner() {
  const batches: { sentences: string[][]; answer(): void; fail(error: Error): void }[] = [];
  const run = (sentences: string[][]) =>
    new Promise<SentenceLabels[]>((resolve, reject) => {
      batches.push({ sentences, answer: () => resolve(sentences.map((words) => ({ labels: [words[0]!], scores: [1] }))), fail: reject });
    });
  return { batches, run };
}

/** A batcher of `lanes` lanes and batches of at most `maxBatch` sentences over a held runner. */
function heldBatcher(lanes: number, maxBatch: number) {
  const runner = heldRunner();
  return { runner, batcher: new SentenceBatcher(runner.run, lanes, maxBatch) };
}

const sentences = (call: string, count: number) => Array.from({ length: count }, (_, i) => [`${call}${i}`]);
const firstWords = (labels: SentenceLabels[]) => labels.map((l) => l.labels[0]);
const settled = () => new Promise((resolve) => setImmediate(resolve));
/** A signal that never aborts. */
const never = new AbortController().signal;

describe('sentence batcher', () => {
  it('sends queued calls together, round-robin and each in its own order, up to the batch bound, one batch per lane in flight', async () => {
    const { runner, batcher } = heldBatcher(2, 4);
    const a = batcher.submit(sentences('a', 3), never);
    const b = batcher.submit(sentences('b', 3), never);
    const c = batcher.submit(sentences('c', 5), never);
    // a alone on two idle lanes: 2 + 1; b and c wait for a lane.
    expect(runner.batches.map((x) => x.sentences.flat())).toEqual([['a0', 'a1'], ['a2']]);
    runner.batches[0]!.answer();
    await settled();
    expect(runner.batches[2]!.sentences.flat()).toEqual(['b0', 'b1', 'c0', 'c1']);
    runner.batches[1]!.answer();
    await settled();
    expect(firstWords(await a)).toEqual(['a0', 'a1', 'a2']);
    expect(runner.batches[3]!.sentences.flat()).toEqual(['b2', 'c2', 'c3', 'c4']);
    runner.batches[2]!.answer();
    runner.batches[3]!.answer();
    expect(firstWords(await b)).toEqual(['b0', 'b1', 'b2']);
    expect(firstWords(await c)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(batcher.sent).toEqual({ batches: 4, sentences: 11 });
  });

  it('drops an aborted call’s unsent sentences and fails it once its sent ones are back, leaving the other calls whole', async () => {
    const { runner, batcher } = heldBatcher(1, 2);
    const deadline = new AbortController();
    const slow = batcher.submit(sentences('s', 6), deadline.signal);
    const other = batcher.submit(sentences('o', 2), never);
    expect(runner.batches).toHaveLength(1);
    let outcome: unknown;
    slow.then(
      () => (outcome = 'resolved'),
      (error: unknown) => (outcome = error),
    );
    deadline.abort(new Error('past its time'));
    await settled();
    expect(outcome).toBeUndefined();
    runner.batches[0]!.answer();
    await settled();
    expect(outcome).toMatchObject({ message: 'past its time' });
    expect(runner.batches.map((x) => x.sentences.flat())).toEqual([['s0', 's1'], ['o0', 'o1']]);
    runner.batches[1]!.answer();
    expect(firstWords(await other)).toEqual(['o0', 'o1']);
  });

  it('fails every call a failed batch held a sentence of, and only those', async () => {
    const { runner, batcher } = heldBatcher(1, 3);
    const first = batcher.submit(sentences('f', 1), never);
    const second = batcher.submit(sentences('s', 2), never);
    const third = batcher.submit(sentences('t', 3), never);
    runner.batches[0]!.answer();
    await settled();
    // second and the first sentence of third.
    expect(runner.batches[1]!.sentences.flat()).toEqual(['s0', 's1', 't0']);
    runner.batches[1]!.fail(new Error('worker died'));
    await expect(second).rejects.toThrow('worker died');
    await expect(third).rejects.toThrow('worker died');
    expect(firstWords(await first)).toEqual(['f0']);
    // third's unsent sentences were dropped; the batcher goes on with the next call.
    const next = batcher.submit(sentences('n', 1), never);
    expect(runner.batches.map((x) => x.sentences.flat())).toEqual([['f0'], ['s0', 's1', 't0'], ['n0']]);
    runner.batches[2]!.answer();
    expect(firstWords(await next)).toEqual(['n0']);
  });

  it('sends a small call queued behind a large one in the next batch, not after all of the large one', async () => {
    const { runner, batcher } = heldBatcher(2, 32);
    const large = batcher.submit(sentences('l', 640), never);
    const small = batcher.submit(sentences('s', 1), never);
    expect(runner.batches).toHaveLength(2);
    runner.batches[0]!.answer();
    await settled();
    const next = runner.batches[2]!.sentences.flat();
    expect(next).toHaveLength(32);
    expect(next).toContain('s0');
    // the large call's sentences still go out in its own order
    expect(next.filter((word) => word !== 's0')).toEqual(Array.from({ length: 31 }, (_, i) => `l${64 + i}`));
    runner.batches[2]!.answer();
    expect(firstWords(await small)).toEqual(['s0']);
    // answering a batch again is a no-op; each answer lets the next batch out
    for (let i = 1; i < runner.batches.length; i++) {
      runner.batches[i]!.answer();
      await settled();
    }
    expect(firstWords(await large)).toEqual(Array.from({ length: 640 }, (_, i) => `l${i}`));
  });

  it('rejects a call whose signal has aborted already, sending nothing', async () => {
    const { runner, batcher } = heldBatcher(1, 4);
    const aborted = AbortSignal.abort(new Error('too late'));
    const call = batcher.submit(sentences('a', 2), aborted);
    expect(runner.batches).toHaveLength(0);
    await expect(call).rejects.toThrow('too late');
    expect(batcher.sent).toEqual({ batches: 0, sentences: 0 });
  });

  it('removes its abort listener when the call settles', async () => {
    const { runner, batcher } = heldBatcher(1, 4);
    const shared = new AbortController().signal;
    const call = batcher.submit(sentences('a', 2), shared);
    expect(getEventListeners(shared, 'abort')).toHaveLength(1);
    runner.batches[0]!.answer();
    await call;
    expect(getEventListeners(shared, 'abort')).toHaveLength(0);
  });

  it('fails the calls of a batch whose runner throws, and keeps the lane for the next batch', async () => {
    const runner = heldRunner();
    let throws = true;
    const batcher = new SentenceBatcher(
      (batch) => {
        if (throws) throw new Error('runner broke');
        return runner.run(batch);
      },
      1,
      4,
    );
    await expect(batcher.submit(sentences('a', 2), never)).rejects.toThrow('runner broke');
    throws = false;
    const next = batcher.submit(sentences('n', 1), never);
    expect(runner.batches.map((x) => x.sentences.flat())).toEqual([['n0']]);
    runner.batches[0]!.answer();
    expect(firstWords(await next)).toEqual(['n0']);
  });

  it('fails every call of a batch whose runner returns fewer labels than sentences', async () => {
    const batcher = new SentenceBatcher(async (batch) => batch.slice(1).map((words) => ({ labels: [words[0]!], scores: [1] })), 1, 4);
    const first = batcher.submit(sentences('a', 2), never);
    const second = batcher.submit(sentences('b', 1), never);
    await expect(first).rejects.toThrow('returned 1 labels for a batch of 2 sentences');
    // the second call went alone in the next batch, where the runner's one short label list is empty
    await expect(second).rejects.toThrow('returned 0 labels for a batch of 1 sentences');
  });
});
