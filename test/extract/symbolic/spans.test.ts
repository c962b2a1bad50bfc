import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import type { Findings, TextSpan } from '../../../engine/extract/types.ts';

/** Sentence parts from many conflicts, combined at random into documents. */
const SUBJECTS = [
  'The Rapid Support Forces', 'General Abdel Fattah al-Burhan of the Sudanese Armed Forces', 'Russian forces', 'Hamas',
  'The M23', 'Colonel Mbarga of the Ngoro Liberation Front', 'The Arakan Army', 'Houthi rebels', 'The Tigray Defence Forces',
  'JNIM fighters', 'The ELN', 'HTS', 'Viv Ansanm', 'Al-Shabaab', 'The Taliban administration', 'Azerbaijan', 'India',
  'The Libyan National Army', 'Ahlu Sunnah Wal Jamaah', 'ISWAP', 'Kyiv', 'The UN migration agency', 'Mai-Mai militia leader Kasereka',
  'President Ilham Aliyev', 'The army', 'the militia', 'Kenyan police', 'Israel’s military', 'Les Forces Démocratiques',
];
const PREDICATES = [
  'attacked', 'shelled', 'captured', 'withdrew from', 'held talks in', 'deployed troops to', 'arrested protesters in',
  'said it would never accept a ceasefire in', 'demanded the withdrawal of forces from', 'denied attacking', 'threatened to strike',
  'offered talks in', 'pledged to protect civilians in', 'accused the RSF of shelling', 'complained of being excluded from',
  'said the operation in self-defence targeted', 'insisted that talks in',
];
const PLACES = ['El Fasher', 'Kharkiv', 'Gaza City', 'Goma', 'Sittwe', 'Hodeidah', 'Mekelle', 'Djibo', 'Catatumbo', 'Idlib',
  'Port-au-Prince', 'Mogadishu', 'Kandahar', 'Stepanakert', 'Srinagar', 'Tripoli', 'Palma', 'Maiduguri', 'the Zamzam camp', 'Côte d’Ivoire'];
const DATES = ['on 3 March 2024', 'yesterday', 'last Tuesday', 'in May', 'two weeks ago', 'on 2024-01-15', '', '', ''];
const JOINS = [', while ', '; ', ' and ', ', ', '. ', '.\n\n', ' — ', '. "', '" ', ' (', ') '];

const sentencePart = fc.tuple(fc.constantFrom(...SUBJECTS), fc.constantFrom(...PREDICATES), fc.constantFrom(...PLACES), fc.constantFrom(...DATES))
  .map(([subject, predicate, place, date]) => `${subject} ${predicate} ${place}${date ? ' ' + date : ''}`);
const documentText = fc.tuple(fc.array(fc.tuple(sentencePart, fc.constantFrom(...JOINS)), { minLength: 1, maxLength: 6 }), fc.constantFrom('', ' ', '  ', '\t', 'Ω '))
  .map(([parts, lead]) => lead + parts.map(([part, join]) => part + join).join('') + '.');

function checkSpans(text: string, findings: Findings): void {
  const inside = (span: TextSpan) => {
    expect(span.start).toBeGreaterThanOrEqual(0);
    expect(span.end).toBeLessThanOrEqual(text.length);
    expect(span.end).toBeGreaterThan(span.start);
  };
  const mentions = [...findings.actors, ...findings.locations, ...findings.dates, ...findings.claims, ...findings.events];
  for (const mention of mentions) {
    inside(mention);
    expect(text.slice(mention.start, mention.end)).toBe(mention.text);
  }
  const sameSpan = (span: TextSpan, pool: readonly TextSpan[]) => pool.some((m) => m.start === span.start && m.end === span.end);
  for (const claim of findings.claims) {
    inside(claim.cue);
    if (claim.speaker) expect(sameSpan(claim.speaker, findings.actors)).toBe(true);
    for (const target of claim.targets) expect(sameSpan(target, findings.actors)).toBe(true);
  }
  for (const event of findings.events) {
    inside(event.trigger);
    for (const participant of event.participants) expect(sameSpan(participant, findings.actors)).toBe(true);
    if (event.location) expect(sameSpan(event.location, findings.locations)).toBe(true);
    if (event.date) expect(sameSpan(event.date, findings.dates)).toBe(true);
  }
  for (const relation of findings.relations) {
    expect(sameSpan(relation.from, findings.actors)).toBe(true);
    expect(sameSpan(relation.to, findings.actors)).toBe(true);
  }
  // Mentions of one kind never overlap each other.
  for (const pool of [findings.actors, findings.locations, findings.dates]) {
    const sorted = [...pool].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const overlapping = sorted[i].start < sorted[i - 1].end && !(sorted[i].start === sorted[i - 1].start && sorted[i].end === sorted[i - 1].end);
      expect(overlapping).toBe(false);
    }
  }
}

describe('spans index the text exactly', () => {
  it('holds for generated conflict documents, and extraction is deterministic', () => {
    let actorsSeen = 0;
    let claimsSeen = 0;
    fc.assert(
      fc.property(documentText, (text) => {
        const findings = findConflictEntities({ text, source: 'generated', document_date: '2024-03-07' });
        checkSpans(text, findings);
        expect(findConflictEntities({ text, source: 'generated', document_date: '2024-03-07' })).toEqual(findings);
        actorsSeen += findings.actors.length;
        claimsSeen += findings.claims.length;
      }),
      { numRuns: 200, seed: 20240303 },
    );
    // The generator must exercise the extractor, not only empty findings.
    expect(actorsSeen).toBeGreaterThan(400);
    expect(claimsSeen).toBeGreaterThan(60);
  });

  it('holds for arbitrary text, including unicode and stray punctuation', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 80 }), (noise, ascii) => {
        const text = `${noise} General Ali of the RSF said ${ascii} would never accept it. ${noise}`;
        const findings = findConflictEntities({ text, source: 'noise' });
        checkSpans(text, findings);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
