import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/** Speaker attribution and claim and event triggers (issue 9): one describe per category. */

const extract = (text: string) => findConflictEntities({ text, source: 'test', document_date: '2024-06-10' });
const claimsOf = (text: string) => {
  const findings = extract(text);
  return findings.claims.map((claim) => [claim.type, claim.speaker ? text.slice(claim.speaker.start, claim.speaker.end) : null]);
};

describe('quoted speech', () => {
  it('the reporting verb after the quotation, before its speaker', () => {
    expect(claimsOf('\u201cWe will never hand back the town of Kalo,\u201d said Colonel Aram Vesk, the commander of the Northern Shield Task Force.')).toEqual([
      ['RedLine', 'Aram Vesk'],
    ]);
  });

  it('the reporting verb after the quotation and its speaker; actors inside the quote do not speak', () => {
    expect(claimsOf('\u201cKorinthia must withdraw from Halvik,\u201d the Valdoran Liberation Front said in a statement.')).toEqual([
      ['Demand', 'Valdoran Liberation Front'],
    ]);
    expect(claimsOf('"The Kessari Front must disarm," the secretary said after meeting Defence Minister Aram Vesk.')).toEqual([['Demand', null]]);
  });

  it('the reporting verb before the quotation', () => {
    expect(claimsOf('Defence Minister Aram Vesk said: \u201cThe Kessari Front must disarm.\u201d')).toEqual([['Demand', 'Aram Vesk']]);
  });
});

describe('claim triggers in context', () => {
  it('denying someone a safe haven is not a Denial; denying a charge is', () => {
    expect(claimsOf('The alliance will act with partners to deny the Kessari Front a safe haven in the hills.')).toEqual([]);
    expect(claimsOf('The Kessari Front denied the accusations.')).toEqual([['Denial', 'Kessari Front']]);
  });

  it('refusing to hand back or give back a place is a RedLine', () => {
    expect(claimsOf('The Kessari Front said it would never hand back the town of Kalo.')).toEqual([['RedLine', 'Kessari Front']]);
    expect(claimsOf('The Kessari Front said it will not give back the hills.')).toEqual([['RedLine', 'Kessari Front']]);
  });
});

describe('event triggers in context', () => {
  it('"free from" and "the release of" are no RETREAT; "freed" and "withdrew" are', () => {
    const eventsOf = (text: string) => extract(text).events.map((event) => [event.event_type, text.slice(event.trigger.start, event.trigger.end)]);
    expect(eventsOf('Villagers celebrated being free from the militia, officials said.')).toEqual([]);
    expect(eventsOf('The ministers discussed the next steps for the release of hostages.')).toEqual([['CONSULT', 'discussed']]);
    expect(eventsOf('The militia freed six hostages and withdrew from Kalo.').map(([type]) => type)).toEqual(['RETREAT', 'RETREAT']);
  });
});
