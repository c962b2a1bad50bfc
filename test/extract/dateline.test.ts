import { describe, expect, it } from 'vitest';
import { datelineDate } from '../../engine/extract/dateline.ts';

describe('datelineDate', () => {
  it.each([
    ['Headline\n\nKHARTOUM, 4 March 2024 - On 3 March 2024 the RSF attacked.', '2024-03-04'],
    ['# Title\n\n*Briefing note, 12 March 2024. Sample.*', '2024-03-12'],
    ['Statement\n\nNyala, 6 March 2024\n\nThe RSF deny it.', '2024-03-06'],
    ['12 May 2023\nStatement of the council', '2023-05-12'],
    ['Published: 2024-05-04\nText', '2024-05-04'],
  ])('takes the dateline of %j', (text, iso) => {
    expect(datelineDate(text)).toBe(iso);
  });

  it.each([
    ['On 3 March 2024 the RSF attacked El Fasher.'],
    ['Title\n\nThe army said on 4 May 2024 that it would not leave.'],
    ['KHARTOUM, March 2024 - a month of fighting'],
    ['a\nb\nc\nd\ne\nGOMA, 9 February 2024 - too far down'],
    [''],
  ])('takes no date from %j', (text) => {
    expect(datelineDate(text)).toBeUndefined();
  });
});
