import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/** Each claim of one sentence as type, speaker (a pronoun by the name coreference gave it), targets and words. */
function claims(text: string) {
  const findings = findConflictEntities({ text, source: 'test' });
  const quote = (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : null);
  const speakerName = (span: { start: number; end: number } | undefined) =>
    findings.actors.find((actor) => actor.reference && actor.start === span?.start && actor.end === span.end)?.canonical ?? quote(span);
  return findings.claims.map((claim) => ({
    type: claim.type, speaker: speakerName(claim.speaker), targets: claim.targets.map(quote), text: claim.text,
  }));
}

describe('claims attributed to who made them', () => {
  it('gives a claim reported inside another report to its inner speaker', () => {
    expect(claims('The UN said that the RSF declared it would never accept a return of the Islamist movement.')).toEqual([
      { type: 'RedLine', speaker: 'RSF', targets: [], text: 'it would never accept a return of the Islamist movement' },
    ]);
    expect(claims('The UN said the RSF denied attacking the camp.')).toEqual([
      { type: 'Denial', speaker: 'RSF', targets: [], text: 'the RSF denied attacking the camp' },
    ]);
    expect(claims('According to the UN, the RSF denied attacking the camp.')).toEqual([
      { type: 'Denial', speaker: 'RSF', targets: [], text: 'the RSF denied attacking the camp' },
    ]);
  });

  it('gives a red line an international organisation relays to the party that holds it', () => {
    expect(claims('The UN said the RSF would never accept talks with the army.')).toEqual([
      { type: 'RedLine', speaker: 'RSF', targets: ['the army'], text: 'the RSF would never accept talks with the army' },
    ]);
    expect(claims('According to the UN, the RSF would never accept talks.')).toEqual([
      { type: 'RedLine', speaker: 'RSF', targets: [], text: 'the RSF would never accept talks' },
    ]);
  });

  it('keeps an accusation with the organisation that makes it', () => {
    expect(claims('Amnesty International said the RSF had committed war crimes.')).toEqual([
      { type: 'Accusation', speaker: 'Amnesty International', targets: ['RSF'], text: 'the RSF had committed war crimes' },
    ]);
  });

  it('does not take a name a preposition governs, or one before a pronoun subject, for the speaker', () => {
    expect(claims("The army's envoy to the UN said the government would not accept a ceasefire.")[0]).toMatchObject({ type: 'RedLine', speaker: 'The army' });
    expect(claims('General Abdel Fattah al-Burhan addressed the UN General Assembly in New York, where he said the army would never accept a settlement.')[0])
      .toMatchObject({ type: 'RedLine', speaker: 'Abdel Fattah al-Burhan' });
  });

  it('does not make who threatens a target of the threat', () => {
    expect(claims('President Felix Tshisekedi said the DRC would respond vigorously.')).toEqual([
      { type: 'Threat', speaker: 'Felix Tshisekedi', targets: [], text: 'the DRC would respond vigorously' },
    ]);
  });

  it('leaves a speaker reporting its own stance as it was', () => {
    expect(claims('The RSF said it would never accept talks with the army.')).toEqual([
      { type: 'RedLine', speaker: 'RSF', targets: ['the army'], text: 'it would never accept talks with the army' },
    ]);
  });
});
