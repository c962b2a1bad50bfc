import { describe, expect, it } from 'vitest';
import { scoreSpans, spanClassOfActor, type ClassedSpan } from '../../bench/eval/spans.ts';

const span = (spanClass: ClassedSpan['class'], start: number, end: number): ClassedSpan => ({ class: spanClass, start, end });

describe('scoreSpans', () => {
  it('counts an exact match only with the same offsets and class', () => {
    const outcome = scoreSpans([span('ORG', 0, 10), span('LOC', 20, 25)], [span('ORG', 0, 10), span('ORG', 20, 25)], []);
    expect(outcome.exact.ORG).toEqual({ tp: 1, fp: 1, fn: 0 });
    expect(outcome.exact.LOC).toEqual({ tp: 0, fp: 0, fn: 1 });
  });

  it('counts a partial span as a hit by overlap but a miss and a false positive exactly', () => {
    const outcome = scoreSpans([span('PER', 5, 25)], [span('PER', 15, 25)], []);
    expect(outcome.overlap.PER).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(outcome.exact.PER).toEqual({ tp: 0, fp: 1, fn: 1 });
  });

  it('gives one unit per overlapping gold span: fragments on one gold span count once, not as false positives', () => {
    const outcome = scoreSpans([span('ORG', 0, 30)], [span('ORG', 0, 8), span('ORG', 10, 18), span('ORG', 20, 30)], []);
    expect(outcome.overlap.ORG).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(outcome.exact.ORG).toEqual({ tp: 0, fp: 3, fn: 1 });
  });

  it('counts one prediction twice quoted (two nodes, same span) once', () => {
    expect(scoreSpans([], [span('LOC', 3, 9), span('LOC', 3, 9)], []).exact.LOC).toEqual({ tp: 0, fp: 1, fn: 0 });
  });

  it('leaves predictions on gold references out, unless they also touch a named mention', () => {
    const references = [{ start: 40, end: 42 }, { start: 60, end: 72 }];
    const outcome = scoreSpans([span('ORG', 60, 65)], [span('PER', 40, 42), span('ORG', 60, 72)], references);
    expect(outcome.overlap.PER).toEqual({ tp: 0, fp: 0, fn: 0 });
    expect(outcome.overlap.ORG).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(outcome.exact.ORG).toEqual({ tp: 0, fp: 1, fn: 1 });
  });

  it('classes individuals as persons and every other actor type as an organisation', () => {
    expect(['individual', 'state', 'community', 'unknown'].map(spanClassOfActor)).toEqual(['PER', 'ORG', 'ORG', 'ORG']);
  });
});
