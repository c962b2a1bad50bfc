import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/** Issue 25: cue words of official statements that typed no claim before ("asked ... to", "praised", "holds ... responsible"). */

function claimsOf(text: string) {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2025-01-10' });
  const quote = (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined);
  return findings.claims.map((claim) => ({ type: claim.type, cue: quote(claim.cue), speaker: quote(claim.speaker) }));
}

describe('claim cues of official statements', () => {
  it('"asked X to" is a Demand by its subject; being asked is none', () => {
    expect(claimsOf('Defence Minister Rustem Umerov asked partners to speed up deliveries of air defence systems.')).toEqual([
      { type: 'Demand', cue: 'asked partners to speed', speaker: 'Rustem Umerov' },
    ]);
    expect(claimsOf('The Kesh Front was asked to leave the town by Friday.')).toEqual([]);
    expect(claimsOf('Reporters asked the Kesh Front about the raid.')).toEqual([]);
  });

  it('"praised" is a Position of its subject', () => {
    expect(claimsOf('Information Minister Daud Aweis praised the soldiers who had retaken the town.')).toEqual([
      { type: 'Position', cue: 'praised', speaker: 'Daud Aweis' },
    ]);
  });

  it('"holds X responsible" is an Accusation, as "held X responsible" was', () => {
    expect(claimsOf('The Kivaran government holds Dreva responsible for every attack on the border.')).toMatchObject([
      { type: 'Accusation', cue: 'holds Dreva responsible' },
    ]);
  });

  it('"pledged allegiance" is no allegation, while "alleged" is one', () => {
    expect(claimsOf('Kesh Front fighters, who have pledged allegiance to the Islamic State, attacked a convoy near Talvane.').map((claim) => claim.type)).not.toContain('Accusation');
    expect(claimsOf('The Kivaran defence ministry alleged on Monday that the Islamic State had sent fighters to Talvane.')).toMatchObject([
      { type: 'Accusation', cue: 'alleged' },
    ]);
  });

  it('"expressed the readiness" is an Offer', () => {
    expect(claimsOf('Foreign Minister Ayman Safadi expressed the readiness of the Kingdom to host talks.')).toEqual([
      { type: 'Offer', cue: 'expressed the readiness', speaker: 'Ayman Safadi' },
    ]);
  });

  it('"would keep striking" is a Threat, not a Commitment', () => {
    expect(claimsOf('Hezbollah said it would keep striking Israeli positions.')).toMatchObject([{ type: 'Threat', cue: 'would keep striking' }]);
  });

  it('"stresses that" is a Position, and a demand after it stays a Demand', () => {
    expect(claimsOf('The Ministry of Foreign Affairs stresses that the crossing will remain closed.')).toMatchObject([{ type: 'Position', cue: 'stresses that' }]);
    expect(claimsOf('The Ministry of Foreign Affairs stressed that all parties must protect civilians.')).toMatchObject([{ type: 'Demand' }]);
  });
});
