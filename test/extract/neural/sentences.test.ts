import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../engine/extract/neural/sentences.ts';

const sentencesOf = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('splits at terminal punctuation followed by whitespace and keeps offsets', () => {
    const text = '  Fighting resumed in El Fasher.  Aid convoys were stopped!\nWho will pay?  ';
    const spans = splitSentences(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'Fighting resumed in El Fasher.',
      'Aid convoys were stopped!',
      'Who will pay?',
    ]);
    expect(spans[0]!.start).toBe(2);
  });

  it('does not split after titles, initials and dotted initialisms before names', () => {
    expect(sentencesOf('Gen. Abdel Fattah al-Burhan met Mr. Perthes and Lt. Col. Smith at the U.N. Security Council.')).toEqual([
      'Gen. Abdel Fattah al-Burhan met Mr. Perthes and Lt. Col. Smith at the U.N. Security Council.',
    ]);
    expect(sentencesOf('John F. Kennedy spoke. Dr. No left.')).toEqual(['John F. Kennedy spoke.', 'Dr. No left.']);
  });

  it('splits after an abbreviation or initialism when a sentence opener follows', () => {
    expect(sentencesOf('Troops withdrew to the U.S. The talks resumed on Jan. 5 in Jeddah, etc. They failed.')).toEqual([
      'Troops withdrew to the U.S.',
      'The talks resumed on Jan. 5 in Jeddah, etc.',
      'They failed.',
    ]);
  });

  it('does not split before a lower-case word, inside numbers, or at a closing quote followed by the speaker', () => {
    expect(sentencesOf('"Will they stop?" asked the envoy. Losses rose 3.5 percent, approx. twice as many.')).toEqual([
      '"Will they stop?" asked the envoy.',
      'Losses rose 3.5 percent, approx. twice as many.',
    ]);
  });

  it('ends a sentence after closing quotes and at blank lines without punctuation', () => {
    expect(sentencesOf('He said: "We will never accept this." Then he left.\n\nHEADLINE WITHOUT PERIOD\n\nNext paragraph')).toEqual([
      'He said: "We will never accept this."',
      'Then he left.',
      'HEADLINE WITHOUT PERIOD',
      'Next paragraph',
    ]);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t ')).toEqual([]);
  });

  it('returns ordered, disjoint, trimmed spans that cover every non-space character', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Gen.', 'U.N.', 'The', 'army', 'said', 'it.', 'Why?', 'no!', '\n\n', ' ', '3.5', '"Yes."', 'é', '…'), {
          maxLength: 40,
        }),
        (parts) => {
          const text = parts.join(' ');
          const spans = splitSentences(text);
          let previousEnd = 0;
          let covered = '';
          for (const span of spans) {
            expect(span.start).toBeGreaterThanOrEqual(previousEnd);
            expect(span.end).toBeGreaterThan(span.start);
            const sentence = text.slice(span.start, span.end);
            expect(sentence).toBe(sentence.trim());
            expect(text.slice(previousEnd, span.start).trim()).toBe('');
            covered += sentence;
            previousEnd = span.end;
          }
          expect(text.slice(previousEnd).trim()).toBe('');
          expect(covered.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        },
      ),
    );
  });
});
