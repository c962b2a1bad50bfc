import { describe, expect, it } from 'vitest';
import { findDates } from '../../../engine/extract/symbolic/dates.ts';

/** 2024-03-07 is a Thursday. */
const DOCUMENT_DATE = '2024-03-07';
const iso = (text: string, documentDate: string | null = DOCUMENT_DATE) => findDates(text, documentDate ?? undefined).map((date) => [date.text, date.iso]);

describe('dates', () => {
  it('normalises absolute dates in the common written forms', () => {
    expect(iso('On 3 March 2024, March 5, 2023 and 2022-11-30 and the 1st of May 2021.')).toEqual([
      ['3 March 2024', '2024-03-03'],
      ['March 5, 2023', '2023-03-05'],
      ['2022-11-30', '2022-11-30'],
      ['1st of May 2021', '2021-05-01'],
    ]);
  });

  it('resolves days relative to the document date', () => {
    expect(iso('Shelling began yesterday and continued today; talks resume tomorrow.')).toEqual([
      ['yesterday', '2024-03-06'],
      ['today', '2024-03-07'],
      ['tomorrow', '2024-03-08'],
    ]);
    expect(iso('The town fell last Tuesday.')).toEqual([['last Tuesday', '2024-03-05']]);
    expect(iso('The convoy was hit on Monday.')).toEqual([['Monday', '2024-03-04']]);
    expect(iso('Envoys will meet on Monday.')).toEqual([['Monday', '2024-03-11']]);
    expect(iso('A strike hit the port on Thursday.')).toEqual([['Thursday', '2024-03-07']]);
    expect(iso('They withdrew three days ago, and two weeks ago the siege began.')).toEqual([
      ['three days ago', '2024-03-04'],
      ['two weeks ago', '2024-02-22'],
    ]);
  });

  it('gives months and years when that is all the text says', () => {
    expect(iso('Fighting resumed in January and escalated in March 2023 and since 2019.')).toEqual([
      ['January', '2024-01'],
      ['March 2023', '2023-03'],
      ['2019', '2019'],
    ]);
    expect(iso('The offensive began on 12 February and the truce failed last month.')).toEqual([
      ['12 February', '2024-02-12'],
      ['last month', '2024-02'],
    ]);
  });

  it('puts a month far after the document date in the year before', () => {
    expect(iso('The ceasefire collapsed in November.')).toEqual([['November', '2023-11']]);
  });

  it('does not read the verb "may" or the noun "march" as months', () => {
    expect(iso('Rebels may march on the capital.')).toEqual([]);
  });

  it('returns only self-contained dates without a document date', () => {
    expect(iso('On 3 March 2024 and yesterday and in May.', null)).toEqual([['3 March 2024', '2024-03-03']]);
  });

  it('rejects impossible days', () => {
    expect(iso('On 31 February 2024.')).toEqual([]);
  });
});
