import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import type { ClaimType } from '../../../engine/ontology/index.ts';

function claimsOf(text: string) {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2024-06-10' });
  const quote = (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined);
  // A speaker named by a pronoun or a description ("his government", "the group") by the name it stands for.
  const speakerName = (span: { start: number; end: number } | undefined) =>
    findings.actors.find((actor) => actor.reference && actor.start === span?.start && actor.end === span.end)?.canonical ?? quote(span);
  return findings.claims.map((claim) => ({
    type: claim.type,
    cue: quote(claim.cue),
    speaker: speakerName(claim.speaker),
    targets: claim.targets.map(quote),
    text: claim.text,
  }));
}

/** One sentence per claim type, each from a different conflict, with its expected cue, speaker and targets. */
const CASES: { type: ClaimType; text: string; cue: string; speaker: string; targets: string[] }[] = [
  { type: 'RedLine', text: 'President Volodymyr Zelensky said Ukraine would never cede territory to Russia.', cue: 'would never cede', speaker: 'Volodymyr Zelensky', targets: ['Ukraine', 'Russia'] },
  { type: 'RedLine', text: 'Hezbollah said the withdrawal of Israeli troops was non-negotiable.', cue: 'non-negotiable', speaker: 'Hezbollah', targets: ['Israeli troops'] },
  { type: 'Demand', text: 'The African Union called on the RSF to lift the siege of El Fasher.', cue: 'called on', speaker: 'African Union', targets: ['RSF'] },
  { type: 'Offer', text: 'The Houthis offered to release detained UN staff in exchange for prisoners.', cue: 'offered', speaker: 'Houthis', targets: ['UN'] },
  { type: 'Concession', text: 'M23 acknowledged that its fighters had entered Goma.', cue: 'acknowledged', speaker: 'M23', targets: [] },
  { type: 'Commitment', text: 'The Taliban pledged to reopen schools for girls.', cue: 'pledged', speaker: 'Taliban', targets: [] },
  { type: 'Threat', text: 'Al-Shabaab threatened to attack Kenyan troops in Somalia.', cue: 'threatened', speaker: 'Al-Shabaab', targets: ['Kenyan troops'] },
  { type: 'Accusation', text: 'The Congolese army accused Rwanda of arming the M23.', cue: 'accused', speaker: 'Congolese army', targets: ['Rwanda', 'M23'] },
  { type: 'Denial', text: 'The Kremlin denied that Russian forces had targeted civilians.', cue: 'denied', speaker: 'Kremlin', targets: ['Russian forces'] },
  { type: 'Grievance', text: 'Rohingya leaders complained that they had been excluded from the talks.', cue: 'complained', speaker: 'Rohingya', targets: [] },
  { type: 'Justification', text: 'The Israel Defense Forces said the strike was carried out in self-defence.', cue: 'self-defence', speaker: 'Israel Defense Forces', targets: [] },
  { type: 'Position', text: 'Azerbaijani President Ilham Aliyev insisted that Karabakh belonged to Azerbaijan.', cue: 'insisted', speaker: 'Ilham Aliyev', targets: ['Azerbaijan'] },
];

describe('claim types', () => {
  for (const example of CASES) {
    it(`types "${example.cue}" as ${example.type}`, () => {
      const [claim, ...others] = claimsOf(example.text);
      expect(others).toEqual([]);
      expect(claim).toMatchObject({ type: example.type, cue: example.cue, speaker: example.speaker });
      expect(claim.targets).toEqual(example.targets);
    });
  }
});

describe('claim structure', () => {
  it('splits coordinated claims and keeps the speaker for the second', () => {
    const claims = claimsOf('Prime Minister Najib Mikati accused Israel of rejecting every proposal and said his government was committed to the truce.');
    expect(claims.map((c) => [c.type, c.speaker])).toEqual([
      ['Accusation', 'Najib Mikati'],
      ['Commitment', 'Najib Mikati'],
    ]);
  });

  it('attributes a claim to a speaker named after it or introduced by "according to"', () => {
    expect(claimsOf('Any deal must include the return of displaced people, the Sudanese Armed Forces said.')).toEqual([
      expect.objectContaining({ type: 'Demand', speaker: 'Sudanese Armed Forces', text: 'Any deal must include the return of displaced people' }),
    ]);
    expect(claimsOf('According to the ELN, the government had betrayed the peace process.').map((c) => [c.type, c.speaker])).toEqual([
      ['Grievance', 'ELN'],
    ]);
  });

  it('resolves a generic speaker to the named actor of its type mentioned before', () => {
    const claims = claimsOf('M23 fighters entered Goma, and the group demanded talks with Kinshasa.');
    expect(claims.map((c) => [c.type, c.speaker])).toEqual([['Demand', 'M23']]);
  });

  it('turns a cue off when it is negated, but not a red line', () => {
    expect(claimsOf('The militia did not deny the attack.')).toEqual([]);
    expect(claimsOf('Hamas said it would not accept a partial truce.').map((c) => c.type)).toEqual(['RedLine']);
  });

  it('gives an answering clause its own speaker', () => {
    const claims = claimsOf('Tigrayan officials accused Eritrean troops of looting homes, a charge Asmara dismissed as fabricated.');
    expect(claims.map((c) => [c.type, c.speaker, c.targets])).toEqual([
      ['Accusation', undefined, ['Eritrean troops']],
      ['Denial', 'Asmara', []],
    ]);
  });

  it('makes no claim of a bare report of facts', () => {
    expect(claimsOf('MSF said 12 people were killed in the market in Nyala.')).toEqual([]);
  });

  it('leaves the speaker empty when nobody named speaks', () => {
    expect(claimsOf('Residents demanded that the checkpoints be removed.')).toEqual([
      expect.objectContaining({ type: 'Demand', speaker: undefined }),
    ]);
  });
});
