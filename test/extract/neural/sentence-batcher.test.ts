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

const sentences = (call: string, count: number) => Array.from({ length: count }, (_, i) => [`${call}${i}`]);
const firstWords = (labels: SentenceLabels[]) => labels.map((l) => l.labels[0]);
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('sentence batcher', () => {
  it('sends queued calls together in order, up to the batch bound, one batch per lane in flight', async () => {
    const runner = heldRunner();
    const batcher = new SentenceBatcher(runner.run, 2, 4);
    const never = new AbortController().signal;
    const a = batcher.submit(sentences('a', 3), never);
    const b = batcher.submit(sentences('b', 3), never);
    const c = batcher.submit(sentences('c', 5), never);
    // a alone on two idle lanes: 2 + 1; b and c wait for a lane.
    expect(runner.batches.map((x) => x.sentences.flat())).toEqual([['a0', 'a1'], ['a2']]);
    runner.batches[0]!.answer();
    await settled();
    expect(runner.batches[2]!.sentences.flat()).toEqual(['b0', 'b1', 'b2', 'c0']);
    runner.batches[1]!.answer();
    await settled();
    expect(firstWords(await a)).toEqual(['a0', 'a1', 'a2']);
    expect(runner.batches[3]!.sentences.flat()).toEqual(['c1', 'c2', 'c3', 'c4']);
    runner.batches[2]!.answer();
    runner.batches[3]!.answer();
    expect(firstWords(await b)).toEqual(['b0', 'b1', 'b2']);
    expect(firstWords(await c)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(batcher.sent).toEqual({ batches: 4, sentences: 11 });
  });

  it('drops an aborted call’s unsent sentences and fails it once its sent ones are back, leaving the other calls whole', async () => {
    const runner = heldRunner();
    const batcher = new SentenceBatcher(runner.run, 1, 2);
    const deadline = new AbortController();
    const never = new AbortController().signal;
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
    const runner = heldRunner();
    const batcher = new SentenceBatcher(runner.run, 1, 3);
    const never = new AbortController().signal;
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
});
