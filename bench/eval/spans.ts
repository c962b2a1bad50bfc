import { spansOverlap } from '../../engine/extract/symbolic/text.ts';
import type { TextSpan } from '../../engine/extract/types.ts';
import { ZERO_COUNTS, type Counts } from './score.ts';

/**
 * Span-level scoring of named mentions (the held-out documents, corpora/gold/README.md):
 * person, organisation and place spans, each matched exactly and by overlap. Pure functions.
 */

export const SPAN_CLASSES = ['PER', 'ORG', 'LOC'] as const;
export type SpanClass = (typeof SPAN_CLASSES)[number];

export interface ClassedSpan extends TextSpan { class: SpanClass }

/** An actor's span class: individuals are persons, every other actor type (states and communities too) an organisation. */
export const spanClassOfActor = (actorType: string | undefined): SpanClass => (actorType === 'individual' ? 'PER' : 'ORG');

export type SpanCounts = Record<SpanClass, Counts>;
export interface SpanOutcome { exact: SpanCounts; overlap: SpanCounts }

const sameSpan = (a: TextSpan, b: TextSpan) => a.start === b.start && a.end === b.end;

/** One copy of each (class, start, end): two nodes quoting the same text are one prediction. */
function distinct(spans: readonly ClassedSpan[]): ClassedSpan[] {
  const seen = new Set<string>();
  return spans.filter((span) => {
    const key = `${span.class}:${span.start}:${span.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Scores predicted spans against gold named mentions, per class.
 * - exact: a gold span is found by a predicted span of its class with the same offsets;
 *   every other predicted span of that class is a false positive.
 * - overlap: one unit per gold span: found when any predicted span of its class overlaps it
 *   (several fragments on one gold span count once); a predicted span of that class
 *   overlapping no gold span of the class is a false positive.
 * Predicted spans that overlap a gold reference (a pronoun, office or nominal mention) and no
 * gold named mention are left out of both: references are scored apart.
 */
export function scoreSpans(gold: readonly ClassedSpan[], predictedSpans: readonly ClassedSpan[], references: readonly TextSpan[]): SpanOutcome {
  const predicted = distinct(predictedSpans).filter(
    (span) => gold.some((named) => spansOverlap(named, span)) || !references.some((reference) => spansOverlap(reference, span)),
  );
  const exact = {} as SpanCounts;
  const overlap = {} as SpanCounts;
  for (const spanClass of SPAN_CLASSES) {
    const goldOfClass = gold.filter((span) => span.class === spanClass);
    const predictedOfClass = predicted.filter((span) => span.class === spanClass);
    const exactHits = goldOfClass.filter((named) => predictedOfClass.some((span) => sameSpan(named, span))).length;
    exact[spanClass] = { tp: exactHits, fn: goldOfClass.length - exactHits, fp: predictedOfClass.filter((span) => !goldOfClass.some((named) => sameSpan(named, span))).length };
    const overlapHits = goldOfClass.filter((named) => predictedOfClass.some((span) => spansOverlap(named, span))).length;
    overlap[spanClass] = { tp: overlapHits, fn: goldOfClass.length - overlapHits, fp: predictedOfClass.filter((span) => !goldOfClass.some((named) => spansOverlap(named, span))).length };
  }
  return { exact, overlap };
}

export const ZERO_SPAN_OUTCOME: SpanOutcome = {
  exact: { PER: ZERO_COUNTS, ORG: ZERO_COUNTS, LOC: ZERO_COUNTS },
  overlap: { PER: ZERO_COUNTS, ORG: ZERO_COUNTS, LOC: ZERO_COUNTS },
};
