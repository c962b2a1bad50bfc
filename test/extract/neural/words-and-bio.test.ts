import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupEntities, parseLabel, type WordPrediction } from '../../../engine/extract/neural/bio.ts';
import { planWindows } from '../../../engine/extract/neural/windows.ts';
import { splitWords } from '../../../engine/extract/neural/words.ts';

const wordsOf = (text: string, from?: number, to?: number) => splitWords(text, from, to).map((w) => text.slice(w.start, w.end));

describe('splitWords', () => {
  it('separates punctuation and ASCII symbols the way BERT pre-tokenizes', () => {
    expect(wordsOf("al-Burhan's forces (SAF) took $5m, 20% of El-Obeid's fuel.")).toEqual([
      'al', '-', 'Burhan', "'", 's', 'forces', '(', 'SAF', ')', 'took', '$', '5m', ',', '20', '%', 'of', 'El', '-', 'Obeid',
      "'", 's', 'fuel', '.',
    ]);
  });

  it('keeps accents, emoji and other symbols inside words, splits CJK ideographs and unicode punctuation', () => {
    expect(wordsOf('Café «Ñandú» 东京会谈 €5 👍🏽ok — “quote”')).toEqual([
      'Café', '«', 'Ñandú', '»', '东', '京', '会', '谈', '€5', '👍🏽ok', '—', '“', 'quote', '”',
    ]);
  });

  it('gives offsets into the whole text when asked for a region', () => {
    const text = 'First sentence. Second one here.';
    const spans = splitWords(text, 16, text.length);
    expect(spans[0]).toEqual({ start: 16, end: 22 });
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Second', 'one', 'here', '.']);
  });

  it('always returns spans that index the text and lose no non-space character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const spans = splitWords(text);
        let previousEnd = 0;
        for (const span of spans) {
          expect(span.start).toBeGreaterThanOrEqual(previousEnd);
          expect(text.slice(span.start, span.end)).not.toMatch(/\s/);
          previousEnd = span.end;
        }
        expect(spans.map((s) => text.slice(s.start, s.end)).join('')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});

describe('parseLabel', () => {
  it('reads IOB2, BIOES and plain labels', () => {
    expect(parseLabel('O')).toBeNull();
    expect(parseLabel('B-PER')).toEqual({ prefix: 'B', type: 'PER' });
    expect(parseLabel('I-ORG')).toEqual({ prefix: 'I', type: 'ORG' });
    expect(parseLabel('E-LOC')).toEqual({ prefix: 'E', type: 'LOC' });
    expect(parseLabel('S_MISC')).toEqual({ prefix: 'S', type: 'MISC' });
    expect(parseLabel('LOCATION')).toEqual({ prefix: 'I', type: 'LOCATION' });
  });
});

describe('groupEntities', () => {
  const text = 'Rapid Support Forces shelled El Fasher near Darfur';
  const spans = splitWords(text);
  const predict = (labels: string[], scores: number[] = labels.map(() => 0.9)): WordPrediction[] =>
    spans.map((s, i) => ({ ...s, label: labels[i]!, score: scores[i]! }));

  it('groups B- and following I- words of the same type, with offsets and mean score', () => {
    const entities = groupEntities(text, predict(['B-ORG', 'I-ORG', 'I-ORG', 'O', 'B-LOC', 'I-LOC', 'O', 'B-LOC'], [0.9, 0.6, 0.3, 1, 0.8, 0.4, 1, 0.7]));
    expect(entities.map(({ label, text, start, end }) => ({ label, text, start, end }))).toEqual([
      { label: 'ORG', text: 'Rapid Support Forces', start: 0, end: 20 },
      { label: 'LOC', text: 'El Fasher', start: 29, end: 38 },
      { label: 'LOC', text: 'Darfur', start: 44, end: 50 },
    ]);
    expect(entities[0]!.score).toBeCloseTo(0.6, 10);
    expect(entities[1]!.score).toBeCloseTo(0.6, 10);
  });

  it('starts a new entity at B- even of the same type, and at I- of another type or without B-', () => {
    const entities = groupEntities(text, predict(['B-ORG', 'B-ORG', 'I-LOC', 'O', 'I-LOC', 'I-LOC', 'O', 'O']));
    expect(entities.map((e) => `${e.label}:${e.text}`)).toEqual(['ORG:Rapid', 'ORG:Support', 'LOC:Forces', 'LOC:El Fasher']);
  });

  it('closes entities at E- and S- tags, and merges adjacent plain labels', () => {
    expect(groupEntities(text, predict(['B-ORG', 'E-ORG', 'I-ORG', 'O', 'S-LOC', 'S-LOC', 'O', 'O'])).map((e) => e.text)).toEqual([
      'Rapid Support',
      'Forces',
      'El',
      'Fasher',
    ]);
    expect(groupEntities(text, predict(['ORG', 'ORG', 'ORG', 'O', 'LOC', 'LOC', 'O', 'PER'])).map((e) => `${e.label}:${e.text}`)).toEqual([
      'ORG:Rapid Support Forces',
      'LOC:El Fasher',
      'PER:Darfur',
    ]);
  });

  it('returns nothing when every word is outside', () => {
    expect(groupEntities(text, predict(spans.map(() => 'O')))).toEqual([]);
  });
});

describe('planWindows', () => {
  it('keeps whole words within the token budget, in order and without overlap', () => {
    expect(planWindows([1, 2, 3, 1, 1], 4)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 4 },
      { from: 4, to: 5 },
    ]);
  });

  it('gives a word longer than the budget its own window and counts words without tokens as free', () => {
    expect(planWindows([1, 9, 0, 1], 3)).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
      { from: 2, to: 4 },
    ]);
    expect(planWindows([], 3)).toEqual([]);
  });

  it('covers every word exactly once and respects the budget', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 50 }), fc.integer({ min: 1, max: 10 }), (counts, budget) => {
        const windows = planWindows(counts, budget);
        let next = 0;
        for (const w of windows) {
          expect(w.from).toBe(next);
          expect(w.to).toBeGreaterThan(w.from);
          const used = counts.slice(w.from, w.to).reduce((a, b) => a + b, 0);
          if (w.to - w.from > 1) expect(used).toBeLessThanOrEqual(budget);
          next = w.to;
        }
        expect(next).toBe(counts.length);
      }),
    );
  });
});
