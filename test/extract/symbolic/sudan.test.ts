import { describe, expect, it } from 'vitest';
import { findConflictEntities, SYMBOLIC_EXTRACTOR_VERSION } from '../../../engine/extract/symbolic/index.ts';
import type { TextSpan } from '../../../engine/extract/types.ts';

const text =
  'On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities.';
const findings = findConflictEntities({ text, source: 'test/sudan', document_date: '2024-03-05' });
const quote = (span: TextSpan | undefined) => (span ? text.slice(span.start, span.end) : undefined);

describe('the Sudan sentence', () => {
  it('reports a rule-set version', () => {
    expect(SYMBOLIC_EXTRACTOR_VERSION).toMatch(/^parley-rules\/\d+\.\d+\.\d+$/);
  });

  it('finds both armed actors with their types and canonical names', () => {
    const rsf = findings.actors.find((actor) => actor.text === 'Rapid Support Forces');
    const saf = findings.actors.find((actor) => actor.text === 'Sudanese Armed Forces');
    expect(rsf).toMatchObject({ actor_type: 'armed_group', canonical: 'Rapid Support Forces', source: 'gazetteer' });
    expect(saf).toMatchObject({ actor_type: 'armed_forces', canonical: 'Sudanese Armed Forces' });
    const acronym = findings.actors.find((actor) => actor.text === 'RSF');
    expect(acronym?.canonical).toBe('Rapid Support Forces');
  });

  it('finds the general as an individual without his rank in the span', () => {
    const burhan = findings.actors.find((actor) => actor.actor_type === 'individual');
    expect(burhan).toMatchObject({ text: 'Abdel Fattah al-Burhan', title: 'General', canonical: 'Abdel Fattah al-Burhan' });
    expect(quote(burhan)).toBe('Abdel Fattah al-Burhan');
  });

  it('links the general to the SAF with MEMBER_OF', () => {
    const membership = findings.relations.filter((relation) => relation.type === 'MEMBER_OF');
    expect(membership.map((relation) => [quote(relation.from), quote(relation.to)])).toEqual([
      ['Abdel Fattah al-Burhan', 'Sudanese Armed Forces'],
    ]);
  });

  it('dates 3 March 2024 exactly', () => {
    expect(findings.dates).toEqual([{ start: 3, end: 15, text: '3 March 2024', iso: '2024-03-03' }]);
  });

  it('finds El Fasher as a Sudanese city', () => {
    expect(findings.locations).toEqual([
      expect.objectContaining({ text: 'El Fasher', location_type: 'city', country_code: 'SD' }),
    ]);
  });

  it('finds one ASSAULT event at El Fasher on 2024-03-03 with the RSF as perpetrator', () => {
    const assaults = findings.events.filter((event) => event.event_type === 'ASSAULT');
    expect(assaults).toHaveLength(1);
    const [assault] = assaults;
    expect(quote(assault.trigger)).toBe('attacked');
    expect(quote(assault.location)).toBe('El Fasher');
    const date = findings.dates.find((d) => d.start === assault.date?.start);
    expect(date?.iso).toBe('2024-03-03');
    expect(assault.participants.map((p) => [quote(p), p.role])).toEqual([['Rapid Support Forces', 'perpetrator']]);
    expect(findings.events.filter((event) => event.event_type !== 'ASSAULT')).toEqual([]);
  });

  it('finds the RedLine asserted by al-Burhan and aimed at the RSF', () => {
    expect(findings.claims).toHaveLength(1);
    const [claim] = findings.claims;
    expect(claim.type).toBe('RedLine');
    expect(quote(claim.cue)).toBe('would never accept');
    const burhan = findings.actors.find((actor) => actor.text === 'Abdel Fattah al-Burhan')!;
    expect(claim.speaker).toEqual({ start: burhan.start, end: burhan.end });
    expect(claim.targets.map(quote)).toEqual(['RSF']);
    expect(claim.text).toBe('the army would never accept a ceasefire that leaves the RSF in the cities');
  });

  it('indexes every span into the text exactly', () => {
    for (const mention of [...findings.actors, ...findings.locations, ...findings.dates, ...findings.claims]) {
      expect(text.slice(mention.start, mention.end)).toBe(mention.text);
    }
    for (const event of findings.events) expect(text.slice(event.start, event.end)).toBe(event.text);
  });
});
