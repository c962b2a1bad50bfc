import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

function analyse(text: string, document_date = '2024-06-10') {
  const findings = findConflictEntities({ text, source: 'test', document_date });
  const quote = (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined);
  return {
    events: findings.events.map((event) => ({
      type: event.event_type,
      trigger: quote(event.trigger),
      participants: event.participants.map((p) => [quote(p), p.role]),
      location: quote(event.location),
      date: findings.dates.find((d) => d.start === event.date?.start)?.iso,
    })),
    relations: findings.relations.map((relation) => [relation.type, quote(relation.from), quote(relation.to)]),
  };
}

describe('events', () => {
  it('an -s form after a name a preposition governs is a plural noun, not a second act ("strikes on Hezbollah targets")', () => {
    expect(analyse('Israeli forces carried out strikes on Hezbollah targets in southern Lebanon.').events.map((e) => [e.type, e.trigger])).toEqual([
      ['ASSAULT', 'carried out strikes'],
    ]);
    expect(analyse('Hezbollah targets Israeli positions near Metula.').events.map((e) => [e.type, e.trigger])).toEqual([['ASSAULT', 'targets']]);
  });

  it('maps verbs to PLOVER types with perpetrator, target, place and date', () => {
    expect(analyse('On 2 June the M23 attacked the FARDC near Sake.').events).toEqual([
      { type: 'ASSAULT', trigger: 'attacked', participants: [['M23', 'perpetrator'], ['FARDC', 'target']], location: 'Sake', date: '2024-06-02' },
    ]);
    expect(analyse('Russia deployed troops to Belgorod.').events.map((e) => [e.type, e.participants, e.location])).toEqual([
      ['MOBILIZE', [['Russia', 'participant']], 'Belgorod'],
    ]);
    expect(analyse('Police arrested 40 protesters in Nairobi.').events.map((e) => [e.type, e.location])).toEqual([['COERCE', 'Nairobi']]);
    expect(analyse('The European Union sanctioned Wagner Group commanders.').events.map((e) => [e.type, e.participants])).toEqual([
      ['SANCTION', [['European Union', 'perpetrator'], ['Wagner Group', 'target']]],
    ]);
    expect(analyse('Armenia and Azerbaijan held talks in Almaty yesterday.').events).toEqual([
      { type: 'CONSULT', trigger: 'held talks', participants: [['Armenia', 'participant'], ['Azerbaijan', 'participant']], location: 'Almaty', date: '2024-06-09' },
    ]);
    expect(analyse('Eritrean troops withdrew from Tigray.').events.map((e) => [e.type, e.location])).toEqual([['RETREAT', 'Tigray']]);
    expect(analyse('Mali withdrew from the treaty.').events.map((e) => e.type)).toEqual(['REJECT']);
  });

  it('reads the perpetrator of a passive from "by"', () => {
    expect(analyse('The convoy was ambushed by al-Shabaab in Lower Shabelle.').events[0]).toMatchObject({
      type: 'ASSAULT', participants: [['al-Shabaab', 'perpetrator']],
    });
  });

  it('keeps threatened, denied and future acts out of the events', () => {
    expect(analyse('The Houthis threatened to attack ships in the Red Sea.').events.map((e) => e.type)).toEqual(['THREATEN']);
    expect(analyse('Hamas denied that its fighters had killed the hostages.').events).toEqual([]);
    expect(analyse('The army will deploy troops next week.').events).toEqual([]);
  });
});

describe('relations', () => {
  it('finds MEMBER_OF from "of", appositions and titles', () => {
    expect(analyse('General Abdel Rahim Dagalo of the RSF spoke.').relations).toEqual([['MEMBER_OF', 'Abdel Rahim Dagalo', 'RSF']]);
    expect(analyse('Lawrence Kanyuka, a spokesman for the M23, spoke.').relations).toEqual([['MEMBER_OF', 'Lawrence Kanyuka', 'M23']]);
    expect(analyse('Hamas leader Yahya Sinwar spoke.').relations).toEqual([['MEMBER_OF', 'Yahya Sinwar', 'Hamas']]);
  });

  it('finds ALLIED_WITH from backing', () => {
    expect(analyse('The Iran-backed Houthis fired missiles.').relations).toEqual([['ALLIED_WITH', 'Houthis', 'Iran']]);
    expect(analyse('The SDF, backed by the United States, advanced.').relations).toEqual([['ALLIED_WITH', 'SDF', 'United States']]);
  });

  it('finds OPPOSES from clashes, fighting and attacks', () => {
    expect(analyse('Clashes between the SAF and the RSF spread.').relations).toEqual([['OPPOSES', 'SAF', 'RSF']]);
    expect(analyse('The Arakan Army is fighting the Tatmadaw.').relations).toEqual([['OPPOSES', 'Arakan Army', 'Tatmadaw']]);
    expect(analyse('Hezbollah attacked the IDF.').relations).toEqual([['OPPOSES', 'Hezbollah', 'IDF']]);
  });
});
